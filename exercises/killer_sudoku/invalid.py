"""Invalid inputs: one builder per rule of `parser.RULES`, each breaking that rule first.

    data = invalid_input("cage_sum_impossible", random.Random("seed:case"))

Each builder starts from a well-formed puzzle (a random grid cut into cages, some cells
given) and breaks one rule the way a person or a buggy generator would: a line too
short, a cage letter with no sum, two cages sharing a letter, a sum out of reach... The
suites check that the parser rejects each for its rule (exercises.killer_sudoku.suites).
`no_solution` is the one that needs the reference: a well-formed puzzle that has no grid.
"""
from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace

from exercises.killer_sudoku.generate import FAMILIES, random_cages, random_grid, unique_puzzle, with_givens
from exercises.killer_sudoku.puzzle import (BOXES, CAGE_LETTERS, CELL_COUNT, COLUMNS, MAX_CAGE_CELLS, ROWS, Cage,
                                            Puzzle, box_of, cage_combinations, column_of, input_text, neighbours,
                                            row_of, sum_range)

Builder = Callable[[random.Random], bytes]


def _puzzle(rng: random.Random) -> Puzzle:
    """A well-formed puzzle (not necessarily with one solution): enough to break a rule."""
    grid = random_grid(rng)
    return with_givens(grid, random_cages(rng, grid, FAMILIES["medium"]), set(rng.sample(range(CELL_COUNT), 24)))


def _lines(rng: random.Random) -> list[str]:
    return input_text(_puzzle(rng)).decode().split("\n")[:-1]


def _text(lines: list[str]) -> bytes:
    return "".join(line + "\n" for line in lines).encode()


def _line_count(rng: random.Random) -> bytes:
    lines = _lines(rng)
    row = rng.randrange(9)
    variant = rng.choice(("drop a grid line", "drop the sums line", "repeat a grid line", "empty line at the end"))
    if variant == "drop a grid line":
        del lines[row]
    elif variant == "drop the sums line":
        del lines[9]
    elif variant == "repeat a grid line":
        lines.insert(row, lines[row])
    else:
        lines.append("")
    return _text(lines)


def _row_separator(rng: random.Random) -> bytes:
    lines = _lines(rng)
    row = rng.randrange(9)
    digits, letters = lines[row].split(" ")
    lines[row] = rng.choice((f"{digits}\t{letters}", f"{digits}  {letters}", digits + letters, f"{digits} {letters} "))
    return _text(lines)


def _field_length(rng: random.Random, field: int) -> bytes:
    lines = _lines(rng)
    row = rng.randrange(9)
    fields = lines[row].split(" ")
    at = rng.randrange(9)
    text = fields[field]
    fields[field] = text[:at] + text[at + 1:] if rng.random() < 0.5 else text[:at] + text[at] + text[at:]
    lines[row] = " ".join(fields)
    return _text(lines)


def _bad_char(rng: random.Random, field: int, bad: str) -> bytes:
    lines = _lines(rng)
    row, at = rng.randrange(9), rng.randrange(9)
    fields = lines[row].split(" ")
    fields[field] = fields[field][:at] + "\x00" + fields[field][at + 1:]
    lines[row] = " ".join(fields)
    # A non-ASCII byte stands for itself: one bad byte where the character was.
    return _text(lines).replace(b"\x00", rng.choice(bad.split("|")).encode("latin-1"))


def _sum_entry(rng: random.Random) -> bytes:
    lines = _lines(rng)
    entries = lines[9].split(" ")
    at = rng.randrange(len(entries))
    letter, total = entries[at].split("=")
    entries[at] = rng.choice((f"{letter}:{total}", f"{letter}=", f"{letter}=-{total}", f"={total}",
                              f"{letter}{letter}={total}", f"{letter}={total}x", ""))
    return _text(lines[:9] + [" ".join(entries)])


def _duplicate_sum(rng: random.Random) -> bytes:
    lines = _lines(rng)
    entries = lines[9].split(" ")
    twice = rng.randrange(len(entries))
    entries.insert(rng.randint(twice + 1, len(entries)), entries[twice])
    return _text(lines[:9] + [" ".join(entries)])


def _unknown_cage(rng: random.Random) -> bytes:
    lines = _lines(rng)
    entries = lines[9].split(" ")
    unused = [letter for letter in CAGE_LETTERS if not any(letter in line.split(" ")[1] for line in lines[:9])]
    entries.insert(rng.randint(0, len(entries)), f"{rng.choice(unused)}={rng.randint(1, 17)}")
    return _text(lines[:9] + [" ".join(entries)])


