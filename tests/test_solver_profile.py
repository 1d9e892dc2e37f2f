"""The profile DP (`reference._profile`) against exhaustive enumeration and the C core.

The DP answers two order-free questions exactly: is there a packing, and what is the
smallest corner of a given type's piece over all packings (with per-type lower limits on
corners, the ordering of identical pieces `reference.staged` gives it).  Both are checked
here against a brute force that lists every packing of tiny boards, and the yes/no answer
against the C core's order-free search on larger random boards, in both scan directions
(vertical bars make the DP scan columns).
"""
from __future__ import annotations

import random
from collections.abc import Iterator, Sequence

import pytest

from reference.shapes import SHAPE_BY_NAME, SHAPES, Shape
from solver_knobs import along_the_window
from test_solver_beam import check_packing

_profile = pytest.importorskip("reference._profile")
_fastsolve = pytest.importorskip("reference._fastsolve")
side_questions = pytest.importorskip("reference.side_questions")
profile_side = pytest.importorskip("reference.profile_side")


def placements(shape: Shape, side: int, occupied: frozenset[int]) -> list[tuple[int, frozenset[int]]]:
    """(row-major corner, cells) of each placement of `shape` on the free cells."""
    found = []
    for row in range(side - shape.height + 1):
        for col in range(side - shape.width + 1):
            cells = frozenset((row + r) * side + col + c for r, c in shape.cells)
            if not cells & occupied:
                found.append((row * side + col, cells))
    return found


def packings(types: Sequence[Shape], counts: Sequence[int], side: int, occupied: frozenset[int],
             min_corner: Sequence[int]) -> Iterator[list[list[int]]]:
    """Every packing, as the sorted corners of each type's pieces (corners >= min_corner)."""
    def place(t: int, taken: frozenset[int], chosen: list[list[int]]) -> Iterator[list[list[int]]]:
        if t == len(types):
            yield [list(c) for c in chosen]
            return

        def pick(left: int, after: int, taken: frozenset[int]) -> Iterator[list[list[int]]]:
            if left == 0:
                yield from place(t + 1, taken, chosen)
                return
            for corner, cells in placements(types[t], side, taken):
                if corner > after and corner >= min_corner[t]:
                    chosen[t].append(corner)
                    yield from pick(left - 1, corner, taken | cells)
                    chosen[t].pop()

        yield from pick(counts[t], -1, taken)

    yield from place(0, occupied, [[] for _ in types])


def brute_first_corner(types: Sequence[Shape], counts: Sequence[int], side: int, occupied: frozenset[int],
                       min_corner: Sequence[int], target: int, last_corner: int = -1) -> int | None:
    best = None
    for packing in packings(types, counts, side, occupied, min_corner):
        value = 0 if target < 0 else packing[target][0]
        if last_corner < 0 or value <= last_corner:
            best = value if best is None else min(best, value)
    return best


def random_question(rng: random.Random, side: int, max_pieces: int
                    ) -> tuple[list[Shape], list[int], frozenset[int]]:
    types = rng.sample(SHAPES, rng.randint(1, 3))
    occupied = frozenset(rng.sample(range(side * side), rng.randint(0, side)))
    counts = [0] * len(types)
    for _ in range(rng.randint(1, max_pieces)):
        counts[rng.randrange(len(types))] += 1
    return types, counts, occupied


@pytest.mark.parametrize("seed", range(40))
def test_smallest_corner_matches_enumeration(seed):
    rng = random.Random(seed)
    side = rng.randint(3, 5)
    types, counts, occupied = random_question(rng, side, 4)
    min_corner = [rng.choice((0, 0, rng.randrange(side * side))) for _ in types]
    cells = [t.cells for t in types]
    for target in [-1] + [t for t in range(len(types)) if counts[t]]:
        expected = brute_first_corner(types, counts, side, occupied, min_corner, target)
        assert _profile.first_corner(cells, counts, side, sorted(occupied), min_corner, target, 0) == expected


