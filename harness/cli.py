"""`grade TARGET [options]`: grade a fillit executable or repository (SPEC.md, "Command-line").

Exit status: 0 every graded case (and project check) passed, 1 something failed,
2 the harness could not grade (bad option, missing target, build failure...).
Every such problem is one line on stderr, never a traceback.
"""
from __future__ import annotations

import os
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import click
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from harness.grading import grade_binary
from harness.limits import Limits
from harness.model import CaseResult, GradeReport

if TYPE_CHECKING:
    from harness.project import BuildResult
from harness.suites import DEFAULT_SUITE, SUITES, load_suite, suite_seed

EXIT_PASSED, EXIT_FAILED, EXIT_CANNOT_GRADE = 0, 1, 2


class CannotGrade(Exception):
    """The harness cannot grade: the message is the one line the user sees."""


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("target", type=click.Path(path_type=Path))
@click.option("--suite", type=click.Choice(sorted(SUITES)), default=DEFAULT_SUITE, show_default=True,
              help="Which cases to run.")
@click.option("--seed", type=int, default=None, help="Seed for the generated cases (default: the suite's fixed seed).")
@click.option("--jobs", "-j", type=click.IntRange(1, 64), default=None,
              help="Cases run in parallel (default: number of CPUs).")
@click.option("--timeout", type=click.FloatRange(0.1, 3600), default=None,
              help="Wall-clock limit per case in seconds (default: per category, see the report).")
@click.option("-k", "pattern", default=None, help="Only cases whose id or category matches (substring or glob).")
@click.option("--profile", type=click.Choice(["default", "strict"]), default="default", show_default=True,
              help="strict: disputed cases must give the 42 answer.")
@click.option("--isolation", type=click.Choice(["auto", "bwrap", "rlimits"]), default="auto", show_default=True,
              help="Sandbox: bubblewrap when installed, else an unprivileged user with rlimits.")
@click.option("--json", "json_path", type=click.Path(path_type=Path), default=None, help="Write the JSON report.")
@click.option("--html", "html_path", type=click.Path(path_type=Path), default=None, help="Write the HTML report.")
@click.option("--junit", "junit_path", type=click.Path(path_type=Path), default=None, help="Write JUnit XML.")
@click.option("--lenient-build", is_flag=True, help="Repository mode: build with -Werror dropped (recorded).")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar and no summary table; just the result line.")
@click.option("--fuzz", "fuzz_examples", type=click.IntRange(1, 1_000_000), default=None, metavar="N",
              help="Fuzz mode: N generated files checked against the reference; a failure is shrunk "
                   "to a minimal file (reports hold it). --seed reproduces; --timeout is per run (default 2).")
@click.option("--fuzz-db", type=click.Path(path_type=Path), default=None,
              help="Fuzz mode: example database folder; found failures replay first [default: .fillit-fuzz-db].")
def grade_command(target: Path, suite: str, seed: int | None, jobs: int | None, timeout: float | None,
                  pattern: str | None, profile: str, isolation: str, json_path: Path | None,
                  html_path: Path | None, junit_path: Path | None, lenient_build: bool, quiet: bool,
                  fuzz_examples: int | None = None, fuzz_db: Path | None = None) -> int:
    """Grade TARGET: a fillit executable, or a repository folder (built with make first)."""
    outputs = {"json": json_path, "html": html_path, "junit": junit_path}
    for path in outputs.values():
        if path is not None:
            _check_writable(path)
    if not target.exists():
        raise CannotGrade(f"target {target} does not exist")
    if isolation == "bwrap":
        from harness.runner import available_isolation

        if available_isolation() != "bwrap":
            raise CannotGrade("--isolation bwrap: bubblewrap (bwrap) is not usable here; install it or use rlimits")
    if fuzz_examples is not None:
        from harness.fuzz import DEFAULT_DATABASE, fuzz_command

        return fuzz_command(target, fuzz_examples, seed=seed, timeout=timeout, isolation=isolation,
                            strict=profile == "strict", database=fuzz_db or DEFAULT_DATABASE, outputs=outputs,
                            quiet=quiet, lenient_build=lenient_build)
    cases = load_suite(suite, seed, pattern)
    if not cases:
        raise CannotGrade(f"no case of suite {suite!r} matches -k {pattern!r}")
    console = Console(stderr=True)
    with tempfile.TemporaryDirectory(prefix="grade-") as scratch:
        program, build = prepare_program(target, Path(scratch), lenient_build, console, quiet)
        report = _run_cases(program, cases, target, suite, seed, jobs, timeout, profile, isolation, console, quiet)
        if build is not None:
            from harness.project import leak_check_inputs, project_checks

            report.build = build.summary()
            report.checks = project_checks(build, sample_inputs=leak_check_inputs(cases))
    write_reports(report, outputs)
    _print_summary(report, quiet)
    failed_checks = any(check.status == "fail" for check in report.checks)
    return EXIT_FAILED if report.failed or failed_checks else EXIT_PASSED


