"""`grade --exercise NAME --fuzz N` for the exercises other than fillit (harness/fuzz.py
through the exercise seam): a wrong Shikaku solver is found and its failing puzzle shrunk,
reported with the exercise's name and the reference's answer; the correct solver passes;
an exercise without fuzz_inputs is refused (exit 2, one line); a Killer Sudoku solver that
trusts its input is found on the smallest input there is.

The solvers are real C programs (tests/shikaku_targets/solver.c, tests/killer_sudoku_targets/
solver.c) built with gcc, run jailed with the input on standard input."""
from __future__ import annotations

import dataclasses
import json
import re
import shlex
from pathlib import Path

import pytest

import harness.grading.exercise as seam
from conftest import grade_in
from exercises.killer_sudoku.solver import reference as killer_reference
from exercises.shikaku.solver import answer_text
from frontends.grade import main as grade_main
from harness.fuzz import CannotFuzz, database_folder, fuzz
from harness.grading.exercise import exercise_named
from harness.grading.model import GradeReport
from harness.grading.settings import GradeSettings
from harness.limits import Limits
from reports.describe import describe_failure
from reports.reproduce import input_source, rerun_command, rerun_failed_command

KILLER = Path(__file__).resolve().parent / "killer_sudoku_targets" / "solver.c"
FLAGS = ("-O2", "-Wall", "-Wextra", "-Werror")


@pytest.mark.slow  # (fuzz runs: left out of the fast loop)
def test_a_wrong_shikaku_solver_is_found_and_shrunk(shikaku_solver, tmp_path):
    program = shikaku_solver("BUG_FIRST_ONLY")  # counts 1 solution when there are more
    proc = grade_in(tmp_path, str(program), "--exercise", "shikaku", "--fuzz", "100", "--seed", "1",
                    "--timeout", "1", "--json", "fuzz.json", "--fuzz-db", "db")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    report = json.loads((tmp_path / "fuzz.json").read_text())
    assert report["exercise"] == "shikaku" and report["suite"] == "fuzz" and report["failed"] == 1
    [case] = report["cases"]
    data = case["input"].encode()
    assert case["category"] == "fuzz" and (case["verdict"], case["diagnosis"]) == ("WRONG", "wrong_count")
    # Expected is Shikaku's reference answer (not fillit's "error"): a puzzle of 2+ solutions.
    assert case["expected"] == answer_text(data) and int(case["expected"].split("\n")[0]) >= 2
    assert case["details"] == {"actual": 1, "expected": int(case["expected"].split("\n")[0])}
    # Shrunk: hypothesis ran candidates after the first failure, and the case reported is
    # one of them (run numbers go on counting while shrinking), no larger than the first.
    found = re.search(r"the file run #(\d+) failed; shrunk in (\d+) run\(s\)", proc.stdout)
    assert found and int(found[2]) > 0, proc.stdout
    assert int(case["id"].split("/")[1]) > int(found[1])
    # Described as a puzzle, and the rerun line is the command with --exercise.
    assert re.search(r"case fuzz/\d+: \d+x\d+ puzzle, \d+ clue\(s\)", proc.stdout), proc.stdout
    rerun = shlex.join([str(program), "--exercise", "shikaku", "--fuzz", "100", "--seed", "1", "--fuzz-db", "db",
                        "--timeout", "1"])
    assert f"rerun: grade {rerun} (replays it first" in proc.stdout
    # Its example database is Shikaku's for this target, not fillit's.
    target = str(program.resolve())
    assert any(database_folder(tmp_path / "db", target, "shikaku").iterdir())
    assert not database_folder(tmp_path / "db", target, "fillit").exists()
    # The rerun replays the saved puzzle first, whatever the seed.
    again = grade_in(tmp_path, str(program), "--exercise", "shikaku", "--fuzz", "100", "--seed", "2",
                     "--timeout", "1", "--fuzz-db", "db", "-q")
    assert again.returncode == 1 and "the file run #1 failed" in again.stdout, again.stdout + again.stderr


