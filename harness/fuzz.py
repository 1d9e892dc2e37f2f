"""Differential fuzzing: hypothesis-made input files through a solver and the reference,
and shrinking of any disagreement to a minimal failing file.  Any exercise whose record
has `fuzz_inputs` (harness.grading.exercise) can be fuzzed; fillit is the default.

    result = fuzz(Path("./fillit"), 200, seed=1, database=Path(".fillit-fuzz-db"))
    result = fuzz(Path("./solver"), 200, exercise=exercise_named("shikaku"))
    if result.failed:
        print(describe_failure(result.minimal, exercise))

Each generated file becomes a Case built on the fly by the exercise (`case_of_fuzz_input`:
expected = the reference's answer) and goes through `harness.grading.grade.grade_case`
with the exercise: its invocation, the jailed runner with limits, then its checker, so a
failure carries the same verdict and diagnosis as in a graded suite.
The search is a `@given` test run programmatically (like `hypothesis.find`): it stops
generating at the first failing file (a verdict that is neither OK nor DISPUTED), shrinks
it (hypothesis' shrinker, then the exercise's own `shrink` if it has one), and keeps it
in the example database, in a folder of the exercise and target, so that the next run
against the same target replays it first (hypothesis' reuse phase), whatever the seed.

Seeding: `hypothesis.seed` alone (and `derandomize`) turns the database off; applying our
`settings` (which name the database) *after* `seed` keeps both, with public API only.

Inputs are the exercise's (`Exercise.fuzz_inputs`); fillit's (generators.fuzz_inputs):
valid files, mostly of few pieces, and files of every invalid category (the disputed one
included), valid ones kept *easy* for plain backtracking (the seed's algorithm, which most
solvers are): a correct but plain solver must never time out on a fuzz file, and the
reference must answer at once.  The other exercises' strategies keep the same rule.
"""
from __future__ import annotations

import dataclasses
import hashlib
import random
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from hypothesis import HealthCheck, Phase, Verbosity, given, seed as hypothesis_seed, settings, strategies as st
from hypothesis.database import DirectoryBasedExampleDatabase

from harness.grading.exercise import DEFAULT_EXERCISE, Exercise, exercise_named
from harness.grading.grade import grade_case, wall_backstop
from harness.grading.model import CaseResult
from harness.jail import Jail, detect_jail
from harness.limits import Limits

# Per-run wall-clock limit in fuzz mode: shrinking runs the target many times.
DEFAULT_CPU_S = 2.0
# Shrinking stops improving after this long (the best file so far is reported).
DEFAULT_SHRINK_BUDGET_S = 60.0
# Default example database, relative to the current directory.
DEFAULT_DATABASE = Path(".fillit-fuzz-db")
Progress = Callable[["FuzzProgress"], None]


@dataclass(frozen=True)
class FuzzProgress:
    examples_run: int
    shrinking: bool
    shrink_runs: int


@dataclass
class FuzzResult:
    target: str
    exercise: str  # the exercise's name (harness.grading.exercise)
    seed: int
    requested: int  # examples asked for (hypothesis' max_examples)
    examples_run: int  # distinct files run through the target before the first failure (or in all)
    repeats: int = 0  # files hypothesis drew again before the first failure: answered from the first run
    failures: list[CaseResult] = field(default_factory=list)  # the minimal failing case, or empty
    first_failure_at: int | None = None  # 1-based index of the first file that failed
    first_failure: CaseResult | None = None  # that file's result, before shrinking
    shrink_runs: int = 0  # target runs spent shrinking
    shrink_budget_exhausted: bool = False
    duration_s: float = 0.0
    database: str | None = None
    isolation: str = ""
    limits: Limits = field(default_factory=Limits)

    @property
    def failed(self) -> bool:
        return bool(self.failures)

    @property
    def minimal(self) -> CaseResult | None:
        return self.failures[0] if self.failures else None


class CannotFuzz(ValueError):
    """The exercise has no `fuzz_inputs`: str() is the one line the user sees."""


def database_folder(database: Path, target: str, exercise: str = DEFAULT_EXERCISE) -> Path:
    """The example database of one exercise and target inside `database`: failures replay
    for the same target path fuzzed as the same exercise (a failure of one solver must not
    be replayed, then forgotten, for another; a fillit file is no Shikaku puzzle)."""
    key = f"{exercise}\0{target}"
    digest = hashlib.sha256(key.encode("utf-8", "surrogateescape")).hexdigest()[:16]
    name = re.sub(r"[^A-Za-z0-9_.-]+", "_", Path(target).name)[:40] or "target"
    return Path(database) / f"{exercise}-{name}-{digest}"


class _Disagreement(Exception):
    """Raised inside the hypothesis test for a failing file."""


class _OutOfShrinkTime(KeyboardInterrupt):
    """Ends the hypothesis run at once; `_search` catches it, it never leaves this module.

    A KeyboardInterrupt because hypothesis lets that through untouched; any other
    BaseException is re-raised too, but only after the file that raised it is saved
    to the database as a failure to replay (it is not one).
    """


