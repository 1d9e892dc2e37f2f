"""Run a `Step` in the jail: the one way untrusted code runs here.

    jail = detect_jail("auto")                # probed once per process
    result = jail.run(Step(("./fillit", "input.fillit"), "/grade/work", Limits(cpu_s=2),
                           binds=(Bind(program, "/grade/work/fillit"),), scratch=(Scratch("/grade/work"),)))

The chain, for the full jail (`mode == "jail"`, the harness is root):

    harness ─ Popen ─▶ launcher (root) ─ exec ─▶ bwrap (run uid) ─▶ launcher --inner ─ exec ─▶ program
                       joins the step's cgroup    namespaces, the     rlimits, "started"
                       private mount namespace:   jail's file system  on the status pipe
                       stages binds and sized
                       tmpfs, drops to the uid

Everything after the launcher's first instruction is in the step's cgroup, so "the
step is over" means "the cgroup is empty", and its CPU, memory and processes are those
of the cgroup. The status pipe tells the harness's failures (`JailError`: the launcher
or bubblewrap could not set the jail up, bubblewrap vanished...) from the program's.
See docs/SECURITY.md for the threat model and what each layer stops.
"""
from __future__ import annotations

import contextlib
import ctypes
import fcntl
import functools
import importlib.util
import math
import os
import re
import select
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from harness.jail import bwrap as bw
from harness.jail.cgroups import CgroupError, CgroupTree, RunCgroup, find_cgroup_tree, wait_empty
from harness.jail.identity import (Identity, IdentityError, held_uids, in_pool, kill_uid, mark_clean, quarantine,
                                   run_identity)
from harness.jail.launcher import launcher_path
from harness.jail.native import CompileError
from harness.jail.step import (JAIL_ROOT, SIDE_OUTPUT_FD, Bind, CannotExecute, IsolationMode, JailError, RunResult,
                               Scratch, Step)
from harness.jail.watch import watch
from harness.limits import Limits

IsolationRequest = Literal["auto", "jail", "namespaces", "rlimits"]
OWN_PACKAGES = ("reference", "generators", "harness", "reports", "exercises", "frontends")
INNER_LAUNCHER = "/.fillit-jail-exec"  # the launcher's path inside the jail
STAGE_DIR = Path("/run/fillit-moulinette-stage")  # covered by a private tmpfs in each launcher
EMPTY_TIMEOUT_S = 5.0  # how long a killed step may take to be gone


