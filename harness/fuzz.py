"""Differential fuzzing: hypothesis-made files through a fillit and the reference, and
shrinking of any disagreement to a minimal failing file.

    result = fuzz(Path("./fillit"), 200, seed=1, database=Path(".fillit-fuzz-db"))
    if result.failed:
        print(describe_failure(result.minimal))

Each generated file becomes a Case built on the fly (expected = the reference's answer)
and goes through `harness.grading.grade.grade_case`: the jailed runner with limits, then the
checker, so a failure carries the same verdict and diagnosis as in a graded suite.
The search is a `@given` test run programmatically (like `hypothesis.find`): it stops
generating at the first failing file (a verdict that is neither OK nor DISPUTED), shrinks
it, and keeps it in the example database, in a folder of the target, so that the next run
against the same target replays it first (hypothesis' reuse phase), whatever the seed.

Seeding: `hypothesis.seed` alone (and `derandomize`) turns the database off; applying our
`settings` (which name the database) *after* `seed` keeps both, with public API only.

Inputs (`fuzz_inputs`): valid files, mostly of few pieces, and files of every invalid
category of `generators.invalid` (the disputed one included).  Valid files are kept *easy*
for plain backtracking (the seed's algorithm, which most solvers are): a correct but plain
solver must never time out on a fuzz file, and the reference must answer at once.
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

from generators.fuzz_inputs import fuzz_case, fuzz_inputs, is_easy
from generators.text import spell_block
from harness.grading.grade import grade_case, wall_backstop
from harness.grading.model import CaseResult
from harness.jail import Jail, detect_jail
from harness.limits import Limits
from reference.parser import parse

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


def database_folder(database: Path, target: str) -> Path:
    """The example database of one target inside `database`: failures replay for the same
    target path (a failure of one solver must not be replayed, then forgotten, for another)."""
    digest = hashlib.sha256(target.encode("utf-8", "surrogateescape")).hexdigest()[:16]
    name = re.sub(r"[^A-Za-z0-9_.-]+", "_", Path(target).name)[:40] or "target"
    return Path(database) / f"{name}-{digest}"


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
) -> FuzzResult:
    """Run up to `examples` generated files through `program`; shrink the first disagreement.

    `seed` None draws one (it is in the result, to rerun the same way).  `database` is the
    folder of the example databases (None: no database); each target gets its own folder
    in it, named after `key` (default: the program's resolved path).  `timeout` is the per-run wall limit
    (default DEFAULT_CPU_S).  `strategy` replaces `fuzz_inputs()`.

    Long (80 lines) because it is one pipeline whose steps share their state: replay of
    the database, the hypothesis search, the shrink under a budget, the result; each step
    is a helper (`_search`, `shrink_blocks`), this only threads them.
    """
    if examples < 1:
        raise ValueError("examples must be >= 1")
    seed = random.SystemRandom().randrange(2**32) if seed is None else seed
    jail = jail or detect_jail()
    wall = DEFAULT_CPU_S if timeout is None else timeout
    run_limits = dataclasses.replace(limits, cpu_s=wall, wall_s=wall_backstop(wall))
    target = key if key is not None else str(Path(program).resolve())
    result = FuzzResult(target=target, seed=seed, requested=examples, examples_run=0,
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
        case = fuzz_case(data, result.examples_run + result.shrink_runs)
        graded = grade_case(program, case, run_limits, jail, strict, wall)
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
        database=DirectoryBasedExampleDatabase(database_folder(database, target)) if database is not None else None,
        deadline=None,
        derandomize=False,
        phases=(Phase.explicit, Phase.reuse, Phase.generate, Phase.shrink),
        suppress_health_check=list(HealthCheck),
        verbosity=Verbosity.quiet,
        print_blob=False,
        report_multiple_bugs=False,
    )
    minimal = _search(strategy if strategy is not None else fuzz_inputs(), disagrees, config, seed)
    if minimal is not None:
        try:
            minimal = shrink_blocks(minimal, disagrees)
        except _OutOfShrinkTime:
            minimal = min((data for data, graded in cache.items() if not graded.passed), key=_size)
        result.failures = [cache[minimal]]
    result.duration_s = round(time.monotonic() - clock, 3)
    return result


def _size(data: bytes) -> tuple[int, int, bytes]:
    return len(parse(data).pieces), len(data), data


def shrink_blocks(data: bytes, fails: Callable[[bytes], bool]) -> bytes:
    """A last, fillit-aware shrinking pass over a failing valid file.

    Hypothesis shrinks choice sequences, and a file built from a packing (the larger
    valid files) can get stuck well above the smallest failing file, e.g. when dropping
    any one block leaves a file too hard to be a fuzz file.  Here the blocks go through
    ddmin (delta debugging) until no single block can be dropped, then each block is
    moved to offset (0, 0) if the file still fails.
    Candidates that are not easy for plain backtracking are not tried.  Invalid files are
    returned unchanged.
    """
    parsed = parse(data)
    if not parsed.valid:
        return data
    blocks = [data[21 * i:21 * i + 20] for i in range(len(parsed.pieces))]

    def still_fails(candidate: list[bytes]) -> bool:
        text = b"\n".join(candidate)
        return is_easy(text) and fails(text)

    # ddmin (Zeller): split into n runs; keep one run alone, or drop one run, if the file
    # still fails; else split finer.  It ends 1-minimal: no single block can be dropped.
    # Runs kept alone matter here: they are small, hence easy, where dropping one block
    # of a large file often leaves a file too hard to be tried.
    n = 2
    while len(blocks) >= 2:
        bounds = [len(blocks) * k // n for k in range(n + 1)]
        runs = [blocks[bounds[k]:bounds[k + 1]] for k in range(n)]
        kept = next((run for run in runs if run and still_fails(run)), None)
        if kept is not None:
            blocks, n = kept, 2
            continue
        rests = ([b for j, run in enumerate(runs) if j != k for b in run] for k in range(n))
        rest = next((rest for rest in rests if rest and still_fails(rest)), None)
        if rest is not None:
            blocks, n = rest, max(n - 1, 2)
            continue
        if n >= len(blocks):
            break
        n = min(len(blocks), 2 * n)
    for i, shape in enumerate(parse(b"\n".join(blocks)).pieces):
        top_left = "".join(line + "\n" for line in spell_block(shape)).encode()
        if blocks[i] != top_left and still_fails(blocks[:i] + [top_left] + blocks[i + 1:]):
            blocks[i] = top_left
    return b"\n".join(blocks)
