"""Edge-matching's graded suites: quick, standard and full lists of `Case`, deterministic from a seed.

Every case draws from its own `random.Random(f"{seed}:{case_id}")`, so a case's bytes depend
only on the seed and its id. A solvable case's expected answer is the reference's first
solution (exercises.edge_matching.solver), found while the suite is built: every solvable
case is solved by the exact search, not only solvable by construction. A draw the search
cannot finish within REACH placements is replaced by the next draw of the same case.

Categories: `valid` (up to 7 x 7, solvable or not), `large` (10 x 10 to 16 x 16), `invalid`,
`hard` (few colours, near-critical colour counts, Eternity II's frame colours, and an
unsolvable puzzle only exhaustive search refutes).
"""
from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from generators.cases import Case, Category
from exercises.edge_matching.board import board_text
from exercises.edge_matching.generate import UNSOLVABLE, Unsolvable, solvable, unsolvable
from exercises.edge_matching.invalid import INVALID_CATEGORIES
from exercises.edge_matching.puzzle import ERROR, NONE, parse
from exercises.edge_matching.solver import OutOfBudget, solve

FIXED_SEED = 20261202
REACH = 200_000  # placements the reference may take on a suite's solvable case
_DRAWS = 20


@dataclass(frozen=True)
class Shape:
    """A solvable case's parameters (generate.solvable)."""

    category: Category
    family: str  # "framed", "free", "few", "critical", "eternity"
    rows: int
    cols: int
    colours: int
    framed: bool = True
    frame_colours: int = 0

    def case_id(self, index: int) -> str:
        frame = f"-f{self.frame_colours}" if self.frame_colours else ""
        return f"{self.category}/{self.family}-{self.rows}x{self.cols}-k{self.colours}{frame}-{index}"


_VALID = (Shape("valid", "framed", 1, 1, 1), Shape("valid", "framed", 2, 2, 2), Shape("valid", "framed", 1, 6, 3),
          Shape("valid", "framed", 3, 3, 3), Shape("valid", "framed", 3, 4, 3), Shape("valid", "framed", 4, 4, 3),
          Shape("valid", "framed", 5, 5, 4), Shape("valid", "framed", 6, 6, 6), Shape("valid", "framed", 7, 7, 8),
          Shape("valid", "free", 1, 1, 2, False), Shape("valid", "free", 2, 3, 3, False),
          Shape("valid", "free", 4, 4, 4, False), Shape("valid", "free", 5, 5, 5, False),
          Shape("valid", "free", 6, 1, 3, False), Shape("valid", "free", 7, 7, 5, False))
_LARGE = (Shape("large", "framed", 10, 10, 20), Shape("large", "framed", 12, 12, 24),
          Shape("large", "framed", 10, 16, 28), Shape("large", "framed", 16, 16, 40))
_HARD = (Shape("hard", "few", 7, 7, 2), Shape("hard", "few", 8, 8, 2), Shape("hard", "critical", 8, 8, 10),
         Shape("hard", "eternity", 8, 8, 16, True, 4), Shape("hard", "critical", 16, 16, 36))
_UNSOLVABLE: tuple[tuple[Category, Unsolvable, int, int, int], ...] = (
    ("valid", "odd_colour", 4, 4, 3), ("valid", "corner_moved", 3, 3, 3), ("valid", "swapped_sides", 4, 4, 3),
("large", "odd_colour", 16, 16, 40), ("hard", "swapped_sides", 5, 5, 3))
_QUICK_SHAPES = (0, 1, 3, 5, 6, 9, 11, 12)  # indices into _VALID
_QUICK_INVALID = ("empty", "no_final_newline", "letter", "header_one_number", "size_zero", "piece_missing",
                  "five_sides", "border_count")
_INVALID_PER_CATEGORY = 2


def _rng(seed: int, case_id: str) -> random.Random:
    return random.Random(f"{seed}:{case_id}")  # str seeds are hashed (SHA-512): stable everywhere


