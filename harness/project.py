"""Repository mode: build a student's fillit repository and check the 42 project rules.

``build_repository`` copies the repository into a private work directory (without
``.git``, a committed root ``fillit`` or object files, so that what is graded is what
the sources build), gives the copy to the unprivileged user and runs ``make`` there as
that user (see ``harness.project_exec``). ``project_checks`` then checks the rules of
the subject (SPEC.md, "Project checks"), each as its own named ``ProjectCheck``.

Work directory layout (all under the ``workdir`` given to ``build_repository``)::

    repo/          the private copy; make runs here (BuildResult.workdir)
    .home/         HOME and TMPDIR of the untrusted commands
    .lenient-bin/  the compiler wrappers of --lenient-build
    .logs/         logs of every command, and the graded binary's snapshot (root only)
    .leaks/        valgrind inputs and logs

Every untrusted command (make, nm, norminette, valgrind) runs through
``harness.project_exec.run_untrusted``: a fresh run uid from the runner's pool, its own
session, rlimits, a wall limit, and a sweep of everything it started; the copy and
HOME are handed to that uid just before.

HOME is ``.home`` rather than ``workdir`` itself so that untrusted commands cannot
touch the harness's own files next to the copy.
"""
from __future__ import annotations

import hashlib
import os
import re
import shlex
import shutil
import stat
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Sequence

from generators.cases import Case

from harness.model import ProjectCheck
from harness.project_exec import (
    HUGE_ADDRESS_SPACE,
    ExecResult,
    base_env,
    prepare_home,
    run_untrusted,
    running_as_root,
    unreachable_ancestor,
)

BINARY_NAME = "fillit"
REQUIRED_RULES = ("all", "clean", "fclean", "re")
REQUIRED_FLAGS = ("-Wall", "-Wextra", "-Werror")

#: Functions the subject allows.
ALLOWED_FUNCTIONS = frozenset({"exit", "open", "close", "write", "read", "malloc", "free"})

#: Other names an allowed function may be imported under: glibc's fortified
#: ``read`` (``_FORTIFY_SOURCE``, on by default with some distributions' gcc) and its
#: checked ``open`` for ``O_CREAT`` without a mode; ``open64`` is ``open`` with a
#: 64-bit ``off_t``.
ALLOWED_ALIASES = {"__read_chk": "read", "__open_2": "open", "open64": "open", "__open64_2": "open"}

#: Symbols the C runtime, the start files or the compiler insert on their own, never
#: because the student called them:
#: - start-up and tear-down: ``__libc_start_main``, ``__cxa_finalize``,
#:   ``__gmon_start__``, ``_ITM_*TMCloneTable``, ``__register_frame_info`` /
#:   ``__deregister_frame_info``, ``_Jv_RegisterClasses`` (older crt files);
#: - ``__stack_chk_fail`` (stack protector, on by default on many distributions);
#: - ``__errno_location``: how glibc exposes the ``errno`` variable; reading errno is
#:   not calling a function;
#: - ``memset``, ``memcpy``, ``memmove``: gcc and clang emit calls to these for
#:   struct/array zeroing and copies and for byte loops they recognise, even at -O0
#:   for large aggregates. We cannot tell such a call from an explicit one, so, to be
#:   fair, they are allowed. Their fortified forms (``__memcpy_chk``...) only come
#:   from explicit calls and stay forbidden; so do ``strlen``, ``printf``, ``puts``...
RUNTIME_SYMBOLS = frozenset({
    "__libc_start_main", "__cxa_finalize", "__gmon_start__",
    "_ITM_deregisterTMCloneTable", "_ITM_registerTMCloneTable",
    "__register_frame_info", "__deregister_frame_info", "_Jv_RegisterClasses",
    "__stack_chk_fail", "__errno_location",
    "memset", "memcpy", "memmove",
})

DEFAULT_BUILD_TIMEOUT_S = 120.0
MAX_COPY_FILES = 20_000
MAX_COPY_BYTES = 256 * 1024 * 1024
OBJECT_SUFFIXES = (".o", ".a", ".so")
MAX_LEAK_INPUTS = 3


@dataclass(frozen=True)
class BuildResult:
    ok: bool
    binary: Path | None  # <copy>/fillit when built
    workdir: Path  # the private copy of the repository
    command: str  # "make" or "make CC=<wrapper>"
    lenient: bool  # True when --lenient-build was used
    message: str  # one line: why it failed, or what was built
    log: str  # make's output, capped

    def summary(self) -> dict[str, Any]:
        """What a report keeps of the build."""
        return {"ok": bool(self.ok and self.binary is not None), "command": self.command,
                "lenient": self.lenient, "message": self.message, "log": self.log[-4000:]}


