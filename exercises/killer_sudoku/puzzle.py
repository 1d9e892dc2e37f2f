"""The board of Killer Sudoku: cells, houses, cages, and the text of an input.

A cell is an index 0..80 in reading order (row * 9 + column, both 0-based here; every
message and report counts rows and columns from 1). A house is a row, a column or a 3x3
box: nine cells that hold 1..9 once each. A cage is a connected group of cells, named by a
letter, whose digits are distinct and add up to its sum (docs/exercises/killer-sudoku.md).
Candidate sets are bit masks: bit d stands for digit d (1..9).
"""
from __future__ import annotations

import itertools
import string
from dataclasses import dataclass
from functools import cache

SIDE = 9
CELL_COUNT = SIDE * SIDE
DIGITS = "123456789"
ALL_DIGITS = sum(1 << d for d in range(1, 10))  # the mask of 1..9
GRID_TOTAL = 9 * 45  # every row holds 1..9, so the cage sums add up to 405
CAGE_LETTERS = string.ascii_letters  # a-z then A-Z: 52 cage names at most
MAX_CAGE_CELLS = 9  # distinct digits

ROWS: tuple[tuple[int, ...], ...] = tuple(tuple(r * SIDE + c for c in range(SIDE)) for r in range(SIDE))
COLUMNS: tuple[tuple[int, ...], ...] = tuple(tuple(r * SIDE + c for r in range(SIDE)) for c in range(SIDE))
BOXES: tuple[tuple[int, ...], ...] = tuple(
    tuple((3 * (b // 3) + r) * SIDE + 3 * (b % 3) + c for r in range(3) for c in range(3)) for b in range(SIDE))
HOUSES = ROWS + COLUMNS + BOXES


def row_of(cell: int) -> int:
    return cell // SIDE


def column_of(cell: int) -> int:
    return cell % SIDE


def box_of(cell: int) -> int:
    return 3 * (row_of(cell) // 3) + column_of(cell) // 3


def where(cell: int) -> str:
    """"row 3, column 7": 1-based, as every message says it."""
    return f"row {row_of(cell) + 1}, column {column_of(cell) + 1}"


def neighbours(cell: int) -> list[int]:
    """The edge-adjacent cells (cages are connected through edges, never corners)."""
    r, c = row_of(cell), column_of(cell)
    return [nr * SIDE + nc for nr, nc in ((r - 1, c), (r, c - 1), (r, c + 1), (r + 1, c))
            if 0 <= nr < SIDE and 0 <= nc < SIDE]


def connected(cells: tuple[int, ...]) -> bool:
    """The cells form one piece through edges (a cage's shape)."""
    members = set(cells)
    reached = {cells[0]}
    frontier = [cells[0]]
    while frontier:
        for neighbour in neighbours(frontier.pop()):
            if neighbour in members and neighbour not in reached:
                reached.add(neighbour)
                frontier.append(neighbour)
    return len(reached) == len(members)


def digits_of(mask: int) -> list[int]:
    return [d for d in range(1, 10) if mask >> d & 1]


@cache
def cage_combinations(size: int, total: int) -> tuple[int, ...]:
    """Every set of `size` distinct digits adding up to `total`, as masks, smallest first."""
    return tuple(sum(1 << d for d in combo) for combo in itertools.combinations(range(1, 10), size)
                 if sum(combo) == total)


def sum_range(size: int) -> tuple[int, int]:
    """The smallest and largest sum of `size` distinct digits (1+2+..., 9+8+...)."""
    return size * (size + 1) // 2, size * (19 - size) // 2


@dataclass(frozen=True)
class Cage:
    letter: str
    cells: tuple[int, ...]  # reading order
    total: int


@dataclass(frozen=True)
class Puzzle:
    givens: tuple[int, ...]  # 81 digits in reading order, 0 for an empty cell
    cages: tuple[Cage, ...]  # in the order of the sums line

    def layout(self) -> list[str]:
        """The 9 cage rows: each cell's cage letter."""
        letters = [""] * CELL_COUNT
        for cage in self.cages:
            for cell in cage.cells:
                letters[cell] = cage.letter
        return ["".join(letters[r * SIDE:(r + 1) * SIDE]) for r in range(SIDE)]

    def cage_of_cell(self) -> list[Cage]:
        owner: list[Cage | None] = [None] * CELL_COUNT
        for cage in self.cages:
            for cell in cage.cells:
                owner[cell] = cage
        assert all(cage is not None for cage in owner), "cages cover the grid"
        return [cage for cage in owner if cage is not None]


def grid_rows(digits: tuple[int, ...] | list[int]) -> list[str]:
    """81 digits as 9 rows of text, '.' for 0."""
    text = "".join(DIGITS[d - 1] if d else "." for d in digits)
    return [text[r * SIDE:(r + 1) * SIDE] for r in range(SIDE)]


def answer_text(solution: tuple[int, ...] | list[int]) -> str:
    """The output for a solved puzzle: 9 lines of 9 digits."""
    return "".join(row + "\n" for row in grid_rows(solution))


def input_text(puzzle: Puzzle) -> bytes:
    """The puzzle as its program reads it: 9 lines `GRIDROW CAGEROW`, then the sums line."""
    lines = [f"{digits} {letters}" for digits, letters in zip(grid_rows(puzzle.givens), puzzle.layout())]
    lines.append(" ".join(f"{cage.letter}={cage.total}" for cage in puzzle.cages))
    return "".join(line + "\n" for line in lines).encode()
