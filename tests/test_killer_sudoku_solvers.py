"""Real Killer Sudoku solvers graded case by case: tests/killer_sudoku_targets/solver.c,
correct and with one deliberate defect each (-D flags), and the seed's plain algorithm
(seed_plain.c, as written and with rule 4), built with gcc, run jailed with the input on
standard input (harness.runner.run), judged by EXERCISE.check."""
from __future__ import annotations

from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from generators.cases import Case
from harness.grading.model import Verdict
from harness.jail import detect_jail
from harness.limits import Limits
from harness.runner import run
from exercises.killer_sudoku import EXERCISE
from exercises.killer_sudoku.codingame import CODINGAME_TESTS
from exercises.killer_sudoku.parser import parse
from exercises.killer_sudoku.solver import reference, search

TARGETS = Path(__file__).resolve().parent / "killer_sudoku_targets"
FLAGS = ("-O2", "-Wall", "-Wextra", "-Werror")
VALID = ("valid/codingame-easy", "valid/codingame-hard", "valid/easy-1", "valid/medium-1",
         "valid/layout-no-final-newline", "valid/rule4-trap-1")
HARD = ("hard/sparse-1", "hard/no-givens-1")
# Every cell given but 4, cages are row segments: two solutions without rule 3, one with it.
BOX_BLIND = b"""\
8.259.146 aaaaaabbb
346271598 ccccccccc
915846327 ddddddddd
567928431 eeeeeeeee
4.915.862 ffffffggg
128364975 hhhhhhhhh
784619253 iiiiiiiii
653482719 jjjjjjjjj
291735684 kkkkkkkkk
a=34 b=11 c=45 d=45 e=45 f=29 g=16 h=45 i=45 j=45 k=45
"""
INVALID = ("invalid/row_length-1", "invalid/unknown_cage-1", "invalid/cage_sum_impossible-1",
           "invalid/duplicate_given_box-1", "invalid/no_solution-1")


@pytest.fixture(scope="module")
def jail():
    return detect_jail()


@pytest.fixture(scope="module")
def quick() -> dict[str, Case]:
    return {case.id: case for case in EXERCISE.suite("quick")}


@pytest.fixture(scope="module")
def build(build_c):
    """Build a target with one -D flag (None: as it is)."""
    def built(source: str = "solver.c", define: str | None = None) -> Path:
        flags = (*FLAGS, f"-D{define}") if define else FLAGS
        return build_c(TARGETS / source, flags=flags, name=f"ks-{Path(source).stem}-{define or 'plain'}".lower())
    return built


def grade(program: Path, cases: Sequence[Case], jail, cpu_s: float = 5.0) -> dict[str, Verdict]:
    """Each case's verdict: run `case.runs` times, input on stdin."""
    limits = Limits(cpu_s=cpu_s, wall_s=3 * cpu_s + 2)

    def one(case: Case) -> tuple[str, Verdict]:
        results = [run(program, [], (), limits, jail, stdin=case.input) for _ in range(case.runs)]
        return case.id, EXERCISE.check(case, results, False)

    with ThreadPoolExecutor(2) as pool:
        return dict(pool.map(one, cases))


def picked(quick: dict[str, Case], *ids: str) -> list[Case]:
    return [quick[case_id] for case_id in ids]


def diagnoses(verdicts: dict[str, Verdict]) -> dict[str, str | None]:
    return {case_id: verdict.diagnosis for case_id, verdict in verdicts.items()}


@pytest.mark.slow  # (a whole suite graded)
def test_the_correct_solver_passes_the_standard_suite(build, jail):
    # 20 s of CPU per run, not 5: this solver takes 3-6 s on hard/no-givens-1 and -3 (5.6 s
    # measured on a slower machine of the same kind), and what this test checks is the
    # answers, not its speed.
    verdicts = grade(build(), EXERCISE.suite("standard"), jail, cpu_s=20.0)
    assert {case_id: v.message for case_id, v in verdicts.items() if v.verdict != "OK"} == {}


def test_the_correct_solver_prints_the_statement_example_s_grid(build, jail):
    result = run(build(), [], (), Limits(cpu_s=5), jail, stdin=CODINGAME_TESTS["easy"].encode())
    assert result.stdout.decode().split("\n")[0] == "568913427"


