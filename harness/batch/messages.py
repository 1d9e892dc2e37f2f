"""What a worker tells the parent about a task, one message per event, in this order: the
build (repository mode), each case result as soon as it is known, the project checks,
then the end of the task — or a failure of the harness. Plain frozen records: they travel
through a multiprocessing queue or back from a Dask task (pickled). And what the batch
tells its user: progress lines (`Echo`), or that it cannot run at all (`BatchError`)."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from harness.grading.model import CaseResult, ProjectCheck


@dataclass(frozen=True)
class BuildDone:
    name: str
    submission_hash: str
    build: dict[str, Any]  # BuildResult.summary()


@dataclass(frozen=True)
class CaseGraded:
    name: str
    submission_hash: str
    result: CaseResult


@dataclass(frozen=True)
class ChecksDone:
    name: str
    submission_hash: str
    checks: tuple[ProjectCheck, ...]


@dataclass(frozen=True)
class TaskFinished:
    name: str
    submission_hash: str
    grading_s: float
    part: int | None = None  # a chunk of an executable's cases; None: the whole submission


@dataclass(frozen=True)
class TaskFailed:
    """The harness could not grade the submission (never the program's fault)."""

    name: str
    submission_hash: str
    error: str


Message = BuildDone | CaseGraded | ChecksDone | TaskFinished | TaskFailed
Emit = Callable[[Message], None]
Echo = Callable[[str], None]


class BatchError(Exception):
    """The batch cannot run at all (bad folder, unusable database, unreachable scheduler)."""