def _search(strategy: st.SearchStrategy[bytes], condition: Callable[[bytes], bool], config: settings,
            seed: int) -> bytes | None:
    """The minimal file for which `condition` holds, or None (hypothesis.find with a seed
    that keeps the database).

    When `condition` raises _OutOfShrinkTime the best file so far is returned: the
    shrinker only tries files smaller than its current best, so the last file that failed
    is that best (and hypothesis saved it in the database when it became the best).
    """
    last: list[bytes] = []

    def test(data: bytes) -> None:
        if condition(data):
            last[:] = [data]
            raise _Disagreement

    runnable = config(hypothesis_seed(seed)(given(strategy)(test)))
    try:
        runnable()
    except _Disagreement:
        return last[0]
    except _OutOfShrinkTime:
        return last[0]
    return None


def fuzz(
    program: Path,
    examples: int,
    *,
    seed: int | None = None,
    database: Path | None = None,
    key: str | None = None,
    timeout: float | None = None,
    limits: Limits = Limits(),
    jail: Jail | None = None,
    strict: bool = False,
    shrink_budget_s: float = DEFAULT_SHRINK_BUDGET_S,
    strategy: st.SearchStrategy[bytes] | None = None,
    progress: Progress | None = None,
    exercise: Exercise | None = None,
) -> FuzzResult:
    """Run up to `examples` generated files through `program`; shrink the first disagreement.

    `seed` None draws one (it is in the result, to rerun the same way).  `database` is the
    folder of the example databases (None: no database); each target gets its own folder
    in it, named after the exercise and `key` (default: the program's resolved path).  `timeout`
    is the per-run wall limit (default DEFAULT_CPU_S).  `strategy` replaces the exercise's
    `fuzz_inputs()`.  `exercise` None: the default exercise (fillit).  Raises CannotFuzz
    for an exercise without `fuzz_inputs` (unless `strategy` is given).

    Long (80 lines) because it is one pipeline whose steps share their state: replay of
    the database, the hypothesis search, the shrink under a budget, the result; each step
    is a helper (`_search`, the exercise's `shrink`), this only threads them.
    """
    if examples < 1:
        raise ValueError("examples must be >= 1")
    exercise = exercise or exercise_named()
    strategy = strategy if strategy is not None else fuzz_strategy(exercise)
    seed = random.SystemRandom().randrange(2**32) if seed is None else seed
    jail = jail or detect_jail()
    wall = DEFAULT_CPU_S if timeout is None else timeout
    run_limits = dataclasses.replace(limits, cpu_s=wall, wall_s=wall_backstop(wall))
    target = key if key is not None else str(Path(program).resolve())
    result = FuzzResult(target=target, exercise=exercise.name, seed=seed, requested=examples, examples_run=0,
                        database=str(database) if database is not None else None,
                        isolation=jail.describe(), limits=run_limits)
    cache: dict[bytes, CaseResult] = {}
    found_at: list[float] = []  # monotonic clock of the first failure
    clock = time.monotonic()

    def disagrees(data: bytes) -> bool:
        known = cache.get(data)
        if known is not None:
            if not found_at:
                result.repeats += 1
            return not known.passed
        if found_at:
            if time.monotonic() - found_at[0] > shrink_budget_s:
                # Out of shrinking time: stop hypothesis; the best file so far stands.
                result.shrink_budget_exhausted = True
                raise _OutOfShrinkTime
            result.shrink_runs += 1
        else:
            result.examples_run += 1
        case = exercise.case_of_fuzz_input(data, result.examples_run + result.shrink_runs)
        graded = grade_case(program, case, run_limits, jail, strict, wall, exercise)
        cache[data] = graded
        if not graded.passed and not found_at:
            found_at.append(time.monotonic())
            result.first_failure_at = result.examples_run
            result.first_failure = graded
        if progress is not None:
            progress(FuzzProgress(result.examples_run, bool(found_at), result.shrink_runs))
        return not graded.passed

    config = settings(
        max_examples=examples,
        database=(DirectoryBasedExampleDatabase(database_folder(database, target, exercise.name))
                  if database is not None else None),
        deadline=None,
        derandomize=False,
        phases=(Phase.explicit, Phase.reuse, Phase.generate, Phase.shrink),
        suppress_health_check=list(HealthCheck),
        verbosity=Verbosity.quiet,
        print_blob=False,
        report_multiple_bugs=False,
    )
    minimal = _search(strategy, disagrees, config, seed)
    if minimal is not None and exercise.shrink is not None:
        try:
            minimal = exercise.shrink(minimal, disagrees)
        except _OutOfShrinkTime:
            # The shrinker's best so far: the smallest failing file run (it tries only
            # files that are smaller, in its own sense, than the file it started from).
            minimal = min((data for data, graded in cache.items() if not graded.passed), key=_size)
    if minimal is not None:
        result.failures = [cache[minimal]]
    result.duration_s = round(time.monotonic() - clock, 3)
    return result


def fuzz_strategy(exercise: Exercise) -> st.SearchStrategy[bytes]:
    """The exercise's `fuzz_inputs()`; CannotFuzz when it has none."""
    if exercise.fuzz_inputs is None:
        raise CannotFuzz(f"{exercise.name} cannot be fuzzed: its exercise record has no fuzz_inputs")
    return exercise.fuzz_inputs()


def _size(data: bytes) -> tuple[int, bytes]:
    return len(data), data
