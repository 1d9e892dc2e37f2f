"""Shared fixtures (keep them generic: several test modules use them)."""
from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
import sys
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import pytest

BuildC = Callable[..., Path]


@pytest.fixture(scope="session")
def build_c(tmp_path_factory: pytest.TempPathFactory) -> BuildC:
    """Compile a C file with gcc; returns the binary's Path (cached for the session).

        binary = build_c(Path("tests/hostile/segv.c"))
        binary = build_c(source, flags=("-O0", "-g"), name="other")

    Skips the test when gcc is not installed; a compile error fails it with gcc's message.
    """
    gcc = shutil.which("gcc")
    out_dir = tmp_path_factory.mktemp("c-build")
    cache: dict[tuple, Path] = {}
    lock = threading.Lock()

    def build(source: Path | str, *, flags: Sequence[str] = ("-O2", "-Wall"), name: str | None = None) -> Path:
        if gcc is None:
            pytest.skip("gcc is not installed")
        source = Path(source).resolve()
        key = (str(source), source.stat().st_mtime_ns, tuple(flags), name)
        with lock:
            if key in cache:
                return cache[key]
            digest = hashlib.sha1(repr(key).encode()).hexdigest()[:8]
            binary = out_dir / f"{name or source.stem}-{digest}" / (name or source.stem)
            binary.parent.mkdir(parents=True, exist_ok=True)
            proc = subprocess.run([gcc, *flags, "-o", str(binary), str(source)],
                                  capture_output=True, text=True)
            if proc.returncode != 0:
                pytest.fail(f"gcc failed on {source}:\n{proc.stderr}")
            cache[key] = binary
            return binary

    return build


S_PIECE_SOLVER = Path(__file__).resolve().parent / "fuzz_targets" / "solver.c"
STRICT_FLAGS = ("-O2", "-Wall", "-Wextra", "-Werror")


@pytest.fixture(scope="session")
def plain_c(build_c: BuildC) -> Path:
    """The seed's plain backtracking in C (reference/plain_fillit.c), as the harness builds it."""
    from reference.plain import PLAIN_C_SOURCE

    return build_c(PLAIN_C_SOURCE, flags=("-O2",), name="plain_fillit")


@pytest.fixture(scope="session")
def s_piece_solver(build_c: BuildC) -> Path:
    """A small correct fillit (tests/fuzz_targets/solver.c)."""
    return build_c(S_PIECE_SOLVER, flags=STRICT_FLAGS, name="s_piece_solver")


@pytest.fixture(scope="session")
def s_piece_mutant(build_c: BuildC) -> Path:
    """The same, wrong only when a valid file has >= 3 pieces, one of them an S (lowercase letter)."""
    return build_c(S_PIECE_SOLVER, flags=(*STRICT_FLAGS, "-DBUG_S_PIECE"), name="s_piece_mutant")


SHIKAKU_SOLVER = Path(__file__).resolve().parent / "shikaku_targets" / "solver.c"


@pytest.fixture(scope="session")
def shikaku_solver(build_c: BuildC) -> Callable[[str | None], Path]:
    """Build tests/shikaku_targets/solver.c with one -D flag (None: the correct solver)."""
    def build(define: str | None = None) -> Path:
        flags = (*STRICT_FLAGS, f"-D{define}") if define else STRICT_FLAGS
        return build_c(SHIKAKU_SOLVER, flags=flags, name=f"shikaku-{(define or 'correct').lower()}")
    return build


MIXED_BAG = Path(__file__).resolve().parent / "report_targets" / "mixed_bag.c"


@pytest.fixture(scope="session")
def mixed_bag(build_c: BuildC) -> Path:
    """A fillit failing four ways at once (tests/report_targets/mixed_bag.c): bad_usage,
    false_error, TIMEOUT on files over 500 bytes, CRASH on an empty file."""
    return build_c(MIXED_BAG, flags=STRICT_FLAGS, name="mixed_bag")


@dataclass(frozen=True)
class GradedRun:
    """`grade PROGRAM --suite quick --timeout 1 --json --html`, run once in `folder`."""

    folder: Path
    proc: subprocess.CompletedProcess
    report: dict
    html: str


def grade_in(cwd: Path, *args: str, timeout: float = 300) -> subprocess.CompletedProcess:
    """`grade ARGS...` as a user types it, in `cwd`."""
    return subprocess.run([sys.executable, "-m", "frontends.grade", *args], capture_output=True, text=True,
                          cwd=cwd, timeout=timeout)


@pytest.fixture(scope="session")
def mixed_bag_run(mixed_bag: Path, tmp_path_factory: pytest.TempPathFactory) -> GradedRun:
    """The mixed bag graded on the quick suite, plain text (a pipe), with both reports."""
    folder = tmp_path_factory.mktemp("mixed-bag-run")
    shutil.copy(mixed_bag, folder / "fillit")
    proc = grade_in(folder, "./fillit", "--suite", "quick", "--timeout", "1", "--json", "report.json",
                    "--html", "report.html")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    return GradedRun(folder, proc, json.loads((folder / "report.json").read_text()),
                     (folder / "report.html").read_text(encoding="utf-8"))


@pytest.fixture(scope="session")
def standard_suite() -> list:
    """fillit's standard suite (generators.corpus.standard_corpus(), what `load_suite("standard")`
    returns), built once per session: generation is deterministic (tests/test_generators.py
    proves it on an independent regeneration) and costs seconds. Shared: never mutate it."""
    from generators.corpus import standard_corpus

    return standard_corpus()
