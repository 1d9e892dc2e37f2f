"""`grade TARGET [options]`: grade a fillit executable or repository (SPEC.md, "Command-line").

Exit status: 0 every graded case (and project check) passed, 1 something failed,
2 the harness could not grade (bad option, missing target, build failure...).
Every such problem is one line on stderr, never a traceback.
"""
from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Literal

import click
from rich.console import Console

from generators.cases import Case
from harness.case_selection import NO_SUITE, SUITE_CHOICES, SelectionError, save_case_inputs, select_cases
from harness.grading import grade_binary
from harness.executable import unrunnable_reason
from harness.jail import Jail
from harness.jail.engine import IsolationRequest
from harness.last_failed import CACHE_DIR, record_run
from harness.limits import Limits
from harness.model import CaseSelection, GradeReport
from harness.policy import JailRefused, Target, choose_jail
from harness.progress import GradeProgress
from harness.suites import DEFAULT_SUITE, suite_seed, cpu_limit
from reference.version import PACKAGE, VERSION_MESSAGE

if TYPE_CHECKING:
    from harness.project import BuildResult, Workspace

EXIT_PASSED, EXIT_FAILED, EXIT_CANNOT_GRADE = 0, 1, 2


class CannotGrade(Exception):
    """The harness cannot grade: the message is the one line the user sees."""


EPILOG = """\b
Other commands:
  grade batch SUBMISSIONS_DIR [options]   grade a whole cohort, resumable (grade batch --help)
  fillit-gen ...                          write input files (fillit-gen --help)
  fillit-ref FILE                         the reference, behaving like a correct fillit

\b
Exit status: 0 every case and project check passed, 1 something failed,
2 the harness could not grade (one line on stderr)."""
ColorChoice = Literal["auto", "always", "never"]


@click.command(context_settings={"help_option_names": ["-h", "--help"]}, epilog=EPILOG)
@click.version_option(package_name=PACKAGE, prog_name="grade", message=VERSION_MESSAGE)
@click.argument("target_text", metavar="TARGET", type=click.Path(), required=False)
@click.option("--suite", type=click.Choice(SUITE_CHOICES), default=DEFAULT_SUITE, show_default=True,
              help=f"Which cases to run; {NO_SUITE}: only the files of --cases.")
@click.option("--cases", "cases_dir", type=click.Path(path_type=Path), default=None, metavar="DIR",
              help="Also grade your own files: every DIR/*.fillit, expecting NAME.expected beside it "
                   "when there is one, else the reference's answer.")
@click.option("--seed", type=int, default=None, help="Seed for the generated cases (default: the suite's fixed seed).")
@click.option("--jobs", "-j", type=click.IntRange(1, 64), default=None,
              help="Cases run in parallel (default: number of CPUs).")
@click.option("--timeout", type=click.FloatRange(0.1, 3600), default=None,
              help="Wall-clock limit per case in seconds (default: per category, see the report).")
@click.option("-k", "pattern", default=None,
              help="Only cases whose id or category matches (substring or glob; an exact id: that case alone).")
@click.option("--lf", "last_failed", is_flag=True,
              help=f"Only the cases that failed last time (recorded in {CACHE_DIR}/ of the current folder).")
@click.option("--collect-only", is_flag=True, help="Print the ids of the selected cases and exit.")
@click.option("--save-inputs", type=click.Path(file_okay=False, path_type=Path), default=None, metavar="DIR",
              help="Write the input file of every selected case into DIR (then grade, unless --collect-only).")
@click.option("--profile", type=click.Choice(["default", "strict"]), default="default", show_default=True,
              help="strict: disputed cases must give the 42 answer.")
@click.option("--isolation", type=click.Choice(["auto", "jail", "namespaces", "rlimits"]), default="auto",
              show_default=True, help="jail: namespaces + a cgroup per run (root); namespaces: bubblewrap "
                                      "only; rlimits: no namespaces. auto: the strongest here (docs/SECURITY.md).")
@click.option("--unsafe-no-jail", is_flag=True,
              help="Build and grade a repository even without the namespace jail (its Makefile then runs "
                   "with only a uid and rlimits). The report says so.")
