"""The seed's plain algorithm (seeds/004: `solve`, `test`, `find_cage`), kept as an oracle.

The first empty cell in reading order takes 1, 2, ... 9 in turn; a digit goes in when it is
not yet in the cell's row, column or box (`test`) and the cage can still reach its sum
(`find_cage`): with the digit, the cage's filled cells do not pass the sum, and a cage
with no other empty cell adds up to it exactly. When the filled cells already pass the
sum, larger digits will too: the seed stops trying digits there. The first full grid is
printed; a search that ends without one means no solution.

One change from the seed: rule 4 (no repeated digit in a cage) is checked with the row,
column and box. The seed leaves it out, so it may print a grid that repeats a digit in a
cage spanning two boxes; the oracle answers the contract's puzzle. Since it tries cells in
reading order and digits in increasing order, its first grid is the first solution in
reading order, which is the contract's answer when a puzzle has several.

It tries every digit in Python, so it is only usable on puzzles that need few tries: each
call has a budget, and `PlainBudgetExceeded` says it ran out.
"""
from __future__ import annotations

from exercises.killer_sudoku.puzzle import BOXES, CELL_COUNT, COLUMNS, ROWS, Puzzle, box_of, column_of, row_of


class PlainBudgetExceeded(Exception):
    """The plain search tried more digits than its budget allowed."""


class _PlainSearch:
    def __init__(self, puzzle: Puzzle, budget: int, rule4: bool) -> None:
        self.grid = list(puzzle.givens)
        self.budget = budget
        self.rule4 = rule4
        self.tries = 0
        owner = puzzle.cage_of_cell()
        self.cage_cells = [owner[cell].cells for cell in range(CELL_COUNT)]
        self.cage_total = [owner[cell].total for cell in range(CELL_COUNT)]
        self.houses = [(ROWS[row_of(cell)], COLUMNS[column_of(cell)], BOXES[box_of(cell)])
                       for cell in range(CELL_COUNT)]

    def solve(self) -> bool:
        """Fill the grid; True when it is full (the seed prints it and exits there)."""
        empty = next((cell for cell in range(CELL_COUNT) if self.grid[cell] == 0), None)
        if empty is None:
            return True
        for digit in range(1, 10):
            self.tries += 1
            if self.tries > self.budget:
                raise PlainBudgetExceeded(f"more than {self.budget} tries")
            fits = self._fits(empty, digit)
            cage = self._cage(empty, digit)
            if fits and cage == 1:
                self.grid[empty] = digit
                if self.solve():
                    return True
                self.grid[empty] = 0
            elif fits and cage == -1:
                break
        return False

    def _fits(self, cell: int, digit: int) -> bool:
        """The seed's `test`, with the cage as a fourth house (rule 4)."""
        grid = self.grid
        houses = (*self.houses[cell], self.cage_cells[cell]) if self.rule4 else self.houses[cell]
        return all(grid[other] != digit for house in houses for other in house)

    def _cage(self, cell: int, digit: int) -> int:
        """The seed's `find_cage`: -1 the filled cells pass the sum; 1 possible (another cell
        of the cage is still empty, or the cage adds up exactly); 0 the full cage misses it."""
        total = digit
        for other in self.cage_cells[cell]:
            value = self.grid[other]
            if value:
                total += value
                if total > self.cage_total[cell]:
                    return -1
            elif other != cell:
                return 1
        return 1 if total == self.cage_total[cell] else 0


def plain_solution(puzzle: Puzzle, budget: int = 100_000, rule4: bool = True) -> tuple[int, ...] | None:
    """The seed's first grid, None when its search ends without one; raises
    PlainBudgetExceeded after `budget` digit tries. `rule4=False`: the seed exactly as
    written, blind to a digit repeated in a cage."""
    search = _PlainSearch(puzzle, budget, rule4)
    return tuple(search.grid) if search.solve() else None


def plain_tries(puzzle: Puzzle, budget: int = 100_000) -> int | None:
    """How many digits the seed's search tries until its first grid (or its end); None
    past `budget`."""
    search = _PlainSearch(puzzle, budget, rule4=True)
    try:
        search.solve()
    except PlainBudgetExceeded:
        return None
    return search.tries
