"""One side of the square, settled by the C core with help when it runs out of budget.

The C core (`_fastsolve.solve_at_side`) decides nearly every side within a small node
budget.  Files drawn from a few shapes are the exception: their squares have many spare
cells, every empty cell is a branch, and some proofs take it minutes.  Then the side is
settled in steps, each of which keeps the answer the seed's first solution:

1. The packing LP's dual certificate (`reference.lp_bound`): when it proves that the
   pieces cannot all fit, the side is impossible.  Otherwise it still goes to every later
   C search as a bound checked at each node.
2. The plain search's own first moves (`_place_plain_moves`): each next piece at its
   smallest corner that fits, as the seed places them before it backtracks.  A run of
   them is each piece's answer as soon as it is known to have a completion (the corners
   before do not even fit), so one question to the profile DP (`reference._profile`:
   every partial packing's frontier, row by row or column by column, exact) settles the
   longest such run and the next piece at once: the smallest corner of that piece over
   the run's completions, None when there are none.  With the run's pieces fixed the DP
   is cheap, and a run too long fails in its first layers; this settles the side and
   most pieces on the files from a few shapes, whose first piece alone takes the DP
   seconds.  Where the DP's probe gives up, the C core's packing of a run confirms it
   (`RUN_STAGES`).
3. Otherwise the profile DP asked for the first piece's smallest corner over all
   packings, which also says whether the side has one.  Its suffix bound (room() in
   _profile.c: the most pieces the rest of the square can hold) drops the states without
   a completion; its memo is kept for all the DP's scans at the side (`_Side.room`).
   Where the bound does not see why states fail (I_vertical with L_90 and T pieces), a
   layer outgrows the DP's budget, and it is not asked again until a piece is placed.
   Then the C core's own ordered search (one memo for all its queries) gets a budget,
   and when that is not enough, the side's yes/no goes to a ladder (`SIDE_STAGES`): the
   C core's order-free search (`_fastsolve.Packer`, one per side, whose memo of failed
   states serves every later question) and CaDiCaL (`reference.sat_side`, one
   incremental instance kept for step 4) in turn, each budget 4 times the last.  "No"
   means the side is impossible.
4. "Yes": the seed's first solution, piece by piece (`_first_solution`): runs of plain
   moves as in step 2 where one is confirmed, else the next piece at the smallest corner
   from which the rest can still be packed.  That greedy order needs no
   backtracking, because every corner it keeps provably has a completion, and it is the
   seed's first solution because the seed's backtracking returns, piece after piece, the
   smallest corner that has one.  Corners are asked of the C core in turn on a small
   budget; the first corner it cannot settle hands the piece to the DP, which returns the
   smallest corner over all completions in one scan; when the DP cannot afford the side,
   that corner and the next go up the ladder of the SAT solver and the C core
   (`CORNER_STAGES`; assumptions on the same SAT instance and the same Packer, so what
   either learned serves every question), or without python-sat to the C core and
   CP-SAT (`QUERY_STAGES`).
"""
from __future__ import annotations

from collections.abc import Collection, Sequence

from reference import _fastsolve, _profile, oracle, sat_side
from reference.lp_bound import Certificate, lp_certificate
from reference.shapes import Shape

Corner = tuple[int, int]
Stages = tuple[tuple[str, float], ...]

# A helper's question on a budget: ("c", order-free node budget, 0 = none) for the C core
# (one `_fastsolve.Packer` per side: failed states stay known from one question to the
# next), ("sat", conflicts, 0 = none) for CaDiCaL, ("dp", layer budget, 0 = none) for the
# profile DP, ("cp-sat", seconds); stages are tried in turn until one answers.  The C
# core does 0.7-1.5e6 order-free nodes per second here.
# The C core alone first: on hard_corpus seeds 0-9 it settles every side of 443 of the 670
# files; the rest are the few-shape families, identical_L_180 and some random_24 files.
FIRST_C_BUDGET = 150_000
# When the profile DP cannot afford the side: the C core's own ordered search gets this
# budget before anything else.  (2 000 000 cost ljnnnooqjjjofkllqfohonj 3 s for nothing;
# the ladders below spend such budgets where they answer.)
ORDERED_C_BUDGET = 200_000
CORNER_C_BUDGET = 20_000  # per corner, before the piece goes to the profile DP (0: skip)
# Profile DP: states allowed in one layer (a few million states per second).  The DP of
# the files it suits peaks below this and takes tenths of a second; the others blow past
# it within their first rows (under 0.1 s lost), and a DP that gave up is asked again at
# that side only once DP_RETRY_PIECES more pieces are placed.  Tuned on the adversarial
# benchmark's slowest files: 100 000 or 150 000 let through DPs that answer, but slower
# than the SAT solver does.
DP_LAYER_BUDGET = 40_000
DP_RETRY_PIECES = 1


