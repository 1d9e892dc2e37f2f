"""Hypothesis strategies for Killer Sudoku inputs: `grade --fuzz` and property tests.

    from hypothesis import given
    from exercises.killer_sudoku.strategies import puzzles, fuzz_inputs

    @given(puzzles(min_givens=30))
    def test_reference(puzzle): ...

Grids and cages come from the seeded generators, driven by `st.randoms()`, whose draws
hypothesis records and replays; which cells are given is drawn directly, so that a
failing example shrinks towards fewer givens.
"""
from __future__ import annotations

from hypothesis import strategies as st

from exercises.killer_sudoku.generate import FAMILIES, Family, random_cages, random_grid, unique_puzzle, with_givens
from exercises.killer_sudoku.invalid import INVALID_BUILDERS
from exercises.killer_sudoku.puzzle import CELL_COUNT, Puzzle, input_text

_SEEDED = st.randoms(use_true_random=False)


@st.composite
def puzzles(draw: st.DrawFn, min_givens: int = 0, max_givens: int = CELL_COUNT,
            cage_sizes: tuple[int, ...] = (1, 2, 3, 4)) -> Puzzle:
    """Well-formed puzzles built on a random grid (so they have a solution, often more
    than one), cages of `cage_sizes` cells, between min_givens and max_givens givens."""
    rng = draw(_SEEDED)
    grid = random_grid(rng)
    cages = random_cages(rng, grid, Family("drawn", (0, 0), cage_sizes, keep_singles=1 in cage_sizes))
    given = draw(st.sets(st.integers(0, CELL_COUNT - 1), min_size=min_givens, max_size=max_givens))
    return with_givens(grid, cages, given)


@st.composite
def one_given_changed(draw: st.DrawFn, min_givens: int = 30) -> Puzzle:
    """A puzzle of `puzzles` with one given replaced by another digit: often no solution,
    sometimes an input that breaks a rule (a digit twice in a row...)."""
    puzzle = draw(puzzles(min_givens=max(1, min_givens)))
    cell = draw(st.sampled_from([c for c in range(CELL_COUNT) if puzzle.givens[c]]))
    digit = draw(st.integers(1, 9).filter(lambda d: d != puzzle.givens[cell]))
    givens = list(puzzle.givens)
    givens[cell] = digit
    return Puzzle(tuple(givens), puzzle.cages)


def unique_inputs(families: tuple[str, ...] = ("easy", "medium")) -> st.SearchStrategy[bytes]:
    """Inputs of puzzles with exactly one solution, from the suites' families."""
    return st.tuples(st.sampled_from(families), _SEEDED).map(
        lambda drawn: input_text(unique_puzzle(drawn[1], FAMILIES[drawn[0]]).puzzle))


def invalid_inputs(rules: tuple[str, ...] = tuple(INVALID_BUILDERS)) -> st.SearchStrategy[bytes]:
    """Inputs that break one rule each (exercises.killer_sudoku.invalid)."""
    return st.tuples(st.sampled_from(rules), _SEEDED).map(lambda drawn: INVALID_BUILDERS[drawn[0]](drawn[1]))


@st.composite
def mutated_inputs(draw: st.DrawFn) -> bytes:
    """A valid input with one byte replaced, deleted or inserted: mostly invalid, in
    every way a byte can make it so."""
    data = bytearray(draw(unique_inputs(("easy",))))
    at = draw(st.integers(0, len(data) - 1))
    byte = draw(st.integers(0, 255))
    edit = draw(st.sampled_from(("replace", "delete", "insert")))
    if edit == "replace":
        data[at] = byte
    elif edit == "delete":
        del data[at]
    else:
        data.insert(at, byte)
    return bytes(data)


def fuzz_inputs() -> st.SearchStrategy[bytes]:
    """What `grade --fuzz` feeds a solver: puzzles with one solution, inputs breaking each
    rule, and valid inputs with one byte changed."""
    return st.one_of(unique_inputs(), invalid_inputs(), mutated_inputs())
