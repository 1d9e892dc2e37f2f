"""A worker's side of `grade batch`: grade one task, telling the parent each outcome as it
is known (harness.batch.messages). The same function runs in a local worker process and
on a Dask worker.

    grade_submission_safely(task, emit=queue.put)
"""
from __future__ import annotations

import contextlib
import signal
import time
import traceback
from pathlib import Path
from typing import Any

from generators.cases import Case
from harness.batch.discovery import REPOSITORY
from harness.batch.messages import BuildDone, CaseGraded, ChecksDone, Emit, TaskFailed, TaskFinished
from harness.batch.tasks import GradeTask, cases_digest, suite_cases
from harness.grading.exercise import exercise_named
from harness.grading.grade import grade_case_confirmed
from harness.grading.model import CaseResult, Verdict
from harness.jail import JailError
from harness.jail.policy import JailRefused, choose_jail
from harness.limits import Limits
from harness.project import Workspace, build_repository, leak_check_inputs, project_checks


def grade_submission(task: GradeTask, emit: Emit) -> None:
    """Build (repository mode) and grade one task; every outcome goes through `emit`. It is
    idempotent: running it twice sends the same results, which the store keeps once."""
    started = time.monotonic()
    name, key, settings = task.name, task.submission_hash, task.settings
    exercise = exercise_named(settings.exercise)
    cases = suite_cases(settings.exercise, settings.suite, settings.seed)
    if cases_digest(cases) != task.cases_digest:
        raise RuntimeError(f"this worker generates different cases for suite {settings.suite!r} "
                           "(is the same fillit-moulinette version installed everywhere?)")
    try:
        jail, _ = choose_jail(settings.isolation, "cohort", settings.unsafe_no_jail)
    except JailRefused as refused:
        raise JailError(f"on this worker: {refused}") from None
    wanted = [case for case in cases if case.id not in task.skip_case_ids
              and (task.case_ids is None or case.id in task.case_ids)]
    budget_end = started + settings.budget_s * len(wanted) / max(1, len(cases))
    with contextlib.ExitStack() as stack:
        build = workspace = None
        if task.kind == REPOSITORY:
            workspace = stack.enter_context(Workspace.create(jail))
            build = build_repository(Path(task.path), workspace, lenient=settings.lenient_build,
                                     timeout_s=settings.build_timeout_s)
            emit(BuildDone(name, key, build.summary()))
            if not build.ok or build.binary is None:
                emit(TaskFinished(name, key, time.monotonic() - started))
                return
            program = build.binary
        else:
            program = Path(task.path).resolve()
        for case in wanted:
            if time.monotonic() > budget_end:
                result = over_budget(case, settings.budget_s, jail.mode)
            else:
                result = grade_case_confirmed(program, case, Limits(), jail, settings.strict, settings.timeout,
                                              exercise)
            if not result.verdict.graded:  # the jail failed: the submission is an error, rerun resumes
                raise JailError(f"case {case.id}: {result.verdict.message}")
            emit(CaseGraded(name, key, result))
        if build is not None and workspace is not None and settings.project_checks and exercise.project_checks:
            checks = project_checks(build, workspace, sample_inputs=leak_check_inputs(cases))
            emit(ChecksDone(name, key, tuple(checks)))
    emit(TaskFinished(name, key, time.monotonic() - started, task.part))


def over_budget(case: Case, budget_s: float, isolation: str) -> CaseResult:
    return CaseResult(case=case, verdict=Verdict("TIMEOUT", "budget", f"not run: the submission used up its time "
                                                                      f"budget of {budget_s:g} s"),
                      actual="", stderr="", time_s=0.0, cpu_s=0.0, max_rss_kb=0, exit_code=None, signal=None,
                      isolation=isolation, time_limit_s=0.0)


def grade_submission_safely(task: GradeTask, emit: Emit) -> None:
    """`grade_submission`, turning the harness's own failure into a TaskFailed message."""
    try:
        grade_submission(task, emit)
    except Exception as error:  # reported per submission; the rest of the cohort goes on
        last = traceback.format_exception_only(type(error), error)[-1].strip()
        emit(TaskFailed(task.name, task.submission_hash, last))


# A local worker process's queue to the parent: set once per worker process by the pool's
# initializer (a process-wide value, by the design of ProcessPoolExecutor initializers).
_worker_queue: Any = None


def init_local_worker(message_queue: Any) -> None:
    global _worker_queue
    _worker_queue = message_queue
    # Ctrl-C reaches the whole process group: the parent decides (it stops the workers).
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def local_task(task: GradeTask) -> str:
    grade_submission_safely(task, _worker_queue.put)
    return task.name