def _ladder(first: Stages, factor: int, rounds: int) -> Stages:
    """`first`, then its budgets times factor, factor**2, ... (`rounds` rounds in all), then
    the last helper without a budget.

    >>> _ladder((("sat", 300), ("c", 80_000)), 4, 2)
    (('sat', 300), ('c', 80000), ('sat', 1200), ('c', 320000), ('c', 0))
    """
    return tuple((helper, amount * factor ** k) for k in range(rounds) for helper, amount in first) + ((first[-1][0], 0),)


# One corner's yes/no when the DP could not afford the whole piece: the SAT solver and the
# C core in turn, each budget 4 times the last, so that whichever of the two suits the
# file answers after at most about twice its own time.  Neither suits every file: on the
# greedy's corner questions of RESTRICTED_SLOWEST, each asked of both without a budget,
# the C core took 0.9-6.7 s per file in all and CaDiCaL 2.1-21.2 s, yet on single corners
# either can be 10 times faster than the other.  Both keep what they learn between rungs
# (CaDiCaL its clauses, the Packer its failed states).  The SAT solver starts: a short
# call is cheap for it and it settles many corners in hundredths.  (The C core first, or
# the SAT solver from 2 000 conflicts: slower on ljnnnooqjjjofkllqfohonj, 12.9 and 21.7 s
# against 11.1 s.  This replaced ("sat", 20 000), ("dp", 200 000), ("sat", 0), which took
# that file 29.7 s: 17 s of SAT calls, 8 s of DPs that gave up.)
CORNER_STAGES: Stages = _ladder((("sat", 300), ("c", 80_000)), 4, 8)
# Place runs of the plain search's first moves with one question each
# (`_place_plain_moves`); tests turn it off to exercise the other helpers.
PLAIN_MOVES = True
# A run's question, with the run's pieces fixed, is the cheapest question there is to ask.
# A run too long usually fails within the DP's first layers (a DP probe of 2 000 states,
# without the extra Rooms, each of which slows every later scan); the C core then looks
# for a packing of it (one confirms the run without the DP) or a proof there is none;
# then the DP with larger budgets, which shorter runs skip once they gave up (they need
# at least as much).
RUN_STAGES: Stages = (("dp", 2_000), ("c", 20_000), ("dp", DP_LAYER_BUDGET), ("c", 80_000), ("dp", 160_000))
USE_SAT = True  # the SAT solver's questions (when python-sat is installed); tests turn it off
# The side's yes/no when the DP and the ordered C search could not afford it: the C core
# and the SAT solver (asked about the empty square only) in turn, as for corners.
# (CP-SAT, between them before, answered no side first on RESTRICTED_SLOWEST.)
SIDE_STAGES: Stages = _ladder((("c", 20_000), ("sat", 300)), 4, 8)
# Without python-sat: the C core and CP-SAT.
QUERY_STAGES: Stages = (("c", 50_000), ("cp-sat", 0.5), ("c", 1_000_000), ("cp-sat", 4.0), ("c", 0))


