"""How a solution is drawn with letters, and how a drawing is read back into regions.

The seed and CodinGame draw a tiling the same way: rectangles get the letters A-Z then
a-z in the order their top-left cells come when the grid is read left to right, top to
bottom (the seed's `solve` labels them in that order, since the first cell without a
letter is always the top-left of the next rectangle it places).
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from exercises.shikaku.geometry import Rect, Tiling
from exercises.shikaku.puzzle import LETTERS, Clue


def draw(tiling: Tiling, width: int, height: int) -> list[str]:
    """H lines of W letters; `tiling` (sorted, at most 52 rectangles) must cover the grid exactly."""
    grid = [[""] * width for _ in range(height)]
    for letter, rect in zip(LETTERS, tiling):
        for row, col in rect.cells():
            grid[row][col] = letter
    return ["".join(line) for line in grid]


def drawing_text(count: int, tiling: Tiling | None, width: int, height: int) -> str:
    """The whole expected output: the count, then the drawing of the first solution."""
    lines = [str(count)] + (draw(tiling, width, height) if tiling is not None else [])
    return "".join(line + "\n" for line in lines)


def clues_inside(rect: Rect, clues: Sequence[Clue]) -> list[Clue]:
    return [clue for clue in clues if rect.contains(clue.row, clue.col)]


@dataclass(frozen=True)
class Region:
    """The cells of one symbol of a drawing: a rectangle when `rect.area == size`."""

    symbol: str
    rect: Rect  # bounding box
    size: int  # cells that hold the symbol

    @property
    def is_rectangle(self) -> bool:
        return self.rect.area == self.size


def regions(rows: Sequence[str]) -> list[Region]:
    """One region per distinct symbol of a drawing, in the order the symbols first come
    (left to right, top to bottom)."""
    cells: dict[str, list[tuple[int, int]]] = {}
    for r, line in enumerate(rows):
        for c, symbol in enumerate(line):
            cells.setdefault(symbol, []).append((r, c))
    found = []
    for symbol, where in cells.items():
        top, bottom = min(r for r, _ in where), max(r for r, _ in where)
        left, right = min(c for _, c in where), max(c for _, c in where)
        found.append(Region(symbol, Rect(top, left, bottom - top + 1, right - left + 1), len(where)))
    return found
