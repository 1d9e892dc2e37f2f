"""The fast exact search in pure Python: the fallback of the C core and its second oracle.

Same answer as the plain seed backtracking (`reference.plain`), found with sound pruning
only: every branch cut contains no solution, so the first solution is unchanged.

Two searches cooperate, at one side at a time:

* `_Fill.fillable` -- ORDER-FREE feasibility: can this multiset of shapes still be packed
  into the free cells of this board?  It branches on the first empty cell (row-major): cover
  it with some remaining shape whose first cell lands there, or leave it empty when the spare
  budget (free cells - 4 * remaining pieces) allows.  Failures are memoised by
  (board, multiset).  Pruned: dead space counted against the spare budget (cells no
  remaining shape can cover, k mod 4 cells of every region of k, bars out of straight room)
  and colour balance (three 2-periodic colourings no placement of the pieces can balance).
* `_ordered` -- the seed's order (pieces in file order, positions row-major), pruned by
  `fillable` at every node, so it almost never backtracks; failed (board, piece, first
  allowed corner) states are memoised too.

The C core (`_fastsolve.c`) runs the same two searches with the same pruning, plus four
things kept out of this version so the two engines check each other from different angles:
it fills dead cells at once, branches on the cell with the fewest placements covering it,
on the first levels of each order-free search applies a 4-periodic stripe bound (columns,
then rows, coloured by index mod 4: the per-class cell counts of all the pieces, each
piece's profile rotated by where it lies, must fit under the free cells' counts), and on
boards with at most two spare cells the line-count bound (`_lines.h`: the pieces' row
profiles, each shifted to the row where it starts, must fit under every row's free cells).

Boards are Python ints, cell (row, col) is bit row * side + col.
"""
from __future__ import annotations

from collections.abc import Sequence

from reference.plain import min_side
from reference.shapes import Shape

Position = tuple[int, int]


class _Geometry:
    """Bit masks of one side and of the shape types at that side."""

    def __init__(self, side: int, types: Sequence[Shape]) -> None:
        self.side = side
        self.full = (1 << side * side) - 1
        column0 = sum(1 << r * side for r in range(side))
        self.not_first_col = self.full & ~column0
        self.not_last_col = self.full & ~(column0 << side - 1)
        self.offsets = [[r * side + c for r, c in t.cells] for t in types]
        self.masks = [sum(1 << o for o in offs) for offs in self.offsets]
        # The first cell of a shape in row-major order is in its row 0, at column first_col.
        self.first_col = [t.cells[0][1] for t in types]
        self.heights = [t.height for t in types]
        self.widths = [t.width for t in types]
        # Top-left corners that keep the shape inside the square.
        self.anchors = [
            sum(1 << r * side + c for r in range(side - t.height + 1) for c in range(side - t.width + 1))
            for t in types
        ]
        # Three 2-periodic colourings, as the masks of their +1 cells: checkerboard, column
        # stripes, row stripes.  A piece's colour sum is +-imbalance wherever it lies.
        cells = [(r, c) for r in range(side) for c in range(side)]
        colour_tests = (lambda r, c: (r + c) % 2 == 0, lambda r, c: c % 2 == 0, lambda r, c: r % 2 == 0)
        self.colour_plus = [sum(1 << r * side + c for r, c in cells if test(r, c)) for test in colour_tests]
        self.imbalances = [
            [abs(sum(1 if test(r, c) else -1 for r, c in t.cells)) for t in types] for test in colour_tests
        ]
        self.vertical_bars = [t.width == 1 for t in types]
        self.horizontal_bars = [t.height == 1 for t in types]

    def region(self, seed: int, allowed: int) -> int:
        """The 4-connected part of `allowed` that contains the bits of `seed`."""
        region = seed
        while True:
            grown = region | (region << self.side) | (region >> self.side)
            grown |= ((region << 1) & self.not_first_col) | ((region >> 1) & self.not_last_col)
            grown &= allowed
            if grown == region:
                return region
            region = grown

    def bar_capacity(self, free: int, vertical: bool) -> int:
        """How many disjoint 1x4 (or 4x1) bars fit in `free`: sum of run // 4 over lines."""
        side, total = self.side, 0
        for line in range(side):
            run = 0
            for step in range(side):
                cell = step * side + line if vertical else line * side + step
                if free >> cell & 1:
                    run += 1
                else:
                    total += run // 4
                    run = 0
            total += run // 4
        return total

    def colour_mismatch(self, free: int, counts: list[int], spare: int) -> bool:
        """True when a colouring proves the pieces cannot fill `free` leaving `spare` cells.

        With cells coloured +1/-1, each piece adds +-imbalance (0, 2 or 4), each empty cell
        +-1, and the total must equal d, the free cells' colour sum.  Pieces of imbalance 2
        and 4 reach every value of [-reach, reach] in steps of 4 (of 8 when all are 4s).
        """
        for plus, imbalances in zip(self.colour_plus, self.imbalances):
            d = (free & plus).bit_count() - (free & ~plus).bit_count()
            twos = sum(n for n, i in zip(counts, imbalances) if i == 2)
            fours = sum(n for n, i in zip(counts, imbalances) if i == 4)
            reach, step = 2 * twos + 4 * fours, 4 if twos else 8
            if not any(abs(d - x) <= reach and (d - x + reach) % step == 0
                       for x in range(-spare, spare + 1, 2)):
                return True
        return False

    def waste_lower_bound(self, free: int, counts: list[int]) -> int:
        """Free cells that must stay empty whatever the remaining pieces do (a lower bound).

        Cells no remaining shape can cover are wasted; what is left splits into regions, and
        a region of k cells holds at most k // 4 pieces (each piece lies in one region).
        Bars (I pieces) can also run out of straight room: then nothing fits (infinite waste).
        """
        covered = 0
        for t, count in enumerate(counts):
            if not count:
                continue
            fits = self.anchors[t]
            for o in self.offsets[t]:
                fits &= free >> o
            for o in self.offsets[t]:
                covered |= fits << o
            if self.vertical_bars[t] and count > self.bar_capacity(free, True):
                return self.side * self.side
            if self.horizontal_bars[t] and count > self.bar_capacity(free, False):
                return self.side * self.side
        waste = (free & ~covered).bit_count()
        usable = free & covered
        while usable:
            region = self.region(usable & -usable, usable)
            usable &= ~region
            waste += region.bit_count() % 4
        return waste


