"""Constraint propagation: apply the rules to candidate sets until nothing changes.

Each cell holds the digits it may still take, as a bit mask (bit d: digit d). The rules:

* a house (row, column, box) holds each digit once: a digit fixed in a cell leaves the
  house's other cells, and a digit with one place left in the house goes there;
* a group (a cage, or a set of one house the rule of 45 finds) holds distinct digits
  adding up to its sum: of its digit sets, only those containing its fixed digits and
  fitting its cells remain; its cells keep only digits of those sets, and a digit every
  remaining set needs, with one place left in the group, goes there;
* locked digits: a digit a house or group must hold, whose places there all lie in
  another house or group, leaves that other one's remaining cells;
* a sum (a set across houses the rule of 45 finds) keeps, in each cell, the digits that
  the other cells' smallest and largest candidates leave possible.

A rule is looked at again only when one of its cells changed (a work list), which is what
keeps a search node cheap in Python.
"""
from __future__ import annotations

from exercises.killer_sudoku.puzzle import ALL_DIGITS, CELL_COUNT, HOUSES
from exercises.killer_sudoku.rules import Rules

Candidates = list[int]
_HOUSE, _GROUP, _SUM = 0, 1, 2
# Per unit (a house or a group) another unit it overlaps: (this unit's cells outside that
# one, that unit's cells outside this one).
_Overlap = tuple[tuple[int, ...], tuple[int, ...]]


class Propagator:
    """The rules of one puzzle, indexed for propagation."""

    def __init__(self, rules: Rules) -> None:
        self.kinds: list[int] = []
        self.cells: list[tuple[int, ...]] = []
        self.combos: list[tuple[int, ...]] = []  # a group's digit sets (empty for the others)
        self.totals: list[int] = []  # a sum's total (0 for the others)
        for house in HOUSES:
            self._add(_HOUSE, house, (), 0)
        for cells, combos in rules.groups:
            self._add(_GROUP, cells, combos, 0)
        for cells, total in rules.sums:
            self._add(_SUM, cells, (), total)
        watching: list[list[int]] = [[] for _ in range(CELL_COUNT)]
        for unit, cells in enumerate(self.cells):
            for cell in cells:
                watching[cell].append(unit)
        self.watchers = [tuple(units) for units in watching]
        self.overlaps: list[tuple[_Overlap, ...]] = [self._overlaps(u) for u in range(len(self.cells))]

    def _add(self, kind: int, cells: tuple[int, ...], combos: tuple[int, ...], total: int) -> None:
        self.kinds.append(kind)
        self.cells.append(cells)
        self.combos.append(combos)
        self.totals.append(total)

    def _overlaps(self, unit: int) -> tuple[_Overlap, ...]:
        if self.kinds[unit] == _SUM:
            return ()
        mine = self.cells[unit]
        found = []
        for other in sorted({u for cell in mine for u in self.watchers[cell]} - {unit}):
            if self.kinds[other] == _SUM:
                continue
            cells = self.cells[other]
            beyond = tuple(cell for cell in cells if cell not in mine)
            if beyond:
                found.append((tuple(cell for cell in mine if cell not in cells), beyond))
        return tuple(found)

    def propagate(self, candidates: Candidates, changed: tuple[int, ...] | None = None) -> bool:
        """Apply the rules to `candidates` (in place) until nothing changes, starting from
        the rules of the `changed` cells (all of them when None). False at a
        contradiction: a cell with no candidate, a digit with no place, a group with no
        digit set left, a sum out of reach."""
        if changed is None:
            pending = set(range(len(self.cells)))
        else:
            pending = {unit for cell in changed for unit in self.watchers[cell]}
        while pending:
            unit = pending.pop()
            kind = self.kinds[unit]
            if kind == _HOUSE:
                narrowed = _house(candidates, self.cells[unit])
                if narrowed is not None:
                    narrowed = self._locked(candidates, unit, ALL_DIGITS, narrowed)
            elif kind == _GROUP:
                narrowed, required = _group(candidates, self.cells[unit], self.combos[unit])
                if narrowed is not None:
                    narrowed = self._locked(candidates, unit, required, narrowed)
            else:
                narrowed = _sum(candidates, self.cells[unit], self.totals[unit])
            if narrowed is None:
                return False
            for cell in narrowed:
                pending.update(self.watchers[cell])
        return True

    def _locked(self, candidates: Candidates, unit: int, required: int, narrowed: list[int]) -> list[int] | None:
        """Locked digits of `unit`: each digit it must hold that none of its cells outside
        an overlapping unit may take leaves that unit's other cells."""
        for apart, beyond in self.overlaps[unit]:
            elsewhere = 0
            for cell in apart:
                elsewhere |= candidates[cell]
            locked = required & ~elsewhere
            if locked:
                for cell in beyond:
                    mask = candidates[cell]
                    if mask & locked:
                        mask &= ~locked
                        if mask == 0:
                            return None
                        candidates[cell] = mask
                        narrowed.append(cell)
        return narrowed


