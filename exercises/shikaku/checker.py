"""Compare what a Shikaku solver printed with the exact answer, and say what is wrong.

`check` turns a case and its run(s) into a Verdict, the way fillit's checker does
(harness.grading.checker, whose generic helpers it uses): limits and signals first (the output of
a killed program means nothing), then runs that disagree, then the text.  A mismatch is
explained as a grader would: is the layout right, is the grid a tiling at all (each
letter one rectangle, holding exactly one number, of that area), are the letters in
order, is the count right, is it the first solution in sorted order.  Every row and
column in a message counts from 1.
"""
from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence
from typing import Literal

from generators.cases import Case
from harness.grading.checker import (decode, excerpt, layout_defects, says_error, stopped_verdict,
                                     told_instead_of_error)
from harness.jail import RunResult
from harness.grading.model import Verdict
from exercises.shikaku.drawing import Region, clues_inside, regions
from exercises.shikaku.geometry import Rect
from exercises.shikaku.puzzle import LETTERS, Puzzle, parse
from exercises.shikaku.solver import ERROR

Diagnosis = Literal["wrong_count", "not_first", "overlap", "uncovered", "clue_count", "wrong_area", "letter_order",
                    "format", "false_error", "missed_error", "nondeterministic"]
DIAGNOSES: tuple[Diagnosis, ...] = ("wrong_count", "not_first", "overlap", "uncovered", "clue_count", "wrong_area",
                                    "letter_order", "format", "false_error", "missed_error", "nondeterministic")
_COUNT = re.compile(r"[0-9]+")


def _wrong(diagnosis: Diagnosis, message: str, **details: object) -> Verdict:
    return Verdict("WRONG", diagnosis, message, dict(details))


def check(case: Case, runs: Sequence[RunResult], strict: bool = False) -> Verdict:
    """The verdict for `case` given its runs, in run order; `strict`: a disputed input
    passes only with the puzzle's answer."""
    for run in runs:
        stopped = stopped_verdict(run)
        if stopped is not None:
            return _with_hard_hint(case, stopped)
    outputs = [decode(run.stdout) for run in runs]
    if any(other != outputs[0] for other in outputs[1:]):
        return _wrong("nondeterministic", "two runs on the same input printed different outputs "
                      "(uninitialised memory, or a random choice?)", outputs=outputs)
    actual = outputs[0]
    if case.disputed and actual in (case.expected, *case.accepted):
        return _check_disputed(case, actual, strict)
    if actual == case.expected:
        return Verdict("OK", None, "")
    return diagnose(case, actual, decode(runs[0].stderr) if runs else "")


def _with_hard_hint(case: Case, stopped: Verdict) -> Verdict:
    """A hard puzzle's TIMEOUT, with what makes it hard."""
    if stopped.verdict != "TIMEOUT" or case.category != "hard":
        return stopped
    if case.expected == "0\n":
        hint = ("this puzzle has no solution, which plain search only finds out after trying every tiling "
                "of the rows above its last; check before each step that every clue not placed yet still "
                "has a rectangle that fits")
    else:
        hint = (f"this puzzle has {str(case.expected).split(chr(10))[0]} solutions; count them without redoing "
                "the whole search for each (place the rectangles that are forced first)")
    return dataclasses.replace(stopped, message=f"{stopped.message}: {hint}")


def _check_disputed(case: Case, actual: str, strict: bool) -> Verdict:
    read = actual == case.expected
    which = "read the puzzle and answered it" if read else "printed error"
    if read or not strict:
        return Verdict("DISPUTED", case.disputed,
                       f"disputed input ({case.description}): the program {which}; both pass by default",
                       {"answer": "puzzle" if read else "error"})
    return _wrong("false_error", f"disputed input ({case.description}): the strict profile expects the "
                  "puzzle's answer, reading the numbers as CodinGame's readers do; the program printed error",
                  answer="error")


def diagnose(case: Case, actual: str, stderr: str = "") -> Verdict:
    """Why `actual` differs from `case.expected`."""
    parsed = parse(case.input or b"")
    if parsed.puzzle is None:
        return _missed_error(case, actual, stderr)
    if says_error(actual) and case.disputed:
        return _wrong("format", f"disputed input ({case.description}): error passes here, but printed exactly "
                      f"as 'error\\n', not {actual!r}", actual=actual)
    if says_error(actual):
        rule = "" if actual == ERROR else " (and 'error' must be printed exactly as 'error\\n')"
        return _wrong("false_error", f"the input is valid but the program printed error{rule}", actual=actual)
    return diagnose_answer(parsed.puzzle, str(case.expected), actual)


