"""Run one untrusted program under limits, and say what happened.

    result = run(Path("./fillit"), ["input.fillit"], [RunFile("input.fillit", data)],
                 Limits(wall_s=2))
    result.stdout, result.exit_code, result.signal, result.limit

Each run gets a fresh run folder (only the given files in it, and the cwd of the
program), a uid of its own (never root: see harness/sandbox.py for why one uid
per concurrent run), rlimits (CPU, address space, file size, processes, open
files, no core), a wall-clock limit kept by the harness, and capped concurrent
reads of stdout/stderr. With `bwrap` usable the program also runs inside
bubblewrap (namespaces: no network, private /tmp, read-only system, only the run
folder writable). After the run every process of the run is killed and reaped,
and the run folder is removed.

Layout of a run (root-owned unless said otherwise):

    /tmp/fillit-run-XXXX/        0711  traversable, not listable
        bin/<program name>       0755  private copy of the program (argv[0] is its path)
        run/                     0700, owned by the run uid: the cwd; files given are
                                       root-owned with their mode, so a 000 file stays
                                       unreadable (the program cannot chmod it)
"""
from __future__ import annotations

import os
import re
import selectors
import shutil
import signal as signal_module
import subprocess
import tempfile
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from harness import sandbox, sandbox_exec
from harness.limits import Limits

ISOLATIONS = ("bwrap", "rlimits")
READ_CHUNK = 1 << 16
# Extra processes RLIMIT_NPROC must allow under bubblewrap: bwrap itself and its init.
BWRAP_PROCESSES = 2


class IsolationUnavailable(RuntimeError):
    """isolation="bwrap" was asked for and bubblewrap is not usable here."""


@dataclass(frozen=True)
class RunFile:
    name: str  # path relative to the run directory
    content: bytes | None = None  # None -> create a directory
    mode: int = 0o644  # a directory given the default 0o644 is created 0o755


@dataclass(frozen=True)
class RunResult:
    stdout: bytes  # capped at limits.output_bytes
    stderr: bytes  # capped at limits.stderr_bytes
    exit_code: int | None  # None when killed by a signal
    signal: str | None  # "SIGSEGV", "SIGKILL", ... when the program died by a signal it did not get from us
    wall_s: float
    cpu_s: float  # user+sys of the program and its reaped children
    max_rss_kb: int
    limit: str | None  # which limit ended the run: "wall", "cpu", "output", or None
    isolation: str  # "bwrap" or "rlimits"


# ---------------------------------------------------------------- isolation

_probe_lock = threading.Lock()
_probe_result: str | None = None


def available_isolation() -> str:
    """"bwrap" if bubblewrap can start a sandbox here (probed once), else "rlimits"."""
    global _probe_result
    with _probe_lock:
        if _probe_result is None:
            _probe_result = "bwrap" if _probe_bwrap() else "rlimits"
        return _probe_result


def _probe_bwrap() -> bool:
    if sandbox.BWRAP is None:
        return False
    true = shutil.which("true", path="/usr/bin:/bin")
    if true is None:
        return False
    try:
        sandbox.become_subreaper()  # bwrap's init outlives bwrap: it comes back to us to be reaped
        with sandbox.identity() as ident, tempfile.TemporaryDirectory(prefix="fillit-probe-") as tmp:
            os.chmod(tmp, 0o755)
            cmd, spawn_kwargs = sandbox.launch_command(sandbox.bwrap_command([true], Path(tmp), Path(tmp)),
                                                        Limits(), ident, extra_processes=BWRAP_PROCESSES)
            try:
                proc = subprocess.run(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                      stderr=subprocess.DEVNULL, timeout=20, **spawn_kwargs,
                                      env={"PATH": "/usr/bin:/bin"}, cwd="/")
            finally:
                clean, _ = sandbox.sweep(ident, set())
            if clean:
                sandbox.mark_clean(ident)
            return proc.returncode == 0
    except (OSError, subprocess.SubprocessError, sandbox.SandboxError):
        return False


def _resolve(isolation: str) -> str:
    if isolation == "auto":
        return available_isolation()
    if isolation == "bwrap":
        if available_isolation() != "bwrap":
            raise IsolationUnavailable(
                "isolation='bwrap' asked for, but bubblewrap is not usable here "
                f"({'not installed' if sandbox.BWRAP is None else 'cannot create namespaces'})")
        return "bwrap"
    if isolation == "rlimits":
        return "rlimits"
    raise ValueError(f"isolation must be 'auto', 'bwrap' or 'rlimits', not {isolation!r}")


