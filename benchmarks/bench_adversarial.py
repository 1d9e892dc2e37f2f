"""Adversarial benchmark: keep looking for the file that takes the reference longest.

    python benchmarks/bench_adversarial.py [--budget 300] [--seed 0] [--cap 20] [--c-cap 3]

For `--budget` seconds (wall), draw a file: a subset of 1-4 of the 19 shapes (skew S/Z,
L/J, T, mixes with O and I, or any), 20-26 pieces drawn from it; time `fillit-ref`'s path
(`reference.solve_text` on the file's bytes) in a forked child, as the child's CPU time,
stopped at `--cap` seconds.  The second half of the budget hill-climbs from the slowest
file found so far: change one piece (to another shape of its subset, now and then to any
shape) and keep the change when the file got slower.  Then print the 10 slowest files
with their reference CPU times side by side with the plain seed backtracking in C
(`reference/plain_fillit.c`, built here with gcc -O2), stopped at `--c-cap` seconds; a
plain answer that finished must equal the reference's.

Files are printed as strings of shape codes (`CODES`: one letter per piece, file order),
the form `generators.hard` stores them in.
"""
from __future__ import annotations

from reference.plain import PLAIN_C_SOURCE

import argparse
import multiprocessing
import random
import resource
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from multiprocessing.connection import Connection
from pathlib import Path

from generators.hard import CODES, decode, encode
from generators.text import to_file
from reference.shapes import SHAPE_BY_NAME, SHAPES, Shape
from reference.solver import solve_text

PLAIN_C = PLAIN_C_SOURCE


def _names(*names: str) -> list[Shape]:
    return [SHAPE_BY_NAME[name] for name in names]


SKEW = _names("S_horizontal", "S_vertical", "Z_horizontal", "Z_vertical")
L_AND_J = [s for s in SHAPES if s.name[0] in "LJ"]
TEES = [s for s in SHAPES if s.name[0] == "T"]
O_AND_I = _names("O", "I_vertical", "I_horizontal")
THEMES = ("skew", "l_and_j", "tees", "with_o_or_i", "any")


def draw_subset(rng: random.Random) -> list[Shape]:
    """1-4 distinct shapes, from one theme (a family of similar shapes, a mix, or any)."""
    theme = rng.choice(THEMES)
    size = rng.randint(1, 4)
    if theme == "with_o_or_i":
        pool = rng.choice((SKEW, L_AND_J, TEES))
        return rng.sample(pool, max(1, size - 1)) + [rng.choice(O_AND_I)]
    pool = {"skew": SKEW, "l_and_j": L_AND_J, "tees": TEES, "any": list(SHAPES)}[theme]
    return rng.sample(pool, min(size, len(pool)))


@dataclass
class Timed:
    code: str  # the file's pieces as shape codes
    cpu: float | None  # reference CPU seconds, None when stopped at the cap
    output: str | None


def _child(data: bytes, sender: Connection) -> None:
    start = time.process_time()
    output = solve_text(data)
    sender.send((time.process_time() - start, output))


def time_reference(code: str, cap: float) -> Timed:
    """The reference's CPU time on this file, in a forked child stopped after `cap` s (wall)."""
    receiver, sender = multiprocessing.Pipe(duplex=False)
    child = multiprocessing.get_context("fork").Process(target=_child, args=(to_file(decode(code)), sender))
    child.start()
    sender.close()
    if receiver.poll(cap):
        cpu, output = receiver.recv()
        child.join()
        return Timed(code, cpu, output)
    child.kill()
    child.join()
    return Timed(code, None, None)


def slowness(timed: Timed, cap: float) -> float:
    return cap * 2 if timed.cpu is None else timed.cpu


def mutate(code: str, rng: random.Random) -> str:
    """One piece changed: to another shape of the file, or (1 time in 5) to any shape."""
    pieces = list(code)
    pool = sorted(set(pieces)) if rng.random() < 0.8 and len(set(pieces)) > 1 else list(CODES)
    index = rng.randrange(len(pieces))
    pieces[index] = rng.choice([c for c in pool if c != pieces[index]] or pool)
    return "".join(pieces)


