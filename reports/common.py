"""Pure helpers shared by every report format: counts, grids, palette, safe text.

Nothing here does I/O; every function is a function of its arguments only.
"""
from __future__ import annotations

import colorsys
import math
import re
import shlex
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from generators.cases import Case, UsageLine
from harness.grading.exercise import DEFAULT_EXERCISE, Exercise
from harness.grading.checker import square_rows
from harness.grading.grade import invocation
from harness.grading.model import VERDICTS, CaseResult, GradeReport

# Categories in the order a student meets them; unknown categories follow in order of appearance.
CATEGORY_ORDER: tuple[str, ...] = ("valid", "invalid", "usage", "errors", "large", "hard", "disputed")

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


# --------------------------------------------------------------------------- counts

def categories(results: Iterable[CaseResult]) -> list[str]:
    """Categories present in `results`: the known ones in CATEGORY_ORDER, then the others as met."""
    seen: list[str] = []
    for result in results:
        if result.case.category not in seen:
            seen.append(result.case.category)
    known = [c for c in CATEGORY_ORDER if c in seen]
    return known + [c for c in seen if c not in CATEGORY_ORDER]


def counts(report: GradeReport) -> dict[str, dict]:
    """{"by_verdict": {verdict: n} (every verdict, zeros included),
    "by_category": {category: {"cases", "passed", "failed", "by_verdict"}}}."""
    by_verdict = {v: 0 for v in VERDICTS}
    by_category: dict[str, dict] = {
        c: {"cases": 0, "passed": 0, "failed": 0, "by_verdict": {}} for c in categories(report.results)
    }
    for result in report.results:
        name = result.verdict.verdict
        by_verdict[name] = by_verdict.get(name, 0) + 1
        row = by_category[result.case.category]
        row["cases"] += 1
        row["passed" if result.passed else "failed"] += 1
        row["by_verdict"][name] = row["by_verdict"].get(name, 0) + 1
    return {"by_verdict": by_verdict, "by_category": by_category}


def first_failure_line(report: GradeReport) -> str:
    """The report's moulinette-style line, or one composed from the first failed case; "" if none."""
    if report.first_failure_line:
        return report.first_failure_line
    result = report.first_failure
    if result is None:
        return ""
    verdict = result.verdict
    reason = f" ({verdict.diagnosis})" if verdict.diagnosis else ""
    return f"First failure: {result.case.id}: {verdict.verdict}{reason}: {verdict.message}"


LEFT_OUT_NAMED = 10  # committed build products named in a report (all of them are in the JSON)


def left_out_line(build: Mapping[str, Any]) -> str:
    """The committed build products the repository copy left out, named; "" when none."""
    left_out = [str(path) for path in build.get("left_out") or ()]
    if not left_out:
        return ""
    more = f", +{len(left_out) - LEFT_OUT_NAMED} more" if len(left_out) > LEFT_OUT_NAMED else ""
    return ("left out of the copy, not graded (committed build products; the sources are built instead): "
            + ", ".join(left_out[:LEFT_OUT_NAMED]) + more)


def verdict_label(result: CaseResult) -> str:
    """"WRONG not_upper_left", "CRASH SIGSEGV", "OK"."""
    v = result.verdict
    return f"{v.verdict} {v.diagnosis}" if v.diagnosis else v.verdict


# --------------------------------------------------------------------------- formatting

def fmt_score(score: float) -> str:
    if not math.isfinite(score):
        return "?"
    return f"{score:.0f}" if float(score).is_integer() else f"{score:.1f}"


def fmt_seconds(seconds: float | None) -> str:
    if seconds is None or not math.isfinite(seconds):
        return "–"
    if seconds < 0.001:
        return "<1 ms"
    if seconds < 1:
        return f"{seconds * 1000:.0f} ms"
    if seconds < 100:
        return f"{seconds:.2f} s"
    return f"{seconds:.0f} s"


