"""The exact reference: the seed's row-by-row order, made a backtracking search with pruning.

    solved = solve(puzzle)               # Solved(board=((1, 0), (4, 1), ...), nodes=57, proof="")
    answer_text(data)                    # "1/0 4/1\\n...", "none\\n" or "error\\n"

Vocabulary: cells are filled row by row from the top left, where piece 1 sits unrotated
(the seed's p[1]); at each cell the candidates are tried in the seed's order, pieces by
number, then rotations 0 to 3; a candidate *fits* when its top and left sides match the
cells above and to the left, and, on a framed puzzle, its sides of colour 0 are exactly the
ones facing out of the board. The first full board found is the answer: the first in that
order (board compared cell by cell, (piece, rotation) by (piece, rotation)).

Pruning, none of which can cut the first solution:
* the candidates of a cell come from a table keyed by (top colour, left colour) and by
  which of its sides face out, built once: no piece is looked at that cannot fit;
* a rotation equal to an earlier rotation of the same piece is left out (a symmetric piece);
* a piece identical to an unused piece of lower number is skipped (its subtree is the
  lower twin's, already tried and failed, or never reached);
* before searching, two proofs of impossibility: piece 1 does not fit the top left, or
  (framed) an inner colour is on an odd number of sides, while every inner edge joins two.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from exercises.edge_matching.board import Board, Cell, board_text
from exercises.edge_matching.puzzle import BORDER, ERROR, NONE, Puzzle, Sides, parse, rotate

Outer = tuple[bool, bool, bool, bool]  # which of top, right, bottom, left face out of the board
Candidate = tuple[int, int, int, int]  # piece, rotation, right colour, bottom colour


class OutOfBudget(Exception):
    """The search placed more pieces than its budget without finishing."""


@dataclass(frozen=True)
class Solved:
    board: Board | None  # the first solution; None: there is none
    nodes: int  # pieces placed during the search
    proof: str = ""  # when board is None: why ("exhaustive search" or the quick proof)


def outer_sides(puzzle: Puzzle, row: int, col: int) -> Outer:
    return (row == 0, col == puzzle.cols - 1, row == puzzle.rows - 1, col == 0)


def border_ok(puzzle: Puzzle, sides: Sides, outer: Outer) -> bool:
    """On a framed puzzle, colour 0 exactly on the sides facing out; on a free one, anything."""
    return not puzzle.framed or all((colour == BORDER) == out for colour, out in zip(sides, outer))


def impossibility(puzzle: Puzzle) -> str:
    """A reason the puzzle has no solution found without search, or ""."""
    first = puzzle.pieces[0]
    if not border_ok(puzzle, first, outer_sides(puzzle, 0, 0)):
        return "piece 1, unrotated, does not fit the top-left corner (its border sides are not the top and left)"
    if puzzle.framed:
        counts = Counter(c for sides in puzzle.pieces for c in sides if c != BORDER)
        odd = sorted(colour for colour, n in counts.items() if n % 2)
        if odd:
            return (f"colour {odd[0]} is on {counts[odd[0]]} sides, an odd number, but every inner edge joins "
                    "two sides of one colour")
    return ""


def _table(puzzle: Puzzle) -> dict[Outer, dict[tuple[int | None, int | None], list[Candidate]]]:
    """Each border class's candidates by (top, left) key: None where that side faces out."""
    table: dict[Outer, dict[tuple[int | None, int | None], list[Candidate]]] = {}
    for row in range(puzzle.rows):
        for col in range(puzzle.cols):
            outer = outer_sides(puzzle, row, col)
            if outer in table:
                continue
            by_key: dict[tuple[int | None, int | None], list[Candidate]] = {}
            for piece, sides in enumerate(puzzle.pieces[1:], start=2):
                seen: set[Sides] = set()
                for rotation in range(4):
                    turned = rotate(sides, rotation)
                    if turned in seen or not border_ok(puzzle, turned, outer):
                        continue
                    seen.add(turned)
                    key = (None if outer[0] else turned[0], None if outer[3] else turned[3])
                    by_key.setdefault(key, []).append((piece, rotation, turned[1], turned[2]))
            table[outer] = by_key
    return table


def _twins(puzzle: Puzzle) -> list[tuple[int, ...]]:
    """For each piece number, the lower-numbered pieces identical to it up to rotation."""
    groups: dict[Sides, list[int]] = {}
    lower: list[tuple[int, ...]] = [()] * (len(puzzle.pieces) + 1)
    for piece, sides in enumerate(puzzle.pieces, start=1):
        canonical = min(rotate(sides, k) for k in range(4))
        lower[piece] = tuple(groups.get(canonical, ()))
        groups.setdefault(canonical, []).append(piece)
    return lower


def solve(puzzle: Puzzle, budget: int | None = None) -> Solved:
    """The first solution in the seed's order, or None with its proof; raises OutOfBudget
    after `budget` placements."""
    reason = impossibility(puzzle)
    if reason:
        return Solved(None, 0, reason)
    rows, cols = puzzle.rows, puzzle.cols
    rows_cols = rows * cols
    table = _table(puzzle)
    tables = [table[outer_sides(puzzle, i // cols, i % cols)] for i in range(rows_cols)]
    twins = _twins(puzzle)
    used = [False] * (len(puzzle.pieces) + 1)
    used[1] = True
    first = puzzle.pieces[0]
    rights = [first[1]] + [0] * (rows_cols - 1)  # right colour of each placed cell
    bottoms = [first[2]] + [0] * (rows_cols - 1)
    placed: list[Cell] = [(1, 0)]
    nodes = 0
    limit = budget if budget is not None else -1

    def fill(index: int) -> bool:
        nonlocal nodes
        if index == rows_cols:
            return True
        row, col = divmod(index, cols)
        key = (None if row == 0 else bottoms[index - cols], None if col == 0 else rights[index - 1])
        for piece, rotation, right, bottom in tables[index].get(key, ()):
            if used[piece] or any(not used[twin] for twin in twins[piece]):
                continue
            nodes += 1
            if nodes == limit:
                raise OutOfBudget(f"more than {budget} placements")
            used[piece] = True
            rights[index], bottoms[index] = right, bottom
            placed.append((piece, rotation))
            if fill(index + 1):
                return True
            placed.pop()
            used[piece] = False
        return False

    if fill(1):
        return Solved(tuple(placed), nodes)
    return Solved(None, nodes, "exhaustive search")


def answer_text(data: bytes) -> str:
    """What a correct program prints for the file `data` (the reference command)."""
    puzzle = parse(data).puzzle
    if puzzle is None:
        return ERROR
    solved = solve(puzzle)
    return NONE if solved.board is None else board_text(puzzle, solved.board)