def leak_check_inputs(cases: Sequence[Case]) -> list[bytes]:
    """The inputs the leak check runs the binary on: the first few valid files of the suite."""
    return [case.input for case in cases if case.category == "valid" and case.input is not None][:MAX_LEAK_INPUTS]


# --------------------------------------------------------------------------- build


class _CopyTooLarge(Exception):
    pass


def _copy_repository(src: Path, dst: Path) -> list[str]:
    """Copy ``src`` to ``dst`` without .git, the root ``fillit``, object files and
    special files; symbolic links are copied as links (never followed). Returns the
    relative paths that were left out because they are build products."""
    skipped: list[str] = []
    counts = {"files": 0, "bytes": 0}
    src = src.resolve()

    def ignore(directory: str, names: list[str]) -> set[str]:
        out: set[str] = set()
        here = Path(directory)
        for name in names:
            p = here / name
            try:
                st = os.lstat(p)
            except OSError:
                out.add(name)
                continue
            rel = os.path.relpath(p, src)
            if name == ".git":
                out.add(name)
            elif here == src and name == BINARY_NAME and not stat.S_ISDIR(st.st_mode):
                out.add(name)
                skipped.append(rel)
            elif name.endswith(OBJECT_SUFFIXES) and not stat.S_ISDIR(st.st_mode):
                out.add(name)
                skipped.append(rel)
            elif not (stat.S_ISREG(st.st_mode) or stat.S_ISDIR(st.st_mode) or stat.S_ISLNK(st.st_mode)):
                out.add(name)  # fifos, sockets, devices: reading one could block
            else:
                counts["files"] += 1
                if stat.S_ISREG(st.st_mode):
                    counts["bytes"] += st.st_size
                if counts["files"] > MAX_COPY_FILES or counts["bytes"] > MAX_COPY_BYTES:
                    raise _CopyTooLarge(
                        f"repository too large to grade (more than {MAX_COPY_FILES} files "
                        f"or {MAX_COPY_BYTES // (1024 * 1024)} MiB)"
                    )
        return out

    shutil.copytree(src, dst, symlinks=True, ignore=ignore, ignore_dangling_symlinks=True)
    return skipped


_WRAPPER = """#!/bin/sh
# fillit-moulinette --lenient-build: drop -Werror and -Werror=* then call the real gcc
for arg do
  shift
  case "$arg" in
    -Werror|-Werror=*) ;;
    *) set -- "$@" "$arg" ;;
  esac
done
exec {gcc} "$@"
"""


def _write_wrappers(bindir: Path) -> Path:
    """Write cc/gcc/clang wrappers that drop -Werror; return the one used as CC."""
    real = shutil.which("gcc", path=os.environ.get("PATH", "") + ":/usr/bin:/bin") or "/usr/bin/gcc"
    bindir.mkdir(parents=True, exist_ok=True)
    os.chmod(bindir, 0o755)
    for name in ("cc", "gcc", "clang"):
        w = bindir / name
        w.write_text(_WRAPPER.replace("{gcc}", shlex.quote(real)))
        os.chmod(w, 0o755)
    return bindir / "cc"


@dataclass(frozen=True)
class _Layout:
    root: Path  # workdir given by the caller

    @property
    def repo(self) -> Path:
        return self.root / "repo"

    @property
    def home(self) -> Path:
        return self.root / ".home"

    @property
    def bindir(self) -> Path:
        return self.root / ".lenient-bin"

    @property
    def logs(self) -> Path:
        return self.root / ".logs"

    @property
    def leaks(self) -> Path:
        return self.root / ".leaks"

    @classmethod
    def of(cls, build: BuildResult) -> "_Layout":
        return cls(build.workdir.parent)


def _make_argv(build_or_lenient: BuildResult | bool, layout: _Layout) -> tuple[list[str], dict[str, str]]:
    lenient = build_or_lenient.lenient if isinstance(build_or_lenient, BuildResult) else build_or_lenient
    argv = ["make"]
    extra_path: list[str] = []
    if lenient:
        argv.append(f"CC={layout.bindir / 'cc'}")
        extra_path.append(str(layout.bindir))
    return argv, base_env(layout.home, extra_path)


