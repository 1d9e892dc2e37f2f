"""The edge-matching input rules, generators and reference: every invalid category is
rejected for its rule, constructed puzzles read back, the pruned search finds the same
first solution as an unpruned enumeration, unsolvable cases are proven so, and every
solvable case of the quick and standard suites is solved by the reference."""
from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given, settings

from exercises.edge_matching import EXERCISE
from exercises.edge_matching.board import count_edges
from exercises.edge_matching.checker import judge
from exercises.edge_matching.generate import solvable, unsolvable
from exercises.edge_matching.invalid import INVALID_CATEGORIES
from exercises.edge_matching.puzzle import NONE, RULES, parse
from exercises.edge_matching.solver import OutOfBudget, answer_text, solve
from exercises.edge_matching.strategies import constructed, fuzz_inputs


@pytest.mark.parametrize("name", sorted(INVALID_CATEGORIES))
def test_each_invalid_category_breaks_its_rule(name):
    spec = INVALID_CATEGORIES[name]
    assert spec.rule in RULES
    for seed in range(5):
        rejection = parse(spec.build(random.Random(seed))).rejection
        assert rejection is not None and rejection.rule == spec.rule, (name, seed, rejection)


@pytest.mark.parametrize("data, rule", [
    (b"", "empty"), (b"1 1\n0 0 0 0", "layout"), (b"1 1\n0 0 0 0\n\n", "layout"), (b"1 1 \n0 0 0 0\n", "layout"),
    (b"01 1\n0 0 0 0\n", "number"), (b"1\n", "header"), (b"17 1\n", "size"), (b"1 2\n0 0 0 0\n", "piece_count"),
    (b"1 1\n0 0 0\n", "piece_sides"), (b"1 1\n0 0 0 100\n", "colour"), (b"1 1\n0 0 0 1\n", "border_count"),
])
def test_rules_on_small_files(data, rule):
    rejection = parse(data).rejection
    assert rejection is not None and rejection.rule == rule


@settings(max_examples=40, deadline=None)
@given(constructed())
def test_a_constructed_puzzle_reads_back_and_piece_1_fits(pair):
    puzzle, solution = pair
    assert parse(puzzle.text()).puzzle == puzzle
    assert solution[0] == (1, 0) and sorted(p for p, _ in solution) == list(range(1, len(solution) + 1))
    assert count_edges(puzzle, solution).complete


def _fits(puzzle, board, cell, sides) -> bool:
    row, col = divmod(cell, puzzle.cols)
    if row and not sides[0] == puzzle.oriented(*board[cell - puzzle.cols])[2] != 0:
        return False
    if col and not sides[3] == puzzle.oriented(*board[cell - 1])[1] != 0:
        return False
    outer = (row == 0, col == puzzle.cols - 1, row == puzzle.rows - 1, col == 0)
    return not puzzle.framed or all((side == 0) == out for side, out in zip(sides, outer))


def _plain_first(puzzle) -> tuple | None:
    """The seed's order, plain backtracking: every unused piece, every rotation, no table,
    no skipped twin or rotation."""
    n = len(puzzle.pieces)
    board = [(1, 0)]
    if not _fits(puzzle, board, 0, puzzle.pieces[0]):
        return None

    def fill(cell: int) -> bool:
        if cell == n:
            return True
        for piece in range(2, n + 1):
            if any(p == piece for p, _ in board):
                continue
            for rotation in range(4):
                if _fits(puzzle, board, cell, puzzle.oriented(piece, rotation)):
                    board.append((piece, rotation))
                    if fill(cell + 1):
                        return True
                    board.pop()
        return False

    return tuple(board) if fill(1) else None


