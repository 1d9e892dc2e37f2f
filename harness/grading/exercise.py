"""The exercise seam: what the shared harness (jail, runner, grading, scoring, store, batch,
reports, CLI, pytest plugin, fuzzing) needs to know about one graded exercise.

    exercise = exercise_named("shikaku")          # registered as an entry point (below)
    cases = exercise.suite("quick", seed=None)
    verdict = exercise.check(case, runs, strict=False)

An exercise is one package (`exercises/<name>/`) whose `EXERCISE` object is registered in
pyproject.toml under `[project.entry-points."fillit_moulinette.exercises"]`: adding one
is that package and that line; shared code never imports an exercise by name.

What the harness asks of it:

* `suites`: named lists of `Case` from a seed (deterministic: same seed, same bytes);
* `invocation`: how the program gets a case's input — `"file"` (an argument, as fillit)
  or `"stdin"` (CodinGame's exercises: standard input, `./solver < input.txt`); a case's
  own `Case.invocation` still says when a case means otherwise (no argument, a missing file...);
* `check`: the verdict of a case from its runs (`harness.model.Verdict`: verdict, a
  diagnosis among the exercise's own, one plain sentence a student can act on, details);
* `reference`: the expected output of any input file (the reference command, `--cases`);
* `weights`: each scoring category's share of the score (docs/exercises/<name>.md);
* `render`: how a report draws an input and an answer (text lines; the HTML shows them
  in a fixed-width block);
* `fuzz_inputs`: a hypothesis strategy of input files for `grade --fuzz`, or None (then
  `grade --fuzz` refuses the exercise: one line, exit 2).  Each drawn file becomes a case
  by `fuzz_case(data, n)` (default: id `fuzz/n`, category `fuzz`, the reference's answer
  expected; fillit's also honours its disputed rules), then runs as a suite's case would
  (`invocation`, `check`); the first failing file is shrunk by hypothesis (toward what its
  strategy draws first), then by `shrink(data, fails)` when the exercise has a shrinker
  of its own (fillit drops and moves whole pieces, which hypothesis' choice sequences
  cannot do): it gets the failing file and the predicate "this file still fails" (each
  call runs the program) and returns the smallest failing file it finds, or `data`;
* `describe_input`: one line about an input file (what `grade --fuzz` and the pytest plugin
  print above a failing file: "valid file of 3 piece(s)...", the rule it breaks), or None
  ("NAME input, N bytes");
* `own_case`: how one of the student's own files (`grade --cases DIR`) becomes a case
  (default: category `own`, the reference's answer expected);
* `explain_timeout`: what a confirmed TIMEOUT means on this exercise (fillit times the
  seed's plain search on the file), or None;
* `output_chars`: the characters a right answer is made of; an output with others runs
  a second time (a garbage column is often uninitialised memory), or None.
"""
from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib.metadata import entry_points
from types import MappingProxyType
from typing import TYPE_CHECKING, Literal

from generators.cases import Case, Category

if TYPE_CHECKING:
    from hypothesis.strategies import SearchStrategy

    from harness.jail import Jail, RunResult
    from harness.grading.model import CaseResult, Verdict

ENTRY_POINT_GROUP = "fillit_moulinette.exercises"
Invocation = Literal["file", "stdin"]
SuiteBuilder = Callable[[int], list[Case]]
Checker = Callable[[Case, Sequence["RunResult"], bool], "Verdict"]
OwnCase = Callable[[str, bytes, str], Case]  # (case id, the file's bytes, description) -> case
FuzzCase = Callable[[bytes, int], Case]  # (a drawn file's bytes, its run number) -> case
Shrinker = Callable[[bytes, Callable[[bytes], bool]], bytes]  # (failing file, still fails?) -> smaller one
FUZZ_CATEGORY: Category = "fuzz"
TimeoutExplainer = Callable[["CaseResult", "Jail"], "CaseResult"]
DEFAULT_EXERCISE = "fillit"  # what grade, grade batch and the pytest plugin grade unless told
OWN_CATEGORY: Category = "own"


