"""Second looks at a failed case before its verdict is final: what a student needs to act
on it, measured on this run (never guessed).

* WRONG, or output with characters a right answer never holds (`Exercise.output_chars`;
  fillit: `.`, `A`-`Z`, newlines): the case runs again; two different outputs make it
  `nondeterministic`, both outputs shown.
* CRASH: the case runs again with a normal environment (PATH, HOME, LANG, TERM...); a
  crash that goes away says "crashes only with an empty environment: the program
  probably reads uninitialised memory". The exact command and environment are kept, and
  when valgrind is installed the first memcheck error of the crashing run, with its stack.
* TIMEOUT (after every case, one at a time: `confirm_timeouts`): the case runs again
  alone, so a TIMEOUT is never the result of a busy machine; then the exercise explains
  it (`Exercise.explain_timeout`; fillit times the seed's plain backtracking on the same
  file, under the same CPU limit: exercises/fillit/timeouts.py).
"""
from __future__ import annotations

import dataclasses
import shutil
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path

from generators.cases import Case
from harness.grading.exercise import Exercise
from harness.jail import Jail, JailError, RunResult
from harness.jail.bwrap import which_in_jail
from harness.limits import Limits
from harness.grading.memcheck import MEMCHECK_OPTIONS, compact_error, parse_log
from harness.grading.model import CaseResult, Verdict
from harness.runner import RUN_ENV, RunFile, run

# Confirming costs a CPU limit per TIMEOUT: every wall-backstop TIMEOUT is rerun (the wall
# clock depends on the machine's load), CPU ones up to this many (CPU time does not).
CONFIRM_CPU_TIMEOUTS = 6
VALGRIND_SLOWDOWN = 20  # memcheck runs a program 10-50 times slower: its CPU limit, that much higher


def _worth_a_second_run(verdict: Verdict, run: RunResult, output_chars: str | None) -> bool:
    """A WRONG output, or one with characters a right answer never holds (the exercise's
    `output_chars`), from a run that ended by itself: a second run tells a nondeterministic
    program from a wrong one."""
    if run.limit is not None or run.signal is not None or verdict.diagnosis == "nondeterministic":
        return False
    if verdict.verdict == "WRONG":
        return True
    return output_chars is not None and not set(run.stdout.decode("utf-8", errors="replace")) <= set(output_chars)


def crash_context(verdict: Verdict, case: Case, command: Sequence[str], normal_env_run: RunResult) -> Verdict:
    """The CRASH verdict with its reproduction and what a run with a normal environment did."""
    details = {**verdict.details, "command": " ".join(command), "environment": dict(RUN_ENV)}
    if normal_env_run.signal == verdict.diagnosis:
        details["with_normal_environment"] = "crashed the same way"
        return dataclasses.replace(verdict, details=details)
    details["with_normal_environment"] = (f"no crash (exit status {normal_env_run.exit_code})"
                                          if normal_env_run.signal is None else f"died with {normal_env_run.signal}")
    message = (f"{verdict.message}, but only with the harness's near-empty environment (env -i; "
               f"{' '.join(f'{k}={v}' for k, v in RUN_ENV.items())}): with a normal one it "
               f"{details['with_normal_environment']}. The program probably reads uninitialised memory "
               "(valgrind shows where)")
    return dataclasses.replace(verdict, message=message, details=details)


def memcheck_first_error(program: Path, args: Sequence[str], files: Sequence[RunFile], limits: Limits,
                         jail: Jail, stdin: bytes | None = None) -> str | None:
    """The first memory error valgrind memcheck reports on this run of the program, with
    its stack on one line; None without valgrind, or when it reports none."""
    valgrind = which_in_jail("valgrind")
    if valgrind is None:
        return None
    folder = Path(tempfile.mkdtemp(prefix="fillit-memcheck-"))  # root's, 0700: never in the jail
    try:
        log = folder / "valgrind.log"
        grind = dataclasses.replace(limits, address_space_bytes=None, cpu_s=limits.cpu_s * VALGRIND_SLOWDOWN,
                                    wall_s=3 * limits.cpu_s * VALGRIND_SLOWDOWN + 2)
        run(program, args, files, grind, jail, stdin=stdin, wrapper=[valgrind, *MEMCHECK_OPTIONS], side_output=log)
        _, facts = parse_log(log.read_text(errors="replace") if log.exists() else "", killed=True)
    except (JailError, OSError):
        return None
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    if not facts.first_error:
        return None
    line, _ = compact_error(facts.first_error, f"/grade/work/{program.name}")
    return line


def with_memcheck(verdict: Verdict, first_error: str | None) -> Verdict:
    if first_error is None:
        return verdict
    return dataclasses.replace(verdict, message=f"{verdict.message}. valgrind: {first_error}",
                               details={**verdict.details, "memcheck_first_error": first_error})


def confirm_timeouts(results: list[CaseResult], regrade: Callable[[Case], CaseResult],
                     explain: Callable[[CaseResult], CaseResult]) -> list[CaseResult]:
    """Every TIMEOUT run again alone (wall ones always, CPU ones up to CONFIRM_CPU_TIMEOUTS
    while they keep being confirmed), then explained. Results keep their order."""
    confirmed_cpu = 0
    out = []
    for result in results:
        verdict = result.verdict
        if verdict.verdict != "TIMEOUT" or verdict.diagnosis not in ("cpu", "wall"):
            out.append(result)
            continue
        if verdict.diagnosis == "cpu" and confirmed_cpu >= CONFIRM_CPU_TIMEOUTS:
            details = {**verdict.details, "confirmed": False,
                       "why_not": f"the first {CONFIRM_CPU_TIMEOUTS} CPU-limit timeouts were all confirmed alone"}
            out.append(explain(dataclasses.replace(result, verdict=dataclasses.replace(verdict, details=details))))
            continue
        again = regrade(result.case)
        if again.verdict.verdict != "TIMEOUT":
            note = {**again.verdict.details, "first_run": f"TIMEOUT ({verdict.diagnosis}) while other cases ran"}
            out.append(dataclasses.replace(again, verdict=dataclasses.replace(again.verdict, details=note)))
            continue
        confirmed_cpu += again.verdict.diagnosis == "cpu"
        details = {**again.verdict.details, "confirmed": True, "first_cpu_s": result.cpu_s}
        out.append(explain(dataclasses.replace(again, verdict=dataclasses.replace(again.verdict, details=details))))
    return out


def rerun_verdict(exercise: Exercise, case: Case, runs: list[RunResult], again: Callable[[], RunResult],
                  strict: bool) -> Verdict:
    """The verdict of `runs`, after one more run when it is WRONG (see the module doc)."""
    verdict = exercise.check(case, runs, strict)
    if len(runs) == 1 and _worth_a_second_run(verdict, runs[0], exercise.output_chars):
        runs.append(again())
        verdict = exercise.check(case, runs, strict)
    return verdict