def solvable_case(seed: int, shape: Shape, index: int = 1) -> Case:
    case_id = shape.case_id(index)
    rng = _rng(seed, case_id)
    for _ in range(_DRAWS):
        puzzle, _ = solvable(shape.rows, shape.cols, shape.colours, shape.framed, rng, shape.frame_colours)
        try:
            solved = solve(puzzle, REACH)
        except OutOfBudget:
            continue
        if solved.board is None:
            raise AssertionError(f"{case_id}: the reference finds no solution to a constructed puzzle")
        frame = f", {shape.frame_colours} frame colours" if shape.frame_colours else ""
        return Case(id=case_id, category=shape.category, input=puzzle.text(),
                    expected=board_text(puzzle, solved.board),
                    description=(f"{shape.rows}x{shape.cols} {'framed' if shape.framed else 'free'}, "
                                 f"{shape.colours} colour{'s' if shape.colours > 1 else ''}{frame}: solvable (reference: {solved.nodes} placements)"))
    raise RuntimeError(f"{case_id}: no draw within the reference's reach in {_DRAWS} draws")


def unsolvable_case(seed: int, category: Category, kind: Unsolvable, rows: int, cols: int, colours: int,
                    index: int = 1) -> Case:
    case_id = f"{category}/none-{kind}-{rows}x{cols}-{index}"
    puzzle = unsolvable(kind, rows, cols, colours, _rng(seed, case_id))
    proof = solve(puzzle).proof
    return Case(id=case_id, category=category, input=puzzle.text(), expected=NONE,
                description=f"{rows}x{cols}, no solution: {UNSOLVABLE[kind]} (reference: {proof})")


def invalid_case(seed: int, name: str, index: int = 1) -> Case:
    spec = INVALID_CATEGORIES[name]
    case_id = f"invalid/{name}-{index}"
    return Case(id=case_id, category="invalid", input=spec.build(_rng(seed, case_id)), expected=ERROR,
                rule=spec.rule, description=spec.description)


@lru_cache(maxsize=8)
def _standard(seed: int) -> tuple[Case, ...]:
    cases = [solvable_case(seed, shape) for shape in (*_VALID, *_LARGE, *_HARD)]
    cases += [unsolvable_case(seed, *spec) for spec in _UNSOLVABLE]
    cases += [invalid_case(seed, name, i) for name in INVALID_CATEGORIES for i in range(1, _INVALID_PER_CATEGORY + 1)]
    return tuple(_checked(cases))


def standard_suite(seed: int = FIXED_SEED) -> list[Case]:
    """Every shape once (1x1 to 16x16, framed and free, the hard families), every
    unsolvable kind, every invalid category twice."""
    return list(_standard(seed))


@lru_cache(maxsize=8)
def _quick(seed: int) -> tuple[Case, ...]:
    cases = [solvable_case(seed, _VALID[i]) for i in _QUICK_SHAPES] + [solvable_case(seed, _LARGE[0])]
    cases += [unsolvable_case(seed, *spec) for spec in _UNSOLVABLE[:3]]
    cases += [invalid_case(seed, name) for name in _QUICK_INVALID]
    return tuple(_checked(cases))


def quick_suite(seed: int = FIXED_SEED) -> list[Case]:
    """About 20 cases: small framed and free puzzles, one large, three unsolvable, eight
    invalid files; no hard case."""
    return list(_quick(seed))


def full_suite(seed: int = FIXED_SEED) -> list[Case]:
    """The standard suite and a second draw of every solvable shape."""
    extra = [solvable_case(seed, shape, 2) for shape in (*_VALID, *_LARGE, *_HARD)]
    return _checked([*_standard(seed), *extra])


def _checked(cases: Iterable[Case]) -> list[Case]:
    """Guard the suite's promises: unique ids; invalid files rejected for their rule; the
    others valid."""
    out = list(cases)
    ids = [case.id for case in out]
    if len(ids) != len(set(ids)):
        raise AssertionError("duplicate case ids in an edge-matching suite")
    for case in out:
        parsed = parse(case.input or b"")
        if case.rule is not None and (parsed.rejection is None or parsed.rejection.rule != case.rule):
            raise AssertionError(f"{case.id}: not rejected for {case.rule}: {parsed.rejection}")
        if case.rule is None and parsed.puzzle is None:
            raise AssertionError(f"{case.id}: rejected: {parsed.rejection}")
    return out
