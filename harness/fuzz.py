"""Differential fuzzing: hypothesis-made files through a fillit and the reference, and
shrinking of any disagreement to a minimal failing file.

    result = fuzz(Path("./fillit"), 200, seed=1, database=Path(".fillit-fuzz-db"))
    if result.failed:
        print(describe_failure(result.minimal))

Each generated file becomes a Case built on the fly (expected = the reference's answer)
and goes through `harness.grading.grade_case`: the jailed runner with limits, then the
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
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import hashlib
import re

from hypothesis import HealthCheck, Phase, Verbosity, given, seed as hypothesis_seed, settings, strategies as st
from hypothesis.database import DirectoryBasedExampleDatabase

from generators.cases import Case
from generators.invalid import INVALID_CATEGORIES
from generators.strategies import valid_files
from generators.text import spell_block
from generators.valid import placements, plain_tries
from harness.jail import Jail
from harness.limits import Limits
from harness.model import CaseResult
from reference.parser import parse
from reference.plain import min_side
from reference.shapes import SHAPES, Shape
from reference.solver import solve_text

# Per-run wall-clock limit in fuzz mode: shrinking runs the target many times.
DEFAULT_CPU_S = 2.0
# Shrinking stops improving after this long (the best file so far is reported).
DEFAULT_SHRINK_BUDGET_S = 60.0
# Default example database, relative to the current directory.
DEFAULT_DATABASE = Path(".fillit-fuzz-db")
# A valid fuzz file must be solved by plain backtracking within this many placement
# tries (a C solver does millions a second; the Python reference a few hundred thousand).
EASY_TRIES = 20_000

Progress = Callable[["FuzzProgress"], None]


def _easy(data: bytes) -> bool:
    """The file's pieces (a trailing empty line accepted) are quick for plain backtracking."""
    pieces = parse(data).pieces
    return not pieces or plain_tries(pieces, EASY_TRIES) is not None


@st.composite
def _packed_file(draw: st.DrawFn, min_pieces: int, max_pieces: int) -> bytes:
    """A file of up to 26 pieces that plain backtracking solves at once: each piece is
    drawn among the shapes that fit, first-fit, into the lower-bound square, preferring
    those that cover its first empty cell (few holes, like generators.valid.greedy_pieces).

    Built from hypothesis draws only (a count, then one index per piece), so a failing
    file shrinks: fewer pieces, earlier shapes, offset (0, 0).  A draw that fits nothing
    ends the file early.
    """
    n = draw(st.integers(min_pieces, max_pieces))
    side = min_side(n)
    grid = 0
    chosen: list[Shape] = []
    for _ in range(n):
        first_empty = ~grid & (grid + 1)
        fitting, covering = [], []
        for shape in SHAPES:
            mask = next((m for _, m in placements(shape, side) if not m & grid), None)
            if mask is not None:
                fitting.append((shape, mask))
                if mask & first_empty:
                    covering.append((shape, mask))
        if not fitting:
            break
        # Index 0 (where shrinking goes) and most others: cover the first empty cell.
        pool = covering if covering and draw(st.integers(0, 9)) < 9 else fitting
        shape, mask = pool[draw(st.integers(0, len(pool) - 1))]
        chosen.append(shape)
        grid |= mask
    offsets = [(draw(st.integers(0, 4 - s.height)), draw(st.integers(0, 4 - s.width))) for s in chosen]
    return "\n".join("".join(line + "\n" for line in spell_block(shape, row, col))
                     for shape, (row, col) in zip(chosen, offsets)).encode()


def fuzz_inputs() -> st.SearchStrategy[bytes]:
    """File contents for fuzzing, most of them small.

    Branches come in shrinking order (hypothesis' one_of shrinks toward the first), and
    every valid branch can shrink down to one piece within itself.  Small valid files
    are drawn three times as often as any other branch.
    """
    small = valid_files(1, 5).filter(_easy)
    medium = valid_files(1, 10).filter(_easy)
    large = _packed_file(1, 26).filter(_easy)
    categories = sorted(INVALID_CATEGORIES)
    strict = st.sampled_from([c for c in categories if INVALID_CATEGORIES[c].disputed is None]).flatmap(
        lambda name: st.randoms(use_true_random=False).map(INVALID_CATEGORIES[name].build))
    disputed = st.one_of(*[
        st.randoms(use_true_random=False).map(INVALID_CATEGORIES[c].build).filter(_easy)
        for c in categories if INVALID_CATEGORIES[c].disputed is not None
    ])
    return st.one_of(small, small, small, medium, large, strict, strict, disputed)