def fmt_kib(kib: int | None) -> str:
    if kib is None or kib <= 0:
        return "–"
    if kib < 1024:
        return f"{kib} KiB"
    if kib < 1024 * 1024:
        return f"{kib / 1024:.1f} MiB"
    return f"{kib / 1024 / 1024:.2f} GiB"


def fmt_bytes(n: int | float) -> str:
    n = int(n)
    for unit, size in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= size:
            value = n / size
            return f"{value:.0f} {unit}" if value.is_integer() else f"{value:.1f} {unit}"
    return f"{n} B"


INVOCATIONS: dict[str, str] = {
    "file": "./fillit input.fillit",
    "no_args": "./fillit",
    "two_args": "./fillit input.fillit input.fillit",
    "three_args": "./fillit input.fillit input.fillit input.fillit",
    "missing_file": "./fillit does-not-exist.fillit",
    "empty_path": './fillit ""',
    "directory": "./fillit a-directory",
    "unreadable": "./fillit input.fillit   (file not readable: mode 000)",
}


# The program's name in the commands shown for an exercise other than fillit.
SOLVER = "./solver"


def command_line(case: Case, exercise: Exercise | None = None) -> str:
    """How the program is run on the case, as a student would type it (None: fillit)."""
    if exercise is None or exercise.name == DEFAULT_EXERCISE:
        return INVOCATIONS.get(case.invocation, f"./fillit   ({case.invocation})")
    how = invocation(case, exercise)
    return shlex.join([SOLVER, *how.args]) + (f" < {exercise.input_name}" if how.stdin is not None else "")


def expected_summary(case: Case) -> str:
    """What the program should print, in words when it is not a literal text."""
    if isinstance(case.expected, UsageLine):
        return "one line starting with 'usage'"
    if case.expected == "error\n":
        return "error"
    return case.expected


# --------------------------------------------------------------------------- text

def cap(text: str, limit: int) -> tuple[str, bool]:
    """`text` cut to `limit` characters, and whether it was cut."""
    if len(text) <= limit:
        return text, False
    return text[:limit], True


def decode_input(data: bytes) -> tuple[str, bool]:
    """(text, exact): the bytes as UTF-8, or with undecodable bytes as `\\xNN` escapes (exact False)."""
    try:
        return data.decode("utf-8"), True
    except UnicodeDecodeError:
        return data.decode("utf-8", errors="backslashreplace"), False


# Characters XML 1.0 cannot hold at all (even escaped).
_XML_ILLEGAL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff\ud800-\udfff]")


def xml_safe(text: str) -> str:
    """`text` with characters XML 1.0 cannot carry shown as `^X` / `\\uXXXX`."""
    def repl(match: re.Match[str]) -> str:
        ch = match.group()
        return f"^{chr(ord(ch) + 64)}" if ord(ch) < 32 else f"\\u{ord(ch):04x}"
    return _XML_ILLEGAL.sub(repl, text)


@dataclass(frozen=True)
class Token:
    """A run of visible text; `kind` is "" (plain), "eol" ($), "ctl" (^M...), "space" (trailing blank)."""

    text: str
    kind: str = ""


@dataclass(frozen=True)
class Line:
    number: int
    tokens: tuple[Token, ...]
    mark: bool = False  # differs from the other side / the line a rule points at


def _visible_char(ch: str) -> Token | None:
    code = ord(ch)
    if ch == "\t":
        return Token("^I", "ctl")
    if code < 32:
        return Token(f"^{chr(code + 64)}", "ctl")
    if code == 0x7F:
        return Token("^?", "ctl")
    if 0x80 <= code < 0xA0 or ch in "\ufffe\uffff" or 0xD800 <= code <= 0xDFFF:
        return Token(f"\\u{code:04x}", "ctl")
    if ch == "\ufffd":
        return Token("\ufffd", "ctl")
    return None


