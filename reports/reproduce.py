"""The commands a report gives for a case: rerun it alone, and get its input file.

Built from the report's `selection` (the options `grade` chose its cases with); a report
made elsewhere (batch, the API) has none, and its suite, seed and profile stand in.
"""
from __future__ import annotations

import shlex
from dataclasses import dataclass
from pathlib import Path

from generators.cases import Case
from generators.corpus import case_filename
from harness.model import CaseSelection, GradeReport
from harness.own_cases import OWN_CATEGORY, own_input_path
from harness.suites import SUITES


def _selection(report: GradeReport) -> CaseSelection:
    if report.selection is not None:
        return report.selection
    # Reports built without `grade` record seed 0 for the suite's fixed seed.
    return CaseSelection(suite=report.suite, seed=report.seed or None, cases_dir=None,
                         profile=report.profile, timeout=None)


def selection_argv(report: GradeReport) -> list[str]:
    """`grade TARGET` and the options that chose the run's cases."""
    chosen = _selection(report)
    argv = ["grade", report.target, "--suite", chosen.suite]
    if chosen.seed is not None:
        argv += ["--seed", str(chosen.seed)]
    if chosen.cases_dir is not None:
        argv += ["--cases", chosen.cases_dir]
    if chosen.profile != "default":
        argv += ["--profile", chosen.profile]
    if chosen.timeout is not None:
        argv += ["--timeout", f"{chosen.timeout:g}"]
    return argv


def rerun_argv(report: GradeReport, case: Case) -> list[str]:
    """`grade TARGET [the run's selection options] -k CASE_ID`."""
    return [*selection_argv(report), "-k", case.id]


def rerun_command(report: GradeReport, case: Case) -> str:
    return shlex.join(rerun_argv(report, case))


@dataclass(frozen=True)
class InputSource:
    """Where a case's input file is: a file of the student's (`path`), or a command that writes it."""

    label: str  # "input file" or "get the input file"
    text: str  # the path, or the command
    is_command: bool


def input_source(report: GradeReport, case: Case) -> InputSource | None:
    """None when the case runs without an input file."""
    if case.input is None:
        return None
    chosen = _selection(report)
    if case.category == OWN_CATEGORY and chosen.cases_dir is not None:
        return InputSource("input file", str(own_input_path(Path(chosen.cases_dir), case.id)), is_command=False)
    argv = ["fillit-gen", "case", case.id]
    if chosen.suite in SUITES:  # not "none"
        argv += ["--suite", chosen.suite]
    if chosen.seed is not None:
        argv += ["--seed", str(chosen.seed)]
    return InputSource("get the input file", shlex.join([*argv, "-o", case_filename(case.id) + ".fillit"]),
                       is_command=True)


def rerun_failed_command(report: GradeReport) -> str:
    """`grade TARGET [the run's selection options] --lf`: the failures of this run only."""
    return shlex.join([*selection_argv(report), "--lf"])
