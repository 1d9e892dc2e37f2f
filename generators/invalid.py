"""Invalid fillit files by named category, reproducible from a seed.

Each category breaks exactly ONE rule of SPEC.md and keeps everything else valid: the broken
spot (block, line, column) is drawn at random and every other block is a random valid block
at a random offset.  Each category names the `reference.parser.RULES` key the parser must
reject it for (many categories map onto one rule).  The `several_*` categories stack defects
on purpose (generators.defects); their rule is the one the parser meets first.

Builders only call `randint`, `randrange`, `choice`, `shuffle` and `random` on the
`random.Random` they get, so hypothesis' `st.randoms()` can drive (and shrink) them too.
"""
from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from generators.blocks import (
    ALL_CELLS,
    Block,
    block_where,
    corner_touching_block,
    five_hash_block,
    grid_block,
    join,
    long_line_block,
    random_block,
    random_blocks,
    random_domino,
    random_tromino,
    tall_block,
    three_hash_block,
    touching,
    with_broken_block,
)
from generators.defects import cut_mid_line, first_lines, hash_3_and_5, lines_3_and_5, newline_as, several_broken_blocks
from generators.valid import greedy_pieces
from reference.parser import DISPUTED_TRAILING_EMPTY_LINE, MAX_PIECES

# About 1 MiB: big enough to overflow any fixed-size read buffer a student might use.
HUGE_SIZE = 1 << 20


@dataclass(frozen=True)
class InvalidCategory:
    name: str
    rule: str  # the reference.parser.RULES key the file must be rejected for
    description: str
    build: Callable[[random.Random], bytes]
    disputed: str | None = None  # set for a disputed case (SPEC.md): rejected by 42, accepted by the seed


# --- one builder per category -----------------------------------------------------------------

def _among_valid(broken: Callable[[random.Random], Block]) -> Callable[[random.Random], bytes]:
    """The block `broken` draws, at a random place among random valid blocks."""
    return lambda rng: with_broken_block(rng, broken(rng)).encode()


def _bad_char(alphabet: list[str], last_column: bool = True,
              replaced: Literal[".", "#"] = ".") -> Callable[[random.Random], bytes]:
    """A `replaced` character of a random block replaced by a character from `alphabet`.

    Replacing a '#' keeps 4 cells for a reader that takes anything but '.' for '#'."""
    columns = range(4 if last_column else 3)

    def spots(block: Block) -> list[tuple[int, int]]:
        return [(r, c) for r in range(4) for c in columns if block[r][c] == replaced]

    def build(rng: random.Random) -> bytes:
        block = block_where(rng, lambda b: bool(spots(b)))
        r, c = rng.choice(spots(block))
        block[r] = block[r][:c] + rng.choice(alphabet) + block[r][c + 1:]
        return with_broken_block(rng, block).encode("utf-8")
    return build


def _line_3_chars(rng: random.Random) -> bytes:
    # Drop a '.' to the right of the line's last '#': the other '#' keep their place.
    block = block_where(rng, lambda b: any(line.endswith(".") for line in b))
    r = rng.choice([r for r in range(4) if block[r].endswith(".")])
    block[r] = block[r][:3]
    return with_broken_block(rng, block).encode()






def _line_very_long(rng: random.Random) -> bytes:
    block = random_block(rng)
    r = rng.randrange(4)
    block[r] += "." * rng.randint(60, 5000)
    return with_broken_block(rng, block).encode()


def _block_3_lines(rng: random.Random) -> bytes:
    block = block_where(rng, lambda b: "...." in b)
    del block[rng.choice([r for r in range(4) if block[r] == "...."])]
    return with_broken_block(rng, block).encode()








def _hash_0(rng: random.Random) -> bytes:
    return with_broken_block(rng, ["...."] * 4).encode()


def _hash_many(rng: random.Random) -> bytes:
    cells = list(ALL_CELLS)
    rng.shuffle(cells)
    return with_broken_block(rng, grid_block(set(cells[: rng.randint(6, 16)]))).encode()




