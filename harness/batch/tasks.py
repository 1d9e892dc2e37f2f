"""The units of parallel work: a task grades a whole repository (build, cases, checks) or a
chunk of an executable's cases, so that one slow submission is spread over the workers.

    tasks = chunk_task(GradeTask(...), [case.id for case in cases])

A task is picklable and pure: the same task run twice (a Dask retry) gives the same
results, which the store keeps once. `config_key` names the settings that decide the
results: a different one means "grade again".
"""
from __future__ import annotations

import dataclasses
import functools
import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass

from generators.cases import Case
from harness.batch.discovery import BINARY, SubmissionKind
from harness.grading.exercise import exercise_named
from harness.grading.settings import GradeSettings
from harness.grading.suites import load_suite


def cases_digest(cases: Sequence[Case]) -> str:
    digest = hashlib.sha256()
    for case in cases:
        fields = [case.id, case.category, case.invocation, str(case.expected), "\x1f".join(case.accepted),
                  case.disputed or "", str(case.runs)]
        digest.update("\x1e".join(fields).encode("utf-8"))
        digest.update(b"\x1d" + (case.input if case.input is not None else b"\x00none"))
    return digest.hexdigest()


def config_key(settings: GradeSettings, cases: Sequence[Case]) -> str:
    """A stable text naming the grading settings; a different one means "grade again"."""
    return json.dumps({
        "exercise": settings.exercise, "suite": settings.suite, "seed": settings.seed, "timeout": settings.timeout,
        "profile": "strict" if settings.strict else "default", "lenient_build": settings.lenient_build,
        "project_checks": settings.project_checks, "cases": cases_digest(cases)[:16],
    }, sort_keys=True)


@functools.lru_cache(maxsize=4)
def suite_cases(exercise: str, suite: str, seed: int | None) -> tuple[Case, ...]:
    """The cases of an exercise's suite, generated once per process (workers ask often)."""
    return tuple(load_suite(suite, seed, exercise=exercise_named(exercise)))


@dataclass(frozen=True)
class GradeTask:
    """Work for one worker (picklable; `path` is local to the worker).

    A whole submission (`case_ids` None: every case not in `skip_case_ids`, plus the
    build and the project checks of a repository), or one chunk of an executable's
    cases (`case_ids` the ids to run, `part` its number): a submission is then graded
    by several tasks, possibly at the same time on different workers, and the parent
    finalizes it when every part has reported "finished".
    """

    name: str
    kind: SubmissionKind
    path: str
    submission_hash: str
    settings: GradeSettings
    cases_digest: str
    skip_case_ids: frozenset[str] = frozenset()
    case_ids: tuple[str, ...] | None = None
    part: int | None = None


# Cases per task when an executable is split (`chunk_task`): small enough that one slow
# submission (a 5 s timeout on every case of a category) is spread over the workers and
# the last tasks of a run are short; on the mutant zoo 4 gave 34 s at --jobs 2 where 8
# gave 39.6 s (63-64 s at --jobs 1 either way).
CHUNK_CASES = 4


def chunk_task(task: GradeTask, all_case_ids: Sequence[str], chunk_cases: int = CHUNK_CASES) -> list[GradeTask]:
    """`task` split into parts of about `chunk_cases` of its remaining cases.

    Repositories are not split (the build is needed first; they stay one task).  The
    cases are dealt out in strides (part k gets every n-th remaining case from the k-th),
    so the cases of one category -- often all slow together -- land in different parts.
    """
    remaining = [case_id for case_id in all_case_ids if case_id not in task.skip_case_ids]
    if task.kind != BINARY or chunk_cases <= 0 or len(remaining) <= chunk_cases:
        return [task]
    parts = -(-len(remaining) // chunk_cases)
    return [dataclasses.replace(task, case_ids=tuple(remaining[k::parts]), part=k) for k in range(parts)]


def interleave(groups: Sequence[Sequence[GradeTask]], window: int) -> list[GradeTask]:
    """The tasks of `groups` (one group per submission, in order), dealt round-robin over
    consecutive windows of `window` submissions: chunks of neighbouring submissions mix,
    while submissions still finish (and get their reports) progressively through the run."""
    ordered: list[GradeTask] = []
    window = max(1, window)
    for start in range(0, len(groups), window):
        block = [list(g) for g in groups[start:start + window]]
        for k in range(max((len(g) for g in block), default=0)):
            ordered.extend(g[k] for g in block if k < len(g))
    return ordered
