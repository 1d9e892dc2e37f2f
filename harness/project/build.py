"""Repository mode's first step: copy the repository and build it with `make`, jailed.

    with Workspace.create(jail) as ws:
        build = build_repository(Path("alice"), ws, lenient=False)
        build.ok, build.binary, build.message, build.left_out

The copy leaves out `.git`, a committed root `fillit`, object files and special files
(FIFOs, sockets, devices), so that what is graded is what the sources build; what was
left out is listed in `BuildResult.left_out` (and the reports). `make` runs as the
workspace's uid in the jail, with the copy as its only writable folder. Once it is over,
the binary is copied out of the tree (never through a link) into a root-only folder:
that copy is what the cases and checks run, whatever later `make` calls do to the tree.
"""
from __future__ import annotations

import os
import posixpath
import re
import shutil
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from harness.grading.settings import DEFAULT_BUILD_TIMEOUT_S
from harness.jail import Bind
from harness.project.workspace import REPO, TOOLS, ExecResult, Workspace, build_env, read_nofollow

BINARY_NAME = "fillit"
MAX_COPY_FILES = 20_000
MAX_COPY_BYTES = 256 * 1024 * 1024
OBJECT_SUFFIXES = (".o", ".a", ".so")
LENIENT_BIN = f"{TOOLS}/lenient-bin"


@dataclass(frozen=True)
class BuildResult:
    ok: bool
    binary: Path | None  # the graded copy of ./fillit (root-only), when built
    workdir: Path  # the repository copy
    command: str  # "make" or "make CC=<wrapper>"
    lenient: bool  # True when --lenient-build was used
    message: str  # one line: why it failed, or what was built
    log: str  # make's output, capped
    left_out: tuple[str, ...] = ()  # committed build products not copied (relative paths)

    def summary(self) -> dict[str, Any]:
        """What a report keeps of the build."""
        return {"ok": bool(self.ok and self.binary is not None), "command": self.command,
                "lenient": self.lenient, "message": self.message, "log": self.log[-4000:],
                "left_out": list(self.left_out)}


class _CopyTooLarge(Exception):
    pass


def copy_repository(src: Path, dst: Path) -> list[str]:
    """Copy `src` to `dst` without .git, the root `fillit`, object files and special
    files; links are copied as links (never followed). Returns what was left out as a
    build product."""
    left_out: list[str] = []
    counts = {"files": 0, "bytes": 0}
    src = src.resolve()

    def ignore(directory: str, names: list[str]) -> set[str]:
        out: set[str] = set()
        here = Path(directory)
        for name in names:
            try:
                info = os.lstat(here / name)
            except OSError:
                out.add(name)
                continue
            relative = os.path.relpath(here / name, src)
            if name == ".git":
                out.add(name)
            elif not stat.S_ISDIR(info.st_mode) and (
                    (here == src and name == BINARY_NAME) or name.endswith(OBJECT_SUFFIXES)):
                out.add(name)
                left_out.append(relative)
            elif not (stat.S_ISREG(info.st_mode) or stat.S_ISDIR(info.st_mode) or stat.S_ISLNK(info.st_mode)):
                out.add(name)  # FIFOs, sockets, devices: reading one could block
            else:
                counts["files"] += 1
                counts["bytes"] += info.st_size if stat.S_ISREG(info.st_mode) else 0
                if counts["files"] > MAX_COPY_FILES or counts["bytes"] > MAX_COPY_BYTES:
                    raise _CopyTooLarge(f"repository too large to grade (more than {MAX_COPY_FILES} files "
                                        f"or {MAX_COPY_BYTES // (1024 * 1024)} MiB)")
        return out

    shutil.copytree(src, dst, symlinks=True, ignore=ignore, ignore_dangling_symlinks=True)
    return sorted(left_out)


_WRAPPER = """#!/bin/sh
# fillit-moulinette --lenient-build: drop -Werror and -Werror=* then call the real gcc
for arg do
  shift
  case "$arg" in
    -Werror|-Werror=*) ;;
    *) set -- "$@" "$arg" ;;
  esac
done
exec /usr/bin/gcc "$@"
"""


def _write_wrappers(ws: Workspace) -> Path:
    """cc/gcc/clang wrappers that drop -Werror, in the workspace's root-owned tools folder."""
    folder = ws.root / "tools" / "lenient-bin"
    folder.mkdir()
    os.chmod(folder, 0o755)  # (explicit: the harness runs with umask 077)
    for name in ("cc", "gcc", "clang"):
        (folder / name).write_text(_WRAPPER)
        os.chmod(folder / name, 0o755)
    return folder


def make_step(ws: Workspace, lenient: bool, targets: tuple[str, ...] = (), *, cpu_s: float,
              extra: tuple[str, ...] = (), folder: str = "") -> ExecResult:
    """`make [extra] [targets]` in the repository copy (in `folder`, relative to its root),
    jailed (the lenient wrappers first in PATH)."""

    argv = ["make"]
    binds: tuple[Bind, ...] = ()
    env = build_env()
    if lenient:
        argv.append(f"CC={LENIENT_BIN}/cc")
        binds = (Bind(ws.root / "tools" / "lenient-bin", LENIENT_BIN),)
        env = build_env(extra_path=[LENIENT_BIN])
    cwd = posixpath.join(REPO, folder) if folder else REPO
    return ws.run([*argv, *extra, *targets], cwd=cwd, binds=binds, env=env, cpu_s=cpu_s)


