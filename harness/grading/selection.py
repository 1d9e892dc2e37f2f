"""Which cases a `grade` run grades: a suite, the student's own files, or both, then -k and --lf."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from generators.cases import Case
from generators.corpus import case_filename
from harness.grading.exercise import Exercise
from harness.grading.last_failed import CACHE_DIR, choose_last_failed
from harness.grading.own_cases import load_own_cases
from harness.grading.suites import filter_cases, load_suite

# `--suite none`: no suite case, only the files of --cases DIR.
NO_SUITE = "none"


def suite_choices(exercise: Exercise) -> tuple[str, ...]:
    """The names --suite takes for this exercise."""
    return (*sorted(exercise.suites), NO_SUITE)


def check_suite_name(exercise: Exercise, suite: str) -> None:
    """SelectionError unless `suite` is one of the exercise's suites (or `none`)."""
    if suite not in suite_choices(exercise):
        raise SelectionError(f"--suite {suite!r}: {exercise.name} has the suites {', '.join(suite_choices(exercise))}")


class SelectionError(ValueError):
    """Nothing sensible to grade: the message is the one line the user sees."""


@dataclass(frozen=True)
class Selected:
    cases: list[Case]
    notes: list[str] = field(default_factory=list)  # what --lf did, said on stderr


def select_cases(exercise: Exercise, suite: str, seed: int | None, pattern: str | None, cases_dir: Path | None,
                 rerun_failed_of: Path | None = None, cache_dir: Path = CACHE_DIR) -> Selected:
    """The exercise's suite's cases (none for `--suite none`), then one per file of
    `cases_dir`, kept when they match `pattern`, then (--lf) only those that failed last
    time for the target `rerun_failed_of`."""
    check_suite_name(exercise, suite)
    if suite == NO_SUITE and cases_dir is None:
        raise SelectionError("--suite none grades only your own files: add --cases DIR")
    own = [] if cases_dir is None else load_own_cases(cases_dir, exercise)  # first: a bad folder fails at once
    cases = ([] if suite == NO_SUITE else load_suite(suite, seed, exercise=exercise)) + own
    if pattern:
        cases = filter_cases(cases, pattern)
        if not cases:
            what = f"suite {suite!r}" if cases_dir is None else f"suite {suite!r} or --cases {cases_dir}"
            raise SelectionError(f"no case of {what} matches -k {pattern!r}")
    if rerun_failed_of is None:
        return Selected(cases)
    choice = choose_last_failed(cases, rerun_failed_of, cache_dir)
    return Selected(choice.cases, [choice.note])


def save_case_inputs(cases: list[Case], folder: Path, suffix: str) -> int:
    """Write each case's input as `<folder>/<id with '/' as '__'><suffix>` (`.fillit`); how
    many were written (a case run without an input file has none)."""
    folder.mkdir(parents=True, exist_ok=True)
    written = 0
    for case in cases:
        if case.input is not None:
            (folder / f"{case_filename(case.id)}{suffix}").write_bytes(case.input)
            written += 1
    return written
