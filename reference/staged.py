"""One side of the square, settled by the C core with help when it runs out of budget.

The C core (`_fastsolve.solve_at_side`) decides nearly every side within a small node
budget.  Files drawn from a few shapes are the exception: their squares have many spare
cells, every empty cell is a branch, and some proofs take it minutes.  Then the side is
settled in steps, each of which keeps the answer the seed's first solution:

1. The packing LP's dual certificate (`reference.lp_bound`): when it proves that the
   pieces cannot all fit, the side is impossible.  Otherwise it still goes to every later
   C search as a bound checked at each node.
2. The side's own yes/no on small budgets (`SIDE_FIRST`): a packing the C core or the
   beam finds, or the DP traces back through its layers, is the witness the later steps
   start from; the DP's "no" ends the side.  (So do the packings of the runs' and the
   pieces' questions: each packing the DP answers with comes with one, while its layers
   stay under `_profile.ARCHIVE_MAX` states.  eeeabefesajefefaeeeaesf, whose side 10 the
   DP answered "yes" and no helper found a packing of, asked runs and corners without
   one: 4.0 -> 2.2 s; the 104 restricted files' work estimate 125.8 -> 118.8 s;
   docs/BENCHMARKS.md, "Twenty-fourth pass".)
   Then the plain search's own first moves (`_place_plain_moves`): each next piece at its
   smallest corner that fits, as the seed places them before it backtracks.  A run of
   them is each piece's answer as soon as it is known to have a completion (the corners
   before do not even fit), so one question to the profile DP (`reference._profile`:
   every partial packing's frontier, row by row or column by column, exact) settles the
   longest such run and the next piece at once: the smallest corner of that piece over
   the run's completions, None when there are none.  With the run's pieces fixed the DP
   is cheap, and a run too long fails in its first layers; this settles the side and
   most pieces on the files from a few shapes, whose first piece alone takes the DP
   seconds.  The DP and the C core share a run's question (`RUN_STAGES`, `balanced`):
   the C core's packing of a run confirms it and every run it follows the moves for,
   and so does the beam's (`_profile.beam`: the DP's layers cut to their least costly
   states, which finds the packings of the T and L/J files' runs in milliseconds, where
   the exact DP outgrows its budget and the C core needs a million nodes); when none
   settles it at its first budget, the question's own packing LP
   (`Side.lp_refutes`) may prove it has no completion, which it does in milliseconds
   on the S/Z files, whose fixed pieces waste cells the LP sees.  (A run of one, its
   piece's first open corner, is asked the next piece's corner on a small budget only:
   `RUN_OF_ONE_NEXT_MAX`.)
   The DP is asked both for the next piece's corner and, which refutes a run with fewer
   states, whether the run has any completion at all.  The beam first looks for a
   packing of all the pieces still to place (`RUN_BEAM`); runs are asked longest first
   until a packing is known, then up from the longest it confirms, so that the only
   "no" asked is then the one any order needs.  A question proved to have no completion
   is never asked again at the side (`Side.refuted`).
3. Otherwise the profile DP asked for the first piece's smallest corner over all
   packings, which also says whether the side has one (`Side.corner_from`: along the
   rows, a window of a few corners at a time).  Its bounds drop the states
   without a completion: the line counts (reference/_lines.h: the pieces' profiles
   shifted onto each row's or column's free cells) and, when those are not enough,
   room() (_profile.c: the most pieces the rest of the square can hold); their memos
   are kept for all the DP's scans at the side, along the rows or the columns, whichever
   last answered, both raced at half a large budget first (`Side.first_corner`; a scan
   kept between the budgets of one question resumes where it stopped).  Where neither
   sees why states fail, a layer outgrows the DP's budget, and it is not asked again
   until a piece is placed.
   Then the C core's own ordered search (one memo for all its queries) gets a budget,
   and when that is not enough, the side's yes/no is shared (`SIDE_STAGES`) by the
   C core's order-free search (`_fastsolve.Packer`, one per side, whose memo of failed
   states serves every later question), the beam, CaDiCaL (`reference.sat_side`, one
   incremental instance kept for step 4) and one more turn of the DP, which take turns on
   growing budgets, the one that has spent least going next (`portfolio.balanced`).
   "No" means the side is impossible.
4. "Yes": the seed's first solution, piece by piece (`_first_solution`): runs of plain
   moves as in step 2 where one is confirmed, else the next piece at the smallest corner
   from which the rest can still be packed.  That greedy order needs no
   backtracking, because every corner it keeps provably has a completion, and it is the
   seed's first solution because the seed's backtracking returns, piece after piece, the
   smallest corner that has one.  The first corner still open (it fits, and its
   question is not refuted) is that piece's answer when it has a completion: the
   witness's corner, or a packing the beam finds around it (`FIRST_CORNER_BEAM`).
   Otherwise corners are asked of the C core in turn on a small budget; the first corner
   it cannot settle hands the piece to the DP, which returns the smallest corner over all
   completions (window by window along the rows); when the DP cannot afford the side, that
   corner and the next are shared by the DP with the corner fixed, its beam and the
   corner's packing LP (`side_questions.CORNER_STAGES`), then, past their caps, by the SAT
   solver and the C core (`CORNER_LAST`: assumptions on the same SAT instance and the same
   Packer, so what each learned serves every question), or without python-sat by the C
   core and CP-SAT (`side_questions.QUERY_STAGES`).  The helpers' work is weighed per side
   by what answered the costly questions before (`Side.distrust`): the questions of one
   file tend to suit the same helper.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from reference import _fastsolve
from reference.lp_bound import lp_certificate
from reference.shapes import Shape
from reference.portfolio import SECONDS_PER_UNIT, Portfolio, balanced, capped
from reference.side_questions import Side

Corner = tuple[int, int]

# Budgets: see `reference.portfolio.Portfolio`.
# The C core alone first: on hard_corpus seeds 0-9 it settles every side of 403 of the 670
# files; the rest are the few-shape families, identical_L_180 and some random_24 files.
# (At 150 000 nodes it settled 452, but the others, for which the budget is spent for
# nothing, paid 50 ms a side: the 69 restricted files 64.7 -> 61.1 s with 40 000, the
# non-restricted files of hard_corpus seeds 0-2 1.14 -> 1.19 s, none over 0.13 s;
# docs/BENCHMARKS.md, "Seventeenth pass".)
FIRST_C_BUDGET = 40_000
# When the profile DP cannot afford the side: the C core's own ordered search gets this
# budget before anything else.  (2 000 000 cost ljnnnooqjjjofkllqfohonj 3 s for nothing;
# the portfolios below spend such budgets where they answer.)
ORDERED_C_BUDGET = 200_000
# When the DP could not afford a piece's whole question and the corners asked one by one
# refuted PIECE_RETRY_AFTER of them, the whole question is asked again, from the next corner,
# with PIECE_RETRY_BUDGET states: a piece can have many corners without a completion, each
# refuted by a scan of its own (ddddlffeaffeeeelfeerdafaja's sixth piece: seven, 0.1-1.4 s
# each, where the whole question at 160 000 states answers in 0.4 s).  (At 160 000 states
# for every piece, the 69 restricted files 56.2 -> 62.8 s; retried after two corners, the
# 72 files 72.9 -> 69.9 s, after three 66.0 -> 67.6 s; docs/BENCHMARKS.md, "Seventeenth
# pass".)  At 80 000 states rather than 160 000, once two DP directions race and memos that
# refute nothing stop growing: the 88 restricted files 100.9 -> 95.0 s and 103.1 -> 97.3 s
# (emeaoefssaaeeeeafeeaesf's second piece had spent 1.5 s on a retry that gave up); at
# 40 000, 101.8 -> 105.6 s ("Twentieth pass").
PIECE_RETRY_AFTER = 2
PIECE_RETRY_BUDGET = 80_000
# A retry that gives up is asked again once the corners refuted one by one since have cost
# as much as it did (estimated), on PIECE_RETRY_GROWTH times its budget, up to
# PIECE_RETRY_MAX states: the corners one by one and the whole question take turns on
# growing shares, as the helpers of a portfolio do.  (fdakkokfffkkgfkfgafokof's second piece:
# 30 corners refuted at about 0.1 s each after the retry at 80 000 states gave up, where the
# whole question at 320 000 answers in 0.5 s: 6.0 -> 2.4 s.  Asked again after twice as many
# corners as the last time, kmaoammdommmoamhhmommaaa's first piece had spent 1.6 s on a retry
# at 320 000 states that gave up, before its corners, at 0.03 s each, found the answer; with
# the cost, 2.8 -> 1.1 s.)  Each asks the question of the first retry, from the same corner,
# whose scans it resumes (`Side._question_of` keeps them): the corners refuted in between
# are in it, but asked from the corner after them it was a new question, whose scans started
# again.  (The 104 restricted files' work estimate: 125.8 s with one retry; 118.8 s with the
# DP's packings as witnesses, then 117.4 s resuming, 113.2 s by cost, 113.6 s at twice the
# cost, 118.4 s at half; docs/BENCHMARKS.md, "Twenty-fourth pass".)
PIECE_RETRY_GROWTH = 4
PIECE_RETRY_MAX = 2_560_000
# The retry's windows of corners (`Side.corner_from`) each twice as wide as the one before:
# its answer can lie far on (freffeissaoeaeaaeeeaesf's second piece: 60 corners on, 16
# windows of 4 at 0.05-0.44 s each; the file 5.01 -> 2.03 s, the 97 restricted files' DP
# work 219.1 -> 219.8 M; doubling the first question's windows too, 223.5 M;
# docs/BENCHMARKS.md, "Twenty-third pass").
RETRY_WINDOW_GROWTH = 2
CORNER_C_BUDGET = 20_000  # per corner, before the piece goes to the profile DP (0: skip)
# The first corner still open is the piece's answer when it has a completion, which the
# beam finds in milliseconds where it exists, so it is asked first (0: skip).  (At 1 000
# states rather than 250, the 97 restricted files' beam work 72.8 -> 83.2 M states for 2.8 M
# fewer DP states and values; docs/BENCHMARKS.md, "Twenty-third pass".)
FIRST_CORNER_BEAM = 250


# Place runs of the plain search's first moves with one question each
# (`_place_plain_moves`); tests turn it off to exercise the other helpers.
PLAIN_MOVES = True
# A run's question, with the run's pieces fixed, is the cheapest question there is to ask.
# A run too long usually fails within the DP's first layers (its first budget, 2 500
# states); the C core looks for a packing of it (one confirms the run without the DP) or a
# proof there is none; the two share the question (`balanced`), the C core one turn of
# 20 000 nodes, the DP up to 160 000 states, the beam up to 4 000 states per layer.  (A fixed
# ladder, the C core stopping at 80 000 nodes and the DP's 160 000-state rung last, lost
# 1-2 s on the first run of the T files, whose packing the C core found with 0.1-0.9
# million nodes: ffddgeegegoggeegggfeefgffe 2.4 -> 0.9 s; docs/BENCHMARKS.md, "Eighth
# pass".  The beam now finds those packings in milliseconds, and the C core's 1 280 000-
# and 320 000-node turns and the beam's 16 000-state one only delayed the DP's last one
# on the runs that have no completion: "Twelfth pass", "Thirteenth pass".  Its turn of
# 80 000 nodes settled no run of the 97 restricted files that the others had not: without
# it the same DP and beam work, 0.8 M fewer nodes; "Twenty-third pass".)
# A run's DP builds room() as every question's does, whatever the types.  (It did on files
# of at most six types only, from the seventh pass to the sixteenth: then, with memos that
# must pay for themselves, kdddfffeaaqeeeedfapefjfaaa, eight types, took 1.8 s against
# 3.5 s without, and ljnnnooqjjjofkllqfohonj, for which the limit was made, 0.72 s against
# 0.73; docs/BENCHMARKS.md, "Sixteenth pass".)
# The DP is asked a run's question two ways: for the next piece's smallest corner over the
# run's completions ("dp-next"), which places that piece too, and whether it has any
# ("dp"), whose scan keeps only the frontiers, not where the next piece went, so it
# refutes a run with far fewer states.  (With "dp-next" alone, run 5 of
# ddddfejedbfeeffbfjeefefaea was left unsettled after 0.95 s at its cap, and then its last
# piece's corner refuted in 0.97 s, the same question without a target; the ten slowest
# restricted files 34.5 -> 29.5 s; docs/BENCHMARKS.md, "Seventeenth pass".)
RUN_STAGES: Portfolio = (("dp-next", 2_500, 160_000), ("c", 20_000, 20_000), ("beam", 1_000, 4_000), ("lp", 1, 1),
                         ("dp", 40_000, 160_000))
# A run of one is the question of its piece's first open corner, which `_smallest_corner`
# asks next, with the corners' helpers, when no helper here settles it: the next piece's
# corner over its completions ("dp-next") is worth little there, and is asked up to this
# many states only.  (On the 94 restricted files "dp-next" gave that corner for 7 runs of
# one, in 0.01 s in all; its scans up to 160 000 states, which hold the states of the run's
# "dp" scan, cost the three runs of one that no helper settled 1.6 of their 4.0 s
# (rrhooambamhaoamhhmammaha, kskknbkkbnnkkkllslkhkkl, eeaggaggeoaagbbeeeegaeg).  The DP's
# work on the 94 files 254.6 -> 247.7 M states and values; docs/BENCHMARKS.md, "Twenty-second
# pass".)
RUN_OF_ONE_NEXT_MAX = 10_000
# Before its runs, when no packing of the pieces still to place is known, the beam looks for
# one with this many states per layer (0: not asked): the runs it confirms need no question,
# and the runs are then asked up from the longest it confirms, so that the only "no" is the
# one any order needs.  (Asked longest first, the runs of ddddfefeaqfeeefhfdeeeffjaa that
# were too long cost 0.9 s of refutations before a run of 4 found its packing, which this
# beam finds in 0.01 s; the ten slowest files 29.5 -> 25.5 s; "Seventeenth pass".)
RUN_BEAM = 1_000
# Before its runs, the side's own yes/no on small budgets (empty: not asked): the C core and
# the beam find a packing of a side that has one, which the runs and corners then start from
# (the witness), and the DP asked for any packing refutes a side that has none, which the
# runs would otherwise refute run by run before the same question was asked.
# (gggegaggeeaagedaeeegbee's side 10: runs refuted in 1.4 s, then the side in 0.7 s; now 0.7
# s in all; konlnckknkakkkkklknnkkk's side 10, which CaDiCaL took 6.9 s to refute, the DP
# refutes along the columns in 0.3 s; the 79 restricted files 60.1 -> 58.0 s, 40 random
# draws 1.4 -> 1.3 s; docs/BENCHMARKS.md, "Eighteenth pass".)  The C core and the beam each
# get one budget before the DP's probe: the DP's first turn past a probe builds room()'s
# memos (0.6 s on kskknbkkbnnkkkllslkhkkl's side 10, whose packing the beam then found at
# 4 000 states).  The beam goes on to 16 000 states beside the DP: the T files' sides that
# the DP answered "yes" at 160 000 states (ggeggeggedaagiodeeegeee: 1.1 s, and no packing to
# start from) it finds in 0.15 s along the columns (eight such files 21.6 -> 19.8 s, the 91
# restricted files 89.0 s both ways; docs/BENCHMARKS.md, "Twenty-first pass").
SIDE_FIRST: Portfolio = (("c", 80_000, 80_000), ("beam", 4_000, 16_000), ("dp", 10_000, 160_000))
# The side's yes/no when that, the DP's first question and the ordered C search could not
# settle it: the C core, the beam and the SAT solver (asked about the empty square only),
# as for corners.  (CP-SAT, between them before, answered no side first on
# RESTRICTED_SLOWEST.  The DP among them, up to DP_CORNER_LAST_MAX states, answered a side
# that has a packing, rrhooambamhaoamhhmammaha's side 10, after 11.6 s of scans, where
# CaDiCaL alone takes 4 s: the file 19.9 -> 30.8 s; docs/BENCHMARKS.md, "Eighteenth pass".)
# The beam goes on up to SIDE_BEAM_MAX states a layer, past a corner's cap: the sides of 24
# pieces in 100 cells whose packing CaDiCaL took 40 s to find (homorammamhhoahmhhammaar),
# a 256 000-state beam along the columns found in 1.3 s (300 MB at most resident, its
# layers kept to trace the packing back); the file 42.4 -> 10.6 s.  Since the beam also
# keeps the pieces in proportion (_profile.c, beam_imbalance), 64 000 states find it.
# The DP gets one turn past SIDE_FIRST's cap, at SIDE_DP_LAST states (its scan resumes where
# SIDE_FIRST's stopped): fdakkokfffkkffkfgafokof's side 10 has no packing, which CaDiCaL
# took 14.6 s to prove beside 3.8 s of the C core and 3.1 s of the beam, and that turn proves
# in 0.5 s (the file 21.8 -> 2.6 s).  On a side it cannot settle the turn costs its scan
# (2.0 s on rrhooambamhaoamhhmammaha's side 10, which has a packing); no restricted file's side
# comes this far (docs/BENCHMARKS.md, "Twenty-third pass").
SIDE_BEAM_MAX = 256_000
SIDE_DP_LAST = 640_000
SIDE_STAGES: Portfolio = (("c", 20_000, 0), ("beam", 1_000, SIDE_BEAM_MAX), ("sat", 300, 0),
                          ("dp", SIDE_DP_LAST, SIDE_DP_LAST))


@dataclass(frozen=True)
class RunAnswer:
    """A run's question settled: has it a completion; the packing of its completion a helper
    found (the C core, the beam, the DP traced one back), and the next piece's smallest
    corner over the completions, when the DP was asked for it."""
    packable: bool
    packing: list[tuple[int, int]] | None = None
    next_corner: int | None = None


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
    board = Side(types, counts, side, certificate)
    partial = _Partial(list(piece_types), counts)
    packable = board.packable_within(counts, frozenset(), SIDE_FIRST) if SIDE_FIRST else None
    if packable is False:
        return None
    if packable and board.found is not None:
        board.witness = board.found
    if not (PLAIN_MOVES and _place_plain_moves(board, partial) or packable):
        # The first piece's smallest corner over all packings, None when there is none: the
        # side's yes/no and the first piece's answer in one scan.  (When the side's yes is
        # known, the first piece is `_first_solution`'s, as every piece after it: below the
        # witness's corner, the first open corner's beam and the C core come before the DP,
        # and the DP asks only the corners before the witness's.  The 97 restricted files'
        # DP work 220.9 -> 216.3 M; docs/BENCHMARKS.md, "Twenty-third pass".)
        dp_says = board.smallest_corner_by_dp(piece_types[0], counts, frozenset(), [0] * len(counts), 0)
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
            board.witness = board.found
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

    def place(self, board: Side, t: int, corner: int, witness: list[tuple[int, int]] | None = None) -> None:
        cells = board.placement(t, corner)
        assert cells is not None and self.occupied.isdisjoint(cells)
        self.counts[t] -= 1
        self.occupied |= cells
        self.anchors.append(corner)
        self.min_corner[t] = corner + 1
        board.place(t, corner, witness)


def _first_solution(board: Side, partial: _Partial) -> None:
    """The seed's first solution at a side that has a packing, placed piece by piece from
    `partial` on: each piece at the smallest corner from which the rest can still be packed
    (`_place_plain_moves` places several at once where it can)."""
    while len(partial.anchors) < len(partial.piece_types):
        if PLAIN_MOVES and not partial.follows_futile_moves():
            if _place_plain_moves(board, partial):
                continue
        t = partial.next_type()
        corner, witness = _smallest_corner(board, t, partial.counts, partial.occupied, partial.min_corner,
                                           partial.min_corner[t])
        partial.place(board, t, corner, witness)


def _plain_moves(board: Side, partial: _Partial) -> list[int]:
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


def _place_plain_moves(board: Side, partial: _Partial) -> bool:
    """Place the longest run of the plain search's first moves (`_plain_moves`) that still
    has a completion, and the piece after it when the DP says where; False when none was
    placed.

    Each of those moves is its piece's answer once the run is known to have a completion:
    the corners before it do not even fit.  Runs too long fail within the DP's first
    layers, so they are asked longest first until a packing is known (the board's witness,
    the beam's packing of the pieces still to place, or the C core's packing of a run: its
    pieces may follow the moves further than the run asked); then, after one try at the
    longest, up from the longest run the packing confirms.  A run with a completion
    confirms every shorter one, so the only "no" asked then is the run one longer than the
    answer, the refutation of the next piece's first corner, which any order must prove.
    (Longest first all the way, every run longer than the answer was refuted in turn: on
    `prposrppqqpccsqrqsprqcpsr` 1.2 s of "no" for a run of 5.)  A run the DP confirms when
    asked for the next piece ("dp-next") comes with that piece's smallest corner over its
    completions: the next move again, or that piece's answer.  A run that no helper
    settles within its cap ends the attempt, as the longer ones would cost them more.
    When it places nothing, it leaves its moves in `partial.futile_moves`.
    """
    moves = _plain_moves(board, partial)
    start = len(partial.anchors)
    types = partial.piece_types[start:start + len(moves)]
    if start + len(moves) == len(partial.piece_types):
        # The plain search's first moves pack every piece: that is its first solution.
        for t, corner in zip(types, moves):
            partial.place(board, t, corner)
        return True
    # A packing of the pieces from `start` on, when one is known: the board's witness, the
    # beam's (`RUN_BEAM`), or the C core's packing of a run's completion with the run's
    # moves before it.
    packing = board.witness
    if packing is None and RUN_BEAM and board.packable_by("beam", RUN_BEAM, partial.counts, partial.occupied):
        packing = board.found
    known = _followed(packing, types, moves)  # the longest run known to have a completion
    refuted = len(moves)  # the shortest run known to have none (the piece after the moves has no corner)
    next_corner: int | None = None
    longest_tried = False
    while known + 1 < refuted:
        # Longest first until a packing is known; then, after one try at the longest, up.
        run = known + 1 if packing is not None and longest_tried else refuted - 1
        longest_tried = True
        counts, min_corner, occupied = list(partial.counts), list(partial.min_corner), set(partial.occupied)
        for t, corner in zip(types[:run], moves):
            cells = board.placement(t, corner)
            assert cells is not None
            counts[t] -= 1
            min_corner[t] = corner + 1
            occupied |= cells
        t = partial.piece_types[start + run]

        def ask(helper: str, budget: float) -> tuple[RunAnswer | None, float]:
            """The C core: a packing confirms the run, "no" refutes it.  The DP ("dp-next"):
            the next piece's smallest corner over the run's completions, or none; ("dp")
            whether it has any."""
            if helper in ("c", "beam"):
                found = board.packable_by(helper, budget, counts, frozenset(occupied))
                return (None if found is None else RunAnswer(found, board.found)), board.work
            if helper == "lp":
                return (RunAnswer(False) if board.lp_refutes(counts, occupied, min_corner) else None), 1
            if helper == "dp":
                dp_says = board.first_corner(counts, occupied, min_corner, -1, int(budget))
                return (None if dp_says is False else RunAnswer(dp_says is not None, board.found)), board.work
            assert helper == "dp-next", helper
            dp_says = board.first_corner(counts, occupied, min_corner, t, int(budget))
            return (None if dp_says is False else RunAnswer(dp_says is not None, board.found, dp_says)), board.work

        stages = RUN_STAGES if run > 1 else capped(RUN_STAGES, "dp-next", RUN_OF_ONE_NEXT_MAX)
        settled = balanced(stages, ask, board.distrust, lambda answer: answer.packable)
        if settled is None:
            break
        if not settled.packable:
            refuted = run
            continue
        if settled.packing is not None:
            packing = list(zip(types[:run], moves)) + settled.packing
            known = _followed(packing, types, moves)
        if settled.next_corner == moves[run]:
            known = max(known, run + 1)  # the next piece's answer is its move: the run one longer has a completion
        elif settled.next_corner is not None or settled.packing is None:
            known, next_corner = run, settled.next_corner  # the next piece's corner, when the DP gave it
            break
    if not known:
        partial.futile_moves = partial.anchors + moves
        return False
    if packing is not None and packing is not board.witness:
        board.witness = packing  # the moves placed below keep what follows them
    for u, corner in zip(types[:known], moves):
        partial.place(board, u, corner)
    if next_corner is not None:
        partial.place(board, partial.next_type(), next_corner)
    return True


def _followed(packing: list[tuple[int, int]] | None, types: list[int], moves: list[int]) -> int:
    """How far `packing` (of the pieces still to place) follows the moves: the longest run
    it proves has a completion (its pieces of a type are interchangeable)."""
    rest = list(packing or ())
    run = 0
    for t, corner in zip(types, moves):
        if (t, corner) not in rest:
            break
        rest.remove((t, corner))
        run += 1
    return run


def _around(packing: list[tuple[int, int]] | None, t: int, corner: int) -> list[tuple[int, int]] | None:
    """A packing with a type-t piece at `corner`, less that piece: the packing of the rest
    around it (None when there is none)."""
    if packing is None:
        return None
    rest = list(packing)
    rest.remove((t, corner))
    return rest


def _first_open_corner(board: Side, t: int, rest: list[int], occupied: frozenset[int], min_corner: list[int],
                       start: int) -> int:
    """The smallest corner >= start where a type-t piece fits and whose question (the rest
    around it) is not refuted already: the piece's answer when that question has a packing."""
    for corner in range(start, board.side * board.side):
        cells = board.placement(t, corner)
        if cells is None or not occupied.isdisjoint(cells):
            continue
        after = list(min_corner)
        after[t] = corner + 1
        if not board.refuted.holds(rest, occupied | cells, after):
            return corner
    raise AssertionError("a completion exists, so some corner has one")


