"""The exact reference: every solution of a puzzle counted, and the first in sorted order.

The search reads like the rules (in the spirit of Norvig's sudoku solver): each clue has
*options*, the rectangles of its area that stay in the grid and hold its cell and no other
clue, each one integer whose bits are its cells.  Propagation applies what the rules force
until nothing changes:

  1. an option that covers a filled cell is gone;
  2. a clue with one option left gets it (the seed's suggestion: forced rectangles first);
  3. a cell that only one option still covers gets that option;
  4. a cell no option covers, or a clue without options, is a dead end;
  5. a closed region of empty cells must hold clues whose areas add up to its size
     (a rectangle never crosses a filled cell);
  6. the cells that every option of a clue covers (its *core*) are that clue's: the
     other clues' options there are gone (the seed's forced rectangle is a whole core).

Then closed regions are solved apart (their counts multiply, their first solutions join);
within one region, search picks a cell that exactly two options cover (else the clue with
the fewest options), tries each option in turn, and propagates again.  Branches exclude
each other and together hold every solution, so the count is exact; the first solution in
sorted order is the smallest of the branches' firsts (the order of two drawings depends on
all their rectangles, so no order of branches meets it first: docs/exercises/shikaku.md,
"Sorted order").  What is left to solve depends only on the cells filled, so each set of
filled cells is searched once.
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from exercises.shikaku.puzzle import Puzzle, parse
from exercises.shikaku.drawing import drawing_text
from exercises.shikaku.geometry import Rect, Tiling, tiling_of

ERROR = "error\n"


def rectangles_of(puzzle: Puzzle, clue_index: int) -> list[Rect]:
    """The rectangles of a clue's area inside the grid that hold its cell and no other clue."""
    clue = puzzle.clues[clue_index]
    others = sum(1 << (other.row * puzzle.width + other.col) for k, other in enumerate(puzzle.clues)
                 if k != clue_index)
    found = []
    for height in range(1, clue.area + 1):
        if clue.area % height:
            continue
        width = clue.area // height
        for top in range(max(0, clue.row - height + 1), min(clue.row, puzzle.height - height) + 1):
            for left in range(max(0, clue.col - width + 1), min(clue.col, puzzle.width - width) + 1):
                rect = Rect(top, left, height, width)
                if not rect.mask(puzzle.width) & others:
                    found.append(rect)
    return found


class _Board:
    """The fixed facts of a puzzle the search needs: the grid's masks (all cells, and the
    cells off its first and last column, for growing regions), each clue's cell and area,
    and the rectangle behind each option's mask."""

    def __init__(self, puzzle: Puzzle) -> None:
        self.width = puzzle.width
        self.cells = puzzle.cells
        self.full = (1 << puzzle.cells) - 1
        column = sum(1 << (row * puzzle.width) for row in range(puzzle.height))
        self.not_first_column = self.full & ~column
        self.not_last_column = self.full & ~(column << (puzzle.width - 1))
        self.clue_bits = [1 << (clue.row * puzzle.width + clue.col) for clue in puzzle.clues]
        self.areas = [clue.area for clue in puzzle.clues]
        self.rects: dict[int, Rect] = {}  # an option's mask -> its rectangle
        self.options: Options = {}
        for k in range(len(puzzle.clues)):
            rects = rectangles_of(puzzle, k)
            self.options[k] = [rect.mask(puzzle.width) for rect in rects]
            self.rects.update(zip(self.options[k], rects))

    def region(self, seed: int, open_cells: int) -> int:
        """The open cells reachable from `seed` by steps to a side neighbour."""
        region = seed
        while True:
            grown = region | (region << self.width) | (region >> self.width)
            grown |= ((region << 1) & self.not_first_column) | ((region >> 1) & self.not_last_column)
            grown &= open_cells
            if grown == region:
                return region
            region = grown

    def regions(self, open_cells: int) -> list[int]:
        """The closed regions of open cells, each a mask."""
        found, left = [], open_cells
        while left:
            region = self.region(left & -left, open_cells)
            found.append(region)
            left &= ~region
        return found

    def balanced(self, regions: list[int], clues: Iterable[int]) -> bool:
        """Rule 5: in every closed region, the areas of its clues add up to its size."""
        clues = list(clues)
        return all(sum(self.areas[k] for k in clues if self.clue_bits[k] & region) == region.bit_count()
                   for region in regions)

    def order_key(self, placed: Placed) -> list[int]:
        """For each cell, the top-left cell (row-major index) of the rectangle of `placed`
        that covers it, 0 where none does: two tilings of the same cells compare as their
        drawings do (docs/exercises/shikaku.md, "Sorted order")."""
        key = [0] * self.cells
        for mask in placed:
            rect = self.rects[mask]
            top_left = rect.top * self.width + rect.left
            for row in range(rect.top, rect.top + rect.height):
                start = row * self.width + rect.left
                key[start:start + rect.width] = [top_left] * rect.width
        return key


# Options of the clues not placed yet: clue index -> masks of its rectangles still possible.
Options = dict[int, list[int]]
Placed = tuple[int, ...]  # masks of the rectangles placed
State = tuple[Options, int, Placed, list[int]]  # options, filled cells, placed, regions