def _check_writable(path: Path) -> None:
    parent = path.parent if str(path.parent) else Path(".")
    if path.is_dir():
        raise CannotGrade(f"cannot write report {path}: it is a directory")
    if not parent.is_dir():
        raise CannotGrade(f"cannot write report {path}: folder {parent} does not exist")
    if not os.access(parent, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise CannotGrade(f"cannot write report {path}: permission denied")


def prepare_program(target: Path, scratch: Path, lenient: bool, console: Console,
                    quiet: bool) -> tuple[Path, "BuildResult | None"]:
    """The executable to grade: TARGET itself, or what `make` builds from the repository TARGET."""
    if target.is_dir():
        build = _build(target, scratch, lenient, console, quiet)
        return build.binary, build
    return _executable(target), None


def _executable(target: Path) -> Path:
    from harness.executable import unrunnable_reason

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


def _build(repo: Path, scratch: Path, lenient: bool, console: Console, quiet: bool):
    from harness.project import build_repository

    if not quiet and console.is_terminal:
        console.print(f"building {repo} with make{' (lenient: -Werror dropped)' if lenient else ''}...")
    build = build_repository(repo.resolve(), scratch, lenient=lenient)
    if not build.ok or build.binary is None:
        werror = "[-Werror" in build.log or "-Werror=" in build.log
        hint = " (warnings are errors here: --lenient-build drops -Werror)" if werror and not lenient else ""
        raise CannotGrade(f"build failed: {build.message}{hint}")
    return build


def _run_cases(program: Path, cases: Sequence, target: Path, suite: str, seed: int | None, jobs: int | None,
               timeout: float | None, profile: str, isolation: str, console: Console, quiet: bool) -> GradeReport:
    arguments = dict(limits=Limits(), jobs=jobs or os.cpu_count() or 2, isolation=isolation,
                     strict=profile == "strict", timeout=timeout, suite=suite, seed=suite_seed(seed),
                     target=str(target))
    if quiet or not console.is_terminal:
        return grade_binary(program, cases, **arguments)
    counts = {"passed": 0, "failed": 0}
    columns = (TextColumn("[bold]grading"), BarColumn(), MofNCompleteColumn(),
               TextColumn("[green]{task.fields[passed]} passed [red]{task.fields[failed]} failed"),
               TimeElapsedColumn())
    with Progress(*columns, console=console, transient=True) as bar:
        task = bar.add_task("grading", total=len(cases), passed=0, failed=0)

        def advance(result: CaseResult) -> None:
            counts["passed" if result.passed else "failed"] += 1
            bar.update(task, advance=1, **counts)

        return grade_binary(program, cases, progress=advance, **arguments)


def write_reports(report: GradeReport, outputs: dict[str, Path | None]) -> None:
    """Write each report whose path is given; an unwritable path is CannotGrade."""
    from reports.html import write_html
    from reports.json_report import write_json
    from reports.junit import write_junit

    writers = {"json": write_json, "html": write_html, "junit": write_junit}
    for kind, path in outputs.items():
        if path is None:
            continue
        try:
            writers[kind](report, path)
        except OSError as error:
            raise CannotGrade(f"cannot write {kind} report {path}: {error.strerror or error}") from None


def _print_summary(report: GradeReport, quiet: bool) -> None:
    if quiet:
        line = f"score {report.score:g}/100: {report.passed} passed, {report.failed} failed"
        click.echo(line + (f"\n{report.first_failure_line}" if report.first_failure_line else ""))
        return
    from reports.terminal import print_summary

    print_summary(report)


def main(argv: Sequence[str] | None = None) -> int:
    """Console entry point: maps every way of failing to grade onto exit status 2 and one line."""
    args = list(sys.argv[1:] if argv is None else argv)
    if args and args[0] == "batch":
        from harness.batch_cli import batch_main
        return batch_main(args[1:])
    try:
        return grade_command.main(args, prog_name="grade", standalone_mode=False) or 0
    except CannotGrade as error:
        click.echo(f"grade: error: {error}", err=True)
        return EXIT_CANNOT_GRADE
    except click.exceptions.Exit as done:  # --help
        return done.exit_code
    except click.ClickException as error:
        click.echo(f"grade: error: {error.format_message()}", err=True)
        return EXIT_CANNOT_GRADE
    except click.Abort:
        click.echo("grade: error: interrupted", err=True)
        return EXIT_CANNOT_GRADE
    except KeyboardInterrupt:
        click.echo("grade: error: interrupted", err=True)
        return EXIT_CANNOT_GRADE


if __name__ == "__main__":
    raise SystemExit(main())
