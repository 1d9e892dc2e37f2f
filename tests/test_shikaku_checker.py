"""The Shikaku checker on outputs written by hand: every verdict and diagnosis of
docs/exercises/shikaku.md, with the message a student reads (rows and columns from 1)."""
from __future__ import annotations

import pytest

from generators.cases import Case
from harness.jail import RunResult
from exercises.shikaku import EXERCISE
from exercises.shikaku.checker import DIAGNOSES
from exercises.shikaku.puzzle import parse
from exercises.shikaku.solver import answer_text
from exercises.shikaku.valid import SEED_EXAMPLE, SEED_EXAMPLE_ANSWER

# 2 x 2 with two dominoes on a diagonal: two solutions, the horizontal one first
# ("AA/BB" < "AB/AB").
TWO_WAYS = b"2 2\n2 0\n0 2\n"
TWO_WAYS_ANSWER = "2\nAA\nBB\n"
NO_SOLUTION = b"3 1\n2 1 0\n"  # the 2 would have to cover the 1


def result(stdout: str | bytes, *, limit: str | None = None, signal: str | None = None,
           stderr: bytes = b"") -> RunResult:
    data = stdout.encode() if isinstance(stdout, str) else stdout
    return RunResult(stdout=data, stderr=stderr, exit_code=None if signal else 0, signal=signal, wall_s=0.01,
                     cpu_s=0.01, max_rss_kb=1000, limit=limit, isolation="jail")  # type: ignore[arg-type]


def case_of(data: bytes, category: str = "valid", **fields: object) -> Case:
    expected = answer_text(data)
    return Case(id=f"{category}/hand", category=category, input=data, expected=expected,  # type: ignore[arg-type]
                **fields)  # type: ignore[arg-type]


def verdict_of(data: bytes, *outputs: str, strict: bool = False, category: str = "valid", **fields: object):
    return EXERCISE.check(case_of(data, category, **fields), [result(out) for out in outputs], strict)


def test_the_seed_example_is_answered_as_the_seed_says():
    assert answer_text(SEED_EXAMPLE) == SEED_EXAMPLE_ANSWER
    assert verdict_of(SEED_EXAMPLE, SEED_EXAMPLE_ANSWER).verdict == "OK"


def test_the_first_solution_in_sorted_order_is_expected():
    assert answer_text(TWO_WAYS) == TWO_WAYS_ANSWER
    assert verdict_of(TWO_WAYS, TWO_WAYS_ANSWER).verdict == "OK"


def test_no_solution_is_a_lone_zero():
    assert answer_text(NO_SOLUTION) == "0\n"
    assert verdict_of(NO_SOLUTION, "0\n").verdict == "OK"
    verdict = verdict_of(NO_SOLUTION, "0\nAAB\n")
    assert (verdict.verdict, verdict.diagnosis) == ("WRONG", "format")
    assert "print '0' alone" in verdict.message


@pytest.mark.parametrize("output, expected_words", [
    ("1\nAA\nBB\n", "the program counted 1 solution, the puzzle has 2: every solution counts"),
    ("3\nAA\nBB\n", "the program counted 3 solutions, the puzzle has 2"),
    ("0\n", "the program printed 0, but the puzzle has 2 solutions"),
])
def test_wrong_count(output, expected_words):
    verdict = verdict_of(TWO_WAYS, output)
    assert (verdict.verdict, verdict.diagnosis) == ("WRONG", "wrong_count")
    assert expected_words in verdict.message
    assert verdict.details["expected"] == 2


def test_a_wrong_count_also_says_when_the_grid_is_not_the_first():
    verdict = verdict_of(TWO_WAYS, "1\nAB\nAB\n")
    assert verdict.diagnosis == "wrong_count"
    assert "the grid is a solution, but not the first in sorted order" in verdict.message


def test_right_count_but_not_the_first_names_the_first_differing_rectangle():
    verdict = verdict_of(TWO_WAYS, "2\nAB\nAB\n")
    assert (verdict.verdict, verdict.diagnosis) == ("WRONG", "not_first")
    assert ("rectangle A is at rows 1-2, column 1 (2x1), the first solution has it at row 1, columns 1-2 (1x2)"
            in verdict.message)
    assert verdict.details["letter"] == "A"


