"""The seed's first algorithm ("heuristique1"), kept as the baseline a heuristic solver is
measured against (tests/edge_matching_targets/solver.c -DHEURISTIC is the same in C).

    board = heuristic(puzzle)           # always a full, legal board
    count_edges(puzzle, board).matched  # how good it is

Row by row from piece 1 at the top left, unrotated: at each cell, the first unused piece
(by number) in its first rotation (0 to 3) that fits the cell above and the cell to the
left (and, on a framed puzzle, puts colour 0 exactly on the sides facing out). No going
back. Where nothing fits, the seed's program exits (exit(5), (6), (7)); a graded program
must print a full board, so the baseline instead takes the unused piece and rotation that
satisfies the most of those conditions (first by number and rotation among equals), and
goes on.
"""
from __future__ import annotations

from exercises.edge_matching.board import Board, Cell, matches
from exercises.edge_matching.puzzle import BORDER, Puzzle
from exercises.edge_matching.solver import outer_sides


def heuristic(puzzle: Puzzle) -> Board:
    cols = puzzle.cols
    board: list[Cell] = [(1, 0)]
    used = {1}
    for index in range(1, puzzle.rows * cols):
        row, col = divmod(index, cols)
        outer = outer_sides(puzzle, row, col)
        above = puzzle.oriented(*board[index - cols])[2] if row > 0 else None
        left = puzzle.oriented(*board[index - 1])[1] if col > 0 else None
        wanted = 2 + (4 if puzzle.framed else 0)
        best: tuple[int, Cell] | None = None
        for piece in range(2, len(puzzle.pieces) + 1):
            if piece in used:
                continue
            for rotation in range(4):
                sides = puzzle.oriented(piece, rotation)
                met = (above is None or matches(sides[0], above)) + (left is None or matches(sides[3], left))
                if puzzle.framed:
                    met += sum((colour == BORDER) == out for colour, out in zip(sides, outer))
                if best is None or met > best[0]:
                    best = (met, (piece, rotation))
                if met == wanted:
                    break
            if best is not None and best[0] == wanted:
                break
        assert best is not None  # a cell left means an unused piece left
        board.append(best[1])
        used.add(best[1][0])
    return tuple(board)
