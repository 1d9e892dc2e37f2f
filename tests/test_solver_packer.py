"""The C core's Packer: one side's order-free search, its memo of failed states kept between
questions, answers exactly as a fresh search does.

`reference.staged` asks one Packer per side every question the C core gets there: the
runs of plain moves, the corners of the greedy and the side itself, on budgets that grow
budget after budget (`portfolio.balanced`).  A failed state is a fact about (board, counts),
whatever question reached it, so sharing the memo is sound only if nothing else leaks
between questions: the board, the counts, the budget, and the failures a search that ran
out of budget did not prove.  These tests ask one Packer long sequences of questions
(dense boards of a few shapes, a few cells taken, tiny and unbounded budgets mixed) and
compare every answer with a fresh `_fastsolve.packable`.
"""
from __future__ import annotations

import random

import pytest

from reference import _fastsolve  # (built by pip install: tests/test_solver.py checks it)
from reference.lp_bound import lp_certificate
from reference.shapes import SHAPE_BY_NAME, Shape

_MIXES = [("J_270", "L_180", "J_0"), ("L_90", "T_down", "T_right", "L_0"), ("S_vertical", "Z_vertical"),
          ("I_vertical", "L_90", "T_down"), ("J_180", "L_180", "J_270", "L_0", "T_left")]


def question(rng: random.Random, types: list[Shape], side: int) -> tuple[list[int], list[int]]:
    """Counts and occupied cells with 0-12 spare cells left, like the greedy's corners."""
    occupied = sorted(rng.sample(range(side * side), 4 * rng.randint(0, 3)))
    pieces = (side * side - len(occupied) - rng.randint(0, 12)) // 4
    counts = [0] * len(types)
    for _ in range(max(pieces, 1)):
        counts[rng.randrange(len(types))] += 1
    return counts, occupied


@pytest.mark.parametrize("seed", range(16))
def test_a_packer_answers_a_sequence_of_questions_as_fresh_searches_do(seed: int):
    rng = random.Random(f"packer/{seed}")
    types = [SHAPE_BY_NAME[name] for name in rng.choice(_MIXES)]
    side = rng.randint(5, 7)
    cells = [t.cells for t in types]
    packer = _fastsolve.Packer(cells, side)
    answers = []
    for _ in range(30):
        counts, occupied = question(rng, types, side)
        expected = _fastsolve.packable(cells, counts, side, occupied, 0, None)
        budget = rng.choice((1, 10, 100, 0, 0))
        got = packer.packable(counts, occupied, budget)
        # A budget may leave the question open (None), never answer it wrongly.
        assert got == expected or (got is None and budget), (counts, occupied, budget)
        # Asked again without a budget, after whatever the budgeted search remembered.
        assert packer.packable(counts, occupied) == expected
        answers.append(expected)
    assert True in answers and False in answers, "the questions must include both answers"


def test_a_packer_with_a_certificate_answers_as_the_module_does():
    """With the side's LP certificate, as staged makes it: the weights cut states, the
    answers stay those of the module's search with the same weights."""
    types = [SHAPE_BY_NAME[name] for name in ("S_vertical", "Z_vertical", "O")]
    side = 7
    cells = [t.cells for t in types]
    certificate = lp_certificate(types, [5, 5, 2], side)
    assert certificate is not None
    weights = certificate.as_c_weights()
    packer = _fastsolve.Packer(cells, side, weights)
    rng = random.Random("packer/certificate")
    for _ in range(20):
        counts, occupied = question(rng, types, side)
        counts = [min(c, m) for c, m in zip(counts, (5, 5, 2))]  # the certificate's counts at most
        assert packer.packable(counts, occupied) == _fastsolve.packable(cells, counts, side, occupied, 0, weights)


def test_a_packer_rejects_bad_questions_with_one_clear_error():
    packer = _fastsolve.Packer([SHAPE_BY_NAME["O"].cells], 4)
    with pytest.raises(ValueError, match="one count per type"):
        packer.packable([1, 1], [])
    with pytest.raises(ValueError, match="cell index out of the square"):
        packer.packable([1], [16])
    with pytest.raises(ValueError, match="side must be"):
        _fastsolve.Packer([SHAPE_BY_NAME["O"].cells], 40)
    assert packer.packable([4], []) is True and packer.packable([4], [0]) is False
