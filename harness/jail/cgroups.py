"""A control group per run: the definition of "everything the run started".

    tree = find_cgroup_tree()            # CgroupTree, or a reason string when unusable
    group = tree.create(limits)          # memory, pids and CPU accounting, empty
    # ... the launcher writes its pid to every file of group.join_files() ...
    group.cpu_s(); group.kill(); group.wait_empty(5.0); group.remove()

Why a cgroup (as isolate and DOMjudge's runguard do): a process cannot leave its cgroup
without write access to another group's `cgroup.procs` (root-owned, and /sys is not even
mounted in the jail), whatever it does — setsid, double fork, a thread leader that exits
(state Z while its threads run), a pid that wrapped below the run's first pid. So:

* memory: `memory.limit_in_bytes` (v1) / `memory.max` (v2) covers every process *and*
  the tmpfs and SysV/POSIX shared memory pages they touch; swap is off for the group
  (`memsw` = memory on v1, `memory.swap.max` 0 on v2), so the limit is RAM, not RAM+swap;
* processes: `pids.max` counts every process and thread of the group;
* CPU: `cpuacct.usage` (v1) / `cpu.stat usage_usec` (v2): all processes, waited for or
  not, still running or not — the CPU of un-waited children is no longer lost;
* kill: freeze, SIGKILL every member, thaw (v1 freezer: a frozen group cannot fork), or
  `cgroup.kill` (v2, Linux 5.14); a run is over only when its group is empty.

Layout: our groups live below the harness's own group in each hierarchy (so whatever
limits the machine puts on the harness also hold for the runs), in a folder
``fillit-moulinette``; a run's group is named ``run-<harness pid>-<start time>-<n>``,
so that groups a killed harness left can be told from live ones and emptied
(`CgroupTree.remove_stale`).

cgroup v1 needs the memory, pids, cpuacct and freezer hierarchies (what these machines
mount); cgroup v2 needs memory and pids delegated to a group the harness may write:
set FILLIT_CGROUP_ROOT to such a folder (for example one made by
``systemd-run --scope -p Delegate=yes``), else the harness's own group is used when its
parent lets it enable the controllers.
"""
from __future__ import annotations

import contextlib
import errno
import itertools
import os
import signal
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from harness.limits import Limits

GROUP_FOLDER = "fillit-moulinette"
V1_CONTROLLERS = ("memory", "pids", "cpuacct", "freezer")
CGROUP_ROOT_VAR = "FILLIT_CGROUP_ROOT"


class CgroupError(RuntimeError):
    """A cgroup could not be made, limited, read or emptied: the harness's fault."""


def _read(path: Path) -> str:
    with open(path, encoding="ascii") as handle:
        return handle.read()


def _write(path: Path, text: str) -> None:
    try:
        with open(path, "w", encoding="ascii") as handle:
            handle.write(text)
    except OSError as error:
        raise CgroupError(f"cannot write {text.strip()!r} to {path}: {error.strerror}") from None


def _keyed(text: str) -> dict[str, int]:
    """`key value` lines (memory.events, pids.events, cpu.stat, memory.oom_control)."""
    values = {}
    for line in text.splitlines():
        parts = line.split()
        if len(parts) == 2 and parts[1].lstrip("-").isdigit():
            values[parts[0]] = int(parts[1])
    return values


def _members(procs: Path) -> list[int]:
    try:
        return [int(pid) for pid in _read(procs).split()]
    except OSError as error:
        # A group removed meanwhile (by another harness emptying stale groups) has no
        # members: its files are gone (ENOENT) or, on cgroup v1, still open but dead (ENODEV).
        if error.errno in (errno.ENOENT, errno.ENODEV):
            return []
        raise


def _self_start_time() -> str:
    """This process's start time in clock ticks since boot (field 22 of /proc/self/stat)."""
    return _read(Path("/proc/self/stat")).rsplit(")", 1)[1].split()[19]


def _alive(pid: int, start_time: str) -> bool:
    try:
        return _read(Path(f"/proc/{pid}/stat")).rsplit(")", 1)[1].split()[19] == start_time
    except (OSError, IndexError):
        return False


class RunCgroup(Protocol):
    name: str

    def join_files(self) -> list[str]:
        """The `cgroup.procs` files the launcher writes its pid to, before anything else."""

    def cpu_s(self) -> float:
        """CPU time (user + system) of every process that ever ran in the group."""

    def memory_peak_bytes(self) -> int: ...

    def oom_kills(self) -> int:
        """Processes the kernel killed because the group reached its memory limit."""

    def forks_refused(self) -> int:
        """fork/clone calls refused because the group reached its process limit."""

    def members(self) -> list[int]: ...

    def kill(self) -> None:
        """SIGKILL every process of the group, so that none can fork meanwhile."""

    def remove(self) -> None:
        """rmdir the group (it must be empty)."""


def wait_empty(group: RunCgroup, timeout_s: float) -> bool:
    """Kill until the group is empty, `timeout_s` at most; True when it is."""
    end = time.monotonic() + timeout_s
    pause = 0.0005
    while group.members():
        if time.monotonic() > end:
            return False
        group.kill()
        time.sleep(pause)
        pause = min(pause * 2, 0.02)
    return True