@pytest.mark.parametrize("output, diagnosis, words", [
    ("1\nAAB\nACB\nAAB\n", "overlap", "the cells of letter A are not one rectangle: 5 cells spread over rows 1-3, "
                                      "columns 1-2 (3x2)"),
    ("1\nAAB\nA.B\nAAB\n", "overlap", "letter A"),
    ("1\nAAB\nCCB\nDDB\n", "clue_count", "rectangle C (row 2, columns 1-2 (1x2)) holds no number"),
    ("1\nAAB\nAAB\nAAB\n", "clue_count", "rectangle A (rows 1-3, columns 1-2 (3x2)) holds 2 numbers "
                                         "(2 at row 1, column 1, 4 at row 3, column 2)"),
    ("1\nABB\nACC\nADD\n", "wrong_area", "rectangle A (rows 1-3, column 1 (3x1), 3 cells) holds the number 2"),
    ("1\nBBC\nAAC\nAAC\n", "letter_order", "the rectangle at row 1, columns 1-2 (1x2) is drawn with B"),
])
def test_illegal_tilings(output, diagnosis, words):
    # 3x3: a 2 at the top-left, a 3 down the right column, a 4 in the bottom-left square.
    puzzle = b"3 3\n2 0 3\n0 0 0\n0 4 0\n"
    assert answer_text(puzzle) == "1\nAAB\nCCB\nCCB\n"
    verdict = verdict_of(puzzle, output)
    assert (verdict.verdict, verdict.diagnosis) == ("WRONG", diagnosis), verdict.message
    assert words in verdict.message


def test_cells_without_a_letter():
    verdict = verdict_of(b"3 3\n2 0 3\n0 0 0\n0 4 0\n", "1\nAAB\nCCB\n.CB\n")
    assert verdict.diagnosis == "overlap"  # C is no longer a rectangle: that is said first
    verdict = verdict_of(b"3 3\n2 0 3\n0 0 0\n0 4 0\n", "1\nAA.\nCC.\nCC.\n")
    assert (verdict.diagnosis, verdict.details["cells"]) == ("uncovered", 3)
    assert "3 cells of the grid hold no letter (the first at row 1, column 3: '.')" in verdict.message


@pytest.mark.parametrize("output, defect", [
    ("2\nAA\nBB", "missing final newline"),
    ("2\nAA \nBB \n", "trailing spaces at the end of lines"),
    (" 2\nAA\nBB\n", "leading spaces at the start of lines"),
    ("2\r\nAA\r\nBB\r\n", "carriage returns ('\\r') in the output"),
    ("2\nAA\nBB\n\n", "one extra empty line after the answer"),
    ("\n\n2\nAA\nBB\n", "2 extra empty lines before the count"),
    ("2\n\nAA\nBB\n", "one extra empty line inside the answer"),
    ("2\nA A\nB B\n", "spaces between letters"),
    ("02\nAA\nBB\n", "leading zeros in the count"),
    ("2\nA\tA\nB\tB\n", "spaces between letters"),
    # Each defect in the order a reader meets them; a line of only spaces leads and trails.
    ("02\nA A\nB B\n", "leading zeros in the count; spaces between letters"),
    ("2\nAA\n \nBB\n", "trailing spaces at the end of lines; leading spaces at the start of lines; "
                       "one extra empty line inside the answer"),
])
def test_each_layout_defect_is_named(output, defect):
    verdict = verdict_of(TWO_WAYS, output)
    assert (verdict.verdict, verdict.diagnosis) == ("WRONG", "format")
    assert verdict.message == f"the answer is right but the layout is not: {defect}"


def test_spaces_inside_the_count_are_not_repaired():
    verdict = verdict_of(TWO_WAYS, "2 0\nAA\nBB\n")
    assert (verdict.diagnosis, verdict.details["first_line"]) == ("format", "2 0")


def test_several_defects_and_a_wrong_content_are_all_said():
    verdict = verdict_of(TWO_WAYS, "2\r\nAB \r\nAB")
    assert verdict.diagnosis == "not_first"
    assert "(also: carriage returns ('\\r') in the output; missing final newline; trailing spaces" in verdict.message


@pytest.mark.parametrize("output, words", [
    ("", "printed nothing"),
    ("two\nAA\nBB\n", "the first line must be the number of solutions, digits only; it is 'two'"),
    ("2\n", "the count (2) is right, but the grid of the first solution is missing"),
    ("2\nAA\n", "the grid must be 2 lines of 2 letters; it is 1 line(s) of width 2"),
    ("2\nAAA\nBBB\n", "it is 2 line(s) of width 3"),
    ("2\n22\n00\n", "the grid must be drawn with the letters A-Z, a-z; it holds '0', '2'"),
])
def test_unreadable_answers_are_format(output, words):
    verdict = verdict_of(TWO_WAYS, output)
    assert (verdict.verdict, verdict.diagnosis) == ("WRONG", "format")
    assert words in verdict.message