def cat_e(text: str, max_lines: int = 60, max_width: int = 160) -> tuple[list[Line], bool]:
    """`text` as `cat -e` shows it: `$` at each line end, control characters as `^X`,
    blanks before `$` marked.  Returns the lines and whether anything was cut."""
    cut = False
    raw = text.split("\n")
    ends = [True] * (len(raw) - 1) + [False]
    if raw and raw[-1] == "":  # text ends with "\n" (or is empty): no last partial line
        raw.pop()
        ends.pop()
    if len(raw) > max_lines:
        raw, ends, cut = raw[:max_lines], ends[:max_lines], True
    lines: list[Line] = []
    for number, (line, has_end) in enumerate(zip(raw, ends), start=1):
        if len(line) > max_width:
            line, cut = line[:max_width], True
            has_end = False
        tail = len(line.rstrip(" \t\r"))  # blanks from here to the end are made visible
        tokens: list[Token] = []
        plain: list[str] = []
        for position, ch in enumerate(line):
            special = _visible_char(ch)
            if special is None and ch == " " and position >= tail:
                special = Token("\u00b7", "space")
            if special is None:
                plain.append(ch)
                continue
            if plain:
                tokens.append(Token("".join(plain)))
                plain = []
            if tokens and tokens[-1].kind == special.kind == "space":
                tokens[-1] = Token(tokens[-1].text + special.text, "space")
            else:
                tokens.append(special)
        if plain:
            tokens.append(Token("".join(plain)))
        if has_end:
            tokens.append(Token("$", "eol"))
        lines.append(Line(number, tuple(tokens)))
    return lines, cut


def mark_lines(lines: list[Line], other: list[Line]) -> list[Line]:
    """`lines` with the ones that differ from the same-numbered line of `other` marked."""
    return [
        Line(line.number, line.tokens, mark=(i >= len(other) or other[i].tokens != line.tokens))
        for i, line in enumerate(lines)
    ]


# --------------------------------------------------------------------------- grids

@dataclass(frozen=True)
class Grid:
    rows: tuple[str, ...]
    lenient: bool = False  # drawn after ignoring layout defects (spaces, blank lines, '\r', last '\n')

    @property
    def side(self) -> int:
        return len(self.rows)

    def at(self, row: int, col: int) -> str | None:
        if 0 <= row < len(self.rows) and 0 <= col < len(self.rows[row]):
            return self.rows[row][col]
        return None


MAX_GRID_SIDE = 64


def _drawable(rows: list[str] | None) -> bool:
    """A square the page can draw: not too large, no control character in a cell."""
    return rows is not None and 0 < len(rows) <= MAX_GRID_SIDE and not any(
        _visible_char(ch) for row in rows for ch in row)


def parse_grid(text: str) -> Grid | None:
    """The square drawn by `text`: exact (as the checker reads one: `square_rows`), else
    lenient (ignoring '\r', blanks, blank lines and a missing last '\n'), else None."""
    rows = square_rows(text)
    if rows is not None and _drawable(rows):
        return Grid(tuple(rows))
    kept = [line.replace("\r", "").replace(" ", "").replace("\t", "") for line in text.split("\n")]
    rows = square_rows("".join(f"{row}\n" for row in kept if row))
    if rows is not None and _drawable(rows):
        return Grid(tuple(rows), lenient=True)
    return None


# --------------------------------------------------------------------------- palette

def _palette() -> dict[str, str]:
    """A fixed colour per letter: hues spread by the golden angle, two lightness bands so
    neighbours in file order never look alike; always dark text on them."""
    colours = {}
    for i, letter in enumerate(LETTERS):
        hue = (i * 137.508 + 8) % 360 / 360
        light = (0.66, 0.78)[i % 2]
        sat = (0.72, 0.62)[i % 2]
        r, g, b = colorsys.hls_to_rgb(hue, light, sat)
        colours[letter] = f"#{round(r * 255):02x}{round(g * 255):02x}{round(b * 255):02x}"
    return colours


PALETTE: dict[str, str] = _palette()


def hex_to_rgb(colour: str) -> tuple[int, int, int]:
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)
