"""Blocks of fillit files as lists of lines: valid ones at random offsets, the cell sets
broken ones are drawn from, and blocks broken in exactly one way.

Shared by the invalid-file builders; like them, these only call `randint`, `randrange`,
`choice`, `shuffle` and `random` on the `random.Random` they get (hypothesis drives them).
"""
from __future__ import annotations

import random
from collections.abc import Callable

from generators.text import random_offset, spell_block
from reference.parser import MAX_PIECES
from reference.shapes import SHAPES, Shape

Block = list[str]  # 4 lines (or a broken number of lines), without '\n'
Cell = tuple[int, int]


def random_block(rng: random.Random, shape: Shape | None = None) -> Block:
    shape = shape or rng.choice(SHAPES)
    return spell_block(shape, *random_offset(shape, rng))


def join(blocks: list[Block]) -> str:
    """Blocks as file text, separated by one empty line, each line ending in '\\n'."""
    return "\n".join("".join(line + "\n" for line in block) for block in blocks)


def random_blocks(rng: random.Random, low: int = 1, high: int = MAX_PIECES) -> list[Block]:
    return [random_block(rng) for _ in range(rng.randint(low, high))]


def with_broken_block(rng: random.Random, broken: Block) -> str:
    """`broken` at a random place among random valid blocks (1..26 blocks in all)."""
    blocks = random_blocks(rng, 0, MAX_PIECES - 1)
    blocks.insert(rng.randint(0, len(blocks)), broken)
    return join(blocks)


def block_where(rng: random.Random, accept: Callable[[Block], bool]) -> Block:
    """A random valid block satisfying `accept` (redrawn until it does)."""
    while True:
        block = random_block(rng)
        if accept(block):
            return block


def grid_block(cells: set[Cell]) -> Block:
    return ["".join("#" if (r, c) in cells else "." for c in range(4)) for r in range(4)]


def neighbours(cell: Cell, diagonal: bool = False) -> set[Cell]:
    r, c = cell
    steps = [(-1, 0), (1, 0), (0, -1), (0, 1)]
    if diagonal:
        steps += [(-1, -1), (-1, 1), (1, -1), (1, 1)]
    return {(r + dr, c + dc) for dr, dc in steps if 0 <= r + dr < 4 and 0 <= c + dc < 4}


def touching(cells: set[Cell], diagonal: bool) -> set[Cell]:
    """Cells outside `cells` touching one of them (by a side, or also by a corner)."""
    out: set[Cell] = set()
    for cell in cells:
        out |= neighbours(cell, diagonal)
    return out - cells


ALL_CELLS = sorted((r, c) for r in range(4) for c in range(4))

# The 6 fixed trominoes: a block with 3 edge-connected '#'.
TROMINOES: tuple[tuple[Cell, ...], ...] = (
    ((0, 0), (0, 1), (0, 2)),
    ((0, 0), (1, 0), (2, 0)),
    ((0, 0), (0, 1), (1, 0)),
    ((0, 0), (0, 1), (1, 1)),
    ((0, 0), (1, 0), (1, 1)),
    ((0, 1), (1, 0), (1, 1)),
)


def random_tromino(rng: random.Random) -> set[Cell]:
    cells = rng.choice(TROMINOES)
    height = max(r for r, _ in cells) + 1
    width = max(c for _, c in cells) + 1
    top, left = rng.randint(0, 4 - height), rng.randint(0, 4 - width)
    return {(top + r, left + c) for r, c in cells}


def cells_of(block: Block) -> set[Cell]:
    return {(r, c) for r, line in enumerate(block) for c, ch in enumerate(line) if ch == "#"}


def random_domino(rng: random.Random) -> set[Cell]:
    if rng.randrange(2):
        r, c = rng.randint(0, 3), rng.randint(0, 2)
        return {(r, c), (r, c + 1)}
    r, c = rng.randint(0, 2), rng.randint(0, 3)
    return {(r, c), (r + 1, c)}


# --- blocks broken in one way (each alone breaks one rule) --------------------------------

def long_line_block(rng: random.Random) -> Block:
    block = random_block(rng)
    lengthen(block, rng.randrange(4), rng)
    return block


def lengthen(block: Block, r: int, rng: random.Random) -> None:
    """One more '.' in line `r`, right of its last '#': the '#' keep their place."""
    at = rng.randint(block[r].rfind("#") + 1, 4)
    block[r] = block[r][:at] + "." + block[r][at:]


def tall_block(rng: random.Random) -> Block:
    block = random_block(rng)
    block.insert(rng.randint(0, 4), "....")
    return block


def three_hash_block(rng: random.Random) -> Block:
    return grid_block(random_tromino(rng))


def five_hash_block(rng: random.Random) -> Block:
    block = block_where(rng, lambda b: bool(touching(cells_of(b), diagonal=False)))
    cells = cells_of(block)
    cells.add(rng.choice(sorted(touching(cells, diagonal=False))))
    return grid_block(cells)


def corner_touching_block(rng: random.Random) -> Block:
    # Three connected '#' and a fourth touching them only by a corner.
    while True:
        cells = random_tromino(rng)
        corner_only = sorted(touching(cells, diagonal=True) - touching(cells, diagonal=False))
        if corner_only:
            cells.add(rng.choice(corner_only))
            return grid_block(cells)
