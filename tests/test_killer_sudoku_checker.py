"""The Killer Sudoku checker on outputs written by hand: every verdict and diagnosis of
docs/exercises/killer-sudoku.md, with the place a student reads (rows and columns from 1)."""
from __future__ import annotations

import pytest

from generators.cases import Case
from harness.jail import RunResult
from exercises.killer_sudoku import EXERCISE
from exercises.killer_sudoku.checker import DIAGNOSES
from exercises.killer_sudoku.codingame import CODINGAME_TESTS
from exercises.killer_sudoku.parser import parse
from exercises.killer_sudoku.puzzle import answer_text
from exercises.killer_sudoku.solver import ERROR, first_in_reading_order, reference, search
from exercises.killer_sudoku.suites import FIXED_SEED, trap_case

EASY = CODINGAME_TESTS["easy"].encode()
EASY_ANSWER = ("568913427\n197254683\n342687915\n851726349\n473891256\n"
               "926345871\n219538764\n734162598\n685479132\n")
# A puzzle with two solutions (found among generated ones: random.Random(1), "medium" cages,
# 30 givens): the answer is the first in reading order.
TWO_SOLUTIONS = b"""\
.39.....8 aabcddeee
4..63.... aabccdeff
71..4.... ghhijjkll
.....5.1. ghiiijklm
.75369... gnoiippqm
82......3 nnoirpqqs
....7.5.. tuuurvwqs
2675..4.1 txxxxvwys
...1.62.. zzAAAvyys
a=18 b=17 c=11 d=13 e=20 f=11 g=11 h=12 i=39 j=17 k=9 l=12 m=11 n=17 o=11 p=21 q=19 r=8 s=19 t=11 u=13 v=11 \
w=9 x=27 y=17 z=9 A=12
"""


def result(stdout: str | bytes, *, limit: str | None = None, signal: str | None = None,
           stderr: bytes = b"") -> RunResult:
    data = stdout.encode() if isinstance(stdout, str) else stdout
    return RunResult(stdout=data, stderr=stderr, exit_code=None if signal else 0, signal=signal, wall_s=0.01,
                     cpu_s=0.01, max_rss_kb=1000, limit=limit, isolation="jail")  # type: ignore[arg-type]


def case_of(data: bytes, category: str = "valid") -> Case:
    return Case(id=f"{category}/hand", category=category, input=data, expected=reference(data))  # type: ignore[arg-type]


def verdict_of(data: bytes, *outputs: str, category: str = "valid", stderr: bytes = b""):
    return EXERCISE.check(case_of(data, category), [result(out, stderr=stderr) for out in outputs], False)


def with_cell(answer: str, row: int, column: int, digit: str) -> str:
    """`answer` with the cell at (row, column), from 1, replaced."""
    rows = answer.split("\n")
    rows[row - 1] = rows[row - 1][:column - 1] + digit + rows[row - 1][column:]
    return "\n".join(rows)


def swapped_rows(answer: str, first: int, second: int) -> str:
    rows = answer.split("\n")
    rows[first - 1], rows[second - 1] = rows[second - 1], rows[first - 1]
    return "\n".join(rows)


def test_the_statement_example_is_answered_and_passes():
    assert reference(EASY) == EASY_ANSWER
    assert verdict_of(EASY, EASY_ANSWER).verdict == "OK"


def test_a_given_changed_is_named_with_its_cell_and_the_first_difference():
    # Row 1, column 1 is given 5; a 6 there also puts 6 twice in row 1.
    verdict = verdict_of(EASY, with_cell(EASY_ANSWER, 1, 1, "6"))
    assert (verdict.verdict, verdict.diagnosis) == ("WRONG", "given_changed")
    assert "row 1, column 1 is given as 5, the program printed 6" in verdict.message
    assert verdict.details["first_difference"] == {"row": 1, "column": 1, "actual": 6, "expected": 5}


def test_a_digit_twice_in_a_row_names_the_row_and_both_cells():
    verdict = verdict_of(EASY, with_cell(EASY_ANSWER, 2, 1, "9"))  # row 2 is 197254683: 9 twice
    assert verdict.diagnosis == "bad_row"
    assert "row 2 holds 9 twice (row 2, column 1 and row 2, column 2)" in verdict.message
    assert "first difference: row 2, column 1 is 9, the answer has 1" in verdict.message


