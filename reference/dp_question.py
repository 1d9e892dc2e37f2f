"""One question to the profile DP (`reference._profile`) at one side, and its scans.

A question (the pieces still to place, the cells taken, min_corner, a target type, a last
corner) is scanned in one orientation or more (`ProfileSide._orientations`): along the rows
or the columns of the square, or, when it is order-free, of the square turned
(`reference.quarter_turns`).  Its scans are kept between budgets, so that a question asked
again resumes where it stopped.
"""
from __future__ import annotations

from typing import Protocol

from reference import _profile
from reference.quarter_turns import QuarterTurn


class Square(Protocol):
    """What a question's scans need of their side (`reference.profile_side.ProfileSide`)."""

    side: int
    turns: list[QuarterTurn]
    turned_cells: list[list[tuple[tuple[int, int], ...]]]
    turned_weights: list[_profile.Weights | None]

    def lines_of(self, orientation: Orientation) -> _profile.Lines: ...


DpKey = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], int, int]
# Where a scan runs: the square turned `quarters` times (`reference.quarter_turns`), along its
# rows (direction 0) or its columns (1).
Orientation = tuple[int, int]


class DpQuestion:
    """One DP question (counts, occupied cells, min_corner, target, last_corner) and its
    scans, one per orientation, made when first asked for.  A question without a target
    (nor last_corner) is `order_free`: its scans on a turned square drop min_corner (a
    relaxation: their "no" refutes it; their "yes" is a packing of the pieces, as the C
    core's and the beam's are); `challenger`: the orientation its race tries beside the
    side's preferred one (`ProfileSide._orientations`)."""

    def __init__(self, side: Square, key: DpKey, challenger: Orientation = (0, 0)) -> None:
        self.side = side
        self.key = key
        self.order_free = key[3] < 0 and key[4] < 0
        self.challenger = challenger
        self.scans: dict[Orientation, _profile.Scan] = {}
        self.answered: Orientation | None = None  # the scan that answered

    def scan(self, orientation: Orientation) -> _profile.Scan:
        scan = self.scans.get(orientation)
        if scan is None:
            counts, occupied, min_corner, target, last_corner = self.key
            board = self.side
            quarters, direction = orientation
            assert self.order_free or not quarters, "only an order-free question turns the square"
            scan = _profile.Scan(board.turned_cells[quarters], counts, board.side,
                                 board.turns[quarters].cells(occupied), [0] * len(counts) if quarters else min_corner,
                                 target, board.turned_weights[quarters], board.lines_of(orientation), direction,
                                 last_corner)
            self.scans[orientation] = scan
        return scan

    def packing(self) -> list[tuple[int, int]] | None:
        """The packing the scan that answered traced back, on the square itself."""
        if self.answered is None:
            return None
        packing = self.scan(self.answered).packing
        if packing is None:
            return None
        quarters = self.answered[0]
        turn, cells = self.side.turns[quarters], self.side.turned_cells[quarters]
        return [(t, turn.corner_back(cells[t], corner)) for t, corner in packing]

    def work(self) -> int:
        """The states its scans have taken from their layers so far."""
        return sum(scan.work for scan in self.scans.values())
