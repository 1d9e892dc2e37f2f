"""Valid puzzles with exactly one solution, from a `random.Random`.

    planted = unique_puzzle(rng, FAMILIES["medium"])
    planted.puzzle, planted.solution, planted.nodes

A puzzle is built around a solution: a random solved grid, cut into random connected cages
whose digits are distinct (each sums to what the grid holds there), and a random set of
given cells. The reference then looks for two solutions; while it finds a second one, the
digit of a cell where the two differ is given too (which rules the second one out), until
the planted grid is the only solution. The last search's solution is the expected answer.

A family says how hard: fewer givens and larger cages leave more to search.
"""
from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from exercises.killer_sudoku.puzzle import (ALL_DIGITS, CAGE_LETTERS, CELL_COUNT, Cage, Puzzle, box_of, column_of,
                                            connected, neighbours, row_of)
from exercises.killer_sudoku.solver import first_in_reading_order, search


Uniqueness = Literal["givens", "cages"]


@dataclass(frozen=True)
class Family:
    description: str
    givens: tuple[int, int]  # how many cells are given before uniqueness adds some (inclusive range)
    cage_sizes: tuple[int, ...]  # a cage's target size is drawn from these
    keep_singles: bool = False  # leave one-cell cages (a given in disguise) instead of merging them
    # How a second solution is ruled out: a given where it differs, or a cage split in two
    # whose sums it misses (no givens at all, as CodinGame's expert test).
    unique_by: Uniqueness = "givens"


FAMILIES: dict[str, Family] = {
    "easy": Family("many givens, cages of 1 to 3 cells", (34, 40), (1, 2, 2, 3, 3), keep_singles=True),
    "medium": Family("some givens, cages of 2 to 4 cells", (20, 26), (2, 3, 3, 4)),
    "sparse": Family("few givens, cages of 2 to 5 cells", (8, 14), (2, 3, 4, 5)),
    "large-cages": Family("few givens, cages of 4 to 9 cells", (6, 12), (4, 5, 6, 7, 8, 9)),
    "no-givens": Family("no givens (as CodinGame's expert test), cages of 2 to 5 cells", (0, 0), (2, 3, 3, 4, 5),
                        unique_by="cages"),
    "no-givens-large": Family("no givens, cages of 3 to 7 cells", (0, 0), (3, 4, 5, 6, 7), unique_by="cages"),
}
MAX_CAGES = len(CAGE_LETTERS)
# Nodes one search may take while a puzzle is being made unique. A search that runs out
# gets a constraint added anyway (a given, or a split cage), so every generated puzzle is
# proven unique by a search of at most this many nodes: the reference is fast on each.
SEARCH_BUDGET = 300
_SPLIT_TRIES = 6


@dataclass(frozen=True)
class Planted:
    puzzle: Puzzle
    solution: tuple[int, ...]  # the only solution, as the reference found it
    nodes: int  # the reference's search nodes on the final puzzle (its difficulty)
    constraints_added: int  # givens added or cages split to make the solution unique


def unique_puzzle(rng: random.Random, family: Family) -> Planted:
    """A puzzle of `family` whose only solution is a random grid.  A family made unique by
    cages keeps no givens: when no cage can be split any more (all CAGE_LETTERS used, or
    no cut the second solution misses), it starts again from another grid."""
    while True:
        planted = _unique_attempt(rng, family)
        if planted is not None:
            return planted


def _unique_attempt(rng: random.Random, family: Family) -> Planted | None:
    grid = random_grid(rng)
    cages = random_cages(rng, grid, family)
    low, high = family.givens
    given_cells = set(rng.sample(range(CELL_COUNT), rng.randint(low, high)))
    added = 0
    while True:
        puzzle = with_givens(grid, cages, given_cells)
        result = search(puzzle, limit=2, budget=SEARCH_BUDGET)
        if result.complete and len(result.solutions) == 1:
            assert result.solutions[0] == grid, "the planted grid solves its own puzzle"
            return Planted(puzzle, result.solutions[0], result.nodes, added)
        other = next((found for found in result.solutions if found != grid), None)
        if family.unique_by == "cages":
            split = _split(rng, grid, cages, other)
            if split is None:
                return None
            cages = split
        else:
            differing = [cell for cell in range(CELL_COUNT) if other is not None and other[cell] != grid[cell]]
            given_cells.add(rng.choice(differing or sorted(set(range(CELL_COUNT)) - given_cells)))
        added += 1


