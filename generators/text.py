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


def random_offset(shape: Shape, rng: random.Random) -> tuple[int, int]:
    return rng.randint(0, 4 - shape.height), rng.randint(0, 4 - shape.width)


def to_file(pieces: Sequence[Shape], rng: random.Random | None = None) -> bytes:
    """A valid file for `pieces`; each block at a random offset when `rng` is given, else top-left."""
    blocks = []
    for shape in pieces:
        row, col = random_offset(shape, rng) if rng else (0, 0)
        blocks.append("".join(line + "\n" for line in spell_block(shape, row, col)))
    return "\n".join(blocks).encode()
