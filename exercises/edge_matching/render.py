"""How reports draw an edge-matching puzzle, an answer, and a board with its mismatches.

    input_lines(data)                        # "4 x 4 framed, 16 pieces, colours 1-3", the pieces
    answer_drawing(data, text)               # an answer's board on its puzzle (None: not a legal board)
    board_drawing(puzzle, board, score)      # the board, each cell's four colours, '!' on mismatches

A drawn cell is three lines of CELL_WIDTH characters: its top colour, then its left colour,
PIECE/ROTATION and its right colour, then its bottom colour. '|' and '-' separate cells;
'!' replaces them where the two sides of an edge do not match.
"""
from __future__ import annotations

from collections.abc import Sequence

from exercises.edge_matching.board import Cell, EdgeScore, count_edges, read_answer
from exercises.edge_matching.puzzle import Puzzle, parse

CELL_WIDTH = 11
_SHOWN_LINES = 40  # an invalid input is shown up to this many lines
_PIECES_PER_LINE = 4


def _visible(line: str) -> str:
    """A raw line with tabs, carriage returns and control characters spelled out, and
    '·' for each space at its end."""
    shown = "".join(ch if ch.isprintable() and ch != "\t" else repr(ch)[1:-1] for ch in line)
    stripped = shown.rstrip(" ")
    return stripped + "·" * (len(shown) - len(stripped))


def _raw(text: str, empty: str) -> list[str]:
    if not text:
        return [empty]
    lines = text.split("\n")
    shown = [_visible(line) for line in lines[:_SHOWN_LINES]]
    if len(lines) > _SHOWN_LINES:
        shown.append(f"... ({len(lines) - _SHOWN_LINES} more lines)")
    elif text.endswith("\n"):
        shown.pop()
    else:
        shown[-1] += "  (no newline at the end)"
    return shown


def input_lines(data: bytes) -> list[str]:
    """A valid puzzle as a summary and its pieces (number: top right bottom left), four a
    line; any other input as its raw lines, invisible characters spelled out."""
    puzzle = parse(data).puzzle
    if puzzle is None:
        return _raw(data.decode("utf-8", errors="replace"), "(empty file)")
    colours = puzzle.colours
    kind = "framed (colour 0 on the sides facing out)" if puzzle.framed else "free (no border colour)"
    palette = f"colours {colours[0]}-{colours[-1]}" if colours else "no inner colour"
    lines = [f"{puzzle.rows} x {puzzle.cols} {kind}, {len(puzzle.pieces)} pieces, {palette}"]
    width = len(str(len(puzzle.pieces)))
    entries = [f"{k:>{width}}: {' '.join(f'{c:>2}' for c in sides)}" for k, sides in enumerate(puzzle.pieces, 1)]
    for start in range(0, len(entries), _PIECES_PER_LINE):
        lines.append("   ".join(entries[start:start + _PIECES_PER_LINE]))
    return lines


def answer_lines(text: str) -> list[str]:
    """An expected or actual output, line by line, invisible characters spelled out."""
    return _raw(text, "(nothing printed)")


def answer_drawing(data: bytes, text: str) -> list[str] | None:
    """The board `text` lays out on the puzzle `data`, drawn with its mismatched edges
    (`board_drawing`); None when the input is not a puzzle or the answer not a legal board."""
    puzzle = parse(data).puzzle
    if puzzle is None:
        return None
    board = read_answer(puzzle, text).board
    return None if board is None else board_drawing(puzzle, board, count_edges(puzzle, board))


def board_drawing(puzzle: Puzzle, board: Sequence[Cell], score: EdgeScore) -> list[str]:
    """The board drawn cell by cell with its colours; '!' marks each mismatched edge."""
    bad = {(edge.row, edge.col, edge.side) for edge in score.mismatches}
    cols = puzzle.cols
    lines = []
    for r in range(puzzle.rows):
        sides = [puzzle.oriented(*board[r * cols + c]) for c in range(cols)]
        if r == 0:
            lines.append("+" + "+".join("-" * CELL_WIDTH for _ in range(cols)) + "+")
        tops, middles, bottoms = [], [], []
        for c, (top, right, bottom, left) in enumerate(sides):
            piece, rotation = board[r * cols + c]
            tops.append(f"{top:^{CELL_WIDTH}}")
            middles.append(f"{left:<2}" + f"{piece}/{rotation}".center(CELL_WIDTH - 4) + f"{right:>2}")
            bottoms.append(f"{bottom:^{CELL_WIDTH}}")
        seps = ["!" if (r, c, "right") in bad else "|" for c in range(cols - 1)]
        for row in (tops, middles, bottoms):
            lines.append("|" + "".join(cell + sep for cell, sep in zip(row, [*seps, "|"])))
        below = []
        for c in range(cols):
            mark = r + 1 < puzzle.rows and (r, c, "bottom") in bad
            below.append("!!!".center(CELL_WIDTH, "-") if mark else "-" * CELL_WIDTH)
        lines.append("+" + "+".join(below) + "+")
    lines.append(f"matched {score.matched}/{score.total} edges" +
                 (f"; '!' marks the {len(score.mismatches)} mismatched" if score.mismatches else ""))
    return lines
