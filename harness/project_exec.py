"""Running untrusted repository commands (make, nm, norminette, valgrind) the way the
runner runs the program under test: a Makefile runs arbitrary commands, so the build is
as untrusted as the program it builds.

Reused from ``harness.sandbox`` (the runner's low-level pieces, see its docstring):

* each command runs under a run identity: when the harness is root, a dedicated uid
  from the pool (``sandbox.identity()``), no supplementary groups, ``no_new_privs``;
  otherwise the harness's own uid plus an environment marker;
* the uid, no_new_privs and resource limits are applied by ``sandbox.launch_command``;
* at the end (exit or wall limit) the session's process group is killed, then
  ``sandbox.sweep`` kills and reaps every process left with the run's uid (a
  ``setsid`` daemon, a double fork, a process that cleared its environment), and what
  the uid left in world-writable folders is removed.

Because every command gets a fresh uid, the files it must write (the repository copy,
its HOME) are handed to that uid just before it starts (``owned=``), and taken back by
the harness when it ends: a pool uid is later lent to other runs, which must not be
able to change the graded binary.

Output goes to a file rather than a pipe, so nothing can block the harness by keeping
a descriptor open.
"""
from __future__ import annotations

import os
import shutil
import signal
import stat
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping, Sequence

from harness import sandbox
from harness.limits import Limits

MiB = 1024 * 1024

SANE_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"

#: Output kept from a command: the head and the tail, each half of this.
LOG_CAP_BYTES = 64 * 1024

#: valgrind reserves a lot of address space up front: no RLIMIT_AS worth the name.
HUGE_ADDRESS_SPACE = 1 << 46


def running_as_root() -> bool:
    return os.geteuid() == 0


def give_to(path: Path, uid: int | None, gid: int | None) -> None:
    """Make ``path`` (a file or a whole tree) owned by ``uid`` and writable by it.
    Symbolic links are changed themselves, never followed. No-op for uid None."""
    if uid is None or not (path.exists() or path.is_symlink()):
        return
    _give_one(path, uid, gid)
    if path.is_dir() and not path.is_symlink():
        for root, dirs, files in os.walk(path, followlinks=False):
            for name in dirs + files:
                _give_one(Path(root) / name, uid, gid)


def _give_one(p: Path, uid: int, gid: int | None) -> None:
    try:
        st = os.lstat(p)
        os.lchown(p, uid, gid if gid is not None else -1)
        if stat.S_ISDIR(st.st_mode):
            os.chmod(p, stat.S_IMODE(st.st_mode) | stat.S_IRWXU)
        elif stat.S_ISREG(st.st_mode):
            os.chmod(p, stat.S_IMODE(st.st_mode) | stat.S_IRUSR | stat.S_IWUSR)
    except FileNotFoundError:
        pass


def unreachable_ancestor(path: Path) -> Path | None:
    """The first directory on the way to ``path`` that a run uid (which owns none of
    them) cannot traverse, or None when it can reach ``path``."""
    if not running_as_root():
        return None
    p = Path(os.path.abspath(path))
    for d in [*reversed(p.parents), p]:
        try:
            st = os.stat(d)
        except OSError:
            return d
        if not st.st_mode & stat.S_IXOTH:
            return d
    return None


@dataclass(frozen=True)
class ExecResult:
    returncode: int | None  # None when killed at the wall limit
    timed_out: bool
    output: str  # stdout+stderr interleaved (or stderr only), capped (head + tail)
    wall_s: float
    uid: int | None  # the run uid (None: the harness's own)

    @property
    def ok(self) -> bool:
        return not self.timed_out and self.returncode == 0


def base_env(home: Path, extra_path: Sequence[str] = ()) -> dict[str, str]:
    return {
        "PATH": ":".join([*extra_path, SANE_PATH]),
        "HOME": str(home),
        "TMPDIR": str(home / "tmp"),
        "LANG": "C",
        "LC_ALL": "C",  # compiler diagnostics in English: "error:", "warning:"
        "TERM": "dumb",
    }


def prepare_home(home: Path) -> None:
    (home / "tmp").mkdir(parents=True, exist_ok=True)
    os.chmod(home, 0o700)


