"""`grade TARGET --cases DIR`: the student's own input files, graded like suite cases.

Every file of DIR (subfolders included) named with the exercise's input suffix
(`*.fillit`, `*.txt`) is one case, `own/<path without the suffix>`, category `own`, run as
a suite case is.  Its expected output is `NAME.expected` beside it when there is one
(compared exactly), else the reference's answer (the exercise says how:
`Exercise.case_of_own_file`).
"""
from __future__ import annotations

import dataclasses
from pathlib import Path

from generators.cases import Case
from harness.grading.exercise import OWN_CATEGORY, Exercise

OWN_PREFIX = f"{OWN_CATEGORY}/"
EXPECTED_SUFFIX = ".expected"
# A case's bytes live in memory and in every report; a bigger file is not an input test.
MAX_FILE_BYTES = 16 * 1024 * 1024


class OwnCasesError(ValueError):
    """The folder cannot be used: the message is the one line the user sees."""


def own_case_id(relative: Path) -> str:
    """`own/<relative path without its suffix>` (posix separators)."""
    return OWN_PREFIX + relative.with_suffix("").as_posix()


def own_input_path(folder: Path, case_id: str, suffix: str) -> Path:
    """The file behind an own case id (the inverse of `own_case_id`)."""
    return folder / (case_id.removeprefix(OWN_PREFIX) + suffix)


def _read(path: Path) -> bytes:
    try:
        if path.stat().st_size > MAX_FILE_BYTES:
            raise OwnCasesError(f"{path} is larger than {MAX_FILE_BYTES >> 20} MiB")
        return path.read_bytes()
    except OSError as error:
        raise OwnCasesError(f"cannot read {path}: {error.strerror or error}") from None


def own_case(folder: Path, path: Path, exercise: Exercise) -> Case:
    """The case of one input file of `folder`."""
    data = _read(path)
    case_id = own_case_id(path.relative_to(folder))
    expected_path = path.with_suffix(EXPECTED_SUFFIX)
    if not expected_path.is_file():
        return exercise.case_of_own_file(
            case_id, data, f"your file {path}; expected: the reference's answer (no {expected_path.name})")
    case = exercise.case_of_own_file(case_id, data, "")
    expected = _read(expected_path).decode("utf-8", errors="replace")
    agreement = "the reference agrees" if expected == case.expected else "the reference's answer differs"
    return dataclasses.replace(case, expected=expected, disputed=None, accepted=(),
                               description=f"your file {path}; expected: {expected_path} ({agreement})")


def load_own_cases(folder: Path, exercise: Exercise) -> list[Case]:
    """One case per input file under `folder`, sorted by path."""
    if not folder.is_dir():
        raise OwnCasesError(f"--cases {folder}: not a folder")
    suffix = exercise.input_suffix
    paths = sorted(p for p in folder.rglob(f"*{suffix}") if p.is_file())
    if not paths:
        raise OwnCasesError(f"--cases {folder}: no *{suffix} file in it")
    return [own_case(folder, path, exercise) for path in paths]
