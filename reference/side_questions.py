"""One side's order-free questions, asked of the helpers on budgets.

"Can these pieces still be packed in the free cells?" (and "what is the smallest corner
of this piece over all packings?") at one side of the square, for `reference.staged`:
the C core's order-free search (`_fastsolve.Packer`, one per side, so that the failed
states one question proves serve the next), the profile DP (`reference._profile`, its
suffix bound's memos kept per side), the incremental SAT solver (`reference.sat_side`)
and CP-SAT (`reference.oracle`).  A question climbs a ladder of stages, each a helper on
a budget, until one answers (`Stages`).
"""
from __future__ import annotations

from collections.abc import Collection, Sequence

from reference import _fastsolve, _profile, oracle, sat_side
from reference.lp_bound import Certificate
from reference.shapes import Shape

# A helper's question on a budget: ("c", order-free node budget, 0 = none) for the C core
# (0.7-1.5e6 order-free nodes per second here), ("sat", conflicts, 0 = none) for CaDiCaL,
# ("dp", layer budget, 0 = none) for the profile DP, ("cp-sat", seconds); stages are
# tried in turn until one answers.
Stages = tuple[tuple[str, float], ...]

# Profile DP: states allowed in one layer (a few million states per second).  The DP of
# the files it suits peaks below this and takes tenths of a second; the others blow past
# it within their first rows (under 0.1 s lost), and a DP that gave up is asked again at
# that side only once DP_RETRY_PIECES more pieces are placed.  Tuned on the adversarial
# benchmark's slowest files: 100 000 or 150 000 let through DPs that answer, but slower
# than the SAT solver does.
DP_LAYER_BUDGET = 40_000
DP_RETRY_PIECES = 1


def ladder(first: Stages, factor: int, rounds: int) -> Stages:
    """`first`, then its budgets times factor, factor**2, ... (`rounds` rounds in all), then
    the last helper without a budget.

    >>> ladder((("sat", 300), ("c", 80_000)), 4, 2)
    (('sat', 300), ('c', 80000), ('sat', 1200), ('c', 320000), ('c', 0))
    """
    return tuple((helper, amount * factor ** k) for k in range(rounds) for helper, amount in first) + ((first[-1][0], 0),)



# One corner's yes/no when the DP could not afford the whole piece: the DP with that corner
# fixed, the SAT solver and the C core in turn, each budget 4 times the last, so that
# whichever suits the file answers after at most about three times its own time.  None
# suits every file: on the greedy's corner questions of RESTRICTED_SLOWEST, each asked of
# the C core and CaDiCaL without a budget, the C core took 0.9-6.7 s per file in all and
# CaDiCaL 2.1-21.2 s, yet on single corners either can be 10 times faster than the other;
# on the T files of the sixth pass's adversarial runs (fjgdgeggeeeggeeeggfeefgffe), one
# corner took the C core 2.2 s and the DP, with the line counts, 0.04 s.  All three keep
# what they learn between rungs (the DP its line-count memo, CaDiCaL its clauses, the
# Packer its failed states).  The DP starts, with one corner fixed its scan is cheap; its
# rungs stop at DP_CORNER_MAX states, since a scan's cost grows with its budget times the
# cells scanned, not as the others' do, and a layer of n states holds about 40n bytes
# (docs/BENCHMARKS.md, "Seventh pass": stopped at 40 000, 160 000 and 640 000 states,
# ffddoengeeeogeeeggfeennfeg took 3.4, 4.7 and 10.3 s, where one 640 000-state scan took
# 3.3 s; qcprqprrrsqsspsrprrrpcqsr, S/Z and two O, over 100 s, 2.4 and 2.4 s, its corners
# refuted by a 160 000-state scan in 0.15 s each, by neither other helper in 20 s).
# (Before the DP had the line counts: the C core first, or the SAT solver from 2 000
# conflicts, was slower on ljnnnooqjjjofkllqfohonj, 12.9 and 21.7 s against 11.1 s;
# ("sat", 20 000), ("dp", 200 000), ("sat", 0) took that file 29.7 s.)
DP_CORNER_MAX = 160_000
CORNER_STAGES: Stages = tuple(stage for stage in ladder((("dp", 10_000), ("sat", 300), ("c", 80_000)), 4, 8)
                              if stage[0] != "dp" or stage[1] <= DP_CORNER_MAX)
USE_SAT = True  # the SAT solver's questions (when python-sat is installed); tests turn it off
# Without python-sat: the C core and CP-SAT.
QUERY_STAGES: Stages = (("c", 50_000), ("cp-sat", 0.5), ("c", 1_000_000), ("cp-sat", 4.0), ("c", 0))