# ---------------------------------------------------------------- run folder

def _write_files(rundir: Path, files: Sequence[RunFile]) -> None:
    for f in files:
        rel = PurePosixPath(f.name)
        if rel.is_absolute() or ".." in rel.parts or not rel.parts:
            raise ValueError(f"RunFile name must be a relative path inside the run folder: {f.name!r}")
        path = rundir.joinpath(*rel.parts)
        path.parent.mkdir(parents=True, exist_ok=True)
        if f.content is None:
            path.mkdir(exist_ok=True)
            os.chmod(path, 0o755 if f.mode == 0o644 else f.mode)
        else:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, 0o600)
            with os.fdopen(fd, "wb") as out:
                out.write(f.content)
            os.chmod(path, f.mode)


def _env(ident: sandbox.Identity, rundir: Path) -> dict[str, str]:
    return {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": str(rundir), "LC_ALL": "C",
            sandbox.MARKER_VAR: ident.token}


# ---------------------------------------------------------------- run

def run(program: Path, args: Sequence[str], files: Sequence[RunFile] = (), limits: Limits = Limits(),
        isolation: str = "auto") -> RunResult:
    """Run `program args...` in a fresh run folder holding `files`; see the module doc."""
    mode = _resolve(isolation)
    program = Path(program)
    if not program.is_file():
        raise FileNotFoundError(f"program {program} not found")
    with sandbox.identity() as ident:
        if not ident.was_clean:  # its last run did not finish its sweep (a killed harness?)
            sandbox.sweep(ident, set())
            if ident.uid is not None:
                sandbox.remove_files_of_uid(ident.uid)
                sandbox.remove_stale_run_dirs(ident.uid)
        base = Path(tempfile.mkdtemp(prefix="fillit-run-", dir=sandbox.run_root()))
        try:
            os.chmod(base, 0o711)
            bindir = base / "bin"
            bindir.mkdir(mode=0o711)
            exe = bindir / program.name
            shutil.copyfile(program, exe)
            os.chmod(exe, 0o755)
            rundir = base / "run"
            rundir.mkdir(mode=0o700)
            if ident.uid is not None:
                os.chown(rundir, ident.uid, ident.gid)
            _write_files(rundir, files)
        except BaseException:
            sandbox.remove_tree(base)
            if ident.was_clean:  # nothing ran: the uid is as clean as it was
                sandbox.mark_clean(ident)
            raise
        try:
            result = _execute(mode, ident, [str(exe), *map(str, args)], bindir, rundir, limits)
        finally:
            sandbox.remove_tree(base)
        return result


_CHILD_PID = re.compile(rb'"child-pid":\s*(\d+)')


def _after_exit(mode: str, ident: sandbox.Identity, known: set[int], info_read: int | None,
                limits: Limits) -> tuple[bool, sandbox.Usage, bool]:
    """The program (or bwrap) has been reaped: end and reap whatever is left of the run.
    Returns (all gone, rusage of what was reaped here, whether that was bwrap's init).

    Under bwrap what is left is bwrap's init (pid 1 of the run's pid namespace),
    which the outer bwrap does not wait for: it comes back to us (subreaper).
    The kernel kills every process of a pid namespace before its init becomes
    a zombie, so once that init is reaped the run is over: no /proc scan."""
    if mode == "bwrap" and info_read is not None:
        try:
            os.set_blocking(info_read, False)
            match = _CHILD_PID.search(os.read(info_read, 4096))
        except OSError:
            match = None
        if match:
            init = int(match.group(1))
            sandbox.wait_exit([init], 0.2)
            try:
                pid, _, ru = os.wait4(init, os.WNOHANG)
            except ChildProcessError:
                pid = 0
            if pid == init:
                return True, sandbox.Usage(ru.ru_utime + ru.ru_stime, ru.ru_maxrss), True
    return (*sandbox.sweep(ident, known, timeout=limits.grace_s + 2.0), False)


class _Stream:
    def __init__(self, fd: int, cap: int) -> None:
        self.fd = fd
        self.cap = cap
        self.chunks: list[bytes] = []
        self.kept = 0
        self.total = 0
        self.open = True
        os.set_blocking(fd, False)

    def read(self) -> None:
        try:
            data = os.read(self.fd, READ_CHUNK)
        except BlockingIOError:
            return
        if not data:
            self.open = False
            return
        self.total += len(data)
        if self.kept < self.cap:
            piece = data[: self.cap - self.kept]
            self.chunks.append(piece)
            self.kept += len(piece)

    def value(self) -> bytes:
        return b"".join(self.chunks)