def test_the_seed_as_written_misses_rule_4_and_invalid_input_and_is_too_slow(build, jail, quick):
    verdicts = grade(build("seed_plain.c"), picked(quick, *VALID, *HARD, *INVALID), jail, cpu_s=1.5)
    assert all(verdicts[case_id].verdict == "OK" for case_id in VALID[:-1])
    trap = verdicts["valid/rule4-trap-1"]
    assert trap.diagnosis == "bad_cage" and "digits never repeat in a cage" in trap.message
    assert verdicts["hard/sparse-1"].verdict == "OK"
    timeout = verdicts["hard/no-givens-1"]
    assert (timeout.verdict, timeout.diagnosis) == ("TIMEOUT", "cpu")
    assert "fewest candidates" in timeout.message
    assert {diagnoses(verdicts)[case_id] for case_id in INVALID} == {"missed_error"}
    assert "printed nothing" in verdicts["invalid/no_solution-1"].message


def test_the_seed_with_rule_4_passes_the_trap(build, jail, quick):
    verdicts = grade(build("seed_plain.c", "RULE4"), picked(quick, *VALID), jail)
    assert all(verdict.verdict == "OK" for verdict in verdicts.values())


def test_a_plain_sudoku_solver_breaks_cages(build, jail, quick):
    verdicts = grade(build(define="NO_CAGE_SUMS"), picked(quick, *VALID, *INVALID), jail)
    assert {diagnoses(verdicts)[case_id] for case_id in VALID} == {"bad_cage"}
    assert verdicts["invalid/no_solution-1"].diagnosis == "missed_error"
    assert all(verdicts[case_id].verdict == "OK" for case_id in INVALID[:-1])  # it still reads the input


def test_forgetting_boxes_is_caught_as_a_box(build, jail):
    # The generated puzzles stay unique without rule 3 (their cages decide), so the solver
    # blind to boxes answers them (or runs out of time); this one has two solutions without
    # boxes: rows 1 and 5 may swap 7 and 3 in columns 2 and 6, which keeps the rows, the
    # columns and the cages (row segments), and the swapped grid comes first.
    case = Case(id="valid/box-blind", category="valid", input=BOX_BLIND, expected=reference(BOX_BLIND))
    assert search(parse(BOX_BLIND), limit=2).solutions[0][1] == 7  # type: ignore[arg-type]
    verdict = grade(build(define="IGNORE_BOXES"), [case], jail)["valid/box-blind"]
    assert verdict.diagnosis == "bad_box"
    assert verdict.message.startswith("box 1 holds 3 twice")
    assert verdict.details["first_difference"] == {"row": 1, "column": 2, "actual": 3, "expected": 7}


def test_no_backtracking_leaves_unfilled_cells_on_hard_puzzles(build, jail, quick):
    verdicts = grade(build(define="NO_BACKTRACK"), picked(quick, *VALID[:2], *HARD, "invalid/no_solution-1"), jail)
    assert verdicts["valid/codingame-easy"].verdict == "OK"
    stuck = verdicts["hard/no-givens-1"]
    assert stuck.diagnosis == "not_a_grid" and "(an unfilled cell?)" in stuck.message
    assert verdicts["invalid/no_solution-1"].diagnosis == "missed_error"


@pytest.mark.parametrize("define, cases, diagnosis, words", [
    ("SPACED", ("valid/codingame-easy", "valid/medium-1"), "format", "spaces between digits"),
    ("EIGHT_ROWS", ("valid/codingame-easy", "valid/medium-1"), "not_a_grid", "it printed 8 line(s)"),
    # CodinGame's easy test is unique without its givens: the solver passes it.
    ("IGNORE_GIVENS", ("valid/medium-1",), "given_changed", "is given as"),
])
def test_a_wrong_output_is_diagnosed(build, jail, quick, define, cases, diagnosis, words):
    verdicts = grade(build(define=define), picked(quick, *cases), jail)
    assert {v.diagnosis for v in verdicts.values()} == {diagnosis}
    assert all(words in v.message for v in verdicts.values())


def test_trusting_the_input_misses_every_error(build, jail, quick):
    verdicts = grade(build(define="TRUST_INPUT"), picked(quick, "valid/medium-1", *INVALID), jail)
    assert verdicts["valid/medium-1"].verdict == "OK"
    assert {diagnoses(verdicts)[case_id] for case_id in INVALID} == {"missed_error"}


def test_a_crash_on_big_cages_is_a_crash(build, jail, quick):
    verdicts = grade(build(define="CRASH_BIG_CAGES"), picked(quick, "valid/codingame-easy", "valid/rule4-trap-1"),
                     jail)
    assert verdicts["valid/codingame-easy"].verdict == "OK"
    assert (verdicts["valid/rule4-trap-1"].verdict, verdicts["valid/rule4-trap-1"].diagnosis) == ("CRASH", "SIGSEGV")
