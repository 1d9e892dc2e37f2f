"""One side of the square, settled by the C core with help when it runs out of budget.

The C core (`_fastsolve.solve_at_side`) decides nearly every side within a small node
budget.  Files drawn from a few shapes are the exception: their squares have many spare
cells, every empty cell is a branch, and some proofs take it minutes.  Then the side is
settled in three steps, each of which keeps the answer the seed's first solution:

1. The packing LP's dual certificate (`reference.lp_bound`): when it proves that the
   pieces cannot all fit, the side is impossible.  Otherwise it still goes to every later
   C search as a bound checked at each node.
2. The order-free question "does any packing exist at this side?", asked of a portfolio
   (`SIDE_STAGES`): CP-SAT and the C order-free search in turn, each with a budget that
   grows, the last C search without one.  Both are exact; "no" means the side is
   impossible.
3. "Yes": the C core's ordered search on a larger budget, then, if that is not enough,
   the ordered search of `_ordered`: pieces in file order at row-major corners, as
   the seed does it; a corner is kept when the rest can still be packed, which is the
   order-free question again, asked of the same kind of portfolio (`QUERY_STAGES`).  So
   every corner the seed's backtracking would reach a solution from is tried in its order,
   and every corner skipped provably leads to none.
"""
from __future__ import annotations

from collections.abc import Sequence

from reference import _fastsolve, oracle
from reference.lp_bound import Certificate, lp_certificate
from reference.shapes import Shape

Corner = tuple[int, int]
Stages = tuple[tuple[str, float], ...]

# ("c", order-free node budget, 0 = none) or ("cp-sat", seconds), tried in turn until one
# answers.  The C core does about 1.5e6 nodes per second here.
FIRST_C_BUDGET = 150_000  # decides every side of the 430 files of hard_corpus seeds 0-9
# Once a packing is known to exist: the C core's own ordered search, whose memo serves all
# its queries, gets this budget before the queries are asked one by one (`_ordered`).
ORDERED_C_BUDGET = 3_000_000
SIDE_STAGES: Stages = (("cp-sat", 1.0), ("c", 2_000_000), ("cp-sat", 8.0), ("c", 0))
QUERY_STAGES: Stages = (("c", 50_000), ("cp-sat", 0.5), ("c", 1_000_000), ("cp-sat", 4.0), ("c", 0))


class _Side:
    """The order-free question at one side, asked of the C core and CP-SAT in turn."""

    def __init__(self, types: Sequence[Shape], side: int, certificate: Certificate | None) -> None:
        self.types = list(types)
        self.cells = [t.cells for t in types]
        self.side = side
        self.weights = certificate.as_c_weights() if certificate is not None else None

    def packable(self, counts: list[int], occupied: frozenset[int], stages: Stages) -> bool:
        for helper, amount in stages:
            if helper == "c":
                answer = _fastsolve.packable(self.cells, counts, self.side, sorted(occupied), int(amount),
                                             self.weights)
            else:
                answer = oracle.packable(self.types, counts, self.side, amount, occupied)
            if answer is not None:
                return bool(answer)
        raise AssertionError("the stages must end with an unbounded C search")


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
    board = _Side(types, side, certificate)
    if not board.packable(counts, frozenset(), SIDE_STAGES):
        return None
    positions = _fastsolve.solve_at_side(cells, list(piece_types), side, ORDERED_C_BUDGET, board.weights)
    if positions is not False:
        assert positions is not None, "a packing exists"
        return positions
    anchors: list[int] = []
    found = _ordered(board, list(piece_types), counts, frozenset(), anchors)
    assert found, "a packing exists, so the ordered search reaches one"
    return tuple(divmod(anchor, side) for anchor in anchors)


def _ordered(board: _Side, piece_types: list[int], counts: list[int], occupied: frozenset[int],
             anchors: list[int]) -> bool:
    """Place piece len(anchors) and the next ones at their first corners (the seed's order).

    A piece identical to an earlier one goes strictly after it: swapping identical pieces
    maps packings to packings, and the upper-left-first one has them in increasing order.
    """
    index = len(anchors)
    if index == len(piece_types):
        return True
    t, side = piece_types[index], board.side
    shape = board.types[t]
    earlier = [anchors[j] for j in range(index) if piece_types[j] == t]
    for corner in range(earlier[-1] + 1 if earlier else 0, side * side):
        row, col = divmod(corner, side)
        if row + shape.height > side:
            break
        cells = frozenset((row + r) * side + col + c for r, c in shape.cells)
        if col + shape.width > side or not occupied.isdisjoint(cells):
            continue
        counts[t] -= 1
        taken = occupied | cells
        if board.packable(counts, taken, QUERY_STAGES):
            anchors.append(corner)
            if _ordered(board, piece_types, counts, taken, anchors):
                counts[t] += 1
                return True
            anchors.pop()
        counts[t] += 1
    return False