def run_untrusted(
    args: Sequence[str],
    *,
    cwd: Path,
    env: Mapping[str, str],
    timeout_s: float,
    log_path: Path,
    stdout_path: Path | None = None,
    owned: Sequence[Path] = (),
    memory_bytes: int = 4096 * MiB,
    file_size_bytes: int = 512 * MiB,
    processes: int = 256,
) -> ExecResult:
    """Run ``args`` under a fresh run identity in a new session; return when it ends
    or after ``timeout_s`` (then everything it started is killed). ``log_path``
    receives stdout and stderr (only stderr when ``stdout_path`` is given). The paths
    in ``owned`` are given to the run's uid first."""
    limits = Limits(wall_s=timeout_s, cpu_s=timeout_s + 5.0, memory_bytes=memory_bytes,
                    file_size_bytes=file_size_bytes, processes=processes, open_files=1024)
    log_path.parent.mkdir(parents=True, exist_ok=True)
    with sandbox.identity() as ident:
        try:
            for p in owned:
                give_to(p, ident.uid, ident.gid)
            return _execute(args, ident, cwd=cwd, env=env, limits=limits, log_path=log_path,
                            stdout_path=stdout_path)
        finally:
            if ident.uid is not None:
                # Take the files back: the pool uid will later be lent to other runs
                # (the program under test), which must not be able to change the graded
                # binary or the copy.
                for p in owned:
                    give_to(p, os.geteuid(), os.getegid())


def _execute(args: Sequence[str], ident: sandbox.Identity, *, cwd: Path, env: Mapping[str, str],
             limits: Limits, log_path: Path, stdout_path: Path | None) -> ExecResult:
    env = dict(env)
    env[sandbox.MARKER_VAR] = ident.token
    if ident.uid is not None:
        sandbox.become_subreaper()  # orphans come back to us and are reaped by the sweep
    # The same launch as the program under test: the run uid, no_new_privs, rlimits.
    # The launcher execs a path, not a name: look the command up in the run's PATH.
    program = shutil.which(args[0], path=env.get("PATH")) or args[0]
    cmd, spawn_kwargs = sandbox.launch_command([program, *args[1:]], limits, ident)
    known: set[int] = set()
    start = time.monotonic()
    timed_out = False
    rc: int | None = None
    with open(log_path, "wb") as log, \
            open(stdout_path if stdout_path is not None else os.devnull, "wb") as out:
        try:
            proc = subprocess.Popen(cmd, cwd=str(cwd), env=env, stdin=subprocess.DEVNULL,
                                    stdout=out if stdout_path is not None else log, stderr=log,
                                    close_fds=True, start_new_session=True, **spawn_kwargs)
        except (OSError, subprocess.SubprocessError) as exc:
            log.write(f"cannot start {args[0]}: {exc}\n".encode())
            log.flush()
            return ExecResult(127, False, read_capped(log_path), 0.0, ident.uid)
        known.add(proc.pid)
        try:
            rc = proc.wait(timeout=max(0.1, limits.wall_s))
        except subprocess.TimeoutExpired:
            timed_out = True
        finally:
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
            if timed_out:
                try:
                    proc.wait(timeout=5)
                except subprocess.TimeoutExpired:  # pragma: no cover - unkillable
                    pass
                rc = None
            # Everything else the command started: setsid daemons, double forks...
            clean, _ = sandbox.sweep(ident, known, timeout=5.0)
            if ident.uid is not None:
                sandbox.remove_files_of_uid(ident.uid)
            if clean:
                sandbox.mark_clean(ident)
    wall = time.monotonic() - start
    return ExecResult(rc, timed_out, read_capped(log_path), wall, ident.uid)


def read_capped(path: Path, cap: int = LOG_CAP_BYTES) -> str:
    try:
        size = path.stat().st_size
        with open(path, "rb") as fh:
            if size <= cap:
                data = fh.read()
            else:
                head = fh.read(cap // 2)
                fh.seek(size - cap // 2)
                tail = fh.read()
                data = head + f"\n[... {size - cap} bytes cut ...]\n".encode() + tail
    except OSError:
        return ""
    return data.decode("utf-8", errors="replace")
