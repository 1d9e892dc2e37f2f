"""The line-count bound (reference/_lines.h) answers its one-dimensional question exactly.

Project a packing onto the rows (or the columns): each piece puts its profile (cells per
line of its box) at the line where its box starts, and the profiles must add up to no
more than the free cells of each line.  The bound says "no packing" only when no such
shifts exist, so it is checked here against a brute force over the shifts of every piece,
both ways (a bound that refutes too much would cut packings; one that refutes too little
would be a search that lost its pruning), and against real packings, whose projections
always fit.  The C core (its order-free search) and the profile DP (its states) use it;
the solver tests check their answers against the plain search, and the last test here
that the C core's search really gets smaller.
"""
from __future__ import annotations

import random
from functools import lru_cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reference import _fastsolve, _profile  # (built by pip install: tests/test_solver.py checks it)
from reference.shapes import SHAPES, Shape
from reference.solver import solve


def profile(shape: Shape, vertical: bool) -> list[int]:
    cells = [c if vertical else r for r, c in shape.cells]
    return [cells.count(line) for line in range(max(cells) + 1)]


def shifts_fit(free: list[int], pieces: list[list[int]]) -> bool:
    """Brute force: can each profile start at some line, every line holding no more than
    its free cells?  (The empty cells left then number sum(free) - 4 x pieces.)"""
    if 4 * len(pieces) > sum(free):
        return False

    def place(i: int, load: list[int]) -> bool:
        if i == len(pieces):
            return True
        p = pieces[i]
        for start in range(len(free) - len(p) + 1):
            if all(load[start + j] + p[j] <= free[start + j] for j in range(len(p))):
                for j in range(len(p)):
                    load[start + j] += p[j]
                done = place(i + 1, load)
                for j in range(len(p)):
                    load[start + j] -= p[j]
                if done:
                    return True
        return False

    return place(0, [0] * len(free))


def lines_fit(free: list[int], pieces: list[list[int]]) -> bool:
    """The same question line by line, for boards too big for the brute force: at each
    line, how many pieces of each profile start there (a state: the line, the cells already
    given to the next lines, the pieces left per profile; memoised whole)."""
    profiles = sorted(set(map(tuple, pieces)))
    lines = len(free)
    padded = list(free) + [0] * 4

    @lru_cache(maxsize=None)
    def fits(line: int, given: tuple[int, ...], left: tuple[int, ...]) -> bool:
        if not any(left):
            return True
        if line == lines:
            return False
        return starting(line, 0, given + (0,), left)

    def starting(line: int, i: int, load: tuple[int, ...], left: tuple[int, ...]) -> bool:
        """Profiles i.. start k times at `line`, for every k that fits."""
        if i == len(profiles):
            return fits(line + 1, load[1:], left)
        p, most = profiles[i], left[i]
        for k in range(most + 1):
            if k:
                load = tuple(x + (p[j] if j < len(p) else 0) for j, x in enumerate(load))
                if any(load[j] > padded[line + j] for j in range(4)):
                    return False
                left = left[:i] + (left[i] - 1,) + left[i + 1:]
            if starting(line, i + 1, load, left):
                return True
        return False

    return 4 * len(pieces) <= sum(free) and fits(0, (0, 0, 0), tuple(pieces.count(list(p)) for p in profiles))


def board_with(free: list[int], vertical: bool) -> list[int]:
    """Occupied cells leaving free[line] free cells in each line (the rest of the line)."""
    side = len(free)
    return sorted((c * side + line if vertical else line * side + c)
                  for line in range(side) for c in range(free[line], side))


@st.composite
def line_questions(draw: st.DrawFn) -> tuple[list[Shape], list[int], list[int], bool]:
    """A side of 4-7 lines with few spare cells, 1-4 shapes and 1-6 pieces."""
    side = draw(st.integers(4, 7))
    types = draw(st.lists(st.sampled_from(SHAPES), min_size=1, max_size=4, unique=True))
    counts = draw(st.lists(st.integers(0, 3), min_size=len(types), max_size=len(types)))
    pieces = sum(counts)
    vertical = draw(st.booleans())
    spare = draw(st.integers(0, 3))
    # free cells per line summing to 4 x pieces + spare when the side allows it
    total = min(4 * pieces + spare, side * side)
    free = [0] * side
    for _ in range(total):
        open_lines = [line for line in range(side) if free[line] < side]
        free[draw(st.sampled_from(open_lines))] += 1
    return types, counts, free, vertical


@settings(max_examples=400, deadline=None)
@given(line_questions())
def test_the_bound_answers_the_line_question_exactly(question: tuple[list[Shape], list[int], list[int], bool]) -> None:
    types, counts, free, vertical = question
    pieces = [profile(t, vertical) for t, n in zip(types, counts) for _ in range(n)]
    expected = shifts_fit(free, pieces)
    assert _profile.line_counts([t.cells for t in types], counts, len(free), board_with(free, vertical),
                                vertical) == expected


_TYPE_SETS = [("J_180", "L_180", "J_270", "L_0"), ("T_up", "T_down", "L_90"), ("I_vertical", "T_left", "O"),
              ("S_vertical", "Z_vertical", "L_180"), ("I_horizontal", "J_90", "T_right", "S_horizontal")]


