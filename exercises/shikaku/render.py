"""How reports draw a Shikaku input and an answer, as fixed-width text lines."""
from __future__ import annotations

from exercises.shikaku.puzzle import parse

_SHOWN_LINES = 40  # an invalid input is shown up to this many lines


def _visible(line: str) -> str:
    """A raw line with the characters a grader must see spelled out: tabs, carriage
    returns, other control characters, and spaces at the end."""
    shown = "".join(ch if ch.isprintable() and ch != "\t" else repr(ch)[1:-1] for ch in line)
    stripped = shown.rstrip(" ")
    return stripped + "·" * (len(shown) - len(stripped))


def input_lines(data: bytes) -> list[str]:
    """A valid puzzle as its grid ('.' for 0, the areas right-aligned); any other input
    as its raw lines, invisible characters spelled out ('\\t', '\\r', '\\x00', '·' for a
    space at the end of a line)."""
    parsed = parse(data)
    puzzle = parsed.puzzle
    if puzzle is not None and not parsed.disputed:
        cell = max(len(str(clue.area)) for clue in puzzle.clues)
        rows = [" ".join(str(area).rjust(cell) if area else ".".rjust(cell) for area in row) for row in puzzle.grid()]
        return [f"{puzzle.width} x {puzzle.height}, {len(puzzle.clues)} numbers", *rows]
    text = data.decode("utf-8", errors="replace")
    lines = text.split("\n")
    shown = [_visible(line) for line in lines[:_SHOWN_LINES]]
    if len(lines) > _SHOWN_LINES:
        shown.append(f"... ({len(lines) - _SHOWN_LINES} more lines)")
    if not data:
        return ["(empty input)"]
    if not text.endswith("\n"):
        shown[-1] += "  (no newline at the end)"
    else:
        shown.pop()
    return shown


def answer_lines(text: str) -> list[str]:
    """An expected or actual output, line by line, invisible characters spelled out."""
    if not text:
        return ["(nothing printed)"]
    lines = text.split("\n")
    shown = [_visible(line) for line in lines]
    if text.endswith("\n"):
        shown.pop()
    else:
        shown[-1] += "  (no newline at the end)"
    return shown
