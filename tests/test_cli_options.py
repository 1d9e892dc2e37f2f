"""`grade`'s newcomer options, run for real: --version everywhere, --help naming `grade batch`,
--collect-only, --cases DIR (with and without NAME.expected), --lf, --save-inputs."""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
from importlib.metadata import version
from pathlib import Path

import pytest

from conftest import grade_in
from generators.corpus import SEED_SAMPLE, case_filename
from harness.grading.last_failed import CACHE_DIR, LAST_FAILED_FILE
from harness.grading.suites import load_suite
from reference.solver import solve_text

QUICK = load_suite("quick")
VERSION = version("fillit-moulinette")
BAD_CHAR = b"....\n.##.\n.#x.\n....\n"
TWO_PIECES = b"##..\n##..\n....\n....\n\n#...\n#...\n#...\n#...\n"


def run_module(module: str, *args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", module, *args], capture_output=True, text=True, cwd=cwd,
                          timeout=120)


@pytest.mark.parametrize("module, args, prog", [
    ("frontends.grade", [], "grade"),
    ("frontends.grade", ["batch"], "grade batch"),
    ("frontends.gen", [], "fillit-gen"),
    ("frontends.ref", [], "fillit-ref"),
])
def test_every_command_has_version(module, args, prog):
    proc = run_module(module, *args, "--version")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == f"{prog} (fillit-moulinette) {VERSION}\n"


def test_grade_help_names_grade_batch_and_the_new_options():
    proc = run_module("frontends.grade", "--help")
    assert proc.returncode == 0
    for text in ("grade batch SUBMISSIONS_DIR", "--cases DIR", "--lf", "--collect-only", "--save-inputs",
                 "--color", "--version"):
        assert text in proc.stdout, text


@pytest.mark.slow
def test_collect_only_lists_the_selected_ids_without_a_target(tmp_path):
    proc = grade_in(tmp_path, "--suite", "quick", "--collect-only")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines() == [case.id for case in QUICK]
    invalid = grade_in(tmp_path, "--suite", "quick", "-k", "invalid", "--collect-only")
    assert invalid.stdout.splitlines() == [case.id for case in QUICK if case.category == "invalid"]
    exact = grade_in(tmp_path, "--suite", "quick", "-k", "valid/seed-sample", "--collect-only")
    assert exact.stdout.splitlines() == ["valid/seed-sample"]


def own_folder(folder: Path) -> Path:
    """Four files: a right .expected, a wrong one, an invalid file and a valid one without."""
    folder.mkdir()
    (folder / "sample.fillit").write_bytes(SEED_SAMPLE)
    (folder / "sample.expected").write_text("DDAA\nCDDA\nCCCA\nBBBB\n")
    (folder / "mistaken.fillit").write_bytes(TWO_PIECES)
    (folder / "mistaken.expected").write_text("AA\nAA\n")  # the student's expectation is wrong
    (folder / "bad.fillit").write_bytes(BAD_CHAR)
    (folder / "sub").mkdir()
    (folder / "sub" / "pair.fillit").write_bytes(TWO_PIECES)
    (folder / "notes.txt").write_text("not a case\n")
    return folder


def test_own_cases_with_and_without_expected(s_piece_solver, tmp_path):
    shutil.copy(s_piece_solver, tmp_path / "fillit")
    own_folder(tmp_path / "mine")
    proc = grade_in(tmp_path, "./fillit", "--suite", "none", "--cases", "mine", "--json", "r.json")
    assert proc.returncode == 1, proc.stdout + proc.stderr  # mistaken.expected is wrong
    cases = {case["id"]: case for case in json.loads((tmp_path / "r.json").read_text())["cases"]}
    assert sorted(cases) == ["own/bad", "own/mistaken", "own/sample", "own/sub/pair"]
    assert {case["category"] for case in cases.values()} == {"own"}
    # With NAME.expected: exactly that text.
    assert cases["own/sample"]["expected"] == "DDAA\nCDDA\nCCCA\nBBBB\n" and cases["own/sample"]["passed"]
    assert cases["own/mistaken"]["expected"] == "AA\nAA\n" and cases["own/mistaken"]["verdict"] == "WRONG"
    assert "the reference's answer differs" in cases["own/mistaken"]["description"]
    # Without: the reference's answer, error for an invalid file.
    assert cases["own/sub/pair"]["expected"] == solve_text(TWO_PIECES) and cases["own/sub/pair"]["passed"]
    assert cases["own/bad"]["expected"] == "error\n" and cases["own/bad"]["rule"] == "char"
    assert cases["own/bad"]["passed"]
    # Reported like suite cases: the terminal names the failing file and how to rerun it.
    assert "own/mistaken: WRONG" in proc.stdout
    assert "rerun it:           grade ./fillit --suite none --cases mine -k own/mistaken" in proc.stdout
    assert "input file:         mine/mistaken.fillit" in proc.stdout