def search(budget: float, cap: float, rng: random.Random, log: bool) -> list[Timed]:
    """Random files for half the budget, then hill-climbing from the slowest."""
    seen: dict[str, Timed] = {}
    end = time.monotonic() + budget
    climb_from = time.monotonic() + budget / 2
    best: Timed | None = None

    def measure(code: str) -> Timed:
        if code not in seen:
            seen[code] = time_reference(code, cap)
            if log:
                print(f"  {shown(seen[code].cpu, cap):>7}  {code}", flush=True)
        return seen[code]

    while time.monotonic() < end:
        if time.monotonic() < climb_from or best is None:
            subset = draw_subset(rng)
            code = encode([rng.choice(subset) for _ in range(rng.randint(20, 26))])
        else:
            code = mutate(best.code, rng)
        timed = measure(code)
        if best is None or slowness(timed, cap) > slowness(best, cap):
            best = timed
    return sorted(seen.values(), key=lambda t: -slowness(t, cap))


def build_plain_c(folder: Path) -> Path:
    exe = folder / "plain_fillit"
    subprocess.run(["gcc", "-O2", "-o", str(exe), str(PLAIN_C)], check=True)
    return exe


def time_plain_c(exe: Path, input_path: Path, cap: float) -> tuple[float | None, str | None]:
    """(CPU seconds, stdout) of the plain C solver, or (None, None) when stopped at `cap`."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    try:
        run = subprocess.run([str(exe), str(input_path)], capture_output=True, text=True, timeout=cap)
    except subprocess.TimeoutExpired:
        return None, None
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime), run.stdout


def shown(seconds: float | None, cap: float) -> str:
    return f"{seconds:.3f}" if seconds is not None else f">{cap:g}"


def summary(code: str) -> str:
    """Shape counts of a file, e.g. "7 S_horizontal, 6 Z_vertical"."""
    names = [s.name for s in decode(code)]
    return ", ".join(f"{names.count(n)} {n}" for n in dict.fromkeys(sorted(names)))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--budget", type=float, default=300.0, help="seconds of search (wall)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--cap", type=float, default=20.0, help="seconds per reference run")
    parser.add_argument("--c-cap", type=float, default=3.0, help="seconds per plain-C run")
    parser.add_argument("--top", type=int, default=10)
    parser.add_argument("--log", action="store_true", help="print every file timed")
    args = parser.parse_args(argv)

    ranked = search(args.budget, args.cap, random.Random(args.seed), args.log)
    print(f"{len(ranked)} files timed in {args.budget:g} s; reference cap {args.cap:g} s, "
          f"plain C cap {args.c_cap:g} s (CPU seconds)")
    header = f"{'rank':>4} {'n':>3} {'side':>4} {'ref s':>7} {'plain C':>8}  file (shape codes) / shapes"
    print(header)
    print("-" * len(header))
    mismatches = 0
    with tempfile.TemporaryDirectory() as folder:
        exe = build_plain_c(Path(folder))
        for rank, timed in enumerate(ranked[: args.top], 1):
            input_path = Path(folder) / "input.fillit"
            input_path.write_bytes(to_file(decode(timed.code)))
            c_cpu, c_output = time_plain_c(exe, input_path, args.c_cap)
            if c_output is not None and timed.output is not None and c_output != timed.output:
                mismatches += 1
                print("MISMATCH with plain C on the next file")
            side = timed.output.count("\n") if timed.output is not None else "?"
            print(f"{rank:>4} {len(timed.code):>3} {side:>4} {shown(timed.cpu, args.cap):>7} "
                  f"{shown(c_cpu, args.c_cap):>8}  {timed.code}\n{'':>30}{summary(timed.code)}", flush=True)
    slowest = ranked[0]
    over = {limit: sum(slowness(t, args.cap) > limit for t in ranked) for limit in (0.1, 1.0, 5.0)}
    print("files over " + ", ".join(f"{limit:g} s: {count}" for limit, count in over.items()) + f" (of {len(ranked)})")
    print(f"slowest reference file: {shown(slowest.cpu, args.cap)} s CPU; answer mismatches: {mismatches}")
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
