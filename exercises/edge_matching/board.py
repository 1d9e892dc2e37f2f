"""Boards: an answer's text read into cells, and its edges counted (docs/exercises/edge-matching.md,
"Output").

    reading = read_answer(puzzle, "1/0 3/1\\n2/3 4/0\\n")
    reading.board                  # ((1, 0), (3, 1), (2, 3), (4, 0)): (piece, rotation) row by row
    score = count_edges(puzzle, reading.board)
    score.matched, score.total     # inner edges whose two sides match, inner edges

A board holds one (piece, rotation) per cell, row by row. An inner edge *matches* when
its two sides have the same colour and that colour is not the border colour 0. Rows and
columns in messages and `details` count from 1.
"""
from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from exercises.edge_matching.puzzle import BORDER, Puzzle

Cell = tuple[int, int]  # (piece number from 1, quarter turns clockwise 0-3)
Board = tuple[Cell, ...]
_ENTRY = re.compile(r"([0-9]+)/([0-9]+)")
MISMATCHES_LISTED = 50  # at most this many mismatched edges in `details`


def board_text(puzzle: Puzzle, board: Sequence[Cell]) -> str:
    """The answer's text: one line per row, `PIECE/ROTATION` per cell, single spaces."""
    rows = [board[r * puzzle.cols:(r + 1) * puzzle.cols] for r in range(puzzle.rows)]
    return "".join(" ".join(f"{piece}/{rotation}" for piece, rotation in row) + "\n" for row in rows)


def matches(a: int, b: int) -> bool:
    return a == b and a != BORDER


@dataclass(frozen=True)
class Edge:
    row: int  # 0-based: the cell left of or above the edge
    col: int
    side: str  # "right" (to the cell on its right) or "bottom" (to the cell below)
    colours: tuple[int, int]  # the two sides' colours: this cell's, the neighbour's

    def describe(self) -> str:
        other = (self.row, self.col + 1) if self.side == "right" else (self.row + 1, self.col)
        return (f"row {self.row + 1} column {self.col + 1} | row {other[0] + 1} column {other[1] + 1} "
                f"({self.colours[0]} against {self.colours[1]})")

    def to_dict(self) -> dict[str, Any]:
        return {"row": self.row + 1, "col": self.col + 1, "side": self.side, "colours": list(self.colours)}


@dataclass(frozen=True)
class EdgeScore:
    matched: int
    total: int
    mismatches: tuple[Edge, ...]

    @property
    def complete(self) -> bool:
        return self.matched == self.total


def count_edges(puzzle: Puzzle, board: Sequence[Cell]) -> EdgeScore:
    """Every inner edge of `board`, a legal board of `puzzle`, matched or not."""
    sides = [puzzle.oriented(piece, rotation) for piece, rotation in board]
    mismatches = []
    for r in range(puzzle.rows):
        for c in range(puzzle.cols):
            here = sides[r * puzzle.cols + c]
            if c + 1 < puzzle.cols:
                right = sides[r * puzzle.cols + c + 1]
                if not matches(here[1], right[3]):
                    mismatches.append(Edge(r, c, "right", (here[1], right[3])))
            if r + 1 < puzzle.rows:
                below = sides[(r + 1) * puzzle.cols + c]
                if not matches(here[2], below[0]):
                    mismatches.append(Edge(r, c, "bottom", (here[2], below[0])))
    return EdgeScore(puzzle.inner_edges - len(mismatches), puzzle.inner_edges, tuple(mismatches))


@dataclass(frozen=True)
class Problem:
    """Why an output is not a legal board: a diagnosis of checker.DIAGNOSES and a sentence."""

    diagnosis: str
    message: str
    details: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Reading:
    board: Board | None  # None when `problem` says why there is no legal board
    problem: Problem | None
    defects: tuple[str, ...]  # layout defects repaired before reading ("missing final newline"...)


