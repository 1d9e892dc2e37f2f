"""What `grade` shows while cases run: a bar on a terminal, and the case it is waiting on.

On a terminal: a progress bar with the passed/failed counts; once a case has run longer
than SLOW_AFTER_S a line under it names the case ("waiting on hard/x (4 s, limit 20 s)"),
so a bar that stops moving says why.  Elsewhere (a pipe, a CI log) there is no bar, but one plain
line on stderr for each case that runs long, so a log never sits silent without a reason.
"""
from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from types import TracebackType

from rich.console import Console, RenderableType
from rich.progress import BarColumn, MofNCompleteColumn, Progress, ProgressColumn, TextColumn, TimeElapsedColumn, TaskID
from rich.text import Text

from generators.cases import Case
from harness.grading.model import CaseResult

# A case that runs longer than this is named (the standard cases take milliseconds).
SLOW_AFTER_S = 2.0
_POLL_S = 0.25

WallLimit = Callable[[Case], float]


class _Running:
    """The cases being graded now and when each began (graded from several threads)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._since: dict[str, tuple[Case, float]] = {}

    def start(self, case: Case) -> None:
        with self._lock:
            self._since[case.id] = (case, time.monotonic())

    def finish(self, case_id: str) -> None:
        with self._lock:
            self._since.pop(case_id, None)

    def slow(self, after_s: float) -> list[tuple[Case, float]]:
        """(case, seconds running) of the cases running longer than `after_s`, longest first."""
        now = time.monotonic()
        with self._lock:
            running = [(case, now - since) for case, since in self._since.values()]
        return sorted((item for item in running if item[1] > after_s), key=lambda item: -item[1])


def _waiting_text(case: Case, seconds: float, limit_s: float) -> str:
    return f"waiting on {case.id} ({seconds:.0f} s, limit {limit_s:g} s)"


class _Bar(Progress):
    """The progress bar, and under it the longest-running case once it runs longer than
    SLOW_AFTER_S (a line of its own: a case id does not fit beside an 80-column bar)."""

    def __init__(self, *columns: ProgressColumn, running: _Running, cpu_limit: WallLimit, **options) -> None:
        self._running, self._wall_limit = running, cpu_limit  # before Progress, which may render
        super().__init__(*columns, **options)

    def get_renderables(self) -> Iterator[RenderableType]:
        yield self.make_tasks_table(self.tasks)
        slow = self._running.slow(SLOW_AFTER_S)
        if slow:
            case, seconds = slow[0]
            more = f" (and {len(slow) - 1} more case(s) running long)" if len(slow) > 1 else ""
            yield Text(_waiting_text(case, seconds, self._wall_limit(case)) + more, style="yellow",
                       no_wrap=True, overflow="ellipsis")


class GradeProgress:
    """Use as a context manager around the run; pass `started` and `finished` to grade_binary."""

    def __init__(self, console: Console, total: int, cpu_limit: WallLimit) -> None:
        self._console, self._wall_limit = console, cpu_limit
        self._running = _Running()
        self._counts = {"passed": 0, "failed": 0}
        self._bar: Progress | None = None
        self._task: TaskID | None = None
        self._stop = threading.Event()
        self._watcher: threading.Thread | None = None
        self._total = total

    def __enter__(self) -> GradeProgress:
        if self._console.is_terminal:
            columns = (TextColumn("[bold]grading"), BarColumn(), MofNCompleteColumn(),
                       TextColumn("[green]{task.fields[passed]} passed [red]{task.fields[failed]} failed"),
                       TimeElapsedColumn())
            self._bar = _Bar(*columns, running=self._running, cpu_limit=self._wall_limit, console=self._console,
                             transient=True)
            self._bar.__enter__()
            self._task = self._bar.add_task("grading", total=self._total, passed=0, failed=0)
        else:
            self._watcher = threading.Thread(target=self._announce_slow_cases, name="grade-progress", daemon=True)
            self._watcher.start()
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self._stop.set()
        if self._watcher is not None:
            self._watcher.join()
        if self._bar is not None:
            self._bar.__exit__(kind, error, trace)

    def started(self, case: Case) -> None:
        self._running.start(case)

    def finished(self, result: CaseResult) -> None:
        self._running.finish(result.case.id)
        self._counts["passed" if result.passed else "failed"] += 1
        if self._bar is not None and self._task is not None:
            self._bar.update(self._task, advance=1, passed=self._counts["passed"], failed=self._counts["failed"])

    def _announce_slow_cases(self) -> None:
        announced: set[str] = set()
        while not self._stop.wait(_POLL_S):
            for case, seconds in self._running.slow(SLOW_AFTER_S):
                if case.id not in announced:
                    announced.add(case.id)
                    self._console.print(_waiting_text(case, seconds, self._wall_limit(case)),
                                        markup=False, highlight=False, soft_wrap=True)
