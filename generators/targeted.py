"""Valid files aimed at bugs that uniform random files rarely show; every one of them is
quick for plain backtracking (the seed's algorithm), so any correct solver must pass them.

* `alone`: one shape alone, pushed into the bottom-right corner of its block: a reader that
  does not shift a piece to the top-left, or mixes up rows and columns.
* `above_bound`: files whose square is two sides larger than ceil(sqrt(4n)) (a single I
  needs 4x4 where the count alone asks for 2x2): a board capped at the bound + 1.
* `identical_run`: 9 to 25 copies of one shape, greedy-feasible (first-fit never
  backtracks): the identical-piece bookkeeping over a long chain.
* `identical_mix`: 4 to 12 copies of each of 2 or 3 shapes among a few others, needing real
  backtracking yet within the easy budget: a solver that, after a backtrack, restarts,
  resumes or skips a second identical piece wrongly.

Builders draw from the `random.Random` they are given, never from global state.
"""
from __future__ import annotations

import random
from functools import lru_cache
from itertools import product

from generators.text import Offset, bottom_right
from generators.valid import EASY_BUDGET, greedy_pieces, plain_tries
from reference.plain import min_side
from reference.shapes import SHAPE_BY_NAME, SHAPES, Shape
from reference.solver import solve

# Sizes whose lower-bound square has at least 8 spare cells: room for the holes that long
# runs of shapes which do not tile (T, L, J...) leave, so greedy draws succeed quickly.
ROOMY_SIZES: tuple[int, ...] = tuple(n for n in range(1, 27) if min_side(n) ** 2 - 4 * n >= 8)

RUN_COPIES = (9, 12)  # copies of the repeated shape in a mixed identical run
MIX_COPIES = (4, 12)  # copies of each repeated shape in an identical mix
# An identical mix must make plain search backtrack at least this often: a file that
# first-fit solves never exercises what happens to identical pieces after a backtrack.
MIX_MIN_TRIES = 1_000
_MIX_ATTEMPTS = 60


def alone(shape: Shape) -> list[tuple[Shape, Offset]]:
    """The one-block file of `shape` in the bottom-right corner of its block."""
    return [(shape, bottom_right(shape))]


@lru_cache(maxsize=None)
def above_bound_files() -> tuple[tuple[Shape, ...], ...]:
    """Every file of one or two pieces whose square is ceil(sqrt(4n)) + 2 or more, in shape
    order (the reference decides; there are four: I alone, both ways, and the two I's)."""
    found = []
    for count in (1, 2):
        for pieces in product(SHAPES, repeat=count):
            if solve(pieces).side >= min_side(count) + 2:
                found.append(pieces)
    return tuple(found)


def whole_identical_run(rng: random.Random) -> list[Shape]:
    """A file of one shape only, 13 to 25 copies: O (21 to 25) or an I (13 to 18), the only
    shapes whose long runs first-fit places at the lower bound."""
    if rng.randrange(2):
        return [SHAPE_BY_NAME["O"]] * rng.randint(21, 25)
    shape = SHAPE_BY_NAME[rng.choice(("I_vertical", "I_horizontal"))]
    return [shape] * rng.randint(13, 18)


def identical_run(rng: random.Random) -> list[Shape]:
    """9 to 12 copies of a random shape among other pieces, greedy-feasible."""
    shape = rng.choice(SHAPES)
    copies = rng.randint(*RUN_COPIES)
    sizes = [n for n in ROOMY_SIZES if n >= copies]
    for n in sizes + [n for n in range(copies, 27) if n not in sizes]:
        try:
            return greedy_pieces(n, rng, favourite=shape, copies=copies, attempts=30)
        except ValueError:
            continue
    raise ValueError(f"no greedy-feasible file with {copies} {shape.name}")


def identical_mix(rng: random.Random) -> list[Shape]:
    """2 or 3 shapes with 4 to 12 copies each, filled up with random pieces to a roomy size,
    shuffled; redrawn until plain search backtracks (>= MIX_MIN_TRIES placement tries)
    yet stays within EASY_BUDGET."""
    for _ in range(_MIX_ATTEMPTS):
        n = rng.choice([n for n in ROOMY_SIZES if n >= 10])
        kinds = rng.sample(SHAPES, rng.randint(2, 3 if n >= 3 * MIX_COPIES[0] else 2))
        pieces: list[Shape] = []
        for done, shape in enumerate(kinds):
            still_to_come = len(kinds) - 1 - done
            most = min(MIX_COPIES[1], n - len(pieces) - still_to_come * MIX_COPIES[0])
            pieces += [shape] * rng.randint(MIX_COPIES[0], most)
        pieces += [rng.choice(SHAPES) for _ in range(n - len(pieces))]
        rng.shuffle(pieces)
        tries = plain_tries(pieces, EASY_BUDGET)
        if tries is not None and tries >= MIX_MIN_TRIES:
            return pieces
    raise ValueError("no identical mix within the easy budget")
