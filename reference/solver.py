"""Exact solver: the upper-left-first placement at the minimal side (SPEC.md).

The answer is, by definition, the first solution of the plain seed backtracking
(`reference.plain.solve_plain`).  `solve` finds that same solution with sound pruning only:
the compiled core `reference._fastsolve` when it is built, else the pure-Python
`reference.search` (same algorithm).

Sides are tried from ceil(sqrt(4n)) up.  At each, the C core runs alone on a small node
budget, which settles nearly every file.  When it does not, the side's order-free question
("does any packing exist?") gets help, cheapest first (`_SIDE_STAGES`): the packing LP's
dual certificate (`reference.lp_bound`, also handed to the C core as a bound at every
node), CP-SAT (`reference.oracle`), the C core again with a larger budget, and so on up to
an unbounded C search.  Each helper answers only yes/no for the whole side; the ordered
search still runs at the side that holds a packing, after every smaller side was proved
empty, so the answer is unchanged.
"""
from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from reference import search
from reference.lp_bound import Certificate, lp_certificate
from reference.oracle import packable
from reference.parser import parse
from reference.plain import min_side, solve_plain
from reference.shapes import Shape

try:
    from reference import _fastsolve
except ImportError:  # no C compiler at install time: the Python search is the engine
    _fastsolve = None

Engine = Literal["auto", "c", "python", "plain"]

# The C board is one 32-bit word per row; 26 pieces never need more than that.
_C_MAX_SIDE = 32
_C_MAX_PIECES = 64

# What settles a side, in turn, until one answers: ("c", order-free node budget, 0 = none)
# or ("cp-sat", seconds).  The C core does about 1.5e6 nodes per second here.  The first
# stage alone decides every side of the 430 files of hard_corpus seeds 0-9.
_SIDE_STAGES: tuple[tuple[str, float], ...] = (
    ("c", 150_000), ("cp-sat", 1.0), ("c", 2_000_000), ("cp-sat", 8.0), ("c", 0),
)


@dataclass(frozen=True)
class Solution:
    side: int
    positions: tuple[tuple[int, int], ...]  # top-left of each piece's bounding box, file order


def available_engines() -> tuple[str, ...]:
    """The engines `solve` can run here ("c" only when the extension is built)."""
    return ("c", "python", "plain") if _fastsolve else ("python", "plain")


def _solve_c(pieces: Sequence[Shape]) -> Solution | None:
    """The C core, or None when the input is beyond its board (then Python takes over)."""
    types = list(dict.fromkeys(pieces))
    type_index = {shape: i for i, shape in enumerate(types)}
    piece_types = [type_index[p] for p in pieces]
    if len(pieces) > _C_MAX_PIECES or max(piece_types.count(t) for t in range(len(types))) > 31:
        return None
    side = min_side(len(pieces))
    while side <= _C_MAX_SIDE:
        positions = _solve_c_side(types, piece_types, side)
        if positions is not None:
            return Solution(side, positions)
        side += 1
    return None


def _solve_c_side(types: list[Shape], piece_types: list[int], side: int) -> tuple[tuple[int, int], ...] | None:
    """The upper-left-first placement at one side, or None: `_SIDE_STAGES` in turn.

    Once CP-SAT has found a packing, only the ordered search is left to do, and the C core
    does it without budget (helpers answer yes/no only)."""
    shapes = [t.cells for t in types]
    counts = [piece_types.count(t) for t in range(len(types))]
    certificate: Certificate | None = None
    for stage, (helper, amount) in enumerate(_SIDE_STAGES):
        if helper == "c":
            weights = certificate.as_c_weights() if certificate is not None else None
            positions = _fastsolve.solve_at_side(shapes, piece_types, side, int(amount), weights)
            if positions is not False:
                return positions
            if stage == 0:
                certificate = lp_certificate(types, counts, side)
                if certificate is not None and certificate.excludes(counts):
                    return None
        else:
            feasible = packable(types, counts, side, amount)
            if feasible is False:
                return None
            if feasible:
                weights = certificate.as_c_weights() if certificate is not None else None
                return _fastsolve.solve_at_side(shapes, piece_types, side, 0, weights)
    raise AssertionError("_SIDE_STAGES must end with an unbounded C search")


def _solve_python(pieces: Sequence[Shape]) -> Solution:
    # The order-free search recurses about once per cell of the square: allow big squares.
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 10_000))
    try:
        side, positions = search.solve_fast(pieces)
    finally:
        sys.setrecursionlimit(limit)
    return Solution(side, positions)


def solve(pieces: Sequence[Shape], engine: Engine = "auto") -> Solution:
    """The upper-left-first placement at the minimal side.

    engine: "auto" (C when built, else Python), "c" (raises when not built), "python"
    (the pure-Python fast search), "plain" (the unpruned oracle: exponential on hard files).
    """
    if engine == "plain":
        return Solution(*solve_plain(pieces))
    if engine == "c" and _fastsolve is None:
        raise RuntimeError("reference._fastsolve is not built (pip install -e . needs a C compiler)")
    if engine in ("auto", "c") and _fastsolve is not None and pieces:
        solution = _solve_c(pieces)
        if solution is not None:
            return solution
    if engine not in ("auto", "c", "python"):
        raise ValueError(f"unknown engine {engine!r}")
    return _solve_python(pieces)


def render(pieces: Sequence[Shape], solution: Solution) -> str:
    """The square as fillit prints it: `side` lines, letters A.. in file order, '.' empty."""
    grid = [["."] * solution.side for _ in range(solution.side)]
    for letter_index, (piece, (row, col)) in enumerate(zip(pieces, solution.positions)):
        for r, c in piece.cells:
            grid[row + r][col + c] = chr(ord("A") + letter_index)
    return "".join("".join(line) + "\n" for line in grid)


def solve_text(data: bytes, accept_disputed: bool = False) -> str:
    """What a correct fillit prints for this file content: the square or "error\\n"."""
    parsed = parse(data)
    if not parsed.valid_under(accept_disputed):
        return "error\n"
    return render(parsed.pieces, solve(parsed.pieces))
