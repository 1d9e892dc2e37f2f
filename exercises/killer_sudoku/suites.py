"""The graded suites: quick, standard and full lists of `Case`, deterministic from a seed.

Each case draws from its own `random.Random(f"{seed}:{case_id}")`, as fillit's corpora do:
a case's bytes depend only on the seed and its id, and the quick suite's cases are the
standard cases of the same id. Every valid case has exactly one solution, proven by the
reference's search (exercises.killer_sudoku.generate), and every expected output is the
reference's. The categories (docs/exercises/killer-sudoku.md):

* valid: CodinGame's easy, medium and hard tests; puzzles with many or some givens; the
  input's layout varied (sums in any order, any letters, no final newline, 52 cages...);
  a rule-4 trap. The seed's plain search, with rule 4, answers each in milliseconds.
* hard: CodinGame's expert test; few givens, large cages, no givens at all: plain search
  may take minutes, a solver that propagates candidates well under a second.
* invalid: one category per rule of the input, and puzzles without a solution.
"""
from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from dataclasses import replace

from exercises.killer_sudoku.codingame import CODINGAME_TESTS
from exercises.killer_sudoku.generate import (FAMILIES, Family, Planted, random_cages, random_grid, rule4_trap,
                                              unique_puzzle, with_givens)
from exercises.killer_sudoku.invalid import INVALID_BUILDERS
from exercises.killer_sudoku.parser import RULES, Rejection, parse
from exercises.killer_sudoku.puzzle import CAGE_LETTERS, CELL_COUNT, Puzzle, answer_text, input_text
from exercises.killer_sudoku.solver import ERROR, reference
from generators.cases import Case, Category

FIXED_SEED = 20250404
# A few cases always run twice, to catch output that changes from run to run.
_RUN_TWICE = {"valid/codingame-easy", "valid/medium-1", "hard/no-givens-1"}


def _rng(seed: int, case_id: str) -> random.Random:
    return random.Random(f"{seed}:{case_id}")


def _case(case_id: str, category: Category, data: bytes, expected: str, description: str,
          rule: str | None = None) -> Case:
    return Case(id=case_id, category=category, input=data, expected=expected, rule=rule, description=description,
                runs=2 if case_id in _RUN_TWICE else 1)


def codingame_case(name: str) -> Case:
    category: Category = "hard" if name == "expert" else "valid"
    data = CODINGAME_TESTS[name].encode()
    return _case(f"{category}/codingame-{name}", category, data, reference(data),
                 f"CodinGame's {name} test of Killer Sudoku Solver")


def family_case(seed: int, category: Category, family: str, index: int) -> Case:
    case_id = f"{category}/{family}-{index}"
    planted = unique_puzzle(_rng(seed, case_id), FAMILIES[family])
    return _planted_case(case_id, category, planted, FAMILIES[family].description)


def _planted_case(case_id: str, category: Category, planted: Planted, description: str) -> Case:
    """The input of a generated puzzle; its answer is the reference's search result that
    proved it unique."""
    givens = sum(1 for digit in planted.puzzle.givens if digit)
    data = input_text(planted.puzzle)
    assert parse(data) == planted.puzzle, "the input reads back as the puzzle that was proven unique"
    return _case(case_id, category, data, answer_text(planted.solution),
                 f"{description}: {givens} givens, {len(planted.puzzle.cages)} cages")


def trap_case(seed: int, index: int) -> Case:
    case_id = f"valid/rule4-trap-{index}"
    return _planted_case(case_id, "valid", rule4_trap(_rng(seed, case_id)),
                         "a rule-4 trap: without rule 4 (no digit twice in a cage), as the seed's program, "
                         "the first grid found repeats a digit in a cage")


# --- valid inputs whose layout varies: the same puzzles, written differently --------------

def _shuffled_sums(rng: random.Random, puzzle: Puzzle) -> bytes:
    return input_text(replace(puzzle, cages=tuple(rng.sample(puzzle.cages, len(puzzle.cages)))))


