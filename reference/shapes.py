"""The 19 fixed tetrimino shapes (no rotation is ever applied).

A shape is the set of its `#` cells shifted so that its bounding box starts at
(0, 0).  Every block of a valid file maps to exactly one of these.
"""
from __future__ import annotations

from dataclasses import dataclass

Cell = tuple[int, int]


@dataclass(frozen=True)
class Shape:
    name: str
    cells: tuple[Cell, ...]  # sorted (row, col), bounding box at (0, 0)

    @property
    def height(self) -> int:
        return max(r for r, _ in self.cells) + 1

    @property
    def width(self) -> int:
        return max(c for _, c in self.cells) + 1

    def picture(self) -> str:
        """The shape drawn with `#` and `.` in its bounding box, one line per row."""
        rows = [["."] * self.width for _ in range(self.height)]
        for r, c in self.cells:
            rows[r][c] = "#"
        return "\n".join("".join(row) for row in rows)


def _shape(name: str, picture: str) -> Shape:
    cells = tuple(
        (r, c)
        for r, line in enumerate(picture.split())
        for c, ch in enumerate(line)
        if ch == "#"
    )
    return Shape(name, cells)


# Named by letter and by the direction the "foot" or "nose" points.
SHAPES: tuple[Shape, ...] = (
    _shape("I_vertical", "# # # #"),
    _shape("I_horizontal", "####"),
    _shape("O", "## ##"),
    _shape("T_up", ".#. ###"),
    _shape("T_down", "### .#."),
    _shape("T_left", ".# ## .#"),
    _shape("T_right", "#. ## #."),
    _shape("L_0", "#. #. ##"),
    _shape("L_90", "### #.."),
    _shape("L_180", "## .# .#"),
    _shape("L_270", "..# ###"),
    _shape("J_0", ".# .# ##"),
    _shape("J_90", "#.. ###"),
    _shape("J_180", "## #. #."),
    _shape("J_270", "### ..#"),
    _shape("S_horizontal", ".## ##."),
    _shape("S_vertical", "#. ## .#"),
    _shape("Z_horizontal", "##. .##"),
    _shape("Z_vertical", ".# ## #."),
)

SHAPE_BY_NAME: dict[str, Shape] = {s.name: s for s in SHAPES}
_SHAPE_BY_CELLS: dict[tuple[Cell, ...], Shape] = {s.cells: s for s in SHAPES}


def normalize(cells: list[Cell] | tuple[Cell, ...]) -> tuple[Cell, ...]:
    """Shift cells so their bounding box starts at (0, 0); sorted."""
    top = min(r for r, _ in cells)
    left = min(c for _, c in cells)
    return tuple(sorted((r - top, c - left) for r, c in cells))


def shape_of(cells: list[Cell] | tuple[Cell, ...]) -> Shape | None:
    """The fixed shape these four cells form, or None if they form none."""
    return _SHAPE_BY_CELLS.get(normalize(cells))
