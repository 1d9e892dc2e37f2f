"""The Shikaku input contract (docs/exercises/shikaku.md, "Input"): what is valid, the rule
each invalid input breaks with the line it names, and the disputed blank-space deviations."""
from __future__ import annotations

import random

import pytest
from hypothesis import given, settings

from exercises.shikaku.invalid import DISPUTED_CATEGORIES, INVALID_CATEGORIES, disputed_input
from exercises.shikaku.puzzle import RULES, Clue, Puzzle, parse
from exercises.shikaku.strategies import invalid_inputs, puzzles
from exercises.shikaku.valid import SEED_EXAMPLE

SMALL = b"2 2\n2 0\n0 2\n"


def rule_of(data: bytes) -> str | None:
    rejection = parse(data).rejection
    return rejection.rule if rejection else None


def test_the_seed_example_parses_into_its_twelve_clues():
    puzzle = parse(SEED_EXAMPLE).puzzle
    assert puzzle is not None and (puzzle.width, puzzle.height) == (10, 10)
    assert len(puzzle.clues) == 12
    assert puzzle.clues[0] == Clue(0, 8, 9) and Clue(3, 1, 20) in puzzle.clues
    assert puzzle.text() == SEED_EXAMPLE


@given(puzzles(max_side=8))
@settings(max_examples=40, deadline=None)
def test_a_puzzle_round_trips_through_its_text(puzzle: Puzzle):
    parsed = parse(puzzle.text())
    assert parsed.puzzle == puzzle and parsed.disputed == ()


@pytest.mark.parametrize("data, rule, message", [
    (b"", "empty_input", "line 1: the input is empty"),
    (b"\n2 2\n2 0\n0 2\n", "empty_input", "line 1: the first line is empty"),
    (b"2\n2 0\n0 2\n", "header_fields", "line 1: 1 fields"),
    (b"2 2 2\n2 0\n0 2\n", "header_fields", "line 1: 3 fields"),
    (b"2 x\n2 0\n0 2\n", "header_not_integer", "line 1: '2 x'"),
    (b"0 2\n\n\n", "size_range", "line 1: W = 0, H = 2"),
    (b"31 1\n" + b" ".join([b"0"] * 30) + b" 31\n", "size_range", "line 1: W = 31, H = 1"),
    (b"2 2\n2 0\n", "missing_rows", "line 3: 1 grid line(s), H = 2"),
    (b"2 2\n2 0\n\n\n", "missing_rows", "line 3: 1 grid line(s), H = 2"),
    (b"2 2\n2 0 0\n0 2\n", "row_length", "line 2: 3 numbers, W = 2"),
    (b"2 2\n2 0\n\n0 2\n", "row_length", "line 3: 0 numbers, W = 2"),
    (b"2 2\n2 0\n0 +2\n", "not_integer", "line 3: number 2 is '+2'"),
    (b"2 2\n2 0\n0 2.0\n", "not_integer", "line 3: number 2 is '2.0'"),
    (b"2 2\n2 0\n0 \xd9\xa3\n", "not_integer", "line 3: number 2 is"),
    (b"2 2\n-2 0\n0 2\n", "negative_area", "line 2: number 1 is -2"),
    (b"2 2\n2 0\n0 2\n0 0\n", "extra_rows", "line 4: text after the grid"),
    (b"2 2\n2 0\n0 3\n", "area_sum", "the areas add up to 5, W x H = 4"),
    (b"2 2\n2 0\n0 4294967298\n", "area_sum", "the areas add up to 4294967300"),
])
def test_each_rule_names_the_line(data, rule, message):
    rejection = parse(data).rejection
    assert rejection is not None and rejection.rule == rule
    assert rejection.message.startswith(message), rejection.message
    assert rejection.message.endswith(f"({RULES[rule]})")


def test_53_clues_are_too_many_even_when_they_add_up():
    row = " ".join(["1"] * 30).encode()
    data = b"30 2\n" + row + b"\n" + b" ".join([b"1"] * 23 + [b"7"] + [b"0"] * 6) + b"\n"
    assert rule_of(data) == "too_many_clues"
    assert "54 numbered cells" in parse(data).rejection.message


def test_rules_are_checked_in_order():
    # A bad token is met before a wrong row length on the same line; the sum comes last.
    assert rule_of(b"2 2\n2 x 0\n0 2\n") == "not_integer"
    assert rule_of(b"2 2\n9 0 0\n0 2\n") == "row_length"
    assert rule_of(b"2 2\n9 0\n0 2\nend\n") == "extra_rows"


def test_leading_zeros_are_numbers():
    assert parse(b"02 2\n002 0\n0 02\n").puzzle == parse(SMALL).puzzle


@pytest.mark.parametrize("name", sorted(INVALID_CATEGORIES))
def test_every_invalid_category_breaks_its_rule(name):
    category = INVALID_CATEGORIES[name]
    for seed in range(6):
        data = category.build(random.Random(f"{name}:{seed}"))
        assert rule_of(data) == category.rule, (seed, data[:200])


@given(invalid_inputs())
@settings(max_examples=20, deadline=None)
def test_invalid_inputs_from_hypothesis_break_their_rule(pair):
    name, data = pair
    assert rule_of(data) == INVALID_CATEGORIES[name].rule


@pytest.mark.parametrize("data, deviation", [
    (b"2 2\n2  0\n0 2\n", "spacing"),
    (b"2 2\n2\t0\n0 2\n", "spacing"),
    (b"2 2 \n2 0\n0 2\n", "line_edges"),
    (b"2 2\n 2 0\n0 2\n", "line_edges"),
    (b"2 2\r\n2 0\r\n0 2\r\n", "crlf"),
    (b"2 2\n2 0\n0 2", "final_newline"),
    (b"2 2\n2 0\n0 2\n\n\n", "trailing_empty_lines"),
])
def test_blank_space_deviations_are_read_and_named(data, deviation):
    parsed = parse(data)
    assert parsed.puzzle == parse(SMALL).puzzle
    assert parsed.disputed == (deviation,)


@pytest.mark.parametrize("name", sorted(DISPUTED_CATEGORIES))
def test_every_disputed_category_is_read_with_its_deviation(name):
    puzzle = parse(b"3 2\n2 0 4\n0 0 0\n").puzzle
    for seed in range(5):
        parsed = parse(disputed_input(name, puzzle, random.Random(seed)))
        assert parsed.puzzle == puzzle and parsed.disputed == (name,)