def _missed_error(case: Case, actual: str, stderr: str) -> Verdict:
    rejection = parse(case.input or b"").rejection
    why = f"the input is invalid ({rejection})"
    if says_error(actual):
        return _wrong("format", f"{why}: print exactly 'error\\n', not {actual!r}", rule=case.rule, actual=actual)
    told = told_instead_of_error(actual, "error" in stderr.lower())
    return _wrong("missed_error", f"{why}, but the program {told}", rule=case.rule)


# --- the layout -------------------------------------------------------------------------

_PLACES = ("before the count", "inside the answer", "after the answer")


def _layout(text: str) -> tuple[list[str], list[str]]:
    """The lines of `text` with common layout defects repaired (the count's leading zeros
    too), and one phrase per distinct defect ("missing final newline", "one extra empty line
    after the answer"...)."""
    repaired, defects = layout_defects(text, _PLACES, "spaces between letters", blanks=" \t", header=_count_zeros)
    return repaired.split("\n")[:-1], defects


def _count_zeros(line: str) -> tuple[str, str] | None:
    """The count without its leading zeros, when it has some."""
    if _COUNT.fullmatch(line) and line != str(int(line)):
        return str(int(line)), "leading zeros in the count"
    return None


# --- the answer -------------------------------------------------------------------------

def diagnose_answer(puzzle: Puzzle, expected: str, actual: str) -> Verdict:
    """What is wrong with `actual`, the output for a valid puzzle whose answer is `expected`."""
    expected_lines = expected.split("\n")[:-1]
    expected_count, expected_grid = int(expected_lines[0]), expected_lines[1:]
    lines, defects = _layout(actual)
    verdict = _diagnose_content(puzzle, expected_count, expected_grid, lines)
    if verdict is None:
        if defects:
            return _wrong("format", f"the answer is right but the layout is not: {'; '.join(defects)}",
                          defects=defects)
        return _wrong("format", "the output differs from the answer only in layout")
    if defects and verdict.diagnosis != "format":
        return dataclasses.replace(verdict, message=f"{verdict.message} (also: {'; '.join(defects)})",
                                   details={**verdict.details, "defects": defects})
    return verdict


def _diagnose_content(puzzle: Puzzle, expected_count: int, expected_grid: list[str],
                      lines: list[str]) -> Verdict | None:
    """None when the repaired `lines` are the answer; else the first thing wrong with them."""
    if not lines:
        return _wrong("format", "the program printed nothing: print the number of solutions, then the grid")
    if not _COUNT.fullmatch(lines[0]):
        return _wrong("format", f"the first line must be the number of solutions, digits only; it is "
                      f"{excerpt(lines[0])}", first_line=lines[0][:80])
    count, grid = int(lines[0]), lines[1:]
    if not grid:
        if count == expected_count == 0:
            return None
        if count == expected_count:
            return _wrong("format", f"the count ({count}) is right, but the grid of the first solution is missing")
        return _count_verdict(count, expected_count, "")
    if expected_count == 0 and count == 0:
        return _wrong("format", "the puzzle has no solution: print '0' alone, without a grid")
    shape = _shape_problem(puzzle, grid)
    if shape:
        return _wrong("format", shape, lines=len(grid), widths=sorted({len(row) for row in grid})[:5])
    tiling = _tiling_problem(puzzle, grid)
    if tiling is not None:
        return tiling
    if count != expected_count:
        also = "" if grid == expected_grid else "; the grid is a solution, but not the first in sorted order"
        return _count_verdict(count, expected_count, also)
    if grid != expected_grid:
        return _not_first(puzzle, grid, expected_grid)
    return None


def _count_verdict(count: int, expected: int, also: str) -> Verdict:
    if expected == 0:
        told = f"the program printed {count}, but the puzzle has no solution (print 0)"
    elif count == 0:
        told = f"the program printed 0, but the puzzle has {expected} solution{'s' if expected > 1 else ''}"
    elif count < expected:
        told = f"the program counted {count} solution{'s' if count > 1 else ''}, the puzzle has {expected}: " \
               "every solution counts, not only the first found"
    else:
        told = f"the program counted {count} solutions, the puzzle has {expected}: is a solution counted " \
               "twice, or a grid that is not a tiling counted?"
    return _wrong("wrong_count", f"{told}{also}", actual=count, expected=expected)


