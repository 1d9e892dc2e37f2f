"""The packing LP of one question (`lp_bound.lp_certificate` with occupied cells and
min_corners, `Side.lp_refutes`, the helper "lp").

Its "no" skips a corner or a run without any other proof, so it must never refute a
question that has a packing: checked here against packings that exist, and against the
plain seed backtracking with the LP asked first on every run and corner.  It must also
do the job it is there for: refute the S/Z questions the profile DP took tenths of a
second on, which the DP, asked without a budget, confirms.
"""
from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generators.hard import decode
from reference import _profile, side_questions
from reference.lp_bound import certificate, lp_certificate
from reference.plain import solve_plain
from reference.shapes import SHAPE_BY_NAME, SHAPES, Shape
from reference.solver import Solution, available_engines, solve
from solver_knobs import set_knobs

pytestmark = pytest.mark.skipif("c" not in available_engines(), reason="the C core is not built")

SKEW_AND_O = [SHAPE_BY_NAME[n] for n in ("S_horizontal", "S_vertical", "Z_horizontal", "Z_vertical", "O")]


def random_packing(side: int, rng: random.Random, shapes: list[Shape]) -> list[tuple[Shape, int]]:
    """(shape, corner) of the pieces of a random packing, in increasing corner order."""
    taken: set[int] = set()
    placed = []
    for _ in range(300):
        shape = rng.choice(shapes)
        row, col = rng.randrange(side - shape.height + 1), rng.randrange(side - shape.width + 1)
        cells = {(row + r) * side + col + c for r, c in shape.cells}
        if not cells & taken:
            taken |= cells
            placed.append((shape, row * side + col))
    return sorted(placed, key=lambda piece: piece[1])