# Rule-4 traps: puzzles with one solution whose first grid in reading order without rule 4
# (no digit twice in a cage) is another grid, which repeats a digit in a cage: what the
# seed's program, which leaves rule 4 out, prints. Large cages across boxes make them likely.
TRAP_FAMILY = Family("some givens, cages of 5 to 8 cells", (12, 18), (5, 6, 7, 8))


def rule4_trap(rng: random.Random) -> Planted:
    """A unique puzzle that the seed's algorithm as written answers wrongly."""
    while True:
        planted = _trap_attempt(rng)
        if planted is not None:
            return planted


def _trap_attempt(rng: random.Random) -> Planted | None:
    """Draw a puzzle and look at its first grid without rule 4: while it keeps rule 4 it
    is a second solution, and a digit is given where it differs; once it breaks rule 4,
    second solutions are ruled out by givens where it agrees with the planted grid (it
    stays the seed's answer), or elsewhere when there is no such cell (and it is looked
    at again). None when the first grid without rule 4 becomes the planted one."""
    grid = random_grid(rng)
    cages = random_cages(rng, grid, TRAP_FAMILY)
    given_cells = set(rng.sample(range(CELL_COUNT), rng.randint(*TRAP_FAMILY.givens)))
    wrong: tuple[int, ...] | None = None
    while True:
        puzzle = with_givens(grid, cages, given_cells)
        if wrong is None:
            blind = first_in_reading_order(puzzle, distinct_cages=False, budget=SEARCH_BUDGET)
            if not blind.complete or blind.solutions[0] == grid:
                return None
            if not any(len({blind.solutions[0][cell] for cell in cage}) < len(cage) for cage in cages):
                given_cells.add(rng.choice([c for c in range(CELL_COUNT) if blind.solutions[0][c] != grid[c]]))
                continue
            wrong = blind.solutions[0]
        result = search(puzzle, limit=2, budget=SEARCH_BUDGET)
        if result.complete and len(result.solutions) == 1:
            return Planted(puzzle, result.solutions[0], result.nodes, 0)
        other = next((found for found in result.solutions if found != grid), None)
        open_cells = [cell for cell in range(CELL_COUNT) if cell not in given_cells
                      and (other is None or other[cell] != grid[cell])]
        keeping = [cell for cell in open_cells if wrong[cell] == grid[cell]]
        given_cells.add(rng.choice(keeping or open_cells))
        if not keeping:
            wrong = None


def _split(rng: random.Random, grid: tuple[int, ...], cages: list[tuple[int, ...]],
           other: tuple[int, ...] | None) -> list[tuple[int, ...]] | None:
    """`cages` with one cut in two connected parts: a cage where `other` (a second
    solution) differs from `grid`, cut so that `other` misses a part's sum; the largest
    cages when no second solution is known. None when no such cut is found."""
    if len(cages) >= MAX_CAGES:
        return None
    if other is None:
        largest = max(map(len, cages))
        chosen = [cage for cage in cages if len(cage) == largest and largest > 1]
    else:
        chosen = [cage for cage in cages if len(cage) > 1 and any(other[cell] != grid[cell] for cell in cage)]
    for cage in rng.sample(chosen, len(chosen)):
        for _ in range(_SPLIT_TRIES):
            part = _grown(rng, cage, rng.randint(1, len(cage) - 1))
            rest = tuple(cell for cell in cage if cell not in part)
            if not connected(rest):
                continue
            if other is None or sum(other[cell] for cell in part) != sum(grid[cell] for cell in part):
                return [c for c in cages if c != cage] + [tuple(sorted(part)), rest]
    return None


def _grown(rng: random.Random, cage: tuple[int, ...], size: int) -> set[int]:
    """A connected part of `size` cells of `cage`, grown from a random cell."""
    members = set(cage)
    part = {rng.choice(cage)}
    while len(part) < size:
        part.add(rng.choice(sorted({n for cell in part for n in neighbours(cell) if n in members} - part)))
    return part


