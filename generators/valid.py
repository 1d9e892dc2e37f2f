"""Valid fillit files, reproducible from a seed: random, greedy-feasible and easy families.

A plain backtracking solver (the seed's algorithm, which most student solvers are) can take
minutes on random files with few spare cells: it must exhaust the lower-bound square before
growing it.  Graded suites that every correct solver must pass therefore use families that are
easy *by construction*:

* `greedy`: pieces chosen so that first-fit (rows then columns, the plain search's own order)
  places every piece at the lower-bound side.  The plain search's first path IS first-fit, so
  it finds this placement without a single backtrack, and it is the exact answer (the lower
  bound is reached and it is the first solution in plain order).
* `easy`: uniform random pieces, redrawn until the plain search needs at most a fixed budget of
  placement tries (counted exactly by `plain_tries`).

All randomness comes from the `random.Random` passed in, never from global state.
"""
from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from functools import lru_cache

from generators.text import to_file
from reference.plain import min_side
from reference.shapes import SHAPE_BY_NAME, SHAPES, Shape

try:
    from reference._plaincount import plain_tries as _plain_tries_c
except ImportError:  # no C compiler at install time: the count is made in Python
    _plain_tries_c = None  # type: ignore[assignment]

MAX_PIECES = 26

# Placement tries a plain solver may spend on an `easy` file.  A C plain solver does millions
# of tries a second, so this keeps even a slow one well under a second.
EASY_BUDGET = 100_000

Position = tuple[int, int]


@lru_cache(maxsize=None)
def placements(shape: Shape, side: int) -> tuple[tuple[Position, int], ...]:
    """Every (top-left, bitmask) of `shape` in a side x side square, in plain search order."""
    out = []
    for row in range(side - shape.height + 1):
        for col in range(side - shape.width + 1):
            mask = 0
            for r, c in shape.cells:
                mask |= 1 << ((row + r) * side + col + c)
            out.append(((row, col), mask))
    return tuple(out)


def first_fit(pieces: Sequence[Shape], side: int) -> tuple[Position, ...] | None:
    """Each piece at its first free position in plain order (no backtracking), or None."""
    grid = 0
    positions = []
    for shape in pieces:
        for position, mask in placements(shape, side):
            if not mask & grid:
                grid |= mask
                positions.append(position)
                break
        else:
            return None
    return tuple(positions)


class _OverBudget(Exception):
    pass


def plain_tries(pieces: Sequence[Shape], budget: int) -> int | None:
    """Placement tries the plain search makes over all sides until its first solution.

    None when it needs more than `budget`: the file is not easy for plain backtracking.
    Counted by the compiled copy (reference/_plaincount.c) when it is built and the file
    fits its board, else by `plain_tries_python`: the same count.
    """
    if _plain_tries_c is not None:
        counted = _plain_tries_c([shape.cells for shape in pieces], budget)
        if counted is not False:
            return counted
    return plain_tries_python(pieces, budget)


def plain_tries_python(pieces: Sequence[Shape], budget: int) -> int | None:
    """`plain_tries`, in Python: the search below is the count's definition."""
    side = min_side(len(pieces))
    spent = 0
    while True:
        tables = [tuple(mask for _, mask in placements(shape, side)) for shape in pieces]
        tries = 0

        def search(index: int, grid: int) -> bool:
            nonlocal tries
            if index == len(tables):
                return True
            for mask in tables[index]:
                tries += 1
                if not mask & grid:
                    if search(index + 1, grid | mask):
                        return True
                    if spent + tries > budget:
                        raise _OverBudget
            return False

        try:
            found = search(0, 0)
        except _OverBudget:
            return None
        spent += tries
        if spent > budget:
            return None
        if found:
            return spent
        side += 1


def random_pieces(n: int, rng: random.Random, shapes: Sequence[Shape] = SHAPES) -> list[Shape]:
    """`n` shapes drawn uniformly from `shapes`."""
    _check_count(n)
    return [rng.choice(shapes) for _ in range(n)]


def easy_pieces(n: int, rng: random.Random, shapes: Sequence[Shape] = SHAPES,
                budget: int = EASY_BUDGET, attempts: int = 8) -> list[Shape]:
    """Uniform random shapes, redrawn until the plain search needs at most `budget` tries.

    Falls back to a greedy-feasible draw (zero backtracking) when random draws keep failing,
    as they do at sizes with almost no spare cells (16, 25 pieces...).
    """
    _check_count(n)
    for _ in range(attempts):
        pieces = random_pieces(n, rng, shapes)
        if plain_tries(pieces, budget) is not None:
            return pieces
    return greedy_pieces(n, rng, shapes)


def greedy_pieces(n: int, rng: random.Random, shapes: Sequence[Shape] = SHAPES,
                  attempts: int = 400, favourite: Shape | None = None, copies: int = 0) -> list[Shape]:
    """`n` shapes that first-fit places entirely in the lower-bound square.

    Built one piece at a time, preferring shapes whose first-fit position covers the first
    empty cell, so that holes (which spend the few spare cells) stay rare; starts over when a
    piece no longer fits.  With a `favourite` (one of `shapes`), that shape is preferred
    (see `_take_favourite`) and the file holds at least `copies` of it.
    """
    _check_count(n)
    side = min_side(n)
    tables = [(shape, placements(shape, side)) for shape in shapes]
    wanted = None if favourite is None else (list(shapes).index(favourite), copies)
    for _ in range(attempts):
        pieces = _greedy_attempt(n, side, tables, rng, wanted)
        if pieces is not None and (favourite is None or pieces.count(favourite) >= copies):
            return pieces
    names = ",".join(shape.name for shape in shapes)
    extra = f" and {copies} {favourite.name}" if favourite is not None else ""
    raise ValueError(f"no greedy-feasible file of {n} pieces with shapes {names}{extra}")


