"""An exercise's named suites of cases, filtered; and how much CPU time each case may use."""
from __future__ import annotations

import fnmatch

from generators.cases import SPEED, Case, Category
from harness.grading.exercise import Exercise, exercise_named

# The CPU-time limit of a case (every process of the run together; wall time is only a
# backstop, harness.grading.grade.wall_backstop), derived from what the seed's plain
# backtracking costs on the file:
#
#     cpu_limit = max(floor of the category, plain_tries * PLAIN_TRY_BUDGET_S), at most MAX_CPU_S
#
# plain_tries: the placement tries the plain search makes until its first solution
# (generators.valid.plain_tries). PLAIN_TRY_BUDGET_S = 10 us per try is 1000 times what the
# seed's algorithm in C spends on one (reference/plain_fillit.c: about 10 ns), room for a
# solver that checks a piece slowly. The suites' valid files outside `speed` and `hard`
# take at most generators.valid.EASY_BUDGET = 100 000 tries (a test checks it), which the
# floor covers: a correct plain solver never times out on them, busy machine or not. A
# student's own files (--cases) have their tries counted when loaded, and get more time
# when plain search needs it. Hard files get a fixed, longer limit (only solvers with real
# pruning answer them); speed files the moulinette's timeout, on purpose (generators.speed).
DEFAULT_CPU_S = 5.0
HARD_CPU_S = 20.0
SPEED_CPU_S = 5.0  # the moulinette's timeout: plain search needs a minute or more on each speed file
CPU_LIMITS_S: dict[Category, float] = {"hard": HARD_CPU_S, SPEED: SPEED_CPU_S}
PLAIN_TRY_BUDGET_S = 10e-6
MAX_CPU_S = 120.0


def cpu_limit(case: Case, override: float | None = None) -> float:
    """The case's CPU-time limit in seconds (see above); `override`: --timeout."""
    if override is not None:
        return override
    floor = CPU_LIMITS_S.get(case.category, DEFAULT_CPU_S)
    if case.plain_tries is None or case.category == SPEED:
        return floor
    return min(MAX_CPU_S, max(floor, case.plain_tries * PLAIN_TRY_BUDGET_S))


def load_suite(name: str, seed: int | None = None, pattern: str | None = None,
               exercise: Exercise | None = None) -> list[Case]:
    """The cases of the exercise's suite `name` (the default exercise's when None); `seed`
    None means its fixed seed; `pattern` as in `filter_cases`."""
    cases = (exercise or exercise_named()).suite(name, seed)
    return filter_cases(cases, pattern) if pattern else cases


def filter_cases(cases: list[Case], pattern: str) -> list[Case]:
    """The cases whose id or category matches `pattern`, like pytest's -k on a single word:
    a substring, or a shell glob when it holds * ? or [.  A pattern that is exactly a case's
    id selects that case alone (so `-k own/map` does not also run `own/map2`)."""
    exact = [case for case in cases if case.id == pattern]
    return exact or [case for case in cases if _matches(case, pattern)]


def _matches(case: Case, pattern: str) -> bool:
    if any(ch in pattern for ch in "*?["):
        return fnmatch.fnmatch(case.id, pattern) or fnmatch.fnmatch(case.category, pattern)
    return pattern in case.id or pattern == case.category
