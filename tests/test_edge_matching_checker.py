"""The edge-matching checker: properties over constructed puzzles (a constructed solution
scores 100 %, a swap of two pieces is caught), every illegal answer named, partial credit."""
from __future__ import annotations

import random

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from generators.cases import Case
from harness.jail import RunResult
from exercises.edge_matching import EXERCISE
from exercises.edge_matching.board import board_text, count_edges
from exercises.edge_matching.checker import judge
from exercises.edge_matching.generate import solvable
from exercises.edge_matching.heuristic import heuristic
from exercises.edge_matching.puzzle import NONE, Puzzle
from exercises.edge_matching.render import board_drawing
from exercises.edge_matching.strategies import constructed

FAST = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def case_of(puzzle: Puzzle, expected: str = "", category: str = "valid") -> Case:
    return Case(id="valid/t", category=category, input=puzzle.text(), expected=expected or "?")  # type: ignore[arg-type]


def run_of(text: str) -> RunResult:
    return RunResult(text.encode(), b"", 0, None, 0.0, 0.0, 0, None, "rlimits")


@FAST
@given(constructed())
def test_a_constructed_solution_scores_every_edge(pair):
    puzzle, solution = pair
    verdict = EXERCISE.check(case_of(puzzle), [run_of(board_text(puzzle, solution))], False)
    assert verdict.verdict == "OK", verdict.message
    assert verdict.details["matched"] == verdict.details["total"] == puzzle.inner_edges


