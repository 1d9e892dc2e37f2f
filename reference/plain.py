"""The seed's backtracking, written plainly: the oracle the fast solver is checked against.

Pieces in file order; for each, rows top to bottom, columns left to right; the
first complete placement wins; if none, the square grows by one.  No pruning
at all, so its first solution is by definition the upper-left-first answer.
"""
from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from reference.shapes import Shape

# The same algorithm in C (a plain student fillit), compiled and timed by the harness
# (harness/grading/second_look.py) and raced by the benchmarks.
PLAIN_C_SOURCE = Path(__file__).with_name("plain_fillit.c")


def min_side(count: int) -> int:
    """ceil(sqrt(4 * count)), at least 2 (as the seed computes it)."""
    side = 2
    while side * side < 4 * count:
        side += 1
    return side


def solve_plain(pieces: Sequence[Shape]) -> tuple[int, tuple[tuple[int, int], ...]]:
    """(side, top-left position of each piece's bounding box)."""
    side = min_side(len(pieces))
    while True:
        grid = [[False] * side for _ in range(side)]
        positions: list[tuple[int, int]] = []
        if _place(pieces, 0, grid, side, positions):
            return side, tuple(positions)
        side += 1


def _place(pieces: Sequence[Shape], index: int, grid: list[list[bool]], side: int,
           positions: list[tuple[int, int]]) -> bool:
    if index == len(pieces):
        return True
    piece = pieces[index]
    for row in range(side - piece.height + 1):
        for col in range(side - piece.width + 1):
            if all(not grid[row + r][col + c] for r, c in piece.cells):
                for r, c in piece.cells:
                    grid[row + r][col + c] = True
                positions.append((row, col))
                if _place(pieces, index + 1, grid, side, positions):
                    return True
                positions.pop()
                for r, c in piece.cells:
                    grid[row + r][col + c] = False
    return False
