"""Batch grading throughput: `grade batch --jobs 2` against `--jobs 1`, side by side.

    python benchmarks/bench_batch.py [--submissions 24] [--suite quick] [--rounds 1]

The cohort is the mutant zoo (tests/zoo/build.py: every manifest entry, built
once), topped up with copies to reach --submissions; without the zoo, the small
cohort of tests/test_batch_helpers.py (the correct base solver, text mutants,
crashing programs) is copied to that size.  Each configuration grades the same
folder into a fresh output folder and database, so nothing is skipped.  The
rounds alternate 1 and 2 workers so that a slow phase of the machine hits both.
"""
from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from test_batch_helpers import zoo_cohort  # noqa: E402

GRADE = [sys.executable, "-c", "import sys; from frontends.grade import main; sys.exit(main())"]


def make_cohort(folder: Path, scratch: Path, size: int) -> tuple[list[str], str]:
    names = zoo_cohort(folder, scratch)
    source = "mutant zoo"
    base = list(names)
    copy = 1
    while len(names) < size:
        for name in base:
            if len(names) >= size:
                break
            shutil.copy2(folder / name, folder / f"{name}-copy{copy}")
            names.append(f"{name}-copy{copy}")
        copy += 1
    return sorted(names), source


def grade(folder: Path, out: Path, jobs: int, suite: str) -> float:
    shutil.rmtree(out, ignore_errors=True)
    start = time.perf_counter()
    proc = subprocess.run([*GRADE, "batch", str(folder), "--out", str(out), "--suite", suite, "--jobs", str(jobs)],
                          cwd=ROOT, capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    if proc.returncode != 0:
        raise SystemExit(f"grade batch --jobs {jobs} failed ({proc.returncode}):\n{proc.stdout}\n{proc.stderr}")
    return elapsed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--submissions", type=int, default=24)
    parser.add_argument("--suite", default="quick")
    parser.add_argument("--rounds", type=int, default=1)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-batch-") as tmp:
        root = Path(tmp)
        names, source = make_cohort(root / "subs", root / "scratch", options.submissions)
        from harness.grading.suites import load_suite

        cases = len(load_suite(options.suite))
        print(f"cohort: {len(names)} executables from the {source}; suite {options.suite} ({cases} cases each, "
              f"{len(names) * cases} runs per configuration); {os.cpu_count()} CPUs")
        times: dict[int, list[float]] = {1: [], 2: []}
        for round_ in range(options.rounds):
            for jobs in ((1, 2) if round_ % 2 == 0 else (2, 1)):
                seconds = grade(root / "subs", root / f"out{jobs}", jobs, options.suite)
                times[jobs].append(seconds)
                print(f"round {round_ + 1}: --jobs {jobs}: {seconds:.2f} s")
        one, two = statistics.median(times[1]), statistics.median(times[2])
        print(f"median --jobs 1: {one:.2f} s   --jobs 2: {two:.2f} s")
        print(f"speed-up (jobs 2 vs jobs 1): {one / two:.2f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