def test_own_cases_combine_with_a_suite(tmp_path):
    own_folder(tmp_path / "mine")
    proc = grade_in(tmp_path, "--suite", "quick", "--cases", "mine", "--collect-only")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines() == [case.id for case in QUICK] + [
        "own/bad", "own/mistaken", "own/sample", "own/sub/pair"]


@pytest.mark.parametrize("args, fragment", [
    (["--suite", "none"], "add --cases DIR"),
    (["--cases", "nowhere"], "not a folder"),
    (["--cases", "empty"], "no *.fillit file"),
    (["--fuzz", "5", "--lf"], "cannot be combined with --lf"),
])
def test_case_options_refuse_with_one_line(s_piece_solver, tmp_path, args, fragment):
    shutil.copy(s_piece_solver, tmp_path / "fillit")
    (tmp_path / "empty").mkdir()
    proc = grade_in(tmp_path, "./fillit", *args)
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1 and proc.stderr.startswith("grade: error:") and fragment in proc.stderr


@pytest.mark.slow
def test_lf_reruns_only_the_last_failures(s_piece_mutant, s_piece_solver, tmp_path):
    shutil.copy(s_piece_mutant, tmp_path / "fillit")
    first = grade_in(tmp_path, "./fillit", "--suite", "quick", "--json", "first.json")
    assert first.returncode == 1
    failed = [c["id"] for c in json.loads((tmp_path / "first.json").read_text())["cases"] if not c["passed"]]
    assert failed
    cache = tmp_path / CACHE_DIR
    assert (cache / ".gitignore").read_text() == "*\n"
    assert json.loads((cache / LAST_FAILED_FILE).read_text())["targets"] == {
        str((tmp_path / "fillit").resolve()): sorted(failed)}
    listed = grade_in(tmp_path, "./fillit", "--suite", "quick", "--lf", "--collect-only")
    assert listed.stdout.splitlines() == failed
    assert f"rerunning the {len(failed)} case(s) that failed last time" in listed.stderr
    # The student fixes the bug: --lf runs those cases only, they pass, nothing is left.
    shutil.copy(s_piece_solver, tmp_path / "fillit")
    fixed = grade_in(tmp_path, "./fillit", "--suite", "quick", "--lf", "--json", "fixed.json")
    assert fixed.returncode == 0, fixed.stdout + fixed.stderr
    assert [c["id"] for c in json.loads((tmp_path / "fixed.json").read_text())["cases"]] == failed
    again = grade_in(tmp_path, "./fillit", "--suite", "quick", "--lf", "--collect-only")
    assert again.stdout.splitlines() == [case.id for case in QUICK]
    assert "no failure recorded" in again.stderr and "running every selected case" in again.stderr


def test_save_inputs_writes_every_case_input(tmp_path):
    proc = grade_in(tmp_path, "--suite", "quick", "--collect-only", "--save-inputs", "inputs")
    assert proc.returncode == 0, proc.stderr
    with_input = [case for case in QUICK if case.input is not None]
    assert f"wrote {len(with_input)} input file(s) to inputs" in proc.stderr
    assert sorted(p.name for p in (tmp_path / "inputs").iterdir()) == sorted(
        f"{case_filename(case.id)}.fillit" for case in with_input)
    for case in with_input:
        assert (tmp_path / "inputs" / f"{case_filename(case.id)}.fillit").read_bytes() == case.input
