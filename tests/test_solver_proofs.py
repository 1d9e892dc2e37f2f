"""The C core's infeasibility proofs: small on the hard cases, never wrong on feasible boards.

The 4-periodic stripe bound of `_fastsolve.c` (stripe_mismatch) cuts whole order-free
searches at once.  Exact tilings of a square (0 spare cells) and tilings with a piece or two
taken out (4-8 spare cells) are the inputs on which an unsound cut would show: the square
of the bound side is feasible by construction, so the answer must be at that side and
equal the pure-Python engine's (which has no stripe bound).
"""
from __future__ import annotations

import random

import pytest

from generators.hard import hard_corpus
from reference.plain import min_side, solve_plain
from reference.shapes import SHAPES, Shape
from reference.solver import Solution, available_engines, solve

pytestmark = pytest.mark.skipif("c" not in available_engines(), reason="the C core is not built")


def assert_legal_packing(pieces: list[Shape], solution: Solution) -> None:
    taken: set[tuple[int, int]] = set()
    assert len(solution.positions) == len(pieces)
    for piece, (row, col) in zip(pieces, solution.positions):
        cells = {(row + r, col + c) for r, c in piece.cells}
        assert all(0 <= r < solution.side and 0 <= c < solution.side for r, c in cells)
        assert not cells & taken
        taken |= cells


def random_tiling(side: int, rng: random.Random) -> list[Shape]:
    """The pieces of a random exact tiling of the side x side square (first empty cell first)."""
    taken: set[tuple[int, int]] = set()
    placed: list[Shape] = []

    def fill() -> bool:
        free = next(((r, c) for r in range(side) for c in range(side) if (r, c) not in taken), None)
        if free is None:
            return True
        for shape in rng.sample(SHAPES, len(SHAPES)):
            top, left = free[0], free[1] - shape.cells[0][1]  # the shape's first cell on `free`
            cells = {(top + r, left + c) for r, c in shape.cells}
            if all(0 <= r < side and 0 <= c < side and (r, c) not in taken for r, c in cells):
                taken.update(cells)
                placed.append(shape)
                if fill():
                    return True
                placed.pop()
                taken.difference_update(cells)
        return False

    assert fill()
    rng.shuffle(placed)
    return placed


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("side", [4, 6, 8])
def test_exact_tilings_are_found_at_their_side(side, seed):
    pieces = random_tiling(side, random.Random(f"{side}/{seed}"))
    assert min_side(len(pieces)) == side
    solution = solve(pieces, engine="c")
    assert solution.side == side
    assert_legal_packing(pieces, solution)
    if side < 8:
        assert solution == Solution(*solve_plain(pieces))
    else:
        assert solution == solve(pieces, engine="python")


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("dropped", [1, 2])
def test_tilings_with_spare_cells_are_found_at_their_side(dropped, seed):
    pieces = random_tiling(8, random.Random(f"spare/{dropped}/{seed}"))[dropped:]
    assert min_side(len(pieces)) == 8
    solution = solve(pieces, engine="c")
    assert solution.side == 8
    assert solution == solve(pieces, engine="python")


def _side_stats(pieces: list[Shape], side: int) -> tuple[object, dict[str, int]]:
    from reference import _fastsolve

    types = list(dict.fromkeys(pieces))
    positions = _fastsolve.solve_at_side([t.cells for t in types], [types.index(p) for p in pieces], side)
    return positions, _fastsolve.last_stats()


def test_zero_spare_proof_is_immediate():
    # 25 pieces, 0 spare cells at side 10: column stripes mod 4 rule side 10 out at the root
    # (the order-free search alone needed ~2e7 nodes, ~20 s).
    pieces = dict(hard_corpus(0))["zero_spare-1"]
    positions, stats = _side_stats(pieces, 10)
    assert positions is None
    assert stats["fill_nodes"] < 100
    solution = solve(pieces, engine="c")
    assert solution.side == 11
    assert_legal_packing(pieces, solution)


def test_wrong_position_proof_is_small():
    # One wrong position of a piece needed ~8e6 order-free nodes to rule out without the
    # stripe bound (15-19 s); about 2e4 for the whole side with it.
    pieces = dict(hard_corpus(3))["random_24-3002"]
    positions, stats = _side_stats(pieces, 10)
    assert positions is not None
    assert stats["fill_nodes"] < 200_000
    assert_legal_packing(pieces, Solution(10, positions))
