"""The profile DP's suffix bound (room() in reference/_profile.c) never cuts a packing.

A DP state is dropped when the rest of the square cannot hold its remaining pieces (in any
mix of the types, the rarest ones capped at their counts).  On the boards of these tests
that bound cuts most states, so a bound that claimed too little room would drop states
that have a completion: the answers (yes/no, and the smallest corner of a piece over all
packings) would change.  They are checked against the C core's order-free search and
against the DP itself with a `Room` shared between the questions of one square, as
`reference.staged` shares it between all its scans of a side: the Room's memo is made on
the empty square and the questions' occupied cells and smaller counts only restrict it.
Rooms of some of the types (their pieces only, as staged adds them for the most numerous
types) bound the state's pieces of those types, and are checked the same way.
"""
from __future__ import annotations

import random
from collections.abc import Callable
from itertools import combinations

import pytest

from reference import _fastsolve, _profile  # (built by pip install: tests/test_solver.py checks it)
from reference.shapes import SHAPE_BY_NAME, Shape

# Few shapes, many pieces, spare cells: the boards where the bound decides (the
# adversarial benchmark's L/T files, scaled down), and vertical bars for column scans.
_MIXES = [("L_90", "T_down", "T_right", "L_0"), ("I_vertical", "L_90", "T_down"), ("L_180", "L_90"),
          ("J_270", "L_180", "J_0"), ("T_up", "T_left", "I_vertical")]


def tight_question(rng: random.Random) -> tuple[list[Shape], list[int], int]:
    """Types, counts and a side with 4-12 spare cells."""
    types = [SHAPE_BY_NAME[name] for name in rng.choice(_MIXES)]
    side = rng.randint(6, 8)
    pieces = (side * side - rng.randint(4, 12)) // 4
    counts = [0] * len(types)
    for _ in range(pieces):
        counts[rng.randrange(len(types))] += 1
    return types, counts, side


Rooms = Callable[[list, list[int], int], "_profile.Room | tuple[_profile.Room, ...]"]


def room_of_all_types(cells: list, counts: list[int], side: int) -> _profile.Room:
    return _profile.Room(cells, counts, side)


def rooms_of_every_subset(cells: list, counts: list[int], side: int) -> tuple[_profile.Room, ...]:
    """A Room for the whole file and one for each proper subset of its types (that
    subset's pieces only), as `reference.staged` adds them for the most numerous types: a
    state is then dropped when any of them lacks room for its pieces of those types."""
    subsets = [s for size in range(1, len(counts)) for s in combinations(range(len(counts)), size)]
    return (_profile.Room(cells, counts, side),) + tuple(
        _profile.Room(cells, [c if t in subset else 0 for t, c in enumerate(counts)], side) for subset in subsets)


@pytest.mark.parametrize("make_rooms", [room_of_all_types, rooms_of_every_subset])
@pytest.mark.parametrize("seed", range(24))
def test_room_keeps_every_packing_on_tight_boards(seed: int, make_rooms: Rooms):
    rng = random.Random(f"room/{seed}")
    types, counts, side = tight_question(rng)
    cells = [t.cells for t in types]
    room = make_rooms(cells, counts, side)
    for question in range(4):
        # Later questions: a few cells taken and fewer pieces, like the greedy's corners.
        occupied = sorted(rng.sample(range(side * side), 4 * question))
        left = [max(0, c - rng.randint(0, question)) for c in counts]
        if sum(left) == 0:
            continue
        expected = _fastsolve.packable(cells, left, side, occupied, 0, None)
        alone = _profile.first_corner(cells, left, side, occupied, [0] * len(types), -1, 0)
        shared = _profile.first_corner(cells, left, side, occupied, [0] * len(types), -1, 0, None, room)
        assert (alone is not None) == expected and (shared is not None) == expected
        for target in (t for t in range(len(types)) if left[t]):
            assert (_profile.first_corner(cells, left, side, occupied, [0] * len(types), target, 0, None, room)
                    == _profile.first_corner(cells, left, side, occupied, [0] * len(types), target, 0))


@pytest.mark.parametrize("make_rooms", [room_of_all_types, rooms_of_every_subset])
@pytest.mark.parametrize("seed", range(12))
def test_room_keeps_the_smallest_corner_of_dense_packings(seed: int, make_rooms: Rooms):
    """Boards that have a packing: the smallest corner of each type over all packings, with
    the Room and without, equals the one the C core's order-free search confirms."""
    rng = random.Random(f"room-corner/{seed}")
    for _ in range(100):  # the first tight question of this seed that has a packing
        types, counts, side = tight_question(rng)
        cells = [t.cells for t in types]
        if _fastsolve.packable(cells, counts, side, [], 0, None):
            break
    else:
        pytest.fail("no packable board in 100 draws")
    room = make_rooms(cells, counts, side)
    for t in (t for t in range(len(types)) if counts[t]):
        corner = _profile.first_corner(cells, counts, side, [], [0] * len(types), t, 0, None, room)
        rest = list(counts)
        rest[t] -= 1
        shape = types[t]

        def fits_at(c: int) -> bool:
            row, col = divmod(c, side)
            if row + shape.height > side or col + shape.width > side:
                return False
            taken = sorted((row + r) * side + col + dc for r, dc in shape.cells)
            return _fastsolve.packable(cells, rest, side, taken, 0, None)

        assert fits_at(corner) and not any(fits_at(c) for c in range(corner))


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
        _profile.first_corner(cells, [3, 3], 7, [], [0, 0], -1, 0, None, (room, object()))
    # A Room of some types bounds only those: any count of the others, no more of its own.
    t_down_only = _profile.Room(cells, [3, 0], 7)
    assert _profile.first_corner(cells, [3, 5], 7, [], [0, 0], -1, 0, None, (t_down_only,)) is not False
    with pytest.raises(ValueError):
        _profile.first_corner(cells, [4, 3], 7, [], [0, 0], -1, 0, None, t_down_only)
