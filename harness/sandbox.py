"""Low-level pieces of the runner: who the program runs as, how it is started,
and how every process of a run is found, killed and reaped.

Why a dedicated uid per concurrent run (when the harness is root)
-----------------------------------------------------------------
Killing the process group misses a `setsid` grandchild; walking the process
tree misses anything that re-parented itself away (double fork); an environment
marker can be wiped by the program (`execve` with an empty environment). The
one property a program cannot shed without privileges is its uid. So each run
gets a uid of its own from a pool (FILLIT_RUN_UID_BASE, default 62000, and
FILLIT_RUN_UID_COUNT slots, default 64) that no other software on the machine
uses:

* "every process of the run" == "every process whose real, effective or saved
  uid is the run's uid" - exact, whatever the program did (setsid, double fork,
  prctl(PR_SET_DUMPABLE, 0), clearing its environment...);
* they are all killed at once with kill(-1, SIGKILL) sent *by a helper running
  as that uid*: the kernel walks every process under the tasklist lock and a
  process with a pending SIGKILL cannot complete a fork, so even a fork bomb
  cannot outrun it (the trick of isolate / DOMjudge's runguard);
* RLIMIT_NPROC counts processes per uid, so a per-run uid also gives each run
  its own process budget: parallel runs cannot starve each other;
* a uid is allocated with an flock()ed lock file per uid in a root-only folder:
  flock() conflicts between different open file descriptions, so allocation is
  safe across threads (each open() is its own description) and across
  processes (--jobs N with several workers), and a crashed harness releases its
  locks automatically. The lock file records "clean" once a run's sweep has
  finished, so the next owner of a uid only sweeps it again after a crash.

Zombies: in containers the pid 1 often never reaps orphans (here it does not),
and zombies still count against RLIMIT_NPROC of their uid. The harness process
therefore makes itself a child subreaper (PR_SET_CHILD_SUBREAPER) before its
first run, so orphans of a run (a daemon's dead parent; bwrap's init, which the
outer bwrap never waits for) are re-parented to it, and the sweep reaps those of
the run's uid (only those: never a child some other thread is waiting for).
Side effect: orphans of *other* subprocesses of the harness process also come
back to it and stay zombies until it exits (without it they would be zombies
of pid 1 here, or reaped by a real init elsewhere).

Cost: a sweep reads /proc/PID/status, but only for pids handed out after the
run started (pids increase until they wrap at pid_max; on a wrap it reads
them all), so it costs ~0.1-0.3 ms instead of ~1-2 ms on a busy machine.
The program is started through a small static launcher compiled on first use
(harness/sandbox_exec.py; else util-linux `setpriv` + `prlimit`) that sets the
uid, no_new_privs and the rlimits, so that Popen itself can use vfork.

When the harness is not root it cannot change uid: the run then shares the
harness's uid and is found by an environment marker instead (weaker: a program
that re-executes itself with an empty environment and leaves its session
escapes the sweep; bubblewrap's pid namespace has no such hole).
"""
from __future__ import annotations

import contextlib
import ctypes
import fcntl
import functools
import os
import re
import secrets
import shutil
import signal
import stat
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from harness import sandbox_exec
from harness.limits import Limits

UID_BASE = int(os.environ.get("FILLIT_RUN_UID_BASE", "62000"))
UID_COUNT = int(os.environ.get("FILLIT_RUN_UID_COUNT", "64"))
MARKER_VAR = "FILLIT_RUN_TOKEN"

# Folders any user may create files in: without bubblewrap a program can write
# there; files its uid left at their top level are removed after the run.
WORLD_WRITABLE_CANDIDATES = ("/tmp", "/var/tmp", "/dev/shm", "/run/lock", "/var/lock")

# What a program sees of /etc inside bubblewrap: the dynamic loader's cache, no
# more (each bind mount costs bwrap ~0.5 ms; a fillit needs no user names or time zone).
ETC_FILES = ("/etc/ld.so.cache",)
SYSTEM_DIRS = ("/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")


class SandboxError(RuntimeError):
    """The sandbox could not be set up (not a property of the program under test)."""