def _missing_sum(rng: random.Random) -> bytes:
    lines = _lines(rng)
    entries = lines[9].split(" ")
    del entries[rng.randrange(len(entries))]
    return _text(lines[:9] + [" ".join(entries)])


def _cage_disconnected(rng: random.Random) -> bytes:
    """Two cages that do not touch share one letter (and one sum: theirs together)."""
    puzzle = _puzzle(rng)
    cages = list(puzzle.cages)
    while True:
        first, second = rng.sample(range(len(cages)), 2)
        touching = {n for cell in cages[first].cells for n in neighbours(cell)}
        if not touching & set(cages[second].cells):
            break
    joined = Cage(cages[first].letter, tuple(sorted(cages[first].cells + cages[second].cells)),
                  cages[first].total + cages[second].total)
    cages[first] = joined
    del cages[second]
    return input_text(replace(puzzle, cages=tuple(cages)))


def _cage_too_large(rng: random.Random) -> bytes:
    """A cage grows over its neighbours to 10 cells or more (its sum: theirs together)."""
    puzzle = _puzzle(rng)
    owner = {cell: cage for cage in puzzle.cages for cell in cage.cells}
    grown = rng.choice(puzzle.cages)
    cells, absorbed = set(grown.cells), {grown.letter}
    while len(cells) <= MAX_CAGE_CELLS:
        neighbour = owner[rng.choice(sorted({n for cell in cells for n in neighbours(cell)} - cells))]
        cells |= set(neighbour.cells)
        absorbed.add(neighbour.letter)
    total = sum(cage.total for cage in puzzle.cages if cage.letter in absorbed)
    cages = [Cage(grown.letter, tuple(sorted(cells)), total) if cage is grown else cage
             for cage in puzzle.cages if cage is grown or cage.letter not in absorbed]
    return input_text(replace(puzzle, cages=tuple(cages)))


def _cage_sum_impossible(rng: random.Random) -> bytes:
    """A sum out of its cage's reach (another cage takes the difference, when one can)."""
    puzzle = _puzzle(rng)
    cages = list(puzzle.cages)
    at = rng.randrange(len(cages))
    low, high = sum_range(len(cages[at].cells))
    total = rng.choice([t for t in (low - 1, low - 2, high + 1, high + 3) if t >= 0])
    delta = total - cages[at].total
    cages[at] = replace(cages[at], total=total)
    for k in rng.sample(range(len(cages)), len(cages)):
        k_low, k_high = sum_range(len(cages[k].cells))
        if k != at and k_low <= cages[k].total - delta <= k_high:
            cages[k] = replace(cages[k], total=cages[k].total - delta)
            break
    return input_text(replace(puzzle, cages=tuple(cages)))


def _sums_total(rng: random.Random) -> bytes:
    puzzle = _puzzle(rng)
    cages = list(puzzle.cages)
    while True:
        at, delta = rng.randrange(len(cages)), rng.choice((-3, -2, -1, 1, 2, 3))
        low, high = sum_range(len(cages[at].cells))
        if low <= cages[at].total + delta <= high:
            cages[at] = replace(cages[at], total=cages[at].total + delta)
            return input_text(replace(puzzle, cages=tuple(cages)))


Pairing = Callable[[int, int, dict[int, Cage]], bool]


def _twin_given(rng: random.Random, same: Pairing) -> bytes:
    """A given digit given again in an empty cell `same` pairs with it (same row, column,
    box or cage), which holds it in no other house or cage: one duplicate only."""
    while True:
        puzzle = _puzzle(rng)
        givens = list(puzzle.givens)
        cage_of = {cell: cage for cage in puzzle.cages for cell in cage.cells}
        pairs = [(x, y) for x in range(CELL_COUNT) if givens[x] for y in range(CELL_COUNT)
                 if not givens[y] and same(x, y, cage_of) and _free_elsewhere(givens, cage_of, x, y)]
        if pairs:
            first, second = rng.choice(pairs)
            givens[second] = givens[first]
            return input_text(replace(puzzle, givens=tuple(givens)))


