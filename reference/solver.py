"""Exact solver: the upper-left-first placement at the minimal side (SPEC.md).

(Interim: delegates to the plain search; the fast sound-pruning search replaces it.)
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from reference.parser import parse
from reference.plain import solve_plain
from reference.shapes import Shape


@dataclass(frozen=True)
class Solution:
    side: int
    positions: tuple[tuple[int, int], ...]  # top-left of each piece's bounding box, file order


def solve(pieces: Sequence[Shape]) -> Solution:
    side, positions = solve_plain(pieces)
    return Solution(side, positions)


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
