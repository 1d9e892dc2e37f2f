"""Shikaku's graded suites: quick, standard and full lists of `Case`, deterministic from a seed.

Every case draws from its own `random.Random(f"{seed}:{case_id}")` (like generators.corpus),
so a case's bytes depend only on the seed and its id: the quick suite's cases are the
standard cases of the same id, byte for byte.  Expected outputs come from the reference
(exercises.shikaku.solver).

Categories: `valid` (grids under 20 x 20), `large` (20 x 20 cells and more), `invalid`,
`disputed` (blank-space deviations: either answer passes) and `hard` (exercises.shikaku
.hard).  Outside `hard`, plain search answers every puzzle within valid.EASY_TRIES.
"""
from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable
from functools import lru_cache

from generators.cases import Case, Category
from exercises.shikaku.drawing import drawing_text
from exercises.shikaku.hard import DOOMED_MAX_WIDTH, doomed, thousands
from exercises.shikaku.invalid import DISPUTED_CATEGORIES, INVALID_CATEGORIES, disputed_input
from exercises.shikaku.puzzle import DisputedId, Puzzle, parse
from exercises.shikaku.solver import ERROR, answer_text, solve
from exercises.shikaku.valid import SEED_EXAMPLE, SEED_TEST_3, Family, seed_puzzle, valid_puzzle

FIXED_SEED = 20261201
LARGE_FROM_CELLS = 400  # 20 x 20 and more: "large"

Size = tuple[int, int]  # (W, H)

# (family, sizes) of the standard suite's valid and large puzzles, one case per size.
_STANDARD_VALID: tuple[tuple[Family, tuple[Size, ...]], ...] = (
    ("unique", ((1, 1), (1, 6), (7, 1), (2, 3), (3, 3), (4, 5), (5, 5), (6, 4), (7, 7), (8, 6), (9, 9),
                (10, 10), (10, 10), (10, 10), (12, 10), (10, 14), (15, 15), (15, 15), (18, 12),
                (20, 20), (20, 20), (25, 20), (30, 15), (15, 30), (30, 30), (30, 30))),
    ("many", ((2, 2), (4, 3), (4, 4), (5, 5), (6, 6), (8, 8), (10, 10), (10, 10), (10, 10), (12, 12),
              (15, 15), (20, 20), (20, 20), (30, 20), (30, 30))),
    ("none", ((3, 3), (5, 5), (8, 8), (10, 10), (15, 15), (20, 20), (30, 30))),
    ("letters", ((15, 15), (20, 20), (30, 30))),
)
_QUICK_VALID: tuple[tuple[Family, Size], ...] = (
    ("unique", (1, 1)), ("unique", (5, 5)), ("unique", (10, 10)), ("unique", (20, 20)), ("unique", (30, 30)),
    ("many", (2, 2)), ("many", (10, 10)), ("many", (20, 20)), ("none", (5, 5)), ("letters", (20, 20)),
)
_INVALID_PER_CATEGORY = 2
_QUICK_INVALID = ("empty", "header_one_number", "header_letter", "width_31", "rows_missing", "row_short",
                  "number_on_next_row", "cell_letter", "negative_area", "extra_row", "area_plus_one",
                  "too_many_clues")
_DISPUTED_PER_CATEGORY = 2
_QUICK_DISPUTED: tuple[DisputedId, ...] = ("crlf", "final_newline")
_STANDARD_DOOMED = (18, 21, 24)
_FULL_DOOMED = (12, 15, 19, 20, 22, 23)
_STANDARD_THOUSANDS: tuple[Size, ...] = ((15, 15), (25, 20))
_FULL_THOUSANDS: tuple[Size, ...] = ((12, 12), (20, 20), (30, 20), (30, 30))
_FULL_EXTRA_DRAWS = 2  # the full suite draws every standard size twice more
# A few cases are run twice, to catch output that changes from run to run.
_RUN_TWICE = {"valid/seed-example", "valid/many-10x10-1", "large/unique-20x20-1", "valid/unique-5x5-1"}


def _rng(seed: int, case_id: str) -> random.Random:
    # A str seed is hashed with SHA-512 by `random`: stable across runs and Python versions.
    return random.Random(f"{seed}:{case_id}")


def _group(width: int, height: int) -> Category:
    return "large" if width * height >= LARGE_FROM_CELLS else "valid"


def _solved(case_id: str, category: Category, puzzle: Puzzle, data: bytes, description: str) -> Case:
    answer = solve(puzzle)
    count = f"{answer.count} solution{'s' if answer.count != 1 else ''}"
    return Case(id=case_id, category=category, input=data,
                expected=drawing_text(answer.count, answer.first, puzzle.width, puzzle.height),
                description=f"{description}: {puzzle.width}x{puzzle.height}, {len(puzzle.clues)} clues, {count}",
                runs=2 if case_id in _RUN_TWICE else 1)


def valid_case(seed: int, family: Family, size: Size, index: int) -> Case:
    width, height = size
    group = _group(width, height)
    case_id = f"{group}/{family}-{width}x{height}-{index}"
    puzzle = valid_puzzle(width, height, family, _rng(seed, case_id))
    return _solved(case_id, group, puzzle, puzzle.text(), f"{family} family")