@dataclass(frozen=True)
class Jail:
    mode: IsolationMode
    launcher: Path
    bwrap: Path | None = None
    bwrap_version: str = ""
    cgroups: CgroupTree | None = None
    sized_tmpfs: bool = True  # False: bwrap makes the tmpfs and cannot size it (not root, bwrap < 0.10)
    masked: tuple[str, ...] = ()  # folders of this package inside the system folders, hidden
    weaker_because: str = ""  # why the mode is not the full jail ("" when it is)
    _reaper: threading.Lock = field(default_factory=threading.Lock, compare=False, repr=False)

    def describe(self) -> str:
        parts: list[str] = [self.mode]
        if self.bwrap is not None:
            parts.append(f"bubblewrap {self.bwrap_version}")
        if self.cgroups is not None:
            parts.append(f"cgroup v{self.cgroups.version}")
        return ", ".join(parts) + (f" ({self.weaker_because})" if self.weaker_because else "")

    def run(self, step: Step, who: Identity | None = None) -> RunResult:
        """Run `step` as `who` (a uid the caller holds for several steps), else as a uid
        of its own; raises JailError (or CannotExecute) for the harness's own failures."""
        try:
            if who is not None:
                return self._run_as(step, who)
            with run_identity() as held:
                return self._run_as(step, held)
        except (CgroupError, IdentityError, OSError) as error:
            raise JailError(f"{type(error).__name__}: {error}") from None

    def _run_as(self, step: Step, who: Identity) -> RunResult:
        if not who.was_clean:  # its last holder was killed mid-step
            self._clean_after_crash(who)
            who.was_clean = True
        group = self.cgroups.create(step.limits) if self.cgroups is not None else None
        try:
            result, gone = self._run(step, who, group)
        finally:
            if group is not None and not group.members():
                group.remove()
        if not gone:
            quarantine(who)
            raise JailError(f"processes of the step (uid {who.uid}) survived every kill; "
                            "the uid is retired for the rest of this run")
        mark_clean(who)
        return result

    # ----------------------------------------------------------------- one step

    def _run(self, step: Step, who: Identity, group: RunCgroup | None) -> tuple[RunResult, bool]:
        fds = _RunFds.open(step, info=self.mode == "namespaces")
        host_root: Path | None = None
        try:
            if self.mode == "rlimits":
                host_root = _realize_on_host(step, who)
            argv, env, cwd = self._command(step, who, group, fds, host_root)
            with open(step.stdin or os.devnull, "rb", opener=_nofollow) as stdin:
                result, gone = self._spawn_and_watch(step, who, group, argv, env, cwd, stdin, fds)
            fds.close_writers()
            _check_status(_read_now(fds.status_read), result, self.mode)
            return result, gone
        finally:
            fds.close()
            if host_root is not None:
                shutil.rmtree(host_root.parent, ignore_errors=True)

    def _command(self, step: Step, who: Identity, group: RunCgroup | None, fds: "_RunFds",
                 host_root: Path | None) -> tuple[list[str], dict[str, str], str]:
        limits = step.limits
        outer = [str(self.launcher), "--status-fd", str(fds.status_write)]
        if fds.side is not None:
            outer += ["--fd", str(fds.side), str(SIDE_OUTPUT_FD)]
        if group is not None:
            for path in group.join_files():
                outer += ["--cgroup-procs", path]
        rlimits = _rlimit_args(limits, pool_uid=who.uid is not None and group is None)
        if self.mode == "rlimits":
            assert host_root is not None
            outer += _uid_args(who) + ["--no-new-privs", "--pdeathsig", *rlimits, "--final", "--"]
            argv = [_on_host(a, host_root) for a in step.argv]
            env = {k: ":".join(_on_host(p, host_root) for p in v.split(":")) for k, v in step.env.items()}
            return outer + argv, env, _on_host(step.cwd, host_root)
        assert self.bwrap is not None
        items: list[bw.JailBind | bw.JailTmpfs] = []
        private = [*step.scratch, Scratch("/tmp", 0o1777), Scratch("/dev/shm", 0o1777)]
        if os.geteuid() == 0:  # stage every mount as root; bwrap then binds the staged copies
            outer += ["--stage", str(STAGE_DIR)]
            for k, scratch in enumerate(private):
                outer += ["--tmpfs", f"t{k}", str(limits.tmpfs_bytes), f"{scratch.mode:o}"]
                items.append(bw.JailBind(str(STAGE_DIR / f"t{k}"), scratch.target, writable=True))
            for k, bind in enumerate(step.binds):
                outer += ["--rw" if bind.writable else "--ro", str(bind.source), f"b{k}"]
                items.append(bw.JailBind(str(STAGE_DIR / f"b{k}"), bind.target, bind.writable))
            outer += ["--ro", str(self.launcher), "launcher"]
            items.append(bw.JailBind(str(STAGE_DIR / "launcher"), INNER_LAUNCHER))
            outer += _uid_args(who)
        else:  # not root: bwrap binds the host paths itself, as the harness's own user
            for scratch in private:
                items.append(bw.JailTmpfs(scratch.target, limits.tmpfs_bytes if self.sized_tmpfs else None,
                                          scratch.mode))
            items += [bw.JailBind(str(b.source), b.target, b.writable) for b in step.binds]
            items.append(bw.JailBind(str(self.launcher), INNER_LAUNCHER))
        outer += ["--no-new-privs", "--pdeathsig", "--"]
        inner = [INNER_LAUNCHER, "--inner", "--status-fd", str(fds.status_write), *rlimits, "--no-new-privs", "--",
                 *step.argv]
        view = bw.JailView(tuple(items), step.cwd, self.masked)
        return outer + bw.bwrap_argv(self.bwrap, view, inner, fds.info_write), dict(step.env), "/"

    def _spawn_and_watch(self, step: Step, who: Identity, group: RunCgroup | None, argv: list[str],
                         env: dict[str, str], cwd: str, stdin, fds: "_RunFds") -> tuple[RunResult, bool]:

        if who.uid is not None or fds.info_read is not None:
            _become_subreaper()
        started = time.monotonic()
        proc = subprocess.Popen(argv, stdin=stdin, stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT if step.merge_stderr else subprocess.PIPE,
                                cwd=cwd, env=env, start_new_session=True, close_fds=True, pass_fds=fds.passed())
        init_usage: list = []  # bwrap's init, reaped here when no cgroup measures the step

        def kill() -> None:
            if group is not None:
                group.kill()
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(proc.pid, signal.SIGKILL)  # bwrap's session: --die-with-parent takes the rest

        def end_the_rest() -> None:  # the main process is gone: so is everything it started
            if group is not None:
                wait_empty(group, EMPTY_TIMEOUT_S)
                return
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(proc.pid, signal.SIGKILL)
            if fds.info_read is not None:
                init_usage.extend(_reap_init(fds.info_read, EMPTY_TIMEOUT_S))

        try:
            watched = watch(proc, step.limits, started, group.cpu_s if group is not None else None, kill,
                            end_the_rest)
        except BaseException:  # interrupted: leave nothing behind anyway
            kill()
            if group is not None:
                wait_empty(group, EMPTY_TIMEOUT_S)
            raise
        finally:
            if proc.returncode is None:  # stuck after SIGKILL: reap it in the background
                threading.Thread(target=proc.wait, daemon=True).start()
            for pipe in (proc.stdout, proc.stderr):
                if pipe is not None:
                    pipe.close()
        if group is not None:
            gone = wait_empty(group, EMPTY_TIMEOUT_S)
        elif who.uid is not None:
            gone = kill_uid(who.uid)
        else:
            gone = True  # namespaces: the pid namespace died with its init; rlimits as a user: best effort
        if who.uid is not None:
            self._reap_orphans(who.uid)
        return _result(step.limits, watched, group, started, self.mode, init_usage[0] if init_usage else None), gone

    # ----------------------------------------------------------------- housekeeping

    def _clean_after_crash(self, who: Identity) -> None:
        if self.cgroups is not None:
            self.cgroups.remove_stale()
        if who.uid is not None:
            kill_uid(who.uid)

    def _reap_orphans(self, own_uid: int) -> None:
        """Reap zombies of pool uids re-parented to us (we are a subreaper): bwrap's init
        when a step was killed, a daemon's dead parent, the program of a harness process
        of ours that was killed. Only uids this process does not hold right now: never a
        child some other thread is waiting for (every running step has a uid of its own;
        `own_uid` is the step just over, whose main process is already reaped)."""
        with self._reaper:
            busy = held_uids() - {own_uid}
            for pid in _zombie_children():
                uid = _uid_of(pid)
                if uid is not None and in_pool(uid) and uid not in busy:
                    with contextlib.suppress(ChildProcessError):
                        os.waitpid(pid, os.WNOHANG)


