"""Read a Killer Sudoku input, or say which rule of docs/exercises/killer-sudoku.md it breaks.

    parsed = parse(data)
    if isinstance(parsed, Rejection): parsed.rule, parsed.message
    else: parsed.givens, parsed.cages

The rules are checked in the order of `RULES` and the first one broken is the answer: the
layout of the lines, then the sums line, then each cage on its own, then the givens. Only
`no_solution` is not the parser's: the puzzle passes every other rule and the reference's
search finds no grid (exercises.killer_sudoku.solver).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from exercises.killer_sudoku.puzzle import (BOXES, CAGE_LETTERS, CELL_COUNT, COLUMNS, DIGITS, GRID_TOTAL,
                                            MAX_CAGE_CELLS, ROWS, SIDE, Cage, Puzzle, cage_combinations,
                                            connected, sum_range, where)

Rule = Literal[
    "empty_input", "line_count", "row_separator", "row_length", "cage_row_length", "bad_digit",
    "bad_cage_letter", "sum_entry", "duplicate_sum", "unknown_cage", "missing_sum", "cage_disconnected",
    "cage_too_large", "cage_sum_impossible", "sums_total", "duplicate_given_row", "duplicate_given_column",
    "duplicate_given_box", "duplicate_given_cage", "cage_givens", "no_solution",
]
# rule -> what it forbids (docs/exercises/killer-sudoku.md lists the same, in this order)
RULES: dict[str, str] = {
    "empty_input": "the input is empty",
    "line_count": "not exactly 10 lines (9 grid lines, then the sums line)",
    "row_separator": "a grid line is not its digits, one space, its cage letters",
    "row_length": "a grid line's digits are not 9 characters",
    "cage_row_length": "a grid line's cage letters are not 9 characters",
    "bad_digit": "a grid character other than 1-9 and '.'",
    "bad_cage_letter": "a cage character other than a-z and A-Z",
    "sum_entry": "an entry of the sums line is not letter=number (entries separated by one space)",
    "duplicate_sum": "a letter has two entries in the sums line",
    "unknown_cage": "the sums line names a letter no cell carries",
    "missing_sum": "a cage letter has no entry in the sums line",
    "cage_disconnected": "the cells of a letter are not edge-connected",
    "cage_too_large": "a cage of more than 9 cells (its digits cannot be distinct)",
    "cage_sum_impossible": "a cage sum no set of distinct digits of the cage's size reaches",
    "sums_total": "the cage sums do not add up to 405 (9 rows of 1+...+9)",
    "duplicate_given_row": "a digit given twice in a row",
    "duplicate_given_column": "a digit given twice in a column",
    "duplicate_given_box": "a digit given twice in a 3x3 box",
    "duplicate_given_cage": "a digit given twice in a cage",
    "cage_givens": "no set of distinct digits of a cage's size and sum includes its givens",
    "no_solution": "every rule above holds, but no grid satisfies the puzzle",
}
GRID_LINES = SIDE
LINES = GRID_LINES + 1
_SUM_ENTRY = re.compile(r"([A-Za-z])=([0-9]+)")


@dataclass(frozen=True)
class Rejection:
    rule: Rule
    message: str  # what is wrong, precisely ("line 3's digits are 8 characters, not 9")


class _Rejected(Exception):
    def __init__(self, rule: Rule, message: str) -> None:
        super().__init__(message)
        self.rejection = Rejection(rule, message)


def parse(data: bytes) -> Puzzle | Rejection:
    """The puzzle in `data`, or the first rule (in RULES order) it breaks."""
    try:
        return _parse(data)
    except _Rejected as rejected:
        return rejected.rejection


def _parse(data: bytes) -> Puzzle:
    if not data:
        raise _Rejected("empty_input", "the input is empty")
    # Byte for byte: a non-ASCII byte is one bad character, as a C program sees it.
    lines = data.decode("ascii", errors="replace").split("\n")
    if lines[-1] == "":
        lines.pop()  # the final newline (optional on the sums line)
    if len(lines) != LINES:
        raise _Rejected("line_count", f"the input has {len(lines)} line(s); it must have {LINES}: "
                        f"{GRID_LINES} grid lines, then the sums line")
    digit_rows, letter_rows = zip(*(_grid_line(number, line) for number, line in enumerate(lines[:GRID_LINES], 1)))
    letters = "".join(letter_rows)
    sums = _sums(lines[GRID_LINES], set(letters))
    cages = tuple(Cage(letter, tuple(cell for cell in range(CELL_COUNT) if letters[cell] == letter), total)
                  for letter, total in sums)
    _check_cages(cages)
    givens = tuple(0 if ch == "." else int(ch) for ch in "".join(digit_rows))
    _check_givens(givens, cages)
    return Puzzle(givens, cages)


def _grid_line(number: int, line: str) -> tuple[str, str]:
    """A grid line's digits and cage letters."""
    fields = line.split(" ")
    if len(fields) != 2:
        raise _Rejected("row_separator", f"line {number} is not 9 digits, one space, 9 cage letters: "
                        f"{_excerpt(line)}")
    digits, letters = fields
    if len(digits) != SIDE:
        raise _Rejected("row_length", f"line {number}'s digits are {len(digits)} characters, not 9")
    if len(letters) != SIDE:
        raise _Rejected("cage_row_length", f"line {number}'s cage letters are {len(letters)} characters, not 9")
    for column, ch in enumerate(digits, 1):
        if ch not in DIGITS and ch != ".":
            raise _Rejected("bad_digit", f"row {number}, column {column} is {_shown(ch)}: "
                            "a cell is a digit 1-9 or '.'")
    for column, ch in enumerate(letters, 1):
        if ch not in CAGE_LETTERS:
            raise _Rejected("bad_cage_letter", f"row {number}, column {column} of the cages is {_shown(ch)}: "
                            "a cage is named by a letter a-z or A-Z")
    return digits, letters


