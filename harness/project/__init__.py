"""Repository mode: build a student's repository in the jail and check the project rules.

    with Workspace.create(jail) as ws:
        build = build_repository(Path("alice"), ws)
        checks = project_checks(build, ws, sample_inputs=leak_check_inputs(cases))

`workspace` (the private folder and the jailed steps), `build` (copy + make),
`checks` (one module per rule of the subject).
"""
from __future__ import annotations

from collections.abc import Sequence

from generators.cases import Case
from harness.project.build import BINARY_NAME, BuildResult, build_repository, failure_line
from harness.project.checks import CHECK_NAMES, project_checks
from harness.project.checks.valgrind import MAX_INPUTS
from harness.project.workspace import Workspace


def leak_check_inputs(cases: Sequence[Case]) -> list[bytes]:
    """The inputs valgrind runs the binary on: the first few valid files of the suite."""
    return [case.input for case in cases if case.category == "valid" and case.input is not None][:MAX_INPUTS]


__all__ = ["BINARY_NAME", "CHECK_NAMES", "BuildResult", "Workspace", "build_repository", "failure_line",
           "leak_check_inputs", "project_checks"]