def _first_by_enumeration(puzzle) -> tuple | None:
    """Every board in the seed's order (permutations of pieces 2..n, then rotations): the
    first whose every cell fits."""
    n = len(puzzle.pieces)
    for order in itertools.permutations(range(2, n + 1)):
        for turns in itertools.product(range(4), repeat=n - 1):
            board = ((1, 0),) + tuple(zip(order, turns))
            if all(_fits(puzzle, board, cell, puzzle.oriented(*board[cell])) for cell in range(n)):
                return board
    return None


@pytest.mark.parametrize("rows, cols, colours, framed", [(2, 2, 1, True), (2, 2, 2, True), (1, 4, 2, False),
                                                         (2, 2, 2, False)])
def test_the_plain_oracle_is_the_enumeration(rows, cols, colours, framed):
    for seed in range(4):
        puzzle, _ = solvable(rows, cols, colours, framed, random.Random(seed))
        assert _plain_first(puzzle) == _first_by_enumeration(puzzle) is not None


@pytest.mark.parametrize("rows, cols, colours, framed", [(2, 2, 2, True), (3, 3, 2, True), (3, 4, 3, True),
                                                         (4, 4, 3, True), (3, 3, 3, False), (2, 5, 2, False)])
def test_pruning_never_cuts_the_first_solution(rows, cols, colours, framed):
    """Identical pieces, symmetric rotations and the (top, left) table skip only subtrees
    that cannot hold the first solution: the pruned search's board is plain backtracking's."""
    for seed in range(4):
        puzzle, _ = solvable(rows, cols, colours, framed, random.Random(seed))
        assert solve(puzzle).board == _plain_first(puzzle), (puzzle, seed)


def test_unsolvable_kinds_are_proven():
    rng = random.Random(5)
    odd = solve(unsolvable("odd_colour", 4, 4, 3, rng))
    assert odd.board is None and "odd number" in odd.proof and odd.nodes == 0
    corner = solve(unsolvable("corner_moved", 3, 3, 3, rng))
    assert corner.board is None and "top-left corner" in corner.proof
    swapped = unsolvable("swapped_sides", 3, 3, 3, rng)
    assert solve(swapped).proof == "exhaustive search" and answer_text(swapped.text()) == NONE
    assert _plain_first(swapped) is None


def test_the_budget_stops_the_search():
    puzzle, _ = solvable(7, 7, 8, True, random.Random(1))
    with pytest.raises(OutOfBudget):
        solve(puzzle, budget=10)


@pytest.mark.parametrize("suite", ["quick", "standard"])
def test_the_reference_answers_every_case_as_the_suite_expects(suite):
    for case in EXERCISE.suite(suite):
        assert answer_text(case.input or b"") == case.expected, case.id
        puzzle = parse(case.input or b"").puzzle
        if puzzle is not None and case.expected != NONE:
            assert judge(case, str(case.expected)).verdict == "OK", case.id


def test_suites_are_deterministic_and_cover_every_family():
    standard = EXERCISE.suite("standard")
    assert standard == EXERCISE.suite("standard", EXERCISE.fixed_seed)
    assert EXERCISE.suite("standard", 7) != standard
    assert {case.category for case in standard} == set(EXERCISE.weights)
    ids = " ".join(case.id for case in standard)
    for family in ("framed", "free", "few", "critical", "eternity", "none-odd_colour", "none-corner_moved",
                   "none-swapped_sides"):
        assert family in ids
    assert {case.rule for case in standard if case.rule} == set(RULES)
    quick = {case.id: case for case in EXERCISE.suite("quick")}
    assert all(quick[case.id] == case for case in standard if case.id in quick)
    full = EXERCISE.suite("full")
    assert len(full) > len(standard) and len({case.id for case in full}) == len(full)


@settings(max_examples=20, deadline=None)
@given(fuzz_inputs())
def test_fuzz_inputs_are_answered_quickly(data):
    answer = answer_text(data)
    assert answer == "error\n" or parse(data).puzzle is not None
    if answer != "error\n":
        assert solve(parse(data).puzzle, budget=50_000).board is not None  # type: ignore[arg-type]
