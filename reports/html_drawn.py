"""The HTML report's drawings of another exercise than fillit: its puzzle and answers as the
exercise draws them (Render), as numbered text lines; boards whose numbers are colours
painted (Render.colour_numbers)."""
from __future__ import annotations

import re

from harness.grading.exercise import Render
from reports.common import Line, Token
from reports.html_grids import Panel


def plain_lines(lines: list[str], marked: frozenset[int] = frozenset()) -> tuple[Line, ...]:
    return tuple(Line(number, (Token(text),), number in marked) for number, text in enumerate(lines, start=1))


def answer_drawings(render: Render, puzzle: bytes | None, answers: list[tuple[str, str | None]]) -> list[Panel]:
    """Each answer drawn against the puzzle, when the exercise draws answers and can draw it."""
    if render.answer_drawing is None or puzzle is None:
        return []
    panels = []
    for title, answer in answers:
        drawn = render.answer_drawing(puzzle, answer) if answer is not None else None
        if drawn is not None:
            lines = _coloured_lines(drawn) if render.colour_numbers else plain_lines(drawn)
            panels.append(Panel(title, lines=lines))
    return panels


# A colour number, a PIECE/ROTATION pair (not a colour), or a mismatch mark.
_DRAWING_TOKEN = re.compile(r"(\d+/\d+)|(\d+)|(!)")
DRAWING_COLOURS = 12  # colour n is painted as palette entry n mod 12 (colour 0: the border, grey)


def _coloured_lines(lines: list[str]) -> tuple[Line, ...]:
    """A drawing whose bare numbers are colours: each painted (class `colour cN`), each '!'
    marked as a mismatch (class `mismatch`), lines with a mismatch marked."""
    out = []
    for number, text in enumerate(lines, start=1):
        tokens: list[Token] = []
        position = 0
        for found in _DRAWING_TOKEN.finditer(text):
            if found.start() > position:
                tokens.append(Token(text[position:found.start()]))
            pair, colour, bang = found.groups()
            if colour is not None:
                tokens.append(Token(colour, f"colour c{int(colour) % DRAWING_COLOURS}"))
            else:
                tokens.append(Token(pair or bang, "" if pair else "mismatch"))
            position = found.end()
        if position < len(text):
            tokens.append(Token(text[position:]))
        out.append(Line(number, tuple(tokens), "!" in text))
    return tuple(out)
