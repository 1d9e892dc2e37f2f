"""One side's order-free questions, shared by the helpers on growing budgets.

"Can these pieces still be packed in the free cells?" (and "what is the smallest corner
of this piece over all packings?") at one side of the square, for `reference.staged`:
the C core's order-free search (`_fastsolve.Packer`, one per side, so that the failed
states one question proves serve the next), the profile DP (`reference._profile`, its
scans kept between budgets, its suffix bound's memos per side) and its beam (which only
finds packings), the question's packing LP (`reference.lp_bound`, which only refutes),
the incremental SAT solver (`reference.sat_side`) and CP-SAT (`reference.oracle`).
None suits every question, so each question goes to a portfolio of them
(`reference.portfolio`), which takes turns on growing budgets, the helper that has spent
least going next.
"""
from __future__ import annotations

from collections.abc import Callable, Collection, Sequence

from reference import _fastsolve, _profile, oracle, sat_side
from reference.lp_bound import Certificate, lp_certificate
from reference.portfolio import SECONDS_PER_UNIT, Distrust, Portfolio, balanced
from reference.refuted import Refuted
from reference.shapes import Shape

# Profile DP: states allowed in one layer (a few million states per second).  The DP of
# the files it suits peaks below this and takes tenths of a second; the others blow past
# it within their first rows (under 0.1 s lost), and a DP that gave up is asked again at
# that side only once DP_RETRY_PIECES more pieces are placed.  Tuned on the adversarial
# benchmark's slowest files: 100 000 or 150 000 let through DPs that answer, but slower
# than the SAT solver does.  (A piece's whole question that gave up is seldom answered by
# the next piece's: on the 94 restricted files, 14% of the DP's work went to such questions
# that were never answered.  Asked again after 3 pieces rather than 1, the DP's work on the
# 94 files 255.0 -> 247.7 M states and values, the beam's 85.6 -> 86.9 M states;
# docs/BENCHMARKS.md, "Twenty-second pass".)
DP_LAYER_BUDGET = 40_000
DP_RETRY_PIECES = 3
# A piece's question over all its corners keeps, to the end of the square, the states whose
# piece is still to come; asked along the rows for a window of corners at a time, each scan
# drops them a few cells past the window (`_profile.Scan`'s last_corner) and costs about what
# one corner's question does (`Side.corner_from`).  konbkbkkkbqkkknklnnnkka's second piece,
# without room(): 7.9 M states over all corners, 2.6 M in windows of 4 or 8, 3.0 M corner
# by corner; along the columns, whose scans reach the window's last corners only at the
# end, 18.1 M, 16.8 M and 52.8 M (docs/BENCHMARKS.md, "Twenty-third pass").
CORNER_WINDOW = 4
# The DP questions whose scans are kept, so that one asked again resumes where it stopped:
# a run's question is asked of the DP for the next piece's smallest corner and for any
# completion at all (`staged.RUN_STAGES`), in turns.  (A layer of n states holds about 40n
# bytes: two questions at DP_CORNER_MAX states, 13 MB a direction.)
KEPT_QUESTIONS = 2
KEPT_TARGETED = 1  # and those for a target (`Side._question_of`)
# Below the budgets at which the two directions race (`Side._first_answer`), the direction
# not preferred gets this share of a budget after the preferred one: on the 94 restricted
# files the preferred direction answered 2 738 DP questions, the other 67, and the other's
# scans took 13 M of the 137 M states of the questions answered (rrhooambamhaoamhhmammaha's
# corners: the rows' scan to 10 000 states before each corner the columns refute at 40 000).
# At a quarter rather than all of it, the DP's work on the 94 files 252.4 -> 247.7 M; at a
# sixteenth it was less of a saving (docs/BENCHMARKS.md, "Twenty-second pass").
OTHER_DIRECTION_SHARE = 4
# room()'s memo (`Room.limit`), built by the scans' lookups at about a state's cost per
# value: up to 4 M values (128 MB), but a piece's whole question (`smallest_corner_by_dp`)
# lets it grow to 1 M only, and a probe (a budget below DP_LAYER_BUDGET) not at all.
# Along one direction of some files the memo fills up and the scan still gives up
# (fjghfgggeeeggeeeggfeefgofe: 0.95 s to fill 4 M values along the rows for the fourth
# piece's question, for nothing; lddbqdddnqqdnqddknqdnnb: 0.8 s for a 2 500-state probe),
# where the corners, one by one, answer in 0.1 s; where the memo stays small, the whole
# question answers in one scan what corner after corner would take a second for
# (hohooamhamhaoammhmammaaa; docs/BENCHMARKS.md, "Eleventh pass").  Within its limit a
# question grows the memos in turns, from ROOM_FIRST_LIMIT values (`Side._scan`): which
# direction's memo stays small depends on the file, and a memo grown to 4 M values along
# the wrong one had cost ddddfqeaeqffeeedfdeffeefaq a second (docs/BENCHMARKS.md,
# "Twelfth pass").
ROOM_LIMIT = _profile.ROOM_MEMO_MAX
PIECE_ROOM_LIMIT = 1 << 20
ROOM_FIRST_LIMIT = 1 << 18
ROOM_GROWTH = 4  # the memos' next limit within a question, after one that did not answer
# A memo past PIECE_ROOM_LIMIT values is deepened only while it pays for itself: while the
# states its values refuted are at least ROOM_MIN_YIELD of its values (`Room.cuts`).  Along
# the rows of ddddfejedbfeeffbfjeefefaea its memo grew from 1 M to 4 M values for 25 cuts,
# along those of kdddfffeaaqeeeedfaeefjfaaa to 3.1 M for 517, where the memos that answer
# cut far more (rdddfeferafeeefjjdeeferaaa's columns: 208 000 cuts for 148 000 values;
# ddddfefeaafeeeadakeefeeaba's: 126 000 for 4 M).  Judged from 256 000 values on, the
# rule stopped memos that pay later (kdddfffeaaqeeeedfaeefjfaaa: 18 s); docs/BENCHMARKS.md,
# "Sixteenth pass".
ROOM_MIN_YIELD = 0.01
# Nor is a memo deepened past ROOM_FIRST_LIMIT values before it has refuted ROOM_FIRST_CUTS
# states: those that pay had refuted thousands by then (bddbqdddqqqdnqddqnqdnnn's rows:
# 84 314 at 262 144 values), and those grown on without a cut, to 1 M values along both
# directions by a piece's whole question that then gave up, had cost up to 0.9 s for
# nothing (kknlkbkkogokaklkggnkkkl's third piece: 0.76 s for 2 M values and no cut); the 85
# restricted files 115.8 -> 109.4 s (docs/BENCHMARKS.md, "Twentieth pass").
ROOM_FIRST_CUTS = 1
# The packing LP of one question (`Side.lp_refutes`, the helper "lp"): about 10 ms, and
# it refutes the S/Z files' corners and runs that cost the other helpers 0.05-0.6 s each
# (docs/BENCHMARKS.md, "Eleventh pass").  On the files of the shapes that tile well (L, J,
# T, I, O) it rarely refutes, so a side stops asking it once it failed LP_TRIES_PER_PROOF
# times per question it refuted, plus one.  Tests turn it off to exercise the others.
LP_QUESTIONS = True
LP_TRIES_PER_PROOF = 4