# --------------------------------------------------------------------------- cgroup v1


@dataclass
class V1Cgroup:
    name: str
    dirs: dict[str, Path]  # controller -> this group's folder in that hierarchy

    def join_files(self) -> list[str]:
        return [str(d / "cgroup.procs") for d in self.dirs.values()]

    def cpu_s(self) -> float:
        return int(_read(self.dirs["cpuacct"] / "cpuacct.usage")) / 1e9

    def memory_peak_bytes(self) -> int:
        return int(_read(self.dirs["memory"] / "memory.max_usage_in_bytes"))

    def oom_kills(self) -> int:
        control = _keyed(_read(self.dirs["memory"] / "memory.oom_control"))
        # Kernels before 4.13 have no counter: a hit of the limit (failcnt) is the sign.
        return control.get("oom_kill", int(_read(self.dirs["memory"] / "memory.failcnt")) and 1)

    def forks_refused(self) -> int:
        return _keyed(_read(self.dirs["pids"] / "pids.events")).get("max", 0)

    def members(self) -> list[int]:
        found: set[int] = set()
        for folder in self.dirs.values():
            found.update(_members(folder / "cgroup.procs"))
        return sorted(found)

    def kill(self) -> None:
        state = self.dirs["freezer"] / "freezer.state"
        _write(state, "FROZEN")
        end = time.monotonic() + 1.0
        # FREEZING until every task is stopped (a task in an uninterruptible sleep can
        # delay it); kill anyway after a second: SIGKILL is queued and acts on thaw.
        while _read(state).strip() != "FROZEN" and time.monotonic() < end:
            time.sleep(0.0005)
        for pid in self.members():
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        _write(state, "THAWED")

    def remove(self) -> None:
        for folder in self.dirs.values():
            with contextlib.suppress(FileNotFoundError):
                os.rmdir(folder)


@dataclass
class V1Tree:
    """Our folder in each of the memory, pids, cpuacct and freezer hierarchies."""

    bases: dict[str, Path]
    _counter: itertools.count = field(default_factory=itertools.count)

    version = 1

    def create(self, limits: Limits) -> V1Cgroup:
        name = f"run-{os.getpid()}-{_self_start_time()}-{next(self._counter)}"
        group = V1Cgroup(name, {c: base / name for c, base in self.bases.items()})
        try:
            for folder in group.dirs.values():
                os.mkdir(folder, 0o755)
            memory = group.dirs["memory"]
            _write(memory / "memory.limit_in_bytes", f"{limits.memory_bytes}\n")
            if (memory / "memory.memsw.limit_in_bytes").exists():  # (only with swap accounting)
                _write(memory / "memory.memsw.limit_in_bytes", f"{limits.memory_bytes}\n")
            _write(memory / "memory.swappiness", "0\n")
            _write(group.dirs["pids"] / "pids.max", f"{limits.processes}\n")
        except (OSError, CgroupError) as error:
            group.remove()
            raise CgroupError(f"cannot set up cgroup {name}: {error}") from None
        return group

    def remove_stale(self) -> int:
        """Empty and remove the groups of harness processes that are gone."""
        return _remove_stale(self.bases["freezer"],
                             lambda name: V1Cgroup(name, {c: b / name for c, b in self.bases.items()}))


# --------------------------------------------------------------------------- cgroup v2


@dataclass
class V2Cgroup:
    name: str
    path: Path

    def join_files(self) -> list[str]:
        return [str(self.path / "cgroup.procs")]

    def cpu_s(self) -> float:
        return _keyed(_read(self.path / "cpu.stat"))["usage_usec"] / 1e6

    def memory_peak_bytes(self) -> int:
        try:
            return int(_read(self.path / "memory.peak"))
        except FileNotFoundError:  # Linux < 5.19: the current value is all there is
            return int(_read(self.path / "memory.current"))

    def oom_kills(self) -> int:
        return _keyed(_read(self.path / "memory.events")).get("oom_kill", 0)

    def forks_refused(self) -> int:
        return _keyed(_read(self.path / "pids.events")).get("max", 0)

    def members(self) -> list[int]:
        return _members(self.path / "cgroup.procs")

    def kill(self) -> None:
        _write(self.path / "cgroup.kill", "1\n")

    def remove(self) -> None:
        with contextlib.suppress(FileNotFoundError):
            os.rmdir(self.path)


@dataclass
class V2Tree:
    base: Path  # a folder with memory and pids enabled for its children
    _counter: itertools.count = field(default_factory=itertools.count)

    version = 2

    def create(self, limits: Limits) -> V2Cgroup:
        name = f"run-{os.getpid()}-{_self_start_time()}-{next(self._counter)}"
        group = V2Cgroup(name, self.base / name)
        try:
            os.mkdir(group.path, 0o755)
            _write(group.path / "memory.max", f"{limits.memory_bytes}\n")
            if (group.path / "memory.swap.max").exists():
                _write(group.path / "memory.swap.max", "0\n")
            _write(group.path / "pids.max", f"{limits.processes}\n")
        except (OSError, CgroupError) as error:
            group.remove()
            raise CgroupError(f"cannot set up cgroup {name}: {error}") from None
        return group

    def remove_stale(self) -> int:
        return _remove_stale(self.base, lambda name: V2Cgroup(name, self.base / name))


