"""One side's order-free questions, shared by the helpers on growing budgets.

"Can these pieces still be packed in the free cells?" (and "what is the smallest corner
of this piece over all packings?") at one side of the square, for `reference.staged`:
the C core's order-free search (`_fastsolve.Packer`, one per side, so that the failed states
one question proves serve the next), the profile DP (`reference.profile_side`, the part of a
side its questions keep: scans between budgets, the suffix bound's memos) and its beam
(which only finds packings, also on the square turned), the question's packing LP
(`reference.lp_bound`, which only refutes), the incremental SAT solver
(`reference.sat_side`) and CP-SAT (`reference.oracle`).  None suits every question, so each
question goes to a portfolio of them (`reference.portfolio`), which takes turns on growing
budgets, the helper that has spent least going next.
"""
from __future__ import annotations

from collections.abc import Collection, Sequence

from reference import _fastsolve, _profile, oracle, profile_side, sat_side
from reference.lp_bound import Certificate, lp_certificate
from reference.portfolio import SECONDS_PER_UNIT, Distrust, Portfolio, balanced
from reference.profile_side import QUARTER_TURNS, ProfileSide
from reference.shapes import Shape

# The packing LP of one question (`Side.lp_refutes`, the helper "lp"): about 10 ms, and
# it refutes the S/Z files' corners and runs that cost the other helpers 0.05-0.6 s each
# (docs/BENCHMARKS.md, "Eleventh pass").  On the files of the shapes that tile well (L, J,
# T, I, O) it rarely refutes, so a side stops asking it once it failed LP_TRIES_PER_PROOF
# times per question it refuted, plus one.  Tests turn it off to exercise the others.
LP_QUESTIONS = True
LP_TRIES_PER_PROOF = 4


# One corner's yes/no when the DP could not afford the whole piece: the DP with that corner
# fixed, its beam, the packing LP, the SAT solver and the C core (`balanced`).  None suits
# every file: on the greedy's corner questions of RESTRICTED_SLOWEST, each asked of the C
# core and CaDiCaL without a budget, the C core took 0.9-6.7 s per file in all and CaDiCaL
# 2.1-21.2 s, yet on single corners either can be 10 times faster than the other; on the T
# files of the sixth pass's adversarial runs (fjgdgeggeeeggeeeggfeefgffe), one corner took
# the C core 2.2 s and the DP, with the line counts, 0.04 s; the DP refutes a corner fast,
# and the C core finds the packing of a corner that has one fastest (ffddoengeeeogeeeggfeennfeg's
# second piece: 0.6 s, where the DP's scans took 8 and 11 s; docs/BENCHMARKS.md, "Eighth
# pass").  All three keep what they learn between budgets (the DP its scans and its memos,
# CaDiCaL its clauses, the Packer its failed states).  The DP goes first, with one corner
# fixed its scan is cheap; it stops at DP_CORNER_MAX states, since a layer of n states
# holds about 40n bytes (docs/BENCHMARKS.md, "Seventh pass": stopped at 40 000, 160 000
# and 640 000 states, ffddoengeeeogeeeggfeennfeg took 3.4, 4.7 and 10.3 s;
# qcprqprrrsqsspsrprrrpcqsr, S/Z and two O, over 100 s, 2.4 and 2.4 s, its corners refuted
# by a 160 000-state scan in 0.15 s each, by neither other helper in 20 s).
DP_CORNER_MAX = 160_000
BEAM_MAX = 16_000
CORNER_STAGES: Portfolio = (("dp", 10_000, DP_CORNER_MAX), ("lp", 1, 1), ("beam", 1_000, BEAM_MAX))
# The SAT solver and the C core settle a corner once the helpers above stopped at their caps.
# (Sharing turns with them, they answered none of the corners of the 69 restricted
# files since the beam finds the packings and the DP the refutations, and spent 3.5 of the
# 53 s; after them, the 69 files 64.0 -> 60.0 s; docs/BENCHMARKS.md, "Seventeenth pass".)
# The DP goes on beside them past DP_CORNER_MAX, up to DP_CORNER_LAST_MAX states (about
# 100 MB a layer): kskknbkkbnnkkkllslkhkkl's first corner, which CaDiCaL and the C core
# took 18 s each to refute, the DP refutes within it (the file 42 -> 5 s, 348 MB at most
# resident).
DP_CORNER_LAST_MAX = 2_560_000
# The beam gets one more turn among them, at CORNER_BEAM_LAST states: the first piece of
# hoaroamhamhhrbmhhmjmmaaa at its first corner has a completion that neither CaDiCaL nor the
# C core (5.1 M nodes) found in 10 s, and the DP proved at 2.56 M states, 22 s in all; a
# 64 000-state beam finds it in 2.3 s (the file 55.5 -> 37.4 s; the 117 other restricted
# files 141.8 -> 141.5 s, the C core's work 20.8 -> 14.1 M nodes, the DP's 465.8 -> 453.9 M
# states; docs/BENCHMARKS.md, "Twenty-sixth pass").
CORNER_BEAM_LAST = 64_000
CORNER_LAST: Portfolio = (("sat", 300, 0), ("c", 80_000, 0), ("dp", 4 * DP_CORNER_MAX, DP_CORNER_LAST_MAX),
                          ("beam", CORNER_BEAM_LAST, CORNER_BEAM_LAST))