@dataclass(frozen=True)
class Render:
    """How reports draw an exercise's input and answers, as plain text lines (the HTML
    shows them in a fixed-width block; the terminal prints them)."""

    input_lines: Callable[[bytes], list[str]]  # a case's input, readable (e.g. a grid of numbers)
    answer_lines: Callable[[str], list[str]]  # an expected or actual output
    # An answer drawn against its puzzle (edge matching: the board, each cell's colours, its
    # mismatched edges marked), or None where the answer is not legal for the puzzle;
    # reports show it above the answer's text. None: answers are shown as text only.
    answer_drawing: Callable[[bytes, str], list[str] | None] | None = None
    # In a drawing, a bare number is a colour (edge matching) and '!' a mismatch: the HTML
    # paints each colour number with its own background and marks each '!'.
    colour_numbers: bool = False


@dataclass(frozen=True)
class Exercise:
    name: str  # "fillit", "shikaku", "killer-sudoku": --exercise NAME
    title: str  # one line, for --list-exercises and report headers
    spec: str  # the contract, a path relative to the repository: docs/exercises/NAME.md
    invocation: Invocation
    suites: Mapping[str, SuiteBuilder]  # "quick", "standard", "full"...
    fixed_seed: int  # the seed of the suites when none is given (reports store it)
    check: Checker
    reference: Callable[[bytes], str]  # the expected stdout for an input file
    weights: Mapping[str, float]  # scoring category -> share of the score
    render: Render
    input_suffix: str = ".txt"  # an input file's name in the run folder and for --cases
    default_suite: str = "standard"
    fuzz_inputs: Callable[[], "SearchStrategy[bytes]"] | None = None
    fuzz_case: FuzzCase | None = None
    shrink: Shrinker | None = None
    describe_input: Callable[[bytes], str] | None = None
    project_checks: bool = False  # repository mode's 42 rules (fillit's subject only)
    diagnoses: tuple[str, ...] = field(default=())  # every WRONG diagnosis check() may give
    own_case: OwnCase | None = None
    explain_timeout: TimeoutExplainer | None = None
    output_chars: str | None = None

    @property
    def input_name(self) -> str:
        """The input file's name in the run folder (`input.fillit`, `input.txt`)."""
        return f"input{self.input_suffix}"

    def suite_seed(self, seed: int | None) -> int:
        """The seed a suite's cases come from: `seed`, or the fixed seed for None (reports
        store this one, so that `--seed` with it reproduces the run)."""
        return self.fixed_seed if seed is None else seed

    def suite(self, name: str, seed: int | None = None) -> list[Case]:
        if name not in self.suites:
            raise KeyError(name)
        return self.suites[name](self.suite_seed(seed))

    def case_of_own_file(self, case_id: str, data: bytes, description: str) -> Case:
        """The case of one of the student's own input files."""
        if self.own_case is not None:
            return self.own_case(case_id, data, description)
        return Case(case_id, OWN_CATEGORY, data, self.reference(data), description=description)

    def case_of_fuzz_input(self, data: bytes, n: int) -> Case:
        """The case of the n-th file `grade --fuzz` runs."""
        if self.fuzz_case is not None:
            return self.fuzz_case(data, n)
        return Case(f"fuzz/{n}", FUZZ_CATEGORY, data, self.reference(data), description="hypothesis-generated file")

    def input_summary(self, data: bytes) -> str:
        """One line about an input file (`describe_input`, or its size)."""
        return self.describe_input(data) if self.describe_input is not None else f"{self.name} input, {len(data)} bytes"


@functools.cache
def registered_exercises() -> Mapping[str, Exercise]:
    """Every exercise installed (entry points of ENTRY_POINT_GROUP), by name. Read once per
    process (the installed packages do not change while it runs; reports ask per case)."""
    found: dict[str, Exercise] = {}
    for point in entry_points(group=ENTRY_POINT_GROUP):
        exercise = point.load()
        if not isinstance(exercise, Exercise) or exercise.name != point.name:
            raise RuntimeError(f"entry point {point.name} = {point.value} is not the Exercise named {point.name!r}")
        found[point.name] = exercise
    return MappingProxyType(found)


class UnknownExercise(KeyError):
    """--exercise NAME names no installed exercise: str() is the one line the user sees."""

    def __str__(self) -> str:
        return str(self.args[0])


def exercise_named(name: str = DEFAULT_EXERCISE) -> Exercise:
    exercises = registered_exercises()
    if name not in exercises:
        installed = ", ".join(sorted(exercises)) or "none: install the package (pip install -e .)"
        raise UnknownExercise(f"no exercise {name!r} (installed: {installed})")
    return exercises[name]