@click.option("--json", "json_path", type=click.Path(path_type=Path), default=None, help="Write the JSON report.")
@click.option("--html", "html_path", type=click.Path(path_type=Path), default=None, help="Write the HTML report.")
@click.option("--junit", "junit_path", type=click.Path(path_type=Path), default=None, help="Write JUnit XML.")
@click.option("--lenient-build", is_flag=True, help="Repository mode: build with -Werror dropped (recorded).")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar and no summary table; just the result line.")
@click.option("--color", type=click.Choice(["auto", "always", "never"]), default="auto", show_default=True,
              help="Colours, table and progress bar: auto (on a terminal), always, never (plain text).")
@click.option("--fuzz", "fuzz_examples", type=click.IntRange(1, 1_000_000), default=None, metavar="N",
              help="Fuzz mode: N generated files checked against the reference; a failure is shrunk "
                   "to a minimal file (reports hold it). --seed reproduces; --timeout is per run (default 2).")
@click.option("--fuzz-db", type=click.Path(path_type=Path), default=None,
              help="Fuzz mode: example database folder; found failures replay first [default: .fillit-fuzz-db].")
def grade_command(target_text: str | None, suite: str, cases_dir: Path | None, seed: int | None, jobs: int | None,
                  timeout: float | None, pattern: str | None, last_failed: bool, collect_only: bool,
                  save_inputs: Path | None, profile: str, isolation: IsolationRequest, unsafe_no_jail: bool,
                  json_path: Path | None,
                  html_path: Path | None, junit_path: Path | None, lenient_build: bool, quiet: bool,
                  color: ColorChoice = "auto", fuzz_examples: int | None = None, fuzz_db: Path | None = None) -> int:
    """Grade TARGET: a fillit executable, or a repository folder (built with make first)."""
    target = None if target_text is None else Path(target_text)  # reports show it as typed
    outputs = {"json": json_path, "html": html_path, "junit": junit_path}
    for path in outputs.values():
        if path is not None:
            _check_writable(path)
    if fuzz_examples is not None:
        _refuse_with_fuzz({"--cases": cases_dir, "--lf": last_failed, "--collect-only": collect_only,
                           "--save-inputs": save_inputs})
    if target is None and (not collect_only or last_failed):
        raise CannotGrade("missing TARGET: a fillit executable or a repository folder (see grade --help)")
    if target is not None and not target.exists() and not collect_only:
        raise CannotGrade(f"target {target} does not exist")
    if fuzz_examples is not None:
        from harness.fuzz import DEFAULT_DATABASE, fuzz_command

        assert target is not None
        jail = grading_jail(isolation, "repository" if target.is_dir() else "binary", unsafe_no_jail)
        return fuzz_command(target, fuzz_examples, seed=seed, timeout=timeout, jail=jail,
                            strict=profile == "strict", database=fuzz_db or DEFAULT_DATABASE, outputs=outputs,
                            quiet=quiet, lenient_build=lenient_build)
    out, err = _consoles(color)
    selection = CaseSelection(suite=suite, seed=seed, cases_dir=None if cases_dir is None else str(cases_dir),
                              profile=profile, timeout=timeout)
    cases = _select(selection, pattern, target, last_failed, err)
    if save_inputs is not None:
        try:
            written = save_case_inputs(cases, save_inputs)
        except OSError as error:
            raise CannotGrade(f"--save-inputs {save_inputs}: {error.strerror or error}") from None
        err.print(f"wrote {written} input file(s) to {save_inputs}", markup=False, highlight=False)
    if collect_only:
        for case in cases:
            click.echo(case.id)
        if not quiet:
            err.print(f"{len(cases)} case(s) selected", markup=False, highlight=False)
        return EXIT_PASSED
    assert target is not None and target_text is not None
    jail = grading_jail(isolation, "repository" if target.is_dir() else "binary", unsafe_no_jail)
    with prepared_program(target, jail, lenient_build, err, quiet) as (program, build, workspace):
        report = _run_cases(program, cases, target_text, selection, jobs, jail, err, quiet)
        if build is not None and workspace is not None:
            from harness.project import leak_check_inputs, project_checks

            report.build = build.summary()
            report.checks = project_checks(build, workspace, sample_inputs=leak_check_inputs(cases))
    write_reports(report, outputs)
    _remember_failures(target, report, err)
    _print_summary(report, quiet, out, {kind: path for kind, path in outputs.items() if path is not None})
    if report.harness_errors:
        first = report.harness_errors[0]
        raise CannotGrade(f"the jail failed on {len(report.harness_errors)} of {len(report.results)} cases, which "
                          f"were not graded (first: {first.case.id}: {first.verdict.message})")
    failed_checks = any(check.status == "fail" for check in report.checks)
    return EXIT_FAILED if report.failed or failed_checks else EXIT_PASSED