def _log_file(layout: _Layout, what: str) -> Path:
    """A new log file, named after the command it logs, never reused."""
    layout.logs.mkdir(parents=True, exist_ok=True)
    os.chmod(layout.logs, 0o700)
    safe = re.sub(r"[^A-Za-z0-9_.-]+", "_", what)[:40]
    handle, name = tempfile.mkstemp(prefix=f"{safe}-", suffix=".log", dir=layout.logs)
    os.close(handle)
    return Path(name)


def _run_make(layout: _Layout, lenient: bool, targets: Sequence[str], timeout_s: float,
              what: str, extra: Sequence[str] = ()) -> ExecResult:
    argv, env = _make_argv(lenient, layout)
    return run_untrusted([*argv, *extra, *targets], cwd=layout.repo, env=env,
                         timeout_s=timeout_s, log_path=_log_file(layout, what),
                         owned=(layout.repo, layout.home))


_COMPILER_ERROR = re.compile(r"^\S[^:\n]*:\d+(?::\d+)?: (?:fatal )?error: ", re.M)


def failure_line(output: str, result: ExecResult | None = None, timeout_s: float | None = None) -> str:
    """One line saying why a make run failed."""
    if result is not None and result.timed_out:
        return f"timed out after {timeout_s:g} s (make and everything it started were killed)"
    lines = [ln.strip() for ln in output.splitlines() if ln.strip()]
    chosen = None
    m = _COMPILER_ERROR.search(output)
    if m:
        chosen = output[m.start():].splitlines()[0].strip()
    if chosen is None:
        chosen = next((ln for ln in lines if "undefined reference to" in ln), None)
    if chosen is None:
        chosen = next((ln for ln in lines if "error:" in ln or "Error:" in ln), None)
    if chosen is None and lines:
        chosen = lines[-1]
    if chosen is None and result is not None:
        chosen = f"exit status {result.returncode}, no output"
    chosen = chosen or "no output"
    return chosen if len(chosen) <= 300 else chosen[:297] + "..."


def build_repository(repo: Path, workdir: Path, *, lenient: bool = False,
                     timeout_s: float = DEFAULT_BUILD_TIMEOUT_S) -> BuildResult:
    """Copy ``repo`` to ``workdir/repo`` and run ``make`` there as the unprivileged user."""
    repo = Path(repo)
    layout = _Layout(Path(os.path.abspath(workdir)))
    copy = layout.repo
    command = "make"

    def fail(message: str, log: str = "") -> BuildResult:
        return BuildResult(False, None, copy, command, lenient, message, log)

    try:
        if not repo.is_dir():
            return fail(f"{repo} is not a directory")
        layout.root.mkdir(parents=True, exist_ok=True)
        if running_as_root():
            os.chmod(layout.root, 0o711)  # traversable by the runner user, not listable
        blocked = unreachable_ancestor(layout.root)
        if blocked is not None:
            return fail(f"work directory {layout.root} is not reachable by the unprivileged "
                        f"build user: {blocked} is not searchable by others")
        if copy.exists() or copy.is_symlink():
            shutil.rmtree(copy) if copy.is_dir() and not copy.is_symlink() else copy.unlink()
        try:
            skipped = _copy_repository(repo, copy)
        except _CopyTooLarge as exc:
            shutil.rmtree(copy, ignore_errors=True)
            return fail(str(exc))
        prepare_home(layout.home)
        if lenient:
            cc = _write_wrappers(layout.bindir)
            command = f"make CC={cc}"
        if not any((copy / n).is_file() for n in ("Makefile", "makefile", "GNUmakefile")):
            return fail("no Makefile at the repository root")
        res = _run_make(layout, lenient, [], timeout_s, "build")
    except Exception as exc:  # the harness's own trouble: copying, chown...
        return fail(f"could not build: {type(exc).__name__}: {exc}")

    log = res.output
    if skipped:
        log = f"[fillit-moulinette] not copied (build products): {', '.join(sorted(skipped)[:20])}\n" + log
    if not res.ok:
        return fail(f"make failed: {failure_line(res.output, res, timeout_s)}", log)
    binary = copy / BINARY_NAME
    if binary.is_symlink() or not binary.exists():
        return fail(f"make succeeded but no ./{BINARY_NAME} at the repository root", log)
    if not binary.is_file() or not os.access(binary, os.X_OK):
        return fail(f"make succeeded but ./{BINARY_NAME} is not an executable file", log)
    try:
        _snapshot(binary, layout)
    except OSError as exc:
        return fail(f"could not keep a copy of ./{BINARY_NAME}: {exc}", log)
    return BuildResult(True, binary, copy, command, lenient,
                       f"built ./{BINARY_NAME} with `{command}`", log)


# --------------------------------------------------------------------------- checks