# --------------------------------------------------------------------------- helpers


@dataclass
class _RunFds:
    """The descriptors of one run besides its stdio: the launcher's status pipe, bwrap's
    info pipe (no cgroup: it names the init to reap), the side output (valgrind's log)."""

    status_read: int
    status_write: int
    info_read: int | None = None
    info_write: int | None = None
    side: int | None = None

    @classmethod
    def open(cls, step: Step, info: bool) -> "_RunFds":
        fds = cls(*_pipe_above(10))
        try:
            if info:
                fds.info_read, fds.info_write = _pipe_above(10)
            if step.side_output is not None:
                fds.side = _fd_above(os.open(step.side_output, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW
                                             | os.O_CLOEXEC, 0o600), 10)
        except BaseException:
            fds.close()
            raise
        return fds

    def passed(self) -> tuple[int, ...]:
        return tuple(fd for fd in (self.status_write, self.info_write, self.side) if fd is not None)

    def close_writers(self) -> None:
        for name in ("status_write", "info_write", "side"):
            fd = getattr(self, name)
            if fd is not None and fd >= 0:
                os.close(fd)
                setattr(self, name, None)

    def close(self) -> None:
        self.close_writers()
        for fd in (self.status_read, self.info_read):
            if fd is not None:
                with contextlib.suppress(OSError):
                    os.close(fd)


def _read_now(fd: int) -> bytes:
    """What a pipe holds now (a writer may still be dying when no cgroup is waited on)."""
    os.set_blocking(fd, False)
    try:
        return os.read(fd, 65536)
    except BlockingIOError:
        return b""


