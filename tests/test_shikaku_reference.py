"""The Shikaku reference against the seed's plain search (the oracle), the seed's own
numbers, and the promises of the generators: stated solution counts, easy puzzles easy
for plain search, hard puzzles hard for it."""
from __future__ import annotations

import random

import pytest
from hypothesis import given, settings

from exercises.shikaku.drawing import draw
from exercises.shikaku.hard import doomed
from exercises.shikaku.plain import plain_answer, plain_tries
from exercises.shikaku.puzzle import Clue, Puzzle, parse
from exercises.shikaku.random_tilings import domino_strip, puzzle_of
from exercises.shikaku.geometry import Rect
from exercises.shikaku.solver import answer_text, solve
from exercises.shikaku.strategies import puzzles
from exercises.shikaku.valid import (EASY_TRIES, MANY_MAX, SEED_EXAMPLE, SEED_EXAMPLE_ANSWER, SEED_TEST_3,
                                     SEED_TEST_3_COUNT, SEED_TEST_3_PLAIN_TRIES, seed_puzzle, valid_puzzle)


def reference(puzzle: Puzzle) -> tuple[int, list[str] | None]:
    answer = solve(puzzle)
    return answer.count, draw(answer.first, puzzle.width, puzzle.height) if answer.first else None


def test_the_seed_example():
    assert answer_text(SEED_EXAMPLE) == SEED_EXAMPLE_ANSWER
    assert plain_answer(seed_puzzle(SEED_EXAMPLE)) == (1, SEED_EXAMPLE_ANSWER.split("\n")[1:-1])


def test_the_seeds_test_3_has_32_solutions_and_takes_plain_search_44405_tries():
    puzzle = seed_puzzle(SEED_TEST_3)
    assert solve(puzzle).count == SEED_TEST_3_COUNT == 32
    assert plain_tries(puzzle, 10 ** 6) == SEED_TEST_3_PLAIN_TRIES == 44405  # the seed's own figure
    assert reference(puzzle) == plain_answer(puzzle)


@given(puzzles(max_side=6))
@settings(max_examples=150, deadline=None)
def test_reference_equals_plain_search(puzzle: Puzzle):
    assert reference(puzzle) == plain_answer(puzzle)


def test_independent_regions_multiply_and_keep_their_first_solutions():
    # A 2 x 24 strip of dominoes, clues on alternate rows: every one of its Fibonacci(25)
    # domino tilings is a solution, far too many to visit one by one.
    puzzle = puzzle_of(24, 2, domino_strip(Rect(0, 0, 2, 24)))
    answer = solve(puzzle)
    assert answer.count == 75025
    # First in sorted order: every domino lies flat, the top row's first.
    letters = "ABCDEFGHIJKLMNOPQRSTUVWX"
    assert draw(answer.first, 24, 2) == ["".join(ch * 2 for ch in letters[:12]), "".join(ch * 2 for ch in letters[12:])]


@pytest.mark.parametrize("family, size", [
    ("unique", (1, 1)), ("unique", (4, 3)), ("unique", (6, 6)), ("many", (2, 2)), ("many", (5, 4)),
    ("many", (6, 6)), ("none", (3, 3)), ("none", (6, 5)),
])
def test_generated_puzzles_have_the_family_s_count_by_plain_search(family, size):
    for seed in range(3):
        puzzle = valid_puzzle(*size, family, random.Random(f"{family}:{size}:{seed}"))
        count, _ = plain_answer(puzzle)
        assert {"unique": count == 1, "many": 2 <= count <= MANY_MAX, "none": count == 0}[family], count
        assert plain_tries(puzzle, EASY_TRIES) is not None


def test_letters_puzzles_use_all_52_letters():
    puzzle = valid_puzzle(15, 15, "letters", random.Random(1))
    assert len(puzzle.clues) == 52
    drawing = answer_text(puzzle.text())
    assert "Z" in drawing and "z" in drawing


def test_doomed_puzzles_have_no_solution_and_explode_plain_search():
    tries = []
    for width in (6, 8, 10):
        puzzle = doomed(width, random.Random(width))
        assert solve(puzzle).count == 0
        tries.append(plain_tries(puzzle, 200_000))
    assert plain_answer(doomed(6, random.Random(6)))[0] == 0
    assert all(t is not None for t in tries) and tries[1] > 4 * tries[0] and tries[2] > 4 * tries[1], tries
    wide = doomed(24, random.Random(24))
    assert len(wide.clues) == 51 and solve(wide).count == 0
    assert plain_tries(wide, 50_000) is None


def test_no_solution_answers_zero_alone():
    assert answer_text(b"3 1\n2 1 0\n") == "0\n"
    assert answer_text(b"2 2\n2 0\n0 x\n") == "error\n"


def test_an_area_no_rectangle_fits_is_no_solution():
    # 7 is prime: 1x7 or 7x1, neither fits in 5 x 5.
    puzzle = parse(b"5 5\n7 0 0 0 0\n0 0 0 0 0\n0 0 18 0 0\n0 0 0 0 0\n0 0 0 0 0\n").puzzle
    assert puzzle is not None and solve(puzzle).count == 0 == plain_answer(puzzle)[0]