class _Deadline:
    def __init__(self, seconds: float) -> None:
        self.end = time.monotonic() + seconds

    def left(self) -> float:
        return max(0.5, self.end - time.monotonic())

    def expired(self) -> bool:
        return time.monotonic() >= self.end


def _pass(name: str, msg: str) -> ProjectCheck:
    return ProjectCheck(name, "pass", msg)


def _fail(name: str, msg: str) -> ProjectCheck:
    return ProjectCheck(name, "fail", msg)


def _skip(name: str, msg: str) -> ProjectCheck:
    return ProjectCheck(name, "skip", msg)


def _no_rule(output: str, target: str) -> bool:
    return re.search(r"No rule to make target [`'‘\"]?" + re.escape(target) + r"['’\"]?", output) is not None


def _built_files(repo: Path) -> dict[str, tuple[int, int]]:
    """(inode, mtime in ns) of the binary and of every object/archive in the copy."""
    out: dict[str, tuple[int, int]] = {}
    for root, dirs, files in os.walk(repo, followlinks=False):
        dirs[:] = [d for d in dirs if d != ".git"]
        for f in files:
            p = Path(root) / f
            rel = os.path.relpath(p, repo)
            if rel == BINARY_NAME or f.endswith((".o", ".a")):
                try:
                    st = os.lstat(p)
                except OSError:
                    continue
                out[rel] = (st.st_ino, st.st_mtime_ns)
    return out


def _objects(repo: Path) -> list[str]:
    return sorted(r for r in _built_files(repo) if r.endswith(".o"))


def _stamp(path: Path) -> tuple[int, int] | None:
    try:
        st = os.lstat(path)
    except OSError:
        return None
    return st.st_ino, st.st_mtime_ns


def check_binary_at_root(build: BuildResult) -> ProjectCheck:
    name = "binary_at_root"
    if build.ok and build.binary is not None and build.binary.is_file():
        return _pass(name, f"`{build.command}` builds ./{BINARY_NAME} at the repository root")
    return _fail(name, build.message or f"no ./{BINARY_NAME} after make")


def check_no_relink(build: BuildResult, timeout_s: float) -> ProjectCheck:
    name = "no_relink"
    if not build.ok:
        return _skip(name, "not checked: the build failed")
    layout = _Layout.of(build)
    before = _built_files(layout.repo)
    # Coarse file timestamps tick every few ms: make sure a rewrite gets a new one.
    time.sleep(0.05)
    res = _run_make(layout, build.lenient, [], timeout_s, "relink")
    if not res.ok:
        return _fail(name, f"a second `make` failed: {failure_line(res.output, res, timeout_s)}")
    after = _built_files(layout.repo)
    if BINARY_NAME not in after:
        return _fail(name, f"a second `make` removed ./{BINARY_NAME}")
    relinked = after[BINARY_NAME] != before.get(BINARY_NAME)
    rebuilt = sorted(r for r in after if r != BINARY_NAME and after[r] != before.get(r))
    if relinked or rebuilt:
        parts = []
        if relinked:
            parts.append(f"relinked ./{BINARY_NAME}")
        if rebuilt:
            shown = ", ".join(rebuilt[:5]) + (" ..." if len(rebuilt) > 5 else "")
            parts.append(f"rebuilt {len(rebuilt)} object file(s) ({shown})")
        return _fail(name, "a second `make` with nothing changed " + " and ".join(parts))
    return _pass(name, f"a second `make` left ./{BINARY_NAME} and {len(after) - 1} object file(s) untouched")


_COMPILER_NAME = re.compile(r"^(?:[\w.+]*-)?(?:cc|gcc|clang|c99|c89|c11)(?:-\d+(?:\.\d+)*)?$")
_SEPARATORS = {"&&", "||", ";", "|", "&", "(", ")", ";;", "\n"}


def compile_commands(dry_run_output: str) -> list[list[str]]:
    """Compiler invocations that compile C sources, from ``make -n`` output."""
    found: list[list[str]] = []
    for line in dry_run_output.splitlines():
        try:
            lex = shlex.shlex(line, posix=True, punctuation_chars=True)
            lex.whitespace_split = True
            tokens = list(lex)
        except ValueError:
            tokens = line.split()
        segment: list[str] = []
        for tok in [*tokens, ";"]:
            if tok in _SEPARATORS:
                _maybe_compile(segment, found)
                segment = []
            else:
                segment.append(tok)
    return found


