"""Cohort grading: every submission of a folder, in parallel, resumable, stored in SQLite.

    summary = run_batch(Path("submissions"), BatchOptions(out=Path("out"), jobs=2), reporter)

The unit of parallel work is a task (harness.batch.tasks). The parent process is the only
writer of the store (harness.batch.store): local worker processes (harness.batch.local)
or Dask workers (harness.batch.dask) run `harness.batch.worker.grade_submission` on each
task and send messages (harness.batch.messages), which the parent writes, one transaction
each. When every part of a submission is in, the parent rebuilds its report from the
store, hands it to the `reporter` (the front-end's: the report files), and records its
score; at the end the reporter writes the cohort page.

Rerunning the same command resumes: a finished submission with the same files and the
same grading settings is skipped; a partially graded one is graded only on the cases
missing from the store; a changed one is graded again from scratch.
"""
from __future__ import annotations

import dataclasses
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Protocol

from generators.cases import Case
from harness.batch.discovery import REPOSITORY, discover
from harness.batch.local import run_local
from harness.batch.messages import (BatchError, BuildDone, CaseGraded, ChecksDone, Echo, Message, TaskFailed,
                                    TaskFinished)
from harness.batch.store import BUILD_FAILED, DONE, StaleResult, Store, SubmissionRow
from harness.batch.tasks import CHUNK_CASES, GradeTask, cases_digest, chunk_task, config_key, interleave, suite_cases
from harness.grading.grade import wall_backstop
from harness.grading.model import VERDICTS, CaseResult, GradeReport, ProjectCheck
from harness.grading.scoring import first_failure_line, score
from harness.grading.settings import GradeSettings
from harness.grading.exercise import UnknownExercise, exercise_named
from harness.grading.suites import DEFAULT_CPU_S
from harness.jail.bwrap import SYSTEM_DIRS
from harness.jail.policy import JailRefused, choose_jail
from harness.limits import Limits

class Reporter(Protocol):
    """What the batch hands its results to (the front-end renders them: reports/)."""

    def submission(self, report: GradeReport, directory: Path, build: dict[str, Any] | None) -> None: ...

    def cohort(self, rows: Sequence[SubmissionRow], out: Path, title: str) -> tuple[Path, Path]: ...


@dataclass
class BatchOptions:
    out: Path
    db: Path | None = None  # default <out>/results.sqlite
    jobs: int = 2
    settings: GradeSettings = field(default_factory=GradeSettings)
    scheduler: str | None = None  # tcp://host:port: grade on Dask workers
    chunk_cases: int = CHUNK_CASES  # an executable's cases are graded in tasks of about this many (0: whole)


@dataclass
class BatchSummary:
    submissions: int = 0
    graded: int = 0  # finished in this run (build failures included)
    skipped: int = 0  # unchanged and already finished
    resumed: int = 0  # of the graded ones, how many kept results from an interrupted run
    build_failed: int = 0
    errors: list[str] = field(default_factory=list)
    ignored: list[str] = field(default_factory=list)
    index: Path | None = None
    csv: Path | None = None
    integrity: str = ""

    def line(self) -> str:
        parts = [f"{self.graded} graded", f"{self.skipped} skipped"]
        if self.resumed:
            parts.append(f"{self.resumed} resumed")
        if self.build_failed:
            parts.append(f"{self.build_failed} build failed")
        parts.append(f"{len(self.errors)} errors")
        return f"{self.submissions} submissions: " + ", ".join(parts)


