"""The edge-matching exercise (seed 002: an Eternity II-style puzzle, the seed's row-by-row
heuristic from a fixed top-left piece): its contract is docs/exercises/edge-matching.md.

    puzzle.py      the input: parser and validator, one rule id per rejection
    board.py       the answer: read into cells, edges counted
    solver.py      the exact reference: backtracking in the seed's order, with pruning
    heuristic.py   the seed's greedy algorithm, kept as the baseline
    generate.py, invalid.py   the generators (solvable by construction, unsolvable, invalid)
    suites.py      quick, standard and full
    strategies.py  hypothesis strategies (fuzzing and property tests)
    checker.py     the verdict, diagnosis and partial credit of a run
    render.py      how reports draw a puzzle, an answer and a board
"""
from __future__ import annotations

from harness.grading.exercise import Exercise, Render
from exercises.edge_matching import render
from exercises.edge_matching.checker import DIAGNOSES, check
from exercises.edge_matching.solver import answer_text
from exercises.edge_matching.strategies import fuzz_inputs
from exercises.edge_matching.suites import FIXED_SEED, full_suite, quick_suite, standard_suite

# Why these weights (docs/exercises/edge-matching.md, "Scoring"): solving is the exercise, and
# a heuristic earns part of each valid and large case by its matched edges; rejecting bad
# files is a fifth of the contract; the hard families reward real pruning.
WEIGHTS = {"valid": 40.0, "large": 20.0, "invalid": 20.0, "hard": 20.0}

EXERCISE = Exercise(
    name="edge-matching",
    title="Edge matching (Eternity II): place every piece, rotated, so that touching sides match",
    spec="docs/exercises/edge-matching.md",
    invocation="file",
    suites={"quick": quick_suite, "standard": standard_suite, "full": full_suite},
    fixed_seed=FIXED_SEED,
    check=check,
    reference=answer_text,
    weights=WEIGHTS,
    render=Render(input_lines=render.input_lines, answer_lines=render.answer_lines,
                  answer_drawing=render.answer_drawing, colour_numbers=True),
    input_suffix=".txt",
    default_suite="standard",
    fuzz_inputs=fuzz_inputs,
    diagnoses=DIAGNOSES,
)
