"""Grade one executable on a list of an exercise's cases: run each in the jail, check it.

    fillit = exercise_named("fillit")
    report = grade_binary(Path("./fillit"), load_suite(fillit, "quick"), exercise=fillit)
    print(report.score, report.first_failure_line)

How a case's input reaches the program is the exercise's (`Exercise.invocation`): a file
argument (fillit: `./fillit input.fillit`) or standard input (`./solver < input.txt`);
a case's own invocation still says when it means otherwise (no argument, two, a
missing file...: the command-line contract cases).

A case's time limit is CPU time (every process of the run together), so the verdict
does not depend on how busy the machine is; wall time is only a backstop
(`wall_backstop`). When the jail itself fails the case gets HARNESS_ERROR: never
scored against the program (the CLI then exits 2).
"""
from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

from generators.cases import Case
from harness.grading.checker import decode
from harness.grading.exercise import Exercise, exercise_named
from harness.jail import Jail, JailError, RunResult, detect_jail
from harness.limits import Limits
from harness.grading.model import CaseResult, GradeReport, Verdict
from harness.runner import NORMAL_ENV, RUN_ENV, RunFile, run
from harness.grading.scoring import first_failure_line, score
from harness.grading.second_look import (confirm_timeouts, crash_context, memcheck_first_error, rerun_verdict,
                                         with_memcheck)
from harness.grading.suites import DEFAULT_CPU_S, cpu_limit

# Text kept from a program's stdout/stderr in a result (the runner caps what it reads).
KEPT_CHARS = 16 * 1024

Progress = Callable[[CaseResult], None]
Started = Callable[[Case], None]


@dataclass(frozen=True)
class Invocation:
    """How one case is run: arguments, files in the run folder, standard input."""

    args: list[str]
    files: list[RunFile]
    stdin: bytes | None = None  # None: /dev/null


def invocation(case: Case, exercise: Exercise) -> Invocation:
    """The command-line arguments, run-folder files and standard input of a case."""
    content = case.input if case.input is not None else b""
    name, suffix = exercise.input_name, exercise.input_suffix
    if case.invocation == "file":
        if exercise.invocation == "stdin":
            return Invocation([], [], content)
        return Invocation([name], [RunFile(name, content)])
    if case.invocation == "no_args":
        return Invocation([], [])
    if case.invocation == "two_args":
        return Invocation([name, name], [RunFile(name, content)])
    if case.invocation == "three_args":
        return Invocation([name] * 3, [RunFile(name, content)])
    if case.invocation == "missing_file":
        return Invocation([f"missing{suffix}"], [])
    if case.invocation == "empty_path":
        return Invocation([""], [])
    if case.invocation == "directory":
        return Invocation([f"folder{suffix}"], [RunFile(f"folder{suffix}", None, 0o755)])
    if case.invocation == "unreadable":
        return Invocation([name], [RunFile(name, content, 0o000)])
    raise ValueError(f"unknown invocation {case.invocation!r}")


def wall_backstop(cpu_s: float) -> float:
    """The wall-clock limit beside a CPU limit: generous, since a loaded machine stretches
    wall time but not CPU time; it only stops a program that sleeps or waits."""
    return 3.0 * cpu_s + 2.0


def grade_case(program: Path, case: Case, limits: Limits, jail: Jail | None = None,
               strict: bool = False, timeout: float | None = None, exercise: Exercise | None = None) -> CaseResult:
    """Run `case` (as many times as it asks) and check the output (`exercise.check`; the
    default exercise when None).

    The CPU limit comes from the case's category unless `timeout` overrides it."""
    jail = jail or detect_jail()
    exercise = exercise or exercise_named()
    how = invocation(case, exercise)
    cpu = cpu_limit(case, timeout)
    case_limits = dataclasses.replace(limits, cpu_s=cpu, wall_s=wall_backstop(cpu))

    def once(env: Mapping[str, str] = RUN_ENV) -> RunResult:
        return run(program, how.args, how.files, case_limits, jail, env=env, stdin=how.stdin)

    runs: list[RunResult] = []
    try:
        for _ in range(case.runs):
            result = once()
            runs.append(result)
            if result.limit or result.signal:
                break  # a killed or crashed run decides the verdict; do not repeat it
        verdict = rerun_verdict(exercise, case, runs, once, strict)
        if verdict.verdict == "TIMEOUT" and verdict.diagnosis == "wall":  # (the backstop applied: reports show it)
            verdict = dataclasses.replace(verdict, details={**verdict.details, "wall_limit_s": case_limits.wall_s})
        if verdict.verdict == "CRASH" and verdict.diagnosis != "memory_limit":
            command = [f"./{program.name}", *how.args] + ([f"< {exercise.input_name}"] if how.stdin is not None else [])
            verdict = crash_context(verdict, case, command, once(NORMAL_ENV))
            verdict = with_memcheck(verdict, memcheck_first_error(program, how.args, how.files, case_limits, jail,
                                                                     how.stdin))
    except JailError as error:
        return harness_error(case, str(error), case_limits, jail)
    last = runs[-1]
    return CaseResult(
        case=case,
        verdict=verdict,
        actual=decode(last.stdout[:KEPT_CHARS]),
        stderr=decode(last.stderr[:KEPT_CHARS]),
        time_s=last.wall_s,
        cpu_s=last.cpu_s,
        max_rss_kb=last.max_rss_kb,
        exit_code=last.exit_code,
        signal=last.signal,
        isolation=last.isolation,
        time_limit_s=case_limits.cpu_s,
    )


