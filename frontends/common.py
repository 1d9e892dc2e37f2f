"""What the front-ends share: their exit statuses, the one-line error a user sees, the jail
chosen under the policy, and the program to grade (a binary, or what a repository builds).
"""
from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path

import click
from rich.console import Console

from frontends import reporting
from frontends.reporting import ReportKind
from harness.grading.executable import unrunnable_reason
from harness.grading.model import GradeReport
from harness.jail import Jail
from harness.jail.engine import IsolationRequest
from harness.jail.policy import JailRefused, Target, choose_jail
from harness.project import BuildResult, Workspace, build_repository

EXIT_PASSED, EXIT_FAILED, EXIT_CANNOT_GRADE = 0, 1, 2


class CannotGrade(Exception):
    """The harness cannot grade: the message is the one line the user sees."""


def grading_jail(isolation: IsolationRequest, target: Target, unsafe: bool) -> Jail:
    """The jail for `target` under the policy (harness.jail.policy); its warning on stderr."""
    try:
        jail, warning = choose_jail(isolation, target, unsafe)
    except JailRefused as refused:
        raise CannotGrade(str(refused)) from None
    if warning:
        click.echo(f"grade: {warning}", err=True)
    return jail


def check_writable(path: Path) -> None:
    parent = path.parent if str(path.parent) else Path(".")
    if path.is_dir():
        raise CannotGrade(f"cannot write report {path}: it is a directory")
    if not parent.is_dir():
        raise CannotGrade(f"cannot write report {path}: folder {parent} does not exist")
    if not os.access(parent, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise CannotGrade(f"cannot write report {path}: permission denied")


@contextlib.contextmanager
def prepared_program(target: Path, jail: Jail, lenient: bool, console: Console,
                     quiet: bool) -> Iterator[tuple[Path, "BuildResult | None", "Workspace | None"]]:
    """The executable to grade: TARGET itself, or what `make` builds from the repository
    TARGET (in a private workspace, alive for the `with` block: the checks use it)."""
    if not target.is_dir():
        yield _executable(target), None, None
        return
    if not quiet and console.is_terminal:
        console.print(f"building {target} with make{' (lenient: -Werror dropped)' if lenient else ''}...")
    with Workspace.create(jail) as workspace:
        build = build_repository(target.resolve(), workspace, lenient=lenient)
        if not build.ok or build.binary is None:
            werror = "[-Werror" in build.log or "-Werror=" in build.log
            hint = " (warnings are errors here: --lenient-build drops -Werror)" if werror and not lenient else ""
            raise CannotGrade(f"build failed: {build.message}{hint}")
        yield build.binary, build, workspace


def _executable(target: Path) -> Path:
    if not target.is_file():
        raise CannotGrade(f"target {target} is neither a file nor a folder")
    if not os.access(target, os.X_OK):
        raise CannotGrade(f"target {target} is not executable (chmod +x {target}?)")
    try:
        reason = unrunnable_reason(target)
    except OSError as error:
        raise CannotGrade(f"cannot read target {target}: {error.strerror or error}") from None
    if reason is not None:
        raise CannotGrade(f"target {target} {reason}")
    return target.resolve()


def write_reports(report: GradeReport, outputs: dict[ReportKind, Path | None]) -> None:
    """Write each report whose path is given; an unwritable path is CannotGrade."""
    try:
        reporting.write_reports(report, outputs)
    except OSError as error:
        raise CannotGrade(f"cannot write a report: {error.strerror or error}: {error.filename}") from None