def cells_of(shape: Shape, corner: int, side: int) -> set[int]:
    row, col = divmod(corner, side)
    return {(row + r) * side + col + c for r, c in shape.cells}


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32), skew=st.booleans())
def test_never_refutes_a_question_that_has_a_packing(seed, skew):
    """Some pieces of a packing fixed (their cells occupied), the rest asked with
    min_corners no larger than their own corners: the question has that packing."""
    rng = random.Random(seed)
    side = rng.randint(5, 9)
    packing = random_packing(side, rng, rng.sample(SKEW_AND_O if skew else list(SHAPES), rng.randint(1, 4)))
    types = list(dict.fromkeys(shape for shape, _ in packing))
    fixed = set(rng.sample(range(len(packing)), rng.randint(0, len(packing) // 2)))
    occupied = set().union(*(cells_of(*packing[i], side) for i in fixed))
    rest = [packing[i] for i in range(len(packing)) if i not in fixed]
    counts = [sum(1 for shape, _ in rest if shape == t) for t in types]
    min_corner = [rng.randint(0, min((c for shape, c in rest if shape == t), default=0)) for t in types]
    found = lp_certificate(types, counts, side, occupied, min_corner)
    assert found is not None and not found.excludes(counts)
    # Nonsense duals still give a certificate that must not exclude it.
    noise = certificate(types, counts, side, [rng.random() for _ in range(side * side)],
                        [rng.random() for _ in types], occupied, min_corner)
    assert not noise.excludes(counts)


# A question of spprqppqrsqssqqrprprprqsp at side 11 (docs/BENCHMARKS.md, "Eleventh pass"):
# its first four pieces at their answers, the fifth (S_vertical) at corner 17: can the
# other 20 pieces be packed?  The DP took 0.09 s to say no; the LP's maximum is 19.
SKEW_FILE = "spprqppqrsqssqqrprprprqsp"
SKEW_PLACED = ((0, 0), (1, 2), (1, 4), (2, 7), (3, 17))  # (type, corner) of the pieces fixed


def skew_question() -> tuple[list[Shape], list[int], set[int], list[int]]:
    pieces = decode(SKEW_FILE)
    types = list(dict.fromkeys(pieces))
    counts = [pieces.count(t) for t in types]
    occupied: set[int] = set()
    min_corner = [0] * len(types)
    for t, corner in SKEW_PLACED:
        counts[t] -= 1
        occupied |= cells_of(types[t], corner, 11)
        min_corner[t] = corner + 1
    return types, counts, occupied, min_corner


def test_refutes_a_skew_question_the_dp_confirms_has_no_packing():
    types, counts, occupied, min_corner = skew_question()
    assert [t.name for t in types] == ["Z_vertical", "S_horizontal", "Z_horizontal", "S_vertical"]
    found = lp_certificate(types, counts, 11, occupied, min_corner)
    assert found is not None and found.excludes(counts)
    # The empty square's certificate does not see it: the fixed pieces make the waste.
    side_wide = lp_certificate(types, counts, 11)
    assert side_wide is not None and not side_wide.excludes(counts)
    # The exact DP, without a budget, agrees.
    assert _profile.first_corner([t.cells for t in types], counts, 11, sorted(occupied), min_corner, -1, 0) is None
    # Side.lp_refutes remembers the proof: the question is refuted from then on.
    board = side_questions.Side(types, counts, 11, None)
    assert board.lp_refutes(counts, occupied, min_corner)
    assert board.refuted.holds(counts, occupied, min_corner)


def test_a_side_stops_asking_the_lp_when_it_proves_nothing(monkeypatch):
    """Questions that all have packings: LP_TRIES_PER_PROOF of them are asked, then none."""
    asked = []

    def counted(*args):
        asked.append(args)
        return lp_certificate(*args)

    monkeypatch.setattr(side_questions, "lp_certificate", counted)
    o = SHAPE_BY_NAME["O"]
    board = side_questions.Side([o], [4], 6, None)
    questions = [([3], cells_of(o, corner, 6), [0]) for corner in range(0, 25, 2)]
    assert not any(board.lp_refutes(*question) for question in questions)
    assert len(asked) == side_questions.LP_TRIES_PER_PROOF
    # The same question is never solved twice, proof or not.
    board = side_questions.Side([o], [4], 6, None)
    assert not board.lp_refutes(*questions[0]) and not board.lp_refutes(*questions[0])
    assert len(asked) == side_questions.LP_TRIES_PER_PROOF + 1


# The LP asked first on every run and every corner, always: the DP gives up at once, the C
# core has no probe, CaDiCaL settles what the LP leaves.
LP_FIRST = {"FIRST_C_BUDGET": 1, "FIRST_CORNER_BEAM": 0, "ORDERED_C_BUDGET": 1,
            "DP_LAYER_BUDGET": 1,
            "LP_TRIES_PER_PROOF": 10**9, "RUN_BEAM": 0, "RUN_STAGES": (("lp", 1, 1), ("c", 0, 0)),
            "SIDE_STAGES": (("sat", 0, 0),), "CORNER_STAGES": (("lp", 1, 1), ("sat", 0, 0))}


def skew_files(seed: int) -> list[Shape]:
    rng = random.Random(f"question-lp/{seed}")
    subset = rng.sample(SKEW_AND_O, rng.randint(2, 4))
    return [rng.choice(subset) for _ in range(rng.randint(3, 7))]


def lp_first(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """LP_FIRST set; returns the LP's answers, filled as it is asked.  Each proof is checked
    as it is made: the DP, without a budget, must find no packing either."""
    set_knobs(monkeypatch, LP_FIRST)
    proofs: list[bool] = []
    original = side_questions.Side.lp_refutes

    def checked(self: side_questions.Side, counts: list[int], occupied: set[int], min_corner: list[int]) -> bool:
        proofs.append(original(self, counts, occupied, min_corner))
        if proofs[-1]:
            assert _profile.first_corner(self.cells, counts, self.side, sorted(occupied), min_corner, -1, 0) is None
        return proofs[-1]

    monkeypatch.setattr(side_questions.Side, "lp_refutes", checked)
    return proofs


@pytest.mark.parametrize("seed", range(16))
def test_lp_first_matches_plain(seed, monkeypatch):
    lp_first(monkeypatch)
    pieces = skew_files(seed)
    assert solve(pieces, engine="c") == Solution(*solve_plain(pieces))


@pytest.mark.parametrize("seed", [0, 5, 10, 17, 26, 38])  # seeds whose files have runs the LP refutes
def test_lp_first_matches_the_other_helpers_on_larger_files(seed, monkeypatch):
    """12-16 pieces, beyond the plain search: the answer without the LP (the C core's
    search, at its default budget) is the reference."""
    rng = random.Random(f"question-lp-large/{seed}")
    subset = rng.sample(SKEW_AND_O, rng.randint(2, 4))
    pieces = [rng.choice(subset) for _ in range(rng.randint(12, 16))]
    monkeypatch.setattr(side_questions, "LP_QUESTIONS", False)
    expected = solve(pieces, engine="c")
    monkeypatch.setattr(side_questions, "LP_QUESTIONS", True)
    proofs = lp_first(monkeypatch)
    assert solve(pieces, engine="c") == expected
    assert proofs.count(True) >= 2, proofs


def test_lp_first_refutes_some_questions_of_the_small_files(monkeypatch):
    """The property against plain is not vacuous: over its files the LP proves some questions."""
    proofs = lp_first(monkeypatch)
    for seed in range(16):
        solve(skew_files(seed), engine="c")
    assert proofs.count(True) >= 3, proofs
