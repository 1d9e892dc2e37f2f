"""The plain search's own first moves at a side that has a packing, settled a run at a time
(`place_plain_moves`), and the pieces placed so far (`Partial`), for `reference.staged`.

Each next piece at its smallest corner that fits is its answer as soon as the run of moves
up to it is known to have a completion: one question settles a run and, when the DP is
asked for the next piece's corner over the run's completions, the piece after it.  The
helpers share a run's question (`RUN_STAGES`); a packing one of them finds confirms every
run it follows the moves for.
"""
from __future__ import annotations

from dataclasses import dataclass

from reference.portfolio import Portfolio, balanced, capped
from reference.side_questions import Side

# Budgets: see `reference.portfolio.Portfolio`.
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
# A run of one is the question of its piece's first open corner, which `corners.smallest_corner`
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


@dataclass(frozen=True)
class RunAnswer:
    """A run's question settled: has it a completion; the packing of its completion a helper
    found (the C core, the beam, the DP traced one back), and the next piece's smallest
    corner over the completions, when the DP was asked for it."""
    packable: bool
    packing: list[tuple[int, int]] | None = None
    next_corner: int | None = None


class Partial:
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
        # The plain moves (from the first piece) of the last `place_plain_moves` that placed
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


def _plain_moves(board: Side, partial: Partial) -> list[int]:
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


def place_plain_moves(board: Side, partial: Partial) -> bool:
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