CgroupTree = V1Tree | V2Tree


def _remove_stale(listing: Path, group_named) -> int:
    removed = 0
    try:
        names = [entry.name for entry in os.scandir(listing) if entry.is_dir() and entry.name.startswith("run-")]
    except OSError:
        return 0
    for name in names:
        parts = name.split("-")
        if len(parts) != 4 or not parts[1].isdigit() or _alive(int(parts[1]), parts[2]):
            continue
        group = group_named(name)
        try:
            if wait_empty(group, 5.0):
                group.remove()
                removed += 1
        except (OSError, CgroupError):
            # Another harness is removing the same stale group: leaving it to them is safe,
            # and a failure of this tidying up must not stop the grading it comes before.
            continue
    return removed


# --------------------------------------------------------------------------- discovery


def _mounts() -> list[tuple[str, str, str, set[str]]]:
    """(mount root, mount point, fs type, super options) of every cgroup mount."""
    found = []
    for line in _read(Path("/proc/self/mountinfo")).splitlines():
        left, _, right = line.partition(" - ")
        fields, tail = left.split(), right.split()
        if len(tail) >= 3 and tail[0] in ("cgroup", "cgroup2"):
            found.append((fields[3], fields[4].replace("\\040", " "), tail[0], set(tail[2].split(","))))
    return found


def _own_paths() -> dict[str, str]:
    """Controller (or "" for the v2 hierarchy) -> this process's group path."""
    paths = {}
    for line in _read(Path("/proc/self/cgroup")).splitlines():
        _, controllers, path = line.split(":", 2)
        for name in controllers.split(",") if controllers else [""]:
            paths[name] = path
    return paths


def _below(mount_root: str, mount_point: str, path: str) -> Path:
    relative = os.path.relpath(path, mount_root) if path.startswith(mount_root) else path.lstrip("/")
    return Path(mount_point) / ("" if relative == "." else relative)


def _ensure_folder(parent: Path) -> Path:
    folder = parent / GROUP_FOLDER
    with contextlib.suppress(FileExistsError):
        os.mkdir(folder, 0o755)
    return folder


def find_cgroup_tree() -> CgroupTree | str:
    """The cgroup tree runs go in, or why there is none (a one-line reason)."""
    if os.geteuid() != 0 and not os.environ.get(CGROUP_ROOT_VAR):
        return "the harness is not root (cgroups need root, or a delegated cgroup v2 folder in FILLIT_CGROUP_ROOT)"
    try:
        mounts, own = _mounts(), _own_paths()
    except OSError as error:
        return f"cannot read /proc: {error.strerror}"
    custom = os.environ.get(CGROUP_ROOT_VAR)
    v1 = {}
    for root, point, fstype, options in mounts:
        for controller in V1_CONTROLLERS:
            if fstype == "cgroup" and controller in options and controller in own:
                v1[controller] = _below(root, point, own[controller])
    tree: CgroupTree | str
    try:
        if not custom and set(v1) == set(V1_CONTROLLERS):
            tree = V1Tree({c: _ensure_folder(path) for c, path in v1.items()})
        else:
            unified = next(((r, p) for r, p, t, _ in mounts if t == "cgroup2"), None)
            if custom:
                base = Path(custom)
            elif unified is None or "" not in own:
                missing = sorted(set(V1_CONTROLLERS) - set(v1))
                return f"no usable cgroup hierarchy (cgroup v1 lacks {', '.join(missing)}; no cgroup v2)"
            else:
                base = _below(unified[0], unified[1], own[""])
            tree = _delegated_v2(base)
            if isinstance(tree, str):
                return tree
    except (OSError, CgroupError) as error:
        return f"cannot set up the cgroup folder: {error}"
    tree.remove_stale()
    return tree


def _delegated_v2(base: Path) -> V2Tree | str:
    """A v2 folder below `base` whose children get the memory and pids controllers.

    cgroup v2 forbids a group to have both processes and controller-enabled children, so
    our folder is a child of `base` (never `base` itself, where the harness may live)."""
    available = set(_read(base / "cgroup.controllers").split())
    if not {"memory", "pids"} <= available:
        return (f"cgroup v2 at {base} does not delegate memory and pids (has: {' '.join(sorted(available)) or 'none'}); "
                f"set {CGROUP_ROOT_VAR} to a delegated folder")
    enabled = set(_read(base / "cgroup.subtree_control").split())
    if not {"memory", "pids"} <= enabled:
        _write(base / "cgroup.subtree_control", "+memory +pids\n")
    folder = _ensure_folder(base)
    if not {"memory", "pids"} <= set(_read(folder / "cgroup.subtree_control").split()):
        _write(folder / "cgroup.subtree_control", "+memory +pids\n")
    return V2Tree(folder)