Table = tuple[tuple[Position, int], ...]


def _first_fits(tables: Sequence[tuple[Shape, Table]], grid: int, cursor: list[int]) -> list[int | None]:
    """Each shape's first-fit mask on `grid` (None: no room).  Advances `cursor` in place:
    a shape's first-fit index only moves forward as the grid fills."""
    out: list[int | None] = []
    for k, (_, table) in enumerate(tables):
        p = cursor[k]
        while p < len(table) and table[p][1] & grid:
            p += 1
        cursor[k] = p
        out.append(table[p][1] if p < len(table) else None)
    return out


def _lowest_open(grid: int, dead: int) -> int:
    """Bit of the lowest cell neither filled nor given up as a hole."""
    taken = grid | dead
    return ~taken & (taken + 1)


def _greedy_attempt(n: int, side: int, tables: Sequence[tuple[Shape, Table]],
                    rng: random.Random, wanted: tuple[int, int] | None = None) -> list[Shape] | None:
    """One greedy draw; `wanted` = (index in `tables`, copies) of a favourite shape."""
    spare = side * side - 4 * n
    grid = 0
    dead = 0  # empty cells no first-fit covered: they stay empty, each costs one spare cell
    cursor = [0] * len(tables)
    pieces: list[Shape] = []
    for placed in range(n):
        fits = _first_fits(tables, grid, cursor)
        fitting = [k for k, mask in enumerate(fits) if mask is not None]
        if not fitting:
            return None
        while True:
            target = _lowest_open(grid, dead)
            covering = [k for k in fitting if fits[k] & target]  # type: ignore[operator]
            if covering:
                break
            dead |= target
            spare -= 1
            if spare < 0:
                return None
        if wanted is not None and _take_favourite(wanted, pieces, tables, covering, fitting, spare, rng):
            k = wanted[0]
        elif spare > 0 and rng.random() < 0.1:
            # Now and then a shape that leaves a hole, while spare cells allow it: variety.
            k = rng.choice(fitting)
        else:
            k = _pick_with_lookahead(covering, fits, tables, grid, dead, spare, cursor, rng,
                                     last=placed == n - 1)
        pieces.append(tables[k][0])
        grid |= fits[k]  # type: ignore[operator]
    return pieces


def _take_favourite(wanted: tuple[int, int], pieces: list[Shape], tables: Sequence[tuple[Shape, Table]],
                    covering: list[int], fitting: list[int], spare: int, rng: random.Random) -> bool:
    """Whether the next piece is the favourite: usually when it covers the open cell, and
    half the time when it fits elsewhere and a hole is affordable (long runs of shapes that
    do not tile, like T, need those holes)."""
    favourite, copies = wanted
    if pieces.count(tables[favourite][0]) >= copies:
        return False
    if favourite in covering:
        return rng.random() < 0.9
    return favourite in fitting and spare > 0 and rng.random() < 0.5


def _pick_with_lookahead(covering: list[int], fits: list[int | None],
                         tables: Sequence[tuple[Shape, Table]], grid: int, dead: int,
                         spare: int, cursor: list[int], rng: random.Random, last: bool) -> int:
    """A random covering shape after which the next open cell can still be covered (or a
    hole is affordable); any covering shape when none qualifies."""
    order = covering[:]
    rng.shuffle(order)
    if last or spare > 0:
        return order[0]
    for k in order:
        after = grid | fits[k]  # type: ignore[operator]
        target = _lowest_open(after, dead)
        following = _first_fits(tables, after, cursor[:])
        if any(mask is not None and mask & target for mask in following):
            return k
    return order[0]


def _check_count(n: int) -> None:
    if not 1 <= n <= MAX_PIECES:
        raise ValueError(f"pieces must be 1..{MAX_PIECES}, got {n}")


PieceBuilder = Callable[[int, random.Random, Sequence[Shape]], list[Shape]]

# family -> (one-line description, builder(n, rng, shapes) -> pieces)
VALID_FAMILIES: dict[str, tuple[str, PieceBuilder]] = {
    "random": ("shapes uniform over the set, random offsets; may be slow for plain backtracking",
               random_pieces),
    "easy": (f"random shapes redrawn until plain backtracking needs <= {EASY_BUDGET} tries "
             "(greedy when draws keep failing)", easy_pieces),
    "greedy": ("first-fit fills the lower-bound square: plain backtracking never backtracks",
               greedy_pieces),
}


def parse_shapes(names: str) -> list[Shape]:
    """Shapes from a comma-separated list of names (see reference.shapes)."""
    wanted = [name.strip() for name in names.split(",") if name.strip()]
    unknown = [name for name in wanted if name not in SHAPE_BY_NAME]
    if unknown or not wanted:
        raise ValueError(f"unknown shape(s) {','.join(unknown) or names!r}; "
                         f"known: {','.join(SHAPE_BY_NAME)}")
    return [SHAPE_BY_NAME[name] for name in wanted]


def valid_pieces(n: int, rng: random.Random, family: str = "random",
                 shapes: Sequence[Shape] = SHAPES) -> list[Shape]:
    if family not in VALID_FAMILIES:
        raise ValueError(f"unknown valid family {family!r}; known: {', '.join(VALID_FAMILIES)}")
    return VALID_FAMILIES[family][1](n, rng, shapes)


def valid_file(n: int, seed: int | str, family: str = "random",
               shapes: Sequence[Shape] = SHAPES) -> bytes:
    """A valid file of `n` pieces; same arguments, same bytes."""
    rng = random.Random(seed)
    return to_file(valid_pieces(n, rng, family, shapes), rng)
