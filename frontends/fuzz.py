"""`grade TARGET --fuzz N`: differential fuzzing against the reference, from the command line.

The engine is harness.fuzz; this module prints its outcome and writes the reports.
"""
from __future__ import annotations

import os
from datetime import datetime, timezone
from pathlib import Path

from rich.console import Console

from frontends.common import EXIT_FAILED, EXIT_PASSED, prepared_program, write_reports
from frontends.reporting import ReportKind
from harness.fuzz import FuzzResult, database_folder, fuzz
from harness.grading.model import GradeReport
from harness.grading.exercise import DEFAULT_EXERCISE, exercise_named
from harness.grading.scoring import first_failure_line, score
from harness.jail import Jail
from reports.describe import describe_failure


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
                 strict: bool, database: Path | None, outputs: dict[ReportKind, Path | None], quiet: bool,
                 lenient_build: bool) -> int:
    """`grade TARGET --fuzz N`: exit 1 when a disagreement was found, else 0.

    TARGET is an executable or a repository folder (built with make first, as for suites).
    The reports (--json/--html/--junit) hold the minimal failing case, or no case at all.
    """
    if database is not None:
        # Hypothesis' own caches go next to the example databases, not into the current folder
        # (often the student's repository).  Read when hypothesis first needs them.
        os.environ.setdefault("HYPOTHESIS_STORAGE_DIRECTORY", str(Path(database) / "hypothesis-home"))
    console = Console(stderr=True)
    started = datetime.now(timezone.utc)
    with prepared_program(target, jail, lenient_build, console, quiet) as (program, build, _):
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
        score=score(result.failures, exercise_named(DEFAULT_EXERCISE).weights, strict=strict),
        first_failure_line=first_failure_line(result.failures),
    )
    if build is not None:
        report.build = build.summary()
    write_reports(report, outputs)
    print(summary(result, str(target)), flush=True)
    return EXIT_FAILED if result.failed else EXIT_PASSED
