"""Hypothesis strategies for edge-matching puzzles: for `grade --fuzz` and property tests.

Puzzles come from the seeded builders (generate, invalid) driven by `st.randoms()`, whose
draws hypothesis records and shrinks, and drawn sizes, so a failing example shrinks towards
small boards.

    from hypothesis import given
    from exercises.edge_matching.strategies import constructed

    @given(constructed())
    def test_my_checker(pair): puzzle, solution = pair
"""
from __future__ import annotations

import random

from hypothesis import strategies as st

from exercises.edge_matching.board import Board
from exercises.edge_matching.generate import solvable
from exercises.edge_matching.invalid import INVALID_CATEGORIES
from exercises.edge_matching.puzzle import Puzzle


def _constructed(rng: random.Random, rows: int, cols: int, colours: int, framed: bool) -> tuple[Puzzle, Board]:
    return solvable(rows, cols, colours, framed, rng)


def constructed(max_side: int = 6, max_colours: int = 6) -> st.SearchStrategy[tuple[Puzzle, Board]]:
    """(puzzle, its constructed solution): 1 to max_side cells a side, framed or free."""
    sides = st.integers(1, max_side)
    return st.builds(_constructed, st.randoms(use_true_random=False), sides, sides, st.integers(1, max_colours),
                     st.booleans())


def valid_inputs() -> st.SearchStrategy[bytes]:
    """Input files of solvable puzzles small enough for any correct backtracking solver
    (at most 4 x 4, framed, or 3 x 3 free)."""
    framed = st.builds(_constructed, st.randoms(use_true_random=False), st.integers(1, 4), st.integers(1, 4),
                       st.integers(2, 5), st.just(True))
    free = st.builds(_constructed, st.randoms(use_true_random=False), st.integers(1, 3), st.integers(1, 3),
                     st.integers(2, 4), st.just(False))
    return st.one_of(framed, free).map(lambda pair: pair[0].text())


def invalid_inputs() -> st.SearchStrategy[bytes]:
    """Files of every invalid category (invalid.INVALID_CATEGORIES)."""
    return st.sampled_from(sorted(INVALID_CATEGORIES)).flatmap(
        lambda name: st.randoms(use_true_random=False).map(INVALID_CATEGORIES[name].build))


def fuzz_inputs() -> st.SearchStrategy[bytes]:
    """What `grade --fuzz` feeds a solver: small solvable puzzles and invalid files."""
    return st.one_of(valid_inputs(), invalid_inputs())
