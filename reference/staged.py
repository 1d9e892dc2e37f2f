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
   start from; the DP's "no" ends the side, and its "yes" places the first piece (it is
   asked for that piece's smallest corner over all packings).  (So do the packings of the
   runs' and the pieces' questions: each packing the DP answers with comes with one, while its layers
   stay under `_profile.ARCHIVE_MAX` states.  eeeabefesajefefaeeeaesf, whose side 10 the
   DP answered "yes" and no helper found a packing of, asked runs and corners without
   one: 4.0 -> 2.2 s; the 104 restricted files' work estimate 125.8 -> 118.8 s;
   docs/BENCHMARKS.md, "Twenty-fourth pass".)
   Then the plain search's own first moves (`runs.place_plain_moves`): each next piece at its
   smallest corner that fits, as the seed places them before it backtracks.  A run of
   them is each piece's answer as soon as it is known to have a completion (the corners
   before do not even fit), so one question to the profile DP (`reference._profile`:
   every partial packing's frontier, row by row or column by column, exact) settles the
   longest such run and the next piece at once: the smallest corner of that piece over
   the run's completions, None when there are none.  With the run's pieces fixed the DP
   is cheap, and a run too long fails in its first layers; this settles the side and
   most pieces on the files from a few shapes, whose first piece alone takes the DP
   seconds.  The DP and the C core share a run's question (`runs.RUN_STAGES`, `balanced`):
   the C core's packing of a run confirms it and every run it follows the moves for,
   and so does the beam's (`_profile.beam`: the DP's layers cut to their least costly
   states, which finds the packings of the T and L/J files' runs in milliseconds, where
   the exact DP outgrows its budget and the C core needs a million nodes); when none
   settles it at its first budget, the question's own packing LP
   (`Side.lp_refutes`) may prove it has no completion, which it does in milliseconds
   on the S/Z files, whose fixed pieces waste cells the LP sees.  (A run of one, its
   piece's first open corner, is asked the next piece's corner on a small budget only:
   `runs.RUN_OF_ONE_NEXT_MAX`.)
   The DP is asked both for the next piece's corner and, which refutes a run with fewer
   states, whether the run has any completion at all.  The beam first looks for a
   packing of all the pieces still to place (`runs.RUN_BEAM`); runs are asked longest first
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
   until a piece is placed.  Then the side's own DP question of step 2 gets one more turn
   (`SIDE_DP_LAST`), its scan resumed.
   Then the C core's own ordered search (one memo for all its queries) gets a budget,
   and when that is not enough, the side's yes/no is shared (`SIDE_STAGES`) by the
   C core's order-free search (`_fastsolve.Packer`, one per side, whose memo of failed
   states serves every later question), the beam, CaDiCaL (`reference.sat_side`, one
   incremental instance kept for step 4) and the side's DP question, resumed on larger
   layers (`SIDE_DP_LATER_MAX`), which take turns on
   growing budgets, the one that has spent least going next (`portfolio.balanced`).
   "No" means the side is impossible.
4. "Yes": the seed's first solution, piece by piece (`_first_solution`): runs of plain
   moves as in step 2 where one is confirmed, else the next piece at the smallest corner
   from which the rest can still be packed.  That greedy order needs no
   backtracking, because every corner it keeps provably has a completion, and it is the
   seed's first solution because the seed's backtracking returns, piece after piece, the
   smallest corner that has one.  The first corner still open (it fits, and its
   question is not refuted) is that piece's answer when it has a completion: the
   witness's corner, or a packing the beam finds around it (`corners.FIRST_CORNER_BEAM`).
   Otherwise the DP returns the smallest corner over all completions (window by window
   along the rows); when it cannot afford the side, the corners in turn are shared by the
   DP with the corner fixed, its beam and the corner's packing LP
   (`side_questions.CORNER_STAGES`), then, past their caps, by the SAT
   solver and the C core (`CORNER_LAST`: assumptions on the same SAT instance and the same
   Packer, so what each learned serves every question), or without python-sat by the C
   core and CP-SAT (`side_questions.QUERY_STAGES`).  The helpers' work is weighed per side
   by what answered the costly questions before (`Side.distrust`): the questions of one
   file tend to suit the same helper.
