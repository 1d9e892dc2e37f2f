"""Grade a cohort on Dask distributed workers (`grade batch DIR --scheduler tcp://HOST:8786`).

Each task (a repository, or a chunk of an executable's cases, as for local workers:
`harness.batch.tasks.chunk_task`) travels to a worker with its submission as tar.gz bytes
(workers need no shared filesystem); the worker unpacks it into a private temporary
folder and runs the same `harness.batch.worker.grade_submission` as a local worker process,
collecting its messages (build, one row per case, checks, finished) into a list that
is the task's result.  The client writes those rows into the same SQLite store as
each future completes (`as_completed`), and finalizes a submission when all its
chunks are in.

Tasks are pure: the key is derived from the submission's hash, the grading
settings, the cases already stored and the chunk's case ids, and running one twice
gives the same rows (the store keeps each (submission, case) once).  When a worker is lost, the
scheduler reschedules its tasks on the remaining workers; a task that raises is
retried twice (``retries=2``) before its submission is marked as an error.

Requires the ``dask`` extra (``pip install 'fillit-moulinette[dask]'``) on the
client and on every worker, with the same fillit-moulinette version: a worker whose
suite generates different cases refuses the task.
"""
from __future__ import annotations

import dataclasses
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path

from harness.batch.archive import archive, extract
from harness.batch.messages import BatchError, Echo, Message, TaskFailed
from harness.batch.tasks import GradeTask
from harness.batch.worker import grade_submission

RETRIES = 2
CONNECT_TIMEOUT_S = 15


def grade_archive(task: GradeTask, data: bytes) -> list[Message]:
    """Worker side: unpack the submission, grade it, return every message it produced."""
    messages: list[Message] = []
    with tempfile.TemporaryDirectory(prefix="grade-dask-") as scratch:
        path = extract(data, Path(scratch))
        grade_submission(dataclasses.replace(task, path=str(path)), messages.append)
    return messages


def task_key(task: GradeTask) -> str:
    from dask.base import tokenize

    token = tokenize(task.submission_hash, task.settings, task.cases_digest, sorted(task.skip_case_ids),
                     task.case_ids, task.part)
    part = "" if task.part is None else f"-part{task.part}"
    return f"fillit-grade-{task.name}{part}-{token}"


def run_dask(address: str, tasks: Sequence[GradeTask], handle: Callable[[Message], None], echo: Echo) -> None:
    """Submit every task to the scheduler at `address`; feed each result to `handle` as it comes."""
    try:
        from distributed import Client, as_completed
    except ImportError:
        raise BatchError("--scheduler needs Dask: pip install -e '.[dask]' (from a clone)") from None
    try:
        client = Client(address, timeout=CONNECT_TIMEOUT_S)
    except (OSError, TimeoutError) as error:
        raise BatchError(f"cannot reach the Dask scheduler at {address}: {error}") from None
    try:
        workers = client.scheduler_info().get("workers", {})
        echo(f"grading {len({task.name for task in tasks})} submissions ({len(tasks)} tasks) on Dask at "
             f"{address} ({len(workers)} workers)")
        futures = {}
        archives: dict[str, bytes] = {}  # the parts of a submission share its archive
        for task in tasks:
            data = archives.get(task.name)
            if data is None:
                data = archives[task.name] = archive(Path(task.path))
            remote = dataclasses.replace(task, path="")  # the client's path means nothing on a worker
            future = client.submit(grade_archive, remote, data, key=task_key(task), pure=True, retries=RETRIES)
            futures[future] = task
        for future in as_completed(list(futures)):
            task = futures[future]
            try:
                messages = future.result()
            except Exception as error:  # the task failed on every try (or its workers kept dying)
                handle(TaskFailed(task.name, task.submission_hash, f"Dask task failed: {type(error).__name__}: {error}"))
                continue
            for message in messages:
                handle(message)
            future.release()
    finally:
        client.close()
