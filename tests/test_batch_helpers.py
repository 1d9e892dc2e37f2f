"""Helpers shared by the batch tests (no tests here): cohorts of C submissions.

A cohort is a folder whose entries are fillit executables (and, where a test asks,
repository folders).  The mutant zoo (tests/zoo/build.py) supplies them when it is
there; otherwise a handful of programs are compiled here: the zoo's correct base
solver, a few text mutants of it, and crashing programs from tests/hostile.
"""
from __future__ import annotations

import importlib.util
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TESTS = ROOT / "tests"
BASE_C = TESTS / "zoo" / "base.c"
HOSTILE = TESTS / "hostile"
GRADE = [sys.executable, "-c", "import sys; from harness.cli import main; sys.exit(main())"]

# (name, exact text in base.c, replacement): small wrong solvers.
MUTANTS: tuple[tuple[str, str, str], ...] = (
    ("underscore_dots", "memset(out, '.', sizeof(out));", "memset(out, '_', sizeof(out));"),
    ("no_newlines", "putchar('\\n');", ";"),
)
HOSTILE_PROGRAMS = ("segv", "abort")


def _gcc() -> str:
    gcc = shutil.which("gcc")
    if gcc is None:
        pytest.skip("gcc is not installed")
    return gcc


def compile_c(source: Path, binary: Path) -> Path:
    binary.parent.mkdir(parents=True, exist_ok=True)
    proc = subprocess.run([_gcc(), "-O2", "-o", str(binary), str(source)], capture_output=True, text=True)
    if proc.returncode != 0:
        pytest.fail(f"gcc failed on {source}:\n{proc.stderr}")
    return binary


def compile_mutant(name: str, old: str, new: str, binary: Path, scratch: Path) -> Path:
    text = BASE_C.read_text()
    assert text.count(old) == 1, f"mutant {name}: {old!r} must occur once in base.c"
    source = scratch / f"{name}.c"
    source.parent.mkdir(parents=True, exist_ok=True)
    source.write_text(text.replace(old, new))
    return compile_c(source, binary)


def _zoo_module():
    path = TESTS / "zoo" / "build.py"
    if not path.is_file():
        return None
    spec = importlib.util.spec_from_file_location("zoo_build_for_batch", path)
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
    except Exception:  # the zoo is being written: fall back to the programs below
        return None
    if not hasattr(module, "load_manifest") or not hasattr(module, "build"):
        return None
    return module


def _entry_name(entry) -> str:
    name = getattr(entry, "name", None)
    if name is None and isinstance(entry, dict):
        name = entry.get("name")
    return str(name)


def zoo_cohort(folder: Path, scratch: Path, limit: int | None = None) -> list[str] | None:
    """Executables of the mutant zoo copied into `folder` (None when the zoo is not usable)."""
    zoo = _zoo_module()
    if zoo is None:
        return None
    try:
        entries = list(zoo.load_manifest())
    except Exception:
        return None
    if limit is not None:
        # Spread the subset over the manifest (correct solvers and mutants alike).
        step = max(1, len(entries) // limit)
        entries = entries[::step][:limit]
    names = []
    folder.mkdir(parents=True, exist_ok=True)
    for entry in entries:
        name = _entry_name(entry)
        try:
            binary = Path(zoo.build(entry, scratch / "zoo" / name))
        except Exception:  # the zoo's own tests report a broken entry; these tests are about batch
            continue
        shutil.copy2(binary, folder / name)
        os.chmod(folder / name, 0o755)
        names.append(name)
    return names


def small_cohort(folder: Path, scratch: Path) -> list[str]:
    """Six executables: the correct base solver, two text mutants, two crashers, a cat-like program."""
    folder.mkdir(parents=True, exist_ok=True)
    compile_c(BASE_C, folder / "correct")
    for name, old, new in MUTANTS:
        compile_mutant(name, old, new, folder / name, scratch)
    for name in HOSTILE_PROGRAMS:
        compile_c(HOSTILE / f"{name}.c", folder / name)
    compile_c(HOSTILE / "well_behaved.c", folder / "cat_input")
    return sorted(p.name for p in folder.iterdir())


def cohort(folder: Path, scratch: Path, limit: int = 6) -> list[str]:
    """The zoo (a spread subset of `limit`) when available, else `small_cohort`."""
    names = zoo_cohort(folder, scratch, limit)
    return names if names else small_cohort(folder, scratch)


def repository(folder: Path, source: Path, *, broken: bool = False) -> Path:
    """A fillit repository: `source` as main.c, a 42-style Makefile, an author file."""
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copy2(source, folder / "main.c")
    (folder / "author").write_text("student\n")
    recipe = "\tfalse\n" if broken else "\tgcc -Wall -Wextra -Werror -o $(NAME) main.c\n"
    (folder / "Makefile").write_text(
        "NAME = fillit\nall: $(NAME)\n$(NAME): main.c\n" + recipe
        + "clean:\n\trm -f *.o\nfclean: clean\n\trm -f $(NAME)\nre: fclean all\n.PHONY: all clean fclean re\n")
    return folder


def run_grade(*args: str, timeout: float = 600, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run([*GRADE, *args], capture_output=True, text=True, timeout=timeout, cwd=ROOT, **kwargs)


def db_rows(db: Path, sql: str, params: tuple = ()) -> list[tuple]:
    connection = sqlite3.connect(str(db), timeout=30)
    try:
        return connection.execute(sql, params).fetchall()
    finally:
        connection.close()


def verdicts(db: Path) -> dict[tuple[str, str], tuple[str, str | None]]:
    return {(s, c): (v, d) for s, c, v, d in
            db_rows(db, "SELECT submission, case_id, verdict, diagnosis FROM results")}
