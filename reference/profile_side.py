"""One side's questions to the profile DP (`reference._profile`), for `reference.side_questions`.

"Can these pieces still be packed in the free cells?", and "what is the smallest corner of
this piece over all packings?", asked of the DP's scans, which are kept between budgets
(`DpQuestion`), in the orientation that last answered (at first the one whose probe of the
side's own question got furthest, `ProfileSide._probe`) and along the other direction of its
square; the corners of a piece asked a window at a time along the rows
(`ProfileSide.corner_from`); room()'s memos kept for all the scans of the side and deepened
in turns, as long as they pay for themselves.  The other helpers (the C core, the beam, the
LP, the SAT solver, CP-SAT) and the portfolios that share a question among them are
`reference.side_questions.Side`'s, which is a `ProfileSide`.
"""
from __future__ import annotations

from collections.abc import Collection, Sequence

from reference import _profile
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
# one corner's question does (`ProfileSide.corner_from`).  konbkbkkkbqkkknklnnnkka's second piece,
# without room(): 7.9 M states over all corners, 2.6 M in windows of 4 or 8, 3.0 M corner
# by corner; along the columns, whose scans reach the window's last corners only at the
# end, 18.1 M, 16.8 M and 52.8 M (docs/BENCHMARKS.md, "Twenty-third pass").
CORNER_WINDOW = 4
# The DP questions whose scans are kept, so that one asked again resumes where it stopped:
# a run's question is asked of the DP for the next piece's smallest corner and for any
# completion at all (`runs.RUN_STAGES`), in turns.  (A layer of n states holds about 40n
# bytes: two questions at 160 000 states, 13 MB a direction.)
KEPT_QUESTIONS = 2
KEPT_TARGETED = 1  # and those for a target (`ProfileSide._question_of`)
# Below the budgets at which the two directions race (`ProfileSide._first_answer`), the direction
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
# question grows the memos in turns, from ROOM_FIRST_LIMIT values (`ProfileSide._scan`): which
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
# Where a scan runs (`_profile`'s orientation): along the square's rows (0) or columns (1),
# or along those of the square turned 1-3 quarters clockwise (2-7).  The answer is the
# same, the cost is not: a scan's layers depend on the order it takes the cells in, and the
# columns taken from the right (orientation 6) refute the L, J and I files' corners in a
# third to a fifth of the states the square's rows or columns take, the T and I files'
# in twice as many (docs/BENCHMARKS.md, "Twenty-seventh pass").  The beam turns the square
# (`Side._beam`); the DP's questions race the two directions of the preferred orientation's
# square (`ProfileSide._orientations`).  (Racing a challenger that takes turns through the
# turned squares as well gained on the L, J and I files what it lost on the T files:
# the 130 restricted files 173.6 -> 168.2 s, but the adversarial climbs' slowest files 1.7
# -> 4.5 s and 1.5 -> 2.3 s; docs/BENCHMARKS.md, "Twenty-eighth pass".)
QUARTER_TURNS = 4
ORIENTATIONS = range(2 * QUARTER_TURNS)
# The orientations that take the square's rows from the top (left to right, or right to
# left): a window of corners cuts their scans short (`ProfileSide.corner_from`).
ROWS_FROM_THE_TOP = frozenset((0, 7))
# A side's scans start in the orientation, of the square's rows and columns (0, 1) and its
# mirror image's (left and right swapped: 7 takes the rows from the top, each from the
# right, 6 the columns from the right), whose scan of the side's own question gets furthest
# on PROBE_BUDGET states a layer (`ProfileSide._probe`; the race and the answers move it on,
# `_first_answer`).  The side's question is scanned exactly in every orientation, so the
# probe reads only how fast the layers grow.  One orientation can take the same questions in
# a third of the states another does, and which one depends on the file: the L, J and I
# files' on the mirror, many T files' on the square (single solves with the side's scans
# started in each of the four: 50 restricted files 154.5 s from the window's direction, as
# before, 105.5 s from the probe's, 88.9 s from the best of the four per file).  The 136
# restricted files 203.3 -> 169.1 s, the slowest five 11.2-7.7 -> 6.1-4.7 s.  The probe sees
# the first line or two only, where the border shapes the layers, and some files start the
# wrong way: jkfojknffkkkakkfeofokkf on the mirror, 4.3 s, where the square's columns take
# 1.7 s.  (The turned squares' scans (2-5) start at the bottom, far from the top-left
# corners every piece's question is about: iighiigiiighieiieiieegieig 0.2 s from the square
# or its mirror, 0.8-1.8 s from them.  A probe of 2 000 states costs a tenth as much,
# 0.006-0.017 s a side, but ties the cells reached more often and chose worse: 113.5 s on
# the 50 files; docs/BENCHMARKS.md, "Twenty-ninth pass".)
PROBE_BUDGET = 10_000
PROBED = (0, 1, 7, 6)