@pytest.mark.slow  # (fuzz runs: left out of the fast loop)
def test_the_correct_shikaku_solver_passes(shikaku_solver, tmp_path):
    proc = grade_in(tmp_path, str(shikaku_solver()), "--exercise", "shikaku", "--fuzz", "12", "--seed", "3",
                    "--timeout", "1", "--json", "fuzz.json", "--fuzz-db", "db")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "no disagreement with the reference" in proc.stdout
    assert "fuzzing" in proc.stderr and "(shikaku)" in proc.stderr
    report = json.loads((tmp_path / "fuzz.json").read_text())
    assert report["exercise"] == "shikaku" and report["cases"] == [] and report["score"] == 100


def test_an_exercise_without_fuzz_inputs_is_refused(shikaku_solver, monkeypatch, capsys, tmp_path):
    no_fuzz = dataclasses.replace(exercise_named("shikaku"), name="no-fuzz", fuzz_inputs=None)
    installed = seam.registered_exercises()
    monkeypatch.setattr(seam, "registered_exercises", lambda: {**installed, no_fuzz.name: no_fuzz})
    monkeypatch.chdir(tmp_path)
    status = grade_main([str(shikaku_solver()), "--exercise", "no-fuzz", "--fuzz", "5"])
    captured = capsys.readouterr()
    assert status == 2 and captured.out == ""
    assert captured.err.count("\n") == 1 and captured.err.startswith("grade: error: --fuzz: no-fuzz cannot be fuzzed")
    assert not (tmp_path / ".fillit-fuzz-db").exists()
    with pytest.raises(CannotFuzz):
        fuzz(shikaku_solver(), 5, exercise=no_fuzz, database=None)


@pytest.mark.slow  # (fuzz runs: left out of the fast loop)
def test_a_killer_sudoku_solver_trusting_its_input(build_c):
    exercise = exercise_named("killer-sudoku")
    program = build_c(KILLER, flags=(*FLAGS, "-DTRUST_INPUT"), name="fuzz-killer-trust")
    result = fuzz(program, 30, seed=3, database=None, timeout=1, exercise=exercise)
    assert result.failed and result.exercise == "killer-sudoku"
    minimal = result.minimal
    assert (minimal.verdict.verdict, minimal.verdict.diagnosis) == ("WRONG", "missed_error")
    assert minimal.case.expected == killer_reference(minimal.case.input) == "error\n"
    # It prints nothing on any invalid input: hypothesis shrinks to the empty one.
    assert minimal.case.input == b""
    assert "invalid input, 0 bytes: the input is empty" in describe_failure(minimal, exercise)


def test_fuzz_report_commands_name_the_exercise():
    def report(exercise: str) -> GradeReport:
        settings = GradeSettings(exercise=exercise, suite="fuzz", seed=9, fuzz=50, fuzz_db="db", profile="strict")
        return GradeReport(target="./solver", suite="fuzz", seed=9, profile="strict", limits=Limits(), isolation="",
                           results=[], settings=settings, exercise=exercise)

    case = exercise_named("shikaku").case_of_fuzz_input(b"1 1\n1\n", 4)
    assert (case.id, case.category, case.expected) == ("fuzz/4", "fuzz", answer_text(b"1 1\n1\n"))
    shikaku_run = report("shikaku")
    command = "grade ./solver --exercise shikaku --fuzz 50 --seed 9 --fuzz-db db --profile strict"
    assert rerun_command(shikaku_run, case) == command == rerun_failed_command(shikaku_run)
    assert input_source(shikaku_run, case) is None  # the input is in the report
    assert rerun_command(report("fillit"), case) == "grade ./solver --fuzz 50 --seed 9 --fuzz-db db --profile strict"
    # A folder per exercise and target.
    folders = {database_folder(Path("db"), "/x/solver", name) for name in ("fillit", "shikaku", "killer-sudoku")}
    assert len(folders) == 3 and database_folder(Path("db"), "/y/solver", "shikaku") not in folders
