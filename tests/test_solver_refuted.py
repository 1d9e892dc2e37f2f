"""A question refuted once is not asked again (`reference.refuted`, `Side.refuted`).

The memo answers "no packing" for a question proved so before, or for one that only adds
order to it (a larger min_corner in every type).  Answering "no" for anything else would
skip a corner that has a completion: the answer would no longer be the plain search's.
"""
from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reference import side_questions
from reference.plain import solve_plain
from reference.refuted import Refuted
from reference.shapes import SHAPE_BY_NAME, SHAPES, Shape
from reference.solver import Solution, available_engines, solve
from solver_knobs import set_knobs

pytestmark = pytest.mark.skipif("c" not in available_engines(), reason="the C core is not built")

min_corners = st.tuples(st.integers(0, 4), st.integers(0, 4), st.integers(0, 4))


@settings(max_examples=200, deadline=None)
@given(refuted=st.lists(min_corners, max_size=8), asked=min_corners)
def test_holds_exactly_when_a_refuted_min_corner_is_at_most_the_one_asked(refuted, asked):
    memo = Refuted()
    for min_corner in refuted:
        memo.add([1, 2, 3], {5, 6}, min_corner)
    expected = any(all(r <= a for r, a in zip(min_corner, asked)) for min_corner in refuted)
    assert memo.holds([1, 2, 3], {6, 5}, asked) is expected
    # Another question (other counts or other cells taken) is not refuted by these.
    assert not memo.holds([1, 2, 4], {5, 6}, asked) and not memo.holds([1, 2, 3], {5}, asked)


def test_a_refuted_question_is_not_asked_again_and_order_stays_part_of_it():
    # Four O on the 4 x 4 square: one packing, whose first O is at corner 0.
    board = side_questions.Side([SHAPE_BY_NAME["O"]], [4], 4, None)
    assert board.first_corner([4], [], [1], 0, 0) is None  # no O may start at corner 0
    assert board.work > 0
    assert board.first_corner([4], [], [1], 0, 0) is None and board.work == 0  # asked again: the memo
    assert board.first_corner([4], [], [2], 0, 0) is None and board.work == 0  # more order: refuted too
    # Without that order the pieces pack: the memo must not say otherwise.
    assert board.first_corner([4], [], [0], 0, 0) == 0 and board.work > 0
    assert board.packable_by("c", 0, [4], frozenset()) is True
    # The C core's "no" has no order: it refutes the question whatever min_corner is asked.
    assert board.packable_by("c", 0, [4], frozenset({0})) is False
    assert board.first_corner([4], [0], [0], -1, 0) is None and board.work == 0


# Every side settled by the DP and the C core's order-free search, runs of plain moves
# first: the attempts after a run re-ask the longer runs the one before refuted.
RUNS = {"FIRST_C_BUDGET": 1, "FIRST_CORNER_BEAM": 0, "ORDERED_C_BUDGET": 1, "DP_LAYER_BUDGET": 0,
        "RUN_BEAM": 0, "RUN_STAGES": (("c", 0, 0),)}


def few_shape_file(seed: int) -> list[Shape]:
    rng = random.Random(f"refuted/{seed}")
    subset = rng.sample(list(SHAPES), rng.randint(2, 3))
    return [rng.choice(subset) for _ in range(rng.randint(5, 8))]


def test_files_whose_questions_the_memo_answers_match_plain(monkeypatch: pytest.MonkeyPatch):
    answered = []
    holds = Refuted.holds

    def counting(self: Refuted, *question: object) -> bool:
        known = holds(self, *question)  # type: ignore[arg-type]
        answered.append(known)
        return known

    monkeypatch.setattr(Refuted, "holds", counting)
    set_knobs(monkeypatch, RUNS)
    for seed in range(40):
        pieces = few_shape_file(seed)
        assert solve(pieces, engine="c") == Solution(*solve_plain(pieces)), seed
    assert sum(answered) >= 5, "the memo answers questions here"
