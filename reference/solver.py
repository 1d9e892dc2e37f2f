"""Exact solver: the upper-left-first placement at the minimal side (SPEC.md).

The answer is, by definition, the first solution of the plain seed backtracking
(`reference.plain.solve_plain`).  `solve` finds that same solution with sound pruning only:
the compiled core `reference._fastsolve` when it is built, else the pure-Python
`reference.search` (same algorithm).

Sides are tried from ceil(sqrt(4n)) up.  At each, the C core runs alone on a small node
budget, which settles nearly every file; when it does not, `reference.staged` settles the
side with the packing LP's dual certificate and CP-SAT's yes/no answers as help.
"""
from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from reference import search
from reference.parser import parse
from reference.plain import min_side, solve_plain
from reference.shapes import Shape

try:
    from reference import _fastsolve, staged
except ImportError:  # no C compiler at install time: the Python search is the engine
    _fastsolve = None  # type: ignore[assignment]

Engine = Literal["auto", "c", "python", "plain"]

# The C board is one 32-bit word per row; 26 pieces never need more than that.
_C_MAX_SIDE = 32
_C_MAX_PIECES = 64


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
        positions = staged.solve_side(types, piece_types, side)
        if positions is not None:
            return Solution(side, positions)
        side += 1
    return None


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