def test_swapped_rows_break_a_given_or_only_a_cage():
    # Rows 2 and 3 swapped: every row, column and box still holds 1-9 (one band).
    verdict = verdict_of(EASY, swapped_rows(EASY_ANSWER, 2, 3))
    assert verdict.diagnosis == "given_changed"  # the givens of row 2 moved
    expert = CODINGAME_TESTS["expert"].encode()  # no givens: only the cages catch it
    verdict = verdict_of(expert, swapped_rows(reference(expert), 2, 3))
    assert verdict.diagnosis == "bad_cage"
    assert verdict.message.startswith("cage 'a' (3 cells from row 1, column 1) adds up to 16, its sum is 7")


def test_a_box_and_a_column_are_named():
    expert = CODINGAME_TESTS["expert"].encode()
    answer = reference(expert)
    # Rows 3 and 4 swapped (two bands): the columns stay permutations, the boxes do not.
    verdict = verdict_of(expert, swapped_rows(answer, 3, 4))
    assert verdict.diagnosis == "bad_box"
    assert verdict.message.startswith("box 1 holds 1 twice (row 2, column 2 and row 3, column 3)")
    assert verdict.details["box"] == 1
    # Columns 1 and 2 of one row swapped: that row is fine, columns 1 and 2 are not.
    rows = answer.split("\n")
    rows[4] = rows[4][1] + rows[4][0] + rows[4][2:]
    verdict = verdict_of(expert, "\n".join(rows))
    assert verdict.diagnosis == "bad_column"
    assert verdict.message.startswith("column 1 holds")


def test_a_cage_missing_its_sum_is_named_with_its_total():
    # The answer of another puzzle is a sudoku, but not this puzzle's: its cages break.
    expert = CODINGAME_TESTS["expert"].encode()
    verdict = verdict_of(expert, EASY_ANSWER)
    assert verdict.diagnosis == "bad_cage"
    assert verdict.details["cage"] == "a"
    assert "cage 'a' (3 cells from row 1, column 1) adds up to 15, its sum is 7" in verdict.message
    assert "first difference: row 1, column 1 is 5, the answer has 4" in verdict.message


def test_a_digit_twice_in_a_cage_is_rule_4():
    # A rule-4 trap: the first grid in reading order without rule 4 (what the seed prints)
    # keeps every sum and every house, and repeats a digit inside a cage.
    case = trap_case(FIXED_SEED, 1)
    blind = first_in_reading_order(parse(case.input), distinct_cages=False)  # type: ignore[arg-type]
    verdict = EXERCISE.check(case, [result(answer_text(blind.solutions[0]))], False)
    assert verdict.diagnosis == "bad_cage"
    assert "twice" in verdict.message and "digits never repeat in a cage" in verdict.message


def test_another_solution_of_a_puzzle_with_two():
    answer = reference(TWO_SOLUTIONS)
    assert verdict_of(TWO_SOLUTIONS, answer).verdict == "OK"
    puzzle = parse(TWO_SOLUTIONS)
    solutions = [answer_text(found) for found in search(puzzle, limit=3).solutions]  # type: ignore[arg-type]
    assert len(solutions) == 2 and answer == min(solutions)
    verdict = verdict_of(TWO_SOLUTIONS, max(solutions))
    assert verdict.diagnosis == "other_solution"
    assert "first in reading order" in verdict.message


@pytest.mark.parametrize("output, words", [
    (EASY_ANSWER.replace("\n", " \n"), "trailing spaces at the end of lines"),
    (EASY_ANSWER[:-1], "missing final newline"),
    (EASY_ANSWER.replace("\n", "\r\n"), "carriage returns"),
    (EASY_ANSWER + "\n", "one extra empty line after the grid"),
    ("\n".join(" ".join(row) for row in EASY_ANSWER.split("\n")), "spaces between digits"),
    (EASY_ANSWER.replace("568", "5\t6\t8"), "the grid is right but the layout is not: spaces between digits"),
    ("\n" + EASY_ANSWER.replace("\n", "\n \n", 1), "the grid is right but the layout is not: trailing spaces at "
     "the end of lines; leading spaces at the start of lines; one extra empty line before the grid; "
     "one extra empty line between rows of the grid"),
])
def test_a_right_grid_in_a_wrong_layout_is_format(output, words):
    verdict = verdict_of(EASY, output)
    assert (verdict.verdict, verdict.diagnosis) == ("WRONG", "format")
    assert words in verdict.message


