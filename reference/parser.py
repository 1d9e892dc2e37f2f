"""Validate a fillit input file and extract its pieces.

`parse` either returns the pieces or names the first rule of SPEC.md the file
breaks, with the block and line where it happens.  Rule identifiers are stable:
generators, the checker and the reports use them.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass, field

from reference.shapes import Shape, shape_of

MAX_PIECES = 26

# Rule id -> the sentence a student reads.
RULES: dict[str, str] = {
    "empty": "the file holds no block",
    "char": "only '#', '.' and newline characters are allowed",
    "crlf": "lines must end with '\\n' alone, not '\\r\\n'",
    "final_newline": "the last line must end with '\\n'",
    "leading_empty_line": "the file must not start with an empty line",
    "separator": "blocks are separated by exactly one empty line",
    "trailing_empty_line": "nothing may follow the last block (one trailing empty line is disputed)",
    "block_height": "a block is exactly 4 lines",
    "line_length": "a line of a block is exactly 4 characters",
    "hash_count": "a block holds exactly 4 '#'",
    "connectivity": "the 4 '#' of a block must touch by their sides",
    "piece_count": f"a file holds 1 to {MAX_PIECES} blocks",
}

# Disputed cases (SPEC.md): accepted by the seed, rejected by the 42 behaviour.
DISPUTED_TRAILING_EMPTY_LINE = "trailing_empty_line"


@dataclass(frozen=True)
class Rejection:
    rule: str  # a key of RULES
    message: str  # precise: where and what
    block: int | None = None  # 1-based
    line: int | None = None  # 1-based line of the file

    def __str__(self) -> str:
        return self.message


@dataclass(frozen=True)
class Parsed:
    """The outcome of parsing: pieces, or the rule the file breaks.

    `disputed` names disputed rules the file relies on (for now only a single
    trailing empty line).  Such a file has pieces *and* a rejection: the
    rejection is what the 42 behaviour does, the pieces what the seed does.
    """

    pieces: tuple[Shape, ...] = ()
    rejection: Rejection | None = None
    disputed: tuple[str, ...] = field(default=())

    @property
    def valid(self) -> bool:
        """Valid under the strict (42) behaviour."""
        return self.rejection is None

    def valid_under(self, accept_disputed: bool) -> bool:
        if self.rejection is None:
            return True
        return accept_disputed and self.rejection.rule in self.disputed


def _reject(rule: str, detail: str, block: int | None = None, line: int | None = None) -> Parsed:
    where = []
    if block is not None:
        where.append(f"block {block}")
    if line is not None:
        where.append(f"line {line}")
    prefix = f"{', '.join(where)}: " if where else ""
    return Parsed(rejection=Rejection(rule, f"{prefix}{detail} ({RULES[rule]})", block, line))


def _first_bad_char(data: bytes) -> tuple[int, int] | None:
    """(offset, byte) of the first byte outside '#', '.', '\\n'."""
    for offset, byte in enumerate(data):
        if byte not in b"#.\n":
            return offset, byte
    return None


def parse(data: bytes) -> Parsed:
    """Parse a whole fillit file (bytes, exactly as read from disk).

    One function on purpose (68 lines): it reads like the subject's rules, top to bottom,
    each rejection raised where the rule is checked, so the order of the checks (which rule
    a file with several defects is rejected by) is visible in one place."""
    if not data.strip(b"\n"):
        return _reject("empty", "no block found" if data else "the file is empty")
    bad = _first_bad_char(data)
    if bad is not None:
        offset, byte = bad
        bad_line = data.count(b"\n", 0, offset) + 1
        if byte == 0x0D and data[offset + 1 : offset + 2] == b"\n":
            return _reject("crlf", "line ends with '\\r\\n'", line=bad_line)
        return _reject("char", f"unexpected byte {bytes([byte])!r}", line=bad_line)
    if not data.endswith(b"\n"):
        return _reject("final_newline", "missing '\\n' at the end", line=data.count(b"\n") + 1)

    lines = data[:-1].split(b"\n")
    if lines[0] == b"":
        return _reject("leading_empty_line", "empty line before the first block", line=1)

    # Empty lines at the end are judged after the blocks themselves.
    trailing = len(lines) - len(lines_body := _without_trailing_empty(lines))

    # Group lines into blocks, remembering each block's first file line.
    blocks: list[tuple[int, list[bytes]]] = []
    current: list[bytes] = []
    start = 1
    previous_empty = False
    for number, line in enumerate(lines_body, start=1):
        if line == b"":
            if previous_empty:
                return _reject("separator", "two empty lines in a row", block=len(blocks) + 1, line=number)
            previous_empty = True
            blocks.append((start, current))
            current = []
            continue
        if not current:
            start = number
        previous_empty = False
        current.append(line)
    blocks.append((start, current))

    for index, (first_line, rows) in enumerate(blocks, start=1):
        if len(rows) != 4:
            return _reject("block_height", f"{len(rows)} lines instead of 4", block=index, line=first_line)
        for offset, row in enumerate(rows):
            if len(row) != 4:
                return _reject(
                    "line_length", f"{len(row)} characters instead of 4", block=index, line=first_line + offset
                )
        hashes, shape = _block_shape(b"".join(rows))
        if hashes != 4:
            return _reject("hash_count", f"{hashes} '#' instead of 4", block=index, line=first_line)
        if shape is None:
            return _reject("connectivity", "the '#' are not edge-connected", block=index, line=first_line)

    if len(blocks) > MAX_PIECES:
        return _reject("piece_count", f"{len(blocks)} blocks", block=MAX_PIECES + 1, line=blocks[MAX_PIECES][0])

    shapes = [_block_shape(b"".join(rows))[1] for _, rows in blocks]
    pieces = tuple(shape for shape in shapes if shape is not None)  # (every block was checked above)
    if trailing >= 2:
        return _reject("trailing_empty_line", f"{trailing} empty lines after the last block", line=len(lines))
    if trailing == 1:
        rejected = _reject(
            "trailing_empty_line", "one empty line after the last block", block=len(blocks), line=len(lines)
        )
        return Parsed(pieces=pieces, rejection=rejected.rejection, disputed=(DISPUTED_TRAILING_EMPTY_LINE,))
    return Parsed(pieces=pieces)


@functools.lru_cache(maxsize=1024)
def _block_shape(block: bytes) -> tuple[int, Shape | None]:
    """A 4x4 block (its 16 bytes, row after row): how many '#' it has, and the shape they
    form (None: not four edge-connected cells). Cached: a file repeats its blocks, and a
    suite its files (a pure function of 16 bytes; at most 1024 kept)."""
    cells = [divmod(i, 4) for i, ch in enumerate(block) if ch == 0x23]
    return len(cells), shape_of(cells) if len(cells) == 4 else None


def _without_trailing_empty(lines: list[bytes]) -> list[bytes]:
    end = len(lines)
    while end and lines[end - 1] == b"":
        end -= 1
    return lines[:end]
