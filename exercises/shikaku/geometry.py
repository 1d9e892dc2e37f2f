"""Rectangles of cells, and tilings: the rectangles of a solution, sorted by top-left.

A solution is drawn with LETTERS in the order of its rectangles' top-left cells, read left
to right, top to bottom (exercises.shikaku.drawing); sorting a tiling gives that order.
"""
from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass


@dataclass(frozen=True, order=True)
class Rect:
    """A rectangle of cells (0-based); ordered by top-left, row first."""

    top: int
    left: int
    height: int
    width: int

    @property
    def area(self) -> int:
        return self.height * self.width

    def cells(self) -> Iterator[tuple[int, int]]:
        for row in range(self.top, self.top + self.height):
            for col in range(self.left, self.left + self.width):
                yield row, col

    def contains(self, row: int, col: int) -> bool:
        return self.top <= row < self.top + self.height and self.left <= col < self.left + self.width

    def mask(self, grid_width: int) -> int:
        """The rectangle's cells as bits of row * grid_width + col."""
        line = ((1 << self.width) - 1) << self.left
        every_row = ((1 << (grid_width * self.height)) - 1) // ((1 << grid_width) - 1)  # bit 0 of each row
        return line * every_row << (self.top * grid_width)

    def describe(self) -> str:
        """'rows 2-4, columns 1-3 (3x3)': 1-based, as every message of the project."""
        rows = _span(self.top, self.height)
        cols = _span(self.left, self.width)
        return f"row{'s' if self.height > 1 else ''} {rows}, column{'s' if self.width > 1 else ''} {cols} " \
               f"({self.height}x{self.width})"


def _span(start: int, length: int) -> str:
    return f"{start + 1}" if length == 1 else f"{start + 1}-{start + length}"


Tiling = tuple[Rect, ...]  # sorted: rectangle i is drawn with LETTERS[i]


def tiling_of(rects: Iterable[Rect]) -> Tiling:
    return tuple(sorted(rects))
