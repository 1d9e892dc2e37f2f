"""The commands a report gives for a case: rerun it alone, and get its input file.

Built from the report's `settings` (the options `grade` chose its cases with).  A report
made elsewhere has none: for a suite's run (`grade batch`) its suite, seed and profile stand
in.  A fuzz report's case is in no suite (its input is in the report): its rerun command is
the same `grade --fuzz` command, which replays the failing file first from the example
database; it has no command to get the input file.
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
    if chosen.fuzz is not None:
        return fuzz_argv(report.target, chosen)
    argv = ["grade", report.target, *_exercise_option(chosen.exercise), "--suite", chosen.suite]
    if chosen.seed is not None:
        argv += ["--seed", str(chosen.seed)]
    if chosen.cases_dir is not None:
        argv += ["--cases", chosen.cases_dir]
    return argv + _profile_and_timeout(chosen)


def fuzz_argv(target: str, chosen: GradeSettings) -> list[str]:
    """`grade TARGET [--exercise NAME] --fuzz N --seed S [--fuzz-db DB]...`: the same run again."""
    argv = ["grade", target, *_exercise_option(chosen.exercise), "--fuzz", str(chosen.fuzz)]
    if chosen.seed is not None:
        argv += ["--seed", str(chosen.seed)]
    if chosen.fuzz_db is not None:
        argv += ["--fuzz-db", chosen.fuzz_db]
    return argv + _profile_and_timeout(chosen)


def _profile_and_timeout(chosen: GradeSettings) -> list[str]:
    argv = []
    if chosen.profile != "default":
        argv += ["--profile", chosen.profile]
    if chosen.timeout is not None:
        argv += ["--timeout", f"{chosen.timeout:g}"]
    return argv


def _exercise_option(exercise: str) -> list[str]:
    return [] if exercise == DEFAULT_EXERCISE else ["--exercise", exercise]


def rerun_command(report: GradeReport, case: Case) -> str | None:
    """`grade TARGET [the run's selection options] -k CASE_ID` (a fuzz run: its command)."""
    argv = selection_argv(report)
    return None if argv is None else shlex.join(argv if _fuzzed(report) else [*argv, "-k", case.id])


def rerun_failed_command(report: GradeReport) -> str | None:
    """`grade TARGET [the run's selection options] --lf`: the failures of this run only (a
    fuzz run: its command, which replays its failure first)."""
    argv = selection_argv(report)
    return None if argv is None else shlex.join(argv if _fuzzed(report) else [*argv, "--lf"])


def _fuzzed(report: GradeReport) -> bool:
    return report.settings is not None and report.settings.fuzz is not None


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
    if case.input is None or chosen is None or chosen.fuzz is not None:
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