def _free_elsewhere(givens: list[int], cage_of: dict[int, Cage], first: int, second: int) -> bool:
    """`second` may take `first`'s digit without a second duplicate anywhere."""
    digit = givens[first]
    units = [ROWS[row_of(second)], COLUMNS[column_of(second)], BOXES[box_of(second)], cage_of[second].cells]
    return sum(1 for unit in units for cell in unit if givens[cell] == digit) == 1


def _same_row(x: int, y: int, cage_of: dict[int, Cage]) -> bool:
    return row_of(x) == row_of(y)


def _same_column(x: int, y: int, cage_of: dict[int, Cage]) -> bool:
    return column_of(x) == column_of(y)


def _same_box(x: int, y: int, cage_of: dict[int, Cage]) -> bool:
    return box_of(x) == box_of(y)


def _same_cage(x: int, y: int, cage_of: dict[int, Cage]) -> bool:
    return cage_of[x] is cage_of[y]


def _cage_givens(rng: random.Random) -> bytes:
    """A digit given in a cage that no digit set of its size and sum (with its other
    givens) holds, and that repeats nothing."""
    while True:
        puzzle = _puzzle(rng)
        givens = list(puzzle.givens)
        choices = []
        for cage in puzzle.cages:
            held = sum(1 << givens[cell] for cell in cage.cells if givens[cell])
            fitting = [combo for combo in cage_combinations(len(cage.cells), cage.total) if combo & held == held]
            for cell in (c for c in cage.cells if not givens[c]):
                seen = {givens[other] for unit in (ROWS[row_of(cell)], COLUMNS[column_of(cell)], BOXES[box_of(cell)],
                                                    cage.cells) for other in unit}
                choices += [(cell, digit) for digit in range(1, 10)
                            if digit not in seen and not any(combo >> digit & 1 for combo in fitting)]
        if choices:
            cell, digit = rng.choice(choices)
            givens[cell] = digit
            return input_text(replace(puzzle, givens=tuple(givens)))


def _no_solution(rng: random.Random) -> bytes:
    """A puzzle with one solution, plus a given that differs from it (and breaks no rule
    of the input by itself): no grid fits any more."""
    planted = unique_puzzle(rng, FAMILIES["easy"])
    puzzle, solution = planted.puzzle, planted.solution
    givens = list(puzzle.givens)
    cage_of = {cell: cage for cage in puzzle.cages for cell in cage.cells}
    choices = []
    for cell in (c for c in range(CELL_COUNT) if not givens[c]):
        cage = cage_of[cell]
        held = sum(1 << givens[other] for other in cage.cells if givens[other])
        seen = {givens[other] for unit in (ROWS[row_of(cell)], COLUMNS[column_of(cell)], BOXES[box_of(cell)],
                                            cage.cells) for other in unit}
        choices += [(cell, digit) for digit in range(1, 10) if digit != solution[cell] and digit not in seen
                    and any(combo & (held | 1 << digit) == held | 1 << digit
                            for combo in cage_combinations(len(cage.cells), cage.total))]
    cell, digit = rng.choice(choices)
    givens[cell] = digit
    return input_text(replace(puzzle, givens=tuple(givens)))


INVALID_BUILDERS: dict[str, Builder] = {
    "empty_input": lambda rng: b"",
    "line_count": _line_count,
    "row_separator": _row_separator,
    "row_length": lambda rng: _field_length(rng, 0),
    "cage_row_length": lambda rng: _field_length(rng, 1),
    "bad_digit": lambda rng: _bad_char(rng, 0, "0|x|*|#|-|,|\xe9"),
    "bad_cage_letter": lambda rng: _bad_char(rng, 1, "1|_|.|#|@|\xe9"),
    "sum_entry": _sum_entry,
    "duplicate_sum": _duplicate_sum,
    "unknown_cage": _unknown_cage,
    "missing_sum": _missing_sum,
    "cage_disconnected": _cage_disconnected,
    "cage_too_large": _cage_too_large,
    "cage_sum_impossible": _cage_sum_impossible,
    "sums_total": _sums_total,
    "duplicate_given_row": lambda rng: _twin_given(rng, _same_row),
    "duplicate_given_column": lambda rng: _twin_given(rng, _same_column),
    "duplicate_given_box": lambda rng: _twin_given(rng, _same_box),
    "duplicate_given_cage": lambda rng: _twin_given(rng, _same_cage),
    "cage_givens": _cage_givens,
    "no_solution": _no_solution,
}


def invalid_input(rule: str, rng: random.Random) -> bytes:
    return INVALID_BUILDERS[rule](rng)