def _reap_init(info_read: int, timeout_s: float):
    """Reap bwrap's init (named on its info pipe; re-parented to us, a subreaper, since the
    outer bwrap does not wait for it): its rusage holds the program's. Yields it once."""
    match = re.search(rb'"child-pid":\s*(\d+)', _read_now(info_read))
    if match is None:
        return
    pid = int(match.group(1))
    with contextlib.suppress(OSError):
        fd = os.pidfd_open(pid)
        try:
            select.select([fd], [], [], timeout_s)
        finally:
            os.close(fd)
    with contextlib.suppress(ChildProcessError):
        reaped, _, usage = os.wait4(pid, os.WNOHANG)
        if reaped == pid:
            yield usage


def _pipe_above(low: int) -> tuple[int, int]:
    read, write = os.pipe()
    return _fd_above(read, low), _fd_above(write, low)


def _fd_above(fd: int, low: int) -> int:
    """`fd` moved to a number >= `low` (close-on-exec), so it never collides with the
    numbers the launcher dup2()s onto."""
    if fd >= low:
        return fd
    moved = fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, low)
    os.close(fd)
    return moved


def _nofollow(path: str, flags: int) -> int:
    return os.open(path, flags | os.O_NOFOLLOW | os.O_CLOEXEC)


def _uid_args(who: Identity) -> list[str]:
    return [] if who.uid is None else ["--uid", str(who.uid), "--gid", str(who.gid)]


def _rlimit_args(limits: Limits, pool_uid: bool) -> list[str]:
    """Per-process limits: RLIMIT_CPU a second above the CPU limit (the cgroup's CPU check
    comes first; without a cgroup this is the CPU limit), RLIMIT_NPROC only for a pool
    uid without a cgroup (for the harness's own uid it would count all its processes)."""
    cpu = math.ceil(limits.cpu_s) + 1
    args = ["--rlimit", "cpu", str(cpu), str(cpu + 1),
            "--rlimit", "fsize", str(limits.file_size_bytes), str(limits.file_size_bytes),
            "--rlimit", "nofile", str(limits.open_files), str(limits.open_files),
            "--rlimit", "core", "0", "0"]
    if limits.address_space_bytes is not None:
        args += ["--rlimit", "as", str(limits.address_space_bytes), str(limits.address_space_bytes)]
    if pool_uid:
        args += ["--rlimit", "nproc", str(limits.processes), str(limits.processes)]
    return args


def _on_host(path: str, host_root: Path) -> str:
    return str(host_root) + path if path == JAIL_ROOT or path.startswith(JAIL_ROOT + "/") else path


def _realize_on_host(step: Step, who: Identity) -> Path:
    """No namespaces: lay the jail's /grade tree out in a fresh folder (scratch folders
    owned by the step's uid, read-only files copied root-owned, folders linked) and run
    with paths rewritten into it. Only for the unsafe rlimits mode."""
    base = Path(tempfile.mkdtemp(prefix="fillit-step-"))
    os.chmod(base, 0o711)  # the run's uid must reach its folders: traversable, not listable
    root = base / "root"
    for scratch in step.scratch:
        folder = Path(_on_host(scratch.target, root))
        _traversable_folders(base, folder)
        if who.uid is not None:
            os.chown(folder, who.uid, who.gid if who.gid is not None else -1)
        os.chmod(folder, scratch.mode)
    for bind in step.binds:
        target = Path(_on_host(bind.target, root))
        _traversable_folders(base, target.parent)
        if bind.writable:
            target.symlink_to(bind.source)  # (its folders must be reachable by the uid: 0711)
        elif bind.source.is_dir():
            shutil.copytree(bind.source, target, symlinks=True)
        else:
            shutil.copy2(bind.source, target, follow_symlinks=False)
    return root


def _status_records(report: bytes) -> list[tuple[str, str]]:
    """The launcher's status pipe as records: ("S", "") or ("X"/"E", message)."""
    text, records, at = report.decode(errors="replace"), [], 0
    while at < len(text):
        if text[at] == "S":
            records.append(("S", ""))
            at += 1
            continue
        end = text.find("\n", at)
        end = len(text) if end < 0 else end
        records.append((text[at], text[at + 1:end]))
        at = end + 1
    return records