def _maybe_compile(segment: list[str], found: list[list[str]]) -> None:
    i = 0
    while i < len(segment) and (re.match(r"^[A-Za-z_][A-Za-z0-9_]*=", segment[i])
                                or segment[i] in ("exec", "time", "ccache", "env", "@", "-", "+")):
        i += 1
    if i >= len(segment):
        return
    head = os.path.basename(segment[i].lstrip("@-+"))
    if not _COMPILER_NAME.match(head):
        return
    args = segment[i + 1:]
    if "-c" in args or any(a.endswith(".c") for a in args):
        found.append(segment[i:])


def check_flags(build: BuildResult, timeout_s: float) -> ProjectCheck:
    name = "flags"
    layout = _Layout.of(build)
    if not (layout.repo / "Makefile").exists() and not (layout.repo / "makefile").exists():
        return _fail(name, "no Makefile")
    # -B: every target out of date, so every compile command is printed; -n: print,
    # do not run (recursive $(MAKE) lines still run, as the unprivileged user).
    res = _run_make(layout, build.lenient, [], timeout_s, "flags", extra=["-n", "-B"])
    if res.timed_out:
        return _fail(name, f"`make -n -B` timed out after {timeout_s:g} s")
    commands = compile_commands(res.output)
    if not commands:
        if not res.ok:
            return _fail(name, f"`make -n -B` failed: {failure_line(res.output, res)}")
        return _fail(name, "no compiler command compiling .c files in `make -n -B` output")
    missing_any: list[str] = []
    offenders = 0
    example = ""
    for cmd in commands:
        missing = [f for f in REQUIRED_FLAGS if f not in cmd[1:]]
        if missing:
            offenders += 1
            example = example or " ".join(cmd)
            for f in missing:
                if f not in missing_any:
                    missing_any.append(f)
    if missing_any:
        if len(example) > 160:
            example = example[:157] + "..."
        return _fail(name, f"missing {' '.join(missing_any)} in {offenders} of {len(commands)} "
                           f"compile command(s), e.g. `{example}`")
    return _pass(name, f"{' '.join(REQUIRED_FLAGS)} in all {len(commands)} compile command(s)")


def check_author(build: BuildResult) -> ProjectCheck:
    name = "author"
    path = build.workdir / "author"
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        hint = " (found 'auteur'; the subject asks for 'author')" if (build.workdir / "auteur").exists() else ""
        return _fail(name, f"no author file at the repository root{hint}")
    if stat.S_ISLNK(st.st_mode):
        return _fail(name, "author is a symbolic link, not a file")
    if not stat.S_ISREG(st.st_mode):
        return _fail(name, "author is not a regular file")
    data = _read_nofollow(path, 4097)
    if not data:
        return _fail(name, "author is empty")
    if len(data) > 4096:
        return _fail(name, "author is larger than 4 KiB: it should hold logins only")
    if not data.endswith(b"\n"):
        return _fail(name, "author does not end with a newline")
    lines = data[:-1].split(b"\n")
    for k, raw in enumerate(lines, 1):
        try:
            text = raw.decode("ascii")
        except UnicodeDecodeError:
            return _fail(name, f"author line {k} is not plain ASCII")
        if not text:
            return _fail(name, f"author line {k} is empty")
        if "\r" in text:
            return _fail(name, f"author line {k} ends with a carriage return (\\r): use Unix newlines")
        if any(c.isspace() for c in text):
            return _fail(name, f"author line {k} contains a space or tab: {text!r} (one login per line)")
        if not text.isprintable():
            return _fail(name, f"author line {k} contains a control character")
    logins = [ln.decode() for ln in lines]
    return _pass(name, f"author lists {len(logins)} login(s): {', '.join(logins[:5])}")


def _symbol_name(raw: str) -> str:
    return raw.split("@", 1)[0]


def _nm(layout: _Layout, binary: Path, args: Sequence[str], timeout_s: float) -> ExecResult:
    nm = shutil.which("nm") or "nm"
    return run_untrusted([nm, *args, str(binary)], cwd=layout.repo, env=base_env(layout.home),
                         timeout_s=timeout_s, log_path=_log_file(layout, "nm"),
                         owned=(layout.repo, layout.home))


def _nm_symbols(output: str, kinds: str) -> list[str]:
    names = []
    for line in output.splitlines():
        parts = line.split()
        if len(parts) >= 2 and parts[-2] in kinds:
            names.append(_symbol_name(parts[-1]))
    return names


