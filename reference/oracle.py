"""Does side s admit ANY packing of the pieces?  An exact answer from OR-Tools' CP-SAT.

Order-free: which piece goes where does not matter, only how many of each shape.  This
is the question the ordered search cannot afford to settle itself when the square has
many spare cells (every empty cell is a branch): a CP-SAT model answers it with its
LP relaxation, clause learning and search.  The reference uses it only when its own
search runs out of a node budget, and only its yes/no: the ordered search then runs at
the one side where a packing is known to exist and every smaller side is known to be
impossible, so the answer is still the seed's first solution at the minimal side.

A "yes" comes with a packing, which is checked here before it is believed; a "no" is
CP-SAT's proof (a well-kept exact solver).  None: no answer in the time limit, or no
OR-Tools; the caller then decides by its own exact search.
"""
from __future__ import annotations

from collections.abc import Collection, Sequence

from reference.lp_bound import placements
from reference.shapes import Shape


def packable(types: Sequence[Shape], counts: Sequence[int], side: int, seconds: float,
             occupied: Collection[int] = ()) -> bool | None:
    """Do counts[t] pieces of each type fit in the cells of the square not in `occupied`
    (row-major indices)?  True / False when CP-SAT decides within `seconds` of its
    deterministic time (one worker), else None."""
    try:
        from ortools.sat.python import cp_model
    except ImportError:
        return None
    taken = frozenset(occupied)
    model = cp_model.CpModel()
    covering: list[list[cp_model.IntVar]] = [[] for _ in range(side * side)]
    chosen: list[tuple[tuple[int, ...], cp_model.IntVar]] = []
    for t, shape in enumerate(types):
        xs = []
        for cells in placements(shape, side) if counts[t] else ():
            if not taken.isdisjoint(cells):
                continue
            x = model.new_bool_var("")
            xs.append(x)
            chosen.append((cells, x))
            for cell in cells:
                covering[cell].append(x)
        if counts[t] and not xs:
            return False  # no room left for this shape
        if xs:
            model.add(sum(xs) == counts[t])
    for xs in covering:
        if len(xs) > 1:
            model.add_at_most_one(xs)
    solver = cp_model.CpSolver()
    # Deterministic time (about seconds here): the same answer whatever the machine's load.
    solver.parameters.max_deterministic_time = seconds
    solver.parameters.num_workers = 1  # deterministic, and the machines are small
    status = solver.solve(model)
    if status == cp_model.INFEASIBLE:
        return False
    if status in (cp_model.FEASIBLE, cp_model.OPTIMAL):
        used = [cell for cells, x in chosen if solver.value(x) for cell in cells]
        if len(set(used)) != len(used) or len(used) != 4 * sum(counts) or not taken.isdisjoint(used):
            raise AssertionError("CP-SAT returned an invalid packing")
        return True
    return None