def _execute(mode: str, ident: sandbox.Identity, argv: list[str], bindir: Path, rundir: Path,
             limits: Limits) -> RunResult:
    info_read = info_write = None
    if mode == "bwrap":
        info_read, info_write = os.pipe()
        inner = sandbox.bwrap_command(argv, bindir, rundir, info_fd=info_write)
        cmd, spawn_kwargs = sandbox.launch_command(inner, limits, ident, extra_processes=BWRAP_PROCESSES)
    else:
        cmd, spawn_kwargs = sandbox.launch_command(argv, limits, ident)

    # Orphans of the run (bwrap's init, which outer bwrap never waits for; a
    # daemon's parent...) come back to us, to be reaped: see harness/sandbox.py.
    sandbox.become_subreaper()
    known: set[int] = set()
    folders_before = sandbox.world_writable_state() if mode == "rlimits" and ident.uid is not None else None
    ident.since = sandbox.last_pid()
    start = time.monotonic()
    try:
        proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                cwd=rundir, env=_env(ident, rundir), start_new_session=True, close_fds=True,
                                pass_fds=(info_write,) if info_write is not None else (),
                                **spawn_kwargs)
    except BaseException:
        for fd in (info_read, info_write):
            if fd is not None:
                os.close(fd)
        raise
    if info_write is not None:
        os.close(info_write)
    known.add(proc.pid)
    pidfd = os.pidfd_open(proc.pid)
    out = _Stream(proc.stdout.fileno(), limits.output_bytes)
    err = _Stream(proc.stderr.fileno(), limits.stderr_bytes)
    selector = selectors.DefaultSelector()
    selector.register(out.fd, selectors.EVENT_READ, out)
    selector.register(err.fd, selectors.EVENT_READ, err)
    selector.register(pidfd, selectors.EVENT_READ, None)

    deadline = start + limits.wall_s
    limit: str | None = None
    killed_at: float | None = None  # when the harness killed the run (a limit)
    status = None
    usage = None
    end_wall = None
    drain_until: float | None = None  # once the program is gone: read what is left, this long at most
    extra = sandbox.Usage()  # orphans reaped by the sweeps
    clean = False  # every process of the run is gone and reaped
    init_reaped = False  # bwrap's init reaped by us: its rusage is the program's
    at_kill = sandbox.Usage()  # what /proc said of the run's processes just before the harness killed them

    def kill_all() -> None:
        nonlocal killed_at
        killed_at = time.monotonic()
        at_kill.add(sandbox.snapshot(ident, known))  # rusage of what bwrap's init never reaps is lost
        try:  # bwrap's group (die-with-parent then takes the pid namespace) or the program's
            os.killpg(proc.pid, signal_module.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        if mode == "rlimits":  # the program's other sessions, at once (not the main pid's zombie: ours)
            sandbox.sweep(ident, known, timeout=limits.grace_s + 2.0, skip=proc.pid)

    def stop_reading() -> None:
        for stream in (out, err):
            if stream.open:
                stream.open = False
                selector.unregister(stream.fd)

    try:
        while True:
            now = time.monotonic()
            if status is None and killed_at is None:
                if now >= deadline:
                    limit = "wall"
                    kill_all()
                    continue
                wait_until = deadline
            elif status is None:  # killed, waiting for it to die
                if now >= killed_at + limits.grace_s:
                    stop_reading()
                if now >= killed_at + limits.grace_s + 5.0:
                    break  # not dead 5 s after SIGKILL (uninterruptible sleep): give up waiting
                wait_until = killed_at + limits.grace_s + 5.0
            else:  # exited: drain the pipes, for grace_s at most
                if not (out.open or err.open) or now >= drain_until:
                    break
                wait_until = drain_until
            for key, _ in selector.select(max(0.0, wait_until - now)):
                stream = key.data
                if stream is None:  # the pidfd: the program (or bwrap) has exited
                    _, status, usage = os.wait4(proc.pid, 0)
                    end_wall = time.monotonic()
                    proc.returncode = status  # Popen must not wait for it again
                    selector.unregister(pidfd)
                    # Whatever the run left behind (a daemon holding stdout...) goes now.
                    clean, more, init_reaped = _after_exit(mode, ident, known, info_read, limits)
                    extra.add(more)
                    drain_until = (killed_at if killed_at is not None else time.monotonic()) + limits.grace_s
                    continue
                if not stream.open:
                    continue
                stream.read()
                if not stream.open:
                    selector.unregister(stream.fd)
                if stream is out and out.total > limits.output_bytes and limit is None:
                    limit = "output"
                    if status is None:
                        kill_all()
    except BaseException:
        # Interrupted (KeyboardInterrupt, a test timeout...): leave nothing behind anyway.
        if status is None:
            if killed_at is None:
                kill_all()
            sandbox.wait_exit([proc.pid], limits.grace_s + 5.0)
            try:
                if os.wait4(proc.pid, os.WNOHANG)[0] == proc.pid:
                    status = 0
                    proc.returncode = -signal_module.SIGKILL
            except ChildProcessError:
                pass
        sandbox.sweep(ident, known, timeout=limits.grace_s + 2.0, skip=None if status is not None else proc.pid)
        raise
    finally:
        selector.close()
        if status is None:  # a process that does not die: reap it in the background
            try:
                os.killpg(proc.pid, signal_module.SIGKILL)
            except OSError:
                pass
            threading.Thread(target=proc.wait, daemon=True).start()
        os.close(pidfd)
        if info_read is not None:
            os.close(info_read)
        proc.stdout.close()
        proc.stderr.close()

    if not clean:  # (once all is gone and reaped, nothing can start a process of the run again)
        clean, more = sandbox.sweep(ident, known, timeout=limits.grace_s + 2.0)
        extra.add(more)
    if folders_before is not None:
        sandbox.remove_files_of_uid(ident.uid, folders_before)
    if clean:
        sandbox.mark_clean(ident)
    sandbox.reap_foreign_orphans()

    wall = (end_wall or time.monotonic()) - start
    cpu = max((usage.ru_utime + usage.ru_stime if usage else 0.0) + extra.cpu_s, at_kill.cpu_s)
    # Linux starts a process's peak RSS at that of the process it was exec'd from:
    # whatever Popen starts (bwrap, setpriv) inherits the harness's own peak. bwrap's
    # init forks the program from a small process, so its rusage is the program's;
    # without bwrap the figure is at least the harness's peak RSS (a known limit).
    main_rss = 0 if init_reaped or usage is None else usage.ru_maxrss
    rss = max(main_rss, extra.max_rss_kb, at_kill.max_rss_kb)
    exit_code: int | None = None
    sig: str | None = None
    if status is not None and killed_at is None:  # it ended by itself: say how
        if os.WIFEXITED(status) and (
                (os.WEXITSTATUS(status) == sandbox_exec.SETUP_FAILED and err.value().startswith(sandbox_exec.PREFIX))
                or (mode == "bwrap" and os.WEXITSTATUS(status) == 1 and err.value().startswith(b"bwrap: ")
                    and not err.value().startswith(b"bwrap: execvp "))):  # (that one: the program's file)
            # the launcher or bubblewrap could not set the sandbox up: not the program's doing
            raise sandbox.SandboxError(err.value().decode(errors="replace").strip())
        if os.WIFEXITED(status):
            exit_code = os.WEXITSTATUS(status)
            if mode == "bwrap" and exit_code > 128 and _signal_name(exit_code - 128):
                # bwrap reports a program killed by signal N as exit status 128+N (the shell
                # convention); a program calling exit(128+N) itself reads the same.
                sig = _signal_name(exit_code - 128)
                exit_code = None
        elif os.WIFSIGNALED(status):
            sig = _signal_name(os.WTERMSIG(status)) or f"SIG{os.WTERMSIG(status)}"
        if limit is None and (sig == "SIGXCPU" or (sig == "SIGKILL" and cpu >= limits.cpu_s)):
            limit, sig = "cpu", None  # RLIMIT_CPU: SIGXCPU at the soft limit, SIGKILL at the hard one
    if limit is None and cpu > limits.cpu_s:
        limit = "cpu"  # RLIMIT_CPU counts whole seconds per process: the exact budget is checked here
    return RunResult(
        stdout=out.value(),
        stderr=err.value(),
        exit_code=exit_code,
        signal=sig,
        wall_s=round(wall, 6),
        cpu_s=round(cpu, 6),
        max_rss_kb=int(rss),
        limit=limit,
        isolation=mode,
    )


def _signal_name(number: int) -> str | None:
    try:
        return signal_module.Signals(number).name
    except ValueError:
        return None
