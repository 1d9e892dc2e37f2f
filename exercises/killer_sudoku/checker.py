"""Compare what a Killer Sudoku solver printed with the answer, and say what is wrong.

Limits and signals come first, as for every exercise (harness.grading.checker, whose
generic helpers it uses); then two runs that differ; then the text. A wrong grid is explained the way a human grader reads
it: is it 9 lines of 9 digits, does it keep the givens, which row, column, box or cage
breaks a rule, and where it first differs from the answer (rows and columns from 1).
"""
from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Literal

from exercises.killer_sudoku.parser import Rejection, parse
from exercises.killer_sudoku.puzzle import BOXES, CELL_COUNT, COLUMNS, DIGITS, ROWS, SIDE, Puzzle, where
from exercises.killer_sudoku.solver import ERROR
from generators.cases import Case
from harness.grading.checker import decode, excerpt, layout_defects, says_error, stopped_verdict
from harness.jail import RunResult
from harness.grading.model import Verdict

Diagnosis = Literal["format", "not_a_grid", "false_error", "missed_error", "given_changed", "bad_row",
                    "bad_column", "bad_box", "bad_cage", "other_solution", "nondeterministic"]
DIAGNOSES: tuple[Diagnosis, ...] = ("format", "not_a_grid", "false_error", "missed_error", "given_changed",
                                    "bad_row", "bad_column", "bad_box", "bad_cage", "other_solution",
                                    "nondeterministic")


def _wrong(diagnosis: Diagnosis, message: str, details: dict[str, object] | None = None) -> Verdict:
    return Verdict("WRONG", diagnosis, message, details or {})


def check(case: Case, runs: Sequence[RunResult], strict: bool = False) -> Verdict:
    """The verdict for `case` given its runs (one per `case.runs`), in run order. `strict`
    changes nothing: Killer Sudoku has no disputed case."""
    for run in runs:
        halted = stopped_verdict(run)
        if halted is not None:
            return _hard_timeout(halted) if case.category == "hard" and halted.verdict == "TIMEOUT" else halted
    outputs = [decode(run.stdout) for run in runs]
    if any(other != outputs[0] for other in outputs[1:]):
        return _wrong("nondeterministic", "two runs on the same input printed different outputs "
                      "(uninitialised memory?)", {"outputs": outputs})
    actual = outputs[0]
    if actual == case.expected or actual in case.accepted:
        return Verdict("OK", None, "")
    return diagnose(case, actual, decode(runs[0].stderr) if runs else "")


def _hard_timeout(timeout: Verdict) -> Verdict:
    return dataclasses.replace(timeout, message=(
        f"{timeout.message}: this puzzle has few givens or large cages, where trying digits cell by cell "
        "takes minutes; keep each cell's candidates and each cage's possible digit sets, fill the cell "
        "with the fewest candidates first"))


def diagnose(case: Case, actual: str, stderr: str = "") -> Verdict:
    """Why `actual` differs from `case.expected`."""
    parsed = parse(case.input or b"")
    if case.expected == ERROR:
        return _missed_error(parsed, actual, stderr)
    if isinstance(parsed, Rejection):  # only a hand-written .expected file can say so
        return _wrong("format", f"the output differs from the case's expected answer (and the input is invalid: "
                      f"{parsed.message})", {"rule": parsed.rule})
    if says_error(actual):
        return _wrong("false_error", "the puzzle is valid and has a solution, but the program printed error",
                      {"actual": actual})
    repaired, defects = _layout(actual)
    grid = _read_grid(actual) or _read_grid(repaired)
    if grid is None:
        return _wrong("not_a_grid", f"the answer is 9 lines of 9 digits 1-9; {_not_a_grid(repaired)}",
                      {"defects": defects})
    expected = _read_grid(case.expected) if isinstance(case.expected, str) else None
    assert expected is not None, "the reference answer is a grid"
    content = _diagnose_grid(parsed, grid, expected)
    if content is None:
        return _wrong("format", f"the grid is right but the layout is not: {'; '.join(defects)}",
                      {"defects": defects})
    if defects:
        return dataclasses.replace(content, message=f"{content.message} (also: {'; '.join(defects)})",
                                   details={**content.details, "defects": defects})
    return content


def _missed_error(parsed: Puzzle | Rejection, actual: str, stderr: str) -> Verdict:
    if isinstance(parsed, Rejection):
        why, rule = f"the input is invalid ({parsed.message})", parsed.rule
    else:
        why, rule = "the puzzle has no solution (the input follows every rule, but no grid fits it)", "no_solution"
    if says_error(actual):
        return _wrong("format", f"{why}: print exactly 'error\\n', not {excerpt(actual)}", {"rule": rule})
    if not actual:
        told = "printed error on stderr; it must go to stdout" if "error" in stderr.lower() else "printed nothing"
    elif isinstance(parsed, Puzzle) and (grid := _read_grid(_layout(actual)[0])) is not None:
        broken = _broken_rule(parsed, grid)
        told = f"printed a grid ({broken.message})" if broken else "printed a grid"
    else:
        told = f"printed {excerpt(actual)}"
    return _wrong("missed_error", f"{why}; the answer is 'error', but the program {told}", {"rule": rule})