def fuzz_case(data: bytes, n: int) -> Case:
    """The graded case for one fuzz file: the reference's answer, disputed rules honoured."""
    parsed = parse(data)
    disputed = parsed.disputed[0] if parsed.disputed and not parsed.valid else None
    return Case(
        id=f"fuzz/{n}",
        category="fuzz",
        input=data,
        expected=solve_text(data),
        accepted=(solve_text(data, accept_disputed=True),) if disputed else (),
        disputed=disputed,
        rule=parsed.rejection.rule if parsed.rejection is not None else None,
        description="hypothesis-generated file",
    )


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
    """
    from harness.grading import grade_case, wall_backstop
    from harness.jail import detect_jail

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
        return _easy(text) and fails(text)

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


# --------------------------------------------------------------------------- text

MAX_LINES = 40
MAX_WIDTH = 60


def visible(text: str) -> list[str]:
    """Lines in `cat -e` style: control characters as ^X, each line end marked '$'.

    A last line without a newline has no '$'.  At most MAX_LINES lines of MAX_WIDTH
    characters are kept; a cut is marked with '...'.
    """
    def show(ch: str) -> str:
        if ch == "\t" or (ord(ch) < 32 and ch != "\n"):
            return "^" + chr(ord(ch) + 64)
        if ord(ch) == 127:
            return "^?"
        return ch

    pieces = text.split("\n")
    lines = [line + "$" for line in pieces[:-1]]
    if pieces[-1]:
        lines.append(pieces[-1])
    out = []
    for line in lines[:MAX_LINES]:
        shown = "".join(show(ch) for ch in line)
        out.append(shown if len(shown) <= MAX_WIDTH else shown[:MAX_WIDTH] + "...")
    if len(lines) > MAX_LINES:
        out.append(f"... ({len(lines) - MAX_LINES} more lines)")
    return out


def side_by_side(expected: str, actual: str, titles: tuple[str, str] = ("expected", "actual")) -> str:
    """The two outputs in two columns (cat -e style); rows that differ are marked '!'."""
    left, right = visible(expected) or ["(nothing)"], visible(actual) or ["(nothing)"]
    width = max(len(titles[0]), *(len(line) for line in left))
    rows = [f"  {titles[0]:<{width}}   {titles[1]}"]
    for i in range(max(len(left), len(right))):
        a = left[i] if i < len(left) else ""
        b = right[i] if i < len(right) else ""
        mark = " " if a == b else "!"
        rows.append(f"{mark} {a:<{width}} | {b}")
    return "\n".join(rows)


def describe_input(data: bytes | None) -> str:
    """One line about a fuzz file: its pieces, or the rule it breaks."""
    if data is None:
        return "no input file"
    parsed = parse(data)
    if parsed.valid:
        return f"valid file of {len(parsed.pieces)} piece(s), {len(data)} bytes"
    note = " (disputed: the seed accepts it)" if parsed.disputed else ""
    return f"invalid file, {len(data)} bytes: {parsed.rejection}{note}"


def describe_failure(result: CaseResult) -> str:
    """The diagnosis (first line), the failing case and its file, the two outputs side by side."""
    from generators.cases import USAGE

    case, verdict = result.case, result.verdict
    reason = f" {verdict.diagnosis}" if verdict.diagnosis else ""
    lines = [f"diagnosis: {verdict.verdict}{reason}: {verdict.message}", f"case {case.id}: {describe_input(case.input)}"]
    if case.invocation != "file":
        lines.append(f"invocation: {case.invocation.replace('_', ' ')}")
    if case.input is not None:
        lines.append("input file ('$' marks each line end):")
        lines += [f"    {line}" for line in visible(case.input.decode("utf-8", errors="replace"))] or ["    (empty)"]
    expected = "usage... (one line starting with 'usage')\n" if case.expected == USAGE else case.expected
    lines.append(side_by_side(expected, result.actual))
    if result.stderr.strip():
        lines.append("stderr: " + " / ".join(result.stderr.strip().splitlines()[:5])[:300])
    return "\n".join(lines)


def _fewer_files(result: FuzzResult) -> str:
    """Why fewer distinct files ran than were asked for, "" when they did not."""
    if result.failed or result.examples_run >= result.requested:
        return ""
    reasons = []
    if result.repeats:
        reasons.append(f"{result.repeats} draw(s) repeated a file already run (not run again)")
    drawn = result.examples_run + result.repeats
    if drawn < result.requested:
        reasons.append(f"hypothesis stopped after {drawn} draw(s): it found no other file to try")
    return f" ({result.requested} asked: {'; '.join(reasons)})"


def summary(result: FuzzResult, shown_target: str) -> str:
    """What `grade --fuzz` prints: the outcome, and the minimal failing file if any."""
    where = f", example database {result.database}" if result.database else ""
    head = f"fuzz {shown_target}: seed {result.seed}{where}, per-run limit {result.limits.wall_s:g} s"
    minimal = result.minimal
    if minimal is None:
        return f"{head}\nno disagreement with the reference in {result.examples_run} distinct file(s){_fewer_files(result)}"
    cut = " (shrinking time budget reached: the file may not be minimal)" if result.shrink_budget_exhausted else ""
    return "\n".join([
        head,
        f"DISAGREEMENT: the file run #{result.first_failure_at} failed; shrunk in {result.shrink_runs} run(s) to this minimal failing file{cut}:",
        describe_failure(minimal),
        f"rerun: the same command replays it first (seed {result.seed}{where})",
    ])


# --------------------------------------------------------------------------- `grade --fuzz N`

def fuzz_command(target: Path, examples: int, *, seed: int | None, timeout: float | None, jail: Jail,
                 strict: bool, database: Path | None, outputs: dict[str, Path | None], quiet: bool,
                 lenient_build: bool) -> int:
    """`grade TARGET --fuzz N`: exit 1 when a disagreement was found, else 0.

    TARGET is an executable or a repository folder (built with make first, as for suites).
    The reports (--json/--html/--junit) hold the minimal failing case, or no case at all.
    """
    import os
    from datetime import datetime, timezone

    from rich.console import Console

    from harness import cli
    from harness.model import GradeReport
    from harness.scoring import first_failure_line, score

    if database is not None:
        # Hypothesis' own caches go next to the example databases, not into the current folder
        # (often the student's repository).  Read when hypothesis first needs them.
        os.environ.setdefault("HYPOTHESIS_STORAGE_DIRECTORY", str(Path(database) / "hypothesis-home"))
    console = Console(stderr=True)
    started = datetime.now(timezone.utc)
    with cli.prepared_program(target, jail, lenient_build, console, quiet) as (program, build, _):
        if not quiet:
            kept = (f"example database {database_folder(database, str(target.resolve()))} (a failing file is "
                    "kept there and replayed first next time; --fuzz-db moves it)" if database is not None
                    else "no example database")
            console.print(f"fuzzing {target} with up to {examples} file(s) (then shrinking any failure); {kept}",
                          markup=False, highlight=False, soft_wrap=True)
        result = fuzz(program, examples, seed=seed, database=database, key=str(target.resolve()),
                      timeout=timeout, jail=jail, strict=strict)
    report = GradeReport(
        target=str(target),
        suite="fuzz",
        seed=result.seed,
        profile="strict" if strict else "default",
        limits=result.limits,
        isolation=result.isolation,
        results=list(result.failures),
        started_at=started.isoformat(timespec="seconds"),
        duration_s=result.duration_s,
        score=score(result.failures, strict=strict),
        first_failure_line=first_failure_line(result.failures),
    )
    if build is not None:
        report.build = build.summary()
    cli.write_reports(report, outputs)
    print(summary(result, str(target)), flush=True)
    return cli.EXIT_FAILED if result.failed else cli.EXIT_PASSED