"""
from __future__ import annotations

from collections.abc import Sequence

from reference import _fastsolve, corners, runs
from reference.lp_bound import lp_certificate
from reference.portfolio import Portfolio
from reference.runs import Partial
from reference.shapes import Shape
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
# Place runs of the plain search's first moves with one question each
# (`runs.place_plain_moves`); tests turn it off to exercise the other helpers.
PLAIN_MOVES = True
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
# restricted files 89.0 s both ways; docs/BENCHMARKS.md, "Twenty-first pass").  (Without
# that turn, now that the DP's "yes" brings a packing, the 115 restricted files 167.1 ->
# 163.4 s, but the climbs' hoboobmbammaommhhmammaam 5.8 -> 10.8 s, whose side's packing it
# finds at 1 s, and bbhjoamhamhaoammmhammhaj 13.4 -> 15.2 s; "Twenty-sixth pass".)
# Its beams turn the square after a miss (`Side._beam`, `_profile`'s orientation): the sides
# of homorammamhhoahmhhammaar and hoaroamhamhhrbmhhmjmmaaa, whose packings the square's beams
# of 16 000 states do not find (nor, for hoaro..., those of 64 000), the second beam finds at
# 16 000 on the square turned a quarter (hoaroamhamhhrbmhhmjmmaaa 36.5 -> 12.4 s;
# "Twenty-seventh pass").
# The DP's question is the first piece's smallest corner (the target), whose "yes" places
# that piece too, for about a tenth more states (`dominated` compares the corners too:
# hqoooaohmmhaohmqhmammamm's side 10, 4.24 -> 4.77 M; the 115 restricted files 166.5 ->
# 161.5 s, the DP's work 411.4 -> 403.2 M; "Twenty-sixth pass").  When the runs placed
# nothing and the first piece's windows gave up, its scan resumes up to SIDE_DP_MAX states
# (SIDE_DP_LAST, `_side_by_dp`), before the C core's ordered search and the side's later
# helpers: fdakkokfffkkffkfgafokof's side 10 has no packing, which CaDiCaL took 14.6 s to
# prove beside 3.8 s of the C core and 3.1 s of the beam, and that turn proves in 0.5 s
# (the file 21.8 -> 2.6 s; "Twenty-third pass", when it came last among those helpers);
# before them, it spares hqoooaqhmmhaohmqhmammamm's side 10, which has none, their 2 s
# (4.60 -> 3.25 s).  In SIDE_FIRST, before the runs, it cost the sides whose packing the
# runs find at once a scan for nothing (hbhjoamhamhaoammmhammhaj: 5.7 s for a "yes" the
# runs give in 0.5 s; 8.09 -> 1.66 s, the restricted files 144.6 -> 146.9 s, within their
# noise; "Twenty-sixth pass").
SIDE_DP_MAX = 640_000
SIDE_FIRST: Portfolio = (("c", 80_000, 80_000), ("beam", 4_000, 16_000), ("dp", 10_000, 160_000))
SIDE_DP_LAST: Portfolio = (("dp", SIDE_DP_MAX, SIDE_DP_MAX),)
# The side's yes/no when that, the DP's questions and the ordered C search could not
# settle it: the C core, the beam and the SAT solver (asked about the empty square only),
# as for corners, and the side's DP question (below).  (CP-SAT, between them before,
# answered no side first on RESTRICTED_SLOWEST.  The DP among them, up to
# DP_CORNER_LAST_MAX states, answered a side that has a packing, rrhooambamhaoamhhmammaha's
# side 10, after 11.6 s of scans, where CaDiCaL alone takes 4 s: the file 19.9 -> 30.8 s;
# docs/BENCHMARKS.md, "Eighteenth pass".)
# The beam goes on up to SIDE_BEAM_MAX states a layer, past a corner's cap: the sides of 24
# pieces in 100 cells whose packing CaDiCaL took 40 s to find (homorammamhhoahmhhammaar),
# a 256 000-state beam along the columns found in 1.3 s (300 MB at most resident, its
# layers kept to trace the packing back); the file 42.4 -> 10.6 s.  Since the beam also
# keeps the pieces in proportion (_profile.c, beam_imbalance), 64 000 states find it.
# (The DP's turn among them, resuming SIDE_FIRST's scan up to 640 000 states, now comes
# before them: SIDE_DP_LAST.)  The side's DP question then goes on among them, its scan
# resumed from SIDE_DP_MAX up to SIDE_DP_LATER_MAX states a layer (about 100 MB a layer):
# hehhobmhahhaoamhhmammaab's side 10 has no packing, which neither the C core (82 M nodes),
# CaDiCaL (307 200 conflicts) nor the beam had refuted after 150 s, and which the DP refutes
# within 2 560 000 states a layer in 2-8 s; the file over 150 s -> 9.1 s, the 133 restricted
# files 182.4 -> 183.6 s, within their noise (docs/BENCHMARKS.md, "Twenty-eighth pass").
SIDE_BEAM_MAX = 256_000
SIDE_DP_LATER_MAX = 2_560_000
SIDE_STAGES: Portfolio = (("c", 20_000, 0), ("beam", 1_000, SIDE_BEAM_MAX), ("sat", 300, 0),
                          ("dp", SIDE_DP_MAX, SIDE_DP_LATER_MAX))


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
    partial = Partial(list(piece_types), counts)
    first = piece_types[0]
    packable = board.packable_within(counts, frozenset(), SIDE_FIRST, first) if SIDE_FIRST else None
    if packable is False:
        return None
    if packable:
        _known_yes(board, partial, first)
    if not (PLAIN_MOVES and runs.place_plain_moves(board, partial) or packable):
        settled = _side_by_dp(board, partial, first, counts)
        if settled is False:
            return None
        if settled is None:
            # The DP cannot afford this side: the C core's ordered search, whose memo serves
            # all its queries, answers first when it can (a packing, or a proof there is none).
            positions = _fastsolve.solve_at_side(cells, list(piece_types), side, ORDERED_C_BUDGET, board.weights)
            if positions is not False:
                return positions
            if not board.packable(counts, frozenset(), SIDE_STAGES, first):
                return None
            _known_yes(board, partial, first)
    _first_solution(board, partial)
    return tuple(divmod(anchor, side) for anchor in partial.anchors)


def _side_by_dp(board: Side, partial: Partial, first: int, counts: list[int]) -> bool | None:
    """The side's yes/no from the DP when no run was placed: True when it has a packing (the
    first piece placed, or the witness kept), False when it has none, None when the DP
    cannot afford it.  First the first piece's smallest corner over all packings
    (`Side.smallest_corner_by_dp`: along the rows, a window of corners at a time), then the
    side's own question, its scan resumed up to SIDE_DP_MAX states.  (When the side's yes is
    known, the first piece is `_first_solution`'s, as every piece after it: below the
    witness's corner, the first open corner's beam and the C core come before the DP, and
    the DP asks only the corners before the witness's.  The 97 restricted files' DP work
    220.9 -> 216.3 M; docs/BENCHMARKS.md, "Twenty-third pass".)"""
    dp_says = board.smallest_corner_by_dp(first, counts, frozenset(), [0] * len(counts), 0)
    if dp_says is None:
        return False
    if dp_says is not False:
        partial.place(board, first, dp_says)
        return True
    packable = board.packable_within(counts, frozenset(), SIDE_DP_LAST, first)
    if packable:
        _known_yes(board, partial, first)
    return packable


def _known_yes(board: Side, partial: Partial, first: int) -> None:
    """The side has a packing, just found by a helper of the side's own question: its packing
    is the witness, and when the DP answered, the first piece's smallest corner over all
    packings came with it (`Side.found_corner`): the first piece is placed there."""
    corner = board.found_corner
    if corner is None:
        board.witness = board.found
    else:
        partial.place(board, first, corner, corners.around(board.found, first, corner))


def _first_solution(board: Side, partial: Partial) -> None:
    """The seed's first solution at a side that has a packing, placed piece by piece from
    `partial` on: each piece at the smallest corner from which the rest can still be packed
    (`runs.place_plain_moves` places several at once where it can)."""
    while len(partial.anchors) < len(partial.piece_types):
        if PLAIN_MOVES and not partial.follows_futile_moves():
            if runs.place_plain_moves(board, partial):
                continue
        t = partial.next_type()
        corner, witness = corners.smallest_corner(board, t, partial.counts, partial.occupied, partial.min_corner,
                                                  partial.min_corner[t])
        partial.place(board, t, corner, witness)