@pytest.mark.parametrize("names", _TYPE_SETS)
def test_one_memo_serves_every_question(names: tuple[str, ...]) -> None:
    """As the DP and the C core use it: one memo for many questions about the same types
    (its states are facts about the lines, whatever question reached them).  A key that
    left out part of a state would let one question's answer stand for another's."""
    by_name = {s.name: s for s in SHAPES}
    types = [by_name[n] for n in names]
    cells = [t.cells for t in types]
    rng = random.Random(names[0])
    for vertical in (False, True):
        lines = _profile.Lines()
        for _ in range(60):
            side = rng.randint(7, 11)
            counts = [rng.randint(0, 4) for _ in types]
            # the lower lines empty, the upper ones partly filled, as the searches' boards are,
            # then cells moved between random lines
            total = min(4 * sum(counts) + rng.randint(0, 2), side * side)
            free = [0] * side
            for line in range(side - 1, -1, -1):
                free[line] = min(side, total)
                total -= free[line]
            for _ in range(rng.randint(0, 3 * side)):
                a, b = rng.randrange(side), rng.randrange(side)
                if free[a] > 0 and free[b] < side:
                    free[a] -= 1
                    free[b] += 1
            pieces = [profile(t, vertical) for t, n in zip(types, counts) for _ in range(n)]
            assert _profile.line_counts(cells, counts, side, board_with(free, vertical), vertical,
                                        lines) == lines_fit(free, pieces)


def test_a_shared_memo_tells_apart_what_the_lines_below_hold() -> None:
    """Two questions that agree on their first lines and on the pieces but not on the lines
    further down, asked in turn of one memo: each gets its own answer (four horizontal
    bars need four lines of 4 free cells; the second board has three)."""
    bar = next(s for s in SHAPES if s.name == "I_horizontal")
    lines = _profile.Lines()
    for _ in range(2):
        assert _profile.line_counts([bar.cells], [4], 5, board_with([4, 4, 4, 4, 0], False), False, lines)
        assert not _profile.line_counts([bar.cells], [4], 5, board_with([4, 4, 4, 3, 1], False), False, lines)


@pytest.mark.parametrize("seed", range(40))
def test_packings_always_fit_their_line_counts(seed: int) -> None:
    """Any subset of a real packing, on its own cells plus a few spare ones, passes along
    both axes: the bound never cuts a packing."""
    rng = random.Random(seed)
    shapes = rng.sample(SHAPES, rng.randint(1, 4))
    pieces = [rng.choice(shapes) for _ in range(rng.randint(8, 16))]
    solution = solve(pieces)
    side = solution.side
    kept = [i for i in range(len(pieces)) if rng.random() < 0.7]
    free = {(row + r) * side + col + c for i in kept for (row, col) in [solution.positions[i]]
            for r, c in pieces[i].cells}
    others = [cell for cell in range(side * side) if cell not in free]
    free |= set(rng.sample(others, min(len(others), rng.randint(0, 5))))
    types = list(dict.fromkeys(pieces))
    counts = [sum(1 for i in kept if pieces[i] == t) for t in types]
    occupied = sorted(set(range(side * side)) - free)
    for vertical in (False, True):
        assert _profile.line_counts([t.cells for t in types], counts, side, occupied, vertical)


def test_a_hard_question_the_bound_refutes() -> None:
    """Rows holding 8, 8, 9, 8, 4, 2, 1 free cells: nine pieces of row profile (2, 1, 1)
    (J_180, L_180) and one of (3, 1) (J_270) have 40 cells, exactly those, yet no shifts
    fit.  With x pieces of (2, 1, 1) and y of (3, 1) starting at a row, every row must be
    full: 2x + 3y = 8 at the first (x = 4), x + 2x' + ... = 8 at the second (x' = 2), then
    the third needs 3 more cells (the (3, 1) piece), and the fourth 2 + 1 + 2x'' = 8, odd.
    With one (1, 1, 2) piece (L_0) instead of a (2, 1, 1) one, no shifts fit either."""
    names = {s.name: s for s in SHAPES}
    types = [names["J_180"], names["L_180"], names["J_270"], names["L_0"]]
    free = [0, 0, 0, 0, 8, 8, 9, 8, 4, 2, 1]
    occupied = board_with(free, False)
    cells = [t.cells for t in types]
    assert not _profile.line_counts(cells, [5, 4, 1, 0], 11, occupied, False)
    assert not _profile.line_counts(cells, [5, 3, 1, 1], 11, occupied, False)
    assert _profile.line_counts(cells, [5, 4, 1, 0], 11, [], False)  # the empty square has room


def test_the_c_core_searches_less_with_the_bound() -> None:
    """The hard corner question of nhnhnnnnjnhjoonjjohjojnjnj (four L/J shapes, side 11):
    J_180, L_0, J_180, L_0, J_180 at corners 0, 2, 4, 6, 8 leave no packing for the other 21
    pieces.  Without the bound the C core's search took 1 499 522 nodes to prove it; with it,
    654 000 nodes and line states together (the counts are exact: the search is
    deterministic).  A search that lost the bound would take the old count again."""
    names = {s.name: s for s in SHAPES}
    types = [names[n] for n in ("J_180", "L_0", "L_180", "J_270")]
    side, placed = 11, [(0, 0), (1, 2), (0, 4), (1, 6), (0, 8)]
    occupied = sorted((r + row) * side + c + col for t, corner in placed
                      for row, col in [divmod(corner, side)] for r, c in types[t].cells)
    packer = _fastsolve.Packer([t.cells for t in types], side)
    assert packer.packable([7, 2, 8, 4], occupied) is False
    assert packer.last_nodes() < 1_000_000
