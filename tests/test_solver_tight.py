"""The profile DP's bounds on tight boards never cut a packing, in both scan directions.

On these boards (few shapes, many pieces, 4-12 spare cells) the DP's bounds (dead cells,
the line counts, and the suffix bound room() in reference/_profile.c: the rest of the
square must hold the state's remaining pieces, in any mix of the types, the rarest ones
capped at their counts) cut most states, so a bound that claimed too little would drop
states that have a completion: the answers (yes/no, and the smallest corner of a piece
over all packings) would change.  They are checked against the C core's order-free
search, which shares no code with the DP's scan, and against the DP itself with the
memos (a `Room`, a `Lines`) shared between the questions of one square, as
`reference.side_questions.Side` shares them between all its scans of a side: a Room's
memo is made on the empty square and the questions' occupied cells and smaller counts
only restrict it.  A Room of some of the types (their pieces only) bounds the state's
pieces of those types.
"""
from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from reference import _fastsolve, _profile  # (built by pip install: tests/test_solver.py checks it)
from reference.shapes import SHAPE_BY_NAME, Shape

# Few shapes, many pieces, spare cells: the boards where the bound decides (the
# adversarial benchmark's L/T files, scaled down), and vertical bars for column scans.
_MIXES = [("L_90", "T_down", "T_right", "L_0"), ("I_vertical", "L_90", "T_down"), ("L_180", "L_90"),
          ("J_270", "L_180", "J_0"), ("T_up", "T_left", "I_vertical"), ("S_horizontal", "Z_vertical")]
DIRECTIONS = (0, 1)  # rows, columns


def tight_question(rng: random.Random) -> tuple[list[Shape], list[int], int]:
    """Types, counts and a side with 4-12 spare cells."""
    types = [SHAPE_BY_NAME[name] for name in rng.choice(_MIXES)]
    side = rng.randint(6, 8)
    pieces = (side * side - rng.randint(4, 12)) // 4
    counts = [0] * len(types)
    for _ in range(pieces):
        counts[rng.randrange(len(types))] += 1
    return types, counts, side


Rooms = Callable[[list, list[int], int, int], list[_profile.Room]]


def room_of_all_types(cells: list, counts: list[int], side: int, direction: int) -> list[_profile.Room]:
    return [_profile.Room(cells, counts, side, direction)]


def rooms_of_some_types(cells: list, counts: list[int], side: int, direction: int) -> list[_profile.Room]:
    """A Room for each type alone and one for the two most numerous (that subset's pieces
    only): a state is then dropped when it lacks room for its pieces of those types."""
    most = sorted(range(len(counts)), key=lambda t: -counts[t])[:2]
    subsets = [{t} for t in range(len(counts))] + ([set(most)] if len(counts) > 2 else [])
    return [_profile.Room(cells, [c if t in subset else 0 for t, c in enumerate(counts)], side, direction)
            for subset in subsets]


@pytest.mark.parametrize("direction", DIRECTIONS)
@pytest.mark.parametrize("make_rooms", [room_of_all_types, rooms_of_some_types])
@pytest.mark.parametrize("seed", range(12))
def test_room_keeps_every_packing_on_tight_boards(seed: int, make_rooms: Rooms, direction: int):
    rng = random.Random(f"room/{seed}")
    types, counts, side = tight_question(rng)
    cells = [t.cells for t in types]
    rooms = make_rooms(cells, counts, side, direction)
    for question in range(4):
        # Later questions: a few cells taken and fewer pieces, like the staged search's.
        occupied = sorted(rng.sample(range(side * side), 4 * question))
        left = [max(0, c - rng.randint(0, question)) for c in counts]
        if sum(left) == 0:
            continue

        def scan(target: int, room: object = None) -> int | None | bool:
            return _profile.first_corner(cells, left, side, occupied, [0] * len(types), target, 0, None, room, None,
                                         direction)

        expected = _fastsolve.packable(cells, left, side, occupied, 0, None)
        assert (scan(-1) is not None) == expected
        corners = {t: scan(t) for t in range(len(types)) if left[t]} if expected else {}
        for room in rooms:
            assert (scan(-1, room) is not None) == expected
            assert {t: scan(t, room) for t in corners} == corners


def fits_at(types: list[Shape], counts: list[int], side: int, t: int, corner: int) -> bool:
    """The C core's order-free search packs the rest of `counts` around a type-t piece at
    `corner` (a row-major index of its bounding box's top-left)."""
    shape = types[t]
    row, col = divmod(corner, side)
    if row + shape.height > side or col + shape.width > side:
        return False
    rest = list(counts)
    rest[t] -= 1
    taken = sorted((row + r) * side + col + dc for r, dc in shape.cells)
    return _fastsolve.packable([u.cells for u in types], rest, side, taken, 0, None)


def packable_tight_question(rng: random.Random) -> tuple[list[Shape], list[int], int]:
    """The first tight question drawn that has a packing."""
    for _ in range(100):
        types, counts, side = tight_question(rng)
        if _fastsolve.packable([t.cells for t in types], counts, side, [], 0, None):
            return types, counts, side
    pytest.fail("no packable board in 100 draws")