class _Side:
    """The order-free question at one side, asked of the C core, the DP, the SAT solver and CP-SAT."""

    def __init__(self, types: Sequence[Shape], counts: Sequence[int], side: int,
                 certificate: Certificate | None) -> None:
        self.types = list(types)
        self.cells = [t.cells for t in types]
        self.side = side
        self.weights = certificate.as_c_weights() if certificate is not None else None
        self.dp_gave_up_at: int | None = None  # pieces placed when the DP last gave up
        self.counts = list(counts)
        self.placed: list[tuple[int, int]] = []  # (type, corner) of the pieces placed so far
        self.sat: sat_side.SatSide | None = None
        self.packer = _fastsolve.Packer(self.cells, side, self.weights)
        # The DP's suffix-bound memo (_profile.c, room()), shared by all its scans at this
        # side.  (One per placed piece, with its cells occupied, was slower on the
        # adversarial benchmark's slowest files: the memo costs more to rebuild than the
        # occupied cells it then sees beyond a scan's window save.)
        self.room: tuple[_profile.Room, ...] = (_profile.Room(self.cells, self.counts, side),)

    def first_corner(self, counts: list[int], occupied: Collection[int], min_corner: list[int], target: int,
                     budget: int, more_rooms: bool = False) -> int | None | bool:
        """`_profile.first_corner` with this side's suffix bounds.  With `more_rooms`, a DP
        that outgrows its budget adds one (`_next_room`), while there is one to add, and is
        asked again."""
        while True:
            found = _profile.first_corner(self.cells, counts, self.side, sorted(occupied), min_corner, target,
                                          budget, self.weights, self.room)
            room = self._next_room() if found is False and more_rooms else None
            if room is None:
                return found
            self.room += (room,)

    def _next_room(self) -> _profile.Room | None:
        """room() for the file's 2, then 3 most numerous types alone (None when there are
        no more): a state with more of them to place than the rest of the square holds has
        no completion, which room() of all the types misses when the others fill the gaps
        those cannot.  At the run question the DP could not afford on
        `nhonnnnnonhjrnnjjjhjjnnjnj` (J_180, L_180 and three rarer types), 199 of 200
        states sampled at cell 60 had no completion, nearly all for want of room for their
        J_180 and L_180 pieces; with the pair's bound the DP answers it in 0.1 s where it
        took 4.9 s at 16 times the budget.  Built only once a DP has outgrown its budget:
        on random files it costs more than it saves."""
        size = len(self.room) + 1
        if size > 3 or size >= len(self.counts):
            return None
        most = sorted(range(len(self.counts)), key=lambda t: -self.counts[t])[:size]
        return _profile.Room(self.cells, [c if t in most else 0 for t, c in enumerate(self.counts)], self.side)

    def packable(self, counts: list[int], occupied: frozenset[int], stages: Stages) -> bool:
        for helper, amount in stages:
            answer = self.packable_by(helper, amount, counts, occupied)
            if answer is not None:
                return answer
        raise AssertionError("the stages must end with an unbounded C search")

    def packable_by(self, helper: str, amount: float, counts: list[int],
                    occupied: frozenset[int]) -> bool | None:
        """One helper's answer, None when its budget ran out."""
        if helper == "c":
            return self.packer.packable(counts, sorted(occupied), int(amount))
        if helper == "sat":
            assert not occupied, "the SAT stage is asked about the empty square only"
            sat = self.sat_solver()
            return sat.packable(int(amount)) if sat is not None else None
        return oracle.packable(self.types, counts, self.side, amount, occupied)

    def smallest_corner_by_dp(self, t: int, counts: list[int], occupied: frozenset[int],
                              min_corner: list[int]) -> int | None | bool:
        """`_profile.first_corner`, or False at once when it gave up at this side and fewer
        than DP_RETRY_PIECES pieces were placed since (each piece placed shrinks its layers)."""
        if self.dp_gave_up_at is not None and len(self.placed) < self.dp_gave_up_at + DP_RETRY_PIECES:
            return False
        found = self.first_corner(counts, occupied, min_corner, t, DP_LAYER_BUDGET)
        if found is False:
            self.dp_gave_up_at = len(self.placed)
        return found

    def sat_solver(self) -> sat_side.SatSide | None:
        """The side's incremental SAT solver, built on first use with the pieces placed so
        far; None when python-sat is missing."""
        if self.sat is None and USE_SAT and sat_side.available():
            self.sat = sat_side.SatSide(self.types, self.counts, self.side)
            for u, corner in self.placed:
                self.sat.fix(u, corner)
        return self.sat

    def packable_at(self, t: int, corner: int, rest: list[int], taken: frozenset[int],
                    min_corner: list[int]) -> bool:
        """Can the rest be packed with the next type-t piece at `corner`?  Asked of the DP
        (the later type-t pieces lie after this one) and the SAT solver in turn with
        growing budgets (`CORNER_STAGES`), or of the portfolio without python-sat."""
        sat = self.sat_solver()
        if sat is None:
            return self.packable(rest, taken, QUERY_STAGES)
        after = list(min_corner)
        after[t] = corner + 1
        for helper, amount in CORNER_STAGES:
            if helper == "dp":
                found = self.first_corner(rest, taken, after, -1, int(amount))
                answer = None if found is False else found is not None
            elif helper == "c":
                answer = self.packable_by("c", amount, rest, taken)
            else:
                answer = sat.packable_at(t, corner, int(amount))
            if answer is not None:
                return answer
        raise AssertionError("the stages must end with an unbounded SAT search")

    def place(self, t: int, corner: int) -> None:
        self.placed.append((t, corner))
        if self.sat is not None:
            self.sat.fix(t, corner)

    def placement(self, t: int, corner: int) -> frozenset[int] | None:
        """The cells of type t at this corner, None when it sticks out of the square."""
        row, col = divmod(corner, self.side)
        shape = self.types[t]
        if row + shape.height > self.side or col + shape.width > self.side:
            return None
        return frozenset((row + r) * self.side + col + c for r, c in shape.cells)


