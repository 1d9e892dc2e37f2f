"""The beam (`_profile.beam`, the helper "beam"): the DP's scan cut to its least costly
states, a finder of packings.

Its "yes" places pieces without any other proof, so every packing it returns must be a
packing of the question (checked cell by cell), and it must never find one where the
exact DP proves there is none; on small files the solver, with the beam asked first on
every run, corner and side, must still give the plain search's first solution.  It must
also do its job: find the packings of the T files' run questions that the exact DP gave
up on and the C core needed over a million nodes for.
"""
from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generators.hard import decode
from reference import side_questions
from reference.plain import solve_plain
from reference.shapes import SHAPE_BY_NAME, SHAPES, Shape
from reference.solver import Solution, available_engines, solve
from solver_knobs import set_knobs

pytestmark = pytest.mark.skipif("c" not in available_engines(), reason="the C core is not built")
_profile = pytest.importorskip("reference._profile")


def check_packing(packing, types: list[Shape], counts: list[int], side: int, occupied: set[int]) -> None:
    """Each piece inside the square, on free cells, none overlapping; counts[t] of type t."""
    taken = set(occupied)
    per_type = [0] * len(types)
    for t, corner in packing:
        row, col = divmod(corner, side)
        for r, c in types[t].cells:
            assert 0 <= row + r < side and 0 <= col + c < side
            cell = (row + r) * side + col + c
            assert cell not in taken
            taken.add(cell)
        per_type[t] += 1
    assert per_type == counts


