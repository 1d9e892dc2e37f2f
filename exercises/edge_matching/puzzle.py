"""An edge-matching puzzle file, read and validated (docs/exercises/edge-matching.md, "Input").

    parsed = parse(b"2 2\\n0 1 2 0\\n0 0 3 1\\n2 4 0 0\\n3 0 0 4\\n")
    parsed.puzzle.rows, parsed.puzzle.pieces[0]    # 2, (0, 1, 2, 0)
    parse(b"2 2\\n").rejection.rule                 # "piece_count"

Vocabulary: a *piece* is four colours in the fixed side order top, right, bottom, left
(clockwise, the seed's haut, droite, bas, gauche); pieces are numbered from 1 in file
order. Colour 0 is the *border* colour: it never matches on an inner edge. A puzzle is
*framed* when colour 0 appears (exactly on 2 x (rows + cols) sides: the frame), *free*
when it does not appear at all.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

BORDER = 0
MAX_SIDE = 16  # rows and columns: 1 to 16 (Eternity II's board is 16 x 16)
MAX_COLOUR = 99
ERROR = "error\n"
NONE = "none\n"

Sides = tuple[int, int, int, int]  # top, right, bottom, left
SIDE_NAMES = ("top", "right", "bottom", "left")

# Rule id -> what it says (every rejection names one; invalid.py builds a file per rule).
RULES: dict[str, str] = {
    "empty": "the file is empty",
    "layout": "every line is numbers separated by single spaces and ends with '\\n' (no '\\r', no "
              "leading, trailing or doubled space, no empty line)",
    "number": "every number is decimal digits without sign or leading zero",
    "header": "the first line is two numbers: rows and columns",
    "size": f"rows and columns are 1 to {MAX_SIDE}",
    "piece_count": "one line per piece, rows x columns lines after the first",
    "piece_sides": "a piece line holds exactly four colours",
    "colour": f"colours are 0 to {MAX_COLOUR}",
    "border_count": "the border colour 0 appears on no side, or on exactly 2 x (rows + columns) sides",
}
_NUMBER = re.compile(rb"0|[1-9][0-9]*")


def rotate(sides: Sides, rotation: int) -> Sides:
    """`sides` turned `rotation` quarter turns clockwise: after one turn the top colour
    faces right, so the new top is the old left."""
    k = rotation % 4
    return (sides[(0 - k) % 4], sides[(1 - k) % 4], sides[(2 - k) % 4], sides[(3 - k) % 4])


@dataclass(frozen=True)
class Puzzle:
    rows: int
    cols: int
    pieces: tuple[Sides, ...]  # piece k+1 is pieces[k]

    @property
    def framed(self) -> bool:
        return any(BORDER in sides for sides in self.pieces)

    @property
    def colours(self) -> list[int]:
        """The inner colours used, sorted."""
        return sorted({c for sides in self.pieces for c in sides} - {BORDER})

    @property
    def inner_edges(self) -> int:
        return self.rows * (self.cols - 1) + (self.rows - 1) * self.cols

    def text(self) -> bytes:
        lines = [f"{self.rows} {self.cols}"] + [" ".join(map(str, sides)) for sides in self.pieces]
        return ("\n".join(lines) + "\n").encode()

    def oriented(self, piece: int, rotation: int) -> Sides:
        """Piece number `piece` (from 1) turned `rotation` quarter turns."""
        return rotate(self.pieces[piece - 1], rotation)


@dataclass(frozen=True)
class Rejection:
    rule: str
    message: str  # what is wrong, where: "line 3: 5 colours, a piece has 4"

    def __str__(self) -> str:
        return self.message


@dataclass(frozen=True)
class Parsed:
    puzzle: Puzzle | None
    rejection: Rejection | None


def _reject(rule: str, message: str) -> Parsed:
    return Parsed(None, Rejection(rule, message))


def _numbers(line: bytes, where: str) -> list[int] | Rejection:
    tokens = line.split(b" ")
    for token in tokens:
        if token == b"" or any(ch in token for ch in b"\r\t\v\f"):
            return Rejection("layout", f"{where}: {RULES['layout']}")
        if not _NUMBER.fullmatch(token):
            shown = token.decode("utf-8", "backslashreplace")
            why = "has a leading zero" if token.isdigit() else "is not a number"
            return Rejection("number", f"{where}: {shown!r} {why} ({RULES['number']})")
    return [int(token) for token in tokens]


def parse(data: bytes) -> Parsed:
    """The puzzle of `data`, or the first rule it breaks (in reading order)."""
    if not data:
        return _reject("empty", RULES["empty"])
    if not data.endswith(b"\n"):
        return _reject("layout", "the last line does not end with '\\n'")
    lines = data[:-1].split(b"\n")
    header = _numbers(lines[0], "line 1")
    if isinstance(header, Rejection):
        return Parsed(None, header)
    if len(header) != 2:
        return _reject("header", f"line 1 holds {len(header)} number(s): {RULES['header']}")
    rows, cols = header
    if not (1 <= rows <= MAX_SIDE and 1 <= cols <= MAX_SIDE):
        return _reject("size", f"line 1: {rows} x {cols}: {RULES['size']}")
    pieces: list[Sides] = []
    for number, line in enumerate(lines[1:], start=2):
        sides = _numbers(line, f"line {number}")
        if isinstance(sides, Rejection):
            return Parsed(None, sides)
        if len(pieces) == rows * cols:
            return _reject("piece_count", f"{len(lines) - 1} piece lines after the header; a {rows} x {cols} "
                           f"puzzle has {rows * cols}")
        if len(sides) != 4:
            return _reject("piece_sides", f"line {number} (piece {number - 1}) holds {len(sides)} number(s): "
                           f"{RULES['piece_sides']}")
        high = max(sides)
        if high > MAX_COLOUR:
            return _reject("colour", f"line {number} (piece {number - 1}): colour {high}: {RULES['colour']}")
        pieces.append((sides[0], sides[1], sides[2], sides[3]))
    if len(pieces) != rows * cols:
        return _reject("piece_count", f"{len(pieces)} piece lines after the header; a {rows} x {cols} puzzle "
                       f"has {rows * cols}")
    zeros = sum(sides.count(BORDER) for sides in pieces)
    if zeros not in (0, 2 * (rows + cols)):
        return _reject("border_count", f"colour 0 is on {zeros} sides: {RULES['border_count']} "
                       f"(here 0 or {2 * (rows + cols)})")
    return Parsed(Puzzle(rows, cols, tuple(pieces)), None)
