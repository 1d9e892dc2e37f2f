"""Grade one fillit executable on a list of cases: run each in the sandbox, check it.

    report = grade_binary(Path("./fillit"), load_suite("quick"))
    print(report.score, report.first_failure_line)
"""
from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timezone
from pathlib import Path

from generators.cases import Case
from generators.corpus import STANDARD_SEED
from harness.checker import check, decode
from harness.limits import Limits
from harness.model import CaseResult, GradeReport
from harness.runner import RunFile, RunResult, available_isolation, run
from harness.scoring import first_failure_line, score
from harness.suites import DEFAULT_WALL_S, wall_limit

INPUT_NAME = "input.fillit"
# Text kept from a program's stdout/stderr in a result (the runner caps what it reads).
KEPT_CHARS = 16 * 1024

Progress = Callable[[CaseResult], None]


def invocation(case: Case) -> tuple[list[str], list[RunFile]]:
    """Command-line arguments and run-directory files for a case."""
    content = case.input if case.input is not None else b""
    if case.invocation == "file":
        return [INPUT_NAME], [RunFile(INPUT_NAME, content)]
    if case.invocation == "no_args":
        return [], []
    if case.invocation == "two_args":
        return [INPUT_NAME, INPUT_NAME], [RunFile(INPUT_NAME, content)]
    if case.invocation == "three_args":
        return [INPUT_NAME] * 3, [RunFile(INPUT_NAME, content)]
    if case.invocation == "missing_file":
        return ["missing.fillit"], []
    if case.invocation == "empty_path":
        return [""], []
    if case.invocation == "directory":
        return ["folder.fillit"], [RunFile("folder.fillit", None, 0o755)]
    if case.invocation == "unreadable":
        return [INPUT_NAME], [RunFile(INPUT_NAME, content, 0o000)]
    raise ValueError(f"unknown invocation {case.invocation!r}")


def grade_case(program: Path, case: Case, limits: Limits, isolation: str = "auto",
               strict: bool = False, timeout: float | None = None) -> CaseResult:
    """Run `case` (as many times as it asks) and check the output.

    The wall limit comes from the case's category unless `timeout` overrides it;
    the CPU limit never undercuts the wall limit (a single-threaded solver that
    computes the whole time must hit the wall limit, not a smaller CPU one).
    """
    args, files = invocation(case)
    wall = wall_limit(case, timeout)
    case_limits = dataclasses.replace(limits, wall_s=wall, cpu_s=max(limits.cpu_s, wall))
    runs: list[RunResult] = []
    for _ in range(case.runs):
        result = run(program, args, files, case_limits, isolation)
        runs.append(result)
        if result.limit or result.signal:
            break  # a killed or crashed run decides the verdict; do not repeat it
    last = runs[-1]
    return CaseResult(
        case=case,
        verdict=check(case, runs, strict=strict),
        actual=decode(last.stdout[:KEPT_CHARS]),
        stderr=decode(last.stderr[:KEPT_CHARS]),
        time_s=last.wall_s,
        cpu_s=last.cpu_s,
        max_rss_kb=last.max_rss_kb,
        exit_code=last.exit_code,
        signal=last.signal,
        isolation=last.isolation,
        time_limit_s=case_limits.wall_s,
    )


def grade_binary(
    program: Path,
    cases: Sequence[Case],
    *,
    limits: Limits = Limits(),
    jobs: int = 2,
    isolation: str = "auto",
    strict: bool = False,
    timeout: float | None = None,
    suite: str = "custom",
    seed: int = STANDARD_SEED,  # the seed `cases` came from (load_suite's default is this one)
    target: str | None = None,
    progress: Progress | None = None,
) -> GradeReport:
    """Grade `program` on `cases`, `jobs` at a time; results keep the order of `cases`."""
    started = datetime.now(timezone.utc)
    clock = time.monotonic()
    used_isolation = available_isolation() if isolation == "auto" else isolation

    def one(case: Case) -> CaseResult:
        result = grade_case(program, case, limits, used_isolation, strict, timeout)
        if progress is not None:
            progress(result)
        return result

    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        results = list(pool.map(one, cases))
    return GradeReport(
        target=target or str(program),
        suite=suite,
        seed=seed,
        profile="strict" if strict else "default",
        # The limits as applied: the wall limit shown is the default per case
        # (or the --timeout override); each result records its own.
        limits=dataclasses.replace(limits, wall_s=timeout if timeout is not None else DEFAULT_WALL_S),
        isolation=used_isolation,
        results=results,
        started_at=started.isoformat(timespec="seconds"),
        duration_s=round(time.monotonic() - clock, 3),
        score=score(results, strict=strict),
        first_failure_line=first_failure_line(results),
    )
