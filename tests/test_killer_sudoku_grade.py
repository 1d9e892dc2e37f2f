"""Killer Sudoku end to end: `grade --exercise killer-sudoku` on real C solvers
(tests/killer_sudoku_targets), input on standard input: the exit status, the score, the
verdicts and diagnoses of the JSON report, and the HTML report drawing the puzzle in a
headless browser. Quick suite only (the standard suite is graded case by case in
tests/test_killer_sudoku_solvers.py)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from exercises.killer_sudoku import EXERCISE, WEIGHTS
from harness.grading.scoring import DEFAULT_WEIGHT
from conftest import grade_in

TARGETS = Path(__file__).resolve().parent / "killer_sudoku_targets"
FLAGS = ("-O2", "-Wall", "-Wextra", "-Werror")


@pytest.fixture(scope="module")
def build(build_c):
    def built(source: str = "solver.c", define: str | None = None) -> Path:
        flags = (*FLAGS, f"-D{define}") if define else FLAGS
        return build_c(TARGETS / source, flags=flags, name=f"ks-grade-{Path(source).stem}-{define or 'plain'}".lower())
    return built


@pytest.fixture(scope="module")
def seed_graded(build, tmp_path_factory):
    """The seed's program as written (no rule 4, no input checks, plain search), graded on
    the quick suite with the JSON and HTML reports."""
    folder = tmp_path_factory.mktemp("ks-seed")
    proc = grade_in(folder, "--exercise", "killer-sudoku", str(build("seed_plain.c")), "--suite", "quick",
                    "--timeout", "2", "--json", "report.json", "--html", "report.html", "--color", "never")
    return folder, proc, json.loads((folder / "report.json").read_text())


def test_the_correct_solver_scores_100(build, tmp_path: Path):
    proc = grade_in(tmp_path, "--exercise", "killer-sudoku", str(build()), "--suite", "quick",
                    "--json", "report.json", "-q")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    report = json.loads((tmp_path / "report.json").read_text())
    assert (report["exercise"], report["score"], report["failed"]) == ("killer-sudoku", 100.0, 0)
    assert report["seed"] == EXERCISE.fixed_seed
    assert len(report["cases"]) == len(EXERCISE.suite("quick"))
    assert {case["verdict"] for case in report["cases"]} == {"OK"}


def test_the_seed_as_written_gets_the_expected_verdicts(seed_graded):
    _, proc, report = seed_graded
    assert proc.returncode == 1, proc.stdout[-2000:] + proc.stderr
    cases = {case["id"]: case for case in report["cases"]}
    for case_id in ("valid/codingame-easy", "valid/codingame-medium", "valid/codingame-hard", "valid/easy-1",
                    "valid/medium-1", "valid/layout-no-final-newline", "hard/sparse-1"):
        assert cases[case_id]["verdict"] == "OK", case_id
    trap = cases["valid/rule4-trap-1"]
    assert (trap["verdict"], trap["diagnosis"]) == ("WRONG", "bad_cage")
    assert "twice" in trap["message"] and trap["details"]["first_difference"]["row"] >= 1
    timeout = cases["hard/no-givens-1"]
    assert (timeout["verdict"], timeout["diagnosis"]) == ("TIMEOUT", "cpu")
    invalid = [case for case in report["cases"] if case["category"] == "invalid"]
    assert len(invalid) == 15 and {case["diagnosis"] for case in invalid} == {"missed_error"}
    assert all(case["expected"] == "error\n" for case in invalid)
    assert cases["invalid/bad_digit-1"]["details"]["rule"] == "bad_digit"


def test_the_score_is_the_exercise_s_weighting(seed_graded):
    _, _, report = seed_graded
    by_category: dict[str, list[bool]] = {}
    for case in report["cases"]:
        by_category.setdefault(case["category"], []).append(case["passed"])
    weights = {c: WEIGHTS.get(c, DEFAULT_WEIGHT) for c in by_category}
    expected = sum(weights[c] * sum(p) / len(p) for c, p in by_category.items()) / sum(weights.values()) * 100
    assert report["score"] == round(expected, 1)
    assert 0 < report["score"] < 75  # every invalid case lost, part of valid and hard


def test_a_spaced_grid_is_format_in_the_report(build, tmp_path: Path):
    proc = grade_in(tmp_path, "--exercise", "killer-sudoku", str(build(define="SPACED")), "--suite", "quick",
                    "-k", "valid/codingame-*", "--json", "report.json", "-q")
    assert proc.returncode == 1
    cases = json.loads((tmp_path / "report.json").read_text())["cases"]
    assert len(cases) == 3 and {(c["verdict"], c["diagnosis"]) for c in cases} == {("WRONG", "format")}
    assert all("spaces between digits" in case["message"] for case in cases)


def test_the_html_report_draws_the_puzzle_in_a_browser(seed_graded, tmp_path: Path):
    from browser import page_text

    folder, _, report = seed_graded
    trap = next(case for case in report["cases"] if case["id"] == "valid/rule4-trap-1")
    drawn = EXERCISE.render.input_lines(trap["input"].encode())
    assert drawn[0].count("|") == 4 and any(line.startswith("sums: ") for line in drawn)
    text = page_text(folder / "report.html", tmp_path / "profile")
    assert all(line in text for line in drawn), drawn
    assert all(line in text for line in EXERCISE.render.answer_lines(trap["expected"]))
    assert trap["message"].split(" (")[0] in text