def _traversable_folders(base: Path, folder: Path) -> None:
    """`folder` and its missing parents below `base`, each 0711 (whatever the umask)."""
    for level in [*reversed(folder.relative_to(base).parents), folder.relative_to(base)]:
        path = base / level
        if not path.exists():
            path.mkdir()
            os.chmod(path, 0o711)


def _check_status(report: bytes, result: RunResult, mode: IsolationMode) -> None:
    """The status pipe's verdict on the jail (see launcher.c): raise if it failed."""
    records = _status_records(report)
    failed = next((message for kind, message in records if kind == "X"), None)
    if failed is not None:
        raise JailError(f"the jail could not start: {failed}")
    if ("S", "") not in records:
        lines = (result.stderr or result.stdout).decode(errors="replace").strip().splitlines()
        detail = next((ln for ln in lines if ln.startswith(("bwrap:", "fillit-jail-exec:"))), "")
        raise JailError("the jail could not start: " + (detail or f"{'bubblewrap' if mode != 'rlimits' else 'the launcher'} "
                                                        "ended before the program ran"))
    cannot = next((message for kind, message in records if kind == "E"), None)
    if cannot is not None:
        raise CannotExecute(f"cannot execute the program: {cannot}")


def _result(limits: Limits, watched, group: RunCgroup | None, started: float, mode: IsolationMode,
            init_usage=None) -> RunResult:
    status, usage, limit = watched.status, watched.rusage, watched.limit
    if group is not None:
        cpu = group.cpu_s()
        rss_kb = group.memory_peak_bytes() // 1024
        forks_refused = group.forks_refused()
    else:
        # Without a cgroup: the main process's rusage (it includes the children it waited
        # for), plus bwrap's init's (which waited for the program). Linux starts a
        # process's peak RSS at that of the process it was exec'd from, so the main
        # figure includes the harness's own peak: the init's is the program's.
        cpu = sum(u.ru_utime + u.ru_stime for u in (usage, init_usage) if u is not None)
        rss_kb = init_usage.ru_maxrss if init_usage is not None else usage.ru_maxrss if usage is not None else 0
        forks_refused = 0
    exit_code = sig = None
    if status is not None and limit is None:
        if os.WIFEXITED(status):
            exit_code = os.WEXITSTATUS(status)
            if mode != "rlimits" and exit_code > 128 and _signal_name(exit_code - 128):
                # bwrap reports a program killed by signal N as exit status 128+N (the
                # shell's convention); a program calling exit(128+N) itself reads the same.
                sig, exit_code = _signal_name(exit_code - 128), None
        elif os.WIFSIGNALED(status):
            sig = _signal_name(os.WTERMSIG(status)) or f"SIG{os.WTERMSIG(status)}"
        if sig == "SIGXCPU" or (sig == "SIGKILL" and cpu >= limits.cpu_s):
            limit, sig = "cpu", None  # RLIMIT_CPU: SIGXCPU at the soft limit, SIGKILL at the hard one
    if limit is None and group is not None and group.oom_kills():
        # The kernel killed a process of the step at the cgroup's memory limit (the main
        # one or another: together they used more than the step may).
        limit = "memory"
        if sig == "SIGKILL":
            sig = None
    if limit is None and cpu > limits.cpu_s:
        limit = "cpu"
    return RunResult(stdout=watched.stdout.value(), stderr=watched.stderr.value() if watched.stderr else b"",
                     exit_code=exit_code, signal=sig, wall_s=round(watched.ended_at - started, 6),
                     cpu_s=round(cpu, 6), max_rss_kb=int(rss_kb), limit=limit, isolation=mode,
                     forks_refused=forks_refused)


def _signal_name(number: int) -> str | None:
    try:
        return signal.Signals(number).name
    except ValueError:
        return None


@functools.cache
def _become_subreaper() -> None:
    """Orphans of a step come back to us, to be reaped (else a container's pid 1 that
    never reaps would collect them as zombies)."""
    if ctypes.CDLL(None, use_errno=True).prctl(36, 1, 0, 0, 0) != 0:  # PR_SET_CHILD_SUBREAPER
        raise JailError(f"prctl(PR_SET_CHILD_SUBREAPER): {os.strerror(ctypes.get_errno())}")