def grade_case_confirmed(program: Path, case: Case, limits: Limits, jail: Jail | None = None,
                         strict: bool = False, timeout: float | None = None,
                         exercise: Exercise | None = None) -> CaseResult:
    """`grade_case`, and a TIMEOUT run once more then explained (harness.grading.second_look):
    for callers that grade case by case (a batch worker, the pytest plugin)."""
    jail = jail or detect_jail()
    exercise = exercise or exercise_named()
    result = grade_case(program, case, limits, jail, strict, timeout, exercise)
    if result.verdict.verdict != "TIMEOUT":
        return result
    return confirm_timeouts([result], lambda again: grade_case(program, again, limits, jail, strict, timeout, exercise),
                            _explainer(exercise, jail))[0]


def _explainer(exercise: Exercise, jail: Jail) -> Callable[[CaseResult], CaseResult]:
    """What a confirmed TIMEOUT means, as the exercise explains it (or as it stands)."""
    explain = exercise.explain_timeout
    return (lambda result: result) if explain is None else (lambda result: explain(result, jail))


def harness_error(case: Case, message: str, limits: Limits, jail: Jail) -> CaseResult:
    """The case could not be run because the harness failed: not the program's verdict."""
    return CaseResult(case=case, verdict=Verdict("HARNESS_ERROR", "jail", message), actual="", stderr="",
                      time_s=0.0, cpu_s=0.0, max_rss_kb=0, exit_code=None, signal=None, isolation=jail.mode,
                      time_limit_s=limits.cpu_s)


def grade_binary(
    program: Path,
    cases: Sequence[Case],
    *,
    limits: Limits = Limits(),
    jobs: int = 2,
    jail: Jail | None = None,
    strict: bool = False,
    timeout: float | None = None,
    suite: str = "custom",
    seed: int | None = None,  # the seed `cases` came from (None: the exercise's fixed seed)
    exercise: Exercise | None = None,  # None: the default exercise
    target: str | None = None,
    progress: Progress | None = None,
    on_start: Started | None = None,
) -> GradeReport:
    """Grade `program` on `cases`, `jobs` at a time; results keep the order of `cases`.

    `on_start(case)` is called when a case begins, `progress(result)` when it ends."""
    started = datetime.now(timezone.utc)
    clock = time.monotonic()
    jail = jail or detect_jail()
    graded = exercise or exercise_named()

    def one(case: Case) -> CaseResult:
        if on_start is not None:
            on_start(case)
        result = grade_case(program, case, limits, jail, strict, timeout, graded)
        if progress is not None:
            progress(result)
        return result

    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        results = list(pool.map(one, cases))
    # Every TIMEOUT again, alone (nothing else of this grade running), then explained.
    results = confirm_timeouts(results, lambda case: grade_case(program, case, limits, jail, strict, timeout, graded),
                               _explainer(graded, jail))
    return GradeReport(
        target=target or str(program),
        suite=suite,
        seed=graded.suite_seed(seed),
        exercise=graded.name,
        profile="strict" if strict else "default",
        # The limits as applied: the wall limit shown is the default per case
        # (or the --timeout override); each result records its own.
        limits=dataclasses.replace(limits, cpu_s=timeout if timeout is not None else DEFAULT_CPU_S,
                                   wall_s=wall_backstop(timeout if timeout is not None else DEFAULT_CPU_S)),
        isolation=jail.describe(),
        results=results,
        started_at=started.isoformat(timespec="seconds"),
        duration_s=round(time.monotonic() - clock, 3),
        score=score(results, graded.weights, strict=strict),
        first_failure_line=first_failure_line(results),
    )
