"""Run one untrusted program on one case, in the jail, and say what happened.

    jail = detect_jail()
    result = run(Path("./fillit"), ["input.fillit"], [RunFile("input.fillit", data)], Limits(cpu_s=2), jail)
    result.stdout, result.exit_code, result.signal, result.limit

What the program sees (harness/jail, docs/SECURITY.md): its working folder /grade/work,
a private tmpfs of `Limits.tmpfs_bytes`, holding the program itself (`./NAME`) and the
case's files, all bound read-only from a fresh root-owned folder (so a 000 file stays
unreadable and no file can be replaced by a link); its own /tmp and /dev/shm; the
system folders read-only; nothing else. It is started as `./NAME ARGS...` from
/grade/work — the command a student types — with the environment `RUN_ENV` (or the one
given), and everything it starts lives in the run's cgroup until the run is over.
"""
from __future__ import annotations

import os
import shutil
import stat
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from harness.jail import Bind, Jail, RunResult, Scratch, Step, detect_jail
from harness.limits import Limits

WORK = "/grade/work"
# The environment of a run: the near-empty one of a moulinette. `NORMAL_ENV` is what a
# student's shell would add; a crash that only happens without it is worth saying.
RUN_ENV: Mapping[str, str] = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": WORK, "LC_ALL": "C"}
NORMAL_ENV: Mapping[str, str] = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": WORK, "LANG": "C.UTF-8",
                                 "TERM": "xterm-256color", "USER": "student", "SHELL": "/bin/sh", "PWD": WORK}


@dataclass(frozen=True)
class RunFile:
    name: str  # path relative to the run's working folder
    content: bytes | None = None  # None -> a folder
    mode: int = 0o644  # a folder given the default 0o644 is made 0o755


def run(program: Path, args: Sequence[str], files: Sequence[RunFile] = (), limits: Limits = Limits(),
        jail: Jail | None = None, env: Mapping[str, str] = RUN_ENV, stdin: bytes | None = None,
        wrapper: Sequence[str] = (), side_output: Path | None = None) -> RunResult:
    """Run `./NAME args...` in a fresh working folder holding `files`; see the module doc.
    `stdin`: bytes fed on standard input (default: /dev/null). `wrapper`: a command the
    program runs under (`valgrind ...`, its log to `side_output`). Raises JailError when
    the jail fails (never the program's fault)."""

    jail = jail or detect_jail()
    program = Path(program)
    if not program.is_file():
        raise FileNotFoundError(f"program {program} not found")
    for f in files:
        rel = PurePosixPath(f.name)
        if rel.is_absolute() or ".." in rel.parts or not rel.parts:
            raise ValueError(f"RunFile name must be a relative path inside the run folder: {f.name!r}")
    base = Path(tempfile.mkdtemp(prefix="fillit-run-", dir=run_root()))  # 0700, root's
    try:
        binds = [Bind(_runnable_by_others(program.resolve(), base), f"{WORK}/{program.name}")]
        for k, f in enumerate(files):
            source = base / f"f{k}"
            if f.content is None:
                source.mkdir()
                os.chmod(source, 0o755 if f.mode == 0o644 else f.mode)  # (explicit: umask 077)
            else:
                _write_new(source, f.content, f.mode)
            binds.append(Bind(source, f"{WORK}/{f.name}"))
        stdin_path = None
        if stdin is not None:
            stdin_path = base / "stdin"
            _write_new(stdin_path, stdin, 0o600)
        step = Step((*wrapper, f"./{program.name}", *map(str, args)), WORK, limits, binds=tuple(binds),
                    scratch=(Scratch(WORK),), env=dict(env), stdin=stdin_path, side_output=side_output)
        return jail.run(step)
    finally:
        shutil.rmtree(base, ignore_errors=True)


def _runnable_by_others(program: Path, base: Path) -> Path:
    """`program`, or a copy in `base` that the run's uid may read and execute (a binary
    made under umask 077 is 0700: the jail would see it, but could not run it)."""
    if os.stat(program).st_mode & 0o005 == 0o005:
        return program
    copy = base / "program"
    shutil.copyfile(program, copy)
    os.chmod(copy, 0o755)
    return copy


def _write_new(path: Path, content: bytes, mode: int) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
    with os.fdopen(fd, "wb") as out:
        out.write(content)
    os.chmod(path, mode)


def run_root() -> str:
    """Where run folders go: FILLIT_RUN_ROOT, else /dev/shm when it is a sticky folder
    with 1 GiB free (tmpfs: making and removing a run folder costs microseconds), else
    the temporary folder. Run folders are root's own (0700): only the launcher, as root,
    opens what is in them."""
    root = os.environ.get("FILLIT_RUN_ROOT")
    if root:
        return root
    try:
        info, fs = os.stat("/dev/shm"), os.statvfs("/dev/shm")
        if stat.S_ISDIR(info.st_mode) and info.st_mode & stat.S_ISVTX and fs.f_bavail * fs.f_frsize >= 1 << 30:
            return "/dev/shm"
    except OSError:
        pass
    return tempfile.gettempdir()
