"""Second looks at a failed case before its verdict is final: what a student needs to act
on it, measured on this run (never guessed).

* WRONG, or output with characters other than `.`, `A`-`Z` and newlines: the case runs
  again; two different outputs make it `nondeterministic`, both outputs shown.
* CRASH: the case runs again with a normal environment (PATH, HOME, LANG, TERM...); a
  crash that goes away says "crashes only with an empty environment: the program
  probably reads uninitialised memory". The exact command and environment are kept, and
  when valgrind is installed the first memcheck error of the crashing run, with its stack.
* TIMEOUT (after every case, one at a time: `confirm_timeouts`): the case runs again
  alone, so a TIMEOUT is never the result of a busy machine; on a valid file the seed's
  plain backtracking (reference/plain_fillit.c) is timed on the same file, under the
  same CPU limit, to say what the timeout means.
"""
from __future__ import annotations

import dataclasses
import math
import re
import shutil
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path

from generators.cases import SPEED, Case
from harness.grading.checker import check
from harness.jail import Jail, JailError, RunResult
from harness.jail.bwrap import which_in_jail
from harness.jail.native import CompileError, compiled
from harness.limits import Limits
from harness.grading.memcheck import MEMCHECK_OPTIONS, compact_error, parse_log
from harness.grading.model import CaseResult, Verdict
from harness.runner import RUN_ENV, RunFile, run
from reference.parser import parse
from reference.plain import PLAIN_C_SOURCE

# Confirming costs a CPU limit per TIMEOUT: every wall-backstop TIMEOUT is rerun (the wall
# clock depends on the machine's load), CPU ones up to this many (CPU time does not).
CONFIRM_CPU_TIMEOUTS = 6
# A plain search this much faster than the limit "answers the file at once".
INSTANT_SHARE = 0.1
VALGRIND_SLOWDOWN = 20  # memcheck runs a program 10-50 times slower: its CPU limit, that much higher
_PRINTABLE = re.compile(r"[.A-Z\n]*")


def _worth_a_second_run(verdict: Verdict, run: RunResult) -> bool:
    """A WRONG output, or one with characters a fillit never prints, from a run that
    ended by itself: a second run tells a nondeterministic program from a wrong one."""
    if run.limit is not None or run.signal is not None or verdict.diagnosis == "nondeterministic":
        return False
    return verdict.verdict == "WRONG" or _PRINTABLE.fullmatch(run.stdout.decode("utf-8", errors="replace")) is None


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
                         jail: Jail) -> str | None:
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
        run(program, args, files, grind, jail, wrapper=[valgrind, *MEMCHECK_OPTIONS], side_output=log)
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


def explain_timeout(result: CaseResult, jail: Jail) -> CaseResult:
    """A TIMEOUT's message with the file's size, the smallest square possible, the CPU the
    program used, and the plain algorithm's time on the same file (measured now)."""
    case, verdict = result.case, result.verdict
    pieces = parse(case.input).pieces if case.input is not None and case.category != "invalid" else None
    if not pieces:
        return result
    bound = math.ceil(math.sqrt(4 * len(pieces)))
    # A speed file is one plain search cannot answer in time, by construction: its case
    # already says so; timing plain search again would only cost the limit once more.
    plain = None if case.category == SPEED else _time_plain(case, result.time_limit_s, jail)
    facts = {"pieces": len(pieces), "bound_side": bound, "cpu_s": result.cpu_s,
             "cpu_limit_s": result.time_limit_s, **({"plain_cpu_s": plain} if plain is not None else {})}
    used = (f"it used {result.cpu_s:.2f} s of CPU (limit {result.time_limit_s:g} s) on {len(pieces)} pieces, "
            f"which fit at best in a {bound}x{bound} square")
    if case.category == SPEED:
        how = ""
    elif plain is None:
        how = "; the seed's plain backtracking does not answer this file within the limit either: it needs pruning"
    else:
        how = (f"; the seed's plain backtracking, starting at {bound}x{bound}, answers this file in {plain:.3f} s "
               "of CPU (measured now)")
        if plain <= INSTANT_SHARE * result.time_limit_s:
            how += (f". Likely cause: a search that starts below {bound}x{bound} (ceil(sqrt(4n))) must prove each "
                    "smaller square impossible, which takes far longer; or a search that retries what it "
                    "already ruled out")
    message = f"{verdict.message}: {used}{how}"
    return dataclasses.replace(result, verdict=dataclasses.replace(verdict, message=message,
                                                                  details={**verdict.details, **facts}))


def _time_plain(case: Case, cpu_limit_s: float, jail: Jail) -> float | None:
    """CPU seconds the seed's plain algorithm takes on `case`, None if over the limit."""
    assert case.input is not None
    try:
        plain = compiled(PLAIN_C_SOURCE, "plain-fillit")
        limits = Limits(cpu_s=cpu_limit_s, wall_s=3 * cpu_limit_s + 2)
        measured = run(plain, ["input.fillit"], [RunFile("input.fillit", case.input)], limits, jail)
    except (CompileError, JailError):
        return None
    return None if measured.limit is not None or measured.exit_code != 0 else measured.cpu_s


def rerun_verdict(case: Case, runs: list[RunResult], again: Callable[[], RunResult], strict: bool) -> Verdict:
    """The verdict of `runs`, after one more run when it is WRONG (see the module doc)."""
    verdict = check(case, runs, strict=strict)
    if len(runs) == 1 and _worth_a_second_run(verdict, runs[0]):
        runs.append(again())
        verdict = check(case, runs, strict=strict)
    return verdict
