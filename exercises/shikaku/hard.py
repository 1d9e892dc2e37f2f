"""Hard families: puzzles that need more than the seed's plain search.

  doomed     no solution, but plain search only finds out at the last row, after trying
             every tiling of two domino strips: Fibonacci(W + 1)^2 of them (about 10^10
             for W = 24).  A solver that checks that every clue can still fit somewhere
             (the seed's advice: detect early that a start leads to a dead end; here a
             clue has no possible rectangle from the start) answers `0` at once.
  thousands  MANY_MAX to THOUSANDS_MAX solutions (domino strips, exercises.shikaku.valid):
             all of them must be counted, and the first in sorted order kept.

Why no hard family with one solution: with at most 52 clues on at most 30 columns, every
construction we tried of a one-solution puzzle keeps plain search under about 10^6
placements (a second in C).  Plain search's blind spot is a clue that has become
impossible far from where the search stands, and only a puzzle without solution keeps
that clue impossible for every partial tiling.
"""
from __future__ import annotations

import random

from exercises.shikaku.puzzle import MAX_CLUES, Clue, Puzzle
from exercises.shikaku.random_tilings import puzzle_of, random_tiling
from exercises.shikaku.solver import solve
from exercises.shikaku.valid import MANY_MAX, with_strips

THOUSANDS_MAX = 10_000
DOOMED_MAX_WIDTH = (MAX_CLUES - 3) // 2  # two strips of W clues and 3 in the last row
_ATTEMPTS = 200


def doomed(width: int, rng: random.Random) -> Puzzle:
    """Two 2 x W strips of dominoes (clues on alternate rows, each strip's phase drawn)
    above a last row that cannot be tiled: a clue of area s + 1 at one end, a 1 at s
    cells from it, the rest for a clue at the other end.  The first clue's rectangle
    would hold the 1; any rectangle of two rows or more would hold a strip's clue."""
    if not 5 <= width <= DOOMED_MAX_WIDTH:
        raise ValueError(f"a doomed puzzle is 5 to {DOOMED_MAX_WIDTH} cells wide")
    clues = []
    for strip in range(2):
        phase = rng.randint(0, 1)
        clues += [Clue(2 * strip + (col + phase) % 2, col, 2) for col in range(width)]
    last = 4
    gap = rng.randint(2, width - 3)
    ends = [(0, 1), (width - 1, -1)]
    near, step = rng.choice(ends)
    far = width - 1 - near
    clues += [Clue(last, near, gap + 1), Clue(last, near + step * gap, 1), Clue(last, far, width - gap - 2)]
    return puzzle_of(width, last + 1, clues)


def thousands(width: int, height: int, rng: random.Random) -> Puzzle:
    """A puzzle with more than MANY_MAX solutions and at most THOUSANDS_MAX."""
    for _ in range(_ATTEMPTS):
        tiling = random_tiling(width, height, rng, max(1, min(MAX_CLUES - 20, width * height // 14)))
        puzzle = with_strips(tiling, width, height, rng, low=MANY_MAX, high=THOUSANDS_MAX)
        if MANY_MAX < solve(puzzle).count <= THOUSANDS_MAX:
            return puzzle
    raise RuntimeError(f"no puzzle of {width}x{height} with thousands of solutions in {_ATTEMPTS} draws")
