"""What a confirmed fillit TIMEOUT means, measured (never guessed): the file's size, the
smallest square possible, the CPU the program used, and the seed's plain backtracking
(reference/plain_fillit.c) timed on the same file under the same CPU limit.  A plain
search far faster than the limit points at a search that starts below ceil(sqrt(4n)).
"""
from __future__ import annotations

import dataclasses
import math

from generators.cases import SPEED, Case
from harness.grading.model import CaseResult
from harness.jail import Jail, JailError
from harness.jail.native import CompileError, compiled
from harness.limits import Limits
from harness.runner import RunFile, run
from reference.parser import parse
from reference.plain import PLAIN_C_SOURCE

# A plain search this much faster than the limit "answers the file at once".
INSTANT_SHARE = 0.1


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