@pytest.mark.parametrize("make_rooms", [room_of_all_types, rooms_of_some_types])
@pytest.mark.parametrize("seed", range(12))
def test_room_keeps_the_smallest_corner_of_dense_packings(seed: int, make_rooms: Rooms):
    """Boards that have a packing: the smallest corner of each type over all packings, with
    the Rooms (of the preferred direction), is one where the C core's order-free search
    packs the rest and no smaller corner is."""
    types, counts, side = packable_tight_question(random.Random(f"room-corner/{seed}"))
    cells = [t.cells for t in types]
    direction = _profile.window_direction(cells, side)
    rooms = make_rooms(cells, counts, side, direction)
    for t in (t for t in range(len(types)) if counts[t]):
        corners = {_profile.first_corner(cells, counts, side, [], [0] * len(types), t, 0, None, room, None,
                                         direction) for room in rooms}
        assert len(corners) == 1, "every Room keeps the same smallest corner"
        corner = corners.pop()
        assert isinstance(corner, int) and corner is not False
        assert fits_at(types, counts, side, t, corner)
        assert not any(fits_at(types, counts, side, t, c) for c in range(corner))


def test_room_rejects_another_square():
    cells = [SHAPE_BY_NAME["T_down"].cells, SHAPE_BY_NAME["L_90"].cells]
    room = _profile.Room(cells, [3, 3], 7)
    with pytest.raises(ValueError):
        _profile.first_corner(cells, [3, 3], 8, [], [0, 0], -1, 0, None, room)  # another side
    with pytest.raises(ValueError):
        _profile.first_corner(cells, [4, 3], 7, [], [0, 0], -1, 0, None, room)  # more pieces
    with pytest.raises(ValueError):
        _profile.first_corner(cells[::-1], [3, 3], 7, [], [0, 0], -1, 0, None, room)  # other types
    with pytest.raises(TypeError):
        _profile.first_corner(cells, [3, 3], 7, [], [0, 0], -1, 0, None, object())
    with pytest.raises(TypeError):
        _profile.first_corner(cells, [3, 3], 7, [], [0, 0], -1, 0, None, (room,))
    # A Room of some types bounds only those: any count of the others, no more of its own.
    t_down_only = _profile.Room(cells, [3, 0], 7)
    assert _profile.first_corner(cells, [3, 5], 7, [], [0, 0], -1, 0, None, t_down_only) is not False
    with pytest.raises(ValueError):
        _profile.first_corner(cells, [4, 3], 7, [], [0, 0], -1, 0, None, t_down_only)


@pytest.mark.parametrize("seed", range(30))
def test_both_directions_keep_every_packing(seed: int):
    """The line counts, with a memo shared by the questions of one square, along the rows
    and along the columns: the same yes/no as the C core, the same smallest corners."""
    rng = random.Random(f"tight/{seed}")
    types, counts, side = tight_question(rng)
    cells = [t.cells for t in types]
    lines = {direction: _profile.Lines() for direction in DIRECTIONS}
    for question in range(4):
        occupied = sorted(rng.sample(range(side * side), 4 * question))
        left = [max(0, c - rng.randint(0, question)) for c in counts]
        if sum(left) == 0:
            continue

        def scan(target: int, direction: int, memo: _profile.Lines | None) -> int | None | bool:
            return _profile.first_corner(cells, left, side, occupied, [0] * len(types), target, 0, None, None, memo,
                                         direction)

        expected = _fastsolve.packable(cells, left, side, occupied, 0, None)
        for direction in DIRECTIONS:
            assert (scan(-1, direction, None) is not None) == expected
            assert (scan(-1, direction, lines[direction]) is not None) == expected
        for target in (t for t in range(len(types)) if left[t]):
            corners = {scan(target, direction, lines[direction]) for direction in DIRECTIONS}
            assert len(corners) == 1, "both directions find the same smallest corner"


@pytest.mark.parametrize("seed", range(16))
def test_the_smallest_corner_of_dense_packings_is_the_c_cores(seed: int):
    """Boards that have a packing: the smallest corner of each type over all packings, in
    both directions, is one where the C core's order-free search packs the rest and no
    smaller corner is."""
    types, counts, side = packable_tight_question(random.Random(f"tight-corner/{seed}"))
    cells = [t.cells for t in types]
    for t in (t for t in range(len(types)) if counts[t]):
        for direction in DIRECTIONS:
            corner = _profile.first_corner(cells, counts, side, [], [0] * len(types), t, 0, None, None,
                                           _profile.Lines(), direction)
            assert isinstance(corner, int) and corner is not False
            assert fits_at(types, counts, side, t, corner)
            assert not any(fits_at(types, counts, side, t, c) for c in range(corner))


def test_a_lines_memo_serves_one_square():
    """A Lines memo is the bound of one square and set of types: reused for another, it
    is rebuilt, never read as if it were the first one's."""
    cells = [SHAPE_BY_NAME["T_down"].cells, SHAPE_BY_NAME["L_90"].cells]
    lines = _profile.Lines()
    for side, types in ((7, cells), (8, cells), (7, cells[::-1]), (7, cells)):
        counts = [5, 5]
        shared = _profile.first_corner(types, counts, side, [], [0, 0], -1, 0, None, None, lines, 0)
        assert shared == _profile.first_corner(types, counts, side, [], [0, 0], -1, 0, None, None, None, 0)
    with pytest.raises(TypeError):
        _profile.first_corner(cells, [3, 3], 7, [], [0, 0], -1, 0, None, None, object())