def test_error_for_a_valid_puzzle():
    verdict = verdict_of(TWO_WAYS, "error\n")
    assert (verdict.diagnosis, verdict.message) == ("false_error", "the input is valid but the program printed error")
    assert "exactly as 'error\\n'" in verdict_of(TWO_WAYS, "Error\n").message


@pytest.mark.parametrize("data, rule, words", [
    (b"2 2\n2 0\n0 3\n", "area_sum", "the areas add up to 5, W x H = 4"),
    (b"2 2\n2 0\n0\n", "row_length", "line 3: 1 numbers, W = 2"),
    (b"2 2\n2 x\n0 2\n", "not_integer", "line 2: number 2 is 'x'"),
])
def test_missed_errors_say_what_is_invalid(data, rule, words):
    case = case_of(data, "invalid", rule=rule)
    assert case.expected == "error\n" and parse(data).rejection.rule == rule
    verdict = EXERCISE.check(case, [result("0\n")], False)
    assert (verdict.verdict, verdict.diagnosis) == ("WRONG", "missed_error")
    assert words in verdict.message and verdict.message.endswith("but the program printed '0\\n' instead of error")
    assert EXERCISE.check(case, [result("ERROR")], False).diagnosis == "format"
    told = EXERCISE.check(case, [result("", stderr=b"Error: bad input\n")], False).message
    assert told.endswith("printed error on stderr; it must go to stdout")
    assert EXERCISE.check(case, [result("error\n")], False).verdict == "OK"


def test_two_runs_that_differ_are_nondeterministic():
    verdict = verdict_of(TWO_WAYS, TWO_WAYS_ANSWER, "2\nAB\nAB\n", runs=2)
    assert (verdict.verdict, verdict.diagnosis) == ("WRONG", "nondeterministic")
    assert verdict.details["outputs"] == [TWO_WAYS_ANSWER, "2\nAB\nAB\n"]


@pytest.mark.parametrize("run, verdict, diagnosis", [
    (result(TWO_WAYS_ANSWER, limit="cpu"), "TIMEOUT", "cpu"),
    (result("", limit="wall"), "TIMEOUT", "wall"),
    (result("", limit="memory"), "CRASH", "memory_limit"),
    (result("A" * 100, limit="output"), "OUTPUT_LIMIT", "output"),
    (result(TWO_WAYS_ANSWER, signal="SIGSEGV"), "CRASH", "SIGSEGV"),
])
def test_stopped_runs_are_judged_as_fillit_judges_them(run, verdict, diagnosis):
    got = EXERCISE.check(case_of(TWO_WAYS), [run], False)
    assert (got.verdict, got.diagnosis) == (verdict, diagnosis)


def test_a_hard_timeout_says_what_makes_the_puzzle_hard():
    got = EXERCISE.check(case_of(NO_SOLUTION, "hard"), [result("", limit="cpu")], False)
    assert "this puzzle has no solution" in got.message and "still has a rectangle that fits" in got.message
    got = EXERCISE.check(case_of(TWO_WAYS, "hard"), [result("", limit="cpu")], False)
    assert "this puzzle has 2 solutions" in got.message


def test_disputed_inputs_pass_either_way_unless_strict():
    data = b"2 2\r\n2 0\r\n0 2\r\n"
    case = case_of(data, "disputed", accepted=("error\n",), disputed="crlf", description="lines end in '\\r\\n'")
    assert case.expected == TWO_WAYS_ANSWER
    for output, answer in ((TWO_WAYS_ANSWER, "puzzle"), ("error\n", "error")):
        verdict = EXERCISE.check(case, [result(output)], False)
        assert (verdict.verdict, verdict.diagnosis, verdict.details["answer"]) == ("DISPUTED", "crlf", answer)
        assert verdict.passed
    assert EXERCISE.check(case, [result(TWO_WAYS_ANSWER)], True).verdict == "DISPUTED"
    strict = EXERCISE.check(case, [result("error\n")], True)
    assert (strict.verdict, strict.diagnosis) == ("WRONG", "false_error")
    assert EXERCISE.check(case, [result("2\nAB\nAB\n")], False).diagnosis == "not_first"
    spelt = EXERCISE.check(case, [result("ERROR\n")], False)
    assert (spelt.diagnosis, spelt.message) == ("format", "disputed input (lines end in '\\r\\n'): error passes "
                                                "here, but printed exactly as 'error\\n', not 'ERROR\\n'")


def test_every_diagnosis_is_declared():
    assert EXERCISE.diagnoses == DIAGNOSES
    assert set(DIAGNOSES) == {"wrong_count", "not_first", "overlap", "uncovered", "clue_count", "wrong_area",
                              "letter_order", "format", "false_error", "missed_error", "nondeterministic"}
