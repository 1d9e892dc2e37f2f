"""Shared fixtures (keep them generic: several test modules use them)."""
from __future__ import annotations

import hashlib
import shutil
import subprocess
import threading
from collections.abc import Callable, Sequence
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
def s_piece_solver(build_c: BuildC) -> Path:
    """A small correct fillit (tests/fuzz_targets/solver.c)."""
    return build_c(S_PIECE_SOLVER, flags=STRICT_FLAGS, name="s_piece_solver")


@pytest.fixture(scope="session")
def s_piece_mutant(build_c: BuildC) -> Path:
    """The same, wrong only when a valid file has >= 3 pieces, one of them an S (lowercase letter)."""
    return build_c(S_PIECE_SOLVER, flags=(*STRICT_FLAGS, "-DBUG_S_PIECE"), name="s_piece_mutant")