_PLACES = ("before the grid", "between rows of the grid", "after the grid")


def _layout(text: str) -> tuple[str, list[str]]:
    """`text` with common layout defects repaired, and one phrase per distinct defect
    ("missing final newline", "one extra empty line after the grid"...)."""
    return layout_defects(text, _PLACES, "spaces between digits", blanks=" \t")


def _read_grid(text: str) -> list[int] | None:
    """The 81 digits of exactly 9 lines of 9 digits 1-9, each ending with a newline."""
    if not text.endswith("\n"):
        return None
    rows = text[:-1].split("\n")
    if len(rows) != SIDE or any(len(row) != SIDE or any(ch not in DIGITS for ch in row) for row in rows):
        return None
    return [int(ch) for row in rows for ch in row]


def _not_a_grid(text: str) -> str:
    """What keeps `text` (layout repaired) from being the grid, precisely."""
    rows = text.split("\n")[:-1] if text.endswith("\n") else text.split("\n")
    if not text:
        return "the program printed nothing"
    if len(rows) != SIDE:
        return f"it printed {len(rows)} line(s)"
    for number, row in enumerate(rows, 1):
        if len(row) != SIDE:
            return f"line {number} has {len(row)} character(s): {excerpt(row)}"
    for number, row in enumerate(rows, 1):
        for column, ch in enumerate(row, 1):
            if ch not in DIGITS:
                unfilled = " (an unfilled cell?)" if ch in "0." else ""
                return f"row {number}, column {column} is {ch!r}{unfilled}"
    return f"it printed {excerpt(text)}"


def _diagnose_grid(puzzle: Puzzle, grid: list[int], expected: list[int]) -> Verdict | None:
    """None when `grid` is the expected one; else the first rule it breaks, in the order a
    student checks them (givens, rows, columns, boxes, cages), with where it first
    differs from the answer."""
    if grid == expected:
        return None
    first = next(cell for cell in range(CELL_COUNT) if grid[cell] != expected[cell])
    difference = f"{where(first)} is {grid[first]}, the answer has {expected[first]}"
    facts: dict[str, object] = {"first_difference": {"row": first // SIDE + 1, "column": first % SIDE + 1,
                                                     "actual": grid[first], "expected": expected[first]}}
    broken = _broken_rule(puzzle, grid)
    if broken is None:
        return _wrong("other_solution", f"the grid keeps every rule, but this puzzle has several solutions and "
                      f"the answer is the first in reading order: {difference}", facts)
    return dataclasses.replace(broken, message=f"{broken.message} (first difference: {difference})",
                               details={**broken.details, **facts})


def _broken_rule(puzzle: Puzzle, grid: list[int]) -> Verdict | None:
    """The first rule `grid` breaks (givens, rows, columns, boxes, cages), or None."""
    for cell, given in enumerate(puzzle.givens):
        if given and grid[cell] != given:
            return _wrong("given_changed", f"{where(cell)} is given as {given}, the program printed {grid[cell]}",
                          {"cell": [cell // SIDE + 1, cell % SIDE + 1]})
    houses: tuple[tuple[Diagnosis, str, tuple[tuple[int, ...], ...]], ...] = (
        ("bad_row", "row", ROWS), ("bad_column", "column", COLUMNS), ("bad_box", "box", BOXES))
    for diagnosis, name, units in houses:
        for number, unit in enumerate(units, 1):
            twice = _twice(grid, unit)
            if twice is not None:
                digit, cells = twice
                return _wrong(diagnosis, f"{name} {number} holds {digit} twice ({where(cells[0])} and "
                              f"{where(cells[1])})", {name: number, "digit": digit})
    for cage in puzzle.cages:
        twice = _twice(grid, cage.cells)
        if twice is not None:
            return _wrong("bad_cage", f"cage {cage.letter!r} holds {twice[0]} twice ({where(twice[1][0])} and "
                          f"{where(twice[1][1])}): digits never repeat in a cage", {"cage": cage.letter})
        total = sum(grid[cell] for cell in cage.cells)
        if total != cage.total:
            return _wrong("bad_cage", f"cage {cage.letter!r} ({len(cage.cells)} cells from {where(cage.cells[0])}) "
                          f"adds up to {total}, its sum is {cage.total}", {"cage": cage.letter, "total": total})
    return None


def _twice(grid: list[int], cells: tuple[int, ...]) -> tuple[int, tuple[int, int]] | None:
    """A digit found twice among `cells`, and the first two cells holding it."""
    seen: dict[int, int] = {}
    for cell in cells:
        if grid[cell] in seen:
            return grid[cell], (seen[grid[cell]], cell)
        seen[grid[cell]] = cell
    return None