class _Fill:
    """Order-free feasibility at one side, with a failure memo shared by all queries."""

    def __init__(self, geometry: _Geometry) -> None:
        self.g = geometry
        self.failed: set[tuple[int, tuple[int, ...]]] = set()

    def fillable(self, board: int, counts: list[int], remaining: int) -> bool:
        """Can `counts` (pieces per shape type) all be placed on `board` without overlap?"""
        if remaining == 0:
            return True
        g = self.g
        key = (board, tuple(counts))
        if key in self.failed:
            return False
        free = g.full & ~board
        spare = free.bit_count() - 4 * remaining
        if g.colour_mismatch(free, counts, spare) or g.waste_lower_bound(free, counts) > spare:
            self.failed.add(key)
            return False
        first = free & -free  # every cell before it is taken: a piece covering it starts there
        row, col = divmod(first.bit_length() - 1, g.side)
        for t, count in enumerate(counts):
            if not count:
                continue
            left = col - g.first_col[t]
            if left < 0 or left + g.widths[t] > g.side or row + g.heights[t] > g.side:
                continue
            mask = g.masks[t] << row * g.side + left
            if board & mask:
                continue
            counts[t] -= 1
            done = self.fillable(board | mask, counts, remaining - 1)
            counts[t] += 1
            if done:
                return True
        if spare > 0 and self.fillable(board | first, counts, remaining):
            return True
        self.failed.add(key)
        return False


def _type_indices(pieces: Sequence[Shape]) -> tuple[list[Shape], list[int]]:
    """Distinct shapes (first-seen order) and the type index of each piece."""
    types: list[Shape] = []
    for piece in pieces:
        if piece not in types:
            types.append(piece)
    return types, [types.index(p) for p in pieces]


def _ordered(fill: _Fill, piece_types: list[int], previous_same: list[int], index: int,
             board: int, counts: list[int], anchors: list[int], failed: set[tuple[int, int, int]]) -> bool:
    """Place pieces index.. in file order at their first row-major positions; True when all fit.

    `anchors[i]` receives piece i's top-left bit index.  A piece identical to an earlier
    one goes strictly after it: swapping identical pieces maps solutions to solutions, and
    the upper-left-first one has them in increasing order.
    """
    if index == len(piece_types):
        return True
    g = fill.g
    t = piece_types[index]
    start = anchors[previous_same[index]] + 1 if previous_same[index] >= 0 else 0
    key = (board, index, start)
    if key in failed:
        return False
    candidates = g.anchors[t] >> start << start
    while candidates:
        low = candidates & -candidates
        candidates ^= low
        anchor = low.bit_length() - 1
        mask = g.masks[t] << anchor
        if board & mask:
            continue
        counts[t] -= 1
        if fill.fillable(board | mask, counts, len(piece_types) - index - 1):
            anchors[index] = anchor
            if _ordered(fill, piece_types, previous_same, index + 1, board | mask, counts, anchors, failed):
                counts[t] += 1
                return True
        counts[t] += 1
    failed.add(key)
    return False


def solve_at_side(pieces: Sequence[Shape], side: int) -> tuple[Position, ...] | None:
    """The upper-left-first placement in a side x side square, or None when none exists."""
    types, piece_types = _type_indices(pieces)
    fill = _Fill(_Geometry(side, types))
    counts = [piece_types.count(t) for t in range(len(types))]
    if not fill.fillable(0, counts, len(pieces)):
        return None
    previous_same = [max((j for j in range(i) if piece_types[j] == piece_types[i]), default=-1)
                     for i in range(len(pieces))]
    anchors = [0] * len(pieces)
    found = _ordered(fill, piece_types, previous_same, 0, 0, counts, anchors, set())
    assert found, "the order-free search said the square is fillable"
    return tuple(divmod(a, side) for a in anchors)


def solve_fast(pieces: Sequence[Shape]) -> tuple[int, tuple[Position, ...]]:
    """(minimal side, upper-left-first positions): the same answer as `solve_plain`."""
    side = min_side(len(pieces))
    while True:
        positions = solve_at_side(pieces, side)
        if positions is not None:
            return side, positions
        side += 1