def _zombie_children() -> list[int]:
    found = []
    for tid in os.listdir("/proc/self/task"):
        with contextlib.suppress(OSError):
            with open(f"/proc/self/task/{tid}/children", "rb") as handle:
                found += [int(pid) for pid in handle.read().split()]
    zombies = []
    for pid in found:
        with contextlib.suppress(OSError, IndexError):
            with open(f"/proc/{pid}/stat", "rb") as handle:
                if handle.read().rsplit(b")", 1)[1].split()[0] == b"Z":
                    zombies.append(pid)
    return zombies


def _uid_of(pid: int) -> int | None:
    try:
        with open(f"/proc/{pid}/status", "rb") as handle:
            match = re.search(rb"\nUid:\t(\d+)", handle.read(2048))
    except OSError:
        return None
    return int(match.group(1)) if match else None


# --------------------------------------------------------------------------- detection


def _own_package_dirs() -> tuple[str, ...]:
    """Folders of this project's packages that a jail would see through the system
    folders (a system-wide install in /usr/local): hidden, so that no step can read the
    reference solver or the generators. (Found without importing them.)"""
    found = []
    for name in OWN_PACKAGES:
        spec = importlib.util.find_spec(name)
        for location in (spec.submodule_search_locations or []) if spec is not None else []:
            folder = os.path.realpath(location)
            if any(folder == d or folder.startswith(d + "/") for d in bw.SYSTEM_DIRS):
                found.append(folder)
    return tuple(found)


@functools.cache
def detect_jail(request: IsolationRequest = "auto") -> Jail:
    """The strongest jail this machine offers (or the one asked for), probed once.

    Raises JailError when the request cannot be met, and when bubblewrap is installed
    but cannot build a jail here: that is a broken machine, not a reason to silently
    grade with less isolation."""
    try:
        launcher = launcher_path()
    except (CompileError, IdentityError, OSError) as error:
        raise JailError(str(error)) from None
    root = os.geteuid() == 0
    tree = find_cgroup_tree() if request != "namespaces" else "not used with --isolation namespaces"
    cgroups = tree if not isinstance(tree, str) else None
    if root:
        with contextlib.suppress(FileExistsError):
            os.mkdir(STAGE_DIR)
            os.chmod(STAGE_DIR, 0o755)  # the run's uid passes through it (umask may be 077)
        info = os.lstat(STAGE_DIR)
        if info.st_uid != 0 or info.st_mode & 0o022 or not os.path.isdir(STAGE_DIR) or os.path.islink(STAGE_DIR):
            raise JailError(f"{STAGE_DIR} must be a folder owned by root, not writable by others")
    masked = _own_package_dirs()
    if request == "rlimits":
        return Jail("rlimits", launcher, cgroups=cgroups, masked=masked,
                    weaker_because="no namespaces: asked for --isolation rlimits")
    try:
        path = bw.runnable_copy(bw.find_bwrap())
    except bw.BwrapMissing as missing:
        if request in ("jail", "namespaces"):
            raise JailError(str(missing)) from None
        return Jail("rlimits", launcher, cgroups=cgroups, masked=masked, weaker_because=str(missing))
    version = bw.bwrap_version(path)
    mode: IsolationMode = "jail" if cgroups is not None else "namespaces"
    if request == "jail" and cgroups is None:
        raise JailError(f"the full jail needs cgroups: {tree}")
    jail = Jail(mode, launcher, path, version, cgroups, sized_tmpfs=root or bw.supports_tmpfs_size(path),
                masked=masked, weaker_because="" if mode == "jail" else f"no cgroups: {tree}")
    _probe(jail)
    return jail


def _probe(jail: Jail) -> None:
    """Run /bin/true through the whole chain: a jail that cannot start is an error."""
    try:
        result = jail.run(Step(("/bin/true",), "/", Limits(cpu_s=5, wall_s=20)))
    except JailError as error:
        raise JailError(f"bubblewrap ({jail.bwrap}) is installed but cannot build a jail here: {error}") from None
    if result.exit_code != 0:
        raise JailError(f"bubblewrap ({jail.bwrap}) is installed but its probe failed: exit {result.exit_code}, "
                        f"{result.stderr.decode(errors='replace').strip()[:200]}")