def _shuffled_letters(rng: random.Random, puzzle: Puzzle) -> bytes:
    letters = rng.sample(CAGE_LETTERS, len(puzzle.cages))
    return input_text(replace(puzzle, cages=tuple(replace(cage, letter=letter)
                                                  for cage, letter in zip(puzzle.cages, letters))))


def _no_final_newline(rng: random.Random, puzzle: Puzzle) -> bytes:
    return input_text(puzzle)[:-1]


def _one_empty_cell(rng: random.Random, solution: tuple[int, ...]) -> Puzzle:
    grid_puzzle = _solved_puzzle(rng, solution)
    empty = rng.randrange(CELL_COUNT)
    return replace(grid_puzzle, givens=tuple(0 if cell == empty else digit for cell, digit in enumerate(solution)))


def _solved_puzzle(rng: random.Random, solution: tuple[int, ...]) -> Puzzle:
    return with_givens(solution, random_cages(rng, solution, FAMILIES["medium"]), set(range(CELL_COUNT)))


# name -> (description, family of the puzzle, how it is written)
_LAYOUTS: dict[str, tuple[str, str, Callable[[random.Random, Puzzle], bytes]]] = {
    "sums-shuffled": ("the sums line in random order", "medium", _shuffled_sums),
    "letters-shuffled": ("cage letters drawn at random from a-z and A-Z, not in reading order", "medium",
                         _shuffled_letters),
    "no-final-newline": ("the sums line without its final newline", "easy", _no_final_newline),
}
_MANY_CAGES = Family("52 cages (every letter), most of one cell", (0, 4), (1, 1, 2), keep_singles=True)
_NINE_CELL_CAGE_SIZES = (9, 9, 3, 2)


def layout_case(seed: int, name: str) -> Case:
    case_id = f"valid/layout-{name}"
    rng = _rng(seed, case_id)
    description, family, written = _LAYOUTS[name]
    planted = unique_puzzle(rng, FAMILIES[family])
    data = written(rng, planted.puzzle)
    return _case(case_id, "valid", data, reference(data), description)


def many_cages_case(seed: int) -> Case:
    case_id = "valid/layout-52-cages"
    return _planted_case(case_id, "valid", unique_puzzle(_rng(seed, case_id), _MANY_CAGES),
                         _MANY_CAGES.description)


def nine_cell_cage_case(seed: int) -> Case:
    case_id = "valid/layout-nine-cell-cage"
    rng = _rng(seed, case_id)
    family = Family("a cage of 9 cells (sum 45)", (20, 26), _NINE_CELL_CAGE_SIZES)
    while True:
        planted = unique_puzzle(rng, family)
        if any(len(cage.cells) == 9 for cage in planted.puzzle.cages):
            return _planted_case(case_id, "valid", planted, family.description)


def nearly_solved_cases(seed: int) -> list[Case]:
    """Every cell given (the answer is the input's grid), and every cell but one."""
    cases = []
    for name, description in (("all-given", "every cell given"), ("one-empty-cell", "every cell given but one")):
        case_id = f"valid/layout-{name}"
        rng = _rng(seed, case_id)
        solution = random_grid(rng)
        puzzle = _solved_puzzle(rng, solution) if name == "all-given" else _one_empty_cell(rng, solution)
        data = input_text(puzzle)
        cases.append(_case(case_id, "valid", data, reference(data), description))
    return cases


def layout_cases(seed: int) -> list[Case]:
    return [layout_case(seed, name) for name in _LAYOUTS] + [many_cages_case(seed), nine_cell_cage_case(seed),
                                                             *nearly_solved_cases(seed)]


def invalid_case(seed: int, rule: str, index: int) -> Case:
    case_id = f"invalid/{rule}-{index}"
    data = INVALID_BUILDERS[rule](_rng(seed, case_id))
    return _case(case_id, "invalid", data, reference(data), RULES[rule], rule=rule)