@pytest.mark.parametrize("seed", range(40))
def test_a_window_of_corners_matches_enumeration(seed):
    """With last_corner, the smallest corner over the packings whose target piece lies at
    or before it: in every orientation (the square's rows and columns, and those of the
    square turned, whose corners stay the square's), whose scans drop the states without
    one once no such placement can start any more."""
    rng = random.Random(f"profile-window/{seed}")
    side = rng.randint(3, 5)
    types, counts, occupied = random_question(rng, side, 4)
    cells = [t.cells for t in types]
    for target in [t for t in range(len(types)) if counts[t]]:
        min_corner = [0] * len(types)
        min_corner[target] = rng.choice((0, rng.randrange(side * side)))
        for last_corner in sorted({min_corner[target], rng.randrange(side * side), side * side - 1}):
            expected = brute_first_corner(types, counts, side, occupied, min_corner, target, last_corner)
            for orientation in range(8):
                assert _profile.first_corner(cells, counts, side, sorted(occupied), min_corner, target, 0, None,
                                             None, None, orientation, last_corner) == expected
                scan = _profile.Scan(cells, counts, side, sorted(occupied), min_corner, target, None, None,
                                     orientation, last_corner)
                assert scan.advance(0) == expected


def from_corner(min_corner: Sequence[int], t: int, corner: int) -> list[int]:
    after = list(min_corner)
    after[t] = corner
    return after


@pytest.mark.parametrize("seed", range(30))
def test_a_pieces_corner_window_by_window_matches_enumeration(seed, monkeypatch):
    """`Side.corner_from` along either direction, windows of 1-3 corners, of one width or
    each twice the one before: the smallest corner over all completions, the witness's
    corner when none before it has one, and every corner it records as refuted has no
    completion."""
    rng = random.Random(f"corner-from/{seed}")
    side = rng.randint(3, 5)
    types, counts, occupied = random_question(rng, side, 4)
    monkeypatch.setattr(profile_side, "CORNER_WINDOW", rng.randint(1, 3))
    no_order = [0] * len(types)
    growth = seed % 2 + 1
    for t in [t for t in range(len(types)) if counts[t]]:
        expected = brute_first_corner(types, counts, side, occupied, no_order, t)
        later = [corner for corner in range(side * side) if expected is not None and corner > expected
                 and brute_first_corner(types, counts, side, occupied, from_corner(no_order, t, corner), t,
                                        corner) == corner]
        for direction, known in ((0, None), (1, None), (0, expected), (1, expected)):
            board = side_questions.Side(types, counts, side, None)
            board.direction = direction
            assert board.corner_from(t, counts, occupied, no_order, 0, 0, known, growth) == expected
            rest = list(counts)
            rest[t] -= 1
            for corner in range(side * side):
                cells = board.placement(t, corner)
                if cells is None or not occupied.isdisjoint(cells):
                    continue
                after = from_corner(no_order, t, corner + 1)
                if board.refuted.holds(rest, occupied | cells, after):
                    assert corner != expected
                    assert brute_first_corner(types, rest, side, occupied | cells, after, -1) is None
        if later:  # a later corner with a completion, known: the answer is still the smallest
            board = side_questions.Side(types, counts, side, None)
            assert board.corner_from(t, counts, occupied, no_order, 0, 0, rng.choice(later), growth) == expected


def test_a_window_needs_a_target():
    cells = [SHAPE_BY_NAME["O"].cells]
    with pytest.raises(ValueError, match="last_corner"):
        _profile.first_corner(cells, [1], 4, [], [0], -1, 0, None, None, None, -1, 3)


