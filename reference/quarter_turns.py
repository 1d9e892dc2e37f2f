"""The square turned by quarter turns, for the questions whose answer does not depend on it.

"Can these pieces be packed in the free cells?" has the same answer on the square turned a
quarter (clockwise), its pieces and free cells turned with it: the 19 shapes are closed under
turns.  The beam (`reference._profile.beam`) is not: it keeps the least costly states of each
layer of a scan from the top-left corner, so what it finds depends on where it starts, and
a packing that no beam along the rows or columns of the square finds, one of the turned
square may find at a quarter of the width (hoaroamhamhhrbmhhmjmmaaa's side 10: beams of
64 000 states along both directions find nothing, while four of the six along the turned
squares' find one at 16 000; docs/BENCHMARKS.md, "Twenty-seventh pass").
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from reference.shapes import Cell, normalize

Cells = tuple[Cell, ...]
Weights = tuple[Sequence[int], Sequence[int], int]


@dataclass(frozen=True)
class QuarterTurn:
    """The square of `side` turned clockwise `quarters` times (0-3): (row, col) -> (col,
    side - 1 - row) per quarter.

    >>> QuarterTurn(3, 1).cell(0), QuarterTurn(3, 1).cell(2)  # the top corners go right
    (2, 8)
    >>> QuarterTurn(3, 1).shape(((0, 0), (0, 1), (0, 2), (1, 0)))  # L lying down, turned
    ((0, 0), (0, 1), (1, 1), (2, 1))
    """

    side: int
    quarters: int

    def point(self, row: int, col: int) -> tuple[int, int]:
        for _ in range(self.quarters):
            row, col = col, self.side - 1 - row
        return row, col

    def cell(self, index: int) -> int:
        """A cell (row-major index) of the square, on the turned square."""
        row, col = self.point(*divmod(index, self.side))
        return row * self.side + col

    def shape(self, cells: Cells) -> Cells:
        """A shape's cells (bounding box at (0, 0)), turned."""
        return normalize([self.point(row, col) for row, col in cells])

    def weights(self, weights: Weights | None) -> Weights | None:
        """A packing-LP certificate of the square (row-major cell weights), on the turned one."""
        if weights is None:
            return None
        cell_weights, type_weights, scale = weights
        turned = [0] * len(cell_weights)
        for index, weight in enumerate(cell_weights):
            turned[self.cell(index)] = weight
        return tuple(turned), type_weights, scale

    def corner_back(self, turned_cells: Cells, corner: int) -> int:
        """The corner on the square of a piece that lies at `corner` of the turned square
        (`turned_cells`: its shape turned): its bounding box's top-left, row-major."""
        row, col = divmod(corner, self.side)
        back = QuarterTurn(self.side, (4 - self.quarters) % 4)
        cells = [back.point(row + r, col + c) for r, c in turned_cells]
        return min(r for r, _ in cells) * self.side + min(c for _, c in cells)

    def packing_back(self, turned_cells: Sequence[Cells],
                     packing: Iterable[tuple[int, int]]) -> list[tuple[int, int]]:
        """A packing of the turned square ((type, corner) of each piece; `turned_cells`: the
        types' shapes turned), on the square."""
        return [(t, self.corner_back(turned_cells[t], corner)) for t, corner in packing]

    def cells(self, indices: Iterable[int]) -> list[int]:
        """Cells of the square (row-major indices) on the turned one, sorted."""
        return sorted(self.cell(index) for index in indices)