class Side:
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
        # A "yes" of the C core or the SAT solver comes with its packing: `found` holds that of
        # the last question answered so ((type, corner) of the pieces asked about), and
        # `witness` one of the pieces still to place around those placed, while one is known.
        self.found: list[tuple[int, int]] | None = None
        self.witness: list[tuple[int, int]] | None = None
        self.sat: sat_side.SatSide | None = None
        self.packer = _fastsolve.Packer(self.cells, side, self.weights)
        # The DP's scan direction (0 rows, 1 columns): the window's at first, then the one
        # that last answered where the other outgrew its budget (`first_corner`); per
        # direction, its line-count memo and its suffix bound (_profile.c, room(), made when
        # first needed), each with its memo shared by all the scans at this side.  (One
        # room() memo per placed piece, with its cells occupied, was slower on the
        # adversarial benchmark's slowest files: the memo costs more to rebuild than the
        # occupied cells it then sees beyond a scan's window save.)
        self.direction = _profile.window_direction(self.cells, side)
        self.lines = (_profile.Lines(), _profile.Lines())
        self.rooms: list[_profile.Room | None] = [None, None]

    def first_corner(self, counts: list[int], occupied: Collection[int], min_corner: list[int], target: int,
                     budget: int, rooms: bool = True) -> int | None | bool:
        """One DP question, along the preferred direction, then, when that outgrows its
        budget, along the other, which is preferred from then on if it answered: one
        direction can be a hundred times faster than the other, and which one depends on
        the shapes, not on the window's length (docs/BENCHMARKS.md, "Seventh pass":
        restricted_ivert_tright_21 19.5 s along the rows, 0.06 s along the columns;
        restricted_ihoriz_tdown_tright_23 0.09 s and 3.2 s).  Without room() as long as
        its memo is not built, and built (along the preferred direction) only when neither
        direction answers without it: its first lookups explore the whole rest of the
        square (0.92 s of a 2 000-state probe on nhnhnnnnjnhjoonjjohjojnjnj; 0.6-1 s of
        the first question on restricted_l90_ivert_tdown_26 and restricted_ihoriz_skew_23,
        which the line counts answer alone).  A probe (a budget below DP_LAYER_BUDGET)
        never builds it, nor a question asked with `rooms` false (`staged.RUN_ROOM_MAX_TYPES`)."""
        for direction in (self.direction, 1 - self.direction):
            found = self._scan(direction, counts, occupied, min_corner, target, budget)
            if found is not False:
                self.direction = direction
                return found
        if not rooms or 0 < budget < DP_LAYER_BUDGET or self.rooms[self.direction]:
            return False
        self.rooms[self.direction] = _profile.Room(self.cells, self.counts, self.side, self.direction)
        return self._scan(self.direction, counts, occupied, min_corner, target, budget)

    def _scan(self, direction: int, counts: list[int], occupied: Collection[int], min_corner: list[int],
              target: int, budget: int) -> int | None | bool:
        """One scan along `direction`, with its suffix bound when it has one."""
        return _profile.first_corner(self.cells, counts, self.side, sorted(occupied), min_corner, target,
                                     budget, self.weights, self.rooms[direction], self.lines[direction], direction)

    def packable(self, counts: list[int], occupied: frozenset[int], stages: Stages) -> bool:
        for helper, amount in stages:
            answer = self.packable_by(helper, amount, counts, occupied)
            if answer is not None:
                return answer
        raise AssertionError("the stages must end with an unbounded C search")

    def packable_by(self, helper: str, amount: float, counts: list[int],
                    occupied: frozenset[int]) -> bool | None:
        """One helper's answer, None when its budget ran out (its packing in `found`)."""
        self.found = None
        if helper == "c":
            answer = self.packer.packable(counts, sorted(occupied), int(amount))
            if answer:
                self.found = list(self.packer.packing() or ())
            return answer
        if helper == "sat":
            assert not occupied, "the SAT stage is asked about the empty square only"
            sat = self.sat_solver()
            answer = sat.packable(int(amount)) if sat is not None else None
            if answer and sat is not None:
                self.found = self._unplaced(sat.model_packing())
            return answer
        return oracle.packable(self.types, counts, self.side, amount, occupied)

    def _unplaced(self, packing: list[tuple[int, int]], *also: tuple[int, int]) -> list[tuple[int, int]]:
        """`packing` less the pieces placed (and `also`): a type's pieces are interchangeable."""
        rest = list(packing)
        for piece in [*self.placed, *also]:
            rest.remove(piece)
        return rest

    def witness_corner(self, t: int, start: int) -> int | None:
        """The smallest corner >= start of a type-t piece in the witness: where the next
        type-t piece has a completion (the witness), so its answer lies there or before."""
        corners = [c for u, c in self.witness or () if u == t and c >= start]
        return min(corners) if corners else None

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
        (the later type-t pieces lie after this one), the SAT solver and the C core in turn
        with growing budgets (`CORNER_STAGES`), or of the portfolio without python-sat."""
        sat = self.sat_solver()
        if sat is None:
            return self.packable(rest, taken, QUERY_STAGES)
        after = list(min_corner)
        after[t] = corner + 1
        for helper, amount in CORNER_STAGES:
            self.found = None
            if helper == "dp":
                found = self.first_corner(rest, taken, after, -1, int(amount))
                answer = None if found is False else found is not None
            elif helper == "c":
                answer = self.packable_by("c", amount, rest, taken)
            else:
                answer = sat.packable_at(t, corner, int(amount))
                if answer:
                    self.found = self._unplaced(sat.model_packing(), (t, corner))
            if answer is not None:
                return answer
        raise AssertionError("the stages must end with an unbounded search")

    def place(self, t: int, corner: int, witness: list[tuple[int, int]] | None = None) -> None:
        """A type-t piece at `corner` from now on; `witness`: a packing of the pieces still
        to place around it and those placed before (else the witness kept, when it has the
        piece there)."""
        self.placed.append((t, corner))
        if witness is not None:
            self.witness = list(witness)
        elif self.witness is not None and (t, corner) in self.witness:
            self.witness.remove((t, corner))
        else:
            self.witness = None
        if self.sat is not None:
            self.sat.fix(t, corner)

    def placement(self, t: int, corner: int) -> frozenset[int] | None:
        """The cells of type t at this corner, None when it sticks out of the square."""
        row, col = divmod(corner, self.side)
        shape = self.types[t]
        if row + shape.height > self.side or col + shape.width > self.side:
            return None
        return frozenset((row + r) * self.side + col + c for r, c in shape.cells)
