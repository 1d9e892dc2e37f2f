"""A helper's "yes" comes with its packing: the witness that ends a piece's corners early.

`Side.packable_by` keeps the packing the C core's order-free search or the SAT solver
found (`Side.found`); once its question's pieces are placed it is the witness of the
pieces still to place (`Side.witness`), and the next piece of a type needs only the
corners before the witness's piece of that type (`corners.smallest_corner`).  A witness
that were not a packing of exactly those pieces, or whose corners were in another
convention than `Side.placement`'s, would end a piece's corners at one with no
completion, or skip the right one: the answers would differ from the plain search's.
"""
from __future__ import annotations

import random
from collections import Counter

import pytest

from reference import _fastsolve, corners, runs, sat_side, side_questions
from reference.plain import solve_plain
from reference.shapes import SHAPE_BY_NAME, SHAPES, Shape
from reference.solver import Solution, solve
from solver_knobs import set_knobs

_MIXES = [("L_90", "T_down", "T_right", "L_0"), ("I_vertical", "J_90", "J_270", "L_0"), ("S_horizontal", "Z_vertical"),
          ("J_270", "L_180", "J_0"), ("T_up", "T_left", "I_vertical", "O")]


def packable_question(seed: int) -> tuple[side_questions.Side, list[int], list[int]]:
    """A Side, the counts of the pieces left and the cells taken by those placed: a packing
    of random pieces, some of whose pieces are kept as the ones placed."""
    rng = random.Random(f"witness/{seed}")
    types = [SHAPE_BY_NAME[name] for name in rng.choice(_MIXES)]
    side = rng.randint(5, 7)
    board = side_questions.Side(types, [0] * len(types), side, None)
    placed: list[tuple[int, frozenset[int]]] = []
    taken: set[int] = set()
    for _ in range(side * side):
        t, corner = rng.randrange(len(types)), rng.randrange(side * side)
        cells = board.placement(t, corner)
        if cells is not None and taken.isdisjoint(cells):
            placed.append((t, cells))
            taken |= cells
    keep = rng.randint(0, len(placed) // 3)
    occupied = sorted(cell for _, cells in placed[:keep] for cell in cells)
    counts = [sum(1 for t, _ in placed[keep:] if t == u) for u in range(len(types))]
    return side_questions.Side(types, counts, side, None), counts, occupied


def assert_packs(board: side_questions.Side, packing: list[tuple[int, int]] | None, counts: list[int],
                 occupied: list[int]) -> None:
    """`packing` places exactly `counts` pieces of each type, inside the square, on cells
    neither occupied nor shared."""
    assert packing is not None
    assert Counter(t for t, _ in packing) == Counter({t: n for t, n in enumerate(counts) if n})
    covered = set(occupied)
    for t, corner in packing:
        cells = board.placement(t, corner)
        assert cells is not None and covered.isdisjoint(cells), (t, corner)
        covered |= cells


@pytest.mark.parametrize("seed", range(25))
def test_the_c_cores_yes_comes_with_a_packing_of_its_question(seed: int):
    board, counts, occupied = packable_question(seed)
    assert board.packable_by("c", 0, counts, frozenset(occupied)) is True
    assert_packs(board, board.found, counts, occupied)
    # Its memo of failed states does not stand in for a packing: asked again, the same.
    assert board.packable_by("c", 0, counts, frozenset(occupied)) is True
    assert_packs(board, board.found, counts, occupied)


def test_the_c_cores_no_comes_without_one():
    board = side_questions.Side([SHAPE_BY_NAME["S_horizontal"]], [4], 4, None)
    assert board.packable_by("c", 0, [4], frozenset()) is False and board.found is None
    assert board.packer.packing() is None


@pytest.mark.skipif(not sat_side.available(), reason="python-sat is a test dependency")
@pytest.mark.parametrize("seed", range(12))
def test_the_sat_solvers_yes_comes_with_a_packing_less_the_pieces_placed(seed: int):
    board, counts, _ = packable_question(seed)
    assert board.packable_by("sat", 0, counts, frozenset()) is True
    assert_packs(board, board.found, counts, [])
    # With a piece placed where the packing has it, the rest is a packing around it.
    assert board.found
    t, corner = board.found[0]
    board.place(t, corner)
    left = list(counts)
    left[t] -= 1
    sat = board.sat_solver()
    assert sat is not None and sat.packable(0)
    rest = board._unplaced(sat.model_packing())
    cells = board.placement(t, corner)
    assert cells is not None
    assert_packs(board, rest, left, sorted(cells))


def test_the_witness_follows_the_pieces_placed():
    board = side_questions.Side([SHAPE_BY_NAME["O"], SHAPE_BY_NAME["I_vertical"]], [3, 1], 4, None)
    witness = [(0, 0), (0, 2), (1, 3), (0, 10)]
    board.place(0, 0, witness[1:])  # the piece at 0 and a packing of the rest around it
    assert board.witness_corner(0, 1) == 2 and board.witness_corner(0, 3) == 10
    assert board.witness_corner(1, 0) == 3 and board.witness_corner(1, 4) is None
    board.place(0, 2)  # where the witness has it: the rest of the witness still packs
    assert board.witness == [(1, 3), (0, 10)] and board.witness_corner(0, 3) == 10
    board.place(1, 4)  # elsewhere: the witness no longer says anything
    assert board.witness is None and board.witness_corner(0, 0) is None


# The C core's order-free search, or the SAT solver, answers every side and every corner,
# so that every piece after the first "yes" can end at a witness's corner.
BY_C = {"FIRST_C_BUDGET": 1, "FIRST_CORNER_BEAM": 0, "ORDERED_C_BUDGET": 1, "DP_LAYER_BUDGET": 1,
        "RUN_BEAM": 0, "RUN_STAGES": (("dp-next", 1, 1),), "SIDE_STAGES": (("c", 0, 0),),
        "CORNER_STAGES": (("c", 0, 0),)}
BY_SAT = {**BY_C, "USE_SAT": True, "SIDE_STAGES": (("sat", 0, 0),), "CORNER_STAGES": (("sat", 0, 0),)}


def few_shape_file(seed: int) -> list[Shape]:
    """4-7 pieces from 1-3 shapes: plain solves them at once."""
    rng = random.Random(f"witness-file/{seed}")
    subset = rng.sample(SHAPES, rng.randint(1, 3))
    return [rng.choice(subset) for _ in range(rng.randint(4, 7))]


@pytest.mark.parametrize("overrides", [BY_C, pytest.param(BY_SAT, marks=pytest.mark.skipif(
    not sat_side.available(), reason="python-sat is a test dependency"))], ids=["c", "sat"])
def test_answers_that_end_at_a_witness_match_plain(overrides: dict[str, object], monkeypatch: pytest.MonkeyPatch):
    ended = []
    original = corners.smallest_corner

    def counting(board: side_questions.Side, t: int, counts: list[int], occupied: frozenset[int],
                 min_corner: list[int], start: int) -> tuple[int, list[tuple[int, int]] | None]:
        known = board.witness_corner(t, start)
        corner, witness = original(board, t, counts, occupied, min_corner, start)
        ended.append(corner == known)
        return corner, witness

    monkeypatch.setattr(corners, "smallest_corner", counting)
    few_shape_files_match_plain(overrides, monkeypatch)
    assert sum(ended) >= len(ended) // 4, "a witness ends the corners of many pieces"


def few_shape_files_match_plain(overrides: dict[str, object], monkeypatch: pytest.MonkeyPatch) -> None:
    """With these knobs set (each where it is defined), 30 few-shape files get the plain
    search's answers."""
    set_knobs(monkeypatch, overrides)
    for seed in range(30):
        pieces = few_shape_file(seed)
        assert solve(pieces, engine="c") == Solution(*solve_plain(pieces)), seed


def test_a_packing_confirms_the_runs_of_moves_it_follows():
    # Moves of types 0, 1, 0 at corners 0, 5, 9; pieces of a type are interchangeable.
    types, moves = [0, 1, 0], [0, 5, 9]
    assert runs._followed([(0, 9), (1, 5), (0, 0), (1, 20)], types, moves) == 3
    assert runs._followed([(0, 0), (1, 6), (0, 9)], types, moves) == 1  # the second move is not in it
    assert runs._followed([(0, 0), (1, 5)], types, moves) == 2
    assert runs._followed([(1, 5), (0, 9)], types, moves) == 0
    assert runs._followed(None, types, moves) == 0


# Runs settled by the C core alone: each "yes" is a packing, which may confirm longer runs.
RUNS_BY_C = {**BY_C, "RUN_STAGES": (("c", 0, 0),)}


def test_runs_confirmed_by_a_packing_match_plain(monkeypatch: pytest.MonkeyPatch):
    confirmed = []
    original = runs._followed

    def recording(packing: list[tuple[int, int]] | None, types: list[int], moves: list[int]) -> int:
        run = original(packing, types, moves)
        confirmed.append(run)
        return run

    monkeypatch.setattr(runs, "_followed", recording)
    few_shape_files_match_plain(RUNS_BY_C, monkeypatch)
    assert sum(run >= 2 for run in confirmed) >= 10, "packings confirm runs of several moves"


def test_the_beams_packing_of_the_rest_spares_run_questions(monkeypatch: pytest.MonkeyPatch):
    """`RUN_BEAM`: before its runs, the beam's packing of all the pieces still to place
    confirms the runs it follows, which are then not asked; the answers stay plain's."""
    asked = []
    original = runs.balanced

    def counting(helpers, ask, distrust=None, packable=bool):  # type: ignore[no-untyped-def]
        asked.append(helpers is runs.RUN_STAGES)
        return original(helpers, ask, distrust, packable)

    monkeypatch.setattr(runs, "balanced", counting)
    questions = {}
    for beam in (0, 1_000):
        asked.clear()
        # (Without the side's own packing first, `SIDE_FIRST`, which the runs would start from.)
        few_shape_files_match_plain({**RUNS_BY_C, "RUN_BEAM": beam, "SIDE_FIRST": ()}, monkeypatch)
        questions[beam] = sum(asked)
    assert questions[1_000] < questions[0], questions
