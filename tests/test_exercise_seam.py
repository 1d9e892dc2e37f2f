"""The exercise seam end to end: `grade --exercise NAME`, `--list-exercises`, the JSON and
HTML reports of another exercise, `--cases` with its input files, `fillit-gen --exercise`,
`fillit-ref --exercise`, `pytest --fillit-exercise`, and fillit as the default exercise.

The exercise graded here is Shikaku (exercises/shikaku), with its C solver built correct
and with one defect (tests/shikaku_targets/solver.c), input on standard input.
"""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from exercises.shikaku.solver import answer_text
from exercises.shikaku.valid import SEED_EXAMPLE
from harness.grading.exercise import DEFAULT_EXERCISE, exercise_named, registered_exercises
from harness.grading.scoring import score
from conftest import grade_in

@pytest.fixture(scope="module")
def graded_wrong(shikaku_solver, tmp_path_factory):
    """The solver that stops at the first solution, graded on the quick suite with every report."""
    folder = tmp_path_factory.mktemp("seam-wrong")
    proc = grade_in(folder, "--exercise", "shikaku", str(shikaku_solver("BUG_FIRST_ONLY")), "--suite", "quick",
                    "--json", "report.json", "--html", "report.html", "--junit", "junit.xml", "--color", "never")
    return folder, proc


def test_every_exercise_is_registered_and_well_formed():
    exercises = registered_exercises()
    assert {"fillit", "shikaku"} <= set(exercises)
    assert DEFAULT_EXERCISE == "fillit"
    for name, exercise in exercises.items():
        assert exercise.name == name
        assert {"quick", "standard", "full"} <= set(exercise.suites), name  # fillit-gen's suite names
        assert Path(__file__).resolve().parents[1].joinpath(exercise.spec).is_file(), exercise.spec
        assert exercise.weights and all(weight >= 0 for weight in exercise.weights.values())
        quick = exercise.suite("quick")
        assert quick and len({case.id for case in quick}) == len(quick)
        assert exercise.suite("quick") == quick  # same seed, same cases


def test_list_exercises(tmp_path: Path):
    proc = grade_in(tmp_path, "--list-exercises")
    assert proc.returncode == 0, proc.stderr
    names = [line.split()[0] for line in proc.stdout.splitlines() if not line.startswith(" ")]
    assert {"fillit", "shikaku"} <= set(names)
    assert "invocation: stdin" in proc.stdout and "docs/exercises/shikaku.md" in proc.stdout


def test_an_unknown_exercise_is_one_line_and_exit_2(tmp_path: Path):
    proc = grade_in(tmp_path, "--exercise", "sudokuu", "/bin/true")
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1 and "no exercise 'sudokuu'" in proc.stderr and "shikaku" in proc.stderr
    assert "Traceback" not in proc.stderr
    suite = grade_in(tmp_path, "--exercise", "shikaku", "--suite", "huge", "/bin/true")
    assert suite.returncode == 2 and "shikaku has the suites" in suite.stderr


def test_a_correct_solver_scores_100_reading_standard_input(shikaku_solver, tmp_path: Path):
    proc = grade_in(tmp_path, "--exercise", "shikaku", str(shikaku_solver()), "--suite", "quick",
                    "--json", "report.json", "-q")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    report = json.loads((tmp_path / "report.json").read_text())
    assert (report["exercise"], report["score"], report["failed"]) == ("shikaku", 100.0, 0)
    assert report["seed"] == exercise_named("shikaku").fixed_seed
    assert {case["verdict"] for case in report["cases"]} <= {"OK", "DISPUTED"}


def test_a_wrong_solver_gets_the_exercise_s_diagnoses_and_weights(graded_wrong):
    folder, proc = graded_wrong
    assert proc.returncode == 1, proc.stderr
    report = json.loads((folder / "report.json").read_text())
    wrong = [case for case in report["cases"] if not case["passed"]]
    assert wrong and {case["diagnosis"] for case in wrong} == {"wrong_count"}
    for case in wrong:
        assert case["details"]["actual"] == 1 and int(case["expected"].split("\n")[0]) >= 2
    # The score is the exercise's weighting of these verdicts, not fillit's.
    shikaku = exercise_named("shikaku")
    by_category: dict[str, list[bool]] = {}
    for case in report["cases"]:
        by_category.setdefault(case["category"], []).append(case["passed"])
    weights = {c: shikaku.weights.get(c, 5.0) for c in by_category}
    expected = sum(weights[c] * sum(p) / len(p) for c, p in by_category.items()) / sum(weights.values()) * 100
    assert report["score"] == round(expected, 1)
    assert "shikaku" in (folder / "junit.xml").read_text()