def _smallest_corner(board: Side, t: int, counts: list[int], occupied: frozenset[int],
                     min_corner: list[int], start: int) -> tuple[int, list[tuple[int, int]] | None]:
    """The smallest corner >= start of a type-t piece from which the rest (counts, this
    piece included) can still be packed, and a packing of the rest around it when the
    helper that said so found one.  A corner exists: the earlier pieces were placed so.

    While the DP has never given up at this side, it answers the piece (`Side.corner_from`).
    Otherwise corners in turn, each asked of the C core on a small budget; the first it
    cannot settle hands the whole piece to the DP (when it is not waiting to be retried),
    or that corner and the next to `side_questions.CORNER_STAGES` (or, without python-sat,
    the portfolio); once PIECE_RETRY_AFTER of them are refuted, the whole piece is asked
    of the DP again, from the next corner, on PIECE_RETRY_BUDGET states, and, while that
    gives up, again once the corners since have cost as much, on PIECE_RETRY_GROWTH times
    the budget.  A packing
    known around the pieces placed (the board's witness) ends the corners at its type-t
    piece's, which it proves has a completion: only the corners before need asking.  The
    first corner still open (`_first_open_corner`) is the answer when the witness has the
    piece there or the beam finds a packing around it, and the corners asked in turn start
    there.
    """
    rest = list(counts)
    rest[t] -= 1
    known = board.witness_corner(t, start)
    first = _first_open_corner(board, t, rest, occupied, min_corner, start)
    if first == known:
        return first, None  # the witness has the piece at the first corner still open
    cells = board.placement(t, first)
    assert cells is not None
    if FIRST_CORNER_BEAM and board.packable_by("beam", FIRST_CORNER_BEAM, rest, occupied | cells):
        return first, board.found
    if board.dp_gave_up_at is None:
        found = board.smallest_corner_by_dp(t, counts, occupied, min_corner, first, known)
        if found is not False:
            assert found is not None and found >= first, "the corners before the first open one have no completion"
            return found, _around(board.found, t, found)
    refuted_one_by_one = 0
    # The piece's whole question asked again (None: no more): first after PIECE_RETRY_AFTER
    # corners refuted one by one, from the corner after them, then whenever the corners since
    # have cost as much as the retry before (estimated: `Side.corner_seconds`).
    retry_budget: int | None = PIECE_RETRY_BUDGET
    retry_from: int | None = None
    retry_seconds = corner_seconds_then = 0.0
    for corner in range(first, board.side * board.side):
        if corner == known:
            return corner, None  # the witness has the piece there: placing it keeps the rest
        cells = board.placement(t, corner)
        if cells is None or not occupied.isdisjoint(cells):
            continue
        taken = occupied | cells
        after = list(min_corner)
        after[t] = corner + 1
        if board.refuted.holds(rest, taken, after):
            continue  # e.g. the run of one this corner is, refuted by `_place_plain_moves`
        answer = board.packable_by("c", CORNER_C_BUDGET, rest, taken) if CORNER_C_BUDGET else None
        if answer is None:
            found = board.smallest_corner_by_dp(t, counts, occupied, min_corner, corner, known)
            if found is not False:
                assert found is not None and found >= corner, "the corners before have no completion"
                return found, _around(board.found, t, found)
            answer = board.packable_at(t, corner, rest, taken, min_corner)
            refuted_one_by_one += not answer
            if not answer and retry_budget is not None and (
                    refuted_one_by_one == PIECE_RETRY_AFTER if retry_from is None
                    else board.corner_seconds - corner_seconds_then >= retry_seconds):
                if retry_from is None:
                    retry_from = corner + 1  # the later retries ask the same question, and resume its scans
                found = board.corner_from(t, counts, occupied, min_corner, retry_from, retry_budget, known,
                                          RETRY_WINDOW_GROWTH)
                if found is not False:
                    assert found is not None and found > corner, "a completion exists after the corners refuted"
                    return found, _around(board.found, t, found)
                retry_seconds, corner_seconds_then = board.work * SECONDS_PER_UNIT["dp"], board.corner_seconds
                retry_budget = retry_budget * PIECE_RETRY_GROWTH if retry_budget < PIECE_RETRY_MAX else None
        if answer:
            return corner, board.found
    raise AssertionError("a completion exists, so some corner has one")
