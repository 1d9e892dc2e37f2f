"""`grade batch SUBMISSIONS_DIR [options]`: grade a whole cohort (docs/batch.md).

Exit status: 0 every submission was graded (whatever its score; a failed build is a
grade), 1 the harness could not grade some submission (see the "errors" count and
rerun to resume), 2 the batch could not run at all (bad option, bad folder,
unreachable scheduler, unusable database).
"""
from __future__ import annotations

import os
import sqlite3
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import click

from harness.batch.discovery import discover
from harness.batch.messages import BatchError
from harness.batch.parent import BatchOptions, run_batch
from harness.batch.store import SubmissionRow
from harness.grading.model import GradeReport
from harness.grading.settings import DEFAULT_BUDGET_S, DEFAULT_SUITE, GradeSettings, Profile
from harness.grading.exercise import DEFAULT_EXERCISE
from harness.jail.engine import IsolationRequest
from reference.version import PACKAGE, VERSION_MESSAGE
from reports.cohort import cohort_rows, write_cohort
from reports.html import write_html
from reports.json_report import write_json

EXIT_OK, EXIT_SOME_ERRORS, EXIT_CANNOT_RUN = 0, 1, 2


class CohortFiles:
    """`grade batch`'s reports: OUT/NAME/report.json, report.html (and build.log for a
    repository), and OUT/index.html with OUT/cohort.csv."""

    def submission(self, report: GradeReport, directory: Path, build: dict[str, Any] | None) -> None:
        write_json(report, directory / "report.json")
        write_html(report, directory / "report.html")
        if build is not None:
            (directory / "build.log").write_text(build.get("log", ""), encoding="utf-8")

    def cohort(self, rows: Sequence[SubmissionRow], out: Path, title: str) -> tuple[Path, Path]:
        return write_cohort(cohort_rows(rows, out), out, title=title)


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name=PACKAGE, prog_name="grade batch", message=VERSION_MESSAGE)
@click.argument("submissions_dir", type=click.Path(path_type=Path))
@click.option("--out", type=click.Path(path_type=Path), default=Path("grade-batch"), show_default=True,
              help="Folder for the cohort page, the CSV and each submission's reports.")
@click.option("--db", type=click.Path(path_type=Path), default=None,
              help="SQLite results store (default: OUT/results.sqlite). Rerunning with it resumes.")
@click.option("--jobs", "-j", type=click.IntRange(1, 256), default=None,
              help="Worker processes (default: number of CPUs); an executable's cases are split into "
                   "chunks graded in parallel, a repository is graded by one worker.")
@click.option("--exercise", "exercise", default=DEFAULT_EXERCISE, show_default=True, metavar="NAME",
              help="The exercise the submissions solve (grade --list-exercises).")
@click.option("--suite", default=DEFAULT_SUITE, show_default=True, metavar="NAME",
              help="quick, standard or full (the exercise's suites).")
@click.option("--seed", type=int, default=None, help="Seed for the generated cases (default: the suite's own).")
@click.option("--timeout", type=click.FloatRange(0.1, 3600), default=None,
              help="CPU-time limit per case in seconds (default: per case, see docs/SPEC.md).")
@click.option("--profile", type=click.Choice(["default", "strict"]), default="default", show_default=True,
              help="strict: disputed cases must give the 42 answer.")
@click.option("--scheduler", default=None, metavar="tcp://HOST:PORT",
              help="Grade on the workers of this Dask scheduler instead of local processes.")
@click.option("--lenient-build", is_flag=True, help="Build repositories with -Werror dropped (recorded).")
@click.option("--no-project-checks", is_flag=True,
              help="Repository mode: skip the Makefile/norm/leak checks (grade the cases only).")
@click.option("--isolation", type=click.Choice(["auto", "jail", "namespaces", "rlimits"]), default="auto",
              show_default=True, help="A cohort needs the full jail (docs/SECURITY.md).")
@click.option("--unsafe-no-jail", is_flag=True,
              help="Grade the cohort even without the full jail (namespaces + cgroups). Not for other people's code.")
@click.option("--budget", type=click.FloatRange(1, 86400), default=DEFAULT_BUDGET_S, show_default=True,
              help="Seconds one submission's cases may take in all; the cases left then are TIMEOUT (budget).")
def batch_command(submissions_dir: Path, out: Path, db: Path | None, jobs: int | None, exercise: str, suite: str,
                  seed: int | None, timeout: float | None, profile: Profile, scheduler: str | None,
                  lenient_build: bool, no_project_checks: bool, isolation: IsolationRequest,
                  unsafe_no_jail: bool, budget: float) -> int:
    """Grade every entry of SUBMISSIONS_DIR (repository folders and fillit executables)."""
    settings = GradeSettings(exercise=exercise, suite=suite, seed=seed, timeout=timeout, profile=profile,
                             lenient_build=lenient_build, project_checks=not no_project_checks,
                             isolation=isolation, unsafe_no_jail=unsafe_no_jail, budget_s=budget)
    options = BatchOptions(out=out, db=db, jobs=jobs or os.cpu_count() or 2, settings=settings,
                           scheduler=scheduler)
    _refuse_empty(submissions_dir, out, db)
    summary = run_batch(submissions_dir, options, CohortFiles(), echo=click.echo)
    click.echo(summary.line())
    for error in summary.errors:
        click.echo(f"error: {error}", err=True)
    if summary.integrity != "ok":
        click.echo(f"grade batch: error: database integrity check: {summary.integrity}", err=True)
        return EXIT_CANNOT_RUN
    click.echo(f"cohort report: {summary.index}  csv: {summary.csv}")
    return EXIT_SOME_ERRORS if summary.errors else EXIT_OK


def _refuse_empty(folder: Path, out: Path, db: Path | None) -> None:
    """A folder without any submission is a mistake (a wrong path, a failed download): say so.

    A cheap look first (discover() hashes every submission, which run_batch does anyway)."""
    if not folder.is_dir():
        return  # run_batch says it is not a folder
    excluded = {out.resolve(), (db or out / "results.sqlite").resolve()}
    if any(not entry.name.startswith(".") and entry.resolve() not in excluded
           and (entry.is_dir() or os.access(entry, os.X_OK)) for entry in folder.iterdir()):
        return
    _, ignored = discover(folder, exclude=list(excluded))
    why = f" ({len(ignored)} entries ignored: {'; '.join(ignored[:3])})" if ignored else ""
    raise BatchError(f"no submission in {folder}: expected repository folders or fillit executables{why}")


def batch_main(argv: Sequence[str]) -> int:
    """`grade batch ...`: every way of failing to run is exit status 2 and one line on stderr."""
    try:
        return batch_command.main(list(argv), prog_name="grade batch", standalone_mode=False) or 0
    except BatchError as error:
        click.echo(f"grade batch: error: {error}", err=True)
    except sqlite3.DatabaseError as error:
        click.echo(f"grade batch: error: results database: {error}", err=True)
    except click.exceptions.Exit as done:  # --help
        return done.exit_code
    except click.ClickException as error:
        click.echo(f"grade batch: error: {error.format_message()}", err=True)
    except (click.Abort, KeyboardInterrupt):
        click.echo("grade batch: error: interrupted (rerun the same command to resume)", err=True)
    except OSError as error:
        click.echo(f"grade batch: error: {error}", err=True)
    return EXIT_CANNOT_RUN