def seed_cases() -> list[Case]:
    """The seed's two puzzles, known answers in every suite."""
    return [_solved("valid/seed-example", "valid", seed_puzzle(SEED_EXAMPLE), SEED_EXAMPLE,
                    "the seed's example (CodinGame's first test)"),
            _solved("large/seed-test-3", "large", seed_puzzle(SEED_TEST_3), SEED_TEST_3,
                    "the seed's Test 3")]


def invalid_case(seed: int, category: str, index: int) -> Case:
    spec = INVALID_CATEGORIES[category]
    case_id = f"invalid/{category}-{index}"
    return Case(id=case_id, category="invalid", input=spec.build(_rng(seed, case_id)), expected=ERROR,
                rule=spec.rule, description=spec.description)


def disputed_case(seed: int, category: DisputedId, index: int) -> Case:
    """A valid puzzle with one blank-space deviation: its answer, or `error`, passes."""
    case_id = f"disputed/{category}-{index}"
    rng = _rng(seed, case_id)
    width, height = rng.randint(2, 10), rng.randint(2, 10)
    data = disputed_input(category, valid_puzzle(width, height, "unique", rng), rng)
    return Case(id=case_id, category="disputed", input=data, expected=answer_text(data), accepted=(ERROR,),
                disputed=category, description=DISPUTED_CATEGORIES[category].description)


def doomed_case(seed: int, width: int) -> Case:
    case_id = f"hard/doomed-{width}"
    puzzle = doomed(width, _rng(seed, case_id))
    return _solved(case_id, "hard", puzzle, puzzle.text(),
                   "no solution, found by plain search only after every tiling of the strips")


def thousands_case(seed: int, size: Size, index: int = 1) -> Case:
    width, height = size
    case_id = f"hard/thousands-{width}x{height}-{index}"
    puzzle = thousands(width, height, _rng(seed, case_id))
    return _solved(case_id, "hard", puzzle, puzzle.text(), "thousands of solutions to count")


def _valid_cases(seed: int, more: int = 0) -> list[Case]:
    """Each size of _STANDARD_VALID as many times as it is listed; with `more`, only the
    `more` further draws of each size instead (the full suite's extra cases)."""
    cases = []
    for family, sizes in _STANDARD_VALID:
        for size, listed in Counter(sizes).items():
            indices = range(listed + 1, listed + more + 1) if more else range(1, listed + 1)
            cases += [valid_case(seed, family, size, index) for index in indices]
    return cases


# Suites are built once per seed and process (cases are frozen: sharing them is safe).
@lru_cache(maxsize=8)
def _standard(seed: int) -> tuple[Case, ...]:
    cases = seed_cases() + _valid_cases(seed)
    cases += [invalid_case(seed, name, i) for name in INVALID_CATEGORIES for i in range(1, _INVALID_PER_CATEGORY + 1)]
    cases += [disputed_case(seed, name, i) for name in DISPUTED_CATEGORIES for i in range(1, _DISPUTED_PER_CATEGORY + 1)]
    cases += [doomed_case(seed, width) for width in _STANDARD_DOOMED]
    cases += [thousands_case(seed, size) for size in _STANDARD_THOUSANDS]
    return tuple(_checked(cases))


def standard_suite(seed: int = FIXED_SEED) -> list[Case]:
    """Every family at growing sizes (1x1 to 30x30), every invalid category twice, every
    disputed deviation twice, and the hard families."""
    return list(_standard(seed))


@lru_cache(maxsize=8)
def _quick(seed: int) -> tuple[Case, ...]:
    cases = seed_cases()[:1] + [valid_case(seed, family, size, 1) for family, size in _QUICK_VALID]
    cases += [invalid_case(seed, name, 1) for name in _QUICK_INVALID]
    cases += [disputed_case(seed, name, 1) for name in _QUICK_DISPUTED]
    return tuple(_checked(cases))


def quick_suite(seed: int = FIXED_SEED) -> list[Case]:
    """About 25 cases: the seed's example, each family at a few sizes, one case per rule of
    the parser that matters most, two disputed deviations; no hard case."""
    return list(_quick(seed))


def full_suite(seed: int = FIXED_SEED) -> list[Case]:
    """The standard suite, every valid size drawn twice more, and more hard puzzles."""
    extra = _valid_cases(seed, more=_FULL_EXTRA_DRAWS)
    extra += [doomed_case(seed, width) for width in _FULL_DOOMED if width <= DOOMED_MAX_WIDTH]
    extra += [thousands_case(seed, size, 2 if size in _STANDARD_THOUSANDS else 1) for size in _FULL_THOUSANDS]
    return _checked([*_standard(seed), *extra])


def _checked(cases: Iterable[Case]) -> list[Case]:
    """Guard the suite's promises: unique ids; invalid inputs rejected for their rule;
    disputed inputs read, with the deviation they are named after."""
    out = list(cases)
    ids = [case.id for case in out]
    if len(ids) != len(set(ids)):
        raise AssertionError("duplicate case ids in a shikaku suite")
    for case in out:
        parsed = parse(case.input or b"")
        if case.rule is not None and (parsed.rejection is None or parsed.rejection.rule != case.rule):
            raise AssertionError(f"{case.id}: not rejected for {case.rule}: {parsed.rejection}")
        if case.disputed is not None and (parsed.puzzle is None or case.disputed not in parsed.disputed):
            raise AssertionError(f"{case.id}: not read with the deviation {case.disputed}")
    return out

