"""A piece's answer at a side that has a packing: the smallest corner from which the rest can
still be packed (`smallest_corner`), for `reference.staged`.

The first corner still open is the answer when it has a completion (the witness's corner,
or a packing the beam finds around it); otherwise the DP answers the piece over all its
corners, a window at a time (`Side.corner_from`), or, when it cannot afford that, the
corners are asked one by one (`Side.packable_at`) while the whole question is asked again on
growing budgets, the two taking turns by what they cost.
"""
from __future__ import annotations

from reference.portfolio import SECONDS_PER_UNIT
from reference.side_questions import Side

# Budgets: see `reference.portfolio.Portfolio`.
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
# cost, 118.4 s at half.)  Along the rows only the first retry is asked: its windows of
# corners cost about what the corners one by one do, and asked again they scanned the
# windows of the corners refuted before (eeebsefcscsefeaafeesesq's fourth piece, 1.7 s of
# windows where the corners alone took 1 s: 3.9 -> 2.7 s; the 111 restricted files 123.9
# -> 121.2 s, DP 357.1 -> 348.9 M; docs/BENCHMARKS.md, "Twenty-fourth pass").
PIECE_RETRY_GROWTH = 4
# No retry past 320 000 states: a budget four times larger can cost the scan ten times
# more, whatever the corners cost before it (eohmoahhamhabamhhmambaaa's first piece: its
# retry at 1 280 000 states answered after 13.5 s, where the corners one by one answer in
# 4 s; the file 23.5 -> 8.5 s, as before the pass; no restricted file's piece came this far
# with up to 2 560 000; docs/BENCHMARKS.md, "Twenty-fourth pass").
PIECE_RETRY_MAX = 320_000
# The retry's windows of corners (`Side.corner_from`) each twice as wide as the one before:
# its answer can lie far on (freffeissaoeaeaaeeeaesf's second piece: 60 corners on, 16
# windows of 4 at 0.05-0.44 s each; the file 5.01 -> 2.03 s, the 97 restricted files' DP
# work 219.1 -> 219.8 M; doubling the first question's windows too, 223.5 M;
# docs/BENCHMARKS.md, "Twenty-third pass").
RETRY_WINDOW_GROWTH = 2
# The first corner still open is the piece's answer when it has a completion, which the
# beam finds in milliseconds where it exists, so it is asked first (0: skip).  (At 1 000
# states rather than 250, the 97 restricted files' beam work 72.8 -> 83.2 M states for 2.8 M
# fewer DP states and values; docs/BENCHMARKS.md, "Twenty-third pass".)
FIRST_CORNER_BEAM = 250


def around(packing: list[tuple[int, int]] | None, t: int, corner: int) -> list[tuple[int, int]] | None:
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


def smallest_corner(board: Side, t: int, counts: list[int], occupied: frozenset[int],
                     min_corner: list[int], start: int) -> tuple[int, list[tuple[int, int]] | None]:
    """The smallest corner >= start of a type-t piece from which the rest (counts, this
    piece included) can still be packed, and a packing of the rest around it when the
    helper that said so found one.  A corner exists: the earlier pieces were placed so.

    While the DP has never given up at this side, it answers the piece (`Side.corner_from`).
    Otherwise corners in turn: the first hands the whole piece to the DP (when it is not
    waiting to be retried), else each goes to `Side.packable_at` (its portfolio,
    `side_questions.CORNER_STAGES`); once PIECE_RETRY_AFTER of them are refuted, the whole
    piece is asked of the DP again, from the next corner, on PIECE_RETRY_BUDGET states,
    and, while that gives up and the DP scans along the columns, again once the corners
    since have cost as much, on PIECE_RETRY_GROWTH times the budget.  (The C core on a
    small budget went first at each corner and settled few: kjleoboeljoojojlojojeoqool's
    sixth piece, 50 corners the DP refutes in 0.01 s each after the C core had spent as
    much; the 112 restricted files 113.6 -> 110.0 s without it; docs/BENCHMARKS.md,
    "Twenty-fifth pass".)  A packing known around the pieces placed (the board's witness)
    ends the corners at its type-t piece's, which it proves has a completion: only the
    corners before need asking.  The first corner still open (`_first_open_corner`) is the
    answer when the witness has the piece there or the beam finds a packing around it, and
    the corners asked in turn start there.  The DP's answers come with the packing it traced
    back, less the piece (`around`).
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
            return found, around(board.found, t, found)
    refuted_one_by_one = 0
    # The piece's whole question asked again (None: no more): first after PIECE_RETRY_AFTER
    # corners refuted one by one, from the corner after them, then, while the DP scans along
    # the columns, whenever the corners since have cost as much as the retry before
    # (estimated: `Side.corner_seconds`).
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
            continue  # e.g. the run of one this corner is, refuted by `runs.place_plain_moves`
        found = board.smallest_corner_by_dp(t, counts, occupied, min_corner, corner, known)
        if found is not False:
            assert found is not None and found >= corner, "the corners before have no completion"
            return found, around(board.found, t, found)
        if board.packable_at(t, corner, rest, taken, min_corner):
            return corner, board.found
        refuted_one_by_one += 1
        if retry_budget is not None and (
                refuted_one_by_one == PIECE_RETRY_AFTER if retry_from is None
                else not board.rows_from_the_top and board.corner_seconds - corner_seconds_then >= retry_seconds):
            if retry_from is None:
                retry_from = corner + 1  # the later retries ask the same question, and resume its scans
            found = board.corner_from(t, counts, occupied, min_corner, retry_from, retry_budget, known,
                                      RETRY_WINDOW_GROWTH)
            if found is not False:
                assert found is not None and found > corner, "a completion exists after the corners refuted"
                return found, around(board.found, t, found)
            retry_seconds, corner_seconds_then = board.work * SECONDS_PER_UNIT["dp"], board.corner_seconds
            retry_budget = retry_budget * PIECE_RETRY_GROWTH if retry_budget < PIECE_RETRY_MAX else None
    raise AssertionError("a completion exists, so some corner has one")
