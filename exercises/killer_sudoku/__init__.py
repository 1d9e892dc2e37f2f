"""The Killer Sudoku exercise (seed 004; CodinGame's "Killer Sudoku Solver"): its contract
is docs/exercises/killer-sudoku.md.

    puzzle.py         the board: cells, houses, cages, the text of an input and an answer
    parser.py         the input: parser and validator, one rule id per rejection
    solver.py         the exact reference: propagation (propagate.py, rules.py) and search
    plain.py          the seed's plain algorithm, kept as an oracle
    generate.py, invalid.py, codingame.py   puzzles with one solution, broken inputs, CodinGame's tests
    suites.py         quick, standard and full
    strategies.py     hypothesis strategies (fuzzing and property tests)
    checker.py        the verdict and diagnosis of a run
    render.py         how reports draw an input and an answer
"""
from __future__ import annotations

from exercises.killer_sudoku import render
from exercises.killer_sudoku.checker import DIAGNOSES, check
from exercises.killer_sudoku.solver import reference
from exercises.killer_sudoku.strategies import fuzz_inputs
from exercises.killer_sudoku.suites import FIXED_SEED, SUITES
from harness.grading.exercise import Exercise, Render

# Why these weights: solving is the exercise (CodinGame grades nothing else); puzzles with
# few givens weigh a fifth, since only a solver that prunes answers them in time; invalid
# input is the harness's own demand (CodinGame's inputs are always valid), a quarter.
WEIGHTS: dict[str, float] = {"valid": 55.0, "hard": 20.0, "invalid": 25.0}

EXERCISE = Exercise(
    name="killer-sudoku",
    title="Killer Sudoku: solve a 9x9 grid whose cages have sums (CodinGame's Killer Sudoku Solver)",
    spec="docs/exercises/killer-sudoku.md",
    invocation="stdin",
    suites=SUITES,
    fixed_seed=FIXED_SEED,
    check=check,
    reference=reference,
    weights=WEIGHTS,
    render=Render(input_lines=render.input_lines, answer_lines=render.answer_lines),
    input_suffix=".txt",
    default_suite="standard",
    fuzz_inputs=fuzz_inputs,
    diagnoses=DIAGNOSES,
)
