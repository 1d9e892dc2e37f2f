"""The square turned by quarter turns (`reference.quarter_turns`), on which the beam looks
for the packings that it does not find on the square itself.

A packing found on a turned square is placed on the square by `corner_back`, so the turns
must map cells, shapes, corners and the LP certificate's weights consistently; and the
helper "beam" must turn the square when a beam misses, and give back a packing of the
question on the square itself.
"""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generators.hard import decode
from reference import side_questions
from reference.quarter_turns import QuarterTurn
from reference.shapes import SHAPE_BY_NAME, SHAPES
from reference.solver import available_engines
from test_solver_beam import check_packing


@settings(max_examples=200, deadline=None)
@given(side=st.integers(4, 12), quarters=st.integers(0, 3), shape=st.sampled_from(SHAPES), data=st.data())
def test_a_turned_placement_is_the_placement_of_the_turned_shape(side, quarters, shape, data):
    turn = QuarterTurn(side, quarters)
    row = data.draw(st.integers(0, side - shape.height))
    col = data.draw(st.integers(0, side - shape.width))
    cells = {(row + r) * side + col + c for r, c in shape.cells}
    turned_shape = turn.shape(shape.cells)
    assert turned_shape in {s.cells for s in SHAPES}  # the 19 shapes are closed under turns
    turned_cells = set(turn.cells(cells))
    corner = min(turned_cells) // side * side + min(cell % side for cell in turned_cells)
    turned_row, turned_col = divmod(corner, side)
    assert turned_cells == {(turned_row + r) * side + turned_col + c for r, c in turned_shape}
    assert turn.corner_back(turned_shape, corner) == row * side + col


@given(side=st.integers(2, 12), quarters=st.integers(0, 3))
def test_turns_permute_the_cells_and_four_make_none(side, quarters):
    turn = QuarterTurn(side, quarters)
    assert sorted(turn.cell(i) for i in range(side * side)) == list(range(side * side))
    cells = list(range(side * side))
    for _ in range(4):
        cells = [turn.cell(i) for i in cells]
    assert cells == list(range(side * side))
    weights = (tuple(range(side * side)), (7, 8), 3)
    turned = turn.weights(weights)
    assert turned is not None and turned[1:] == ((7, 8), 3)
    assert all(turned[0][turn.cell(i)] == i for i in range(side * side))
    assert turn.weights(None) is None


@pytest.mark.skipif("c" not in available_engines(), reason="the C core is not built")
def test_the_beam_turns_the_square_after_a_miss():
    """hoaroamhamhhrbmhhmjmmaaa's side 10 has a packing that beams of 16 000 states along
    the rows and the columns of the square do not find, and one along the square turned a
    quarter does (docs/BENCHMARKS.md, "Twenty-seventh pass"): the helper's second beam of
    16 000 states turns it, and its packing is one of the square itself."""
    pieces = decode("hoaroamhamhhrbmhhmjmmaaa")
    types = list(dict.fromkeys(pieces))
    counts = [pieces.count(t) for t in types]
    board = side_questions.Side(types, counts, 10, None)
    assert board.packable_by("beam", 16_000, counts, frozenset()) is None
    assert board.beam_missed[(tuple(counts), frozenset())] == [16_000, 0, 0, 0]
    assert board.packable_by("beam", 16_000, counts, frozenset()) is True
    assert board.found is not None
    check_packing(board.found, types, counts, 10, set())


@pytest.mark.skipif("c" not in available_engines(), reason="the C core is not built")
def test_a_width_that_missed_on_every_turn_is_not_asked_again():
    """Six S pieces in a 5 x 5 square: no packing (no S covers two opposite corners of the
    square, and only one cell is spare), so every beam misses; once a width has missed on
    each turn, it is not asked again, a wider one is."""
    types = [SHAPE_BY_NAME["S_horizontal"]]
    board = side_questions.Side(types, [6], 5, None)
    for quarters in range(4):
        assert board.packable_by("beam", 50, [6], frozenset()) is None
        assert board.work > 0
        assert board.beam_missed[((6,), frozenset())] == [50] * (quarters + 1) + [0] * (3 - quarters)
    assert board.packable_by("beam", 50, [6], frozenset()) is None
    assert board.work == 0
    assert board.packable_by("beam", 200, [6], frozenset()) is None
    assert board.work > 0
