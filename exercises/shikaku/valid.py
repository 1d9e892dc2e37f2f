"""Valid puzzles by family, drawn from a `random.Random` until they are what they say.

  unique   exactly one solution
  many     2 to MANY_MAX solutions: some rectangles 2 cells wide are cut into dominoes
           whose clues alternate sides, every tiling of the strip being a solution
  none     no solution at all (the areas add up, the geometry does not): the answer is `0`
  letters  exactly 52 rectangles, so the drawing needs every letter, a-z included

Every puzzle of these families is easy for the seed's plain search (at most EASY_TRIES
rectangles placed to find all its solutions, exercises.shikaku.plain): a correct solver
without pruning never times out on them.  The hard families are apart (exercises.shikaku
.hard).  Draws that miss are thrown away and drawn again from the same `Random`, so a
puzzle depends on its seed only.
"""
from __future__ import annotations

import math
import random
from collections.abc import Callable
from typing import Literal

from exercises.shikaku.plain import plain_tries
from exercises.shikaku.geometry import Rect
from exercises.shikaku.puzzle import MAX_CLUES, Clue, Puzzle, parse
from exercises.shikaku.random_tilings import clued, domino_strip, puzzle_of, random_tiling
from exercises.shikaku.solver import solve

Family = Literal["unique", "many", "none", "letters"]

# Rectangles plain search may place on a suite puzzle outside the hard families: about
# 3 ms for the seed's algorithm in C, 0.5 s in Python (docs/exercises/shikaku.md).
EASY_TRIES = 20_000
MANY_MAX = 2_000  # every solver enumerates the solutions; thousands stay quick
_ATTEMPTS = 400

# The seed's 10x10 example ("test01.txt"; CodinGame's first test): 1 solution.
SEED_EXAMPLE = b"""10 10
0 0 0 0 0 0 0 0 9 0
0 0 0 0 0 9 0 0 0 0
0 0 0 0 0 0 0 0 0 0
0 20 0 0 8 0 0 0 6 0
0 0 0 0 0 0 0 0 0 0
0 0 0 6 0 0 6 0 0 0
10 0 0 0 0 0 0 0 0 0
0 0 0 0 0 0 0 0 0 0
0 0 6 0 6 0 0 0 8 0
0 0 0 0 0 0 6 0 0 0
"""
SEED_EXAMPLE_ANSWER = """1
AAAABBBCCC
AAAABBBCCC
AAAABBBCCC
AAAADDDDEE
AAAADDDDEE
FFGGGHHHEE
FFGGGHHHII
FFJJKKLLII
FFJJKKLLII
FFJJKKLLII
"""
# The seed's "Test 3" (20x20): 32 solutions; plain search places 44405 rectangles, the
# seed says, and so does exercises.shikaku.plain.
SEED_TEST_3 = b"""20 20
0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0
0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 8 0
0 0 0 0 0 0 0 0 0 0 0 0 65 0 0 0 0 0 0 0
0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 8 0 0 0
0 0 0 0 0 0 0 0 0 0 0 0 0 0 15 0 0 0 0 0
18 0 0 0 0 0 0 0 0 9 0 0 0 6 0 0 0 0 0 6
0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 6 0 0
0 0 0 0 0 0 0 8 0 0 0 0 0 0 0 6 8 0 0 0
10 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0
0 0 0 0 0 8 0 6 0 0 8 0 0 6 0 0 0 0 0 0
8 0 0 0 0 0 0 0 0 0 0 6 0 0 0 6 0 0 0 8
0 0 0 0 0 0 0 0 0 0 0 6 0 0 0 0 0 0 0 0
0 0 0 0 0 0 0 6 0 0 6 0 0 0 6 0 0 0 12 0
0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0
0 0 0 16 0 0 10 0 0 0 0 0 6 0 0 0 0 0 0 0
9 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0
0 0 0 0 0 0 0 0 0 6 0 0 0 0 0 8 0 0 0 0
0 0 0 0 0 9 0 9 0 0 0 0 0 6 0 0 8 0 8 0
0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 6 0
0 0 0 0 0 0 26 0 0 0 0 0 0 8 0 0 0 0 0 0
"""
SEED_TEST_3_COUNT = 32
SEED_TEST_3_PLAIN_TRIES = 44405


