"""Real edge-matching solvers graded end to end: tests/edge_matching_targets/solver.c,
correct, the seed's heuristic, and with one deliberate defect each (-D flags), built with
gcc, run jailed with the puzzle file as argument (harness.runner.run), judged by
EXERCISE.check."""
from __future__ import annotations

from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from generators.cases import Case
from harness.grading.model import Verdict
from harness.jail import detect_jail
from harness.limits import Limits
from harness.runner import RunFile, run
from exercises.edge_matching import EXERCISE
from exercises.edge_matching.board import count_edges
from exercises.edge_matching.heuristic import heuristic
from exercises.edge_matching.puzzle import NONE, parse

SOLVER = Path(__file__).resolve().parent / "edge_matching_targets" / "solver.c"
FLAGS = ("-O2", "-Wall", "-Wextra", "-Werror")


@pytest.fixture(scope="module")
def jail():
    return detect_jail()


@pytest.fixture(scope="module")
def solver(build_c):
    """Build the solver with one -D flag (None: the correct one)."""
    def build(define: str | None = None) -> Path:
        flags = (*FLAGS, f"-D{define}") if define else FLAGS
        return build_c(SOLVER, flags=flags, name=f"edge-{(define or 'exact').lower()}")
    return build


@pytest.fixture(scope="module")
def standard() -> list[Case]:
    return EXERCISE.suite("standard")


def small(cases: Sequence[Case]) -> list[Case]:
    """The cases a wrong search may take long on left out: valid and invalid ones only."""
    return [case for case in cases if case.category in ("valid", "invalid")]


def grade(program: Path, cases: Sequence[Case], jail, cpu_s: float = 5.0) -> dict[str, Verdict]:
    limits = Limits(cpu_s=cpu_s, wall_s=3 * cpu_s + 2)

    def one(case: Case) -> tuple[str, Verdict]:
        files = [RunFile(EXERCISE.input_name, case.input or b"")]
        return case.id, EXERCISE.check(case, [run(program, [EXERCISE.input_name], files, limits, jail)], False)

    with ThreadPoolExecutor(2) as pool:
        return dict(pool.map(one, cases))


@pytest.mark.slow  # (a whole suite graded)
def test_the_exact_solver_passes_the_standard_suite(solver, jail, standard):
    verdicts = grade(solver(), standard, jail)
    assert {case_id: v.message for case_id, v in verdicts.items() if v.verdict != "OK"} == {}


def test_the_seed_s_heuristic_earns_its_matched_edges(solver, jail, standard):
    """The C heuristic's credit on each case is the Python baseline's matched edges over
    all inner edges; unsolvable puzzles get a board (missed_none, no credit)."""
    verdicts = grade(solver("HEURISTIC"), standard, jail)
    partial = 0
    for case in standard:
        verdict, puzzle = verdicts[case.id], parse(case.input or b"").puzzle
        if puzzle is None:
            assert verdict.verdict == "OK", case.id
            continue
        baseline = count_edges(puzzle, heuristic(puzzle))
        if case.expected == NONE:
            assert (verdict.diagnosis, verdict.credit) == ("missed_none", None), case.id
        elif baseline.complete:
            assert verdict.verdict == "OK", case.id
        else:
            partial += 1
            assert (verdict.verdict, verdict.diagnosis) == ("WRONG", "partial"), case.id
            assert verdict.credit == baseline.matched / baseline.total
            assert verdict.message.startswith(f"matched {baseline.matched}/{baseline.total} edges"), verdict.message
            assert verdict.details["board"][-1].startswith(f"matched {baseline.matched}/{baseline.total}")
    assert partial >= 15


def test_printing_rotation_0_everywhere_costs_edges(solver, jail, standard):
    verdicts = grade(solver("BUG_NO_ROTATION"), small(standard), jail)
    for case in small(standard):
        puzzle, verdict = parse(case.input or b"").puzzle, verdicts[case.id]
        if puzzle is None or case.expected == NONE:
            assert verdict.verdict == "OK", case.id
            continue
        exact = [cell for line in str(case.expected).split() for cell in [tuple(map(int, line.split("/")))]]
        unturned = [(piece, 0) for piece, _ in exact]
        score = count_edges(puzzle, unturned)
        if score.complete:
            assert verdict.verdict == "OK", case.id
        else:
            assert (verdict.diagnosis, verdict.credit) == ("partial", score.matched / score.total), case.id
    assert sum(v.diagnosis == "partial" for v in verdicts.values()) >= 8


def test_a_piece_placed_twice(solver, jail, standard):
    verdicts = grade(solver("BUG_REUSE"), small(standard), jail)
    reused = [case_id for case_id, v in verdicts.items() if v.diagnosis == "reused_piece"]
    assert len(reused) >= 5
    for case_id in reused:
        assert "is used twice, at row" in verdicts[case_id].message and verdicts[case_id].credit is None
    assert all(v.verdict == "OK" or v.diagnosis in ("reused_piece", "missed_none") for v in verdicts.values())


def test_a_border_treated_as_any_colour(solver, jail, standard):
    """0 against 0 inside is a mismatch: the relaxed search's boards lose edges on framed
    puzzles, and free ones (no 0) are not touched."""
    verdicts = grade(solver("BUG_BORDER"), small(standard), jail)
    for case in small(standard):
        puzzle, verdict = parse(case.input or b"").puzzle, verdicts[case.id]
        if puzzle is not None and not puzzle.framed:
            assert verdict.verdict == "OK", case.id
        elif puzzle is not None and case.expected != NONE and verdict.verdict != "OK":
            assert verdict.diagnosis == "partial" and 0 < (verdict.credit or 0) < 1, case.id
            assert any(0 in edge["colours"] for edge in verdict.details["mismatches"]), case.id
    assert sum(v.diagnosis == "partial" for v in verdicts.values()) >= 3
    assert sum(v.diagnosis == "missed_none" for v in verdicts.values()) >= 1  # piece 1 not a corner: it goes on


def test_the_exact_answer_is_the_reference_s(solver, jail, standard):
    """Same order, same first solution: the C program prints the reference's board."""
    program = solver()
    for case in [c for c in standard if c.category == "valid"][:6]:
        result = run(program, [EXERCISE.input_name], [RunFile(EXERCISE.input_name, case.input or b"")],
                     Limits(cpu_s=5), jail)
        assert result.stdout.decode() == case.expected, case.id
