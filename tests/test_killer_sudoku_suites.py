"""The Killer Sudoku suites and generators: every valid case proven unique, every invalid
case rejected for its rule, deterministic from the seed; the parser's messages; fuzzing
inputs and report drawings."""
from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exercises.killer_sudoku import EXERCISE, WEIGHTS
from exercises.killer_sudoku.codingame import CODINGAME_TESTS
from exercises.killer_sudoku.invalid import INVALID_BUILDERS
from exercises.killer_sudoku.parser import RULES, Rejection, parse
from exercises.killer_sudoku.puzzle import answer_text
from exercises.killer_sudoku.render import answer_lines, input_lines
from exercises.killer_sudoku.solver import ERROR, reference, search
from exercises.killer_sudoku.strategies import fuzz_inputs
from exercises.killer_sudoku.suites import FIXED_SEED

EASY = CODINGAME_TESTS["easy"].encode()


@pytest.fixture(scope="module")
def standard():
    return EXERCISE.suite("standard")


def test_every_valid_case_has_exactly_one_solution_the_expected_one(standard):
    valid = [case for case in standard if case.category in ("valid", "hard")]
    assert len(valid) >= 35
    for case in valid:
        puzzle = parse(case.input)
        assert not isinstance(puzzle, Rejection), case.id
        found = search(puzzle, limit=2)
        assert found.complete and len(found.solutions) == 1, case.id
        assert case.expected == answer_text(found.solutions[0]) == reference(case.input), case.id


def test_every_rule_has_invalid_cases_rejected_for_it(standard):
    invalid = [case for case in standard if case.category == "invalid"]
    assert {case.rule for case in invalid} == set(RULES)
    for case in invalid:
        parsed = parse(case.input)
        got = parsed.rule if isinstance(parsed, Rejection) else "no_solution"
        assert got == case.rule and case.expected == ERROR, case.id
        if case.rule == "no_solution":
            assert search(parsed, limit=1).solutions == []  # type: ignore[arg-type]


def test_suites_are_deterministic_and_quick_is_part_of_standard(standard):
    quick = EXERCISE.suite("quick")
    assert [(c.id, c.input) for c in quick] == [(c.id, c.input) for c in EXERCISE.suite("quick", FIXED_SEED)]
    by_id = {case.id: case for case in standard}
    assert all(by_id[case.id].input == case.input for case in quick)
    other = {case.id: case.input for case in EXERCISE.suite("quick", FIXED_SEED + 1)}
    assert sum(other[case.id] != case.input for case in quick if case.id in other) >= 10
    assert {case.category for case in quick} == set(WEIGHTS) == {"valid", "hard", "invalid"}
    assert any("rule4-trap" in case.id for case in quick)
    hard = [parse(case.input) for case in standard if case.category == "hard"]
    assert sum(1 for puzzle in hard if not any(puzzle.givens)) >= 3  # type: ignore[union-attr]


@settings(max_examples=10, deadline=None)
@given(st.sampled_from(sorted(set(INVALID_BUILDERS) - {"no_solution"})), st.randoms(use_true_random=False))
def test_each_invalid_builder_breaks_its_rule_first(rule, rng):
    parsed = parse(INVALID_BUILDERS[rule](rng))
    assert isinstance(parsed, Rejection) and parsed.rule == rule


@pytest.mark.parametrize("data, rule, words", [
    (b"", "empty_input", "the input is empty"),
    (EASY.replace(b"\na=12", b"\n\na=12"), "line_count", "the input has 11 line(s)"),
    (EASY + b"\n", "line_count", "the input has 11 line(s)"),
    (EASY.replace(b"..72..68. afghhiide", b"..72..68.\tafghhiide"), "row_separator", "line 2 is not"),
    (EASY.replace(b"..72..68. afghhiide", b"..72..68. afghhiid"), "cage_row_length", "line 2's cage letters are 8"),
    (EASY.replace(b"..72..68.", b"..72..60."), "bad_digit", "row 2, column 8 is '0'"),
    (EASY.replace(b"afghhiide", b"afgh\xe9iide"), "bad_cage_letter", "a non-ASCII byte"),
    (EASY.replace(b"b=17", b"b:17"), "sum_entry", "entry 2 of the sums line, 'b:17'"),
    (EASY.replace(b"b=17", b"b=17 b=17"), "duplicate_sum", "cage 'b' has two entries"),
    (EASY.replace(b" b=17", b""), "missing_sum", "cage 'b' has no sum"),
    (EASY.replace(b"CADDBEEFF", b"CADDBEEFa"), "cage_disconnected", "the cells of cage 'a' are not connected"),
    (EASY.replace(b"a=12 ", b"a=5 ").replace(b"b=17", b"b=24"), "cage_sum_impossible", "cage 'a' has 3 cell(s)"),
    (EASY.replace(b"b=17", b"b=16"), "sums_total", "add up to 404"),
    (EASY.replace(b"56..1..2.", b"56.61..2."), "duplicate_given_row", "6 is given twice in row 1"),
])
def test_the_parser_names_the_first_broken_rule_and_where(data, rule, words):
    parsed = parse(data)
    assert isinstance(parsed, Rejection) and parsed.rule == rule
    assert words in parsed.message


def test_a_missing_final_newline_is_valid():
    assert parse(EASY[:-1]) == parse(EASY)


@settings(max_examples=8, deadline=None)
@given(fuzz_inputs())
def test_fuzz_inputs_are_answered_by_the_reference(data):
    answer = reference(data)
    assert answer == ERROR or answer_lines(answer)[0].count("|") == 2


def test_reports_draw_the_puzzle_boxed_and_its_sums():
    lines = input_lines(EASY)
    assert lines[0] == "5 6 . | . 1 . | . 2 .    a a b | b c c | d d e"
    assert lines[3].startswith("------+-------+------")
    assert len([line for line in lines if "|" in line]) == 9
    assert any(line.startswith("sums: a=12 b=17") for line in lines)
    drawn = answer_lines(reference(EASY))
    assert drawn[0] == "5 6 8 | 9 1 3 | 4 2 7" and len(drawn) == 11
    assert input_lines(b"12\tx\n")[0].startswith("(not a puzzle: ")
    assert answer_lines("12\t3")[0] == "12\\t3  (no final newline)"


def test_random_cages_hold_distinct_digits_of_their_grid():
    from exercises.killer_sudoku.generate import FAMILIES, random_cages, random_grid
    rng = random.Random(3)
    grid = random_grid(rng)
    cages = random_cages(rng, grid, FAMILIES["large-cages"])
    assert sorted(cell for cage in cages for cell in cage) == list(range(81))
    assert all(len({grid[cell] for cell in cage}) == len(cage) <= 9 for cage in cages)
    assert len(cages) <= 52