def solve_side(types: Sequence[Shape], piece_types: Sequence[int], side: int) -> tuple[Corner, ...] | None:
    """The upper-left-first placement at this side, or None when no packing exists."""
    cells = [t.cells for t in types]
    positions = _fastsolve.solve_at_side(cells, list(piece_types), side, FIRST_C_BUDGET)
    if positions is not False:
        return positions
    counts = [list(piece_types).count(t) for t in range(len(types))]
    certificate = lp_certificate(types, counts, side)
    if certificate is not None and certificate.excludes(counts):
        return None
    board = _Side(types, counts, side, certificate)
    partial = _Partial(list(piece_types), counts)
    if not (PLAIN_MOVES and _place_plain_moves(board, partial)):
        # The first piece's smallest corner over all packings, None when there is none: the
        # side's yes/no and the first piece's answer in one scan.
        dp_says = board.smallest_corner_by_dp(piece_types[0], counts, frozenset(), [0] * len(counts))
        if dp_says is None:
            return None
        if dp_says is False:
            # The DP cannot afford this side: the C core's ordered search, whose memo serves
            # all its queries, answers first when it can (a packing, or a proof there is none).
            positions = _fastsolve.solve_at_side(cells, list(piece_types), side, ORDERED_C_BUDGET, board.weights)
            if positions is not False:
                return positions
            if not board.packable(counts, frozenset(), SIDE_STAGES):
                return None
        else:
            partial.place(board, piece_types[0], dp_says)
    _first_solution(board, partial)
    return tuple(divmod(anchor, side) for anchor in partial.anchors)


class _Partial:
    """The pieces placed so far at a side that has a packing, file order, each at its
    answer: the smallest corner from which the rest can still be packed.

    A piece identical to an earlier one goes strictly after it: swapping identical pieces
    maps packings to packings, and the upper-left-first one has them in increasing order.
    The same argument tells the DP (`min_corner`) that no unplaced piece of a type lies
    before the last placed one of that type: such a packing would let that placed piece
    take the earlier corner, which its own smallest corner rules out.
    """

    def __init__(self, piece_types: list[int], counts: list[int]) -> None:
        self.piece_types = piece_types
        self.counts = list(counts)  # pieces still to place, per type
        self.occupied: frozenset[int] = frozenset()
        self.min_corner = [0] * len(counts)  # per type: where its next piece may start
        self.anchors: list[int] = []
        # The plain moves (from the first piece) of the last `_place_plain_moves` that placed
        # nothing: while the anchors follow them, the runs asked then are the runs there are.
        self.futile_moves: list[int] = []

    def next_type(self) -> int:
        return self.piece_types[len(self.anchors)]

    def follows_futile_moves(self) -> bool:
        """True while the pieces placed are those moves, before their end: the runs from
        here along them are the questions asked then (the same pieces fixed), each of
        which had no completion or cost the DP more than its budget."""
        placed = len(self.anchors)
        return placed < len(self.futile_moves) and self.futile_moves[:placed] == self.anchors

    def place(self, board: _Side, t: int, corner: int) -> None:
        cells = board.placement(t, corner)
        assert cells is not None and self.occupied.isdisjoint(cells)
        self.counts[t] -= 1
        self.occupied |= cells
        self.anchors.append(corner)
        self.min_corner[t] = corner + 1
        board.place(t, corner)


def _first_solution(board: _Side, partial: _Partial) -> None:
    """The seed's first solution at a side that has a packing, placed piece by piece from
    `partial` on: each piece at the smallest corner from which the rest can still be packed
    (`_place_plain_moves` places several at once where it can)."""
    while len(partial.anchors) < len(partial.piece_types):
        if PLAIN_MOVES and not partial.follows_futile_moves():
            if _place_plain_moves(board, partial):
                continue
        t = partial.next_type()
        corner = _smallest_corner(board, t, partial.counts, partial.occupied, partial.min_corner,
                                  partial.min_corner[t])
        partial.place(board, t, corner)


def _plain_moves(board: _Side, partial: _Partial) -> list[int]:
    """The plain search's first moves from `partial`: each next piece at its smallest corner
    that fits (inside the square, on free cells, after the last piece of its type), until a
    piece has none."""
    occupied = set(partial.occupied)
    min_corner = list(partial.min_corner)
    moves = []
    for t in partial.piece_types[len(partial.anchors):]:
        for corner in range(min_corner[t], board.side * board.side):
            cells = board.placement(t, corner)
            if cells is not None and occupied.isdisjoint(cells):
                break
        else:
            break
        occupied |= cells
        min_corner[t] = corner + 1
        moves.append(corner)
    return moves