def test_layout_defects_are_mentioned_with_a_wrong_grid():
    verdict = verdict_of(EASY, with_cell(EASY_ANSWER, 2, 1, "9").replace("\n", " \n"))
    assert verdict.diagnosis == "bad_row"
    assert "(also: trailing spaces at the end of lines)" in verdict.message


@pytest.mark.parametrize("output, words", [
    ("", "the program printed nothing"),
    ("\n".join(EASY_ANSWER.split("\n")[:8]) + "\n", "it printed 8 line(s)"),
    (EASY_ANSWER.replace("568913427", "56891342"), "line 1 has 8 character(s)"),
    (with_cell(EASY_ANSWER, 4, 2, "0"), "row 4, column 2 is '0' (an unfilled cell?)"),
    (with_cell(EASY_ANSWER, 9, 9, "."), "row 9, column 9 is '.' (an unfilled cell?)"),
])
def test_what_is_not_a_grid_says_where(output, words):
    verdict = verdict_of(EASY, output)
    assert verdict.diagnosis == "not_a_grid"
    assert words in verdict.message


def test_error_for_a_solvable_puzzle_is_false_error():
    verdict = verdict_of(EASY, ERROR)
    assert verdict.diagnosis == "false_error"


@pytest.mark.parametrize("data, rule", [
    (EASY.replace(b"56..1..2.", b"56..1..2"), "line 1's digits are 8 characters, not 9"),
    (EASY.replace(b"a=12 ", b"a=12 Z=3 "), "no cell is in cage 'Z'"),
    (EASY.replace(b" t=3 ", b" t=18 "), "cage 't' has 2 cell(s) and sum 18"),
    (EASY.replace(b"56..1..2.", b"56..1..25"), "5 is given twice in row 1"),
])
def test_a_grid_for_an_invalid_input_is_missed_error_naming_the_rule(data, rule):
    assert reference(data) == ERROR
    verdict = verdict_of(data, EASY_ANSWER, category="invalid")
    assert verdict.diagnosis == "missed_error"
    assert rule in verdict.message


def test_missed_error_on_an_unsolvable_puzzle_names_what_the_printed_grid_breaks():
    # One more given, 3 where the answer has 7 (row 1, column 9): well-formed, no solution.
    data = EASY.replace(b"56..1..2. aabbccdde", b"56..1..23 aabbccdde")
    assert reference(data) == ERROR
    verdict = verdict_of(data, EASY_ANSWER, category="invalid")
    assert verdict.diagnosis == "missed_error"
    assert "no solution" in verdict.message
    assert "row 1, column 9 is given as 3, the program printed 7" in verdict.message


def test_nothing_on_stdout_and_error_on_stderr_is_told_apart():
    data = b""
    verdict = verdict_of(data, "", category="invalid", stderr=b"Error\n")
    assert verdict.diagnosis == "missed_error"
    assert "stderr" in verdict.message
    assert verdict_of(data, "ERROR\n", category="invalid").diagnosis == "format"


def test_two_runs_that_differ_are_nondeterministic():
    verdict = verdict_of(EASY, EASY_ANSWER, with_cell(EASY_ANSWER, 2, 1, "9"))
    assert verdict.diagnosis == "nondeterministic"


def test_limits_and_signals_come_before_the_output():
    case = case_of(EASY)
    assert EXERCISE.check(case, [result(EASY_ANSWER, signal="SIGSEGV")], False).verdict == "CRASH"
    hard = EXERCISE.check(case_of(CODINGAME_TESTS["expert"].encode(), "hard"), [result("", limit="cpu")], False)
    assert (hard.verdict, hard.diagnosis) == ("TIMEOUT", "cpu")
    assert "fewest candidates" in hard.message


def test_every_diagnosis_is_declared():
    assert set(EXERCISE.diagnoses) == set(DIAGNOSES)
    assert {"not_a_grid", "format", "given_changed", "bad_row", "bad_column", "bad_box", "bad_cage",
            "other_solution", "false_error", "missed_error", "nondeterministic"} == set(DIAGNOSES)
