"""The seed's plain algorithm (seed 003, "POO et récursivité"), kept as an oracle.

Read the grid left to right, top to bottom; at the first cell without a letter, try every
rectangle of every clue not yet placed whose possible top-left corners include that cell
and that has enough space (no letter on it: the seed's `init_rectangles` already left out
the rectangles outside the grid or over another clue's number); place it with the next
letter, go on, take it back.  Every complete grid is a solution; `answer` sorts their
strings and gives the count and the first, as the seed's `answer` does.

No pruning at all (the seed's suggested improvements are the reference's, exercises
.shikaku.solver): the two are written apart so that one can check the other.  Cells are
bits (row * W + col) so that "enough space" is one test, not a loop; the search is the
seed's, try for try.  `tries` counts the rectangles placed (the seed's "configurations
explored": 44405 on its Test 3); the generators use it to keep suite puzzles easy for
plain search.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from exercises.shikaku.puzzle import LETTERS, Clue, Puzzle


class TooManyTries(Exception):
    """The search placed more rectangles than its budget allows."""


def decompose(area: int) -> list[tuple[int, int]]:
    """The (w, h) with w * h = area."""
    return [(w, area // w) for w in range(1, area + 1) if area % w == 0]


@dataclass
class VirtualRect:
    """A clue: its cell (x = column, y = row), its area, and its rectangles by top-left
    corner (x, y) -> [(w, h, cells)]: those inside the grid that cover no other clue."""

    x: int
    y: int
    area: int
    rectangles: dict[tuple[int, int], list[tuple[int, int, int]]] = field(default_factory=dict)
    filled: bool = False


@dataclass
class PlainShikaku:
    width: int
    height: int
    virtuals: list[VirtualRect]
    solutions: list[str] = field(default_factory=list)
    letters: int = 0  # cells holding a letter, as bits
    placed: list[tuple[int, int, int, int]] = field(default_factory=list)  # (x, y, w, h), in letter order
    tries: int = 0
    budget: int | None = None
    keep_solutions: bool = True  # False: only count the tries

    @classmethod
    def of(cls, puzzle: Puzzle, budget: int | None = None) -> PlainShikaku:
        shikaku = cls(puzzle.width, puzzle.height, [], budget=budget)
        origins = sum(shikaku.cells(clue.col, clue.row, 1, 1) for clue in puzzle.clues)
        shikaku.virtuals = [shikaku.virtual(clue, origins & ~shikaku.cells(clue.col, clue.row, 1, 1))
                            for clue in puzzle.clues]
        return shikaku

    def cells(self, x: int, y: int, w: int, h: int) -> int:
        line = ((1 << w) - 1) << x
        return sum(line << ((y + j) * self.width) for j in range(h))

    def virtual(self, clue: Clue, others: int) -> VirtualRect:
        """The seed's `init_rectangles`: every (w, h) of the area, every upper-left corner
        that keeps the clue inside, kept when inside the grid and over no other clue (the
        cells of `others`)."""
        virtual = VirtualRect(clue.col, clue.row, clue.area)
        for w, h in decompose(clue.area):
            for x in range(max(0, virtual.x - w + 1), min(virtual.x, self.width - w) + 1):
                for y in range(max(0, virtual.y - h + 1), min(virtual.y, self.height - h) + 1):
                    cells = self.cells(x, y, w, h)
                    if not cells & others:
                        virtual.rectangles.setdefault((x, y), []).append((w, h, cells))
        return virtual

    def solve(self, cell: int = 0) -> None:
        # The seed recurses once per lettered cell it passes; a loop does the same without
        # a recursion 900 calls deep on a 30x30 grid.
        while cell < self.width * self.height and self.letters >> cell & 1:
            cell += 1
        if cell == self.width * self.height:
            if self.keep_solutions:
                self.solutions.append(self.drawing())
            return
        x, y = cell % self.width, cell // self.width
        for virtual in self.virtuals:
            if virtual.filled:
                continue
            for w, h, cells in virtual.rectangles.get((x, y), ()):
                if cells & self.letters:
                    continue  # not enough space
                self.tries += 1
                if self.budget is not None and self.tries > self.budget:
                    raise TooManyTries
                self.letters |= cells
                self.placed.append((x, y, w, h))
                virtual.filled = True
                self.solve(cell + 1)
                virtual.filled = False
                self.placed.pop()
                self.letters &= ~cells

    def drawing(self) -> str:
        """The grid as the seed's solution string: rows of letters joined by newlines."""
        rows = [[""] * self.width for _ in range(self.height)]
        for letter, (x, y, w, h) in zip(LETTERS, self.placed):
            for j in range(y, y + h):
                rows[j][x:x + w] = [letter] * w
        return "\n".join("".join(row) for row in rows)

    def answer(self) -> tuple[int, list[str] | None]:
        """The count and the first solution in sorted order (its lines), as the seed prints."""
        self.solutions.sort()
        return len(self.solutions), self.solutions[0].split("\n") if self.solutions else None


def plain_answer(puzzle: Puzzle) -> tuple[int, list[str] | None]:
    shikaku = PlainShikaku.of(puzzle)
    shikaku.solve()
    return shikaku.answer()


def plain_tries(puzzle: Puzzle, budget: int) -> int | None:
    """The rectangles plain search places to find every solution; None past `budget`."""
    shikaku = PlainShikaku.of(puzzle, budget)
    shikaku.keep_solutions = False
    try:
        shikaku.solve()
    except TooManyTries:
        return None
    return shikaku.tries
