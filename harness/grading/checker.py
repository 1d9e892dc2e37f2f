"""Compare what a program printed with the exact answer, and say what is wrong.

`check` turns one case and its run(s) into a Verdict: the verdict name, a
diagnosis from SPEC.md, one sentence a student can act on, and the facts behind
it (`details`).  Limits and signals come first (the output of a killed program
means nothing), then the text is compared, and a mismatch is explained by
looking at the actual square the way a human grader would: is it a square at
all, are the pieces right, is it minimal, is it the upper-left-first one.
"""
from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from generators.cases import SPEED, Case, UsageLine
from harness.grading.model import Verdict
from harness.jail import RunResult
from reference.parser import parse
from reference.shapes import Shape, normalize

ERROR = "error\n"


def decode(output: bytes) -> str:
    """Program output as text; bytes that are not UTF-8 show as U+FFFD."""
    return output.decode("utf-8", errors="replace")


def check(case: Case, runs: Sequence[RunResult], strict: bool = False) -> Verdict:
    """The verdict for `case` given its runs (one per `case.runs`), in run order.

    `strict` is the strict profile: a disputed case passes only with the 42 answer.
    """
    for run in runs:
        stopped = stopped_verdict(run)
        if stopped is not None:
            return _as_speed_verdict(stopped) if case.category == SPEED else stopped
    outputs = [decode(run.stdout) for run in runs]
    if any(other != outputs[0] for other in outputs[1:]):
        return Verdict(
            "WRONG",
            "nondeterministic",
            "two runs on the same file printed different outputs (uninitialised memory?)",
            {"outputs": outputs},
        )
    actual = outputs[0]
    if isinstance(case.expected, UsageLine):
        return _check_usage(actual)
    if case.disputed and actual in (case.expected, *case.accepted):
        return _check_disputed(case, actual, strict)
    if actual == case.expected:
        return Verdict("OK", None, "")
    return diagnose(case, case.expected, actual, decode(runs[0].stderr))


def stopped_verdict(run: RunResult) -> Verdict | None:
    """TIMEOUT, OUTPUT_LIMIT or CRASH when the run did not end normally."""
    if run.limit in ("wall", "cpu"):
        limit = "wall-clock" if run.limit == "wall" else "CPU"
        return Verdict("TIMEOUT", run.limit, f"the program exceeded the {limit} time limit and was killed",
                       {"wall_s": run.wall_s, "cpu_s": run.cpu_s})
    if run.limit == "memory":
        return Verdict("CRASH", "memory_limit", "the program (with every process it started) used more memory than "
                       "the limit and was killed", {"max_rss_kb": run.max_rss_kb})
    if run.limit == "output":
        return Verdict("OUTPUT_LIMIT", "output", "the program printed more than the output limit and was killed",
                       {"stdout_bytes": len(run.stdout)})
    if run.signal is not None:
        return Verdict("CRASH", run.signal, f"the program died with {run.signal}", {"exit_code": run.exit_code})
    return None


def _as_speed_verdict(stopped: Verdict) -> Verdict:
    """A speed case's TIMEOUT, said as what it means: not wrong, too slow."""
    if stopped.verdict != "TIMEOUT":
        return stopped
    return dataclasses.replace(stopped, message=(
        f"{stopped.message}: plain backtracking takes a minute or more on this speed file, a solver "
        "that prunes (identical pieces in order, dead cells) well under a second; if the other cases "
        "pass, the program is correct, but too slow for the moulinette's timeout"))


def _check_usage(actual: str) -> Verdict:
    lines = actual.splitlines()
    if len(lines) == 1 and lines[0].lower().startswith("usage") and actual.endswith("\n"):
        return Verdict("OK", None, "")
    if not actual:
        what = "nothing on stdout"
    else:
        what = f"{len(lines)} line(s) starting with {lines[0][:40]!r}" if lines else repr(actual[:40])
    return Verdict("WRONG", "bad_usage",
                   f"with a wrong number of arguments the program must print one usage line on stdout; it printed {what}",
                   {"actual": actual[:200]})


def _check_disputed(case: Case, actual: str, strict: bool) -> Verdict:
    gave_42 = actual == case.expected
    which = "the 42 answer (error)" if gave_42 else "the seed's answer (the square)"
    if gave_42 or not strict:
        return Verdict("DISPUTED", case.disputed,
                       f"disputed case {case.disputed}: the program gave {which}; both pass by default",
                       {"answer": "42" if gave_42 else "seed"})
    return Verdict("WRONG", "missed_error",
                   f"disputed case {case.disputed}: the strict profile expects error like the 42 moulinette, "
                   "the program printed a square", {"answer": "seed"})


