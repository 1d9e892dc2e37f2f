"""The questions at one side already proved to have no completion, so none is proved twice.

The staged search asks the same question again more often than one would think: a run of
the plain search's moves that placed a few pieces is followed by runs along the same moves,
the longer of which the last attempt refuted already, and the corner a piece tries first is
the plain move whose run of one the attempt before refuted (docs/BENCHMARKS.md, "Tenth
pass": 1.6 s of the 6.1 s of `prposrppqqpccsqrqsprqcpsr` went to such repeats).

A question is (counts, occupied, min_corner): can `counts` pieces be packed on the cells
not in `occupied`, each type's pieces at corners >= its `min_corner`?  A larger min_corner
only removes packings, so a question refuted with min_corner M is refuted with every M'
that is at least M in each type.
"""
from __future__ import annotations

from collections.abc import Collection, Sequence

QuestionKey = tuple[tuple[int, ...], frozenset[int]]


class Refuted:
    """The refuted questions of one side: per (counts, occupied), the least min_corners
    known to leave no packing."""

    def __init__(self) -> None:
        self._min_corners: dict[QuestionKey, list[tuple[int, ...]]] = {}

    def holds(self, counts: Sequence[int], occupied: Collection[int], min_corner: Sequence[int] | None = None) -> bool:
        """True when this question is known to have no packing (min_corner None: no order)."""
        asked = _order(counts, min_corner)
        known = self._min_corners.get((tuple(counts), frozenset(occupied)), ())
        return any(_at_most(refuted, asked) for refuted in known)

    def add(self, counts: Sequence[int], occupied: Collection[int], min_corner: Sequence[int] | None = None) -> None:
        """This question has no packing (proved by whoever answered it)."""
        refuted = _order(counts, min_corner)
        known = self._min_corners.setdefault((tuple(counts), frozenset(occupied)), [])
        if any(_at_most(other, refuted) for other in known):
            return
        known[:] = [other for other in known if not _at_most(refuted, other)]
        known.append(refuted)


def _order(counts: Sequence[int], min_corner: Sequence[int] | None) -> tuple[int, ...]:
    return tuple(min_corner) if min_corner is not None else (0,) * len(counts)


def _at_most(low: tuple[int, ...], high: tuple[int, ...]) -> bool:
    """`low` is at most `high` in every type: refuting `low` refutes `high`."""
    return all(a <= b for a, b in zip(low, high))
