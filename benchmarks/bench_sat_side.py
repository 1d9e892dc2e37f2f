"""The SAT solver's questions (`reference.sat_side`) on the files that ask it most.

    python benchmarks/bench_sat_side.py [--solvers cadical153,cadical195] [--reps 2] [--full]

For each file of `generators.hard.RESTRICTED_SLOWEST` plus the J/L/Z file
eighiigiiighmeiieiieegieig, at the side `reference.solver.solve` answers: a fresh `SatSide`
with each python-sat solver in turn (`sat_side.SOLVER_NAME`), CPU seconds of (a) the side
question `packable(0)` and (b) then, on the same instance, the greedy of
`staged._first_solution` asked of the SAT solver alone (`packable_at` for every corner in
order, the first "yes" fixed); its corners must equal `solve`'s.  Solvers alternate within
each file and repetition (the machine is noisy: compare side by side).  --full also times
`reference.solver.solve` itself with each solver.
"""
from __future__ import annotations

import argparse
import time

from generators.hard import RESTRICTED_SLOWEST, decode
from reference import sat_side, solver
from reference.shapes import Shape

FILES = {**RESTRICTED_SLOWEST, "restricted_jlz_eighiig_26": "eighiigiiighmeiieiieegieig"}


def sat_only(pieces: list[Shape], side: int) -> tuple[float, float, list[tuple[int, int]]]:
    """CPU of the side question, CPU of the SAT-only greedy, and the greedy's corners."""
    types = list(dict.fromkeys(pieces))
    piece_types = [types.index(p) for p in pieces]
    counts = [piece_types.count(t) for t in range(len(types))]
    start = time.process_time()
    sat = sat_side.SatSide(types, counts, side)
    assert sat.packable(0), "solve answered this side"
    asked = time.process_time()
    occupied: set[int] = set()
    last: dict[int, int] = {}
    corners = []
    for t in piece_types:
        shape = types[t]
        for corner in range(last.get(t, -1) + 1, side * side):
            row, col = divmod(corner, side)
            if row + shape.height > side or col + shape.width > side:
                continue
            cells = {(row + r) * side + col + c for r, c in shape.cells}
            if occupied & cells:
                continue
            if sat.packable_at(t, corner, 0):
                sat.fix(t, corner)
                occupied |= cells
                last[t] = corner
                corners.append((row, col))
                break
        else:
            raise AssertionError("some corner has a completion")
    return asked - start, time.process_time() - asked, corners


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--solvers", default="cadical153,cadical195")
    parser.add_argument("--reps", type=int, default=2)
    parser.add_argument("--full", action="store_true", help="also time reference.solver.solve")
    args = parser.parse_args()
    names = args.solvers.split(",")
    default = sat_side.SOLVER_NAME
    for name, code in FILES.items():
        pieces = decode(code)
        answer = solver.solve(pieces)
        for rep in range(args.reps):
            for solver_name in names:
                sat_side.SOLVER_NAME = solver_name
                side_cpu, greedy_cpu, corners = sat_only(pieces, answer.side)
                line = f"{name:40s} {solver_name:11s} rep {rep}  side {side_cpu:6.2f}  greedy {greedy_cpu:6.2f}"
                if args.full:
                    start = time.process_time()
                    assert solver.solve(pieces) == answer
                    line += f"  solve {time.process_time() - start:6.2f}"
                print(line + ("" if tuple(corners) == answer.positions else "  WRONG CORNERS"), flush=True)
        sat_side.SOLVER_NAME = default


if __name__ == "__main__":
    main()