def _tool(name: str) -> str | None:
    for folder in ("/usr/bin", "/bin", "/usr/sbin", "/sbin", "/usr/local/bin"):
        path = os.path.join(folder, name)
        if os.access(path, os.X_OK):
            return path
    return shutil.which(name)


BWRAP = _tool("bwrap")
PRLIMIT = _tool("prlimit")
SETPRIV = _tool("setpriv")
KILL = _tool("kill")


# ---------------------------------------------------------------- identities

@dataclass
class Identity:
    """Who the program runs as. uid None: the harness's own (non-root harness)."""
    uid: int | None
    gid: int | None
    token: str  # environment marker (used to find processes when uid is None)
    lock_fd: int | None = None
    was_clean: bool = True
    # Last pid the kernel handed out before the run's first process: pids are
    # handed out in increasing order (until they wrap at pid_max), so every
    # process of the run has a larger pid and scans skip the others.
    since: int | None = None


_run_root: str | None = None


def run_root() -> str:
    """Where run folders (and uid lock files) go: FILLIT_RUN_ROOT, else /dev/shm
    when it is a world-writable sticky folder with 1 GiB free (tmpfs: creating and
    removing a run folder there costs microseconds, against milliseconds on a
    journaled disk), else the temporary folder."""
    global _run_root
    if _run_root is None:
        root = os.environ.get("FILLIT_RUN_ROOT")
        if not root:
            root = tempfile.gettempdir()
            try:
                info, fs = os.stat("/dev/shm"), os.statvfs("/dev/shm")
                if (stat.S_ISDIR(info.st_mode) and info.st_mode & stat.S_ISVTX and os.access("/dev/shm", os.W_OK)
                        and fs.f_bavail * fs.f_frsize >= 1 << 30):
                    root = "/dev/shm"
            except OSError:
                pass
        _run_root = root
    return _run_root


def _lock_dir() -> Path:
    # A fixed place, the same for every harness process on the machine (the
    # exclusion only holds between processes that lock the same files).
    custom = os.environ.get("FILLIT_RUN_LOCK_DIR")
    if custom:
        path = Path(custom)
    elif os.geteuid() == 0 and os.access("/run", os.W_OK):
        path = Path("/run/fillit-moulinette")
    else:
        path = Path(tempfile.gettempdir()) / f"fillit-moulinette-{os.geteuid()}"
    try:
        os.mkdir(path, 0o700)
    except FileExistsError:
        pass
    info = os.lstat(path)
    # The run root is world-writable: refuse a folder someone else prepared for us.
    if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.geteuid() or info.st_mode & 0o077:
        raise SandboxError(f"uid lock folder {path} must be a folder owned by uid {os.geteuid()}, mode 0700")
    return path


_held_lock = threading.Lock()
_held: set[int] = set()  # run uids this process holds right now


