"""`grade TARGET --cases DIR`: the student's own input files, graded like suite cases.

Every `*.fillit` file of DIR (subfolders included) is one case, `own/<path without .fillit>`,
category `own`, run as `./fillit FILE`.  Its expected output is `NAME.expected` beside it
when there is one (compared exactly), else the reference's answer (`solve_text`): the
square, or `error\\n` for an invalid file.  Without an `.expected`, a file that breaks only
a disputed rule accepts both answers, as the suites' disputed cases do.
"""
from __future__ import annotations

from pathlib import Path

from generators.cases import Case, Category
from generators.valid import plain_tries
from reference.parser import parse
from reference.solver import solve_text

OWN_CATEGORY: Category = "own"
OWN_PREFIX = f"{OWN_CATEGORY}/"
INPUT_SUFFIX = ".fillit"
EXPECTED_SUFFIX = ".expected"
# A case's bytes live in memory and in every report; a bigger file is not an input test.
MAX_FILE_BYTES = 16 * 1024 * 1024
# Tries counted at most (12M: a few seconds of counting in Python; beyond, the limit is
# the longest anyway: 12M x 10 us = 120 s, harness.suites.MAX_CPU_S).
PLAIN_COUNT_BUDGET = 12_000_000


class OwnCasesError(ValueError):
    """The folder cannot be used: the message is the one line the user sees."""


def own_case_id(relative: Path) -> str:
    """`own/<relative path without .fillit>` (posix separators)."""
    return OWN_PREFIX + relative.with_suffix("").as_posix()


def own_input_path(folder: Path, case_id: str) -> Path:
    """The file behind an own case id (the inverse of `own_case_id`)."""
    return folder / (case_id.removeprefix(OWN_PREFIX) + INPUT_SUFFIX)


def _read(path: Path) -> bytes:
    try:
        if path.stat().st_size > MAX_FILE_BYTES:
            raise OwnCasesError(f"{path} is larger than {MAX_FILE_BYTES >> 20} MiB")
        return path.read_bytes()
    except OSError as error:
        raise OwnCasesError(f"cannot read {path}: {error.strerror or error}") from None


def own_case(folder: Path, path: Path) -> Case:
    """The case of one input file of `folder`."""
    data = _read(path)
    case_id = own_case_id(path.relative_to(folder))
    reference = solve_text(data)
    parsed = parse(data)
    rule = parsed.rejection.rule if parsed.rejection is not None else None
    # The plain search's cost sets the CPU limit (harness.suites.cpu_limit); past the
    # budget the file counts as hard for plain search: the longest limit.
    tries = plain_tries(parsed.pieces, PLAIN_COUNT_BUDGET) if parsed.valid else None
    if parsed.valid and tries is None:
        tries = PLAIN_COUNT_BUDGET
    expected_path = path.with_suffix(EXPECTED_SUFFIX)
    if expected_path.is_file():
        expected = _read(expected_path).decode("utf-8", errors="replace")
        agreement = "the reference agrees" if expected == reference else "the reference's answer differs"
        return Case(case_id, OWN_CATEGORY, data, expected, rule=rule, plain_tries=tries,
                    description=f"your file {path}; expected: {expected_path} ({agreement})")
    disputed = parsed.disputed[0] if parsed.disputed and not parsed.valid else None
    return Case(case_id, OWN_CATEGORY, data, reference, rule=rule, disputed=disputed, plain_tries=tries,
                accepted=(solve_text(data, accept_disputed=True),) if disputed else (),
                description=f"your file {path}; expected: the reference's answer (no {expected_path.name})")


def load_own_cases(folder: Path) -> list[Case]:
    """One case per `*.fillit` file under `folder`, sorted by path."""
    if not folder.is_dir():
        raise OwnCasesError(f"--cases {folder}: not a folder")
    paths = sorted(p for p in folder.rglob(f"*{INPUT_SUFFIX}") if p.is_file())
    if not paths:
        raise OwnCasesError(f"--cases {folder}: no *{INPUT_SUFFIX} file in it")
    return [own_case(folder, path) for path in paths]