def _pays(room: _profile.Room) -> bool:
    """A memo worth deepening: still small, or one whose values refute states (ROOM_MIN_YIELD,
    and ROOM_FIRST_CUTS past ROOM_FIRST_LIMIT values)."""
    if room.entries >= ROOM_FIRST_LIMIT and room.cuts < ROOM_FIRST_CUTS:
        return False
    return room.entries < PIECE_ROOM_LIMIT or room.cuts >= ROOM_MIN_YIELD * room.entries


DpKey = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], int, int]


class DpQuestion:
    """One DP question (counts, occupied cells, min_corner, target, last_corner) and its
    scans, one per orientation (`ORIENTATIONS`), made when first asked for."""

    def __init__(self, side: ProfileSide, key: DpKey) -> None:
        self.side = side
        self.key = key
        self.scans: dict[int, _profile.Scan] = {}

    def scan(self, orientation: int) -> _profile.Scan:
        scan = self.scans.get(orientation)
        if scan is None:
            counts, occupied, min_corner, target, last_corner = self.key
            board = self.side
            scan = _profile.Scan(board.cells, counts, board.side, occupied, min_corner, target, board.weights,
                                 board.lines[orientation], orientation, last_corner)
            self.scans[orientation] = scan
        return scan

    def work(self) -> int:
        """The states its scans have taken from their layers so far."""
        return sum(scan.work for scan in self.scans.values())