def diagnose(case: Case, expected: str, actual: str, stderr: str = "") -> Verdict:
    """Why `actual` differs from `expected`, the case's exact expected text."""
    if expected == ERROR:
        return _missed_error(case, actual, stderr)
    if says_error(actual):
        rule = "" if actual == ERROR else " (and 'error' must be printed exactly as 'error\\n')"
        return Verdict("WRONG", "false_error", f"the file is valid but the program printed error{rule}",
                       {"actual": actual})
    parsed = parse(case.input or b"")
    return _diagnose_square(parsed.pieces, expected, actual)


def _missed_error(case: Case, actual: str, stderr: str) -> Verdict:
    reason = parse(case.input).rejection if case.input is not None else None
    why = f"the file is invalid ({reason})" if reason else f"the {case.invocation.replace('_', ' ')} case"
    if says_error(actual):
        return Verdict("WRONG", "format", f"{why}: print exactly 'error\\n', not {actual!r}",
                       {"rule": case.rule, "actual": actual})
    told = told_instead_of_error(actual, "error" in stderr)
    return Verdict("WRONG", "missed_error", f"{why}, but the program {told}", {"rule": case.rule})


@dataclass(frozen=True)
class _Grid:
    rows: list[str]

    @property
    def side(self) -> int:
        return len(self.rows)

    def cells_by_symbol(self) -> dict[str, list[tuple[int, int]]]:
        cells: dict[str, list[tuple[int, int]]] = {}
        for r, row in enumerate(self.rows):
            for c, symbol in enumerate(row):
                if symbol != ".":
                    cells.setdefault(symbol, []).append((r, c))
        return cells


def square_rows(text: str) -> list[str] | None:
    """The rows if `text` is exactly a square of non-blank characters, one line each, every
    line ending in '\n' (the one square parser: the reports draw what this accepts)."""
    if not text.endswith("\n"):
        return None
    rows = text[:-1].split("\n")
    if all(len(row) == len(rows) and not any(ch.isspace() for ch in row) for row in rows):
        return rows
    return None


def _as_square(text: str) -> _Grid | None:
    rows = square_rows(text)
    return None if rows is None else _Grid(rows)


_SQUARE_PLACES = ("before the square", "between rows of the square", "after the square")


def layout_defects(text: str, places: tuple[str, str, str], inner: str, *, blanks: str = " ",
                   header: Callable[[str], tuple[str, str] | None] | None = None,
                   blank_lines_lead: bool = True) -> tuple[str, list[str]]:
    """`text` with the common layout defects repaired, and one phrase per distinct defect in
    the order a reader meets them ("missing final newline", "one extra empty line after the
    square"...): '\\r', the final newline, spaces around lines, empty lines, blanks inside lines.

    What differs between exercises:
    - `places`: where empty lines are, named: before, between and after the filled lines
      ("before the square", "between rows of the square", "after the square");
    - `inner`: the phrase for blanks inside a line ("spaces between cells"), and `blanks` the
      characters removed there;
    - `header`: for an output whose first line is of another kind (Shikaku's count): that line
      keeps its inner blanks, and `header(line)` is (the line repaired, the phrase) or None;
    - `blank_lines_lead`: whether a line of only spaces also counts as leading spaces (else
      only as trailing ones, as fillit says it).
    """
    defects = []
    if "\r" in text:
        defects.append("carriage returns ('\\r') in the output")
        text = text.replace("\r", "")
    lines = text.split("\n")
    if text and not text.endswith("\n"):
        defects.append("missing final newline")
    else:
        lines.pop()
    trimmed = [line.rstrip() for line in lines]
    if trimmed != lines:
        defects.append("trailing spaces at the end of lines")
    if any(line != line.lstrip() for line in (lines if blank_lines_lead else trimmed)):
        defects.append("leading spaces at the start of lines")
    lines = [line.strip() for line in lines]
    defects += _empty_line_defects(lines, places)
    lines = [line for line in lines if line]
    first = lines[:1] if header is not None else []
    repaired = header(first[0]) if first and header is not None else None
    if repaired is not None:
        first[0] = repaired[0]
        defects.append(repaired[1])
    rest = lines[len(first):]
    if any(ch in line for line in rest for ch in blanks):
        defects.append(inner)
        rest = [line.translate(str.maketrans("", "", blanks)) for line in rest]
    return "".join(line + "\n" for line in first + rest), defects


def _empty_line_defects(lines: list[str], places: tuple[str, str, str]) -> list[str]:
    """Empty lines before, inside and after the filled lines, each place named apart."""
    filled = [i for i, line in enumerate(lines) if line]
    if not filled:
        return []
    counts = (filled[0], sum(1 for line in lines[filled[0]:filled[-1]] if not line), len(lines) - 1 - filled[-1])
    return [f"{_extra_empty_lines(count)} {where}" for count, where in zip(counts, places) if count]