def _place_plain_moves(board: _Side, partial: _Partial) -> bool:
    """Place the longest run of the plain search's first moves (`_plain_moves`) that still
    has a completion, and the piece after it; False when none was placed.

    Each of those moves is its piece's answer once the run is known to have a completion:
    the corners before it do not even fit.  One DP question settles the run and the next
    piece at once (its smallest corner over the completions, None when there are none),
    and with the run's pieces fixed it is cheap where the DP of the first piece alone is
    not: on `rojjorjjjrojrooojrroorooro` the three first answers cost 0.9 s of DP scans one
    by one and 0.15 s this way, the run of 9 on `daeeiiaadieaeeaeeidiiieaia` 0.25 s where
    its first piece alone took the DP 65 s.  Runs too long fail within the DP's first
    layers (hundredths of a second: they leave spare cells the rest cannot do without), so
    the runs are tried longest first; a DP that gives up ends the attempt, as shorter runs
    would cost it more.  When it places nothing, it leaves its moves in
    `partial.futile_moves`.
    """
    moves = _plain_moves(board, partial)
    start = len(partial.anchors)
    if start + len(moves) == len(partial.piece_types):
        # The plain search's first moves pack every piece: that is its first solution.
        for t, corner in zip(partial.piece_types[start:], moves):
            partial.place(board, t, corner)
        return True
    dp_gave_up_at = 0  # the largest DP budget that did not settle a run: shorter runs need more
    for run in range(len(moves), 0, -1):
        counts, min_corner, occupied = list(partial.counts), list(partial.min_corner), set(partial.occupied)
        for t, corner in zip(partial.piece_types[start:start + run], moves):
            cells = board.placement(t, corner)
            assert cells is not None
            counts[t] -= 1
            min_corner[t] = corner + 1
            occupied |= cells
        t = partial.piece_types[start + run]
        settled, found = False, None
        for helper, budget in RUN_STAGES:
            if helper == "c":
                # A packing confirms the run; "no" moves on to the shorter run.
                known = board.packable_by("c", budget, counts, frozenset(occupied))
                settled, found = known is not None, None
                if known:
                    for u, corner in zip(partial.piece_types[start:start + run], moves):
                        partial.place(board, u, corner)
                    return True
            elif not budget or budget > dp_gave_up_at:
                # Rooms are added only past the first probe: each one slows every later scan.
                dp_says = board.first_corner(counts, occupied, min_corner, t, int(budget),
                                             more_rooms=budget >= DP_LAYER_BUDGET)
                settled, found = dp_says is not False, dp_says
                if dp_says is False:
                    dp_gave_up_at = int(budget)
            if settled:
                break
        if not settled:
            break
        if found is not None:
            for u, corner in zip(partial.piece_types[start:start + run], moves):
                partial.place(board, u, corner)
            partial.place(board, t, found)
            return True
    partial.futile_moves = partial.anchors + moves
    return False


def _smallest_corner(board: _Side, t: int, counts: list[int], occupied: frozenset[int],
                     min_corner: list[int], start: int) -> int:
    """The smallest corner >= start of a type-t piece from which the rest (counts, this
    piece included) can still be packed.  One exists: the earlier pieces were placed so.

    While the DP has never given up at this side, it answers the piece in one scan.
    Otherwise corners in turn, each asked of the C core on a small budget; the first it
    cannot settle hands the whole piece to the DP (when it is not waiting to be retried),
    or that corner and the next to `CORNER_STAGES` (or, without python-sat, the portfolio).
    """
    if board.dp_gave_up_at is None:
        found = board.smallest_corner_by_dp(t, counts, occupied, min_corner)
        if found is not False:
            assert found is not None and found >= start, "the earlier pieces have a completion"
            return found
    rest = list(counts)
    rest[t] -= 1
    for corner in range(start, board.side * board.side):
        cells = board.placement(t, corner)
        if cells is None or not occupied.isdisjoint(cells):
            continue
        taken = occupied | cells
        answer = board.packable_by("c", CORNER_C_BUDGET, rest, taken) if CORNER_C_BUDGET else None
        if answer is None:
            found = board.smallest_corner_by_dp(t, counts, occupied, min_corner)
            if found is not False:
                assert found is not None and found >= corner, "the corners before have no completion"
                return found
            answer = board.packable_at(t, corner, rest, taken, min_corner)
        if answer:
            return corner
    raise AssertionError("a completion exists, so some corner has one")
