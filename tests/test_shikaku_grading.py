"""Real Shikaku solvers graded end to end: tests/shikaku_targets/solver.c, correct and with
one deliberate defect each (-D flags), built with gcc, run jailed on the suite's cases with
the input on standard input (harness.runner.run), judged by EXERCISE.check."""
from __future__ import annotations

from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from generators.cases import Case
from harness.jail import detect_jail
from harness.limits import Limits
from harness.grading.model import Verdict
from harness.runner import run
from exercises.shikaku import EXERCISE
from exercises.shikaku.solver import answer_text
from exercises.shikaku.valid import SEED_EXAMPLE, SEED_EXAMPLE_ANSWER, SEED_TEST_3

SOLVER = Path(__file__).resolve().parent / "shikaku_targets" / "solver.c"
FLAGS = ("-O2", "-Wall", "-Wextra", "-Werror")
# A 6x6 puzzle with one solution, on which the overlapping solver draws D over B (found by
# search among generated puzzles).
OVERLAP_PUZZLE = b"6 6\n0 0 0 4 0 0\n8 0 0 0 12 0\n0 0 0 0 0 0\n0 0 0 6 0 0\n6 0 0 0 0 0\n0 0 0 0 0 0\n"


@pytest.fixture(scope="module")
def jail():
    return detect_jail()


@pytest.fixture(scope="module")
def quick() -> list[Case]:
    return EXERCISE.suite("quick")


@pytest.fixture(scope="module")
def solver(build_c):
    """Build the solver with one -D flag (None: the correct one)."""
    def build(define: str | None = None) -> Path:
        flags = (*FLAGS, f"-D{define}") if define else FLAGS
        return build_c(SOLVER, flags=flags, name=(define or "shikaku").lower())
    return build


def grade(program: Path, cases: Sequence[Case], jail, cpu_s: float = 5.0, runs: int | None = None) -> dict[str, Verdict]:
    """Each case's verdict: run `case.runs` times (or `runs`), input on stdin."""
    limits = Limits(cpu_s=cpu_s, wall_s=3 * cpu_s + 2)

    def one(case: Case) -> tuple[str, Verdict]:
        results = [run(program, [], (), limits, jail, stdin=case.input) for _ in range(runs or case.runs)]
        return case.id, EXERCISE.check(case, results, False)

    with ThreadPoolExecutor(2) as pool:
        return dict(pool.map(one, cases))


def count_of(case: Case) -> int | None:
    return None if case.expected == "error\n" else int(case.expected.split("\n")[0])


def fixed_case(case_id: str, data: bytes, category: str = "valid") -> Case:
    return Case(id=case_id, category=category, input=data, expected=answer_text(data))  # type: ignore[arg-type]


@pytest.mark.slow  # (a whole suite graded)
def test_the_correct_solver_passes_the_standard_suite(solver, jail):
    verdicts = grade(solver(), EXERCISE.suite("standard"), jail)
    failed = {case_id: (v.verdict, v.message) for case_id, v in verdicts.items() if not v.passed}
    assert not failed
    assert sum(v.verdict == "DISPUTED" for v in verdicts.values()) == 10


def test_the_seed_example_prints_the_seed_s_answer(solver, jail):
    result = run(solver(), [], (), Limits(cpu_s=5), jail, stdin=SEED_EXAMPLE)
    assert result.stdout.decode() == SEED_EXAMPLE_ANSWER


def test_plain_search_passes_quick_but_times_out_on_a_doomed_puzzle(solver, jail, quick):
    plain = solver("PLAIN")
    assert all(v.passed for v in grade(plain, quick, jail).values())
    doomed = next(case for case in EXERCISE.suite("standard") if case.id == "hard/doomed-18")
    verdict = grade(plain, [doomed], jail, cpu_s=1.0)[doomed.id]
    assert (verdict.verdict, verdict.diagnosis) == ("TIMEOUT", "cpu")
    assert "this puzzle has no solution, which plain search only finds out" in verdict.message
    assert grade(solver(), [doomed], jail, cpu_s=1.0)[doomed.id].verdict == "OK"