def with_givens(grid: tuple[int, ...], cages: list[tuple[int, ...]], given_cells: set[int]) -> Puzzle:
    """The puzzle of `grid` cut into `cages` (lettered in reading order of their first
    cell, the sums line in letter order), with the digits of `given_cells` shown."""
    ordered = sorted(cages, key=min)
    return Puzzle(tuple(grid[cell] if cell in given_cells else 0 for cell in range(CELL_COUNT)),
                  tuple(Cage(letter, tuple(sorted(cells)), sum(grid[cell] for cell in cells))
                        for letter, cells in zip(CAGE_LETTERS, ordered)))


def random_grid(rng: random.Random) -> tuple[int, ...]:
    """A random solved sudoku: cells filled in reading order, each trying the digits its
    row, column and box leave in a random order, backing up when a cell has none (a few
    hundred tries at most: an empty sudoku leaves much room)."""
    grid = [0] * CELL_COUNT
    used = [0] * 27  # digits already in each row, column and box: houses 0-8, 9-17, 18-26

    def fill(cell: int) -> bool:
        if cell == CELL_COUNT:
            return True
        houses = (row_of(cell), 9 + column_of(cell), 18 + box_of(cell))
        free = ALL_DIGITS & ~(used[houses[0]] | used[houses[1]] | used[houses[2]])
        digits = [digit for digit in range(1, 10) if free >> digit & 1]
        rng.shuffle(digits)
        for digit in digits:
            for house in houses:
                used[house] ^= 1 << digit
            grid[cell] = digit
            if fill(cell + 1):
                return True
            for house in houses:
                used[house] ^= 1 << digit
        grid[cell] = 0
        return False

    assert fill(0), "an empty sudoku always has a solution"
    return tuple(grid)


def random_cages(rng: random.Random, grid: tuple[int, ...], family: Family) -> list[tuple[int, ...]]:
    """Connected cages of distinct digits of `grid`, of sizes drawn from the family; cells
    left alone are merged into a neighbouring cage when the family does not keep them,
    and cages are merged until there are at most 52 (the letters)."""
    owner = [-1] * CELL_COUNT
    cages: list[list[int]] = []
    for start in rng.sample(range(CELL_COUNT), CELL_COUNT):
        if owner[start] >= 0:
            continue
        cage = [start]
        owner[start] = len(cages)
        target = rng.choice(family.cage_sizes)
        while len(cage) < target:
            held = {grid[cell] for cell in cage}
            frontier = sorted({n for cell in cage for n in neighbours(cell) if owner[n] < 0 and grid[n] not in held})
            if not frontier:
                break
            grown = rng.choice(frontier)
            owner[grown] = len(cages)
            cage.append(grown)
        cages.append(cage)
    if not family.keep_singles:
        cages = _merge(rng, grid, cages, owner, lambda cage: len(cage) == 1)
    while len(cages) > MAX_CAGES:
        least = min(map(len, cages))
        cages = _merge(rng, grid, cages, _owners(cages), lambda cage: len(cage) == least,
                       limit=len(cages) - MAX_CAGES)
    return [tuple(cage) for cage in cages]


def _owners(cages: list[list[int]]) -> list[int]:
    owner = [-1] * CELL_COUNT
    for index, cage in enumerate(cages):
        for cell in cage:
            owner[cell] = index
    return owner


def _merge(rng: random.Random, grid: tuple[int, ...], cages: list[list[int]], owner: list[int],
           wanted: Callable[[list[int]], bool], limit: int = CELL_COUNT) -> list[list[int]]:
    """Merge each cage `wanted(cage)` picks (at most `limit` of them) into a neighbouring
    cage when their digits stay distinct and the result has at most 9 cells."""
    cages = [list(cage) for cage in cages]
    merges = 0
    for index in rng.sample(range(len(cages)), len(cages)):
        cage = cages[index]
        if not cage or not wanted(cage) or merges >= limit:
            continue
        digits = {grid[cell] for cell in cage}
        hosts = sorted({owner[n] for cell in cage for n in neighbours(cell)} - {index})
        hosts = [h for h in hosts if len(cages[h]) + len(cage) <= 9 and not digits & {grid[c] for c in cages[h]}]
        if not hosts:
            continue
        host = rng.choice(hosts)
        cages[host] += cage
        for cell in cage:
            owner[cell] = host
        cages[index] = []
        merges += 1
    return [cage for cage in cages if cage]