def _sums(line: str, letters: set[str]) -> list[tuple[str, int]]:
    """The sums line's (letter, sum) entries, in its order."""
    entries: list[tuple[str, int]] = []
    for number, entry in enumerate(line.split(" "), 1):
        match = _SUM_ENTRY.fullmatch(entry)
        if match is None:
            raise _Rejected("sum_entry", f"entry {number} of the sums line, {_excerpt(entry)}, is not "
                            "letter=number (entries are separated by one space)")
        letter, total = match[1], int(match[2])
        if any(letter == seen for seen, _ in entries):
            raise _Rejected("duplicate_sum", f"cage {letter!r} has two entries in the sums line")
        if letter not in letters:
            raise _Rejected("unknown_cage", f"the sums line gives {entry}, but no cell is in cage {letter!r}")
        entries.append((letter, total))
    missing = sorted(letters - {letter for letter, _ in entries})
    if missing:
        raise _Rejected("missing_sum", f"cage {missing[0]!r} has no sum in the sums line")
    return entries


def _check_cages(cages: tuple[Cage, ...]) -> None:
    for cage in cages:
        if not connected(cage.cells):
            raise _Rejected("cage_disconnected", f"the cells of cage {cage.letter!r} are not connected "
                            f"(side by side, never by a corner): {_cells(cage.cells)}")
    for cage in cages:
        if len(cage.cells) > MAX_CAGE_CELLS:
            raise _Rejected("cage_too_large", f"cage {cage.letter!r} has {len(cage.cells)} cells: "
                            "more than 9 cannot hold distinct digits")
    for cage in cages:
        if not cage_combinations(len(cage.cells), cage.total):
            low, high = sum_range(len(cage.cells))
            raise _Rejected("cage_sum_impossible", f"cage {cage.letter!r} has {len(cage.cells)} cell(s) and sum "
                            f"{cage.total}: distinct digits in {len(cage.cells)} cell(s) add up to {low}..{high}")
    total = sum(cage.total for cage in cages)
    if total != GRID_TOTAL:
        raise _Rejected("sums_total", f"the cage sums add up to {total}; a solved grid adds up to 405")


def _check_givens(givens: tuple[int, ...], cages: tuple[Cage, ...]) -> None:
    houses: tuple[tuple[str, Rule, tuple[tuple[int, ...], ...]], ...] = (
        ("row", "duplicate_given_row", ROWS), ("column", "duplicate_given_column", COLUMNS),
        ("box", "duplicate_given_box", BOXES))
    for name, rule, units in houses:
        for number, unit in enumerate(units, 1):
            twice = _repeated(givens, unit)
            if twice:
                raise _Rejected(rule, f"{twice} is given twice in {name} {number}")
    for cage in cages:
        twice = _repeated(givens, cage.cells)
        if twice:
            raise _Rejected("duplicate_given_cage", f"{twice} is given twice in cage {cage.letter!r}")
    for cage in cages:
        given = sum(1 << givens[cell] for cell in cage.cells if givens[cell])
        if not any(combo & given == given for combo in cage_combinations(len(cage.cells), cage.total)):
            shown = ", ".join(str(givens[cell]) for cell in cage.cells if givens[cell])
            raise _Rejected("cage_givens", f"cage {cage.letter!r} ({len(cage.cells)} cells, sum {cage.total}) "
                            f"is given {shown}: no distinct digits with those reach its sum")


def _repeated(givens: tuple[int, ...], cells: tuple[int, ...]) -> int:
    """A digit given twice among `cells`, or 0."""
    seen: set[int] = set()
    for cell in cells:
        digit = givens[cell]
        if digit and digit in seen:
            return digit
        seen.add(digit)
    return 0


def _cells(cells: tuple[int, ...]) -> str:
    shown = "; ".join(where(cell) for cell in cells[:4])
    return shown + ("; ..." if len(cells) > 4 else "")


def _shown(ch: str) -> str:
    return "a non-ASCII byte" if ch == "\ufffd" else repr(ch)


def _excerpt(text: str, limit: int = 30) -> str:
    return repr(text if len(text) <= limit else text[:limit] + "...")