@pytest.mark.parametrize("seed", range(30))
def test_feasibility_matches_the_c_core(seed):
    rng = random.Random(f"profile/{seed}")
    side = rng.randint(5, 9)
    types, counts, occupied = random_question(rng, side, (side * side - side) // 4)
    if seed % 3 == 0:  # vertical bars: the DP scans columns
        types[0] = SHAPE_BY_NAME["I_vertical"]
    cells = [t.cells for t in types]
    expected = _fastsolve.packable(cells, counts, side, sorted(occupied), 0, None)
    found = _profile.first_corner(cells, counts, side, sorted(occupied), [0] * len(types), -1, 0)
    assert (found is not None) == expected


@pytest.mark.parametrize("seed", range(12))
def test_a_certificate_never_cuts_a_packing(seed):
    """The LP certificate of the whole square, checked at every state in every orientation,
    keeps every answer."""
    from reference.lp_bound import lp_certificate

    rng = random.Random(f"profile-weights/{seed}")
    side = rng.randint(5, 8)
    types, counts, occupied = random_question(rng, side, (side * side - side) // 4)
    certificate = lp_certificate(types, counts, side)
    if certificate is None:
        pytest.skip("OR-Tools' GLOP is not installed")
    cells = [t.cells for t in types]
    expected = _fastsolve.packable(cells, counts, side, sorted(occupied), 0, None)
    for target in (-1, 0):
        plain = _profile.first_corner(cells, counts, side, sorted(occupied), [0] * len(types), target, 0)
        for orientation in range(8):  # the certificate's cells are the square's, whatever the scan's order
            weighed = _profile.first_corner(cells, counts, side, sorted(occupied), [0] * len(types), target, 0,
                                            certificate.as_c_weights(), None, None, orientation)
            assert weighed == plain and (plain is not None) == expected


@pytest.mark.parametrize("direction", (0, 1))
def test_free_cells_no_placement_covers_count_as_occupied(direction):
    """Holes left between fixed pieces stay empty in every completion: the scan counts
    them out from the start, as if occupied, not only once its window reaches them (on
    the restricted files, the columns' scan of a run whose pieces leave holes along the
    top row took 4.3 million states instead of 0.5 million; docs/BENCHMARKS.md,
    "Eighteenth pass")."""
    o = SHAPE_BY_NAME["O"].cells
    side = 12
    # The right half is a checkerboard of occupied cells: its free cells are isolated.
    occupied = [r * side + c for r in range(side) for c in range(6, side) if (r + c) % 2]
    isolated = [r * side + c for r in range(side) for c in range(6, side) if not (r + c) % 2]
    for pieces in (18, 19):  # the left half holds 18 squares
        holed = _profile.Scan([o], [pieces], side, occupied, [0], -1, None, None, direction)
        filled = _profile.Scan([o], [pieces], side, occupied + isolated, [0], -1, None, None, direction)
        assert holed.advance(0) == filled.advance(0) == (0 if pieces == 18 else None)
        assert holed.work == filled.work


def test_layer_budget_gives_up_instead_of_answering():
    pieces = [SHAPE_BY_NAME["T_down"]] * 5 + [SHAPE_BY_NAME["S_vertical"]] * 5
    types = list(dict.fromkeys(pieces))
    assert _profile.first_corner([t.cells for t in types], [5, 5], 8, [], [0, 0], -1, 1) is False
    assert _profile.first_corner([t.cells for t in types], [5, 5], 8, [], [0, 0], -1, 0) == 0


def test_rejects_malformed_questions():
    cells = [SHAPE_BY_NAME["O"].cells]
    with pytest.raises(ValueError):
        _profile.first_corner(cells, [1, 1], 4, [], [0], -1, 0)  # one count per type
    with pytest.raises(ValueError):
        _profile.first_corner(cells, [1], 4, [16], [0], -1, 0)  # a cell outside the square
    assert _profile.first_corner(cells, [1], 21, [], [0], -1, 0) is False  # beyond its window


@pytest.mark.parametrize("seed", range(20))
def test_a_resumed_scan_answers_as_one_scan(seed):
    """A Scan stopped by small budgets and resumed with larger ones (given a Room half-way)
    answers what one scan without a budget does, and its work only grows."""
    rng = random.Random(f"profile-scan/{seed}")
    side = rng.randint(5, 8)
    types, counts, occupied = random_question(rng, side, (side * side - side) // 4)
    cells = [t.cells for t in types]
    min_corner = [0] * len(types)
    for target in (-1, 0):
        direction = seed % 2
        expected = _profile.first_corner(cells, counts, side, sorted(occupied), min_corner, target, 0, None, None,
                                         None, direction)
        scan = _profile.Scan(cells, counts, side, sorted(occupied), min_corner, target, None, _profile.Lines(),
                             direction)
        room = _profile.Room(cells, counts, side, direction)
        answers, work = [], [0]
        for step, budget in enumerate((1, 2, 4, 16, 64, 0)):
            answers.append(scan.advance(budget, room if step >= 3 else None))
            work.append(scan.work)
            if answers[-1] is not False:
                break
        assert answers[-1] == expected and set(answers[:-1]) <= {False}
        assert work == sorted(work)
        assert scan.advance(1) == expected  # answered: asked again, the same answer at once


def check_traced(types: Sequence[Shape], counts: Sequence[int], side: int, occupied: frozenset[int],
                 min_corner: Sequence[int], target: int, answer: int,
                 packing: Sequence[tuple[int, int]] | None) -> None:
    """`packing` packs `counts` on the free cells (`check_packing`), each piece at a corner
    >= its type's min_corner, and its first `target` piece lies at `answer`."""
    assert packing is not None
    check_packing(packing, list(types), list(counts), side, set(occupied))
    assert all(corner >= min_corner[t] for t, corner in packing)
    if target >= 0:
        assert min(corner for t, corner in packing if t == target) == answer


@pytest.mark.parametrize("seed", range(40))
def test_a_scan_that_answers_yes_traces_a_packing_with_its_target_at_the_answer(seed):
    """In every orientation, with and without a target and a window of corners, stopped and
    resumed: the packing traced back from the layers kept is a packing of the question, on
    the square itself."""
    rng = random.Random(f"profile-trace/{seed}")
    traced = 0
    while not traced:  # questions until one has a packing
        side = rng.randint(4, 7)
        types, counts, occupied = random_question(rng, side, (side * side - side) // 5)
        cells = [t.cells for t in types]
        for target in [-1] + [t for t in range(len(types)) if counts[t]]:
            min_corner = [rng.choice((0, 0, rng.randrange(side * side))) for _ in types]
            last_corner = rng.choice((-1, rng.randrange(side * side))) if target >= 0 else -1
            for orientation in range(8):
                scan = _profile.Scan(cells, counts, side, sorted(occupied), min_corner, target, None, None,
                                     orientation, last_corner)
                assert scan.packing is None  # not answered yet
                answer = next(found for budget in (1, 4, 0) if (found := scan.advance(budget)) is not False)
                if answer is None:
                    assert scan.packing is None
                    continue
                check_traced(types, counts, side, occupied, min_corner, target, answer, scan.packing)
                traced += 1


@pytest.mark.parametrize("keep", (0, 30, -1))
def test_a_scan_keeps_its_layers_up_to_its_limit_only(keep):
    """Past the states it may keep, a scan answers as before, without a packing."""
    rng = random.Random("profile-keep")
    for _ in range(20):
        side = 6
        types, counts, occupied = random_question(rng, side, 6)
        cells = [t.cells for t in types]
        scan = _profile.Scan(cells, counts, side, sorted(occupied), [0] * len(types), -1, None, None, 0, -1,
                             _profile.ARCHIVE_MAX if keep < 0 else keep)
        answer = scan.advance(0)
        assert answer == _profile.first_corner(cells, counts, side, sorted(occupied), [0] * len(types), -1, 0)
        if answer is None or (keep >= 0 and scan.work > keep):
            assert scan.packing is None
        else:
            check_traced(types, counts, side, occupied, [0] * len(types), -1, 0, scan.packing)


def test_a_scan_gives_up_and_resumes():
    pieces = [SHAPE_BY_NAME["T_down"]] * 5 + [SHAPE_BY_NAME["S_vertical"]] * 5
    cells = [t.cells for t in dict.fromkeys(pieces)]
    scan = _profile.Scan(cells, [5, 5], 8, [], [0, 0], -1)
    assert scan.advance(1) is False
    stopped_at = scan.work
    assert scan.advance(1) is False and scan.work == stopped_at  # the same budget: no work done again
    assert scan.advance(0) == 0 and scan.work > stopped_at


def test_the_values_a_rooms_memo_builds_count_as_the_dps_work():
    """room()'s memo is built by the scans' lookups, each value at about a state's cost:
    `Side.work` (what `balanced` weighs) counts them with the states."""
    pieces = [SHAPE_BY_NAME["T_down"]] * 5 + [SHAPE_BY_NAME["S_vertical"]] * 5
    types = list(dict.fromkeys(pieces))
    board = side_questions.Side(types, [5, 5], 8, None)
    room = _profile.Room([t.cells for t in types], [5, 5], 8, board.preferred)
    board.rooms[board.preferred] = room
    assert room.entries == 0
    assert board.first_corner([5, 5], [], [0, 0], 0, 0) is not None
    question = board.side_question  # the empty square's question, the side's own
    assert question is not None and room.entries > 0
    assert board.work == question.work() + room.entries


def test_the_sides_own_question_with_a_target_says_the_first_pieces_corner():
    """Asked of the DP with the first piece's type as its target, the side's yes/no comes
    with that piece's smallest corner over all packings (`found_corner`): the corner the
    corners asked one by one find.  (2 L_0 and 2 L_180 tile the 4 x 4 square only with
    the first L_0 one row down.)"""
    types = [SHAPE_BY_NAME["L_0"], SHAPE_BY_NAME["L_180"]]
    counts = [2, 2]
    board = side_questions.Side(types, counts, 4, None)
    assert board.packable_by("dp", 0, counts, frozenset(), 0) is True
    one_by_one = next(corner for corner in range(16)
                      if (cells := board.placement(0, corner)) is not None
                      and board.first_corner([1, 2], cells, [corner + 1, 0], -1, 0) is not None)
    assert board.found_corner == one_by_one == 4
    assert board.packable_by("dp", 0, counts, frozenset()) is True and board.found_corner is None


def test_a_scan_for_any_completion_outlives_the_scans_for_a_target():
    """Of the kept scans (`KEPT_QUESTIONS`), one for a target goes first: a corner's
    question is its run's without the target, and resumes that run's scan."""
    types = [SHAPE_BY_NAME["T_down"], SHAPE_BY_NAME["S_vertical"]]
    board = side_questions.Side(types, [5, 5], 8, None)
    run = ([4, 5], [0, 1, 2, 9], [1, 0])  # a T_down at corner 0
    assert board.first_corner(*run, -1, 1) is False  # budget 1: each scan gives up at once
    assert board.first_corner(*run, 1, 1) is False
    assert board.first_corner([5, 5], [], [0, 1], 0, 1) is False  # (not the empty square: the side's own is kept apart)
    assert [question.key[3] for question in board.questions] == [-1, 0]


def test_both_directions_race_at_half_the_budget_before_either_scans_to_the_whole_budget(monkeypatch):
    """J_270, T_up and L_90 (5, 4 and 4 pieces) at side 8: the DP's layers peak at 777
    states along the rows and at 11 714 along the columns.  A question given 20 000 states
    whose preferred direction is the columns scans both to 10 000 first: the rows answer
    there, and the columns' scan, which takes 12 times the rows' states to its end, stops at
    10 000.  (eeaggaggeoaagbbeeeegaeg's first corner, which both directions outgrew at
    160 000 states: the rows then took 12.9 M states to refute it at 640 000, the columns
    5.0 M; docs/BENCHMARKS.md, "Twentieth pass".)"""
    types, counts = [SHAPE_BY_NAME[name] for name in ("J_270", "T_up", "L_90")], [5, 4, 4]
    cells = [t.cells for t in types]
    whole = [_profile.Scan(cells, counts, 8, [], [0, 0, 0], -1, None, None, d) for d in (0, 1)]
    assert [scan.advance(10_000) is False for scan in whole] == [False, True]
    assert whole[1].advance(20_000) is not False and whole[1].work > 12 * whole[0].work
    monkeypatch.setattr(profile_side, "DP_LAYER_BUDGET", 2_500)
    widths = _record_scans(monkeypatch, budgets=True)
    board = side_questions.Side(types, counts, 8, None)
    board.preferred = 1
    assert board.first_corner(counts, [], [0, 0, 0], -1, 20_000) == 0
    assert widths == [(1, 10_000), (0, 10_000)] and board.preferred == 0
    assert board.side_question is not None
    rows, columns = board.side_question.scans[0], board.side_question.scans[1]
    assert rows is not None and columns is not None
    assert rows.work == whole[0].work and columns.work < whole[1].work / 4


@pytest.mark.slow
def test_a_room_whose_memo_fills_up_hands_the_question_to_the_other_direction():
    """bddbqdddqqqdnqddqnqdnnn (I_horizontal, J_180, S_vertical, T_up) at side 10: along the
    columns, the direction its runs last answered in, room()'s memo fills up (4 M values,
    and the scan still outgrows 40 000 states); along the rows room() needs a tenth of
    that, and the DP answers the side in one scan.  (The side had gone to the C core and
    CaDiCaL instead, 7 s; docs/BENCHMARKS.md, "Eleventh pass".)  The memos grow in turns,
    so the columns' stops at its first limit (a second of work along the wrong direction
    saved; "Twelfth pass")."""
    from generators.hard import decode
    from reference.lp_bound import lp_certificate

    pieces = decode("bddbqdddqqqdnqddqnqdnnn")
    types = list(dict.fromkeys(pieces))
    counts = [pieces.count(t) for t in types]
    board = side_questions.Side(types, counts, 10, lp_certificate(types, counts, 10))
    board.preferred = 1
    assert board.first_corner(counts, [], [0] * len(types), 0, profile_side.DP_LAYER_BUDGET) == 4
    rows, columns = board.rooms[:2]  # indexed by orientation: 0 rows, 1 columns
    assert columns is not None and columns.full and board.preferred == 0
    assert rows is not None
    # A lookup in progress when the memo filled up finished its values: it holds a few more
    # than its limit.  A probe after it reads the memo as it is.
    first = profile_side.ROOM_FIRST_LIMIT
    assert first <= columns.entries <= first + 64
    board.preferred = 1
    assert board.first_corner(counts, [], [0] * len(types), 0, 2_500) in (4, False)
    assert first <= columns.entries <= first + 64 and columns.full


def test_a_rooms_limit_stops_its_memo_growing():
    pieces = [SHAPE_BY_NAME["T_down"]] * 5 + [SHAPE_BY_NAME["S_vertical"]] * 5
    cells = [t.cells for t in dict.fromkeys(pieces)]
    room = _profile.Room(cells, [5, 5], 8, 0)
    assert room.limit == 1 << 22 and not room.full
    room.limit = 0
    assert room.full
    assert _profile.first_corner(cells, [5, 5], 8, [], [0, 0], -1, 0, None, room, None, 0) == 0
    assert room.entries == 0  # nothing was added: the bound pruned nothing, the answer is the same
    room.limit = 1000
    assert _profile.first_corner(cells, [5, 5], 8, [], [0, 0], -1, 0, None, room, None, 0) == 0
    assert 0 < room.entries <= 1000 + 64  # (a lookup in progress finishes its entry)
    for wrong in (-1, (1 << 22) + 1):
        with pytest.raises((ValueError, OverflowError)):
            room.limit = wrong


def _record_scans(monkeypatch, budgets: bool = False) -> list[tuple[int, int | None]]:
    """From now on, (direction, its room() memo's limit) of each turn a DP scan is given, or
    (direction, the turn's budget) with `budgets`."""
    advanced: list[tuple[int, int | None]] = []
    scan_of = profile_side.DpQuestion.scan

    def recorded(question: profile_side.DpQuestion, direction: int):
        scan = scan_of(question, direction)

        class Recorded:
            packing = property(lambda self: scan.packing)

            def advance(self, budget, room=None):
                advanced.append((direction, budget if budgets else None if room is None else room.limit))
                return scan.advance(budget, room)
        return Recorded()

    monkeypatch.setattr(profile_side.DpQuestion, "scan", recorded)
    return advanced


def test_a_probe_uses_rooms_memo_without_growing_it_and_a_question_grows_it_in_turns(monkeypatch):
    """side_questions: a probe (a budget below DP_LAYER_BUDGET) reads room()'s memo as it is;
    a question whose scans give up grows the memos of both directions in turns, from
    ROOM_FIRST_LIMIT values, ROOM_GROWTH times more each turn, until a direction's memo stops
    short of its limit or the question's limit (PIECE_ROOM_LIMIT for a piece's whole
    question) is reached; a scan without a budget grows them to the limit at once."""
    pieces = [SHAPE_BY_NAME["T_down"]] * 5 + [SHAPE_BY_NAME["S_vertical"]] * 5
    types = list(dict.fromkeys(pieces))
    board = along_the_window(side_questions.Side(types, [5, 5], 9, None))
    assert board.first_corner([5, 5], [], [0, 0], -1, 1_000) is False
    assert board.rooms == [None] * len(profile_side.ORIENTATIONS)  # a probe builds no room()
    # A budget this small gives up on the side's question, room() or not.
    monkeypatch.setattr(profile_side, "DP_LAYER_BUDGET", 3_000)
    monkeypatch.setattr(profile_side, "ROOM_FIRST_LIMIT", 8)
    monkeypatch.setattr(profile_side, "PIECE_ROOM_LIMIT", 8 * profile_side.ROOM_GROWTH ** 2)
    monkeypatch.setattr(profile_side, "ROOM_MIN_YIELD", 0)  # every memo pays for itself (the next test)
    monkeypatch.setattr(profile_side, "ROOM_FIRST_CUTS", 0)
    advanced = _record_scans(monkeypatch)
    assert board.smallest_corner_by_dp(0, [5, 5], frozenset(), [0, 0], 0) is False
    first, other = board.preferred, 1 - board.preferred
    assert advanced == [(first, None), (other, None)] + [(d, 8 * profile_side.ROOM_GROWTH ** k)
                                                           for k in range(3) for d in (first, other)]
    rooms = [room for room in board.rooms if room is not None]
    assert len(rooms) == 2 and all(room.full and room.entries <= room.limit + 64 for room in rooms)
    entries = [room.entries for room in rooms]
    assert board.first_corner([5, 5], [], [0, 0], -1, 50) is False  # a probe: nothing added
    assert [room.entries for room in rooms] == entries
    assert board.first_corner([5, 4], [], [0, 0], 0, 0) is not False  # unbounded: up to ROOM_LIMIT
    assert all(room.limit == profile_side.ROOM_LIMIT for room in rooms)


def test_memos_kept_from_a_larger_limit_are_scanned_when_a_question_raises_its_limit_again(monkeypatch):
    """A corner question's DP reads room()'s memos at a piece's limit until its last turn
    (`Side.packable_at`); memos that already hold the last turn's limit, from an earlier
    question, cannot grow at it, so that turn scans with them as they are.  (Taken for
    memos it could deepen, both directions were skipped and the turn scanned nothing: the
    corner went to the SAT solver for 3 s; docs/BENCHMARKS.md, "Fourteenth pass".)"""
    pieces = [SHAPE_BY_NAME["T_down"]] * 5 + [SHAPE_BY_NAME["S_vertical"]] * 5
    board = along_the_window(side_questions.Side(list(dict.fromkeys(pieces)), [5, 5], 9, None))
    monkeypatch.setattr(profile_side, "DP_LAYER_BUDGET", 3_000)
    monkeypatch.setattr(profile_side, "ROOM_FIRST_LIMIT", 8)
    monkeypatch.setattr(profile_side, "ROOM_FIRST_CUTS", 0)  # every memo pays
    large, small = 8 * profile_side.ROOM_GROWTH ** 2, 8
    assert board.first_corner([5, 5], [], [0, 0], -1, 3_000, room_limit=large) is False
    rooms = [room for room in board.rooms if room is not None]
    assert len(rooms) == 2 and all(room.full and room.entries >= large for room in rooms)
    assert board.first_corner([5, 5], [], [0, 0], -1, 3_000, room_limit=small) is False
    assert all(room.limit == small for room in rooms)  # read as they are
    advanced = _record_scans(monkeypatch)
    assert board.first_corner([5, 5], [], [0, 0], -1, 3_000, room_limit=large) is False
    assert sorted(direction for direction, _ in advanced) == [0, 1]


def test_a_scan_stopped_while_rooms_memo_was_full_remakes_its_layer_when_the_limit_rises():
    """A layer made while room()'s memo was full was pruned by the values it held then;
    resumed with a larger limit, the scan makes that layer again with the memo growing
    (on the same budget it would otherwise give up at once, having learnt nothing)."""
    pieces = [SHAPE_BY_NAME["T_down"]] * 5 + [SHAPE_BY_NAME["S_vertical"]] * 5
    cells = [t.cells for t in dict.fromkeys(pieces)]
    room = _profile.Room(cells, [5, 5], 9, 0)
    room.limit = 1
    scan = _profile.Scan(cells, [5, 5], 9, [], [0, 0], -1, None, None, 0)
    assert scan.advance(3_000, room) is False and room.full
    stopped_at, entries = scan.work, room.entries
    assert scan.advance(3_000, room) is False and scan.work == stopped_at  # the same limit: as before
    room.limit = 1 << 22
    assert scan.advance(3_000, room) is False
    assert scan.work > stopped_at and room.entries > entries


def test_a_rooms_cuts_count_the_states_its_values_refuted():
    """`Room.cuts`, what a memo was worth (`profile_side._pays`): none while its memo holds
    no value, and the states its values refuted once it does, which the scan then does
    without."""
    pieces = [SHAPE_BY_NAME["T_down"]] * 5 + [SHAPE_BY_NAME["S_vertical"]] * 5
    cells = [t.cells for t in dict.fromkeys(pieces)]
    work = []
    for limit in (0, 1 << 22):
        room = _profile.Room(cells, [5, 5], 9, 0)
        room.limit = limit
        scan = _profile.Scan(cells, [5, 5], 9, [], [0, 0], -1, None, None, 0)
        assert scan.advance(0, room) == 0
        assert (room.entries, room.cuts) == (0, 0) if limit == 0 else room.cuts > 0
        work.append(scan.work)
    assert work[1] < work[0]


@pytest.mark.parametrize("first_cuts", [0, 1])
def test_a_memo_that_has_refuted_nothing_is_not_deepened_past_its_first_limit(monkeypatch, first_cuts):
    """T_down and S_vertical at side 9: room() refutes none of the DP's states.  Its memos
    stop at ROOM_FIRST_LIMIT values (and the few a lookup in progress finishes) unless
    ROOM_FIRST_CUTS is 0, when they grow to the question's limit as memos that pay do."""
    types = [SHAPE_BY_NAME["T_down"], SHAPE_BY_NAME["S_vertical"]]
    board = along_the_window(side_questions.Side(types, [5, 5], 9, None))
    monkeypatch.setattr(profile_side, "DP_LAYER_BUDGET", 3_000)
    monkeypatch.setattr(profile_side, "ROOM_FIRST_LIMIT", 8)
    monkeypatch.setattr(profile_side, "PIECE_ROOM_LIMIT", 8 * profile_side.ROOM_GROWTH ** 2)
    monkeypatch.setattr(profile_side, "ROOM_MIN_YIELD", 0)
    monkeypatch.setattr(profile_side, "ROOM_FIRST_CUTS", first_cuts)
    limit = 8 * profile_side.ROOM_GROWTH ** 3
    assert board.first_corner([5, 5], [], [0, 0], -1, 3_000, room_limit=limit) is False
    rooms = [room for room in board.rooms if room is not None]
    assert len(rooms) == 2 and all(room.cuts == 0 and room.full for room in rooms)
    if first_cuts:
        assert all(8 <= room.entries <= 8 + 64 for room in rooms)
    else:
        assert all(limit <= room.entries <= limit + 64 for room in rooms)


def test_a_memo_that_does_not_pay_for_itself_is_not_deepened_and_its_direction_goes_last(monkeypatch):
    """side_questions: past PIECE_ROOM_LIMIT values a memo is deepened only while the states
    its values refuted are ROOM_MIN_YIELD of its values (`_pays`).  One that does not pay
    stops growing; a later question reads it as it is, after the directions whose memos
    still pay have been deepened (here none)."""
    pieces = [SHAPE_BY_NAME["T_down"]] * 5 + [SHAPE_BY_NAME["S_vertical"]] * 5
    board = along_the_window(side_questions.Side(list(dict.fromkeys(pieces)), [5, 5], 9, None))
    monkeypatch.setattr(profile_side, "DP_LAYER_BUDGET", 3_000)
    monkeypatch.setattr(profile_side, "ROOM_FIRST_LIMIT", 8)
    judged_from = 8 * profile_side.ROOM_GROWTH
    monkeypatch.setattr(profile_side, "PIECE_ROOM_LIMIT", judged_from)
    monkeypatch.setattr(profile_side, "ROOM_MIN_YIELD", 1e9)  # past PIECE_ROOM_LIMIT, none pays
    monkeypatch.setattr(profile_side, "ROOM_FIRST_CUTS", 0)  # (the test before)
    advanced = _record_scans(monkeypatch)
    large = judged_from * profile_side.ROOM_GROWTH ** 2
    assert board.first_corner([5, 5], [], [0, 0], -1, 3_000, room_limit=large) is False
    first, other = board.preferred, 1 - board.preferred
    # Deepened to PIECE_ROOM_LIMIT values, then no more: neither pays.
    assert advanced == [(first, None), (other, None), (first, 8), (other, 8), (first, judged_from),
                        (other, judged_from)]
    rooms = [board.rooms[first], board.rooms[other]]
    entries = [room.entries for room in rooms if room is not None]
    assert len(entries) == 2 and all(judged_from <= n <= judged_from + 64 for n in entries)
    advanced.clear()
    assert board.first_corner([5, 4], [], [0, 0], 0, 3_000, room_limit=large) is False
    assert advanced == [(first, entries[0]), (other, entries[1])]  # as they are, and last
    assert [room.entries for room in rooms if room is not None] == entries
    monkeypatch.setattr(profile_side, "ROOM_MIN_YIELD", 0)  # every memo pays: deepened on, one answers
    advanced.clear()
    expected = _profile.first_corner([t.cells for t in board.types], [5, 3], 9, [], [0, 0], 0, 0)
    assert board.first_corner([5, 3], [], [0, 0], 0, 3_000, room_limit=large) == expected
    assert advanced[0] == (first, judged_from * profile_side.ROOM_GROWTH)
