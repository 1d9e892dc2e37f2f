"""The Killer Sudoku reference (propagation and search) against the seed's plain algorithm,
on CodinGame's tests and on puzzles hypothesis draws."""
from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from exercises.killer_sudoku.codingame import CODINGAME_TESTS
from exercises.killer_sudoku.generate import FAMILIES, rule4_trap, unique_puzzle
from exercises.killer_sudoku.parser import Rejection, parse
from exercises.killer_sudoku.plain import plain_solution
from exercises.killer_sudoku.puzzle import Puzzle, answer_text, input_text
from exercises.killer_sudoku.solver import ERROR, first_in_reading_order, reference, search, solution
from exercises.killer_sudoku.strategies import one_given_changed, puzzles

PROPERTY = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def test_codingame_tests_are_valid_puzzles_with_one_solution():
    for name, text in CODINGAME_TESTS.items():
        puzzle = parse(text.encode())
        assert isinstance(puzzle, Puzzle), (name, puzzle)
        found = search(puzzle, limit=2)
        assert found.complete and len(found.solutions) == 1, name
        assert reference(text.encode()) == answer_text(found.solutions[0])


def test_the_plain_algorithm_agrees_on_codingame_tests_it_can_finish():
    for name in ("easy", "medium", "hard"):
        puzzle = parse(CODINGAME_TESTS[name].encode())
        assert isinstance(puzzle, Puzzle)
        assert plain_solution(puzzle, budget=200_000) == solution(puzzle), name


@PROPERTY
@given(puzzles(min_givens=36))
def test_the_reference_answers_what_the_plain_algorithm_prints(puzzle):
    # Several solutions are common with cages of 1 to 4 cells: both give the first in reading order.
    assert solution(puzzle) == plain_solution(puzzle)


@PROPERTY
@given(one_given_changed(min_givens=36))
def test_no_solution_is_found_alike(puzzle):
    parsed = parse(input_text(puzzle))
    if isinstance(parsed, Rejection):  # the changed given repeats a digit: the parser's business
        assert reference(input_text(puzzle)) == ERROR
        return
    assert solution(parsed) == plain_solution(parsed)
    assert (reference(input_text(puzzle)) == ERROR) == (plain_solution(parsed) is None)


@PROPERTY
@given(puzzles(min_givens=36, cage_sizes=(3, 4, 5, 6)))
def test_without_rule_4_the_search_is_the_seed_as_written(puzzle):
    blind = first_in_reading_order(puzzle, distinct_cages=False)
    assert blind.complete
    # Blind to rule 4, the seed's search can take more than plain_solution's default 100 000
    # tries (hypothesis drew such a 36-given puzzle; it answers within 2 000 000).
    assert (blind.solutions[0] if blind.solutions else None) == plain_solution(puzzle, 2_000_000, rule4=False)


@PROPERTY
@given(puzzles(min_givens=40, max_givens=50))
def test_the_answer_is_the_smallest_of_all_solutions(puzzle):
    every = search(puzzle, limit=10_000)
    assert every.complete and every.solutions  # the puzzle is built on a grid
    assert solution(puzzle) == min(every.solutions)
    assert len(set(every.solutions)) == len(every.solutions)


@settings(max_examples=4, deadline=None)
@given(st.randoms(use_true_random=False), st.sampled_from(("sparse", "large-cages", "no-givens")))
def test_generated_hard_puzzles_are_unique_and_solved(rng, family):
    planted = unique_puzzle(rng, FAMILIES[family])
    found = search(planted.puzzle, limit=2)
    assert found.complete and found.solutions == [planted.solution]
    if family == "no-givens":
        assert not any(planted.puzzle.givens)


def test_a_rule_4_trap_fools_the_seed_as_written_only():
    planted = rule4_trap(random.Random("trap"))
    blind = first_in_reading_order(planted.puzzle, distinct_cages=False).solutions[0]
    assert blind != planted.solution
    assert any(len({blind[cell] for cell in cage.cells}) < len(cage.cells) for cage in planted.puzzle.cages)
    assert solution(planted.puzzle) == planted.solution


def test_a_no_givens_puzzle_that_runs_out_of_cage_cuts_starts_again_instead_of_adding_a_given():
    """Seed no-givens/35 used all its cage letters before the solution was unique: the
    generator then added a given (hypothesis found such a draw), which the family rules
    out.  It draws another grid instead."""
    planted = unique_puzzle(random.Random("no-givens/35"), FAMILIES["no-givens"])
    assert not any(planted.puzzle.givens)
    found = search(planted.puzzle, limit=2)
    assert found.complete and found.solutions == [planted.solution]
