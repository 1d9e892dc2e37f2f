"""The Shikaku exercise (seed 003; CodinGame's "Shikaku Solver"): its contract is
docs/exercises/shikaku.md.

    puzzle.py         the input: parser and validator, one rule id per rejection
    solver.py         the exact reference: count every solution, the first in sorted order
    plain.py          the seed's plain algorithm, kept as an oracle
    valid.py, hard.py, invalid.py, random_tilings.py   the generators
    suites.py         quick, standard and full
    strategies.py     hypothesis strategies (fuzzing and property tests)
    checker.py        the verdict and diagnosis of a run
    render.py         how reports draw an input and an answer
    timing.py         `python -m exercises.shikaku.timing SUITE`: the reference's time per case
"""
from __future__ import annotations

from harness.grading.exercise import Exercise, Render
from exercises.shikaku import render
from exercises.shikaku.checker import DIAGNOSES, check
from exercises.shikaku.solver import answer_text
from exercises.shikaku.strategies import fuzz_inputs
from exercises.shikaku.suites import FIXED_SEED, full_suite, quick_suite, standard_suite

# Why these weights: solving is the exercise (valid and large together 60); rejecting bad
# input is a quarter of the contract; the hard puzzles reward real pruning.  Disputed
# inputs are warnings: they never change the score unless the strict profile fails them.
WEIGHTS = {"valid": 40.0, "large": 20.0, "invalid": 25.0, "hard": 15.0, "disputed": 0.0}

EXERCISE = Exercise(
    name="shikaku",
    title="Shikaku: count every tiling of the grid into rectangles, print the first in sorted order",
    spec="docs/exercises/shikaku.md",
    invocation="stdin",
    suites={"quick": quick_suite, "standard": standard_suite, "full": full_suite},
    fixed_seed=FIXED_SEED,
    check=check,
    reference=answer_text,
    weights=WEIGHTS,
    render=Render(input_lines=render.input_lines, answer_lines=render.answer_lines),
    input_suffix=".txt",
    default_suite="standard",
    fuzz_inputs=fuzz_inputs,
    diagnoses=DIAGNOSES,
)
