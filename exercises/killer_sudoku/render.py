"""How reports draw a Killer Sudoku input and an answer, as fixed-width text lines.

    5 6 . | . 1 . | . 2 .    a a b | b c c | d d e
    . . 7 | 2 . . | 6 8 .    a f g | h h i | i d e
    ...
    sums: a=12 b=17 c=4 ...

The givens on the left, each cell's cage on the right, boxes apart; an answer is its
grid drawn the same way. Anything that is not a puzzle (an invalid input, a wrong
output) is shown line by line as it is, control characters and other bytes escaped.
"""
from __future__ import annotations

import textwrap

from exercises.killer_sudoku.parser import Rejection, parse
from exercises.killer_sudoku.puzzle import DIGITS, SIDE, grid_rows
from harness.grading.checker import decode

_RULE = "------+-------+------"
_SUMS_WIDTH = 50


def input_lines(data: bytes) -> list[str]:
    parsed = parse(data)
    if isinstance(parsed, Rejection):
        return [f"(not a puzzle: {parsed.message})", *_as_is(decode(data))]
    lines = []
    for number, (digits, letters) in enumerate(zip(grid_rows(parsed.givens), parsed.layout())):
        if number in (3, 6):
            lines.append(f"{_RULE}    {_RULE}")
        lines.append(f"{_boxed(digits)}    {_boxed(letters)}")
    sums = " ".join(f"{cage.letter}={cage.total}" for cage in parsed.cages)
    lines += textwrap.wrap(f"sums: {sums}", _SUMS_WIDTH, subsequent_indent="      ")
    return lines


def answer_lines(text: str) -> list[str]:
    rows = text.split("\n")
    if rows and rows[-1] == "":
        rows.pop()
    if len(rows) != SIDE or any(len(row) != SIDE or any(ch not in DIGITS for ch in row) for row in rows):
        return _as_is(text)
    lines = []
    for number, row in enumerate(rows):
        if number in (3, 6):
            lines.append(_RULE)
        lines.append(_boxed(row))
    return lines


def _boxed(row: str) -> str:
    return " | ".join(" ".join(row[start:start + 3]) for start in (0, 3, 6))


def _as_is(text: str) -> list[str]:
    """`text` line by line, what would not show escaped ('\\t', '\\r', '\\x00'...)."""
    if not text:
        return ["(empty)"]
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    else:
        lines[-1] += "  (no final newline)"
    return [line if line.isprintable() else repr(line)[1:-1] for line in lines]