def _disconnected_isolated(rng: random.Random) -> bytes:
    # Three connected '#' and a fourth touching them nowhere, not even by a corner.
    while True:
        cells = random_tromino(rng)
        far = sorted(set(ALL_CELLS) - cells - touching(cells, diagonal=True))
        if far:
            cells.add(rng.choice(far))
            return with_broken_block(rng, grid_block(cells)).encode()


def _disconnected_dominoes(rng: random.Random) -> bytes:
    # Two dominoes that do not touch at all.
    while True:
        first, second = random_domino(rng), random_domino(rng)
        if not second & (first | touching(first, diagonal=True)):
            return with_broken_block(rng, grid_block(first | second)).encode()


def _disconnected_line_wrap(rng: random.Random) -> bytes:
    # Four '#' consecutive in the block read as one 16-character string, wrapping from the
    # end of a line to the start of the next: a classic "index +/- 1" adjacency bug.
    row, tail = rng.randint(0, 2), rng.randint(1, 3)
    cells = {(row, c) for c in range(4 - tail, 4)} | {(row + 1, c) for c in range(4 - tail)}
    return with_broken_block(rng, grid_block(cells)).encode()


def _separator_double(rng: random.Random) -> bytes:
    blocks = random_blocks(rng, 2)
    gap = rng.randint(1, len(blocks) - 1)
    return (join(blocks[:gap]) + "\n\n" + join(blocks[gap:])).encode()


def _separator_missing(rng: random.Random) -> bytes:
    # Two blocks glued together read as one 8-line block.
    blocks = random_blocks(rng, 2)
    gap = rng.randint(1, len(blocks) - 1)
    return (join(blocks[:gap]) + join(blocks[gap:])).encode()


def _leading_empty_line(rng: random.Random) -> bytes:
    return ("\n" + join(random_blocks(rng))).encode()


def _text_after_last_block(rng: random.Random) -> bytes:
    # 1 to 3 more lines of '#' and '.' after the last block, after an empty line or not:
    # either way a block that is not 4 lines high.
    extra = ["".join(rng.choice("#.") for _ in range(4)) for _ in range(rng.randint(1, 3))]
    separator = "\n" if rng.randrange(2) else ""
    return (join(random_blocks(rng)) + separator + "".join(line + "\n" for line in extra)).encode()


def _missing_final_newline(rng: random.Random) -> bytes:
    return join(random_blocks(rng))[:-1].encode()


def _crlf(rng: random.Random) -> bytes:
    return join(random_blocks(rng)).replace("\n", "\r\n").encode()


def _crlf_one_line(rng: random.Random) -> bytes:
    text = join(random_blocks(rng))
    ends = [i for i, ch in enumerate(text) if ch == "\n"]
    at = rng.choice(ends)
    return (text[:at] + "\r" + text[at:]).encode()


def _too_many_pieces(low: int, high: int) -> Callable[[random.Random], bytes]:
    def build(rng: random.Random) -> bytes:
        return join(random_blocks(rng, low, high)).encode()
    return build


