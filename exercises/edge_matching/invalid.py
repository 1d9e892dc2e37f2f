"""Invalid puzzle files, one category per way of breaking a rule of puzzle.RULES.

    data = INVALID_CATEGORIES["piece_missing"].build(random.Random(1))
    parse(data).rejection.rule             # "piece_count"

Each file starts from a valid puzzle (generate.solvable, 2 to 5 cells a side) and breaks one
rule in one place; suites.py checks that the parser rejects it for that rule.
"""
from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from exercises.edge_matching.generate import solvable
from exercises.edge_matching.puzzle import MAX_SIDE, Puzzle


@dataclass(frozen=True)
class InvalidCategory:
    rule: str  # puzzle.RULES id the file breaks
    description: str
    build: Callable[[random.Random], bytes]


def _base(rng: random.Random, framed: bool | None = None) -> Puzzle:
    framed = rng.random() < 0.7 if framed is None else framed
    puzzle, _ = solvable(rng.randint(2, 5), rng.randint(2, 5), rng.randint(2, 6), framed, rng)
    return puzzle


def _lines(rng: random.Random, framed: bool | None = None) -> list[bytes]:
    return _base(rng, framed).text()[:-1].split(b"\n")


def _join(lines: list[bytes]) -> bytes:
    return b"\n".join(lines) + b"\n"


def _edit_piece(rng: random.Random, edit: Callable[[list[bytes], random.Random], list[bytes]],
                framed: bool | None = None) -> bytes:
    lines = _lines(rng, framed)
    k = rng.randrange(1, len(lines))
    lines[k] = b" ".join(edit(lines[k].split(b" "), rng))
    return _join(lines)


def _set(position: int | None, value: bytes) -> Callable[[list[bytes], random.Random], list[bytes]]:
    def edit(tokens: list[bytes], rng: random.Random) -> list[bytes]:
        tokens[rng.randrange(4) if position is None else position] = value
        return tokens
    return edit


def _with_header(header: bytes) -> Callable[[random.Random], bytes]:
    return lambda rng: _join([header, *_lines(rng)[1:]])


def _sized(rows: int, cols: int) -> Callable[[random.Random], bytes]:
    return lambda rng: _join([f"{rows} {cols}".encode()] + [b"1 1 1 1"] * max(0, rows * cols))


def _missing(rng: random.Random) -> bytes:
    lines = _lines(rng)
    del lines[rng.randrange(1, len(lines))]
    return _join(lines)


def _extra(rng: random.Random) -> bytes:
    lines = _lines(rng)
    return _join(lines + [rng.choice(lines[1:])])


def _zeros_off(rng: random.Random) -> bytes:
    """A framed puzzle with one border side recoloured (one 0 too few), or a free one
    with one inner side made 0."""
    framed = rng.random() < 0.5
    lines = _lines(rng, framed)
    k = next(i for i in rng.sample(range(1, len(lines)), len(lines) - 1) if (b"0" in lines[i].split(b" ")) == framed)
    tokens = lines[k].split(b" ")
    slot = tokens.index(b"0") if framed else rng.randrange(4)
    tokens[slot] = b"1" if framed else b"0"
    lines[k] = b" ".join(tokens)
    return _join(lines)


def _layout(change: Callable[[bytes, random.Random], bytes]) -> Callable[[random.Random], bytes]:
    return lambda rng: change(_base(rng).text(), rng)


def _at_random_line(data: bytes, rng: random.Random, change: Callable[[bytes], bytes]) -> bytes:
    lines = data[:-1].split(b"\n")
    k = rng.randrange(len(lines))
    lines[k] = change(lines[k])
    return _join(lines)


INVALID_CATEGORIES: dict[str, InvalidCategory] = {spec.description.split(":")[0]: spec for spec in (
    InvalidCategory("empty", "empty: an empty file", lambda rng: b""),
    InvalidCategory("layout", "no_final_newline: the last line does not end with '\\n'",
                    _layout(lambda data, rng: data[:-1])),
    InvalidCategory("layout", "crlf: lines end with '\\r\\n'", _layout(lambda data, rng: data.replace(b"\n", b"\r\n"))),
    InvalidCategory("layout", "double_space: two spaces between two numbers",
                    _layout(lambda data, rng: _at_random_line(data, rng, lambda line: line.replace(b" ", b"  ", 1)))),
    InvalidCategory("layout", "trailing_space: a space at the end of a line",
                    _layout(lambda data, rng: _at_random_line(data, rng, lambda line: line + b" "))),
    InvalidCategory("layout", "empty_line: an empty line after the header",
                    _layout(lambda data, rng: data.replace(b"\n", b"\n\n", 1))),
    InvalidCategory("layout", "tab: a tab between two numbers",
                    _layout(lambda data, rng: _at_random_line(data, rng, lambda line: line.replace(b" ", b"\t", 1)))),
    InvalidCategory("number", "letter: a colour that is a letter", lambda rng: _edit_piece(rng, _set(None, b"x"))),
    InvalidCategory("number", "negative: a colour written -1", lambda rng: _edit_piece(rng, _set(None, b"-1"))),
    InvalidCategory("number", "leading_zero: a colour written 07", lambda rng: _edit_piece(rng, _set(None, b"07"))),
    InvalidCategory("number", "plus_sign: a colour written +3", lambda rng: _edit_piece(rng, _set(None, b"+3"))),
    InvalidCategory("header", "header_one_number: the first line holds one number", _with_header(b"3")),
    InvalidCategory("header", "header_three_numbers: the first line holds three numbers", _with_header(b"2 2 2")),
    InvalidCategory("size", "size_zero: 0 rows", _sized(0, 3)),
    InvalidCategory("size", f"size_{MAX_SIDE + 1}: {MAX_SIDE + 1} columns", _sized(2, MAX_SIDE + 1)),
    InvalidCategory("piece_count", "piece_missing: one piece line less than rows x columns", _missing),
    InvalidCategory("piece_count", "piece_extra: one piece line more than rows x columns", _extra),
    InvalidCategory("piece_sides", "three_sides: a piece of three colours",
                    lambda rng: _edit_piece(rng, lambda tokens, r: tokens[:3])),
    InvalidCategory("piece_sides", "five_sides: a piece of five colours",
                    lambda rng: _edit_piece(rng, lambda tokens, r: tokens + [tokens[0]])),
    InvalidCategory("colour", "colour_100: a colour above 99", lambda rng: _edit_piece(rng, _set(None, b"100"))),
    InvalidCategory("border_count", "border_count: colour 0 on one side too few or too many", _zeros_off),
)}
