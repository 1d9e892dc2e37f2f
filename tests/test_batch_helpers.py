"""Helpers shared by the batch tests (no tests here): cohorts of C submissions.

A cohort is a folder whose entries are fillit executables (and, where a test asks,
repository folders): the mutant zoo (tests/zoo/build.py), or a small fixed cohort
compiled here: the zoo's correct base solver, two text mutants of it, two that crash on
some cases, and a cat-like program.
"""
from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from zoo.build import base_entry, build, load_manifest

ROOT = Path(__file__).resolve().parent.parent
TESTS = ROOT / "tests"
BASE_C = TESTS / "zoo" / "base.c"
HOSTILE = TESTS / "hostile"
GRADE = [sys.executable, "-c", "import sys; from frontends.grade import main; sys.exit(main())"]

# (name, exact text in base.c, replacement): small wrong solvers.  The crashing ones crash
# on the largest valid files only: a crash costs a second run and a valgrind run, and the
# batch tests need crashes among right answers, not thirty of them per submission.
_SOLVE = "\tsolve(n);\n\treturn (0);"
# name: (the crash happens on valid files of more pieces than this, the crashing statement)
CRASHERS = {"segv": (15, "*(volatile int *)0 = 42;"), "abort": (20, "abort();")}
MUTANTS: tuple[tuple[str, str, str], ...] = (
    ("underscore_dots", "memset(out, '.', sizeof(out));", "memset(out, '_', sizeof(out));"),
    ("no_newlines", "putchar('\\n');", ";"),
    *((name, _SOLVE, f"\tif (n > {over})\n\t\t{crash}\n{_SOLVE}") for name, (over, crash) in CRASHERS.items()),
)


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


def zoo_cohort(folder: Path, scratch: Path, limit: int | None = None) -> list[str]:
    """Executables of the mutant zoo (base, correct variants, mutants) copied into `folder`.

    With `limit`, a subset spread over the whole zoo, so it mixes correct and wrong solvers.
    """
    mutants, corrects = load_manifest()
    entries = [base_entry(), *corrects, *mutants]
    if limit is not None:
        step = max(1, len(entries) // limit)
        entries = entries[::step][:limit]
    folder.mkdir(parents=True, exist_ok=True)
    for entry in entries:
        binary = build(entry, scratch / "zoo")
        shutil.copy2(binary, folder / entry.name)
        os.chmod(folder / entry.name, 0o755)
    return [entry.name for entry in entries]


def small_cohort(folder: Path, scratch: Path) -> list[str]:
    """Six executables: the correct base solver, two text mutants, two crashers, a cat-like program."""
    folder.mkdir(parents=True, exist_ok=True)
    compile_c(BASE_C, folder / "correct")
    for name, old, new in MUTANTS:
        compile_mutant(name, old, new, folder / name, scratch)
    compile_c(HOSTILE / "well_behaved.c", folder / "cat_input")
    return sorted(p.name for p in folder.iterdir())


def cohort(folder: Path, scratch: Path, limit: int = 6) -> list[str]:
    """A spread subset of `limit` entries of the zoo."""
    return zoo_cohort(folder, scratch, limit)


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