def _extra_empty_lines(count: int) -> str:
    return "one extra empty line" if count == 1 else f"{count} extra empty lines"


def _diagnose_square(pieces: Sequence[Shape], expected: str, actual: str) -> Verdict:
    expected_grid = _as_square(expected)
    assert expected_grid is not None, "the reference answer is always a square"
    repaired, defects = layout_defects(actual, _SQUARE_PLACES, "spaces between cells", blank_lines_lead=False)
    grid = _as_square(actual) or _as_square(repaired)
    if grid is None:
        return Verdict("WRONG", "format", f"the output is not a square of '.' and letters: {_shape_of_text(actual)}",
                       {"defects": defects})
    content = _diagnose_content(pieces, expected_grid, grid)
    if content is None:
        if defects:
            return Verdict("WRONG", "format", f"the square is right but the layout is not: {'; '.join(defects)}",
                           {"defects": defects})
        # Same grid, yet the text differs: unreachable since both render the same way.
        return Verdict("WRONG", "format", "the output differs from the answer only in layout", {})
    if defects:
        return Verdict(content.verdict, content.diagnosis,
                       f"{content.message} (also: {'; '.join(defects)})", {**content.details, "defects": defects})
    return content


def _diagnose_content(pieces: Sequence[Shape], expected: _Grid, actual: _Grid) -> Verdict | None:
    """None when `actual` is the expected square; else what is wrong with it."""
    letters = [chr(ord("A") + i) for i in range(len(pieces))]
    found = actual.cells_by_symbol()
    extra = sorted(set(found) - set(letters))
    missing = [letter for letter in letters if letter not in found]
    if extra or missing:
        parts = []
        if missing:
            parts.append(f"missing letter(s) {', '.join(missing)}")
        if extra:
            parts.append(f"unexpected symbol(s) {', '.join(map(repr, extra))}")
        return Verdict("WRONG", "bad_pieces", f"the square has {' and '.join(parts)}; "
                       f"pieces are A..{letters[-1]} in file order and empty cells are '.'",
                       {"missing": missing, "extra": extra})
    for letter, piece in zip(letters, pieces):
        cells = found[letter]
        if len(cells) != 4:
            return Verdict("WRONG", "bad_pieces",
                           f"piece {letter} shows {len(cells)} cells instead of 4 (overlap or a piece drawn twice)",
                           {"piece": letter, "cells": len(cells)})
        if normalize(cells) != piece.cells:
            return Verdict("WRONG", "bad_pieces", f"piece {letter} does not have its shape from the file "
                           f"({piece.picture().replace(chr(10), '/')}); pieces are never rotated or changed",
                           {"piece": letter})
    if actual.side != expected.side:
        comparison = "larger" if actual.side > expected.side else "smaller"
        return Verdict("WRONG", "not_minimal",
                       f"the square is {actual.side}x{actual.side} but the smallest square is "
                       f"{expected.side}x{expected.side} ({comparison} than minimal)",
                       {"actual_side": actual.side, "expected_side": expected.side})
    wanted = expected.cells_by_symbol()
    for letter in letters:
        at, should = _top_left(found[letter]), _top_left(wanted[letter])
        if at != should:
            return Verdict("WRONG", "not_upper_left",
                           f"piece {letter} is at row {at[0]}, column {at[1]}; the upper-left answer has it at "
                           f"row {should[0]}, column {should[1]}",
                           {"piece": letter, "actual": list(at), "expected": list(should)})
    return None


def _top_left(cells: list[tuple[int, int]]) -> tuple[int, int]:
    """1-based (row, column) of the top-left of the cells' bounding box: every message,
    report and grid counts rows and columns from 1."""
    return min(r for r, _ in cells) + 1, min(c for _, c in cells) + 1


def told_instead_of_error(actual: str, error_on_stderr: bool) -> str:
    """What a program that should have printed `error` did instead, as the end of a sentence
    ("printed nothing", "printed '4' instead of error"); every exercise's missed_error says it."""
    if not actual and error_on_stderr:
        return "printed error on stderr; it must go to stdout"
    if not actual:
        return "printed nothing"
    return f"printed {excerpt(actual)} instead of error"


def says_error(text: str) -> bool:
    """'error' give or take case and whitespace: the intent is right even if the text is not."""
    return text.strip().lower() == "error"


def excerpt(text: str, limit: int = 40) -> str:
    return repr(text if len(text) <= limit else text[:limit] + "...")


def _shape_of_text(text: str) -> str:
    if not text:
        return "it printed nothing"
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    widths = sorted({len(line) for line in lines})
    return f"it printed {len(lines)} line(s) of width {', '.join(map(str, widths[:5]))}: {excerpt(text)}"
