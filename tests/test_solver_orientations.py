"""The profile DP's scans and beams on the square turned (`_profile`'s orientation).

A scan can take the square's cells along its rows or its columns, or along those of the
square turned 1-3 quarters (`profile_side.ORIENTATIONS`).  Only the order of the cells
turns: corners, min_corner, last_corner and the packings traced back stay the square's,
so every question has the same answer in every orientation (checked against exhaustive
enumeration in `test_solver_profile`, against the C core here), a side's questions may be
asked in any of them, its scans start in the one, of the square's and its mirror image's,
whose probe of the side's question gets furthest, and the beam looks on the turned square
for the packings it does not find on the square itself.
"""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generators.hard import decode
from reference.shapes import SHAPE_BY_NAME, SHAPES
from reference.solver import available_engines
from test_solver_beam import check_packing
from test_solver_profile import check_traced

_profile = pytest.importorskip("reference._profile")
_fastsolve = pytest.importorskip("reference._fastsolve")
side_questions = pytest.importorskip("reference.side_questions")
profile_side = pytest.importorskip("reference.profile_side")


@st.composite
def questions(draw: st.DrawFn) -> tuple[list, list[int], int, list[int]]:
    """A few types, their counts, a side, and some occupied cells, with the pieces about
    filling the free cells (where the scans' order matters most)."""
    side = draw(st.integers(4, 7))
    types = draw(st.lists(st.sampled_from(SHAPES), min_size=1, max_size=3, unique=True))
    occupied = sorted(draw(st.sets(st.integers(0, side * side - 1), max_size=side)))
    pieces = draw(st.integers(1, (side * side - len(occupied)) // 4))
    picks = draw(st.lists(st.integers(0, len(types) - 1), min_size=pieces, max_size=pieces))
    return types, [picks.count(t) for t in range(len(types))], side, occupied


@settings(max_examples=60, deadline=None)
@given(question=questions(), data=st.data())
def test_every_orientation_answers_as_the_c_core_with_the_squares_corners(question, data):
    types, counts, side, occupied = question
    cells = [t.cells for t in types]
    packable = _fastsolve.packable(cells, counts, side, occupied, 0, None)
    target = data.draw(st.sampled_from([-1] + [t for t in range(len(types)) if counts[t]]))
    answers = set()
    for orientation in profile_side.ORIENTATIONS:
        scan = _profile.Scan(cells, counts, side, occupied, [0] * len(types), target, None, None, orientation)
        answer = scan.advance(0)
        assert (answer is not None) == packable
        if answer is not None:
            check_traced(types, counts, side, frozenset(occupied), [0] * len(types), target, answer, scan.packing)
        beamed, _ = _profile.beam(cells, counts, side, occupied, [0] * len(types), 200, None, None, orientation)
        if beamed is not None:
            check_packing(beamed, types, counts, side, set(occupied))
        answers.add(answer)
    assert len(answers) == 1


@pytest.mark.parametrize("preferred", (2, 5, 7))
def test_a_sides_question_on_the_square_turned_answers_with_the_squares_corners(preferred):
    """The side's own question (its first piece's smallest corner) with a turned orientation
    preferred: the same answer as along the rows, and the packing traced back is one of the
    square itself with its first piece there."""
    pieces = decode("hoaroamhamh")
    types = list(dict.fromkeys(pieces))
    counts = [pieces.count(t) for t in types]
    answers = []
    for orientation in (0, preferred):
        board = side_questions.Side(types, counts, 7, None)
        board.preferred = orientation
        answers.append(board.first_corner(counts, [], [0] * len(types), 0, 0))
        check_traced(types, counts, 7, frozenset(), [0] * len(types), 0, answers[-1], board.found)
    assert answers[0] == answers[1] is not None


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


def reach(board, orientation: int) -> tuple[int, int]:
    """How far the side's own question's scan gets on PROBE_BUDGET states a layer: the cell
    it reaches (the whole square when it answers), then the fewer states."""
    scan = _profile.Scan(board.cells, board.counts, board.side, [], [0] * len(board.counts), -1, board.weights,
                         None, orientation)
    answered = scan.advance(profile_side.PROBE_BUDGET) is not False
    return board.side * board.side if answered else scan.cell, -scan.work


@pytest.mark.parametrize("code, side, mirrored", [("hehhobmhahhaoamhhmammaab", 10, True),
                                                  ("aseafeosoijiaefafoesesj", 10, False)])
def test_a_sides_scans_start_in_the_orientation_whose_probe_got_furthest(code, side, mirrored):
    """Of the square's rows and columns and its mirror image's (left and right swapped),
    the side's scans start in the one whose scan of the side's question got furthest on a
    small budget: on the mirror for the L, J and I file, whose layers grow slower there, on
    the square for the T file (docs/BENCHMARKS.md, "Twenty-ninth pass")."""
    pieces = decode(code)
    types = list(dict.fromkeys(pieces))
    counts = [pieces.count(t) for t in types]
    board = side_questions.Side(types, counts, side, None)
    assert board.preferred == max(profile_side.PROBED, key=lambda orientation: reach(board, orientation))
    assert (board.preferred in (7, 6)) == mirrored
    assert reach(board, board.preferred) > reach(board, 0), "further than along the rows"


def test_a_scan_that_gave_up_resumes_from_the_cell_it_reached():
    """`Scan.cell`: where a scan that gave up stands; a larger budget takes it further."""
    pieces = decode("hehhobmhahhaoamhhmammaab")
    types = list(dict.fromkeys(pieces))
    cells, counts = [t.cells for t in types], [pieces.count(t) for t in types]
    scan = _profile.Scan(cells, counts, 10, [], [0] * len(types), -1, None, None, 6)
    assert scan.cell == 0
    reached = []
    for budget in (500, 2_000, 8_000):
        assert scan.advance(budget) is False
        reached.append(scan.cell)
    assert 0 < reached[0] < reached[1] < reached[2] < 100