def grading_jail(isolation: IsolationRequest, target: Target, unsafe: bool) -> Jail:
    """The jail for `target` under the policy (harness.policy); its warning on stderr."""
    try:
        jail, warning = choose_jail(isolation, target, unsafe)
    except JailRefused as refused:
        raise CannotGrade(str(refused)) from None
    if warning:
        click.echo(f"grade: {warning}", err=True)
    return jail


def _refuse_with_fuzz(given: dict[str, object]) -> None:
    used = [option for option, value in given.items() if value not in (None, False)]
    if used:
        raise CannotGrade(f"--fuzz generates its own files: it cannot be combined with {', '.join(used)}")


def _consoles(color: ColorChoice) -> tuple[Console, Console]:
    """(stdout, stderr) consoles: `auto` asks each stream whether it is a terminal."""
    force = {"auto": None, "always": True, "never": False}[color]
    return (Console(force_terminal=force, no_color=color == "never"),
            Console(stderr=True, force_terminal=force, no_color=color == "never"))


def _select(selection: CaseSelection, pattern: str | None, target: Path | None, last_failed: bool,
            err: Console) -> list[Case]:
    from harness.own_cases import OwnCasesError

    try:
        chosen = select_cases(selection.suite, selection.seed, pattern,
                              None if selection.cases_dir is None else Path(selection.cases_dir),
                              rerun_failed_of=target if last_failed else None)
    except (SelectionError, OwnCasesError) as error:
        raise CannotGrade(str(error)) from None
    for note in chosen.notes:
        err.print(note, markup=False, highlight=False, soft_wrap=True)
    return chosen.cases


def _remember_failures(target: Path, report: GradeReport, err: Console) -> None:
    """Record this run's failures for --lf; a cache that cannot be written only costs --lf."""
    try:
        record_run(target, [r.case.id for r in report.results], [r.case.id for r in report.results if not r.passed])
    except OSError as error:
        err.print(f"grade: note: cannot record the failures for --lf in {CACHE_DIR}: {error.strerror or error}",
                  markup=False, highlight=False)


def _check_writable(path: Path) -> None:
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
    from harness.project import Workspace, build_repository

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


def _run_cases(program: Path, cases: Sequence[Case], target: str, selection: CaseSelection, jobs: int | None,
               jail: Jail, console: Console, quiet: bool) -> GradeReport:
    arguments = dict(limits=Limits(), jobs=jobs or os.cpu_count() or 2, jail=jail,
                     strict=selection.profile == "strict", timeout=selection.timeout, suite=selection.suite,
                     seed=suite_seed(selection.seed), target=target)
    if quiet:
        report = grade_binary(program, cases, **arguments)
    else:
        with GradeProgress(console, len(cases), lambda case: cpu_limit(case, selection.timeout)) as progress:
            report = grade_binary(program, cases, progress=progress.finished, on_start=progress.started, **arguments)
    report.selection = selection
    return report


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


def _print_summary(report: GradeReport, quiet: bool, console: Console, written: dict[str, Path]) -> None:
    if quiet:
        line = f"score {report.score:g}/100: {report.passed} passed, {report.failed} failed"
        click.echo(line + (f"\n{report.first_failure_line}" if report.first_failure_line else ""))
        return
    from reports.terminal import print_summary

    print_summary(report, console, written)


def main(argv: Sequence[str] | None = None) -> int:
    """Console entry point: maps every way of failing to grade onto exit status 2 and one line."""
    args = list(sys.argv[1:] if argv is None else argv)
    umask = os.umask(0o077)  # reports, logs, scratch: private (docs/SECURITY.md, "Outputs")
    try:
        return _main(args)
    finally:
        os.umask(umask)  # (main may be called in-process: leave the caller's umask as it was)


def _main(args: list[str]) -> int:
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