def layout(text: str) -> tuple[list[list[str]], list[str]]:
    """The entries of each non-empty line of `text`, and one phrase per layout defect."""
    defects = []
    if "\r" in text:
        defects.append("carriage returns ('\\r')")
        text = text.replace("\r", "")
    lines = text.split("\n")
    if text and not text.endswith("\n"):
        defects.append("missing final newline")
    else:
        lines.pop()
    if any(line != line.rstrip(" \t") for line in lines):
        defects.append("trailing spaces at the end of lines")
    if any(line != line.lstrip(" \t") for line in lines):
        defects.append("leading spaces at the start of lines")
    if any("  " in line.strip() or "\t" in line for line in lines):
        defects.append("entries not separated by exactly one space")
    if any(not line.strip() for line in lines):
        defects.append("empty lines")
    return [line.split() for line in lines if line.strip()], defects


def _where(index: int, cols: int) -> str:
    return f"row {index // cols + 1}, column {index % cols + 1}"


def read_answer(puzzle: Puzzle, text: str) -> Reading:
    """The board `text` draws, or the first reason it is not a legal board of `puzzle`:
    its shape, then each entry, then pieces used twice, then piece 1's place."""
    rows, defects = layout(text)
    reading = _read_cells(puzzle, rows)
    if isinstance(reading, Problem):
        return Reading(None, reading, tuple(defects))
    return Reading(reading, None, tuple(defects))


def _read_cells(puzzle: Puzzle, rows: list[list[str]]) -> Board | Problem:
    if not rows:
        return Problem("format", "the program printed no board: print one line per row of the puzzle, "
                       "PIECE/ROTATION for each cell")
    widths = sorted({len(row) for row in rows})
    if len(rows) != puzzle.rows or widths != [puzzle.cols]:
        return Problem("wrong_count", f"the board must be {puzzle.rows} line(s) of {puzzle.cols} entries (one "
                       f"per piece, {puzzle.rows * puzzle.cols} in all); it is {len(rows)} line(s) of "
                       f"{', '.join(map(str, widths[:5]))} entries",
                       {"rows": len(rows), "widths": widths[:5], "expected": [puzzle.rows, puzzle.cols]})
    count = len(puzzle.pieces)
    cells: list[Cell] = []
    for index, entry in enumerate(token for row in rows for token in row):
        found = _ENTRY.fullmatch(entry)
        if found is None:
            return Problem("format", f"the entry at {_where(index, puzzle.cols)} is {entry[:20]!r}: each entry is "
                           "PIECE/ROTATION, two numbers and a slash, e.g. 7/3", {"entry": entry[:20]})
        piece, rotation = int(found.group(1)), int(found.group(2))
        if not 1 <= piece <= count:
            return Problem("unknown_piece", f"the entry at {_where(index, puzzle.cols)} names piece {piece}; the "
                           f"pieces are numbered 1 to {count}", {"piece": piece, "cell": index + 1})
        if not 0 <= rotation <= 3:
            return Problem("bad_rotation", f"the entry at {_where(index, puzzle.cols)} turns piece {piece} "
                           f"{rotation} times; a rotation is 0 to 3 quarter turns clockwise",
                           {"piece": piece, "rotation": rotation})
        cells.append((piece, rotation))
    first_seen: dict[int, int] = {}
    for index, (piece, _) in enumerate(cells):
        if piece in first_seen:
            missing = sorted(set(range(1, count + 1)) - {p for p, _ in cells})
            return Problem("reused_piece", f"piece {piece} is used twice, at {_where(first_seen[piece], puzzle.cols)} "
                           f"and at {_where(index, puzzle.cols)}; each piece goes on the board exactly once "
                           f"(missing: {', '.join(map(str, missing[:5]))}{'...' if len(missing) > 5 else ''})",
                           {"piece": piece, "missing": missing[:20]})
        first_seen[piece] = index
    if cells[0] != (1, 0):
        at = next(i for i, (p, _) in enumerate(cells) if p == 1)
        turned = f" turned {cells[at][1]} time(s)" if cells[at][1] else ""
        return Problem("first_piece", f"piece 1 must sit at the top left (row 1, column 1) unrotated; it is at "
                       f"{_where(at, puzzle.cols)}{turned}", {"cell": at + 1, "rotation": cells[at][1]})
    return tuple(cells)