def _huge_file(rng: random.Random) -> bytes:
    # A random pattern of valid blocks repeated to about 1 MiB (~50,000 blocks); repeating a
    # small pattern keeps the number of random draws small (hypothesis drives this too).
    pattern = random_blocks(rng, 1, MAX_PIECES)
    count = -(-HUGE_SIZE // 21)  # a block and its separator are 21 bytes
    return join([pattern[i % len(pattern)] for i in range(count)]).encode()


def _empty_file(rng: random.Random) -> bytes:
    return b""


def _only_newlines(rng: random.Random) -> bytes:
    return b"\n" * rng.randint(1, 8)


def _trailing_empty_lines(rng: random.Random) -> bytes:
    return (join(random_blocks(rng)) + "\n" * rng.randint(2, 5)).encode()


def _trailing_empty_line_single(rng: random.Random) -> bytes:
    # Greedy-feasible pieces: the seed's accepted answer must stay quick to find.
    pieces = greedy_pieces(rng.randint(1, MAX_PIECES), rng)
    return (join([random_block(rng, shape) for shape in pieces]) + "\n").encode()


_LETTERS = [chr(c) for c in range(ord("a"), ord("z") + 1)] + [chr(c) for c in range(ord("A"), ord("Z") + 1)]
_DIGITS = list("0123456789")
_NON_ASCII = ["é", "█", "·", "＃", "€", "░"]
# (name, what, alphabet) of each kind of bad character that may stand for a '#'.
_BAD_KINDS: tuple[tuple[str, str, list[str]], ...] = (
    ("letter", "a letter", _LETTERS), ("digit", "a digit", _DIGITS), ("space", "a space", [" "]),
    ("tab", "a tab", ["\t"]), ("comma", "a comma", [","]), ("nul", "a NUL byte", ["\x00"]),
    ("utf8", "a non-ASCII UTF-8 character", _NON_ASCII),
    # Not in the last column: '\r' right before '\n' would be a CRLF line end instead.
    ("cr", "a lone '\\r'", ["\r"]),
)

_CATEGORIES: tuple[InvalidCategory, ...] = (
    InvalidCategory("bad_char_letter", "char", "a letter instead of a '.'", _bad_char(_LETTERS)),
    InvalidCategory("bad_char_digit", "char", "a digit instead of a '.'", _bad_char(_DIGITS)),
    InvalidCategory("bad_char_space", "char", "a space instead of a '.'", _bad_char([" "])),
    InvalidCategory("bad_char_tab", "char", "a tab instead of a '.'", _bad_char(["\t"])),
    InvalidCategory("bad_char_comma", "char", "a comma instead of a '.'", _bad_char([","])),
    InvalidCategory("bad_char_nul", "char", "a NUL byte instead of a '.'", _bad_char(["\x00"])),
    InvalidCategory("bad_char_utf8", "char", "a non-ASCII UTF-8 character instead of a '.'",
                    _bad_char(_NON_ASCII)),
    # Not in the last column: '\r' right before '\n' would be a CRLF line end instead.
    InvalidCategory("bad_char_cr", "char", "a lone '\\r' inside a line instead of a '.'",
                    _bad_char(["\r"], last_column=False)),
    *(InvalidCategory(f"bad_hash_{kind}", "char", f"{what} instead of a '#' (the block keeps 3 '#')",
                      _bad_char(alphabet, last_column=kind != "cr", replaced="#"))
      for kind, what, alphabet in _BAD_KINDS),
    InvalidCategory("newline_as_space", "char", "a line's newline replaced by a space (the block keeps 20 bytes)",
                    newline_as(" ")),
    InvalidCategory("newline_as_tab", "char", "a line's newline replaced by a tab (the block keeps 20 bytes)",
                    newline_as("\t")),
    InvalidCategory("line_3_chars", "line_length", "a line of 3 characters", _line_3_chars),
    InvalidCategory("line_5_chars", "line_length", "a line of 5 characters", _among_valid(long_line_block)),
    InvalidCategory("line_very_long", "line_length", "a line of 64 to 5004 characters", _line_very_long),
    InvalidCategory("block_3_lines", "block_height", "a block of 3 lines (an empty row removed)",
                    _block_3_lines),
    InvalidCategory("block_5_lines", "block_height", "a block of 5 lines (an empty row added)",
                    _among_valid(tall_block)),
    InvalidCategory("hash_3", "hash_count", "a block with 3 connected '#'", _among_valid(three_hash_block)),
    InvalidCategory("hash_5", "hash_count", "a block with 5 connected '#'", _among_valid(five_hash_block)),
    InvalidCategory("hash_0", "hash_count", "a block without any '#'", _hash_0),
    InvalidCategory("hash_many", "hash_count", "a block with 6 to 16 '#'", _hash_many),
    InvalidCategory("disconnected_diagonal", "connectivity",
                    "4 '#', one touching the others only by a corner", _among_valid(corner_touching_block)),
    InvalidCategory("disconnected_dominoes", "connectivity", "4 '#' as two separate dominoes",
                    _disconnected_dominoes),
    InvalidCategory("disconnected_isolated", "connectivity", "4 '#', one far from the other three",
                    _disconnected_isolated),
    InvalidCategory("disconnected_line_wrap", "connectivity",
                    "4 '#' consecutive only when wrapping from a line's end to the next line",
                    _disconnected_line_wrap),
    InvalidCategory("separator_double", "separator", "two empty lines between two blocks",
                    _separator_double),
    InvalidCategory("separator_missing", "block_height", "no empty line between two blocks",
                    _separator_missing),
    InvalidCategory("leading_empty_line", "leading_empty_line", "an empty line before the first block",
                    _leading_empty_line),
    InvalidCategory("text_after_last_block", "block_height",
                    "1 to 3 lines of '#'/'.' after the last block", _text_after_last_block),
    InvalidCategory("missing_final_newline", "final_newline", "the last line has no '\\n'",
                    _missing_final_newline),
    InvalidCategory("crlf", "crlf", "every line ends with '\\r\\n'", _crlf),
    InvalidCategory("crlf_one_line", "crlf", "one line ends with '\\r\\n'", _crlf_one_line),
    InvalidCategory("too_many_pieces_27", "piece_count", "27 valid blocks", _too_many_pieces(27, 27)),
    InvalidCategory("too_many_pieces", "piece_count", "28 to 60 valid blocks", _too_many_pieces(28, 60)),
    InvalidCategory("huge_file", "piece_count", "about 1 MiB of valid blocks", _huge_file),
    InvalidCategory("one_line", "block_height", "a file of one line (the first of a block)", first_lines(1)),
    InvalidCategory("two_lines", "block_height", "a file of two lines (the first two of a block)", first_lines(2)),
    InvalidCategory("cut_mid_line", "final_newline", "a file cut inside a line (1 to 3 of its characters left)",
                    cut_mid_line),
    InvalidCategory("several_lines_3_and_5", "line_length",
                    "a line of 3 and a line of 5 characters in one block (still 20 bytes)", lines_3_and_5),
    InvalidCategory("several_hash_3_and_5", "hash_count",
                    "a block with 3 '#' and another with 5 (4 '#' per block on average)", hash_3_and_5),
    InvalidCategory("several_broken_blocks", "connectivity",
                    "a block whose '#' touch only by a corner, then 1 to 3 blocks broken otherwise",
                    several_broken_blocks),
    InvalidCategory("empty_file", "empty", "an empty file", _empty_file),
    InvalidCategory("only_newlines", "empty", "a file of 1 to 8 newlines", _only_newlines),
    InvalidCategory("trailing_empty_lines", "trailing_empty_line", "2 to 5 empty lines after the last block",
                    _trailing_empty_lines),
    InvalidCategory("trailing_empty_line_single", "trailing_empty_line",
                    "one empty line after the last block (disputed: error for 42, valid for the seed)",
                    _trailing_empty_line_single, disputed=DISPUTED_TRAILING_EMPTY_LINE),
)

INVALID_CATEGORIES: dict[str, InvalidCategory] = {category.name: category for category in _CATEGORIES}

# Categories whose file is invalid for every implementation (the disputed one is not).
STRICT_CATEGORIES: tuple[str, ...] = tuple(c.name for c in _CATEGORIES if c.disputed is None)


def invalid_file(category: str, seed: int | str) -> bytes:
    """The file of `category` for `seed`; same arguments, same bytes."""
    if category not in INVALID_CATEGORIES:
        raise ValueError(f"unknown invalid category {category!r}; see fillit-gen --list")
    return INVALID_CATEGORIES[category].build(random.Random(seed))