def _pays(room: _profile.Room) -> bool:
    """A memo worth deepening: still small, or one whose values refute states (ROOM_MIN_YIELD,
    and ROOM_FIRST_CUTS past ROOM_FIRST_LIMIT values)."""
    if room.entries >= ROOM_FIRST_LIMIT and room.cuts < ROOM_FIRST_CUTS:
        return False
    return room.entries < PIECE_ROOM_LIMIT or room.cuts >= ROOM_MIN_YIELD * room.entries


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
CORNER_LAST: Portfolio = (("sat", 300, 0), ("c", 80_000, 0), ("dp", 4 * DP_CORNER_MAX, DP_CORNER_LAST_MAX))
USE_SAT = True  # the SAT solver's questions (when python-sat is installed); tests turn it off
# Without python-sat: the C core and CP-SAT (at most 8 s a question).
QUERY_STAGES: Portfolio = (("c", 50_000, 0), ("cp-sat", 0.5, 8.0))


DpKey = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], int, int]


class DpQuestion:
    """One DP question (counts, occupied cells, min_corner, target, last_corner) and its
    scans along the rows and the columns, made when first asked for."""

    def __init__(self, side: Side, key: DpKey) -> None:
        self.side = side
        self.key = key
        self.scans: list[_profile.Scan | None] = [None, None]

    def scan(self, direction: int) -> _profile.Scan:
        scan = self.scans[direction]
        if scan is None:
            counts, occupied, min_corner, target, last_corner = self.key
            board = self.side
            scan = _profile.Scan(board.cells, counts, board.side, occupied, min_corner, target, board.weights,
                                 board.lines[direction], direction, last_corner)
            self.scans[direction] = scan
        return scan

    def work(self) -> int:
        """The states its scans have taken from their layers so far."""
        return sum(scan.work for scan in self.scans if scan is not None)


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
        # A "yes" of the C core, the beam, the SAT solver or the DP (traced back through its
        # layers) comes with its packing: `found` holds that of the last question answered so
        # ((type, corner) of the pieces asked about), and `witness` one of the pieces still to
        # place around those placed, while one is known.
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
        self.questions: list[DpQuestion] = []  # the last DP questions asked, latest last (`_question_of`)
        self.side_question: DpQuestion | None = None  # the side's own, kept apart (`_question_of`)
        self.distrust = Distrust()  # `balanced`: what the helpers' work weighs at this side
        self.work: float = 0  # of the last `packable_by` or `first_corner` (`portfolio.SECONDS_PER_UNIT`'s units)
        self.corner_seconds = 0.0  # what the corners' questions (`packable_at`) cost so far, estimated
        self.refuted = Refuted()  # the questions proved to have no packing: none is asked twice
        self.lp_asked: set[tuple[tuple[int, ...], frozenset[int], tuple[int, ...]]] = set()  # `lp_refutes`
        self.beam_missed: dict[tuple[tuple[int, ...], frozenset[int]], int] = {}  # the widest beam that found nothing
        # `placement`, per type and corner: the staged search asks for them by the hundred
        # thousand (1.8 s of the 64 s of the 69 restricted files, made each time).
        self._placements = [[_cells_at(shape, corner, side) for corner in range(side * side)] for shape in types]
        self.lp_proofs = self.lp_failures = 0

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

    def first_corner(self, counts: list[int], occupied: Collection[int], min_corner: list[int], target: int,
                     budget: int, room_limit: int = ROOM_LIMIT, last_corner: int = -1) -> int | None | bool:
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
        never builds it.
        When its memo fills up (`Room.full`: unknown values then prune nothing) and the
        scan still gives up, the other direction gets a room() of its own: its memo can be
        ten times smaller (bddbqdddqqqdnqddqnqdnnn: 4 M values along the columns, 0.3 M
        along the rows, where the DP answers the side in one scan; docs/BENCHMARKS.md,
        "Eleventh pass").  `room_limit`: the values room()'s memos may hold by the end of
        this question (`Room.limit`; a later question with a larger limit grows them on); a
        probe reads them without adding any.

        The scans of the question last asked are kept (`_profile.Scan`): asked again with
        a larger budget, each resumes where its budget stopped it.  The states they took
        from their layers this time go to `work`.  A question refuted before is not asked.
        `last_corner` (with a target): over the packings whose target piece lies at a corner
        up to it only (`_profile.Scan`); None then refutes each of those corners.  An answer
        leaves in `found` the packing the scan traced back (the target piece at the answer),
        when it kept its layers (`_profile.ARCHIVE_MAX`)."""
        self.found = None
        if self.refuted.holds(counts, occupied, min_corner):
            self.work = 0
            return None
        question = self._question_of(counts, occupied, min_corner, target, last_corner)
        work = question.work() + self._room_entries()
        found = self._scan(question, budget, room_limit)
        self.work = question.work() + self._room_entries() - work
        if found is not None and found is not False:
            packing = question.scan(self.direction).packing
            self.found = None if packing is None else list(packing)
        if found is None and last_corner < 0:
            self.refuted.add(counts, occupied, min_corner)
        elif found is None:
            self._refute_corners(target, counts, frozenset(occupied), min_corner, last_corner)
        return found

    def _refute_corners(self, t: int, counts: list[int], occupied: frozenset[int], min_corner: list[int],
                        last_corner: int) -> None:
        """No packing has its next type-t piece at a corner from min_corner[t] to last_corner:
        each of those corners' questions (the rest around the piece there, the later type-t
        pieces after it) is refuted."""
        rest = list(counts)
        rest[t] -= 1
        for corner in range(min_corner[t], min(last_corner + 1, self.side * self.side)):
            cells = self.placement(t, corner)
            if cells is not None and occupied.isdisjoint(cells):
                after = list(min_corner)
                after[t] = corner + 1
                self.refuted.add(rest, occupied | cells, after)

    def _room_entries(self) -> int:
        """The values room()'s memos hold: a scan's lookups build them as it goes, each at
        about a DP state's cost (0.25 us: 1.9 million in 0.47 s in a 40 000-state scan of
        ffddoengeeeogeeeggfeennfeg that took 391 545 states), so they count as the DP's
        work (docs/BENCHMARKS.md, "Tenth pass")."""
        return sum(room.entries for room in self.rooms if room is not None)

    def _scan(self, question: DpQuestion, budget: int, room_limit: int) -> int | None | bool:
        """`first_corner`'s scans: along both directions with room()'s memos as they are,
        then (unless a probe or unbounded) with memos deepened in turns
        (`ROOM_FIRST_LIMIT`, then ROOM_GROWTH times more, up to `room_limit`), until a scan
        answers or a direction's memo stops short of its limit: that direction's room() is
        whole for this question, whose scan now needs a larger budget, not a larger memo.
        A memo that filled up along one direction can be ten times the other's, and which
        one fills depends on the file (docs/BENCHMARKS.md, "Twelfth pass"): built along one
        direction up to 4 M values, the wrong one cost a second for nothing.  A direction
        whose memo filled up last time is asked after one whose memo did not, and, when
        its memo may deepen, not at all with the memo as it is: a full memo prunes little,
        and that scan, along the rows of rdddfeferafeeefjjdeeferaaa, took 3 million states
        (2.8 s, most of it in the line counts) to refute a run that the columns' scan
        refutes in 0.5 s with its memo deepened to a million values (docs/BENCHMARKS.md,
        "Thirteenth pass").  A memo that does not pay for itself (`_pays`) is not deepened,
        and its direction is asked last, once the others' deepened memos did not answer."""
        probe = 0 < budget < DP_LAYER_BUDGET
        deepen = budget >= DP_LAYER_BUDGET  # (a scan without a budget never gives up)
        order = (self.direction, 1 - self.direction)
        first, other = (self.rooms[d] for d in order)
        if first is not None and first.full and other is not None and not other.full:
            order = order[::-1]
        # The directions whose memo filled up and does not pay for itself: scanned last, with
        # the memo as it is, once the others' deepened memos did not answer.
        spent = {d for d, room in enumerate(self.rooms)
                 if deepen and room is not None and room.full and not _pays(room)}
        # The directions whose memo filled up at a limit this question may raise, and which
        # can grow past it.  (A memo that already holds `room_limit` values, kept from a
        # question with a larger limit, is read as it is: skipped, it would not be scanned.)
        filled = {d for d, room in enumerate(self.rooms)
                  if room is not None and room.full and room.limit < room_limit and room.entries < room_limit
                  and _pays(room)}
        for room in self.rooms:
            if room is not None:
                # Read as it is by a probe, before it deepens, and when it does not pay.  (A
                # memo that filled up holds a few values past its limit: the lookups in
                # progress finished theirs.)
                held = probe or deepen or not _pays(room)
                room.limit = min(room.entries, room_limit) if held else room_limit
        found = self._first_answer(question, [d for d in order if not deepen or d not in filled | spent], budget)
        if found is not False or not deepen:
            return found
        found = self._deepen(question, budget, room_limit, order)
        if found is not False:
            return found
        return self._first_answer(question, [d for d in order if d in spent], budget)

    def _first_answer(self, question: DpQuestion, directions: Sequence[int], budget: int) -> int | None | bool:
        """The question's scans along `directions` in turn, with room()'s memos as they are:
        the first answer (its direction preferred from then on), False when none answers.
        From twice DP_LAYER_BUDGET on, two directions race at half the budget first: the
        layers of one can peak at a third of the other's, and where they gave up before
        does not tell which (eeaggaggeoaagbbeeeegaeg's first corner: both outgrew 160 000
        states; at 640 000 the rows, preferred, took 12.9 M states to refute it, 4.2 s, the
        columns 5.0 M; the direction that had reached the later layer, preferred on every
        question, cost more than it saved: docs/BENCHMARKS.md, "Nineteenth pass" and
        "Twentieth pass").  A scan resumes where it stopped, so the race costs at most the
        states the direction that does not answer takes up to half the budget.  Below it,
        the direction not preferred gets OTHER_DIRECTION_SHARE of the budget."""
        race = len(directions) > 1 and budget >= 2 * DP_LAYER_BUDGET
        for width in (budget // 2, budget) if race else (budget,):
            for i, direction in enumerate(directions):
                share = width if race or not i or not width else max(width // OTHER_DIRECTION_SHARE, 1)
                found = question.scan(direction).advance(share, self.rooms[direction])
                if found is not False:
                    self.direction = direction
                    return found
        return False

    def _deepen(self, question: DpQuestion, budget: int, room_limit: int,
                order: tuple[int, int]) -> int | None | bool:
        """`_scan`'s scans with the memos that pay for themselves (`_pays`) deepened in
        turns, from ROOM_FIRST_LIMIT values, ROOM_GROWTH times more each turn, up to
        `room_limit`: until a scan answers (its answer) or a direction's memo stops short
        of its limit (False: that direction's room() is whole for this question)."""
        level = ROOM_FIRST_LIMIT
        while True:
            level = min(level, room_limit)
            for direction in order:
                room = self.rooms[direction]
                if room is None:
                    room = self.rooms[direction] = _profile.Room(self.cells, self.counts, self.side, direction)
                    room.limit = 0
                if not _pays(room):
                    continue
                if room.limit < level:
                    room.limit = level
                    found = self._first_answer(question, (direction,), budget)
                    if found is not False:
                        return found
                if not room.full:
                    return False
            if level >= room_limit:
                return False
            level *= ROOM_GROWTH

    def _question_of(self, counts: list[int], occupied: Collection[int], min_corner: list[int],
                     target: int, last_corner: int) -> DpQuestion:
        """The DP question: one of the last KEPT_QUESTIONS asked for any completion or the
        last KEPT_TARGETED asked for a target when it is one of them (its scans kept: they
        hold their layers), else a new one."""
        key = (tuple(counts), tuple(sorted(occupied)), tuple(min_corner), target, last_corner)
        if not occupied and target < 0 and not any(min_corner):
            # The side's own yes/no (`staged.SIDE_FIRST`), kept apart from the pieces'
            # questions: asked once per side, it would push out a run's scan that a corner's
            # question resumes (kskknbkkbnnkkkllslkhkkl, when it was asked after the runs:
            # 0.35 s).
            if self.side_question is None or self.side_question.key != key:
                self.side_question = DpQuestion(self, key)
            return self.side_question
        kept = [question for question in self.questions if question.key == key]
        question = kept[0] if kept else DpQuestion(self, key)
        others = [other for other in self.questions if other is not question]
        # The oldest of its kind goes: a question for a target and one for any completion
        # are kept apart.  A corner's question is its run's without the target and resumes
        # that run's scan (kskknbkkbnnkkkllslkhkkl: the run's scan pushed out by the
        # piece's, 0.7 s), and a piece's retry resumes the retry before it, between which
        # its corners are asked one by one (`staged._smallest_corner`).
        same_kind = [other for other in others if (other.key[3] >= 0) == (target >= 0)]
        while len(same_kind) >= (KEPT_TARGETED if target >= 0 else KEPT_QUESTIONS):
            others.remove(same_kind.pop(0))
        self.questions = others + [question]
        return question

    def packable(self, counts: list[int], occupied: frozenset[int], helpers: Portfolio) -> bool:
        """Can `counts` still be packed in the free cells?  Shared by `helpers`."""
        answer = self.packable_within(counts, occupied, helpers)
        assert answer is not None, "a portfolio needs a helper without a cap"
        return answer

    def packable_within(self, counts: list[int], occupied: frozenset[int], helpers: Portfolio) -> bool | None:
        """`packable`, None when every helper stopped at its cap."""
        def ask(helper: str, amount: float) -> tuple[bool | None, float]:
            answer = self.packable_by(helper, amount, counts, occupied)
            return answer, self.work

        return balanced(helpers, ask, self.distrust)

    def packable_by(self, helper: str, amount: float, counts: list[int],
                    occupied: frozenset[int]) -> bool | None:
        """One helper's answer, None when its budget ran out (its packing in `found`, the
        work it did in `work`).  A question refuted before is not asked."""
        self.found = None
        if self.refuted.holds(counts, occupied):
            self.work = 0
            return False
        answer = self._packable_by(helper, amount, counts, occupied)
        if answer is False:
            self.refuted.add(counts, occupied)
        return answer

    def _packable_by(self, helper: str, amount: float, counts: list[int], occupied: frozenset[int]) -> bool | None:
        if helper == "c":
            answer = self.packer.packable(counts, sorted(occupied), int(amount))
            self.work = self.packer.last_nodes()
            if answer:
                self.found = list(self.packer.packing() or ())
            return answer
        if helper == "beam":
            # Along the DP's direction, then the other: which one finds a question's packing
            # depends on the question, not on the file (ddddfffeaaaeeeedqqeejefafe: a corner
            # whose packing a 4 000-state beam finds along the columns at once, and a
            # 64 000-state one only along the rows; 5.9 -> 2.7 s; docs/BENCHMARKS.md,
            # "Sixteenth pass").
            # A beam is not resumed, and asked again as wide or narrower it would make the
            # same layers or thinner ones: a question's widths that found nothing are not
            # asked again (homorammamhhoahmhhammaar's side: its second question asked the
            # beam again from 1 000 states, 0.5 s for nothing, while CaDiCaL took its turns,
            # 1.2 s; docs/BENCHMARKS.md, "Twenty-first pass").
            self.work = 0
            key = (tuple(counts), occupied)
            if self.beam_missed.get(key, 0) >= amount:
                return None
            for direction in (self.direction, 1 - self.direction):
                packing, work = _profile.beam(self.cells, counts, self.side, sorted(occupied), [0] * len(counts),
                                              int(amount), self.weights, self.lines[direction], direction)
                self.work += work
                if packing is not None:
                    self.found = list(packing)
                    return True
            self.beam_missed[key] = int(amount)
            return None  # an empty beam proves nothing
        if helper == "dp":
            found = self.first_corner(counts, occupied, [0] * len(counts), -1, int(amount))
            return None if found is False else found is not None
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
                              min_corner: list[int], start: int, known: int | None = None) -> int | None | bool:
        """`corner_from` on DP_LAYER_BUDGET states, or False at once when the DP gave up at this
        side and fewer than DP_RETRY_PIECES pieces were placed since (each piece placed
        shrinks its layers)."""
        if self.dp_gave_up_at is not None and len(self.placed) < self.dp_gave_up_at + DP_RETRY_PIECES:
            return False
        found = self.corner_from(t, counts, occupied, min_corner, start, DP_LAYER_BUDGET, known)
        if found is False:
            self.dp_gave_up_at = len(self.placed)
        return found

    def corner_from(self, t: int, counts: list[int], occupied: frozenset[int], min_corner: list[int],
                    start: int, budget: int, known: int | None = None, growth: int = 1) -> int | None | bool:
        """The smallest corner >= start of the next type-t piece over all completions (those
        before `start` have none), None when there is none, False when the DP gave up:
        asked of the DP window by window, CORNER_WINDOW corners at a time, each window
        `growth` times wider than the one before, while its preferred direction is the
        rows, whose scans a window cuts short; else in one question (`first_corner`).
        `known`: a corner known to have a completion (the witness's), so that only the
        corners before it are asked.  The states it took go to `work`; the packing the DP
        traced back, when it answered one, to `found` (the piece at its answer included)."""
        self.found = None
        after = list(min_corner)
        after[t] = max(after[t], start)
        if known is not None and known <= after[t]:
            self.work = 0
            return known  # no corner before it is left to ask
        end = self.side * self.side if known is None else known
        if self.direction != 0:
            found = self.first_corner(counts, occupied, after, t, budget, room_limit=PIECE_ROOM_LIMIT,
                                      last_corner=end - 1 if known is not None else -1)
            return known if found is None and known is not None else found
        work: float = 0
        found = None
        first, width = after[t], CORNER_WINDOW
        while first < end:
            after[t] = first
            found = self.first_corner(counts, occupied, after, t, budget, room_limit=PIECE_ROOM_LIMIT,
                                      last_corner=min(first + width, end) - 1)
            work += self.work
            if found is not None:
                break
            first += width
            width *= growth
        self.work = work
        return known if found is None else found

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
                limit = ROOM_LIMIT if amount >= DP_CORNER_MAX else PIECE_ROOM_LIMIT
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

    def placement(self, t: int, corner: int) -> frozenset[int] | None:
        """The cells of type t at this corner, None when it sticks out of the square."""
        return self._placements[t][corner]


def _cells_at(shape: Shape, corner: int, side: int) -> frozenset[int] | None:
    """The cells of `shape` at this corner of the square, None when it sticks out."""
    row, col = divmod(corner, side)
    if row + shape.height > side or col + shape.width > side:
        return None
    return frozenset((row + r) * side + col + c for r, c in shape.cells)
