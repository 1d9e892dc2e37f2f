"""`grade TARGET [options]`: grade an executable or a repository (SPEC.md, "Command-line"):
fillit unless `--exercise NAME` says which exercise (`grade --list-exercises`).

Exit status: 0 every graded case (and project check) passed, 1 something failed,
2 the harness could not grade (bad option, missing target, build failure...).
Every such problem is one line on stderr, never a traceback.
"""
from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Literal

import click
from rich.console import Console

from frontends.common import (EXIT_CANNOT_GRADE, EXIT_FAILED, EXIT_PASSED, CannotGrade, check_writable, grading_jail,
                              prepared_program, write_reports)
from harness.grading.last_failed import CACHE_DIR, record_run
from frontends.progress import GradeProgress
from generators.cases import Case
from harness.grading.grade import grade_binary
from harness.grading.model import GradeReport
from harness.grading.own_cases import OwnCasesError
from harness.grading.exercise import DEFAULT_EXERCISE, Exercise, UnknownExercise, exercise_named, registered_exercises
from harness.grading.selection import NO_SUITE, SelectionError, save_case_inputs, select_cases
from frontends.reporting import ReportKind
from harness.grading.settings import DEFAULT_SUITE, GradeSettings, Profile
from harness.grading.suites import cpu_limit
from harness.jail import Jail
from harness.jail.engine import IsolationRequest
from harness.limits import Limits
from harness.project import leak_check_inputs, project_checks
from reference.version import PACKAGE, VERSION_MESSAGE
from reports.terminal import print_summary

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
@click.option("--exercise", "exercise_name", default=DEFAULT_EXERCISE, show_default=True, metavar="NAME",
              help="The exercise TARGET solves (grade --list-exercises).")
@click.option("--list-exercises", is_flag=True, is_eager=True, expose_value=False, callback=lambda c, _, v:
              _list_exercises(c, v), help="Print the exercises this grader knows and exit.")
@click.option("--suite", default=DEFAULT_SUITE, show_default=True, metavar="NAME",
              help=f"Which cases to run: quick, standard, full (each exercise's own; --list-exercises); "
                   f"{NO_SUITE}: only the files of --cases.")
@click.option("--cases", "cases_dir", type=click.Path(path_type=Path), default=None, metavar="DIR",
              help="Also grade your own files: every input file of DIR (fillit: *.fillit), expecting "
                   "NAME.expected beside it when there is one, else the reference's answer.")
@click.option("--seed", type=int, default=None, help="Seed for the generated cases (default: the suite's fixed seed).")
@click.option("--jobs", "-j", type=click.IntRange(1, 64), default=None,
              help="Cases run in parallel (default: number of CPUs).")
@click.option("--timeout", type=click.FloatRange(0.1, 3600), default=None,
              help="CPU-time limit per case in seconds (default: per case, from the plain algorithm's cost; "
                   "docs/SPEC.md).")
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
              help="Fuzz mode: N generated input files of the exercise checked against its reference; a "
                   "failure is shrunk to a minimal file (reports hold it). --seed reproduces; --timeout is "
                   "per run (default 2).")
@click.option("--fuzz-db", type=click.Path(path_type=Path), default=None,
              help="Fuzz mode: example database folder; found failures replay first [default: .fillit-fuzz-db].")