def check_forbidden_functions(build: BuildResult, timeout_s: float) -> ProjectCheck:
    name = "forbidden_functions"
    if not build.ok or build.binary is None:
        return _skip(name, "not checked: no binary was built")
    if shutil.which("nm") is None:
        return _skip(name, "nm not installed (binutils)")
    layout = _Layout.of(build)
    deadline = _Deadline(timeout_s)
    res = _nm(layout, build.binary, ["-D", "--undefined-only"], deadline.left())
    if res.timed_out:
        return _fail(name, "nm timed out")
    imported = _nm_symbols(res.output, "Uw") if res.ok else []
    how = "nm -D --undefined-only"
    if not imported:
        full = _nm(layout, build.binary, [], deadline.left())
        if not full.ok:
            first = next((ln for ln in full.output.splitlines() if ln.strip()), "nm failed")
            return _fail(name, f"./{BINARY_NAME} is not an executable nm can read: {first.strip()}")
        defined = set(_nm_symbols(full.output, "TtWi"))
        if "__libc_start_main" in defined:
            return _skip(name, f"./{BINARY_NAME} is statically linked: the functions it uses "
                               "cannot be told from libc's own; link it dynamically")
        imported = _nm_symbols(full.output, "Uw")
        how = "nm -u"
    forbidden: list[str] = []
    for sym in imported:
        if sym in ALLOWED_FUNCTIONS or sym in RUNTIME_SYMBOLS or sym in ALLOWED_ALIASES:
            continue
        shown = sym
        m = re.fullmatch(r"__(\w+?)_chk", sym)
        if m:
            shown = f"{m.group(1)} (as {sym})"
        if shown not in forbidden:
            forbidden.append(shown)
    if forbidden:
        return _fail(name, f"forbidden function(s): {', '.join(sorted(forbidden))}")
    used = sorted({ALLOWED_ALIASES.get(s, s) for s in imported} & ALLOWED_FUNCTIONS)
    return _pass(name, f"only allowed functions imported ({how}): {', '.join(used) or 'none'}")


def _sources(repo: Path) -> list[str]:
    out = []
    for root, dirs, files in os.walk(repo, followlinks=False):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for f in sorted(files):
            if f.endswith((".c", ".h")) and not os.path.islink(os.path.join(root, f)):
                out.append(os.path.relpath(os.path.join(root, f), repo))
    return out


def check_norm(build: BuildResult, timeout_s: float) -> ProjectCheck:
    name = "norm"
    norminette = shutil.which("norminette")
    if norminette is None:
        return _skip(name, "norminette not installed (pip install norminette)")
    layout = _Layout.of(build)
    sources = _sources(layout.repo)
    if not sources:
        return _fail(name, "no .c or .h file in the repository")
    res = run_untrusted([norminette, *sources], cwd=layout.repo, env=base_env(layout.home),
                        timeout_s=timeout_s, log_path=_log_file(layout, "norminette"),
                        owned=(layout.repo, layout.home))
    if res.timed_out:
        return _skip(name, f"norminette timed out after {timeout_s:g} s")
    if res.returncode in (126, 127):
        return _skip(name, f"norminette could not run as the unprivileged user: "
                           f"{failure_line(res.output, res)}")
    lines = res.output.splitlines()
    bad_files = [ln.rsplit(":", 1)[0].strip() for ln in lines if ln.rstrip().endswith("Error!")]
    first_error = next((ln.strip() for ln in lines if ln.strip().startswith("Error")
                        and not ln.rstrip().endswith("Error!")), "")
    if bad_files or res.returncode != 0:
        first_error = re.sub(r"\s+", " ", first_error)
        where = f"{len(bad_files)} of {len(sources)} file(s) fail the Norm" if bad_files else \
            f"norminette exited with status {res.returncode}"
        detail = f" (first: {bad_files[0]}: {first_error})" if bad_files and first_error else ""
        return _fail(name, where + detail)
    return _pass(name, f"norminette: {len(sources)} file(s) OK")


_DEFINITELY = re.compile(r"definitely lost: ([\d,]+) bytes in ([\d,]+) blocks")
_ERRORS = re.compile(r"ERROR SUMMARY: ([\d,]+) errors")