@FAST
@given(constructed(max_side=5), st.data())
def test_any_swap_of_two_pieces_is_caught(pair, data):
    """Two cells exchange their pieces (each keeps its rotation): the checker passes the
    board exactly when every inner edge still joins equal colours (other than 0), which
    two cells apart that show different colours inwards never do; moving piece 1 is its
    own error."""
    puzzle, solution = pair
    assume(len(solution) >= 2)
    i, j = data.draw(st.lists(st.integers(0, len(solution) - 1), min_size=2, max_size=2, unique=True))
    board = list(solution)
    board[i], board[j] = board[j], board[i]
    verdict = judge(case_of(puzzle), board_text(puzzle, board))
    if 0 in (i, j):
        assert verdict.diagnosis == "first_piece"
        return
    still = _every_edge_joins_equal_colours(puzzle, board)
    assert verdict.verdict == ("OK" if still else "WRONG"), verdict.message
    if not still:
        assert verdict.diagnosis == "partial" and verdict.credit is not None and 0 <= verdict.credit < 1
    apart = abs(i // puzzle.cols - j // puzzle.cols) + abs(i % puzzle.cols - j % puzzle.cols) > 1
    shown_i, shown_j = puzzle.oriented(*solution[i]), puzzle.oriented(*solution[j])
    if apart and any(shown_i[s] != shown_j[s] for s in _inner_sides(puzzle, i) | _inner_sides(puzzle, j)):
        assert not still


def _every_edge_joins_equal_colours(puzzle: Puzzle, board: list[tuple[int, int]]) -> bool:
    shown = [puzzle.oriented(*cell) for cell in board]
    cols = puzzle.cols
    across = all(shown[k][1] == shown[k + 1][3] != 0 for k in range(len(board)) if k % cols != cols - 1)
    down = all(shown[k][2] == shown[k + cols][0] != 0 for k in range(len(board) - cols))
    return across and down


def _inner_sides(puzzle: Puzzle, cell: int) -> set[int]:
    row, col = divmod(cell, puzzle.cols)
    return {s for s, out in enumerate((row == 0, col == puzzle.cols - 1, row == puzzle.rows - 1, col == 0)) if not out}


@FAST
@given(constructed(max_side=5), st.data())
def test_turning_one_piece_is_caught(pair, data):
    puzzle, solution = pair
    assume(len(solution) >= 2)
    cell = data.draw(st.integers(1, len(solution) - 1))
    piece, rotation = solution[cell]
    turn = data.draw(st.integers(1, 3))
    turned = puzzle.oriented(piece, rotation + turn)
    assume(any(turned[s] != puzzle.oriented(piece, rotation)[s] for s in _inner_sides(puzzle, cell)))
    board = list(solution)
    board[cell] = (piece, (rotation + turn) % 4)
    verdict = judge(case_of(puzzle), board_text(puzzle, board))
    assert verdict.diagnosis == "partial" and verdict.credit is not None and verdict.credit < 1


def _puzzle() -> tuple[Puzzle, tuple[tuple[int, int], ...]]:
    return solvable(3, 3, 3, True, random.Random(7))


def _lines(text: str) -> list[list[str]]:
    return [line.split() for line in text.splitlines()]


def test_illegal_boards_are_named():
    puzzle, solution = _puzzle()
    good = board_text(puzzle, solution)
    rows = _lines(good)
    cases = {
        "reused_piece": [rows[0], rows[1], rows[2][:2] + [rows[1][0]]],
        "unknown_piece": [rows[0], rows[1], rows[2][:2] + ["10/0"]],
        "bad_rotation": [rows[0], rows[1], rows[2][:2] + [rows[2][2].split("/")[0] + "/4"]],
        "wrong_count": [rows[0], rows[1]],
        "format": [rows[0], rows[1], rows[2][:2] + ["x"]],
    }
    for diagnosis, board in cases.items():
        text = "".join(" ".join(row) + "\n" for row in board)
        verdict = judge(case_of(puzzle), text)
        assert (verdict.verdict, verdict.diagnosis, verdict.credit) == ("WRONG", diagnosis, None), (diagnosis, verdict)
    assert "piece 10" in judge(case_of(puzzle), "".join(" ".join(r) + "\n" for r in cases["unknown_piece"])).message
    wrong_width = "".join(" ".join(row) + "\n" for row in [rows[0], rows[1] + ["9/0"], rows[2][:2]])
    assert judge(case_of(puzzle), wrong_width).diagnosis == "wrong_count"


def test_piece_1_must_stay_at_the_top_left_unrotated():
    puzzle, solution = _puzzle()
    turned = ((1, 2),) + solution[1:]
    verdict = judge(case_of(puzzle), board_text(puzzle, turned))
    assert verdict.diagnosis == "first_piece" and "turned 2 time(s)" in verdict.message


def test_layout_defects_are_format_even_on_a_full_solution():
    puzzle, solution = _puzzle()
    text = board_text(puzzle, solution)
    for broken, defect in ((text[:-1], "missing final newline"), (text.replace("\n", " \n"), "trailing spaces"),
                           (text.replace(" ", "  "), "exactly one space")):
        verdict = judge(case_of(puzzle), broken)
        assert verdict.diagnosis == "format" and defect in verdict.message
        assert verdict.message.startswith("the board is a full solution")


def test_none_error_and_their_mistakes():
    puzzle, solution = _puzzle()
    solved = case_of(puzzle, board_text(puzzle, solution))
    unsolvable = case_of(puzzle, NONE)
    assert judge(solved, "none\n").diagnosis == "false_none"
    assert judge(solved, "error\n").diagnosis == "false_error"
    assert judge(unsolvable, "none\n").verdict == "OK"
    assert judge(unsolvable, "None\n").diagnosis == "format"
    missed = judge(unsolvable, board_text(puzzle, solution))
    assert (missed.diagnosis, missed.credit) == ("missed_none", None)
    invalid = Case(id="invalid/x", category="invalid", input=b"2 2\n", expected="error\n", rule="piece_count")
    assert judge(invalid, "error\n").verdict == "OK"
    assert judge(invalid, "Error\n").diagnosis == "format"
    assert judge(invalid, "1/0\n").diagnosis == "missed_error"


def test_the_heuristic_earns_its_matched_edges_and_the_board_marks_them():
    puzzle, _ = solvable(5, 5, 4, True, random.Random(3))
    board = heuristic(puzzle)
    score = count_edges(puzzle, board)
    assert 0 < score.matched < score.total  # this draw: the greedy gets stuck
    verdict = EXERCISE.check(case_of(puzzle), [run_of(board_text(puzzle, board))], False)
    assert (verdict.verdict, verdict.diagnosis) == ("WRONG", "partial")
    assert verdict.credit == score.matched / score.total
    assert verdict.message.startswith(f"matched {score.matched}/{score.total} edges")
    assert len(verdict.details["mismatches"]) == score.total - score.matched
    drawing = board_drawing(puzzle, board, score)
    across = sum(line.count("!!!") for line in drawing if line.startswith("+"))
    along = sum(line.count("!") for line in drawing if line.startswith("|"))  # each on a cell's 3 lines
    assert across + along // 3 == score.total - score.matched and along % 3 == 0
    assert drawing == verdict.details["board"]


def test_of_two_runs_the_worse_counts():
    puzzle, solution = _puzzle()
    good = board_text(puzzle, solution)
    verdict = EXERCISE.check(case_of(puzzle), [run_of(good), run_of("none\n")], False)
    assert verdict.diagnosis == "false_none"
