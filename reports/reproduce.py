"""The commands a report gives for a case: rerun it alone, and get its input file.

Built from the report's `settings` (the options `grade` chose its cases with).  A report
made elsewhere has none: for a suite's run (`grade batch`) its suite, seed and profile stand
in; a fuzz report's case is not in any suite (its input is in the report, and the same
`grade --fuzz` command replays it), so it gets no command.
"""
from __future__ import annotations

import shlex
from dataclasses import dataclass
from pathlib import Path

from generators.cases import Case
from generators.corpus import case_filename
from harness.grading.model import GradeReport
from harness.grading.settings import GradeSettings
from harness.grading.exercise import DEFAULT_EXERCISE, OWN_CATEGORY, exercise_named
from harness.grading.own_cases import own_input_path


def _selection(report: GradeReport) -> GradeSettings | None:
    if report.settings is not None:
        return report.settings
    if report.suite not in exercise_named(report.exercise).suites:
        return None
    # Reports built without `grade` record seed 0 for the suite's fixed seed.
    return GradeSettings(exercise=report.exercise, suite=report.suite, seed=report.seed or None, cases_dir=None,
                         profile="strict" if report.profile == "strict" else "default", timeout=None)


def selection_argv(report: GradeReport) -> list[str] | None:
    """`grade TARGET` and the options that chose the run's cases; None when -k cannot reach them."""
    chosen = _selection(report)
    if chosen is None:
        return None
    argv = ["grade", report.target, *_exercise_option(chosen.exercise), "--suite", chosen.suite]
    if chosen.seed is not None:
        argv += ["--seed", str(chosen.seed)]
    if chosen.cases_dir is not None:
        argv += ["--cases", chosen.cases_dir]
    if chosen.profile != "default":
        argv += ["--profile", chosen.profile]
    if chosen.timeout is not None:
        argv += ["--timeout", f"{chosen.timeout:g}"]
    return argv


def _exercise_option(exercise: str) -> list[str]:
    return [] if exercise == DEFAULT_EXERCISE else ["--exercise", exercise]


def rerun_command(report: GradeReport, case: Case) -> str | None:
    """`grade TARGET [the run's selection options] -k CASE_ID`."""
    argv = selection_argv(report)
    return None if argv is None else shlex.join([*argv, "-k", case.id])


def rerun_failed_command(report: GradeReport) -> str | None:
    """`grade TARGET [the run's selection options] --lf`: the failures of this run only."""
    argv = selection_argv(report)
    return None if argv is None else shlex.join([*argv, "--lf"])


@dataclass(frozen=True)
class InputSource:
    """Where a case's input file is: a file of the student's (`text` is its path), or a
    command that writes it."""

    label: str  # "input file" or "get the input file"
    text: str  # the path, or the command
    is_command: bool


def input_source(report: GradeReport, case: Case) -> InputSource | None:
    """None when the case runs without an input file, or comes from no suite."""
    chosen = _selection(report)
    if case.input is None or chosen is None:
        return None
    exercise = exercise_named(chosen.exercise)
    if case.category == OWN_CATEGORY and chosen.cases_dir is not None:
        path = own_input_path(Path(chosen.cases_dir), case.id, exercise.input_suffix)
        return InputSource("input file", str(path), is_command=False)
    if chosen.suite not in exercise.suites:  # --suite none: only own cases
        return None
    argv = ["fillit-gen", *_exercise_option(exercise.name), "case", case.id, "--suite", chosen.suite]
    if chosen.seed is not None:
        argv += ["--seed", str(chosen.seed)]
    output = case_filename(case.id) + exercise.input_suffix
    return InputSource("get the input file", shlex.join([*argv, "-o", output]), is_command=True)