def test_stopping_at_the_first_solution_is_a_wrong_count(solver, jail, quick):
    verdicts = grade(solver("BUG_FIRST_ONLY"), quick, jail)
    many = [case for case in quick if (count_of(case) or 0) >= 2]
    assert many
    for case in quick:
        verdict = verdicts[case.id]
        if case in many:
            assert (verdict.diagnosis, verdict.details["actual"]) == ("wrong_count", 1), case.id
            assert "every solution counts, not only the first found" in verdict.message
        else:
            assert verdict.passed, (case.id, verdict.message)


def test_printing_the_last_solution_is_not_first(solver, jail, quick):
    program = solver("BUG_LAST")
    verdicts = grade(program, quick, jail)
    for case in quick:
        wanted = "not_first" if (count_of(case) or 0) >= 2 else None
        assert verdicts[case.id].diagnosis == wanted or (wanted is None and verdicts[case.id].passed), case.id
    test_3 = fixed_case("large/seed-test-3", SEED_TEST_3, "large")
    verdict = grade(program, [test_3], jail)[test_3.id]
    assert verdict.message.startswith("the grid is a solution, but not the first in sorted order: rectangle C is "
                                      "at rows 1-4, columns 17-18 (4x2), the first solution has it at rows 1-2, "
                                      "columns 17-20 (2x4)")


def test_overlapping_rectangles(solver, jail):
    case = fixed_case("valid/overlap", OVERLAP_PUZZLE)
    assert case.expected == "1\nAAAABB\nCCCCBB\nCCCCBB\nDDEEBB\nDDEEBB\nDDEEBB\n"
    verdict = grade(solver("BUG_OVERLAP"), [case], jail)[case.id]
    assert (verdict.verdict, verdict.diagnosis) == ("WRONG", "overlap")
    assert verdict.message.startswith("the cells of letter B are not one rectangle: 10 cells spread over rows 1-6, "
                                      "columns 5-6 (6x2)")


def test_a_missing_final_newline_is_format(solver, jail, quick):
    verdicts = grade(solver("BUG_NO_NEWLINE"), quick, jail)
    for case in quick:
        verdict = verdicts[case.id]
        if (count_of(case) or 0) >= 1 and not case.disputed:
            assert verdict.message == "the answer is right but the layout is not: missing final newline", case.id
        elif not case.disputed:  # "error", or a lone "0": the last line is the count's
            assert verdict.verdict == "OK", case.id


def test_two_runs_that_differ(solver, jail):
    case = fixed_case("valid/seed-example", SEED_EXAMPLE)
    verdict = grade(solver("BUG_NONDET"), [case], jail, runs=2)[case.id]
    assert (verdict.verdict, verdict.diagnosis) == ("WRONG", "nondeterministic")


def test_areas_that_do_not_add_up_must_be_rejected(solver, jail, quick):
    verdicts = grade(solver("BUG_NO_SUM"), quick, jail)
    area = next(case for case in quick if case.rule == "area_sum")
    assert verdicts[area.id].diagnosis == "missed_error"
    assert "the areas add up to" in verdicts[area.id].message
    assert all(v.passed for case_id, v in verdicts.items() if case_id != area.id)


def test_letters_in_clue_order(solver, jail):
    case = fixed_case("valid/seed-example", SEED_EXAMPLE)
    verdict = grade(solver("BUG_CLUE_ORDER"), [case], jail)[case.id]
    assert verdict.diagnosis == "letter_order"
    assert verdict.message.startswith("the rectangle at rows 1-5, columns 1-4 (5x4) is drawn with C, but "
                                      "rectangles take the letters A-Z then a-z in the order of their top-left cells")


def test_a_crash_and_an_output_flood(solver, jail, quick):
    crashes = grade(solver("BUG_NO_SOLUTION_CRASH"), quick, jail)
    for case in quick:
        if count_of(case) == 0:
            assert (crashes[case.id].verdict, crashes[case.id].diagnosis) == ("CRASH", "SIGSEGV"), case.id
    floods = grade(solver("BUG_FLOOD"), [case for case in quick if case.category == "invalid"][:3], jail)
    assert {(v.verdict, v.diagnosis) for v in floods.values()} == {("OUTPUT_LIMIT", "output")}
