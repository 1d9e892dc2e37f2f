"""Named suites of cases: which corpus, and how long each case may run."""
from __future__ import annotations

import fnmatch
from collections.abc import Callable

from generators.cases import SPEED, Case, Category
from generators.corpus import STANDARD_SEED, full_corpus, quick_corpus, standard_corpus

SUITES: dict[str, Callable[[int], list[Case]]] = {
    "quick": quick_corpus,
    "standard": standard_corpus,
    "full": full_corpus,
}
DEFAULT_SUITE = "standard"

# Wall-clock limit per case, by category, in seconds.  A correct plain
# backtracking solver (the seed's algorithm in C) answers every standard case
# but the speed ones in well under a second; the limits leave room for a slow
# machine and for solvers that read the file byte by byte.  Hard cases get
# longer, since only solvers with real pruning answer them at all.
DEFAULT_WALL_S = 5.0
HARD_WALL_S = 20.0
# The moulinette's timeout, on purpose not derived from plain search's cost:
# plain backtracking needs a minute or more on each speed file, a solver with
# the classic cuts a fraction of a second (generators.speed).
SPEED_WALL_S = 5.0
WALL_LIMITS_S: dict[Category, float] = {"hard": HARD_WALL_S, SPEED: SPEED_WALL_S}


def wall_limit(case: Case, override: float | None = None) -> float:
    return override if override is not None else WALL_LIMITS_S.get(case.category, DEFAULT_WALL_S)


def suite_seed(seed: int | None) -> int:
    """The seed a suite's cases come from: `seed`, or the suites' fixed seed for None.
    Reports store this one, so that `--seed` with it reproduces the run."""
    return STANDARD_SEED if seed is None else seed


def load_suite(name: str, seed: int | None = None, pattern: str | None = None) -> list[Case]:
    """The cases of suite `name`; `seed` None means the suite's fixed seed; `pattern` as in
    `filter_cases`."""
    if name not in SUITES:
        raise KeyError(name)
    cases = SUITES[name](suite_seed(seed))
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