# Why a make run failed, most telling first. make's own "*** [Makefile:23: fillit] Error
# 127" only says which target failed, never why: it is the last resort.
_FAILURE_TIERS = (
    re.compile(r"^\S[^:\n]*:\d+(?::\d+)?: (?:fatal )?error: "),  # the compiler's `file:line: error:`
    re.compile(r"undefined reference to|multiple definition of|cannot find -l|ld: cannot find"),  # the linker
    re.compile(r"\*\*\* (?!\[).*Stop\.$"),  # make itself: no rule, missing separator...
    re.compile(r": not found$|No such file or directory|Permission denied|command not found|cannot execute"
               r"|Exec format error|\berror:|\bError:|\bfatal:"),  # the shell or a tool of the recipe
)
_RECIPE_FAILED = re.compile(r"^\S*make(?:\[\d+\])?: \*\*\* \[")  # make: *** [Makefile:23: fillit] Error 127
_MAKE_CHATTER = re.compile(r"^\S*make(?:\[\d+\])?: (?:Entering|Leaving) directory|\*\*\* Waiting for unfinished jobs"
                           r"|^\S*make(?:\[\d+\])?: Target .* not remade")


def failure_line(output: str, result: ExecResult | None = None, timeout_s: float | None = None) -> str:
    """One line saying why a make run failed: the first line of the most telling kind
    (`_FAILURE_TIERS`), else make's own "*** [target] Error N", else the last line."""
    if result is not None and result.timed_out:
        return f"timed out after {timeout_s:g} s of CPU (make and everything it started were killed)"
    lines = [ln.strip() for ln in output.splitlines() if ln.strip() and not _MAKE_CHATTER.search(ln.strip())]
    causes = [ln for ln in lines if not _RECIPE_FAILED.match(ln)]
    chosen = next((ln for tier in _FAILURE_TIERS for ln in causes if tier.search(ln)), None)
    if chosen is None:
        chosen = next((ln for ln in reversed(lines) if _RECIPE_FAILED.match(ln)), None)
    if chosen is None and lines:
        chosen = lines[-1]
    if chosen is None and result is not None:
        chosen = f"exit status {result.returncode}, no output"
    chosen = chosen or "no output"
    return chosen if len(chosen) <= 300 else chosen[:297] + "..."


def build_repository(repo: Path, ws: Workspace, *, lenient: bool = False,
                     timeout_s: float = DEFAULT_BUILD_TIMEOUT_S) -> BuildResult:
    """Copy `repo` into the workspace and run `make` there, jailed (see the module doc)."""
    command = "make" + (f" CC={LENIENT_BIN}/cc" if lenient else "")
    left_out: list[str] = []

    def fail(message: str, log: str = "") -> BuildResult:
        return BuildResult(False, None, ws.repo, command, lenient, message, log, tuple(left_out))

    repo = Path(repo)
    if not repo.is_dir():
        return fail(f"{repo} is not a directory")
    try:
        left_out = copy_repository(repo, ws.repo)
    except _CopyTooLarge as too_large:
        shutil.rmtree(ws.repo, ignore_errors=True)
        return fail(str(too_large))
    except OSError as error:
        return fail(f"could not copy the repository: {error}")
    ws.give_repo()
    if lenient:
        _write_wrappers(ws)
    if not any(os.path.isfile(ws.repo / name) and not os.path.islink(ws.repo / name)
               for name in ("Makefile", "makefile", "GNUmakefile")):
        return fail("no Makefile at the repository root")
    result = make_step(ws, lenient, cpu_s=timeout_s)
    log = result.output
    if left_out:
        log = f"[fillit-moulinette] not copied (build products): {', '.join(left_out[:20])}\n" + log
    if not result.ok:
        return fail(f"make failed: {failure_line(result.output, result, timeout_s)}", log)
    built = ws.repo / BINARY_NAME
    try:
        info = os.lstat(built)
    except FileNotFoundError:
        return fail(f"make succeeded but no ./{BINARY_NAME} at the repository root", log)
    if not stat.S_ISREG(info.st_mode) or not info.st_mode & 0o111:
        return fail(f"make succeeded but ./{BINARY_NAME} is not an executable file", log)
    try:
        data = read_nofollow(built)
    except OSError as error:
        return fail(f"could not copy ./{BINARY_NAME} out of the repository: {error}", log)
    fd = os.open(ws.graded_binary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o700)
    with os.fdopen(fd, "wb") as out:
        out.write(data)
        os.fchmod(out.fileno(), 0o755)  # the run's uid executes it (umask 077 would hide it)
    return BuildResult(True, ws.graded_binary, ws.repo, command, lenient, f"built ./{BINARY_NAME} with `{command}`",
                       log, tuple(left_out))