def check_leaks(build: BuildResult, sample_inputs: Sequence[bytes], timeout_s: float) -> ProjectCheck:
    name = "leaks"
    valgrind = shutil.which("valgrind")
    if valgrind is None:
        return _skip(name, "valgrind not installed")
    if not build.ok or build.binary is None:
        return _skip(name, "not checked: no binary was built")
    inputs = list(sample_inputs)[:MAX_LEAK_INPUTS]
    if not inputs:
        return _skip(name, "no sample input to run the binary on")
    layout = _Layout.of(build)
    if layout.leaks.exists():
        shutil.rmtree(layout.leaks)
    layout.leaks.mkdir(parents=True)
    deadline = _Deadline(timeout_s)
    leaks: list[str] = []
    notes: list[str] = []
    ran = 0
    for k, data in enumerate(inputs, 1):
        if deadline.expired():
            notes.append(f"input #{k} not run (time limit)")
            continue
        inp = layout.leaks / f"input{k}.fillit"
        inp.write_bytes(data)
        os.chmod(inp, 0o644)
        vglog = layout.leaks / f"valgrind{k}.log"
        res = run_untrusted(
            [valgrind, "--leak-check=full", "--errors-for-leak-kinds=definite",
             "--error-exitcode=42", f"--log-file={vglog}", str(build.binary), str(inp)],
            cwd=layout.leaks, env=base_env(layout.home), timeout_s=deadline.left(),
            log_path=_log_file(layout, f"leaks{k}"), stdout_path=Path(os.devnull),
            owned=(layout.repo, layout.home, layout.leaks),
            memory_bytes=HUGE_ADDRESS_SPACE, file_size_bytes=64 * 1024 * 1024)
        if res.timed_out:
            notes.append(f"input #{k} timed out under valgrind")
            continue
        try:
            report = _read_nofollow(vglog, 1024 * 1024).decode("utf-8", errors="replace")
        except OSError:
            report = ""
        if "LEAK SUMMARY" not in report and "no leaks are possible" not in report:
            notes.append(f"valgrind gave no leak summary on input #{k} "
                         f"({failure_line(report or res.output, res)})")
            continue
        ran += 1
        m = _DEFINITELY.search(report)
        lost = int(m.group(1).replace(",", "")) if m else 0
        if lost:
            leaks.append(f"definitely lost {lost} bytes in {m.group(2)} block(s) on input #{k}")
        e = _ERRORS.search(report)
        errors = int(e.group(1).replace(",", "")) if e else 0
        if errors and not lost:
            notes.append(f"valgrind also reported {errors} memory error(s) on input #{k}")
    if leaks:
        return _fail(name, "; ".join(leaks + notes))
    if ran == 0:
        return _skip(name, "; ".join(notes) or "valgrind could not run")
    msg = f"no definite leak on {ran} input(s)"
    return _pass(name, msg + (f" ({'; '.join(notes)})" if notes else ""))


def _read_nofollow(path: Path, cap: int | None = None) -> bytes:
    """Read a file of the untrusted tree as root without following a symbolic link
    planted in its place."""
    fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    with os.fdopen(fd, "rb") as fh:
        if not stat.S_ISREG(os.fstat(fh.fileno()).st_mode):
            raise OSError(f"{path.name} is not a regular file")
        return fh.read() if cap is None else fh.read(cap)


def _digest(path: Path) -> str | None:
    try:
        return hashlib.sha256(_read_nofollow(path)).hexdigest()
    except OSError:
        return None


def _snapshot_path(layout: _Layout) -> Path:
    return layout.logs / "graded-fillit"


def _snapshot(binary: Path, layout: _Layout) -> None:
    """Keep the graded binary (root-only) so that later checks cannot change it."""
    layout.logs.mkdir(parents=True, exist_ok=True)
    os.chmod(layout.logs, 0o700)
    data = _read_nofollow(binary)
    snap = _snapshot_path(layout)
    snap.write_bytes(data)
    os.chmod(snap, 0o755)


def restore_graded_binary(build: BuildResult) -> None:
    """Put the binary built by ``build_repository`` back at ``build.binary`` if a later
    make (no_relink, makefile_rules) removed or changed it."""
    if build.ok and build.binary is not None:
        snap = _snapshot_path(_Layout.of(build))
        if snap.is_file():
            _restore(snap, build.binary)