def seed_puzzle(data: bytes) -> Puzzle:
    puzzle = parse(data).puzzle
    assert puzzle is not None, "the seed's puzzles are valid"
    return puzzle


def _rectangles(width: int, height: int, rng: random.Random, family: Family) -> int:
    """How many rectangles to aim at: about one per 8 cells (the seed's example has one
    per 8.3), fewer on a large grid for `many` (its strips add clues), 52 for `letters`."""
    cells = width * height
    if family == "letters":
        return MAX_CLUES
    if family == "many":
        per = rng.uniform(4, 8) if cells < 100 else rng.uniform(10, 16)
    else:
        per = rng.uniform(5, 11)
    return max(1, min(MAX_CLUES, round(cells / per)))


def one_clue_moved(puzzle: Puzzle, rng: random.Random) -> Puzzle:
    """The same clues but one, moved to a random free cell (the areas still add up): the
    way to a puzzle with no solution."""
    taken = {(clue.row, clue.col) for clue in puzzle.clues}
    k = rng.randrange(len(puzzle.clues))
    free = [(r, c) for r in range(puzzle.height) for c in range(puzzle.width) if (r, c) not in taken]
    if not free:
        return puzzle
    row, col = rng.choice(free)
    moved = [clue for i, clue in enumerate(puzzle.clues) if i != k] + [Clue(row, col, puzzle.clues[k].area)]
    return Puzzle(puzzle.width, puzzle.height, tuple(sorted(moved, key=lambda clue: (clue.row, clue.col))))


_WANTED: dict[Family, Callable[[int], bool]] = {
    "unique": lambda count: count == 1,
    "many": lambda count: 2 <= count <= MANY_MAX,
    "none": lambda count: count == 0,
    "letters": lambda count: 1 <= count <= MANY_MAX,
}


def _fibonacci(n: int) -> int:
    a, b = 0, 1
    for _ in range(n):
        a, b = b, a + b
    return a


def with_strips(tiling: list[Rect], width: int, height: int, rng: random.Random,
                low: int = 2, high: int = MANY_MAX) -> Puzzle:
    """Clues for `tiling` where some 2 x m rectangles (m >= 2) become domino strips: as
    many as keep the product of their tilings (Fibonacci(m + 1) each) under a target
    drawn between `low` and `high` on a log scale, at least one, and the clues within
    MAX_CLUES."""
    strips = [rect for rect in tiling if 2 in (rect.height, rect.width) and rect.area >= 4]
    rng.shuffle(strips)
    target = math.exp(rng.uniform(math.log(low), math.log(high)))
    chosen: set[Rect] = set()
    product, clue_count = 1, len(tiling)
    for rect in sorted(strips, key=lambda rect: rect.area) if strips else ():
        tilings = _fibonacci(rect.area // 2 + 1)
        extra = rect.area // 2 - 1  # m dominoes instead of one rectangle
        if (not chosen or product * tilings <= target) and clue_count + extra <= MAX_CLUES:
            chosen.add(rect)
            product, clue_count = product * tilings, clue_count + extra
    clues: list[Clue] = []
    for rect in tiling:
        clues += domino_strip(rect) if rect in chosen else [Clue(*rng.choice(list(rect.cells())), rect.area)]
    return puzzle_of(width, height, clues)


def valid_puzzle(width: int, height: int, family: Family, rng: random.Random) -> Puzzle:
    """A puzzle of `family` on a width x height grid, easy for plain search."""
    for _ in range(_ATTEMPTS):
        tiling = random_tiling(width, height, rng, _rectangles(width, height, rng, family))
        if family == "letters" and len(tiling) != MAX_CLUES:
            continue
        if family == "many":
            puzzle = with_strips(tiling, width, height, rng)
        else:
            puzzle = clued(tiling, width, height, rng)
        if family == "none":
            puzzle = one_clue_moved(puzzle, rng)
        if _WANTED[family](solve(puzzle).count) and plain_tries(puzzle, EASY_TRIES) is not None:
            return puzzle
    raise RuntimeError(f"no {family} puzzle of {width}x{height} in {_ATTEMPTS} draws")