def test_the_rerun_and_input_commands_name_the_exercise(graded_wrong, tmp_path: Path):
    folder, _ = graded_wrong
    html = (folder / "report.html").read_text()
    report = json.loads((folder / "report.json").read_text())
    case = next(case for case in report["cases"] if not case["passed"])
    assert f"--exercise shikaku --suite quick -k {case['id']}" in html
    assert "./solver &lt; input.txt" in html
    # The input command in the report writes exactly the case's input.
    gen = subprocess.run([sys.executable, "-m", "frontends.gen", "--exercise", "shikaku", "case", case["id"],
                          "--suite", "quick"], capture_output=True, cwd=tmp_path, timeout=120)
    assert gen.returncode == 0, gen.stderr
    assert gen.stdout.decode() == case["input"]
    ref = subprocess.run([sys.executable, "-m", "frontends.ref", "--exercise", "shikaku", "-"], input=gen.stdout,
                         capture_output=True, timeout=120)
    assert ref.returncode == 0 and ref.stdout.decode() == case["expected"]


def test_the_html_report_draws_the_puzzle_in_a_browser(graded_wrong, tmp_path: Path):
    from browser import page_text

    folder, _ = graded_wrong
    report = json.loads((folder / "report.json").read_text())
    case = next(case for case in report["cases"] if not case["passed"])
    drawn = exercise_named("shikaku").render.input_lines(case["input"].encode())
    text = page_text(folder / "report.html", tmp_path / "profile")
    assert all(line in text for line in drawn if line.strip()), drawn
    assert case["message"].split(":")[0] in text


def test_own_files_use_the_exercise_s_suffix_and_reference(shikaku_solver, tmp_path: Path):
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "seed.txt").write_bytes(SEED_EXAMPLE)
    (mine / "told.txt").write_bytes(SEED_EXAMPLE)
    (mine / "told.expected").write_text("42\n")
    (mine / "ignored.fillit").write_text("not a shikaku input\n")
    proc = grade_in(tmp_path, "--exercise", "shikaku", str(shikaku_solver()), "--suite", "none",
                    "--cases", "mine", "--json", "report.json", "-q")
    report = json.loads((tmp_path / "report.json").read_text())
    cases = {case["id"]: case for case in report["cases"]}
    assert set(cases) == {"own/seed", "own/told"}
    assert cases["own/seed"]["expected"] == answer_text(SEED_EXAMPLE) and cases["own/seed"]["passed"]
    assert cases["own/told"]["expected"] == "42\n" and not cases["own/told"]["passed"]
    assert proc.returncode == 1


def test_the_pytest_plugin_grades_another_exercise(shikaku_solver, tmp_path: Path):
    proc = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "-n", "0",
                           f"--fillit={shikaku_solver('BUG_FIRST_ONLY')}", "--fillit-exercise", "shikaku",
                           "--fillit-suite", "quick", "-k", "valid"], capture_output=True, text=True, cwd=tmp_path,
                          timeout=300)
    assert proc.returncode == 1, proc.stdout[-3000:]
    assert "wrong_count" in proc.stdout and " passed" in proc.stdout and " failed" in proc.stdout
    bad = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "-n", "0",
                          "--fillit=/bin/true", "--fillit-exercise", "nope"], capture_output=True, text=True,
                         cwd=tmp_path, timeout=120)
    assert bad.returncode == 4 and "--fillit-exercise: no exercise 'nope'" in bad.stderr


def test_fillit_stays_the_default_exercise(tmp_path: Path):
    fillit = exercise_named()
    assert fillit.name == "fillit" and fillit.invocation == "file" and fillit.input_name == "input.fillit"
    proc = grade_in(tmp_path, "--suite", "quick", "--collect-only", "-q")
    explicit = grade_in(tmp_path, "--exercise", "fillit", "--suite", "quick", "--collect-only", "-q")
    assert proc.returncode == explicit.returncode == 0
    assert proc.stdout == explicit.stdout and "valid/" in proc.stdout


def test_partial_credit_counts_in_the_score():
    from generators.cases import Case
    from harness.grading.model import CaseResult, Verdict

    def result(case_id: str, verdict: Verdict) -> CaseResult:
        case = Case(case_id, "valid", b"x", "y\n")
        return CaseResult(case, verdict, "", "", 0.0, 0.0, 0, 0, None, "jail", 1.0)

    half = Verdict("WRONG", "partial", "matched 20/40 edges", credit=0.5)
    results = [result("valid/a", Verdict("OK", None, "")), result("valid/b", half)]
    assert score(results, {"valid": 1.0}) == 75.0
    assert Verdict.from_dict(half.to_dict()) == half
