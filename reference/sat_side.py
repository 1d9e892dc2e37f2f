"""One side's order-free packing questions, asked of one incremental SAT solver.

For the files the profile DP cannot afford (`reference._profile`), `reference.staged`
asks this module whether the side has a packing at all, then, corner by corner, whether
the next piece can lie at a corner.  One CaDiCaL instance (python-sat) holds
the side's packing problem, order-free:

* x(t, corner): a piece of type t lies at this corner (only placements inside the square);
* e(cell): the cell stays empty;
* each cell is covered by exactly one placement or is empty; exactly counts[t] placements
  of type t are chosen; exactly side^2 - 4n cells are empty (implied, but it lets the
  solver count spare cells instead of discovering the bound).

Variables are per type, not per piece: identical pieces are interchangeable, so one packing
of types stands for all k! orders of k identical pieces, and no symmetry is left to break.

Pieces are then fixed in file order, each as unit clauses, which never have to be taken
back: the greedy order of `staged._first_solution` does not backtrack.  "Can the next
piece lie at corner c?" is asked under the assumption x(t, c), with no re-encoding, so
the clauses learned on one question serve all the later ones; a "no" stays as the unit
clause not x(t, c), which every packing left satisfies.  A model is checked (disjoint
placements, the counts) before it is believed; a "no" is CaDiCaL's proof.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from reference.shapes import Shape


# CaDiCaL 1.9.5 rather than 1.5.3 (a python-sat too old to ship "cadical195" gets 1.5.3;
# the answers are the same, only the time differs).  Measured on RESTRICTED_SLOWEST plus
# the J/L/Z file eighiigiiighmeiieiieegieig, `reference.solver.solve` CPU summed over the
# 10 files, two interleaved runs: 43.3 s, 41.5 s with 1.5.3 -> 38.4 s, 34.8 s with 1.9.5
# (restricted_j270_l180_shoriz_zhoriz_26 8.9/6.9 s -> 4.4/4.1 s).  The side question
# alone (`packable(0)`, summed over the 10): 13.2 s -> 9.4 s, faster on 9 files
# (restricted_j270_l180_zhoriz_26_b 0.95 s -> 0.14 s); a greedy that asks every corner
# here is mixed (restricted_l90_ivert_tdown_o_26 8.6 -> 11.4 s, ..._shoriz_zhoriz_26
# 3.8 -> 2.1 s), but the pipeline asks this solver only what the C core and the DP leave.
# What did not help (SAT-only greedy, every corner asked here, CPU s 1.5.3 -> variant):
# totalizer -> seqcounter / cardnetwrk / kmtotalizer for the per-type counts, ladder for
# the per-cell exactly-one, seqcounter / kmtotalizer for the spare count: each wins on
# some files and loses as much on others (e.g. kmtotalizer spare: ivert_l90_tdown_tup
# 2.3 -> 23.8, jlz eighiig... timeout); dropping the spare count: 2.5 -> 16.3 s and a
# timeout; glucose4 / maplechrono: timeouts (> 25 s) on restricted_j270_l180_zhoriz_26_b;
# phases (placements false, empties true) 2.5 -> 7.3; CaDiCaL 1.9.5 options stabilize=0,
# stabilizeonly, elim=0, inprocessing=0, chrono=0, phase=0, walk=0, lucky=0, rephase=0:
# none better on both of ivert_l90_tdown_tup and j270_l180_zhoriz_26_b; per-cut parity
# (XOR chains, rows/columns) 2.6 -> 3.4 and 8.7 -> 10.3-14.2; answering "yes" from the last
# model when it has the placement (fewer solves, less learned): 2.0 -> 2.2, 8.2 -> 9.6;
# one "smallest corner" question per piece (a clause over all earlier corners, under an
# activation literal, tightened model by model): 2.2 -> 5.0, 8.5 -> 16.6 s.
SOLVER_NAME = "cadical195"


def available() -> bool:
    try:
        import pysat.solvers  # type: ignore[import-untyped]  # noqa: F401
    except ImportError:
        return False
    return True


class SatSide:
    """One side's packing problem in a CaDiCaL instance, pieces fixed as they are placed."""

    def __init__(self, types: Sequence[Shape], counts: Sequence[int], side: int) -> None:
        from pysat.card import CardEnc, EncType  # type: ignore[import-untyped]
        from pysat.formula import IDPool  # type: ignore[import-untyped]
        from pysat.solvers import Solver, SolverNames

        self.types, self.side, self.counts = list(types), side, list(counts)
        self.pool = IDPool()
        self.solver: Any = Solver(name=SOLVER_NAME if hasattr(SolverNames, SOLVER_NAME) else "cadical153")
        self.var: dict[tuple[int, int], int] = {}
        self.cells_of: dict[int, tuple[int, ...]] = {}
        covering: list[list[int]] = [[] for _ in range(side * side)]
        for t, shape in enumerate(types):
            chosen = []
            for row in range(side - shape.height + 1):
                for col in range(side - shape.width + 1):
                    x = self.var[t, row * side + col] = self.pool.id((t, row * side + col))
                    self.cells_of[x] = tuple((row + r) * side + col + c for r, c in shape.cells)
                    chosen.append(x)
                    for cell in self.cells_of[x]:
                        covering[cell].append(x)
            self._add(CardEnc.equals(chosen, counts[t], vpool=self.pool, encoding=EncType.totalizer).clauses)
        empties = []
        for cell, xs in enumerate(covering):
            empty = self.pool.id(("empty", cell))
            empties.append(empty)
            self._add(CardEnc.equals(xs + [empty], 1, vpool=self.pool, encoding=EncType.pairwise).clauses)
        spare = side * side - 4 * sum(counts)
        self._add(CardEnc.equals(empties, spare, vpool=self.pool, encoding=EncType.totalizer).clauses)
        self.after: dict[int, int] = {}  # per type: corners below this are fixed or excluded

    def _add(self, clauses: list[list[int]]) -> None:
        for clause in clauses:
            self.solver.add_clause(clause)

    def fix(self, t: int, corner: int) -> None:
        """A piece of type t is at `corner` from now on; the type's later pieces lie after it
        (swapping identical pieces maps packings to packings; the first one has them in
        increasing order, `staged._first_solution`)."""
        self.solver.add_clause([self.var[t, corner]])
        for c in range(self.after.get(t, 0), corner):
            if (t, c) in self.var:
                self.solver.add_clause([-self.var[t, c]])
        self.after[t] = corner + 1

    def packable(self, conflicts: int) -> bool | None:
        """Is there a packing with the fixed pieces?  None: not decided in that many
        conflicts (0: no limit)."""
        if conflicts > 0:
            self.solver.conf_budget(conflicts)
            found = self.solver.solve_limited()
        else:
            found = self.solver.solve()
        if found:
            self._check_model()
        return found

    def packable_at(self, t: int, corner: int, conflicts: int = 0) -> bool | None:
        """Is there a packing with the fixed pieces and a type-t piece at `corner`?  Asked
        under an assumption; a "no" stays as a unit clause (no packing left has it).
        None: not decided in that many conflicts (0: no limit)."""
        x = self.var[t, corner]
        if conflicts > 0:
            self.solver.conf_budget(conflicts)
            found = self.solver.solve_limited(assumptions=[x])
        else:
            found = self.solver.solve(assumptions=[x])
        if found:
            self._check_model()
        elif found is not None:
            self.solver.add_clause([-x])
        return found

    def conflicts(self) -> int:
        """The conflicts this solver has met so far (its work)."""
        return int(self.solver.accum_stats()["conflicts"])

    def model_packing(self) -> list[tuple[int, int]]:
        """The last packing found, fixed pieces included: (type, corner) of each piece."""
        model: list[int] = self.solver.get_model()
        return [key for key, x in self.var.items() if model[x - 1] > 0]

    def _check_model(self) -> list[int]:
        model: list[int] = self.solver.get_model()
        chosen = [x for x in self.cells_of if model[x - 1] > 0]
        taken = [cell for x in chosen for cell in self.cells_of[x]]
        per_type = [sum(1 for (u, _), x in self.var.items() if u == v and model[x - 1] > 0)
                    for v in range(len(self.types))]
        if len(set(taken)) != len(taken) or per_type != self.counts:
            raise AssertionError("the SAT solver returned an invalid packing")
        return model