# --- the suites -------------------------------------------------------------------------

_QUICK_INVALID = ("empty_input", "line_count", "row_length", "bad_digit", "bad_cage_letter", "sum_entry",
                  "unknown_cage", "missing_sum", "cage_disconnected", "cage_sum_impossible", "sums_total",
                  "duplicate_given_row", "duplicate_given_box", "cage_givens", "no_solution")
_STANDARD_VALID = {"easy": 8, "medium": 8}
_STANDARD_HARD = {"sparse": 4, "large-cages": 3, "no-givens": 3}
_FULL_HARD = {"sparse": 8, "large-cages": 8, "no-givens": 8, "no-givens-large": 4}
_INVALID_PER_RULE = 3
_ONE_OF = {"empty_input"}  # a rule with a single input


def quick_suite(seed: int = FIXED_SEED) -> list[Case]:
    """About 25 cases: CodinGame's four tests, one puzzle per main family, a rule-4 trap,
    one input per main rule."""
    cases = [codingame_case(name) for name in CODINGAME_TESTS]
    cases += [family_case(seed, "valid", "easy", 1), family_case(seed, "valid", "medium", 1),
              layout_case(seed, "no-final-newline"), trap_case(seed, 1)]
    cases += [family_case(seed, "hard", "sparse", 1), family_case(seed, "hard", "no-givens", 1)]
    cases += [invalid_case(seed, rule, 1) for rule in _QUICK_INVALID]
    return _checked(cases)


def standard_suite(seed: int = FIXED_SEED) -> list[Case]:
    """About 100 cases: everything quick has, more puzzles of each family, every layout
    variant, a rule-4 trap, and three inputs per rule."""
    return _checked(_standard(seed))


def _standard(seed: int) -> list[Case]:
    cases = [codingame_case(name) for name in CODINGAME_TESTS]
    for family, count in _STANDARD_VALID.items():
        cases += [family_case(seed, "valid", family, index) for index in range(1, count + 1)]
    cases += layout_cases(seed) + [trap_case(seed, 1)]
    for family, count in _STANDARD_HARD.items():
        cases += [family_case(seed, "hard", family, index) for index in range(1, count + 1)]
    for rule in RULES:
        count = 1 if rule in _ONE_OF else _INVALID_PER_RULE
        cases += [invalid_case(seed, rule, index) for index in range(1, count + 1)]
    return cases


def full_suite(seed: int = FIXED_SEED) -> list[Case]:
    """The standard suite, more rule-4 traps, and more hard puzzles, up to no givens with
    cages of 3 to 7 cells."""
    cases = _standard(seed) + [trap_case(seed, index) for index in (2, 3)]
    for family, count in _FULL_HARD.items():
        cases += [family_case(seed, "hard", family, index) for index in range(_STANDARD_HARD.get(family, 0) + 1,
                                                                                 count + 1)]
    return _checked(cases)


SUITES: dict[str, Callable[[int], list[Case]]] = {"quick": quick_suite, "standard": standard_suite,
                                                    "full": full_suite}


def _checked(cases: Iterable[Case]) -> list[Case]:
    """Guard the suites' own promises: unique ids; an invalid input rejected for its rule
    (or, for no_solution, well-formed and answered error); a valid input a puzzle with a
    grid for answer."""
    out = list(cases)
    ids = [case.id for case in out]
    if len(ids) != len(set(ids)):
        raise AssertionError("duplicate case ids in a killer-sudoku suite")
    for case in out:
        parsed = parse(case.input or b"")
        if case.rule is not None:
            got = parsed.rule if isinstance(parsed, Rejection) else "no_solution"
            if got != case.rule or case.expected != ERROR:
                raise AssertionError(f"{case.id}: not rejected for {case.rule} (got {got}, {case.expected!r})")
        elif isinstance(parsed, Rejection) or case.expected == ERROR:
            raise AssertionError(f"{case.id}: a valid case must be a solvable puzzle ({parsed})")
    return out