class Parent:
    """Receives worker messages, writes the store, finalizes submissions."""

    def __init__(self, store: Store, out: Path, settings: GradeSettings, cases: Sequence[Case],
                 summary: BatchSummary, echo: Echo, total: int, reporter: Reporter) -> None:
        self.store, self.out, self.settings, self.cases = store, out, settings, list(cases)
        self.by_id = {case.id: case for case in self.cases}
        self.summary, self.echo, self.total, self.reporter = summary, echo, total, reporter
        self.closed: set[str] = set()
        self.count = 0
        # Submissions graded in parts: the parts not finished yet, and the time the finished ones took.
        self.pending_parts: dict[str, set[int]] = {}
        self.parts_time: dict[str, float] = {}

    def expect(self, tasks: Sequence[GradeTask]) -> None:
        """Note the parts that must all report "finished" before their submission is finalized."""
        for task in tasks:
            if task.part is not None:
                self.pending_parts.setdefault(task.name, set()).add(task.part)

    def handle(self, message: Message) -> None:
        if message.name in self.closed:
            return  # a duplicate (a Dask task run twice): already final
        name, key = message.name, message.submission_hash
        try:
            if isinstance(message, BuildDone):
                self.store.record_build(name, key, message.build)
            elif isinstance(message, CaseGraded):
                self.store.record_results(name, key, [message.result])
            elif isinstance(message, ChecksDone):
                self.store.record_checks(name, key, message.checks)
            elif isinstance(message, TaskFinished):
                self._task_finished(message)
            elif isinstance(message, TaskFailed):
                self.fail(name, key, message.error)
        except StaleResult as stale:
            self.echo(f"warning: ignored {stale}")

    def _task_finished(self, message: TaskFinished) -> None:
        if message.part is None:
            self.finalize(message.name, message.submission_hash, message.grading_s)
            return
        pending = self.pending_parts.get(message.name)
        if pending is None or message.part not in pending:
            return  # a duplicate of a part already counted (a Dask task run twice)
        pending.discard(message.part)
        self.parts_time[message.name] = self.parts_time.get(message.name, 0.0) + message.grading_s
        if not pending:
            del self.pending_parts[message.name]
            self.finalize(message.name, message.submission_hash, self.parts_time.pop(message.name))

    def fail(self, name: str, key: str, message: str) -> None:
        self.closed.add(name)
        self.store.mark_error(name, key, message)
        self.summary.errors.append(f"{name}: {message}")
        self.count += 1
        self.echo(f"[{self.count}/{self.total}] {name}: ERROR: {message}")

    def finalize(self, name: str, key: str, grading_s: float) -> None:
        row = self.store.submission(name)
        if row is None or row.submission_hash != key:
            return
        report = self.report(row)
        if row.build_ok is False:
            status = BUILD_FAILED
        else:
            stored = self.store.case_ids(name)
            missing = [c.id for c in self.cases if c.id not in stored]
            if missing:
                self.fail(name, key, f"{len(missing)} cases have no result (first: {missing[0]})")
                return
            status = DONE
        report.duration_s = round(row.grading_s + grading_s, 3)
        directory = self.out / name
        directory.mkdir(parents=True, exist_ok=True)
        self.reporter.submission(report, directory, row.build)
        counts: dict[str, int] = {v: 0 for v in VERDICTS}
        for result in report.results:
            counts[result.verdict.verdict] = counts.get(result.verdict.verdict, 0) + 1
        build_message = (row.build or {}).get("message", "")
        first = report.first_failure_line or ("" if status == DONE else f"build failed: {build_message}")
        self.store.finish(name, key, status=status, score=report.score, passed=report.passed,
                          failed=report.failed, counts=counts, first_failure=first,
                          run_time_s=round(sum(r.time_s for r in report.results), 3), grading_s=grading_s,
                          isolation=report.isolation or None, keep_case_ids=self.by_id)
        self.closed.add(name)
        self.summary.graded += 1
        self.count += 1
        if status == BUILD_FAILED:
            self.summary.build_failed += 1
            self.echo(f"[{self.count}/{self.total}] {name}: build failed: {build_message}")
        else:
            self.echo(f"[{self.count}/{self.total}] {name}: score {report.score:g}/100 "
                      f"({report.passed} passed, {report.failed} failed)")

    def report(self, row: SubmissionRow) -> GradeReport:
        """The submission's GradeReport, rebuilt from the store."""
        stored = self.store.results(row.name)
        results = [CaseResult.from_dict(case, stored[case.id]) for case in self.cases if case.id in stored]
        settings = self.settings
        kept = ("command", "lenient", "message", "log", "left_out")
        build: dict[str, Any] = {} if row.build is None else {k: row.build[k] for k in kept if k in row.build}
        cpu = settings.timeout or DEFAULT_CPU_S
        exercise = exercise_named(settings.exercise)
        return GradeReport(
            target=row.name,
            suite=settings.suite,
            seed=exercise.suite_seed(settings.seed),
            exercise=exercise.name,
            profile=settings.profile,
            limits=dataclasses.replace(Limits(), cpu_s=cpu, wall_s=wall_backstop(cpu)),
            isolation=results[0].isolation if results else "",
            results=results,
            checks=[ProjectCheck.from_dict(check) for check in row.checks or []],
            started_at=datetime.now(timezone.utc).isoformat(timespec="seconds"),
            duration_s=row.grading_s,
            build=build,
            score=score(results, exercise.weights, strict=settings.strict) if results else 0.0,
            first_failure_line=first_failure_line(results),
        )


