"""Invalid-file builders for broken layouts and stacked defects: files cut short, newlines
turned into blanks, and several defects in one file (some that hide each other from a
reader that only counts bytes or '#').

Same contract as `generators.invalid` (which names these categories): only `randint`,
`randrange`, `choice`, `shuffle` and `random` are called on the `random.Random` given.
"""
from __future__ import annotations

import random
from collections.abc import Callable

from generators.blocks import (
    Block,
    block_where,
    corner_touching_block,
    five_hash_block,
    join,
    lengthen,
    long_line_block,
    random_blocks,
    tall_block,
    three_hash_block,
)
from generators.text import spell_block
from reference.parser import MAX_PIECES
from reference.shapes import SHAPES

# Blocks that may follow the first broken block of a several-defects file.
_LATER_DEFECTS = (five_hash_block, three_hash_block, long_line_block, tall_block, corner_touching_block)


def first_lines(count: int) -> Callable[[random.Random], bytes]:
    """A file of the first `count` (1..3) lines of a block whose shape starts on its first
    line (so the file holds '#'), each line ending in '\\n'."""
    def build(rng: random.Random) -> bytes:
        shape = rng.choice(SHAPES)
        block = spell_block(shape, 0, rng.randint(0, 4 - shape.width))
        return "".join(line + "\n" for line in block[:count]).encode()
    return build


def cut_mid_line(rng: random.Random) -> bytes:
    """A valid file cut inside a line: its last line keeps 1 to 3 of its 4 characters."""
    text = join(random_blocks(rng))
    starts = [0] + [i + 1 for i in range(len(text) - 1) if text[i] == "\n" and text[i + 1] != "\n"]
    return text[: rng.choice(starts) + rng.randint(1, 3)].encode()


def newline_as(blank: str) -> Callable[[random.Random], bytes]:
    """One line end of a block replaced by `blank`: the block keeps its 20 bytes."""
    def build(rng: random.Random) -> bytes:
        text = join(random_blocks(rng))
        line_ends = [i for i, ch in enumerate(text) if ch == "\n" and text[i - 1] != "\n"]
        at = rng.choice(line_ends)
        return (text[:at] + blank + text[at + 1:]).encode()
    return build


def lines_3_and_5(rng: random.Random) -> bytes:
    """In one block, a line of 3 characters and another of 5: still 20 bytes and 4 '#'."""
    block = block_where(rng, lambda b: any(line.endswith(".") for line in b))
    short = rng.choice([r for r in range(4) if block[r].endswith(".")])
    lengthen(block, rng.choice([r for r in range(4) if r != short]), rng)
    block[short] = block[short][:3]
    return _among_valid(rng, [block])


def hash_3_and_5(rng: random.Random) -> bytes:
    """A block of 3 '#' and another of 5: as many '#' in the file as if both held 4."""
    return _among_valid(rng, [three_hash_block(rng), five_hash_block(rng)])


def several_broken_blocks(rng: random.Random) -> bytes:
    """A block whose 4th '#' touches the others only by a corner, then 1 to 3 more broken
    blocks of other kinds after it (so the first defect is always the corner)."""
    later = [rng.choice(_LATER_DEFECTS)(rng) for _ in range(rng.randint(1, 3))]
    blocks = random_blocks(rng, 0, MAX_PIECES - 1 - len(later))
    first = rng.randint(0, len(blocks))
    blocks.insert(first, corner_touching_block(rng))
    for broken in later:
        blocks.insert(rng.randint(first + 1, len(blocks)), broken)
    return join(blocks).encode()


def _among_valid(rng: random.Random, broken: list[Block]) -> bytes:
    """The `broken` blocks, each at a random place among random valid blocks (26 at most)."""
    blocks = random_blocks(rng, 0, MAX_PIECES - len(broken))
    for block in broken:
        blocks.insert(rng.randint(0, len(blocks)), block)
    return join(blocks).encode()
