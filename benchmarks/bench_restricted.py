"""The reference on the restricted-shape files, this checkout against another, side by side.

    python benchmarks/bench_restricted.py [--before PATH | --set MODULE.NAME=VALUE ...] [--files CODE ...]
                                          [--random N] [--seed 7]

Times `reference.solver.solve` (CPU seconds, in a fresh process per file) on every file of
`generators.hard.RESTRICTED_FILES` and `RESTRICTED_SLOWEST`, with this checkout's
reference and, with `--before`, with another checkout's: a worktree of an older commit
with its C extensions built in place, e.g.

    git worktree add --detach /tmp/before ead8a1f
    (cd /tmp/before && python setup.py build_ext --inplace)

With `--set`, this checkout with module constants set (e.g. `--set
reference.staged.PLAIN_MOVES=False`; Python literals) against itself as it is.
The two run alternately, file by file, so that the machine's load falls on both alike,
and their answers must agree.  With `--random N`, N more files drawn the way
`bench_adversarial.py` draws its first half (a subset of 1-4 shapes, 20-26 pieces) are
timed the same way and summarised: how many took over 0.1, 0.5 and 1 s, the slowest, the
sum.  `--files` times the given files (shape codes) instead, for a side-by-side look at a
few.  Prints a Markdown table and the sums (docs/BENCHMARKS.md records its output), then the
work the helpers report at the sides (`Side.work`, of `first_corner` and `packable_by`)
summed over the restricted files: DP states and room() values, beam states, C core nodes,
CaDiCaL's conflicts on the sides' own questions (not the first C search of a side, nor
CaDiCaL's corner questions).  Unlike the seconds,
the work does not move with the machine's load: two trees that differ by 1-2% in work are
told apart where their seconds are within the noise.
"""
from __future__ import annotations

import argparse
import ast
import importlib
import json
import random
import subprocess
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from bench_adversarial import draw_subset
from generators.hard import RESTRICTED_FILES, RESTRICTED_SLOWEST, encode

HERE = Path(__file__).resolve().parents[1]
CHILD = """
import importlib, json, sys, time
from generators.hard import decode
for name, value in json.loads(sys.argv[2]).items():
    module, constant = name.rsplit(".", 1)
    setattr(importlib.import_module(module), constant, value)
from reference import side_questions
from reference.solver import solve
work = {}

def counted(method, helper_of):
    def counting(self, *args, **kwargs):
        answer = method(self, *args, **kwargs)
        helper = helper_of(*args)
        if helper:
            work[helper] = work.get(helper, 0) + self.work
        return answer
    return counting

# (The helper "dp" asked through _packable_by is counted by first_corner.)
side_questions.Side._packable_by = counted(side_questions.Side._packable_by,
                                           lambda helper, *rest: helper if helper != "dp" else None)
side_questions.Side.first_corner = counted(side_questions.Side.first_corner, lambda *args: "dp")
start = time.process_time()
solution = solve(decode(sys.argv[1]))
print(json.dumps([time.process_time() - start, solution.side, solution.positions, work]))
"""


@dataclass(frozen=True)
class Tree:
    """A reference to time: a checkout, and module constants set in it (`--set`)."""
    label: str
    path: Path
    settings: dict[str, object] = field(default_factory=dict)


def setting(text: str) -> tuple[str, object]:
    """MODULE.NAME=VALUE, VALUE a Python literal."""
    name, sep, value = text.partition("=")
    if not sep or "." not in name:
        raise argparse.ArgumentTypeError(f"{text!r}: expected MODULE.NAME=VALUE")
    module, constant = name.rsplit(".", 1)
    try:
        defined = hasattr(importlib.import_module(module), constant)
    except ImportError:
        defined = False
    if not defined:  # set anyway, it would change nothing
        raise argparse.ArgumentTypeError(f"{name}: no such constant in this checkout")
    try:
        return name, ast.literal_eval(value)
    except (ValueError, SyntaxError):
        raise argparse.ArgumentTypeError(f"{value!r} is not a Python literal") from None