def inside_the_jails_view(*paths: Path) -> str:
    """Why a path the batch reads or writes would be visible inside every jail (the
    system folders are bound read-only), or "" when none is."""
    for path in paths:
        real = os.path.realpath(path)
        folder = next((d for d in SYSTEM_DIRS if real == d or real.startswith(d + "/")), None)
        if folder is not None:
            return (f"{path} is inside {folder}, which every jail sees: put the submissions, the output "
                    "folder and the database elsewhere")
    return ""


def run_batch(folder: Path, options: BatchOptions, reporter: Reporter, echo: Echo = print) -> BatchSummary:
    """Grade every submission of `folder`; see the module docstring.

    Long (70 lines) because it is the batch's one sequence — refuse unsafe paths, make the
    private output folder, open the store, plan the tasks, run them, check the store's
    integrity — each step a call; keeping them in one place shows their order (nothing is
    written before the paths are checked; nothing is reported before the store is)."""
    if not folder.is_dir():
        raise BatchError(f"submissions folder {folder} does not exist or is not a folder")
    out = options.out
    db_path = options.db or out / "results.sqlite"
    settings = options.settings
    visible = inside_the_jails_view(folder, out, db_path)
    if visible:
        raise BatchError(visible)
    if options.scheduler is None:  # (on Dask, each worker checks its own jail)
        try:
            _, warning = choose_jail(settings.isolation, "cohort", settings.unsafe_no_jail)
        except JailRefused as refused:
            raise BatchError(str(refused)) from None
        if warning:
            echo(warning)
    out.mkdir(mode=0o700, parents=True, exist_ok=True)
    os.chmod(out, 0o700)  # the answers are in there: private (docs/SECURITY.md, "Outputs")
    try:
        cases = list(suite_cases(settings.exercise, settings.suite, settings.seed))
    except UnknownExercise as unknown:
        raise BatchError(str(unknown)) from None
    except KeyError:
        raise BatchError(f"unknown suite {settings.suite!r} of {settings.exercise}") from None
    digest = cases_digest(cases)
    config = config_key(settings, cases)
    submissions, ignored = discover(folder, exclude=[out, db_path])
    summary = BatchSummary(submissions=len(submissions), ignored=ignored)
    for line in ignored:
        echo(f"ignored {line}")
    store = Store(db_path)
    try:
        todo: list[list[GradeTask]] = []  # per submission: its task, or the parts of its cases
        parent = Parent(store, out, settings, cases, summary, echo, len(submissions), reporter)
        for sub in submissions:
            if store.is_current(sub.name, sub.submission_hash, config):
                summary.skipped += 1
                continue
            done = store.begin(sub.name, sub.submission_hash, config, sub.kind, len(cases))
            done &= parent.by_id.keys()
            if done:
                summary.resumed += 1
            row = store.submission(sub.name)
            needs_checks = sub.kind == REPOSITORY and settings.project_checks
            if len(done) == len(cases) and (not needs_checks or (row is not None and row.checks is not None)):
                parent.handle(TaskFinished(sub.name, sub.submission_hash, 0.0))
                continue
            task = GradeTask(sub.name, sub.kind, str(sub.path.resolve()), sub.submission_hash, settings,
                             digest, frozenset(done))
            todo.append(chunk_task(task, [case.id for case in cases], options.chunk_cases))
        if summary.skipped:
            echo(f"{summary.skipped} unchanged submissions already graded: skipped")
        if todo:
            # Chunks of neighbouring submissions interleave, so that the last tasks of the run
            # are short parts rather than one long submission keeping a single worker busy.
            tasks = interleave(todo, window=2 * max(1, options.jobs) if not options.scheduler else 8)
            parent.expect(tasks)
            if options.scheduler:
                from harness.batch.dask import run_dask  # (the optional dask dependency: imported when used)

                run_dask(options.scheduler, tasks, parent.handle, echo)
            else:
                names = {task.name for task in tasks}
                run_local(tasks, options.jobs, parent.handle, lambda: names - parent.closed,
                          lambda task, why: parent.fail(task.name, task.submission_hash, why))
        rows = [row for row in (store.submission(s.name) for s in submissions) if row is not None]
        summary.index, summary.csv = reporter.cohort(rows, out, f"{folder.name}: {settings.suite} suite")
        summary.integrity = store.integrity_check()
    finally:
        store.close()
    return summary