def _house(candidates: Candidates, cells: tuple[int, ...]) -> list[int] | None:
    """The cells it narrowed, or None at a contradiction."""
    fixed = once = twice = 0
    for cell in cells:
        mask = candidates[cell]
        if mask & (mask - 1) == 0:
            if mask == 0 or mask & fixed:
                return None
            fixed |= mask
        twice |= once & mask
        once |= mask
    if once != ALL_DIGITS:
        return None  # a digit has no place left
    only_place = once & ~twice & ~fixed
    narrowed = []
    for cell in cells:
        mask = candidates[cell]
        if mask & (mask - 1):
            new = mask & ~fixed
            hidden = new & only_place
            if hidden:
                if hidden & (hidden - 1):
                    return None  # the only place of two digits
                new = hidden
            if new != mask:
                if new == 0:
                    return None
                candidates[cell] = new
                narrowed.append(cell)
    return narrowed


def _group(candidates: Candidates, cells: tuple[int, ...], combos: tuple[int, ...]) -> tuple[list[int] | None, int]:
    """The cells it narrowed (None at a contradiction), and the digits every remaining
    digit set holds."""
    fixed = 0
    for cell in cells:
        mask = candidates[cell]
        if mask & (mask - 1) == 0:
            if mask & fixed:
                return None, 0  # a digit twice in the group
            fixed |= mask
    allowed, required = 0, ALL_DIGITS
    for combo in combos:
        if combo & fixed != fixed:
            continue
        covered = 0
        for cell in cells:
            fits = candidates[cell] & combo
            if not fits:
                break
            covered |= fits
        else:
            if covered == combo:  # every digit of the set has a cell that may take it
                allowed |= combo
                required &= combo
    if not allowed:
        return None, 0
    narrowed = []
    once = twice = 0
    for cell in cells:
        mask = candidates[cell]
        if mask & (mask - 1):
            new = mask & allowed & ~fixed
            if new != mask:
                if new == 0:
                    return None, 0
                candidates[cell] = new
                narrowed.append(cell)
            twice |= once & new
            once |= new
    needed = required & ~fixed
    if needed & ~once:
        return None, 0
    only_place = needed & ~twice
    if only_place:
        for cell in cells:
            mask = candidates[cell]
            hidden = mask & only_place
            if hidden and mask & (mask - 1):
                if hidden & (hidden - 1):
                    return None, 0
                candidates[cell] = hidden
                narrowed.append(cell)
    return narrowed, required


def _sum(candidates: Candidates, cells: tuple[int, ...], total: int) -> list[int] | None:
    low = high = 0
    for cell in cells:
        mask = candidates[cell]
        low += (mask & -mask).bit_length() - 1
        high += mask.bit_length() - 1
    if not low <= total <= high:
        return None
    narrowed = []
    for cell in cells:
        mask = candidates[cell]
        smallest, largest = (mask & -mask).bit_length() - 1, mask.bit_length() - 1
        least = max(1, total - (high - largest))
        most = min(9, total - (low - smallest))
        if least > smallest or most < largest:
            mask &= ((1 << (most + 1)) - 1) & ~((1 << least) - 1)
            if mask == 0:
                return None
            candidates[cell] = mask
            narrowed.append(cell)
    return narrowed