@contextlib.contextmanager
def identity() -> Iterator[Identity]:
    """Hold a run identity for the duration of the `with` block."""
    token = secrets.token_hex(8)
    if os.geteuid() != 0:
        yield Identity(None, None, token)
        return
    folder = _lock_dir()
    start = secrets.randbelow(UID_COUNT)  # spread concurrent runs over the pool
    waited = 0.0
    while True:
        for k in range(UID_COUNT):
            uid = UID_BASE + (start + k) % UID_COUNT
            fd = os.open(folder / f"uid-{uid}.lock", os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                os.close(fd)
                continue
            clean = os.pread(fd, 16, 0) == b"clean\n"
            os.pwrite(fd, b"dirty\n", 0)  # until the end-of-run sweep succeeds
            ident = Identity(uid, uid, token, fd, clean)
            with _held_lock:
                _held.add(uid)
            try:
                yield ident
            finally:
                with _held_lock:
                    _held.discard(uid)
                os.close(fd)  # releases the lock
            return
        if waited > 600:
            raise SandboxError(f"all {UID_COUNT} run uids from {UID_BASE} stayed busy for 10 minutes")
        time.sleep(0.05)
        waited += 0.05


def mark_clean(ident: Identity) -> None:
    if ident.lock_fd is not None:
        os.pwrite(ident.lock_fd, b"clean\n", 0)


# ---------------------------------------------------------------- reaping

_subreaper_lock = threading.Lock()
_subreaper = False


def become_subreaper() -> None:
    global _subreaper
    with _subreaper_lock:
        if _subreaper:
            return
        libc = ctypes.CDLL(None, use_errno=True)
        PR_SET_CHILD_SUBREAPER = 36
        if libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
            raise SandboxError(f"prctl(PR_SET_CHILD_SUBREAPER): {os.strerror(ctypes.get_errno())}")
        _subreaper = True


@dataclass(frozen=True)
class ProcInfo:
    pid: int
    ppid: int
    state: str


_STATUS = re.compile(rb"\nState:\t(\S).*?\nPPid:\t(\d+).*?\nUid:\t(\d+)\t(\d+)\t(\d+)", re.DOTALL)


def _status(pid: str) -> tuple[str, int, set[int]] | None:
    """(state letter, parent pid, {real, effective, saved uid}) from /proc/PID/status."""
    try:
        fd = os.open(f"/proc/{pid}/status", os.O_RDONLY | os.O_CLOEXEC)
    except OSError:
        return None
    try:
        data = os.read(fd, 2048)
    except OSError:
        return None
    finally:
        os.close(fd)
    match = _STATUS.search(data)
    if match is None:
        return None
    state, ppid, *uids = match.groups()
    return state.decode(), int(ppid), {int(u) for u in uids}


def _has_marker(pid: str, token: str) -> bool:
    try:
        with open(f"/proc/{pid}/environ", "rb") as f:
            return f"{MARKER_VAR}={token}".encode() in f.read().split(b"\0")
    except OSError:
        return False


def last_pid() -> int | None:
    try:
        with open("/proc/sys/kernel/ns_last_pid", "rb") as f:
            return int(f.read())
    except (OSError, ValueError):
        return None


def processes(ident: Identity, known: set[int] | None = None) -> list[ProcInfo]:
    """Every process (zombies included) of the run. Without a run uid: processes
    carrying the run's marker, plus those of `known` (zombies have no environ)."""
    me = os.getpid()
    mine = ident.uid if ident.uid is not None else os.geteuid()
    floor = -1
    if ident.since is not None:
        now = last_pid()
        if now is not None and now >= ident.since:  # (else the pids wrapped: look at all)
            floor = ident.since
    found = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        pid = int(name)
        if pid == me or (pid <= floor and pid not in (known or ())):
            continue
        status = _status(name)
        if status is None or mine not in status[2]:
            continue
        if ident.uid is None and not (pid in (known or ()) or _has_marker(name, ident.token)):
            continue
        found.append(ProcInfo(pid, status[1], status[0]))
    return found


def _kill_pid(pid: int, ident: Identity) -> None:
    """SIGKILL `pid` through a pidfd (no pid-reuse race), after checking it is still ours."""
    try:
        fd = os.pidfd_open(pid)
    except OSError:
        return
    try:
        status = _status(str(pid))
        if status and (ident.uid if ident.uid is not None else os.geteuid()) in status[2]:
            signal.pidfd_send_signal(fd, signal.SIGKILL)
    except OSError:
        pass
    finally:
        os.close(fd)


def _kill_all_as_uid(uid: int, gid: int) -> bool:
    """kill(-1, SIGKILL) from a helper running as `uid`: every process of the uid, at once."""
    if KILL is None:
        return False
    if SETPRIV:  # (Popen can vfork: no uid change of its own)
        cmd, kwargs = [SETPRIV, f"--reuid={uid}", f"--regid={gid}", "--clear-groups", "--", KILL, "-9", "-1"], {}
    else:
        cmd, kwargs = [KILL, "-9", "-1"], {"user": uid, "group": gid, "extra_groups": []}
    try:
        subprocess.run(cmd, **kwargs, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                       env={"PATH": "/usr/bin:/bin"}, timeout=10, close_fds=True)
    except (OSError, subprocess.SubprocessError):
        return False
    return True


@dataclass
class Usage:
    cpu_s: float = 0.0
    max_rss_kb: int = 0

    def add(self, other: "Usage") -> None:
        self.cpu_s += other.cpu_s
        self.max_rss_kb = max(self.max_rss_kb, other.max_rss_kb)


_TICKS = os.sysconf("SC_CLK_TCK")


def snapshot(ident: Identity, known: set[int]) -> Usage:
    """CPU time and peak RSS of the run's live processes, read from /proc (for the
    processes about to be killed, whose rusage nobody will collect)."""
    usage = Usage()
    for p in processes(ident, known):
        try:
            with open(f"/proc/{p.pid}/stat", "rb") as f:
                fields = f.read().rsplit(b")", 1)[1].split()
            # utime, stime, cutime, cstime (children it waited for)
            usage.cpu_s += sum(int(x) for x in fields[11:15]) / _TICKS
            with open(f"/proc/{p.pid}/status", "rb") as f:
                for line in f:
                    if line.startswith(b"VmHWM:"):
                        usage.max_rss_kb = max(usage.max_rss_kb, int(line.split()[1]))
        except (OSError, IndexError, ValueError):
            continue
    return usage


def wait_exit(pids: list[int], timeout: float) -> None:
    """Wait until each of `pids` has exited, `timeout` seconds at most in all."""
    import select
    fds = []
    try:
        for pid in pids:
            with contextlib.suppress(OSError):
                fds.append(os.pidfd_open(pid))
        end = time.monotonic() + timeout
        while fds:
            left = end - time.monotonic()
            if left <= 0:
                return
            ready, _, _ = select.select(fds, [], [], left)
            for fd in ready:
                fds.remove(fd)
                os.close(fd)
    finally:
        for fd in fds:
            os.close(fd)


def sweep(ident: Identity, known: set[int], timeout: float = 5.0,
          skip: int | None = None, patience: float = 0.0) -> tuple[bool, Usage]:
    """Kill and reap every remaining process of the run.

    Returns (all gone, rusage of the orphans reaped here). Zombies whose parent
    is neither us nor a process of the run cannot be reaped by us (a parent
    outside the run, e.g. a pid 1 that never reaps); they are dead and are not
    waited for. `skip`: a child the caller reaps itself (killed, but neither
    reaped nor waited for here). `patience`: how long children of ours that are
    still running (bwrap's init, finishing) may take to exit before being killed.
    """
    me = os.getpid()
    usage = Usage()
    end = time.monotonic() + timeout
    while True:
        procs = [p for p in processes(ident, known) if not (p.pid == skip and p.state == "Z")]
        known.update(p.pid for p in procs)
        pids = {p.pid for p in procs}
        live = [p for p in procs if p.state != "Z"]
        ours = [p for p in procs if p.state == "Z" and p.ppid == me]
        stuck = [p for p in procs if p.state == "Z" and p.ppid != me and p.ppid not in pids]
        if len(stuck) == len(procs):
            return True, usage
        if live and patience > 0:
            wait_exit([p.pid for p in live if p.ppid == me], patience)
            patience = 0.0
            continue
        if live:
            if ident.uid is not None:
                _kill_all_as_uid(ident.uid, ident.gid)
            for p in live:  # and one by one, in case the helper could not run
                _kill_pid(p.pid, ident)
        for p in ours:
            try:
                _, _, ru = os.wait4(p.pid, os.WNOHANG)
                usage.add(Usage(ru.ru_utime + ru.ru_stime, ru.ru_maxrss))
            except ChildProcessError:
                pass
        if time.monotonic() > end:
            return False, usage
        if not ours:
            time.sleep(0.001)


def _try_lock(uid: int) -> int | None:
    """The lock of run uid `uid` (an fd to close to release it), or None if it is taken."""
    fd = os.open(_lock_dir() / f"uid-{uid}.lock", os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        return None
    return fd


def reap_foreign_orphans() -> int:
    """Clean up after runs of a harness subprocess that died (killed, interrupted):
    their processes are re-parented to us, since we are a subreaper. A child of ours
    with a pool uid this process does not hold is one of those (a run in progress
    here holds its uid). If nobody holds that uid any more, every process of it is
    killed and reaped (a sweep under its lock); a zombie is reaped in any case (its
    parent is gone, nobody else can wait for it). Returns how many uids were swept."""
    if os.geteuid() != 0:
        return 0
    foreign: dict[int, list[tuple[int, str]]] = {}
    try:
        tasks = os.listdir("/proc/self/task")
    except OSError:
        return 0
    for tid in tasks:
        try:
            with open(f"/proc/self/task/{tid}/children", "rb") as f:
                children = f.read().split()
        except OSError:
            continue
        for child in children:
            status = _status(child.decode())
            if status is None:
                continue
            with _held_lock:
                pool = {u for u in status[2] if UID_BASE <= u < UID_BASE + UID_COUNT} - _held
            for uid in pool:
                foreign.setdefault(uid, []).append((int(child), status[0]))
    swept = 0
    for uid, children in foreign.items():
        fd = _try_lock(uid)
        if fd is not None:
            try:
                ident = Identity(uid, uid, "", fd, False)
                with _held_lock:
                    _held.add(uid)
                clean, _ = sweep(ident, set(), timeout=2.0)
                remove_files_of_uid(uid)
                remove_stale_run_dirs(uid)
                if clean:
                    mark_clean(ident)
                swept += 1
            finally:
                with _held_lock:
                    _held.discard(uid)
                os.close(fd)
        for pid, state in children:
            if state == "Z":
                with contextlib.suppress(ChildProcessError):
                    os.waitpid(pid, os.WNOHANG)
    return swept


# ---------------------------------------------------------------- files

def remove_tree(path: Path) -> None:
    def fix(func, failed, exc_info):  # a non-root harness meets folders the program made 000
        parent = os.path.dirname(failed)
        with contextlib.suppress(OSError):
            os.chmod(parent, 0o700)
            if os.path.isdir(failed) and not os.path.islink(failed):
                os.chmod(failed, 0o700)
                shutil.rmtree(failed, ignore_errors=True)
            else:
                os.unlink(failed)
    shutil.rmtree(path, onerror=fix)


def remove_stale_run_dirs(uid: int) -> None:
    """Run folders a killed harness left: their run/ belongs to `uid`, which the caller holds."""
    for base in Path(run_root()).glob("fillit-run-*"):
        try:
            if base.is_dir() and not base.is_symlink() and base.stat().st_uid == os.geteuid() \
                    and (base / "run").lstat().st_uid == uid:
                remove_tree(base)
        except OSError:
            continue


_world_writable: list[str] | None = None


def world_writable_dirs() -> list[str]:
    global _world_writable
    if _world_writable is None:
        seen, result = set(), []
        for d in WORLD_WRITABLE_CANDIDATES:
            try:
                real = os.path.realpath(d)
                info = os.stat(real)
            except OSError:
                continue
            if stat.S_ISDIR(info.st_mode) and info.st_mode & 0o002 and real not in seen:
                seen.add(real)
                result.append(real)
        _world_writable = result
    return _world_writable


def world_writable_state() -> dict[str, int]:
    """Modification times of the world-writable folders (see remove_files_of_uid)."""
    state = {}
    for folder in world_writable_dirs():
        with contextlib.suppress(OSError):
            state[folder] = os.stat(folder).st_mtime_ns
    return state


def remove_files_of_uid(uid: int, before: dict[str, int] | None = None) -> list[str]:
    """Remove what `uid` left at the top of world-writable folders (rlimits path).
    With `before` (world_writable_state() from before the run), folders whose
    modification time did not change (no entry made or removed) are not listed."""
    removed = []
    for folder in world_writable_dirs():
        if before is not None and folder in before:
            with contextlib.suppress(OSError):
                if os.stat(folder).st_mtime_ns == before[folder]:
                    continue
        try:
            entries = list(os.scandir(folder))
        except OSError:
            continue
        for entry in entries:
            try:
                if entry.stat(follow_symlinks=False).st_uid != uid:
                    continue
                if entry.is_dir(follow_symlinks=False):
                    shutil.rmtree(entry.path, ignore_errors=True)
                else:
                    os.unlink(entry.path)
                removed.append(entry.path)
            except OSError:
                continue
    return removed


# ---------------------------------------------------------------- commands

def rlimit_values(limits: Limits, extra_processes: int = 0) -> dict[str, tuple[int, int]]:
    """(soft, hard) per limit. RLIMIT_CPU is whole seconds: SIGXCPU at the soft
    limit, SIGKILL one second later if the program ignores it."""
    import math
    cpu = max(1, math.ceil(limits.cpu_s))
    return {
        "cpu": (cpu, cpu + 1),
        "as": (limits.memory_bytes, limits.memory_bytes),
        "fsize": (limits.file_size_bytes, limits.file_size_bytes),
        "nproc": (limits.processes + extra_processes, limits.processes + extra_processes),
        "nofile": (limits.open_files, limits.open_files),
        "core": (0, 0),
    }


@functools.cache
def _launcher() -> Path | None:
    """The compiled launcher, built once per process (None: fall back to util-linux)."""
    if os.environ.get("FILLIT_RUN_NO_LAUNCHER"):
        return None
    return sandbox_exec.launcher(_lock_dir())


def launch_command(argv: list[str], limits: Limits, ident: Identity,
                    extra_processes: int = 0) -> tuple[list[str], dict]:
    """Prefix `argv` so that it runs as the run's uid, with no_new_privs and the rlimits.

    Returns (command, extra keyword arguments for subprocess.Popen). The
    compiled launcher (harness/sandbox_exec.py), else util-linux `setpriv`
    (uid, groups, no_new_privs) then `prlimit` (rlimits), do it in the child and
    exec: Popen itself changes nothing, so it can use vfork (a fork of the
    harness costs milliseconds) and no Python code runs between fork and exec (a
    preexec_fn can deadlock a threaded harness). Without any of them: Popen's
    user/group arguments and a preexec_fn.
    """
    values = rlimit_values(limits, extra_processes)
    helper = _launcher()
    if helper is not None:  # one static exec: see harness/sandbox_exec.py
        uid = -1 if ident.uid is None else ident.uid
        gid = -1 if ident.gid is None else ident.gid
        numbers = [uid, gid, *values["cpu"], values["as"][0], values["fsize"][0], values["nproc"][0],
                   values["nofile"][0]]
        return [str(helper), *map(str, numbers), "--", *argv], {}
    if SETPRIV and PRLIMIT:
        prefix = [SETPRIV]
        if ident.uid is not None:
            prefix += [f"--reuid={ident.uid}", f"--regid={ident.gid}", "--clear-groups"]
        prefix += ["--no-new-privs", "--", PRLIMIT]
        prefix += [f"--{k}={s}:{h}" for k, (s, h) in values.items()] + ["--"]
        return prefix + argv, {}

    import resource
    table = {"cpu": resource.RLIMIT_CPU, "as": resource.RLIMIT_AS, "fsize": resource.RLIMIT_FSIZE,
             "nproc": resource.RLIMIT_NPROC, "nofile": resource.RLIMIT_NOFILE, "core": resource.RLIMIT_CORE}

    def preexec() -> None:  # pragma: no cover - only without util-linux
        ctypes.CDLL(None).prctl(38, 1, 0, 0, 0)  # PR_SET_NO_NEW_PRIVS
        for key, (soft, hard) in values.items():
            resource.setrlimit(table[key], (soft, hard))

    kwargs: dict = {"preexec_fn": preexec}
    if ident.uid is not None:
        kwargs.update(user=ident.uid, group=ident.gid, extra_groups=[])
    return argv, kwargs


def bwrap_command(argv: list[str], bindir: Path, rundir: Path, info_fd: int | None = None) -> list[str]:
    """bubblewrap: new user/pid/net/ipc/uts/cgroup namespaces, read-only system
    folders, private /tmp, only the run folder writable, read-only root."""
    if BWRAP is None:
        raise SandboxError("bwrap is not installed")
    cmd = [BWRAP, "--unshare-all", "--unshare-user", "--disable-userns", "--die-with-parent",
           "--new-session", "--ro-bind", "/usr", "/usr"]
    for d in SYSTEM_DIRS:
        if os.path.islink(d):
            cmd += ["--symlink", os.readlink(d), d]
        elif os.path.isdir(d):
            cmd += ["--ro-bind", d, d]
    for f in ETC_FILES:
        cmd += ["--ro-bind-try", f, f]
    if info_fd is not None:  # bwrap writes {"child-pid": <its init>, ...} there
        cmd += ["--info-fd", str(info_fd)]
    cmd += ["--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp",
            "--ro-bind", str(bindir), str(bindir),
            "--bind", str(rundir), str(rundir),
            "--chdir", str(rundir),
            "--remount-ro", "/",
            "--"]
    return cmd + argv
