"""Random tilings of a W x H grid, and puzzles made from them (a clue in each rectangle).

A tiling is grown left to right, top to bottom: the first free cell is the top-left of the
next rectangle, whose width is at most the free run of its row (every cell below that run
is free too: a rectangle from above that reached lower would cross the row).  Rectangles
are then merged two by two, along a whole shared side, until the tiling has the wanted
number of rectangles: any tiling can come out, guillotine-cut or not.

Builders only call `randint`, `choice`, `shuffle` and `random` on the `random.Random` they
get, so a case's bytes depend on its seed only.
"""
from __future__ import annotations

import random
from collections.abc import Sequence

from exercises.shikaku.puzzle import MAX_CLUES, Clue, Puzzle
from exercises.shikaku.geometry import Rect


# A rectangle never leaves a free strip narrower than this beside or below it (thin strips
# only fill with thin rectangles: the tiling would end with far too many of them).
_MIN_GAP = 2


def _sides(free: int) -> list[int]:
    """Sides that leave no strip of 1.._MIN_GAP - 1 cells out of `free` free ones."""
    return [side for side in range(1, free + 1) if free - side == 0 or free - side >= _MIN_GAP]


def grown_tiling(width: int, height: int, rng: random.Random, mean_area: float) -> list[Rect]:
    """Rectangles of areas around `mean_area` (0.3 to 1.7 times it, sides at most about
    four times apart), grown from the first free cell."""
    free = [[True] * width for _ in range(height)]
    rects = []
    for row in range(height):
        for col in range(width):
            if not free[row][col]:
                continue
            run = 0
            while col + run < width and free[row][col + run]:
                run += 1
            shapes = [(h, w) for h in _sides(height - row) for w in _sides(run)]
            rng.shuffle(shapes)
            compact = [(h, w) for h, w in shapes if max(h, w) <= 4 * min(h, w) + 2] or shapes
            target = rng.uniform(0.3, 1.7) * mean_area
            h, w = min(compact, key=lambda shape: abs(shape[0] * shape[1] - target))
            rect = Rect(row, col, h, w)
            for r, c in rect.cells():
                free[r][c] = False
            rects.append(rect)
    return rects


def _merged(a: Rect, b: Rect) -> Rect | None:
    """The rectangle a and b make together when they share a whole side, else None."""
    if a.top == b.top and a.height == b.height and (a.left + a.width == b.left or b.left + b.width == a.left):
        return Rect(a.top, min(a.left, b.left), a.height, a.width + b.width)
    if a.left == b.left and a.width == b.width and (a.top + a.height == b.top or b.top + b.height == a.top):
        return Rect(min(a.top, b.top), a.left, a.height + b.height, a.width)
    return None


def merge_down(rects: Sequence[Rect], target: int, max_area: int, rng: random.Random) -> list[Rect]:
    """Merge a random rectangle with one of its mergeable neighbours (total area at most
    `max_area`) until `target` rectangles are left or none can merge."""
    tiles = list(rects)
    while len(tiles) > target:
        order = list(range(len(tiles)))
        rng.shuffle(order)
        for i in order:
            partners = [(j, merged) for j in range(len(tiles))
                        if j != i and (merged := _merged(tiles[i], tiles[j])) is not None and merged.area <= max_area]
            if partners:
                j, merged = rng.choice(partners)
                tiles = [tile for k, tile in enumerate(tiles) if k not in (i, j)] + [merged]
                break
        else:
            break
    return sorted(tiles)


def random_tiling(width: int, height: int, rng: random.Random, rectangles: int) -> list[Rect]:
    """About `rectangles` rectangles (never more than MAX_CLUES) tiling the grid."""
    target = max(1, min(rectangles, MAX_CLUES, width * height))
    mean = width * height / target
    tiles = merge_down(grown_tiling(width, height, rng, mean), target, max(4, round(3 * mean)), rng)
    if len(tiles) > MAX_CLUES:
        tiles = merge_down(tiles, MAX_CLUES, width * height, rng)
    if len(tiles) > MAX_CLUES:
        raise ValueError(f"no tiling of {width}x{height} with at most {MAX_CLUES} rectangles came out")
    return tiles


def clued(tiling: Sequence[Rect], width: int, height: int, rng: random.Random) -> Puzzle:
    """A puzzle whose solutions include `tiling`: one clue at a random cell of each rectangle."""
    return puzzle_of(width, height, [Clue(*rng.choice(list(rect.cells())), rect.area) for rect in tiling])


def puzzle_of(width: int, height: int, clues: Sequence[Clue]) -> Puzzle:
    return Puzzle(width, height, tuple(sorted(clues, key=lambda clue: (clue.row, clue.col))))


def domino_strip(rect: Rect) -> list[Clue]:
    """The clues of a 2 x m (or m x 2) rectangle cut into m dominoes, one clue per domino
    on alternate sides: every one of its domino tilings is a solution, and a 2 x m strip
    has Fibonacci(m + 1) of them (2 for a 2 x 2 square, 5 for 2 x 4, 89 for 2 x 10)."""
    across = rect.height == 2  # the strip runs left to right
    length = rect.width if across else rect.height
    clues = []
    for k in range(length):
        side = k % 2
        row, col = (rect.top + side, rect.left + k) if across else (rect.top + k, rect.left + side)
        clues.append(Clue(row, col, 2))
    return clues
