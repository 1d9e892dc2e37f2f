"""Reference solver vs the plain seed backtracking (Python and C) on the hard corpus.

    python benchmarks/bench_reference.py [--seed 0] [--python-cap 3] [--c-cap 5] [--slowest]

Builds reference/plain_fillit.c with gcc in a temporary folder, generates
`generators.hard.hard_corpus(seed)` (with --slowest, also the restricted-shape files kept
out of the corpus, `generators.hard.RESTRICTED_SLOWEST`) and prints, per file: name,
pieces, side, the reference's CPU time, plain Python's and plain C's wall times (">cap"
when stopped at the cap) and their ratios to the reference.  When a plain run finishes,
its answer is checked against the reference's.
"""
from __future__ import annotations

from reference.plain import PLAIN_C_SOURCE

import argparse
import multiprocessing
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from generators.hard import RESTRICTED_SLOWEST, decode, hard_corpus
from generators.text import to_file
from reference.plain import solve_plain
from reference.shapes import Shape
from reference.solver import Engine, Solution, available_engines, render, solve

PLAIN_C = PLAIN_C_SOURCE


def build_plain_c(folder: Path) -> Path:
    exe = folder / "plain_fillit"
    subprocess.run(["gcc", "-O2", "-o", str(exe), str(PLAIN_C)], check=True)
    return exe


def _plain_python_child(pieces: list[Shape], results: multiprocessing.Queue) -> None:
    start = time.perf_counter()
    answer = solve_plain(pieces)
    results.put((time.perf_counter() - start, answer))


def time_plain_python(pieces: list[Shape], cap: float) -> tuple[float | None, Solution | None]:
    """(seconds, answer), or (None, None) when the cap stops it."""
    results: multiprocessing.Queue = multiprocessing.Queue()
    child = multiprocessing.Process(target=_plain_python_child, args=(pieces, results))
    child.start()
    child.join(cap)
    if child.is_alive():
        child.terminate()
        child.join()
        return None, None
    seconds, (side, positions) = results.get()
    return seconds, Solution(side, positions)


def time_plain_c(exe: Path, input_path: Path, cap: float) -> tuple[float | None, str | None]:
    start = time.perf_counter()
    try:
        run = subprocess.run([str(exe), str(input_path)], capture_output=True, text=True, timeout=cap)
    except subprocess.TimeoutExpired:
        return None, None
    return time.perf_counter() - start, run.stdout


def shown(seconds: float | None, cap: float) -> str:
    return f"{seconds:.3f}" if seconds is not None else f">{cap:g}"


def ratio(seconds: float | None, cap: float, reference: float) -> str:
    reference = max(reference, 1e-4)  # a timer tick: keeps the ratio finite
    return f"{seconds / reference:.0f}x" if seconds is not None else f">{cap / reference:.0f}x"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--python-cap", type=float, default=3.0, help="seconds per plain-Python run")
    parser.add_argument("--c-cap", type=float, default=5.0, help="seconds per plain-C run")
    parser.add_argument("--slowest", action="store_true", help="add generators.hard.RESTRICTED_SLOWEST")
    args = parser.parse_args(argv)

    engine: Engine = "c" if "c" in available_engines() else "python"
    print(f"reference engine: {engine}; caps: plain Python {args.python_cap:g} s, plain C {args.c_cap:g} s")
    header = f"{'file':34} {'n':>3} {'side':>4} {'ref s':>7} {'plain py':>9} {'plain C':>8} {'py/ref':>8} {'C/ref':>8}"
    print(header)
    print("-" * len(header))
    slowest = ("", 0.0)
    mismatches = 0
    with tempfile.TemporaryDirectory() as folder:
        exe = build_plain_c(Path(folder))
        files = hard_corpus(args.seed)
        if args.slowest:
            files += [(name, decode(code)) for name, code in RESTRICTED_SLOWEST.items()]
        for name, pieces in files:
            input_path = Path(folder) / f"{name}.fillit"
            input_path.write_bytes(to_file(pieces))
            start = time.process_time()
            answer = solve(pieces, engine=engine)
            reference = time.process_time() - start
            slowest = max(slowest, (name, reference), key=lambda item: item[1])
            py_seconds, py_answer = time_plain_python(pieces, args.python_cap)
            c_seconds, c_output = time_plain_c(exe, input_path, args.c_cap)
            if (py_answer is not None and py_answer != answer) or (
                c_output is not None and c_output != render(pieces, answer)
            ):
                mismatches += 1
                print(f"MISMATCH on {name}")
            print(
                f"{name:34} {len(pieces):>3} {answer.side:>4} {reference:>7.3f} "
                f"{shown(py_seconds, args.python_cap):>9} {shown(c_seconds, args.c_cap):>8} "
                f"{ratio(py_seconds, args.python_cap, reference):>8} {ratio(c_seconds, args.c_cap, reference):>8}",
                flush=True,
            )
    print(f"slowest reference file: {slowest[0]} {slowest[1]:.3f} s; answer mismatches: {mismatches}")
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
