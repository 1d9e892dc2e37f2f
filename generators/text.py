"""Spelling pieces as fillit file text."""
from __future__ import annotations

import random
from collections.abc import Sequence

from reference.shapes import Shape


def spell_block(shape: Shape, row: int = 0, col: int = 0) -> list[str]:
    """The 4 lines of a block holding `shape` with its bounding box at (row, col)."""
    if row + shape.height > 4 or col + shape.width > 4:
        raise ValueError(f"{shape.name} does not fit in a 4x4 block at ({row}, {col})")
    grid = [["."] * 4 for _ in range(4)]
    for r, c in shape.cells:
        grid[row + r][col + c] = "#"
    return ["".join(line) for line in grid]


Offset = tuple[int, int]  # (row, col) of a shape's bounding box inside its 4x4 block


def random_offset(shape: Shape, rng: random.Random) -> Offset:
    return rng.randint(0, 4 - shape.height), rng.randint(0, 4 - shape.width)


def bottom_right(shape: Shape) -> Offset:
    """The offset that pushes `shape` into the bottom-right corner of its block."""
    return 4 - shape.height, 4 - shape.width


def to_file(pieces: Sequence[Shape], rng: random.Random | None = None) -> bytes:
    """A valid file for `pieces`; each block at a random offset when `rng` is given, else top-left."""
    return to_file_at([(shape, random_offset(shape, rng) if rng else (0, 0)) for shape in pieces])


def to_file_at(placed: Sequence[tuple[Shape, Offset]]) -> bytes:
    """A valid file of these blocks, each shape at its own offset inside its block."""
    blocks = ["".join(line + "\n" for line in spell_block(shape, *offset)) for shape, offset in placed]
    return "\n".join(blocks).encode()
