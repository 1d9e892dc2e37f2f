"""A puzzle compiled into the constraints propagation applies (exercises.killer_sudoku.propagate).

* `groups`: cells of distinct digits with a known sum, and the digit sets that fit (the
  cages, and sets the rule of 45 finds inside one house);
* `sums`: cells with a known sum whose digits may repeat (sets the rule of 45 finds across
  several houses; cages, when rule 4 is dropped), bounded by their smallest and largest
  candidates.

The rule of 45: a row, column or box holds 1..9, so k consecutive rows (or columns) add up
to 45k. The cells of such a region outside the cages it holds whole ("innies") add up to
45k minus those cages; the cages it overlaps add up to 45k plus their cells outside it
("outies"). A derived set inside one house has distinct digits: a group like a cage.
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from exercises.killer_sudoku.puzzle import CELL_COUNT, COLUMNS, HOUSES, ROWS, Puzzle, cage_combinations

Group = tuple[tuple[int, ...], tuple[int, ...]]  # (cells, digit sets of their size and sum)
Sum = tuple[tuple[int, ...], int]  # (cells, sum)
# Derived sets spanning several houses larger than this bound their sum too loosely to help.
MAX_SUM_CELLS = 5


@dataclass(frozen=True)
class Rules:
    groups: tuple[Group, ...]
    sums: tuple[Sum, ...]


def compile_rules(puzzle: Puzzle, distinct_cages: bool = True) -> Rules:
    """The puzzle's groups and sums. `distinct_cages=False` drops rule 4 (no digit twice
    in a cage), as the seed's program does: a cage spanning several houses is then only
    a sum (what `exercises.killer_sudoku.plain` with rule4=False answers)."""
    groups: dict[tuple[int, ...], tuple[int, ...]] = {}
    sums: dict[tuple[int, ...], int] = {}
    for cage in puzzle.cages:
        if distinct_cages or _in_one_house(cage.cells):
            groups[cage.cells] = cage_combinations(len(cage.cells), cage.total)
        else:
            sums[cage.cells] = cage.total
    for cells, total in _rule_of_45(puzzle):
        if _in_one_house(cells):
            groups.setdefault(cells, cage_combinations(len(cells), total))
        elif len(cells) <= MAX_SUM_CELLS and cells not in groups:
            sums.setdefault(cells, total)
    return Rules(tuple(groups.items()), tuple(sums.items()))


def _in_one_house(cells: tuple[int, ...]) -> bool:
    mask = _mask(cells)
    return any(mask & ~house == 0 for house in _HOUSE_MASKS)


def _mask(cells: Iterable[int]) -> int:
    """A set of cells as one integer, bit c for cell c (set algebra in a few operations)."""
    mask = 0
    for cell in cells:
        mask |= 1 << cell
    return mask


def _cells(mask: int) -> tuple[int, ...]:
    return tuple(cell for cell in range(CELL_COUNT) if mask >> cell & 1)


_HOUSE_MASKS = tuple(_mask(house) for house in HOUSES)


def _regions() -> list[tuple[int, int]]:
    """Each house, and each run of 2 to 8 consecutive rows or columns, with its sum."""
    regions = [(mask, 45) for mask in _HOUSE_MASKS]
    for lines in (ROWS, COLUMNS):
        for count in range(2, 9):
            for first in range(0, 10 - count):
                regions.append((_mask(cell for line in lines[first:first + count] for cell in line), 45 * count))
    return regions


_REGIONS = _regions()


def _rule_of_45(puzzle: Puzzle) -> list[Sum]:
    cages = [(_mask(cage.cells), cage.total) for cage in puzzle.cages]
    derived: list[Sum] = []
    for region, total in _REGIONS:
        whole = inside_total = overlapping = overlapping_total = 0
        for cage, cage_total in cages:
            if cage & region:
                overlapping |= cage
                overlapping_total += cage_total
                if cage & ~region == 0:
                    whole |= cage
                    inside_total += cage_total
        innies = region & ~whole
        if whole and innies:
            derived.append((_cells(innies), total - inside_total))
        outies = overlapping & ~region
        if outies:
            derived.append((_cells(outies), overlapping_total - total))
    return derived
