"""A Shikaku puzzle, and the parser that reads one from standard input's bytes.

`parse` either returns the puzzle or names the first rule of docs/exercises/shikaku.md the
input breaks, with the line (1-based) where it happens.  Rule ids are stable: generators,
the checker and reports use them.

The canonical input is CodinGame's: `W H`, then H lines of W numbers, single spaces
between numbers, each line ending in '\\n'.  Blank-space deviations that CodinGame-style
readers (`input().split()`, `scanf`) read as the same numbers are *disputed*: the puzzle
is read anyway, and the deviation is named in `Parsed.disputed` (docs/exercises/shikaku.md,
"Disputed inputs").
"""
from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

MAX_SIDE = 30  # CodinGame: W, H <= 30
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"  # the seed's LABELS
MAX_CLUES = len(LETTERS)  # one letter per rectangle, one rectangle per clue

RuleId = Literal["empty_input", "header_fields", "header_not_integer", "size_range", "missing_rows",
                 "row_length", "not_integer", "negative_area", "extra_rows", "area_sum", "too_many_clues"]
# Rule id -> the sentence a student reads.
RULES: dict[RuleId, str] = {
    "empty_input": "the input must start with the line 'W H'",
    "header_fields": "the first line holds exactly two numbers, W and H",
    "header_not_integer": "W and H are written with the digits 0-9 only",
    "size_range": f"W and H are between 1 and {MAX_SIDE}",
    "missing_rows": "the grid has exactly H lines after the first one",
    "row_length": "each line of the grid holds exactly W numbers",
    "not_integer": "each cell is a number written with the digits 0-9 only",
    "negative_area": "areas are never negative",
    "extra_rows": "nothing but empty lines may follow the H lines of the grid",
    "area_sum": "the areas add up to W x H",
    "too_many_clues": f"a puzzle has at most {MAX_CLUES} numbered cells (one letter A-Z, a-z each)",
}
# Blank-space deviations read as the numbers they spell (disputed, not rejected): several
# spaces or a tab between two numbers; blanks at the start or end of a line; '\r\n' line
# ends; no '\n' after the last line; empty lines after the grid.
DisputedId = Literal["spacing", "line_edges", "crlf", "final_newline", "trailing_empty_lines"]

_DIGITS = re.compile(rb"[0-9]+")
_NEGATIVE = re.compile(rb"-[0-9]+")
_BLANKS = re.compile(rb"[ \t]+")


@dataclass(frozen=True)
class Clue:
    row: int  # 0-based inside the code; every message says 1-based
    col: int
    area: int


@dataclass(frozen=True)
class Puzzle:
    width: int
    height: int
    clues: tuple[Clue, ...]  # in row-major order

    @property
    def cells(self) -> int:
        return self.width * self.height

    def grid(self) -> list[list[int]]:
        """H rows of W numbers: 0, or the area of a clue."""
        rows = [[0] * self.width for _ in range(self.height)]
        for clue in self.clues:
            rows[clue.row][clue.col] = clue.area
        return rows

    def text(self) -> bytes:
        """The canonical input file of this puzzle."""
        lines = [f"{self.width} {self.height}", *(" ".join(map(str, row)) for row in self.grid())]
        return "".join(line + "\n" for line in lines).encode()


def puzzle_from_grid(grid: Sequence[Sequence[int]]) -> Puzzle:
    clues = tuple(Clue(r, c, area) for r, row in enumerate(grid) for c, area in enumerate(row) if area)
    return Puzzle(len(grid[0]), len(grid), clues)


@dataclass(frozen=True)
class Rejection:
    rule: RuleId
    message: str  # where and what, then the rule
    line: int | None = None  # 1-based line of the input

    def __str__(self) -> str:
        return self.message


@dataclass(frozen=True)
class Parsed:
    """A puzzle, or the rule the input breaks; `disputed`: the blank-space deviations the
    input relies on (the puzzle is still read)."""

    puzzle: Puzzle | None = None
    rejection: Rejection | None = None
    disputed: tuple[DisputedId, ...] = field(default=())


