"""The drawn parts of the HTML report: squares (with 1-based row and column numbers), input
pieces, and text panels shown as `cat -e` does."""
from __future__ import annotations

from dataclasses import dataclass

from reference.shapes import Shape
from reports.common import PALETTE, Grid, Line, cat_e

OUTPUT_LINES = 60


@dataclass(frozen=True)
class Cell:
    text: str  # what the cell shows ("" for an empty cell)
    css: str  # classes
    title: str = ""


@dataclass(frozen=True)
class GridView:
    side: int
    width: int
    rows: tuple[tuple[Cell, ...], ...]
    lenient: bool = False
    diffs: int = 0
    numbered: bool = False  # row numbers on the left, column numbers on top (1-based)


@dataclass(frozen=True)
class Panel:
    """One side of the comparison: a drawn grid, or text as `cat -e` shows it."""

    title: str
    grid: GridView | None = None
    lines: tuple[Line, ...] = ()
    cut: bool = False
    empty: bool = False
    note: str = ""


@dataclass(frozen=True)
class PieceView:
    letter: str
    grid: GridView


def _cell(ch: str, diff: bool = False, focus: bool = False, title: str = "") -> Cell:
    if ch == ".":
        css = "cell e"
        text = ""
    elif ch in PALETTE:
        css = f"cell L{ch}"
        text = ch
    else:
        css = "cell x"
        text = ch
    if diff:
        css += " diff"
    if focus:
        css += " focus"
    return Cell(text, css, title)


def grid_view(grid: Grid, other: Grid | None = None, focus: str | None = None, mine: str = "this square",
              theirs: str = "the other") -> GridView:
    """`grid` drawn with its row and column numbers; when `other` has the same side, cells
    that differ are marked."""
    compare = other is not None and other.side == grid.side
    rows = []
    diffs = 0
    for r, row in enumerate(grid.rows):
        cells = []
        for c, ch in enumerate(row):
            diff = other is not None and compare and other.at(r, c) != ch
            title = f"row {r + 1}, column {c + 1}"
            if diff:
                diffs += 1
                assert other is not None
                title += f": {mine} has {ch!r}, {theirs} has {other.at(r, c)!r}"
            cells.append(_cell(ch, diff, focus is not None and ch == focus, title))
        rows.append(tuple(cells))
    return GridView(grid.side, grid.side, tuple(rows), grid.lenient, diffs, numbered=True)


def piece_view(letter: str, shape: Shape) -> PieceView:
    rows = tuple(
        tuple(_cell(letter if (r, c) in shape.cells else ".") for c in range(shape.width))
        for r in range(shape.height)
    )
    return PieceView(letter, GridView(shape.height, shape.width, rows))


def text_panel(title: str, text: str, note: str = "") -> Panel:
    if text == "":
        return Panel(title, empty=True, note=note)
    lines, cut = cat_e(text, max_lines=OUTPUT_LINES)
    return Panel(title, lines=tuple(lines), cut=cut, note=note)