class ProfileSide:
    """The profile DP's questions at one side: the pieces, the square, the scans and memos
    kept between questions, and the questions proved to have no packing."""

    def __init__(self, types: Sequence[Shape], counts: Sequence[int], side: int,
                 weights: _profile.Weights | None) -> None:
        self.types = list(types)
        self.cells = [t.cells for t in types]
        self.side = side
        self.weights = weights  # the empty square's packing-LP certificate, checked at every state
        self.counts = list(counts)
        self.placed: list[tuple[int, int]] = []  # (type, corner) of the pieces placed so far
        self.dp_gave_up_at: int | None = None  # pieces placed when the DP last gave up
        # A "yes" comes with its packing when a helper found one: `found` holds that of the
        # last question answered so ((type, corner) of the pieces asked about), and `witness`
        # one of the pieces still to place around those placed, while one is known.
        self.found: list[tuple[int, int]] | None = None
        self.witness: list[tuple[int, int]] | None = None
        # The DP's preferred orientation (`ORIENTATIONS`): the probe's at first (`PROBED`),
        # then the one that last answered where the other outgrew its
        # budget (`first_corner`); per orientation, its line-count memo and its suffix bound
        # (_profile.c, room(), made when first needed), each with its memo shared by all the
        # scans at this side.  (One room() memo per placed piece, with its cells occupied,
        # was slower on the adversarial benchmark's slowest files: the memo costs more to
        # rebuild than the occupied cells it then sees beyond a scan's window save.)
        self.lines = [_profile.Lines() for _ in ORIENTATIONS]
        self.preferred = self._probe()
        self.rooms: list[_profile.Room | None] = [None for _ in ORIENTATIONS]
        self.questions: list[DpQuestion] = []  # the last DP questions asked, latest last (`_question_of`)
        self.side_question: DpQuestion | None = None  # the side's own, kept apart (`_question_of`)
        self.work: float = 0  # of the last question (`portfolio.SECONDS_PER_UNIT`'s units)
        self.refuted = Refuted()  # the questions proved to have no packing: none is asked twice
        # `placement`, per type and corner: the staged search asks for them by the hundred
        # thousand (1.8 s of the 64 s of the 69 restricted files, made each time).
        self._placements = [[_cells_at(shape, corner, side) for corner in range(side * side)] for shape in types]

    def _probe(self) -> int:
        """The orientation the side's scans prefer at first: of the square's two and its
        mirror image's two (`PROBED`), the one whose scan of the side's own question gets
        furthest on PROBE_BUDGET states a layer (the latest cell, then the fewest states).
        Its scans are not a `DpQuestion`'s: kept as the side's own question's, which its
        first DP turn would resume, they saved nothing (docs/BENCHMARKS.md, "Twenty-ninth
        pass"), and they are dropped once read."""
        def reach(orientation: int) -> tuple[int, int]:
            scan = _profile.Scan(self.cells, self.counts, self.side, [], [0] * len(self.counts), -1, self.weights,
                                 self.lines[orientation], orientation)
            answered = scan.advance(PROBE_BUDGET) is not False
            return self.side * self.side if answered else scan.cell, -scan.work

        return max(PROBED, key=reach)

    def first_corner(self, counts: list[int], occupied: Collection[int], min_corner: list[int], target: int,
                     budget: int, room_limit: int = ROOM_LIMIT, last_corner: int = -1) -> int | None | bool:
        """One DP question, in the preferred orientation, then, when that outgrows its
        budget, along the other direction of its square (`_orientations`), which is
        preferred from then on if it answered: one direction can be a hundred times faster
        than the other, and which one depends on the shapes, not on the window's length
        (docs/BENCHMARKS.md, "Seventh pass": restricted_ivert_tright_21 19.5 s along the
        rows, 0.06 s along the columns; restricted_ihoriz_tdown_tright_23 0.09 s and 3.2
        s).  Without room() as long as its memo is not built, and built (in the preferred
        orientation) only when neither orientation answers without it: its first lookups
        explore the whole rest of the square (0.92 s of a 2 000-state probe on
        nhnhnnnnjnhjoonjjohjojnjnj; 0.6-1 s of the first question on
        restricted_l90_ivert_tdown_26 and restricted_ihoriz_skew_23, which the line counts
        answer alone).  A probe (a budget below DP_LAYER_BUDGET) never builds it.
        When its memo fills up (`Room.full`: unknown values then prune nothing) and the
        scan still gives up, the other orientation gets a room() of its own: its memo can be
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
            packing = question.scan(self.preferred).packing
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
        """`first_corner`'s scans: in both orientations with room()'s memos as they are,
        then (unless a probe or unbounded) with memos deepened in turns
        (`ROOM_FIRST_LIMIT`, then ROOM_GROWTH times more, up to `room_limit`), until a scan
        answers or an orientation's memo stops short of its limit: that orientation's
        room() is whole for this question, whose scan now needs a larger budget, not a larger memo.
        A memo that filled up in one orientation can be ten times the other's, and which
        one fills depends on the file (docs/BENCHMARKS.md, "Twelfth pass"): built along one
        direction up to 4 M values, the wrong one cost a second for nothing.  An orientation
        whose memo filled up last time is asked after one whose memo did not, and, when
        its memo may deepen, not at all with the memo as it is: a full memo prunes little,
        and that scan, along the rows of rdddfeferafeeefjjdeeferaaa, took 3 million states
        (2.8 s, most of it in the line counts) to refute a run that the columns' scan
        refutes in 0.5 s with its memo deepened to a million values (docs/BENCHMARKS.md,
        "Thirteenth pass").  A memo that does not pay for itself (`_pays`) is not deepened,
        and its orientation is asked last, once the others' deepened memos did not answer."""
        probe = 0 < budget < DP_LAYER_BUDGET
        deepen = budget >= DP_LAYER_BUDGET  # (a scan without a budget never gives up)
        order = self._orientations()
        first, other = (self.rooms[o] for o in order)
        if first is not None and first.full and other is not None and not other.full:
            order = order[::-1]
        # The orientations whose memo filled up and does not pay for itself: scanned last, with
        # the memo as it is, once the others' deepened memos did not answer.
        spent = {d for d, room in enumerate(self.rooms)
                 if deepen and room is not None and room.full and not _pays(room)}
        # The orientations whose memo filled up at a limit this question may raise, and which
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

    def _orientations(self) -> tuple[int, int]:
        """Where `_scan` scans a question, in turn: in the preferred orientation, then along
        the other direction of its square."""
        return self.preferred, self.preferred ^ 1

    def _first_answer(self, question: DpQuestion, orientations: Sequence[int], budget: int) -> int | None | bool:
        """The question's scans in these orientations in turn, with room()'s memos as they
        are: the first answer (its orientation preferred from then on), False when none
        answers.  From twice DP_LAYER_BUDGET on, two orientations race at half the budget
        first: the layers of one can peak at a third of the other's, and where they gave up before
        does not tell which (eeaggaggeoaagbbeeeegaeg's first corner: both outgrew 160 000
        states; at 640 000 the rows, preferred, took 12.9 M states to refute it, 4.2 s, the
        columns 5.0 M; the direction that had reached the later layer, preferred on every
        question, cost more than it saved: docs/BENCHMARKS.md, "Nineteenth pass" and
        "Twentieth pass").  A scan resumes where it stopped, so the race costs at most the
        states the orientation that does not answer takes up to half the budget.  Below it,
        the orientation not preferred gets OTHER_DIRECTION_SHARE of the budget."""
        race = len(orientations) > 1 and budget >= 2 * DP_LAYER_BUDGET
        for width in (budget // 2, budget) if race else (budget,):
            for i, orientation in enumerate(orientations):
                share = width if race or not i or not width else max(width // OTHER_DIRECTION_SHARE, 1)
                found = question.scan(orientation).advance(share, self.rooms[orientation])
                if found is not False:
                    self.preferred = orientation
                    return found
        return False

    def _deepen(self, question: DpQuestion, budget: int, room_limit: int,
                order: tuple[int, int]) -> int | None | bool:
        """`_scan`'s scans with the memos that pay for themselves (`_pays`) deepened in
        turns, from ROOM_FIRST_LIMIT values, ROOM_GROWTH times more each turn, up to
        `room_limit`: until a scan answers (its answer) or an orientation's memo stops short
        of its limit (False: that orientation's room() is whole for this question)."""
        level = ROOM_FIRST_LIMIT
        while True:
            level = min(level, room_limit)
            for orientation in order:
                room = self.rooms[orientation]
                if room is None:
                    room = self.rooms[orientation] = _profile.Room(self.cells, self.counts, self.side, orientation)
                    room.limit = 0
                if not _pays(room):
                    continue
                if room.limit < level:
                    room.limit = level
                    found = self._first_answer(question, (orientation,), budget)
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
        if not occupied and last_corner < 0 and not any(min_corner):
            # The side's own yes/no (`staged.SIDE_FIRST`, with the first piece's type as its
            # target), kept apart from the pieces' questions: asked once per side, it would
            # push out a run's scan that a corner's question resumes
            # (kskknbkkbnnkkkllslkhkkl, when it was asked after the runs: 0.35 s).  The first
            # piece's whole question along the columns is the same question, and resumes it.
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
        # its corners are asked one by one (`corners.smallest_corner`).
        same_kind = [other for other in others if (other.key[3] >= 0) == (target >= 0)]
        while len(same_kind) >= (KEPT_TARGETED if target >= 0 else KEPT_QUESTIONS):
            others.remove(same_kind.pop(0))
        self.questions = others + [question]
        return question

    @property
    def rows_from_the_top(self) -> bool:
        """Whether the preferred orientation takes the square's rows from the top
        (`ROWS_FROM_THE_TOP`), so that a window of corners cuts its scans short."""
        return self.preferred in ROWS_FROM_THE_TOP

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
        `growth` times wider than the one before, while its preferred orientation takes the
        rows from the top (`ROWS_FROM_THE_TOP`), whose scans a window cuts short; else in
        one question (`first_corner`).
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
        if not self.rows_from_the_top:
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

    def placement(self, t: int, corner: int) -> frozenset[int] | None:
        """The cells of type t at this corner, None when it sticks out of the square."""
        return self._placements[t][corner]


def _cells_at(shape: Shape, corner: int, side: int) -> frozenset[int] | None:
    """The cells of `shape` at this corner of the square, None when it sticks out."""
    row, col = divmod(corner, side)
    if row + shape.height > side or col + shape.width > side:
        return None
    return frozenset((row + r) * side + col + c for r, c in shape.cells)