@settings(max_examples=80, deadline=None)
@given(seed=st.integers(0, 2**32), width=st.sampled_from([1, 4, 50, 1000]))
def test_a_packing_found_is_a_packing_and_none_is_found_where_none_exists(seed, width):
    rng = random.Random(seed)
    side = rng.randint(4, 8)
    types = rng.sample(SHAPES, rng.randint(1, 4))
    occupied = set(rng.sample(range(side * side), rng.randint(0, side)))
    counts = [0] * len(types)
    for _ in range(rng.randint(1, (side * side - len(occupied)) // 4)):
        counts[rng.randrange(len(types))] += 1
    cells = [t.cells for t in types]
    packing, work = _profile.beam(cells, counts, side, sorted(occupied), [0] * len(types), width, None, None,
                                  rng.choice((-1, 0, 1)))
    exact = _profile.first_corner(cells, counts, side, sorted(occupied), [0] * len(types), -1, 0)
    assert work > 0
    if packing is not None:
        check_packing(packing, types, counts, side, occupied)
    if exact is None:
        assert packing is None


def test_a_wide_enough_beam_finds_every_packing_the_dp_does():
    """With more room than any layer needs, the beam is the exact DP: it finds a packing
    exactly when one exists."""
    rng = random.Random("beam/wide")
    found = 0
    for _ in range(40):
        side = rng.randint(4, 6)
        types = rng.sample(SHAPES, rng.randint(1, 3))
        counts = [0] * len(types)
        for _ in range(rng.randint(1, side * side // 4)):
            counts[rng.randrange(len(types))] += 1
        cells = [t.cells for t in types]
        packing, _ = _profile.beam(cells, counts, side, [], [0] * len(types), 10**6)
        exact = _profile.first_corner(cells, counts, side, [], [0] * len(types), -1, 0)
        assert (packing is not None) == (exact is not None)
        found += packing is not None
    assert 5 < found < 40


def test_finds_the_packing_of_a_t_files_run_the_exact_dp_gives_up_on():
    """ffddoengeeeogeeeggfeennfeg at side 11, its first three plain moves fixed (T_down at
    0, T_down at 2, T_right at 4): the exact DP outgrows 40 000 states a layer, the C core
    needs 1.28 million nodes (0.4 s); a beam of 1 000 finds a packing."""
    pieces = decode("ffddoengeeeogeeeggfeennfeg")
    types = list(dict.fromkeys(pieces))
    counts = [pieces.count(t) for t in types]
    occupied: set[int] = set()
    for piece, corner in zip(pieces[:3], (0, 2, 4)):
        counts[types.index(piece)] -= 1
        row, col = divmod(corner, 11)
        occupied |= {(row + r) * 11 + col + c for r, c in piece.cells}
    assert len(occupied) == 12
    cells = [t.cells for t in types]
    assert _profile.first_corner(cells, counts, 11, sorted(occupied), [0] * len(types), -1, 40_000) is False
    packing, _ = _profile.beam(cells, counts, 11, sorted(occupied), [0] * len(types), 1_000)
    assert packing is not None
    check_packing(packing, types, counts, 11, occupied)


def test_the_helper_looks_along_both_directions():
    """ddddfffeaaaeeeedqqeejefafe at side 11, its first three T_up at 0, 3 and 6 and the
    fourth at 19: a beam of 4 000 along the rows (the DP's direction then) finds no
    packing, along the columns it does (the question cost 2.8 s when the beam looked along
    the rows only; docs/BENCHMARKS.md, "Sixteenth pass").  The helper "beam" looks along
    both."""
    pieces = decode("ddddfffeaaaeeeedqqeejefafe")
    types = list(dict.fromkeys(pieces))
    counts = [pieces.count(t) for t in types]
    occupied: set[int] = set()
    for corner in (0, 3, 6, 19):
        counts[0] -= 1
        row, col = divmod(corner, 11)
        occupied |= {(row + r) * 11 + col + c for r, c in types[0].cells}
    assert len(occupied) == 16
    cells = [t.cells for t in types]
    along = [_profile.beam(cells, counts, 11, sorted(occupied), [0] * len(types), 4_000, None, None, direction)[0]
             for direction in (0, 1)]
    assert along[0] is None and along[1] is not None
    side = side_questions.Side(types, [pieces.count(t) for t in types], 11, None)
    side.direction = 0
    assert side.packable_by("beam", 4_000, counts, frozenset(occupied)) is True
    assert side.found is not None
    check_packing(side.found, types, counts, 11, occupied)


def test_a_beam_that_keeps_the_pieces_in_proportion_packs_a_nearly_full_square():
    """homorammamhhoahmhhammaar at side 10: 24 pieces in 100 cells, so every state of a layer
    has wasted about as much.  Ranked by waste alone, the states kept used up the pieces
    that fit the scan easily, and no beam below 256 000 states found a packing; ranked also
    by how far their pieces left are from the mix of the free cells ahead, a 64 000-state
    beam along the columns does (docs/BENCHMARKS.md, "Nineteenth pass")."""
    pieces = decode("homorammamhhoahmhhammaar")
    types = list(dict.fromkeys(pieces))
    counts = [pieces.count(t) for t in types]
    packing, _ = _profile.beam([t.cells for t in types], counts, 10, [], [0] * len(types), 64_000, None, None, 1)
    assert packing is not None
    check_packing(packing, types, counts, 10, set())


def test_a_wasted_cell_weighs_more_than_a_piece_out_of_proportion():
    """aeegggggedbagadgeeegeee at side 10: 19 T pieces, three I_vertical and an I_horizontal
    in 100 cells.  With a wasted cell costing what one piece out of proportion does, the
    states kept the T pieces in proportion at the cost of cells left empty, and only a
    256 000-state beam found a packing either way; costing two, a 16 000-state beam along
    the columns does (docs/BENCHMARKS.md, "Twenty-first pass")."""
    pieces = decode("aeegggggedbagadgeeegeee")
    types = list(dict.fromkeys(pieces))
    counts = [pieces.count(t) for t in types]
    packing, _ = _profile.beam([t.cells for t in types], counts, 10, [], [0] * len(types), 16_000, None, None, 1)
    assert packing is not None
    check_packing(packing, types, counts, 10, set())


@pytest.mark.slow
def test_a_corners_last_beam_finds_the_completion_its_first_beams_do_not():
    """hoaroamhamhhrbmhhmjmmaaa at side 10, its first piece (an L_0) at corner 0: the rest
    has a completion that no beam within a corner's first cap (BEAM_MAX) finds, CaDiCaL and
    the C core did not find in 10 s, and the DP proved at 2.56 M states; the corner's last
    beam (`CORNER_BEAM_LAST`) finds it (docs/BENCHMARKS.md, "Twenty-sixth pass")."""
    pieces = decode("hoaroamhamhhrbmhhmjmmaaa")
    types = list(dict.fromkeys(pieces))
    counts = [pieces.count(t) for t in types]
    board = side_questions.Side(types, counts, 10, None)
    cells = board.placement(0, 0)
    assert cells is not None
    counts[0] -= 1
    assert ("beam", side_questions.CORNER_BEAM_LAST, side_questions.CORNER_BEAM_LAST) in side_questions.CORNER_LAST
    assert board.packable_by("beam", side_questions.BEAM_MAX, counts, cells) is None
    assert board.packable_by("beam", side_questions.CORNER_BEAM_LAST, counts, cells) is True
    assert board.found is not None
    check_packing(board.found, types, counts, 10, set(cells))


# The beam asked first on every run, corner and side; the exact helpers settle what it
# leaves (the DP without a budget, CaDiCaL).
BEAM_FIRST = {"FIRST_C_BUDGET": 1, "ORDERED_C_BUDGET": 1, "DP_LAYER_BUDGET": 1,
              "RUN_STAGES": (("beam", 1, 16), ("dp-next", 0, 0)),
              "SIDE_STAGES": (("beam", 1, 16), ("sat", 0, 0)),
              "CORNER_STAGES": (("beam", 1, 16), ("sat", 0, 0))}


def beam_first(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """BEAM_FIRST set; returns whether each beam asked found a packing."""
    set_knobs(monkeypatch, BEAM_FIRST)
    found: list[bool] = []
    original = side_questions.Side._packable_by

    def counted(self: side_questions.Side, helper: str, *args: object) -> bool | None:
        answer = original(self, helper, *args)  # type: ignore[arg-type]
        if helper == "beam":
            found.append(answer is True)
        return answer

    monkeypatch.setattr(side_questions.Side, "_packable_by", counted)
    return found


def small_files(seed: int) -> list[Shape]:
    rng = random.Random(f"beam/{seed}")
    subset = rng.sample([SHAPE_BY_NAME[n] for n in ("T_up", "T_down", "T_left", "L_0", "J_180", "S_vertical", "O")],
                        rng.randint(2, 4))
    return [rng.choice(subset) for _ in range(rng.randint(4, 7))]


@pytest.mark.parametrize("seed", range(16))
def test_beam_first_matches_plain(seed, monkeypatch):
    beam_first(monkeypatch)
    pieces = small_files(seed)
    assert solve(pieces, engine="c") == Solution(*solve_plain(pieces))


def test_beam_first_finds_packings_on_those_files(monkeypatch):
    """The property above is not vacuous: the beam answers some of their questions."""
    found = beam_first(monkeypatch)
    for seed in range(16):
        solve(small_files(seed), engine="c")
    assert found.count(True) >= 5, found