def grade_command(target_text: str | None, exercise_name: str, suite: str, cases_dir: Path | None, seed: int | None, jobs: int | None,
                  timeout: float | None, pattern: str | None, last_failed: bool, collect_only: bool,
                  save_inputs: Path | None, profile: Profile, isolation: IsolationRequest, unsafe_no_jail: bool,
                  json_path: Path | None,
                  html_path: Path | None, junit_path: Path | None, lenient_build: bool, quiet: bool,
                  color: ColorChoice = "auto", fuzz_examples: int | None = None, fuzz_db: Path | None = None) -> int:
    """Grade TARGET: a fillit executable, or a repository folder (built with make first)."""
    # (Long: most of it is option checks, in the order they must fail: bad report paths and a
    # bad target before any case is generated or run. click shows the docstring as --help.)
    target = None if target_text is None else Path(target_text)  # reports show it as typed
    try:
        exercise = exercise_named(exercise_name)
    except UnknownExercise as unknown:
        raise CannotGrade(f"--exercise: {unknown}") from None
    outputs: dict[ReportKind, Path | None] = {"json": json_path, "html": html_path, "junit": junit_path}
    for path in outputs.values():
        if path is not None:
            check_writable(path)
    if fuzz_examples is not None:
        _refuse_with_fuzz({"--cases": cases_dir, "--lf": last_failed, "--collect-only": collect_only,
                           "--save-inputs": save_inputs})
    if target is None and (not collect_only or last_failed):
        raise CannotGrade("missing TARGET: a fillit executable or a repository folder (see grade --help)")
    if target is not None and not target.exists() and not collect_only:
        raise CannotGrade(f"target {target} does not exist")
    if fuzz_examples is not None:
        assert target is not None
        if exercise.fuzz_inputs is None:
            raise CannotGrade(f"--fuzz: {exercise.name} cannot be fuzzed (its exercise record has no fuzz_inputs)")
        jail = grading_jail(isolation, "repository" if target.is_dir() else "binary", unsafe_no_jail)
        # Imported here: fuzzing's imports (hypothesis among them) would cost every other
        # `grade` a tenth of a second at start-up.
        from frontends.fuzz import fuzz_command
        from harness.fuzz import DEFAULT_DATABASE
        return fuzz_command(target, fuzz_examples, exercise=exercise, seed=seed, timeout=timeout, jail=jail,
                            strict=profile == "strict", database=fuzz_db or DEFAULT_DATABASE, outputs=outputs,
                            quiet=quiet, lenient_build=lenient_build,
                            database_option=None if fuzz_db is None else str(fuzz_db))
    out, err = _consoles(color)
    selection = GradeSettings(exercise=exercise.name, suite=suite, seed=seed, cases_dir=None if cases_dir is None else str(cases_dir),
                              profile=profile, timeout=timeout)
    cases = _select(exercise, selection, pattern, target, last_failed, err)
    if save_inputs is not None:
        try:
            written = save_case_inputs(cases, save_inputs, exercise.input_suffix)
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
        report = _run_cases(exercise, program, cases, target_text, selection, jobs, jail, err, quiet)
        if build is not None and workspace is not None:
            report.build = build.summary()
        if build is not None and workspace is not None and exercise.project_checks:
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


def _refuse_with_fuzz(given: dict[str, object]) -> None:
    used = [option for option, value in given.items() if value not in (None, False)]
    if used:
        raise CannotGrade(f"--fuzz generates its own files: it cannot be combined with {', '.join(used)}")


def _consoles(color: ColorChoice) -> tuple[Console, Console]:
    """(stdout, stderr) consoles: `auto` asks each stream whether it is a terminal."""
    force = {"auto": None, "always": True, "never": False}[color]
    return (Console(force_terminal=force, no_color=color == "never"),
            Console(stderr=True, force_terminal=force, no_color=color == "never"))


def _list_exercises(context: click.Context, value: bool) -> None:
    """--list-exercises: one line per installed exercise, then exit."""
    if not value or context.resilient_parsing:
        return
    for name, exercise in sorted(registered_exercises().items()):
        suites = ", ".join(exercise.suites)
        click.echo(f"{name:<16} {exercise.title}\n{'':<16} invocation: {exercise.invocation}; suites: {suites}; "
                   f"contract: {exercise.spec}")
    context.exit(EXIT_PASSED)


def _select(exercise: Exercise, selection: GradeSettings, pattern: str | None, target: Path | None,
            last_failed: bool, err: Console) -> list[Case]:
    try:
        chosen = select_cases(exercise, selection.suite, selection.seed, pattern,
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


def _run_cases(exercise: Exercise, program: Path, cases: Sequence[Case], target: str, selection: GradeSettings,
               jobs: int | None, jail: Jail, console: Console, quiet: bool) -> GradeReport:
    def grade(progress: GradeProgress | None) -> GradeReport:
        return grade_binary(program, cases, limits=Limits(), jobs=jobs or os.cpu_count() or 2, jail=jail,
                            strict=selection.strict, timeout=selection.timeout, suite=selection.suite,
                            seed=selection.seed, exercise=exercise, target=target,
                            progress=progress.finished if progress else None,
                            on_start=progress.started if progress else None)

    if quiet:
        report = grade(None)
    else:
        with GradeProgress(console, len(cases), lambda case: cpu_limit(case, selection.timeout)) as progress:
            report = grade(progress)
    report.settings = selection
    return report


def _print_summary(report: GradeReport, quiet: bool, console: Console, written: dict[str, Path]) -> None:
    if quiet:
        line = f"score {report.score:g}/100: {report.passed} passed, {report.failed} failed"
        click.echo(line + (f"\n{report.first_failure_line}" if report.first_failure_line else ""))
        return
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
        from frontends.batch import batch_main  # (here: the cohort's imports are for `grade batch` only)
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
