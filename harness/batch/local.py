"""Grading tasks on local worker processes; their messages come back through one queue to
the parent, which writes them (harness.batch.parent)."""
from __future__ import annotations

import multiprocessing
import queue as queue_module
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ProcessPoolExecutor

from harness.batch.messages import Message
from harness.batch.tasks import GradeTask
from harness.batch.worker import init_local_worker, local_task

POLL_S = 0.2


def run_local(tasks: Sequence[GradeTask], jobs: int, handle: Callable[[Message], None],
              open_names: Callable[[], set[str]], fail: Callable[[GradeTask, str], None]) -> None:
    """Grade `tasks` on `jobs` worker processes, feeding every message to `handle` until
    no submission is open any more (`open_names`); a worker that died without a word is
    reported through `fail`."""
    context = multiprocessing.get_context("spawn")
    messages = context.Queue()
    pool = ProcessPoolExecutor(max_workers=max(1, min(jobs, len(tasks))), mp_context=context,
                               initializer=init_local_worker, initargs=(messages,))
    try:
        futures: dict[Future, GradeTask] = {pool.submit(local_task, task): task for task in tasks}
        broken_since: dict[str, float] = {}
        while open_names():
            try:
                handle(messages.get(timeout=POLL_S))
            except queue_module.Empty:
                pass
            # A worker that died without a word (killed, out of memory): its task's future
            # fails; give the queue a moment to deliver what it did send.
            now = time.monotonic()
            still_open = open_names()
            for future, task in futures.items():
                if task.name in still_open and future.done() and future.exception() is not None:
                    since = broken_since.setdefault(task.name, now)
                    if now - since > 2.0:
                        error = future.exception()
                        fail(task, f"worker process died: {type(error).__name__}: {error}")
    except BaseException:
        # Interrupted (Ctrl-C) or the store failed: stop the workers now; what is stored
        # stays stored, and rerunning the command resumes.
        workers = list((getattr(pool, "_processes", None) or {}).values())
        pool.shutdown(wait=False, cancel_futures=True)
        for process in workers:
            process.terminate()
        for process in workers:
            process.join(timeout=5)
        raise
    else:
        pool.shutdown(wait=True)
    finally:
        messages.close()
