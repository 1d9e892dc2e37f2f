"""Hypothesis strategies for Shikaku inputs: for `grade --fuzz` and property tests.

Puzzles are built by the seeded builders of random_tilings, valid and invalid, driven by
`st.randoms()` (whose draws hypothesis records and shrinks) and a drawn size, so a failing
example shrinks towards small grids.

    from hypothesis import given
    from exercises.shikaku.strategies import puzzles, fuzz_inputs

    @given(puzzles(max_side=6))
    def test_my_solver(puzzle): ...
"""
from __future__ import annotations

import random

from hypothesis import strategies as st

from exercises.shikaku.invalid import DISPUTED_CATEGORIES, INVALID_CATEGORIES, disputed_input
from exercises.shikaku.plain import plain_tries
from exercises.shikaku.puzzle import Puzzle
from exercises.shikaku.random_tilings import clued, random_tiling
from exercises.shikaku.valid import one_clue_moved, with_strips

# A fuzz puzzle must be solved by plain search within this many placements: a correct
# solver without pruning never times out on one.
FUZZ_TRIES = 5_000


def _puzzle(rng: random.Random, width: int, height: int, kind: int) -> Puzzle:
    """kind 0: clues at random cells; 1: some 2-wide rectangles cut into domino strips
    (many solutions); 2: then one clue moved (often no solution)."""
    tiling = random_tiling(width, height, rng, max(1, width * height // rng.randint(2, 8)))
    if kind == 0:
        return clued(tiling, width, height, rng)
    puzzle = with_strips(tiling, width, height, rng)
    return one_clue_moved(puzzle, rng) if kind == 2 else puzzle


def puzzles(max_side: int = 7) -> st.SearchStrategy[Puzzle]:
    """Valid puzzles (the areas add up, at most 52 clues) of 1 to max_side cells a side,
    with one, many or no solutions."""
    sides = st.integers(1, max_side)
    return st.builds(_puzzle, st.randoms(use_true_random=False), sides, sides, st.integers(0, 2))


def valid_inputs(max_side: int = 8) -> st.SearchStrategy[bytes]:
    """Canonical input files of valid puzzles quick for plain search."""
    return puzzles(max_side).filter(lambda puzzle: plain_tries(puzzle, FUZZ_TRIES) is not None).map(Puzzle.text)


def invalid_inputs(category: str | None = None) -> st.SearchStrategy:
    """Invalid inputs: of one category of invalid.INVALID_CATEGORIES (bytes), or
    (category, bytes) pairs over all of them."""
    if category is not None:
        return st.randoms(use_true_random=False).map(INVALID_CATEGORIES[category].build)
    return st.sampled_from(sorted(INVALID_CATEGORIES)).flatmap(
        lambda name: st.randoms(use_true_random=False).map(lambda rng: (name, INVALID_CATEGORIES[name].build(rng))))


@st.composite
def disputed_inputs(draw: st.DrawFn) -> bytes:
    """Valid puzzles written with one blank-space deviation (either answer passes)."""
    name = draw(st.sampled_from(sorted(DISPUTED_CATEGORIES)))
    rng = draw(st.randoms(use_true_random=False))
    puzzle = draw(puzzles(6).filter(lambda p: p.width >= 2 and plain_tries(p, FUZZ_TRIES) is not None))
    return disputed_input(name, puzzle, rng)


def fuzz_inputs() -> st.SearchStrategy[bytes]:
    """What `grade --fuzz` feeds a solver: valid puzzles and invalid inputs.  Not the
    disputed ones: a case made from bytes alone (expected = the reference's answer) would
    fail a solver that prints `error` for them, which the contract allows."""
    return st.one_of(valid_inputs(), invalid_inputs().map(lambda pair: pair[1]))