USE_SAT = True  # the SAT solver's questions (when python-sat is installed); tests turn it off
# Without python-sat: the C core and CP-SAT (at most 8 s a question).
QUERY_STAGES: Portfolio = (("c", 50_000, 0), ("cp-sat", 0.5, 8.0))


class Side(ProfileSide):
    """The order-free question at one side, asked of the C core, the DP (`ProfileSide`), the
    beam, the packing LP, the SAT solver and CP-SAT."""

    def __init__(self, types: Sequence[Shape], counts: Sequence[int], side: int,
                 certificate: Certificate | None) -> None:
        super().__init__(types, counts, side, certificate.as_c_weights() if certificate is not None else None)
        self.sat: sat_side.SatSide | None = None
        self.packer = _fastsolve.Packer(self.cells, side, self.weights)
        self.distrust = Distrust()  # `balanced`: what the helpers' work weighs at this side
        self.corner_seconds = 0.0  # what the corners' questions (`packable_at`) cost so far, estimated
        self.lp_asked: set[tuple[tuple[int, ...], frozenset[int], tuple[int, ...]]] = set()  # `lp_refutes`
        # per question, the widest beam that found nothing, per quarter turn (`_beam`)
        self.beam_missed: dict[tuple[tuple[int, ...], frozenset[int]], list[int]] = {}
        self.lp_proofs = self.lp_failures = 0
        self.found_corner: int | None = None  # `packable_by`'s target's smallest corner, when the DP said

    def lp_refutes(self, counts: Sequence[int], occupied: Collection[int], min_corner: Sequence[int]) -> bool:
        """True when the question's own packing LP (`lp_bound.lp_certificate` with these
        occupied cells and min_corners) proves it has no packing; asked once per question,
        while it proves one question in LP_TRIES_PER_PROOF.  Where pieces are fixed the LP
        sees the cells their neighbours must waste, which the empty square's (`weights`)
        cannot."""
        key = (tuple(counts), frozenset(occupied), tuple(min_corner))
        if (not LP_QUESTIONS or key in self.lp_asked
                or self.lp_failures >= LP_TRIES_PER_PROOF * (self.lp_proofs + 1)):
            return False
        self.lp_asked.add(key)
        certificate = lp_certificate(self.types, counts, self.side, key[1], min_corner)
        if certificate is None or not certificate.excludes(counts):
            self.lp_failures += 1
            return False
        self.lp_proofs += 1
        self.refuted.add(counts, occupied, min_corner)
        return True

    def packable(self, counts: list[int], occupied: frozenset[int], helpers: Portfolio, target: int = -1) -> bool:
        """Can `counts` still be packed in the free cells?  Shared by `helpers`."""
        answer = self.packable_within(counts, occupied, helpers, target)
        assert answer is not None, "a portfolio needs a helper without a cap"
        return answer

    def packable_within(self, counts: list[int], occupied: frozenset[int], helpers: Portfolio,
                        target: int = -1) -> bool | None:
        """`packable`, None when every helper stopped at its cap.  `target`: see `packable_by`."""
        def ask(helper: str, amount: float) -> tuple[bool | None, float]:
            answer = self.packable_by(helper, amount, counts, occupied, target)
            return answer, self.work

        return balanced(helpers, ask, self.distrust)

    def packable_by(self, helper: str, amount: float, counts: list[int],
                    occupied: frozenset[int], target: int = -1) -> bool | None:
        """One helper's answer, None when its budget ran out (its packing in `found`, the
        work it did in `work`).  A question refuted before is not asked.  `target` (a type,
        or -1): the DP's "yes" then also says the smallest corner of a type-target piece
        over all packings (in `found_corner`), for about a tenth more states: its states
        are the same, each carrying the smallest such corner on its paths, and one is
        dominated only by a state whose corner is no larger (reference/_profile.c)."""
        self.found = None
        self.found_corner = None
        if self.refuted.holds(counts, occupied):
            self.work = 0
            return False
        answer = self._packable_by(helper, amount, counts, occupied, target)
        if answer is False:
            self.refuted.add(counts, occupied)
        return answer

    def _packable_by(self, helper: str, amount: float, counts: list[int], occupied: frozenset[int],
                     target: int) -> bool | None:
        if helper == "c":
            answer = self.packer.packable(counts, sorted(occupied), int(amount))
            self.work = self.packer.last_nodes()
            if answer:
                self.found = list(self.packer.packing() or ())
            return answer
        if helper == "beam":
            return self._beam(int(amount), counts, occupied)
        if helper == "dp":
            found = self.first_corner(counts, occupied, [0] * len(counts), target, int(amount))
            if found is False:
                return None
            if found is not None and target >= 0:
                self.found_corner = found
            return found is not None
        if helper == "sat":
            assert not occupied, "the SAT solver is asked about the empty square only"
            sat = self.sat_solver()
            self.work = 0
            if sat is None:
                return None
            conflicts = sat.conflicts()
            answer = sat.packable(int(amount))
            self.work = sat.conflicts() - conflicts
            if answer:
                self.found = self._unplaced(sat.model_packing())
            return answer
        self.work = amount
        return oracle.packable(self.types, counts, self.side, amount, occupied)

    def _beam(self, width: int, counts: list[int], occupied: frozenset[int]) -> bool | None:
        """The beam's answer: True with its packing in `found`, None when it found none.
        Along the DP's direction, then the other: which one finds a question's packing
        depends on the question, not on the file (ddddfffeaaaeeeedqqeejefafe: a corner whose
        packing a 4 000-state beam finds along the columns at once, and a 64 000-state one
        only along the rows; 5.9 -> 2.7 s; docs/BENCHMARKS.md, "Sixteenth pass").  And on the
        square turned (`_profile.beam`'s orientation) the fewest quarters among those whose
        beams have missed the narrowest.  The beam keeps the least costly states of each
        layer of a scan, so what it finds depends on where the scan starts: a packing that
        no beam along the rows or columns of the square finds, one of the turned square may
        find at a quarter of the width (hoaroamhamhhrbmhhmjmmaaa's side 10: beams of 64 000
        states along both directions find nothing, while four of the six along the turned
        squares' find one at 16 000; docs/BENCHMARKS.md, "Twenty-seventh pass").  So each
        beam that finds nothing turns the next one's square, since a wider beam on the same
        square mostly keeps what the narrower one did.  A beam is not resumed, and asked
        again as wide or narrower on the same square it would make the same layers or
        thinner ones: a question asked again is not asked of the beam until it is wider than
        one that missed on every turn (homorammamhhoahmhhammaar's side: its second question
        asked the beam again from 1 000 states, 0.5 s for nothing, while CaDiCaL took its
        turns, 1.2 s; docs/BENCHMARKS.md, "Twenty-first pass")."""
        self.work = 0
        missed = self.beam_missed.setdefault((tuple(counts), occupied), [0] * QUARTER_TURNS)
        quarters = min(range(QUARTER_TURNS), key=missed.__getitem__)
        if missed[quarters] >= width:
            return None
        direction, cells = self.preferred % 2, sorted(occupied)
        for orientation in (2 * quarters + direction, 2 * quarters + 1 - direction):
            packing, work = _profile.beam(self.cells, counts, self.side, cells, [0] * len(counts), width,
                                          self.weights, self.lines[orientation], orientation)
            self.work += work
            if packing is not None:
                self.found = list(packing)
                return True
        missed[quarters] = width
        return None  # an empty beam proves nothing

    def _unplaced(self, packing: list[tuple[int, int]], *also: tuple[int, int]) -> list[tuple[int, int]]:
        """`packing` less the pieces placed (and `also`): a type's pieces are interchangeable."""
        rest = list(packing)
        for piece in [*self.placed, *also]:
            rest.remove(piece)
        return rest

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
        (the later type-t pieces lie after this one), the packing LP and the beam in turn
        with growing budgets (`CORNER_STAGES`), then, when none settles it within its cap,
        of the SAT solver and the C core (`CORNER_LAST`), or of the portfolio without
        python-sat."""
        after = list(min_corner)
        after[t] = corner + 1
        if self.refuted.holds(rest, taken, after):
            return False
        if not (USE_SAT and sat_side.available()):
            return self.packable(rest, taken, QUERY_STAGES)

        def ask(helper: str, amount: float) -> tuple[bool | None, float]:
            self.found = None
            if helper == "dp":
                # room()'s memos grow past a piece's limit at the DP's last turn only: grown to
                # 4 M values in a 40 000-state turn, they cost ddddfefeeafeeefdbdeffefaaa's
                # corner 1.2 s, and their weight sent the corner to the SAT solver for 3 s,
                # where the DP's next turn refutes it in 0.4 s (docs/BENCHMARKS.md,
                # "Fourteenth pass").
                limit = profile_side.ROOM_LIMIT if amount >= DP_CORNER_MAX else profile_side.PIECE_ROOM_LIMIT
                found = self.first_corner(rest, taken, after, -1, int(amount), room_limit=limit)
                return (None if found is False else found is not None), self.work
            if helper in ("c", "beam"):
                return self.packable_by(helper, amount, rest, taken), self.work
            if helper == "lp":
                return (False if self.lp_refutes(rest, taken, after) else None), 1
            # Built when first asked (0.13 s at side 11), which most sides never do.
            sat = self.sat_solver()
            assert sat is not None
            conflicts = sat.conflicts()
            answer = sat.packable_at(t, corner, int(amount))
            if answer:
                self.found = self._unplaced(sat.model_packing(), (t, corner))
            return answer, sat.conflicts() - conflicts
        def costed(helper: str, amount: float) -> tuple[bool | None, float]:
            answer, work = ask(helper, amount)
            self.corner_seconds += work * SECONDS_PER_UNIT[helper]
            return answer, work

        answer = balanced(CORNER_STAGES, costed, self.distrust)
        if answer is None:
            answer = balanced(CORNER_LAST, costed, self.distrust)
        assert answer is not None, "CORNER_LAST must have a helper without a cap"
        if not answer:
            self.refuted.add(rest, taken, after)
        return answer

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
