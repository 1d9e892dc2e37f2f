"""The packing LP's dual: a certificate that the pieces do not fit, checked in integers.

Relax "place every piece" to fractions: a value x_p in [0, 1] for each placement p of each
shape type t in the square, at most 1 in total on each cell, at most n_t for each type.
If all the pieces fit, the LP's maximum of sum(x_p) is at least n (their number).  Its
dual gives weights y(cell) >= 0 and u(t) >= 0 with y(cells of p) + u(t) >= 1 for every
placement p of type t; then for ANY set of disjoint placements using at most n_t pieces
of each type, the number of pieces is at most sum(y) + sum_t n_t * u(t).  When that is
below n, no packing exists: the side is impossible.

That is the argument colourings make (a colouring is one choice of weights), with the
best weights found by an LP solver.  It proves what the stripe bounds cannot with many
spare cells: 26 S/Z pieces in 11 x 11 (17 spare cells; the LP's maximum is 25), O with
S/Z, and other shapes that pack badly near the edges.

The solver (OR-Tools' GLOP) only proposes the weights; the proof is the integer check in
`certificate`: weights rounded down to integers Y, U, and M = the minimum of
Y(cells of p) + U(t) over all placements, computed exactly.  (Y / M, U / M) satisfies the
dual constraints by definition of M, whatever the LP solver returned, so a wrong or
inexact LP answer can only make the certificate useless, never unsound.  The C core checks
the same certificate at every order-free node (`weights_exclude` in _fastsolve.c): the
placements inside the free cells are placements of the square, so it stays valid there.

The same LP asked about one question of the staged search (some cells occupied by the
pieces placed, each type's pieces at corners from its min_corner on: only the placements
such a packing can use) is far stronger than the empty square's: around fixed pieces, S
and Z waste cells the LP sees.  On the adversarial benchmark's S/Z files it refutes, in
about 10 ms, corner and run questions the profile DP took 0.05-0.6 s to refute
(docs/BENCHMARKS.md, "Eleventh pass").
"""
from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Any

from reference.shapes import Shape

# LP duals are rounded down to multiples of 1 / _UNIT: the rounding costs at most
# 5 / _UNIT of M, far below what a proof needs, and the sums stay small integers.
_UNIT = 1 << 20


@dataclass(frozen=True)
class Certificate:
    """Integer dual weights: Y(cells of p) + U(type of p) >= scale for every placement p."""

    cell_weights: tuple[int, ...]  # row-major, side * side
    type_weights: tuple[int, ...]
    scale: int

    def bound(self, counts: Sequence[int]) -> int:
        """scale * (most pieces that fit, by this certificate) on the empty square."""
        return sum(self.cell_weights) + sum(n * u for n, u in zip(counts, self.type_weights))

    def excludes(self, counts: Sequence[int]) -> bool:
        """True when it proves the pieces cannot all be packed in the square."""
        return self.scale > 0 and self.bound(counts) < sum(counts) * self.scale

    def as_c_weights(self) -> tuple[tuple[int, ...], tuple[int, ...], int]:
        return self.cell_weights, self.type_weights, self.scale


def placements(shape: Shape, side: int, occupied: Collection[int] = (), min_corner: int = 0) -> list[tuple[int, ...]]:
    """The cells (row-major indices) of every placement of `shape` inside the square, on
    cells not `occupied`, at a corner (its box's top-left, row-major) from `min_corner` on."""
    return [
        cells
        for row in range(side - shape.height + 1)
        for col in range(side - shape.width + 1) if row * side + col >= min_corner
        for cells in [tuple((row + r) * side + col + c for r, c in shape.cells)]
        if not any(cell in occupied for cell in cells)
    ]


def certificate(types: Sequence[Shape], counts: Sequence[int], side: int,
                cell_duals: Sequence[float], type_duals: Sequence[float],
                occupied: Collection[int] = (), min_corner: Sequence[int] | None = None) -> Certificate:
    """The exact certificate made from (possibly inexact) dual values, for the placements
    a packing of the question can use (`placements`)."""
    cell_weights = tuple(max(0, int(y * _UNIT)) for y in cell_duals)
    type_weights = tuple(max(0, int(u * _UNIT)) for u in type_duals)
    least = min_corner or [0] * len(types)
    scale = min(
        (sum(cell_weights[cell] for cell in cells) + type_weights[t]
         for t, shape in enumerate(types) if counts[t]
         for cells in placements(shape, side, occupied, least[t])),
        default=0,
    )
    return Certificate(cell_weights, type_weights, scale)


def lp_certificate(types: Sequence[Shape], counts: Sequence[int], side: int, occupied: Collection[int] = (),
                   min_corner: Sequence[int] | None = None) -> Certificate | None:
    """The LP's optimal dual as a certificate, or None when the LP solver is missing or fails.
    occupied, min_corner: a question's (`placements`); its certificate holds only for the
    placements the question allows, so it refutes that question and no other."""
    try:
        from ortools.linear_solver import pywraplp
    except ImportError:
        return None
    solver = pywraplp.Solver.CreateSolver("GLOP")
    if solver is None:
        return None
    # Rows and coefficients set one by one: building them as expressions (`sum(xs) <= 1`)
    # took half of the LP's 25 ms at side 11 (docs/BENCHMARKS.md, "Seventeenth pass").
    covering: list[list[Any]] = [[] for _ in range(side * side)]
    type_rows: list[Any] = []
    occupied = frozenset(occupied)
    least = min_corner or [0] * len(types)
    objective = solver.Objective()
    for t, shape in enumerate(types):
        row = None
        for cells in placements(shape, side, occupied, least[t]) if counts[t] else ():
            x = solver.NumVar(0.0, solver.infinity(), "")
            objective.SetCoefficient(x, 1.0)
            if row is None:
                row = solver.Constraint(-solver.infinity(), float(counts[t]))
            row.SetCoefficient(x, 1.0)
            for cell in cells:
                covering[cell].append(x)
        type_rows.append(row)
    cell_rows: list[Any] = []
    for xs in covering:
        cell_rows.append(solver.Constraint(-solver.infinity(), 1.0) if xs else None)
        for x in xs:
            cell_rows[-1].SetCoefficient(x, 1.0)
    objective.SetMaximization()
    if solver.Solve() != pywraplp.Solver.OPTIMAL:
        return None
    cell_duals = [row.dual_value() if row is not None else 0.0 for row in cell_rows]
    type_duals = [row.dual_value() if row is not None else 0.0 for row in type_rows]
    return certificate(types, counts, side, cell_duals, type_duals, occupied, least)
