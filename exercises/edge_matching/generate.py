"""Puzzles by construction: solvable ones with their solution, and unsolvable ones with
the reason (docs/exercises/edge-matching.md, "Suites").

    puzzle, solution = solvable(4, 4, colours=3, framed=True, rng=random.Random(1))
    count_edges(puzzle, solution).complete          # True: the construction is the proof
    puzzle = unsolvable("odd_colour", 4, 4, 3, random.Random(1))

Solvable: colour every edge of a rows x cols grid at random (inner colours 1..colours; the
sides facing out 0 on a framed puzzle, inner colours on a free one), cut the grid into its
cells, turn every piece but the top-left one a random number of quarter turns, and shuffle
them; the top-left piece is piece 1, unrotated (the seed's p[1]).
"""
from __future__ import annotations

import random
from typing import Literal

from exercises.edge_matching.board import Board, Cell
from exercises.edge_matching.puzzle import BORDER, Puzzle, Sides, rotate
from exercises.edge_matching.solver import OutOfBudget, impossibility, solve

Unsolvable = Literal["odd_colour", "corner_moved", "swapped_sides"]
UNSOLVABLE: dict[Unsolvable, str] = {
    "odd_colour": "one side of one piece recoloured: a colour on an odd number of sides (framed)",
    "corner_moved": "piece 1 is not a corner, so nothing fits the top left unrotated (framed)",
    "swapped_sides": "two pieces swap one side's colour: every colour count stays even, only an "
                     "exhaustive search shows there is no solution",
}
SWAP_TRIES = 200  # swapped_sides: fresh draws before giving up
SWAP_BUDGET = 200_000  # swapped_sides: placements the proof may take


def _grid_sides(rows: int, cols: int, colours: int, framed: bool, frame_colours: int,
                rng: random.Random) -> list[Sides]:
    """Each cell's (top, right, bottom, left) colours, row by row, edges coloured at random."""
    def inner() -> int:
        return rng.randint(1, colours)

    def along_frame() -> int:  # an edge joining two cells of the frame
        return rng.randint(colours + 1, colours + frame_colours) if framed and frame_colours else inner()

    def outer() -> int:
        return BORDER if framed else inner()

    # horizontal[r][c]: the edge above cell (r, c) (r = rows: below the last row)
    horizontal = [[outer() if r in (0, rows) else along_frame() if c in (0, cols - 1) else inner()
                   for c in range(cols)] for r in range(rows + 1)]
    vertical = [[outer() if c in (0, cols) else along_frame() if r in (0, rows - 1) else inner()
                 for c in range(cols + 1)] for r in range(rows)]
    return [(horizontal[r][c], vertical[r][c + 1], horizontal[r + 1][c], vertical[r][c])
            for r in range(rows) for c in range(cols)]


def solvable(rows: int, cols: int, colours: int, framed: bool, rng: random.Random,
             frame_colours: int = 0) -> tuple[Puzzle, Board]:
    """A puzzle with its constructed solution (see the module doc). `frame_colours`: on a
    framed puzzle, the edges joining two cells of the frame take colours of their own,
    colours + 1 .. colours + frame_colours (Eternity II's rule); 0: the inner ones."""
    if colours < 1:
        raise ValueError("at least one inner colour")
    cells = _grid_sides(rows, cols, colours, framed, frame_colours, rng)
    order = list(range(1, len(cells)))
    rng.shuffle(order)  # order[k]: the cell whose piece is number k + 2
    pieces: list[Sides] = [cells[0]]
    solution: list[Cell] = [(1, 0)] * len(cells)
    for number, cell in enumerate(order, start=2):
        rotation = rng.randrange(4)
        pieces.append(rotate(cells[cell], -rotation))  # placed turned `rotation` times, it is the cell
        solution[cell] = (number, rotation)
    return Puzzle(rows, cols, tuple(pieces)), tuple(solution)


def unsolvable(kind: Unsolvable, rows: int, cols: int, colours: int, rng: random.Random) -> Puzzle:
    """A framed puzzle without solution, of `kind` (UNSOLVABLE)."""
    if kind == "odd_colour":
        if colours < 2 or rows * cols < 2:
            raise ValueError("odd_colour needs two colours and two pieces")
        puzzle, _ = solvable(rows, cols, colours, True, rng)
        return _recoloured(puzzle, rng, colours)
    if kind == "corner_moved":
        if rows < 3 or cols < 3:
            raise ValueError("corner_moved needs an inner piece (3 x 3 or more)")
        puzzle, _ = solvable(rows, cols, colours, True, rng)
        inner = [k for k, sides in enumerate(puzzle.pieces) if BORDER not in sides]
        k = rng.choice(inner)
        pieces = list(puzzle.pieces)
        pieces[0], pieces[k] = pieces[k], pieces[0]
        return Puzzle(rows, cols, tuple(pieces))
    return _swapped(rows, cols, colours, rng)


def _recoloured(puzzle: Puzzle, rng: random.Random, colours: int) -> Puzzle:
    candidates = [(k, side) for k, sides in enumerate(puzzle.pieces) if k > 0
                  for side in range(4) if sides[side] != BORDER]
    k, side = rng.choice(candidates)
    sides = list(puzzle.pieces[k])
    sides[side] = rng.choice([c for c in range(1, colours + 1) if c != sides[side]])  # inner palette
    pieces = list(puzzle.pieces)
    pieces[k] = (sides[0], sides[1], sides[2], sides[3])
    return Puzzle(puzzle.rows, puzzle.cols, tuple(pieces))


def _swapped(rows: int, cols: int, colours: int, rng: random.Random) -> Puzzle:
    """Swap one inner side's colour between two pieces until exhaustive search (within
    SWAP_BUDGET) finds no solution."""
    for _ in range(SWAP_TRIES):
        puzzle, _ = solvable(rows, cols, colours, True, rng)
        pieces = list(puzzle.pieces)
        a, b = rng.sample(range(1, len(pieces)), 2)
        sa = [s for s in range(4) if pieces[a][s] != BORDER]
        sb = [s for s in range(4) if pieces[b][s] != BORDER and pieces[b][s] not in (pieces[a][x] for x in sa)]
        if not sa or not sb:
            continue
        x, y = rng.choice(sa), rng.choice(sb)
        first, second = list(pieces[a]), list(pieces[b])
        first[x], second[y] = second[y], first[x]
        pieces[a], pieces[b] = (first[0], first[1], first[2], first[3]), (second[0], second[1], second[2], second[3])
        candidate = Puzzle(rows, cols, tuple(pieces))
        if impossibility(candidate):
            continue
        try:
            if solve(candidate, SWAP_BUDGET).board is None:
                return candidate
        except OutOfBudget:
            continue
    raise RuntimeError(f"no unsolvable swap found for {rows}x{cols}, {colours} colours")