def _shape_problem(puzzle: Puzzle, grid: list[str]) -> str:
    """Why `grid` is not H lines of W letters, or ""."""
    if len(grid) != puzzle.height or any(len(row) != puzzle.width for row in grid):
        widths = sorted({len(row) for row in grid})
        return (f"the grid must be {puzzle.height} line{'s' if puzzle.height > 1 else ''} of {puzzle.width} "
                f"letter{'s' if puzzle.width > 1 else ''}; it is {len(grid)} line(s) of width "
                f"{', '.join(map(str, widths[:5]))}")
    if not any(ch in LETTERS for row in grid for ch in row):
        strange = sorted({ch for row in grid for ch in row})
        return f"the grid must be drawn with the letters A-Z, a-z; it holds {', '.join(map(repr, strange[:5]))}"
    return ""


def _where(region: Region) -> str:
    return region.rect.describe()


def _tiling_problem(puzzle: Puzzle, grid: list[str]) -> Verdict | None:
    """The first rule of a tiling the drawing breaks: each letter one whole rectangle,
    every cell in one, each holding exactly one number, whose area is that number; then
    the letters' order."""
    found = [region for region in regions(grid) if region.symbol in LETTERS]
    for region in found:
        if not region.is_rectangle:
            return _wrong("overlap", f"the cells of letter {region.symbol} are not one rectangle: {region.size} "
                          f"cells spread over {_where(region)} (a rectangle drawn over another, or a letter used "
                          "twice)", letter=region.symbol)
    empty = [(r, c) for r, row in enumerate(grid) for c, ch in enumerate(row) if ch not in LETTERS]
    if empty:
        r, c = empty[0]
        return _wrong("uncovered", f"{len(empty)} cell{'s' if len(empty) > 1 else ''} of the grid hold no letter "
                      f"(the first at row {r + 1}, column {c + 1}: {grid[r][c]!r}); every cell belongs to exactly "
                      "one rectangle", cells=len(empty))
    for region in found:
        inside = clues_inside(region.rect, puzzle.clues)
        if len(inside) != 1:
            numbers = ", ".join(f"{clue.area} at row {clue.row + 1}, column {clue.col + 1}" for clue in inside[:3])
            held = f"{len(inside)} numbers ({numbers})" if inside else "no number"
            return _wrong("clue_count", f"rectangle {region.symbol} ({_where(region)}) holds {held}; each "
                          "rectangle holds exactly one", letter=region.symbol, numbers=len(inside))
        if inside[0].area != region.size:
            return _wrong("wrong_area", f"rectangle {region.symbol} ({_where(region)}, {region.size} cells) holds "
                          f"the number {inside[0].area}", letter=region.symbol, area=inside[0].area,
                          cells=region.size)
    for letter, region in zip(LETTERS, sorted(found, key=lambda region: region.rect)):
        if region.symbol != letter:
            return _wrong("letter_order", f"the rectangle at {_where(region)} is drawn with {region.symbol}, but "
                          f"rectangles take the letters A-Z then a-z in the order of their top-left cells (left to "
                          f"right, top to bottom): it is {letter}", letter=region.symbol, expected=letter)
    return None


def _rects(grid: list[str]) -> list[Rect]:
    return sorted(region.rect for region in regions(grid))


def _not_first(puzzle: Puzzle, grid: list[str], expected_grid: list[str]) -> Verdict:
    """A right count and a solution, but not the first in sorted order: name the first
    rectangle (in letter order) that differs."""
    for letter, mine, first in zip(LETTERS, _rects(grid), _rects(expected_grid)):
        if mine != first:
            return _wrong("not_first", f"the grid is a solution, but not the first in sorted order: rectangle "
                          f"{letter} is at {mine.describe()}, the first solution has it at {first.describe()} "
                          "(sort the drawings as strings, row after row, and print the smallest)",
                          letter=letter, actual=dataclasses.asdict(mine), expected=dataclasses.asdict(first))
    raise AssertionError("two different drawings of legal tilings differ in some rectangle")