def _propagate(board: _Board, options: Options, filled: int, placed: Placed) -> State | None:
    """Apply rules 1-6 until nothing changes; None at a dead end."""
    while True:
        kept = _without_blocked(options, filled)
        if kept is None:
            return None
        options = kept
        once = twice = 0
        for masks in options.values():
            for mask in masks:
                twice |= once & mask
                once |= mask
        open_cells = board.full & ~filled
        if open_cells & ~once:
            return None  # rule 4: a cell no rectangle can cover
        lonely = open_cells & ~twice  # rule 3: cells one option alone covers
        forced = {(clue, mask) for clue, masks in options.items() for mask in masks
                  if len(masks) == 1 or mask & lonely}
        if not forced:
            regions = board.regions(open_cells)
            return (options, filled, placed, regions) if board.balanced(regions, options) else None
        for clue, mask in forced:
            if clue not in options or mask & filled:
                return None  # two options forced for one clue, or two forced options overlap
            del options[clue]
            filled |= mask
            placed += (mask,)


def _without_blocked(options: Options, filled: int) -> Options | None:
    """Rules 1 and 6 until they remove nothing: an option meeting a filled cell, or the
    *core* of another clue (the cells all of that clue's options cover), is gone.  None
    when a clue is left without options, or two cores meet."""
    while True:
        cores: dict[int, int] = {}
        every_core = 0
        for clue, masks in options.items():
            core = -1
            for mask in masks:
                core &= mask
            if core & every_core:
                return None
            cores[clue] = core
            every_core |= core
        kept: Options = {}
        removed = False
        for clue, masks in options.items():
            blocked = filled | (every_core ^ cores[clue])
            kept[clue] = [mask for mask in masks if not mask & blocked]
            if not kept[clue]:
                return None
            removed = removed or len(kept[clue]) < len(masks)
        if not removed:
            return kept
        options = kept


def _branches(options: Options, open_cells: int) -> list[tuple[int, int]]:
    """The (clue, mask) to try in turn, one of which every solution below holds: the
    options covering a cell that exactly two options cover, else those of the clue with
    the fewest options."""
    once = twice = thrice = 0
    for masks in options.values():
        for mask in masks:
            thrice |= twice & mask
            twice |= once & mask
            once |= mask
    pairs = twice & ~thrice & open_cells
    if pairs:
        cell = pairs & -pairs
        return [(clue, mask) for clue, masks in options.items() for mask in masks if mask & cell]
    clue = min(options, key=lambda k: len(options[k]))
    return [(clue, mask) for mask in options[clue]]


@dataclass(frozen=True)
class _Found:
    count: int  # solutions of the cells searched
    first: Placed  # the first of them in sorted order


Memo = dict[int, "_Found | None"]


def _search(board: _Board, options: Options, filled: int, memo: Memo) -> _Found | None:
    """Count the solutions of the open cells and keep the first in sorted order; None when
    there is none.  Closed regions are independent: their counts multiply, and the first
    solution is made of each region's first (the first cell where two tilings differ lies
    in one region, and decides there).  The solutions of the open cells depend on which
    cells are filled and nothing else (the options only ever lose rectangles that no
    solution has), so each set of filled cells is searched once (`memo`)."""
    if filled in memo:
        return memo[filled]
    state = _propagate(board, options, filled, ())
    if state is None:
        found = None
    elif not state[0]:
        found = _Found(1, state[2])
    elif len(state[3]) > 1:
        found = _regions(board, state, memo)
    else:
        found = _branch(board, state, memo)
    memo[filled] = found
    return found


def _regions(board: _Board, state: State, memo: Memo) -> _Found | None:
    options, _, placed, regions = state
    count, first = 1, placed
    for region in regions:
        inside = {k: masks for k, masks in options.items() if board.clue_bits[k] & region}
        found = _search(board, inside, board.full & ~region, memo)
        if found is None:
            return None
        count, first = count * found.count, first + found.first
    return _Found(count, first)


def _branch(board: _Board, state: State, memo: Memo) -> _Found | None:
    options, filled, placed, _ = state
    count, best_key = 0, None
    best: Placed = ()
    for clue, mask in _branches(options, board.full & ~filled):
        rest = {k: masks for k, masks in options.items() if k != clue}
        found = _search(board, rest, filled | mask, memo)
        if found is None:
            continue
        count += found.count
        candidate = (mask, *found.first)
        key = board.order_key(candidate)
        if best_key is None or key < best_key:
            best, best_key = candidate, key
    return _Found(count, placed + best) if count else None


@dataclass(frozen=True)
class Answer:
    count: int
    first: Tiling | None  # the first solution in sorted order; None when there is none


def solve(puzzle: Puzzle) -> Answer:
    board = _Board(puzzle)
    found = _search(board, dict(board.options), 0, {})
    if found is None:
        return Answer(0, None)
    return Answer(found.count, tiling_of(board.rects[mask] for mask in found.first))


def answer_text(data: bytes) -> str:
    """The expected standard output for an input: `error`, or the count and the first
    solution's drawing (only the count when there is none)."""
    parsed = parse(data)
    if parsed.puzzle is None:
        return ERROR
    answer = solve(parsed.puzzle)
    return drawing_text(answer.count, answer.first, parsed.puzzle.width, parsed.puzzle.height)
