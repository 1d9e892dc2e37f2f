"""Invalid inputs by named category, and the disputed ones, reproducible from a seed.

Each invalid category breaks exactly ONE rule of docs/exercises/shikaku.md (a rule id of
exercises.shikaku.puzzle.RULES) in an otherwise valid puzzle of random size; the expected
output is `error`.  Each disputed category writes a valid puzzle with one blank-space
deviation (puzzle.DisputedId) that CodinGame-style readers read as the same numbers: the
expected output is the puzzle's answer, and `error` is also accepted.

Builders only call `randint`, `randrange`, `choice`, `shuffle` and `random` on the
`random.Random` they get, so hypothesis' `st.randoms()` can drive them too.
"""
from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from exercises.shikaku.puzzle import MAX_CLUES, MAX_SIDE, DisputedId, Puzzle, RuleId
from exercises.shikaku.random_tilings import clued, grown_tiling, random_tiling

Lines = list[str]  # an input file as text lines, without their '\n'


@dataclass(frozen=True)
class InvalidCategory:
    name: str
    rule: RuleId  # the rule the input breaks (the parser rejects it for this one)
    description: str
    build: Callable[[random.Random], bytes]


def base_puzzle(rng: random.Random, low: int = 3, high: int = 12) -> Puzzle:
    """A valid puzzle of random size (solutions not counted: only its text matters)."""
    width, height = rng.randint(low, high), rng.randint(low, high)
    tiling = random_tiling(width, height, rng, max(1, width * height // rng.randint(4, 9)))
    return clued(tiling, width, height, rng)


def _lines(puzzle: Puzzle) -> Lines:
    return puzzle.text().decode().splitlines()


def _text(lines: Lines) -> bytes:
    return "".join(line + "\n" for line in lines).encode()


def _edited(edit: Callable[[Lines, Puzzle, random.Random], Lines]) -> Callable[[random.Random], bytes]:
    """A builder: a random base puzzle's lines, edited."""
    def build(rng: random.Random) -> bytes:
        puzzle = base_puzzle(rng)
        return _text(edit(_lines(puzzle), puzzle, rng))
    return build


def _set_cell(lines: Lines, row: int, col: int, token: str) -> Lines:
    """`lines` with the number at grid row `row`, column `col` (0-based) replaced."""
    numbers = lines[row + 1].split(" ")
    numbers[col] = token
    return lines[:row + 1] + [" ".join(numbers)] + lines[row + 2:]


def _any_cell(puzzle: Puzzle, rng: random.Random) -> tuple[int, int]:
    return rng.randrange(puzzle.height), rng.randrange(puzzle.width)


def _a_clue(puzzle: Puzzle, rng: random.Random) -> tuple[int, int, int]:
    clue = rng.choice(puzzle.clues)
    return clue.row, clue.col, clue.area


def _a_blank(puzzle: Puzzle, rng: random.Random) -> tuple[int, int] | None:
    taken = {(clue.row, clue.col) for clue in puzzle.clues}
    blanks = [(r, c) for r in range(puzzle.height) for c in range(puzzle.width) if (r, c) not in taken]
    return rng.choice(blanks) if blanks else None


# --- one edit per category ------------------------------------------------------------

def _bad_token(tokens: tuple[str, ...]) -> Callable[[Lines, Puzzle, random.Random], Lines]:
    def edit(lines: Lines, puzzle: Puzzle, rng: random.Random) -> Lines:
        return _set_cell(lines, *_any_cell(puzzle, rng), rng.choice(tokens))
    return edit


def _negative(lines: Lines, puzzle: Puzzle, rng: random.Random) -> Lines:
    row, col, area = _a_clue(puzzle, rng)
    return _set_cell(lines, row, col, f"-{area}")


def _area_changed(delta: int) -> Callable[[Lines, Puzzle, random.Random], Lines]:
    def edit(lines: Lines, puzzle: Puzzle, rng: random.Random) -> Lines:
        row, col, area = _a_clue(puzzle, rng)
        return _set_cell(lines, row, col, str(area + delta if area + delta > 0 else area - delta))
    return edit


def _area_wraps(lines: Lines, puzzle: Puzzle, rng: random.Random) -> Lines:
    """An area plus 2^32: right again for a parser that keeps it in a 32-bit int."""
    row, col, area = _a_clue(puzzle, rng)
    return _set_cell(lines, row, col, str(area + 2 ** 32))


def _extra_clue(lines: Lines, puzzle: Puzzle, rng: random.Random) -> Lines:
    blank = _a_blank(puzzle, rng)
    if blank is None:  # every cell is a clue: make one area larger instead
        return _area_changed(1)(lines, puzzle, rng)
    return _set_cell(lines, *blank, str(rng.randint(1, 9)))


def _clue_removed(lines: Lines, puzzle: Puzzle, rng: random.Random) -> Lines:
    row, col, _ = _a_clue(puzzle, rng)
    return _set_cell(lines, row, col, "0")


def _row_number_removed(lines: Lines, puzzle: Puzzle, rng: random.Random) -> Lines:
    row = rng.randrange(puzzle.height) + 1
    numbers = lines[row].split(" ")
    del numbers[rng.randrange(len(numbers))]
    return lines[:row] + [" ".join(numbers)] + lines[row + 1:]


def _row_number_added(lines: Lines, puzzle: Puzzle, rng: random.Random) -> Lines:
    row = rng.randrange(puzzle.height) + 1
    numbers = lines[row].split(" ")
    numbers.insert(rng.randint(0, len(numbers)), "0")
    return lines[:row] + [" ".join(numbers)] + lines[row + 1:]


def _number_moved_to_next_row(lines: Lines, puzzle: Puzzle, rng: random.Random) -> Lines:
    """A row's last number moved to the start of the next: the count of numbers is right."""
    if puzzle.height < 2:
        return _row_number_removed(lines, puzzle, rng)
    row = rng.randrange(puzzle.height - 1) + 1
    upper, lower = lines[row].split(" "), lines[row + 1].split(" ")
    lower.insert(0, upper.pop())
    return lines[:row] + [" ".join(upper), " ".join(lower)] + lines[row + 2:]


def _blank_line_inside(lines: Lines, puzzle: Puzzle, rng: random.Random) -> Lines:
    at = rng.randint(2, puzzle.height) if puzzle.height >= 2 else 1
    return lines[:at] + [""] + lines[at:]


def _rows_dropped(lines: Lines, puzzle: Puzzle, rng: random.Random) -> Lines:
    return lines[:len(lines) - rng.randint(1, puzzle.height)]


def _header_only(lines: Lines, puzzle: Puzzle, rng: random.Random) -> Lines:
    return lines[:1]


def _extra_row(lines: Lines, puzzle: Puzzle, rng: random.Random) -> Lines:
    return lines + [" ".join("0" for _ in range(puzzle.width))]


def _trailing_text(lines: Lines, puzzle: Puzzle, rng: random.Random) -> Lines:
    return lines + [rng.choice(("end", "0", "#"))]


def _header(make: Callable[[Puzzle, random.Random], str]) -> Callable[[Lines, Puzzle, random.Random], Lines]:
    def edit(lines: Lines, puzzle: Puzzle, rng: random.Random) -> Lines:
        return [make(puzzle, rng)] + lines[1:]
    return edit


def _no_header(lines: Lines, puzzle: Puzzle, rng: random.Random) -> Lines:
    return lines[1:]


# --- whole files -----------------------------------------------------------------------

def _too_wide_or_tall(wide: bool) -> Callable[[random.Random], bytes]:
    """A grid one cell wider (or taller) than MAX_SIDE, otherwise valid."""
    def build(rng: random.Random) -> bytes:
        short = rng.randint(3, 8)
        width, height = (MAX_SIDE + 1, short) if wide else (short, MAX_SIDE + 1)
        return clued(random_tiling(width, height, rng, 20), width, height, rng).text()
    return build


def _zero_side(which: int) -> Callable[[random.Random], bytes]:
    def build(rng: random.Random) -> bytes:
        side = rng.randint(1, 10)
        width, height = (0, side) if which == 0 else (side, 0)
        rows = height if which == 0 else 0
        return _text([f"{width} {height}"] + [""] * rows)
    return build


def _too_many_clues(rng: random.Random) -> bytes:
    """53 to 60 clues that tile their grid: only their number is wrong."""
    while True:
        width, height = rng.randint(9, 14), rng.randint(9, 14)
        tiling = grown_tiling(width, height, rng, mean_area=rng.uniform(1.5, 2.2))
        if MAX_CLUES < len(tiling) <= MAX_CLUES + 8:
            return clued(tiling, width, height, rng).text()


_BAD_TOKENS = {
    "letter": ("x", "a", "O", "I", "?"),
    "decimal": ("1.5", "2.0", "0.0", ".5"),
    "plus_sign": ("+1", "+4", "+0"),
    "hex": ("0x4", "0x10", "0xA"),
    "non_ascii_digit": ("\u0663", "\u00b2", "\uff14"),  # Arabic-Indic 3, superscript 2, fullwidth 4
    "comma": ("0,", ",", "1,2"),
    "nul_byte": ("\x00", "0\x00", "\x001"),
}

INVALID_CATEGORIES: dict[str, InvalidCategory] = {
    category.name: category for category in (
        InvalidCategory("empty", "empty_input", "an empty input", lambda rng: b""),
        InvalidCategory("only_newlines", "empty_input", "only empty lines",
                        lambda rng: b"\n" * rng.randint(1, 4)),
        InvalidCategory("empty_first_line", "empty_input", "an empty line before the header",
                        _edited(lambda lines, p, rng: [""] + lines)),
        InvalidCategory("header_one_number", "header_fields", "the first line holds W only",
                        _edited(_header(lambda p, rng: str(p.width)))),
        InvalidCategory("header_three_numbers", "header_fields", "the first line holds three numbers",
                        _edited(_header(lambda p, rng: f"{p.width} {p.height} {rng.randint(0, 9)}"))),
        InvalidCategory("no_header", "header_fields", "the grid without its first line 'W H'",
                        _edited(_no_header)),
        InvalidCategory("header_letter", "header_not_integer", "W or H is a letter",
                        _edited(_header(lambda p, rng: rng.choice((f"{p.width} x", f"W {p.height}"))))),
        InvalidCategory("header_negative", "header_not_integer", "W written as a negative number",
                        _edited(_header(lambda p, rng: f"-{p.width} {p.height}"))),
        InvalidCategory("header_decimal", "header_not_integer", "W and H written as decimals",
                        _edited(_header(lambda p, rng: f"{p.width}.0 {p.height}.0"))),
        InvalidCategory("width_zero", "size_range", "W = 0", _zero_side(0)),
        InvalidCategory("height_zero", "size_range", "H = 0", _zero_side(1)),
        InvalidCategory("width_31", "size_range", f"W = {MAX_SIDE + 1}, a grid otherwise valid",
                        _too_wide_or_tall(True)),
        InvalidCategory("height_31", "size_range", f"H = {MAX_SIDE + 1}, a grid otherwise valid",
                        _too_wide_or_tall(False)),
        InvalidCategory("rows_missing", "missing_rows", "the last lines of the grid are missing",
                        _edited(_rows_dropped)),
        InvalidCategory("header_only", "missing_rows", "the first line alone", _edited(_header_only)),
        InvalidCategory("row_short", "row_length", "a line of the grid has one number too few",
                        _edited(_row_number_removed)),
        InvalidCategory("row_long", "row_length", "a line of the grid has one number too many",
                        _edited(_row_number_added)),
        InvalidCategory("number_on_next_row", "row_length",
                        "a line's last number starts the next line (W x H numbers in all)",
                        _edited(_number_moved_to_next_row)),
        InvalidCategory("blank_line_inside", "row_length", "an empty line between two lines of the grid",
                        _edited(_blank_line_inside)),
        *(InvalidCategory(f"cell_{kind}", "not_integer", f"a cell is not a number ({kind.replace('_', ' ')})",
                          _edited(_bad_token(tokens))) for kind, tokens in _BAD_TOKENS.items()),
        InvalidCategory("negative_area", "negative_area", "a clue's area written negative", _edited(_negative)),
        InvalidCategory("extra_row", "extra_rows", "one more line of numbers after the grid", _edited(_extra_row)),
        InvalidCategory("trailing_text", "extra_rows", "a line of text after the grid", _edited(_trailing_text)),
        InvalidCategory("area_plus_one", "area_sum", "one area one more than its rectangle",
                        _edited(_area_changed(1))),
        InvalidCategory("area_minus_one", "area_sum", "one area one less than its rectangle",
                        _edited(_area_changed(-1))),
        InvalidCategory("area_wraps_32_bits", "area_sum",
                        "one area 2^32 too large (right again if read into a 32-bit int)", _edited(_area_wraps)),
        InvalidCategory("extra_clue", "area_sum", "a clue more, in a cell that was 0", _edited(_extra_clue)),
        InvalidCategory("clue_removed", "area_sum", "a clue replaced by 0", _edited(_clue_removed)),
        InvalidCategory("too_many_clues", "too_many_clues",
                        f"{MAX_CLUES + 1} or more clues whose areas add up: more rectangles than letters",
                        _too_many_clues),
    )
}


@dataclass(frozen=True)
class DisputedCategory:
    name: DisputedId
    description: str
    write: Callable[[Lines, random.Random], bytes]  # a valid puzzle's lines -> the input


def _spaced(lines: Lines, rng: random.Random) -> bytes:
    row = rng.randrange(1, len(lines))
    gap = rng.choice(("  ", "\t", " \t", "   "))
    return _text(lines[:row] + [lines[row].replace(" ", gap)] + lines[row + 1:])


def _edged(lines: Lines, rng: random.Random) -> bytes:
    row = rng.randrange(len(lines))
    edged = rng.choice((" " + lines[row], lines[row] + " ", lines[row] + "\t", "\t" + lines[row] + " "))
    return _text(lines[:row] + [edged] + lines[row + 1:])


DISPUTED_CATEGORIES: dict[DisputedId, DisputedCategory] = {
    category.name: category for category in (
        DisputedCategory("spacing", "two spaces or a tab between the numbers of a line", _spaced),
        DisputedCategory("line_edges", "a space or a tab at the start or the end of a line", _edged),
        DisputedCategory("crlf", "every line ends in '\\r\\n'",
                         lambda lines, rng: "".join(line + "\r\n" for line in lines).encode()),
        DisputedCategory("final_newline", "no '\\n' after the last line",
                         lambda lines, rng: _text(lines)[:-1]),
        DisputedCategory("trailing_empty_lines", "one or two empty lines after the grid",
                         lambda lines, rng: _text(lines + [""] * rng.randint(1, 2))),
    )
}


def disputed_input(category: DisputedId, puzzle: Puzzle, rng: random.Random) -> bytes:
    return DISPUTED_CATEGORIES[category].write(_lines(puzzle), rng)