def _reject(rule: RuleId, detail: str, line: int | None = None) -> Parsed:
    prefix = f"line {line}: " if line is not None else ""
    return Parsed(rejection=Rejection(rule, f"{prefix}{detail} ({RULES[rule]})", line))


def _split_lines(data: bytes) -> tuple[list[bytes], set[DisputedId]]:
    """The input's lines without their end, and the line-end deviations met."""
    deviations: set[DisputedId] = set()
    lines = data.split(b"\n")
    if lines[-1] == b"":
        lines.pop()
    elif data:
        deviations.add("final_newline")
    for index, line in enumerate(lines):
        if line.endswith(b"\r"):
            deviations.add("crlf")
            lines[index] = line[:-1]
    return lines, deviations


def _fields(line: bytes, deviations: set[DisputedId]) -> list[bytes]:
    if line != line.strip(b" \t"):
        deviations.add("line_edges")
    inner = line.strip(b" \t")
    if any(gap != b" " for gap in _BLANKS.findall(inner)):
        deviations.add("spacing")
    return _BLANKS.split(inner) if inner else []


def _cell(token: bytes, line: int, column: int) -> int | Parsed:
    """The area a token spells, or the rejection naming it (column: 1-based number position)."""
    if _DIGITS.fullmatch(token):
        return int(token)
    where = f"number {column}"
    if _NEGATIVE.fullmatch(token):
        return _reject("negative_area", f"{where} is {token.decode()}", line)
    return _reject("not_integer", f"{where} is {token.decode('latin-1')!r}", line)


def parse(data: bytes) -> Parsed:
    """Parse a whole input (bytes, exactly as fed on standard input); rules are checked in
    the order of RULES, the first one broken is named."""
    lines, deviations = _split_lines(data)
    if not lines or not lines[0].strip(b" \t"):
        return _reject("empty_input", "the input is empty" if not data else "the first line is empty", 1)
    header = _fields(lines[0], deviations)
    if len(header) != 2:
        return _reject("header_fields", f"{len(header)} fields", 1)
    if not all(_DIGITS.fullmatch(token) for token in header):
        return _reject("header_not_integer", f"{lines[0].decode('latin-1')!r}", 1)
    width, height = (int(token) for token in header)
    if not (1 <= width <= MAX_SIDE and 1 <= height <= MAX_SIDE):
        return _reject("size_range", f"W = {width}, H = {height}", 1)

    grid: list[list[int]] = []
    for number in range(2, height + 2):
        if number > len(lines) or (not lines[number - 1].strip(b" \t") and _all_blank(lines[number - 1:])):
            return _reject("missing_rows", f"{number - 2} grid line(s), H = {height}", number)
        tokens = _fields(lines[number - 1], deviations)
        row: list[int] = []
        for column, token in enumerate(tokens, start=1):
            cell = _cell(token, number, column)
            if isinstance(cell, Parsed):
                return cell
            row.append(cell)
        if len(row) != width:
            return _reject("row_length", f"{len(row)} numbers, W = {width}", number)
        grid.append(row)
    rest = lines[height + 1:]
    if not _all_blank(rest):
        first = next(i for i, line in enumerate(rest) if line.strip(b" \t"))
        return _reject("extra_rows", "text after the grid", height + 2 + first)
    if rest:
        deviations.add("trailing_empty_lines")

    puzzle = puzzle_from_grid(grid)
    total = sum(clue.area for clue in puzzle.clues)
    if total != puzzle.cells:
        return _reject("area_sum", f"the areas add up to {total}, W x H = {puzzle.cells}")
    if len(puzzle.clues) > MAX_CLUES:
        return _reject("too_many_clues", f"{len(puzzle.clues)} numbered cells")
    return Parsed(puzzle=puzzle, disputed=tuple(sorted(deviations)))


def _all_blank(lines: Sequence[bytes]) -> bool:
    return all(not line.strip(b" \t") for line in lines)
