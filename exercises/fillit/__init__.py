"""fillit, the first exercise on the seam: its contract is docs/SPEC.md.

fillit came before the seam, so its layers are the shared folders themselves (they stay
usable on their own, e.g. `from reference.solver import solve`):

    reference/                 the input parser and the exact reference (C core)
    generators/                valid, invalid, hard and speed files; the suites (corpus.py)
    harness/grading/checker.py the verdict and diagnosis of a run
    exercises/fillit/          this record, own files (own.py), timeouts explained (timeouts.py)

The reports draw fillit's squares themselves (reports/html_grids.py); `render` here is
the plain text of a file and an answer.
"""
from __future__ import annotations

from exercises.fillit.own import own_case
from exercises.fillit.timeouts import explain_timeout
from generators.corpus import STANDARD_SEED, full_corpus, quick_corpus, standard_corpus
from generators.fuzz_inputs import fuzz_inputs
from harness.grading.checker import check
from harness.grading.exercise import Exercise, Render
from harness.grading.model import WRONG_DIAGNOSES
from reference.solver import solve_text

# Why these weights: solving valid files is the exercise; rejecting bad input is
# half of the subject's text; the command-line contract is small.  Speed is graded
# apart from correctness and weighs little: a correct plain backtracking solver
# loses only this category (94.7 on the standard suite).  Disputed cases are
# warnings (they never change the score unless --profile strict fails them).
WEIGHTS: dict[str, float] = {
    "valid": 35.0,
    "large": 15.0,
    "invalid": 25.0,
    "errors": 7.5,
    "usage": 7.5,
    "hard": 10.0,
    "speed": 5.0,
    "disputed": 0.0,
}


def _lines(text: str) -> list[str]:
    return text.splitlines()


EXERCISE = Exercise(
    name="fillit",
    title="fillit: pack 1-26 tetriminos into the smallest square, upper-left first",
    spec="docs/SPEC.md",
    invocation="file",
    suites={"quick": quick_corpus, "standard": standard_corpus, "full": full_corpus},
    fixed_seed=STANDARD_SEED,
    check=check,
    reference=solve_text,
    weights=WEIGHTS,
    render=Render(input_lines=lambda data: _lines(data.decode("utf-8", errors="replace")), answer_lines=_lines),
    input_suffix=".fillit",
    default_suite="standard",
    fuzz_inputs=fuzz_inputs,
    project_checks=True,
    diagnoses=WRONG_DIAGNOSES,
    own_case=own_case,
    explain_timeout=explain_timeout,
    output_chars=".ABCDEFGHIJKLMNOPQRSTUVWXYZ\n",
)