def check_makefile_rules(build: BuildResult, timeout_s: float) -> ProjectCheck:
    """Run clean, fclean, all, re in that order and check what each leaves behind.
    The graded binary is restored afterwards, whatever the Makefile did."""
    name = "makefile_rules"
    layout = _Layout.of(build)
    repo = layout.repo
    if not (repo / "Makefile").is_file():
        other = next((n for n in ("makefile", "GNUmakefile") if (repo / n).is_file()), None)
        if other:
            return _fail(name, f"no Makefile (found '{other}'; the subject asks for 'Makefile')")
        return _fail(name, "no Makefile at the repository root")
    if not build.ok or build.binary is None:
        return _skip(name, "not checked: the build failed")
    deadline = _Deadline(timeout_s)
    binary = repo / BINARY_NAME
    problems: list[str] = []
    try:
        def step(target: str) -> ExecResult | None:
            if deadline.expired():
                problems.append(f"`make {target}` not run (time limit)")
                return None
            res = _run_make(layout, build.lenient, [target], deadline.left(), target)
            if _no_rule(res.output, target):
                problems.append(f"no rule `{target}`")
                return None
            if res.timed_out:
                problems.append(f"`make {target}` timed out")
                return None
            if res.returncode != 0:
                problems.append(f"`make {target}` failed: {failure_line(res.output, res)}")
                return None
            return res

        if step("clean") is not None:
            left = _objects(repo)
            if left:
                shown = ", ".join(left[:3]) + (" ..." if len(left) > 3 else "")
                problems.append(f"`make clean` left {len(left)} object file(s): {shown}")
            if not binary.exists():
                problems.append(f"`make clean` removed ./{BINARY_NAME} (only fclean should)")
        if step("fclean") is not None:
            if binary.exists() or binary.is_symlink():
                problems.append(f"`make fclean` left ./{BINARY_NAME}")
            left = _objects(repo)
            if left:
                problems.append(f"`make fclean` left {len(left)} object file(s): {', '.join(left[:3])}")
        # `all` must build from a clean tree, whatever fclean did.
        for p in (binary, *(repo / o for o in _objects(repo))):
            try:
                p.unlink()
            except OSError:
                pass
        if step("all") is not None and not binary.is_file():
            problems.append(f"`make all` did not build ./{BINARY_NAME}")
        before = _stamp(binary)
        time.sleep(0.05)
        if step("re") is not None:
            after = _stamp(binary)
            if after is None:
                problems.append(f"`make re` did not build ./{BINARY_NAME}")
            elif before is not None and after == before:
                problems.append(f"`make re` did not rebuild ./{BINARY_NAME}")
    finally:
        restore_graded_binary(build)
    if problems:
        return _fail(name, "; ".join(problems))
    return _pass(name, "all, clean, fclean and re exist and work "
                       "(clean keeps fillit, fclean removes it, all and re build it)")


def _restore(snapshot: Path, binary: Path) -> None:
    """Put the graded binary back where the build left it."""
    if not binary.is_symlink() and _digest(binary) == _digest(snapshot):
        return
    if binary.is_dir() and not binary.is_symlink():
        shutil.rmtree(binary)
    elif binary.exists() or binary.is_symlink():
        binary.unlink()
    tmp = binary.with_name(f".{BINARY_NAME}.restore")
    if tmp.is_dir() and not tmp.is_symlink():
        shutil.rmtree(tmp)
    elif tmp.exists() or tmp.is_symlink():
        tmp.unlink()
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o755)
    with os.fdopen(fd, "wb") as fh:
        fh.write(snapshot.read_bytes())
    os.chmod(tmp, 0o755)
    os.replace(tmp, binary)


CHECK_ORDER = ("makefile_rules", "no_relink", "flags", "binary_at_root", "author",
               "forbidden_functions", "norm", "leaks")


def project_checks(build: BuildResult, *, sample_inputs: Sequence[bytes] = (),
                   timeout_s: float = 120.0) -> list[ProjectCheck]:
    """Every project check, in ``CHECK_ORDER``. Never raises: a check that cannot run
    comes back as "skip" with the reason. ``no_relink`` runs first (it needs the tree
    exactly as the build left it) and ``makefile_rules`` last (it cleans and rebuilds;
    the graded binary is put back afterwards)."""
    plan: list[tuple[str, Callable[[], ProjectCheck]]] = [
        ("binary_at_root", lambda: check_binary_at_root(build)),
        ("no_relink", lambda: check_no_relink(build, timeout_s)),
        ("author", lambda: check_author(build)),
        ("forbidden_functions", lambda: check_forbidden_functions(build, timeout_s)),
        ("leaks", lambda: check_leaks(build, sample_inputs, timeout_s)),
        ("norm", lambda: check_norm(build, timeout_s)),
        ("flags", lambda: check_flags(build, timeout_s)),
        ("makefile_rules", lambda: check_makefile_rules(build, timeout_s)),
    ]
    results: dict[str, ProjectCheck] = {}
    try:
        for name, fn in plan:
            try:
                results[name] = fn()
            except Exception as exc:  # never let one check break the grading
                results[name] = _skip(name, f"could not check: {type(exc).__name__}: {exc}")
    finally:
        try:
            restore_graded_binary(build)
        except Exception:  # pragma: no cover - reported by the cases that run it
            pass
    return [results[n] for n in CHECK_ORDER]