def timed(tree: Tree, code: str, cap: float) -> tuple[float, list, dict[str, int]] | None:
    """(CPU seconds, [side, positions], the helpers' work) of one solve with `tree`'s
    reference; None past the cap."""
    try:
        done = subprocess.run([sys.executable, "-c", CHILD, code, json.dumps(tree.settings)], cwd=tree.path,
                              env={"PYTHONPATH": str(tree.path)}, capture_output=True, text=True, timeout=cap,
                              check=True)
    except subprocess.TimeoutExpired:
        return None
    seconds, side, positions, work = json.loads(done.stdout)
    return seconds, [side, positions], work


Result = tuple[float, list, dict[str, int]]


def raced(trees: list[Tree], code: str, cap: float) -> tuple[dict[str, Result | None], bool]:
    """One file solved by each tree in turn (the last first): the results by label, and
    whether their answers disagree."""
    results = {tree.label: timed(tree, code, cap) for tree in trees[::-1]}
    answers = [result[1] for result in results.values() if result is not None]
    return results, any(answer != answers[0] for answer in answers)


def shown(result: Result | None, cap: float) -> str:
    return f">{cap:g}" if result is None else f"{result[0]:.2f}"


def summary(label: str, seconds: list[float]) -> str:
    return (f"{label}: n {len(seconds)}  >0.1 s: {sum(s > 0.1 for s in seconds)}  >0.5 s: "
            f"{sum(s > 0.5 for s in seconds)}  >1 s: {sum(s > 1 for s in seconds)}  max {max(seconds):.2f}  "
            f"sum {sum(seconds):.1f}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", type=Path, help="another checkout, its extensions built in place")
    parser.add_argument("--set", type=setting, action="append", default=[], metavar="MODULE.NAME=VALUE",
                        help="time this checkout with these constants set against itself as it is")
    parser.add_argument("--files", nargs="+", metavar="CODE", help="these files (shape codes) instead")
    parser.add_argument("--random", type=int, default=0, metavar="N", help="also N random few-shape files")
    parser.add_argument("--seed", type=int, default=7, help="seed of the random files (default 7)")
    parser.add_argument("--cap", type=float, default=60.0, help="seconds (wall) per solve (default 60)")
    args = parser.parse_args(argv)
    if args.before and args.set:
        parser.error("--before and --set: one comparison at a time")
    trees = [Tree("after", HERE, dict(args.set))]
    if args.before or args.set:
        trees.append(Tree("before", args.before.resolve() if args.before else HERE))
    mismatches = 0
    files = {code: code for code in args.files} if args.files else {**RESTRICTED_FILES, **RESTRICTED_SLOWEST}
    totals = dict.fromkeys((tree.label for tree in trees), 0.0)
    work: dict[str, Counter[str]] = {tree.label: Counter() for tree in trees}
    print("| file | pieces | side | " + " | ".join(tree.label for tree in trees[::-1]) + " |")
    print("|---|---|---|" + "---|" * len(trees))
    for name, code in files.items():
        results, mismatch = raced(trees, code, args.cap)
        mismatches += mismatch
        for label, result in results.items():
            totals[label] += args.cap if result is None else result[0]
            work[label].update({} if result is None else result[2])
        side = next((result[1][0] for result in results.values() if result is not None), "?")
        cells = " | ".join(shown(results[tree.label], args.cap) for tree in trees[::-1])
        print(f"| `{name}` | {len(code)} | {side} | {cells} |" + (" MISMATCH" if mismatch else ""), flush=True)
    sums = " | ".join(f"{totals[tree.label]:.2f}" for tree in trees[::-1])
    print(f"| sum of {len(files)} | | | {sums} |")
    print()
    for tree in trees[::-1]:
        print(f"work, {tree.label}: " + ", ".join(f"{helper} {amount:,}" for helper, amount in sorted(work[tree.label].items())))
    if args.random:
        rng = random.Random(args.seed)
        codes = list(dict.fromkeys(encode([rng.choice(subset) for _ in range(rng.randint(20, 26))])
                                   for subset in (draw_subset(rng) for _ in range(args.random))))
        seconds: dict[str, list[float]] = {tree.label: [] for tree in trees}
        for code in codes:
            results, mismatch = raced(trees, code, args.cap)
            mismatches += mismatch
            for label, result in results.items():
                seconds[label].append(args.cap if result is None else result[0])
        print()
        for tree in trees[::-1]:
            print(summary(tree.label, seconds[tree.label]))
    print(f"\nanswer mismatches: {mismatches}")
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
