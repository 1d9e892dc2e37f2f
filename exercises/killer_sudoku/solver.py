"""The exact reference: constraint propagation and search, after Norvig's sudoku essay.

Each cell holds the set of digits it may still take (a bit mask). Propagation applies the
rules until nothing changes:

* a house (row, column, box) holds each digit once: a digit fixed in a cell leaves the
  house's other cells, and a digit with one place left in the house goes there;
* a cage holds distinct digits adding up to its sum: of the digit sets of its size and
  sum (`cage_combinations`, computed once), only those containing the cage's fixed digits
  and fitting its cells' candidates remain; its cells keep only digits of those sets, and
  a digit every remaining set needs, with one place left in the cage, goes there.

Search fixes the cell with the fewest candidates (most constrained first) to each of them
in turn, and propagates again. `search(puzzle, limit=2)` stops at two solutions: that is
how the generators prove a puzzle has exactly one. When a puzzle has several, the answer is
the first in reading order (docs/exercises/killer-sudoku.md), which `first_in_reading_order`
finds by branching on cells in reading order instead, with the same propagation.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from exercises.killer_sudoku.parser import Rejection, parse
from exercises.killer_sudoku.propagate import Candidates, Propagator
from exercises.killer_sudoku.puzzle import ALL_DIGITS, CELL_COUNT, Puzzle, answer_text
from exercises.killer_sudoku.rules import compile_rules

ERROR = "error\n"


@dataclass
class SearchResult:
    solutions: list[tuple[int, ...]] = field(default_factory=list)
    nodes: int = 0  # propagations run (the search tree's size)
    complete: bool = True  # False: stopped at its node budget, before `limit` solutions or the end


def reference(data: bytes) -> str:
    """The expected output for an input: the solved grid, or `error` (invalid, unsolvable)."""
    parsed = parse(data)
    if isinstance(parsed, Rejection):
        return ERROR
    answer = solution(parsed)
    return ERROR if answer is None else answer_text(answer)


def solution(puzzle: Puzzle) -> tuple[int, ...] | None:
    """The answer to a well-formed puzzle: its only solution, the first in reading order
    when it has several, None when it has none."""
    found = search(puzzle, limit=2).solutions
    if len(found) < 2:
        return found[0] if found else None
    return first_in_reading_order(puzzle).solutions[0]


def search(puzzle: Puzzle, limit: int = 2, budget: int | None = None) -> SearchResult:
    """Up to `limit` solutions (most constrained cell first), and the nodes it took;
    `budget`: stop after that many nodes (`complete` then says it did)."""
    return _Search(puzzle, limit, by_reading_order=False, budget=budget).run()


def first_in_reading_order(puzzle: Puzzle, distinct_cages: bool = True, budget: int | None = None) -> SearchResult:
    """The solution whose 81 digits, read row by row, come first (the smallest number).
    `distinct_cages=False`: without rule 4, which is what the seed's program prints."""
    return _Search(puzzle, 1, by_reading_order=True, budget=budget, distinct_cages=distinct_cages).run()


class _Search:
    def __init__(self, puzzle: Puzzle, limit: int, by_reading_order: bool, budget: int | None = None,
                 distinct_cages: bool = True) -> None:
        self.puzzle = puzzle
        self.limit = limit
        self.by_reading_order = by_reading_order
        self.budget = budget
        self.propagator = Propagator(compile_rules(puzzle, distinct_cages))
        self.result = SearchResult()

    def run(self) -> SearchResult:
        self._node([1 << digit if digit else ALL_DIGITS for digit in self.puzzle.givens], None)
        return self.result

    def _node(self, candidates: Candidates, changed: tuple[int, ...] | None) -> None:
        if self.budget is not None and self.result.nodes >= self.budget:
            self.result.complete = False
            return
        self.result.nodes += 1
        if not self.propagator.propagate(candidates, changed):
            return
        cell = _branch_cell(candidates, self.by_reading_order)
        if cell is None:
            self.result.solutions.append(tuple(mask.bit_length() - 1 for mask in candidates))
            return
        mask = candidates[cell]
        while mask:
            digit = mask & -mask  # smallest first
            mask ^= digit
            child = candidates[:]
            child[cell] = digit
            self._node(child, (cell,))
            if len(self.result.solutions) >= self.limit or not self.result.complete:
                return


def _branch_cell(candidates: Candidates, by_reading_order: bool) -> int | None:
    """The open cell to branch on: the first in reading order, or one with the fewest
    candidates (the first such); None when every cell is fixed."""
    best, best_count = None, 10
    for cell in range(CELL_COUNT):
        mask = candidates[cell]
        if mask & (mask - 1):
            if by_reading_order:
                return cell
            count = mask.bit_count()
            if count < best_count:
                best, best_count = cell, count
                if count == 2:
                    break
    return best
