"""Grading speed: the standard suite against a fast correct solver.

Builds examples/fillit with make, then, side by side in one run:
  bare     every case's invocation run directly with subprocess.run, one at a time
  grade    harness.grading.grade.grade_binary on the same cases (the jail, checker), --jobs 1 and 2
and prints wall time, time per case, harness overhead per case and the ratios.

    python benchmarks/bench_grade.py [--suite standard] [--rounds 3]
"""
from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

from harness.grading.grade import grade_binary, invocation
from harness.jail import detect_jail
from harness.grading.suites import load_suite

ROOT = Path(__file__).resolve().parent.parent


def build_example(scratch: Path) -> Path:
    repo = scratch / "fillit"
    shutil.copytree(ROOT / "examples" / "fillit", repo)
    subprocess.run(["make", "-s", "-C", str(repo)], check=True, capture_output=True)
    scratch.chmod(0o755)
    repo.chmod(0o755)
    return repo / "fillit"


def bare(program: Path, cases, scratch: Path) -> float:
    """Each case run directly: no sandbox, no checker; the floor for any harness."""
    start = time.perf_counter()
    for case in cases:
        args, files = invocation(case)
        folder = Path(tempfile.mkdtemp(dir=scratch))
        for f in files:
            path = folder / f.name
            if f.content is None:
                path.mkdir()
            else:
                path.write_bytes(f.content)
        for _ in range(case.runs):
            subprocess.run([str(program), *args], cwd=folder, capture_output=True, timeout=60)
        shutil.rmtree(folder)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--suite", default="standard")
    parser.add_argument("--rounds", type=int, default=3)
    options = parser.parse_args()
    cases = load_suite(options.suite)
    runs = sum(case.runs for case in cases)
    with tempfile.TemporaryDirectory() as scratch_name:
        scratch = Path(scratch_name)
        program = build_example(scratch)
        print(f"suite {options.suite}: {len(cases)} cases ({runs} runs), {os.cpu_count()} CPUs, "
              f"isolation {detect_jail().describe()}, solver examples/fillit")
        timings: dict[str, list[float]] = {"bare": [], "grade --jobs 1": [], "grade --jobs 2": []}
        for round_number in range(1, options.rounds + 1):
            timings["bare"].append(bare(program, cases, scratch))
            for jobs in (1, 2):
                start = time.perf_counter()
                report = grade_binary(program, cases, jobs=jobs)
                timings[f"grade --jobs {jobs}"].append(time.perf_counter() - start)
                assert report.failed == 0, report.first_failure_line
            print(f"round {round_number}: " + "  ".join(f"{k} {v[-1]:.2f} s" for k, v in timings.items()))
    floor = statistics.median(timings["bare"])
    print(f"{'way':<16}{'median s':>10}{'ms/case':>10}{'overhead ms/case':>18}{'ratio to bare':>15}")
    for way, values in timings.items():
        median = statistics.median(values)
        print(f"{way:<16}{median:>10.2f}{1000 * median / len(cases):>10.2f}"
              f"{1000 * (median - floor) / len(cases):>18.2f}{median / floor:>15.2f}")


if __name__ == "__main__":
    main()
