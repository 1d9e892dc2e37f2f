"""Differential fuzzing (harness/fuzz.py, `grade --fuzz N`): finds a solver that is wrong
only on some inputs, shrinks to a minimal file, replays it from the database, and finds
nothing against correct solvers."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, find, settings

from generators.fuzz_inputs import fuzz_case, fuzz_inputs
from harness.fuzz import database_folder, fuzz
from reports.describe import side_by_side, visible
from reference.parser import parse
from reference.shapes import SHAPE_BY_NAME
from reference.solver import solve_text

pytestmark = pytest.mark.slow  # (the fast loop: pytest -m "not slow", README's Development)

HERE = Path(__file__).parent
SOLVER = HERE / "fuzz_targets" / "solver.c"
ZOO_BASE = HERE / "zoo" / "base.c"
S_SHAPES = {SHAPE_BY_NAME["S_horizontal"], SHAPE_BY_NAME["S_vertical"]}



def assert_minimal_s_failure(result) -> None:
    assert result.failed, "the S-piece mutant was not found"
    minimal = result.minimal
    pieces = parse(minimal.case.input).pieces
    # The bug needs 3 pieces and an S: the shrunk file is exactly that, nothing more.
    assert len(pieces) == 3, minimal.case.input
    s_indexes = [i for i, shape in enumerate(pieces) if shape in S_SHAPES]
    assert s_indexes, minimal.case.input
    assert (minimal.verdict.verdict, minimal.verdict.diagnosis) == ("WRONG", "bad_pieces")
    letter = chr(ord("A") + s_indexes[0])
    assert minimal.verdict.details["missing"] == [letter]
    assert minimal.verdict.details["extra"] == [letter.lower()]
    assert minimal.case.expected == solve_text(minimal.case.input)
    assert letter.lower() in minimal.actual and letter not in minimal.actual
    # Shrinking never makes it bigger than the file first found.
    assert len(minimal.case.input) <= len(result.first_failure.case.input)


def test_finds_and_shrinks_a_bug_on_some_inputs_only(s_piece_mutant, tmp_path):
    result = fuzz(s_piece_mutant, 300, seed=7, database=tmp_path / "db")
    assert_minimal_s_failure(result)
    assert result.first_failure_at is not None and result.first_failure_at <= result.examples_run
    assert not result.shrink_budget_exhausted


@pytest.mark.parametrize("source", [SOLVER, ZOO_BASE], ids=["fuzz_targets-solver", "zoo-base"])
def test_correct_solver_disagrees_on_nothing(build_c, source, tmp_path):
    if not source.exists():
        pytest.skip(f"{source} is not there")
    program = build_c(source, name=f"correct_{source.stem}")
    result = fuzz(program, 60, seed=5, database=tmp_path / "db")
    assert result.failures == [], result.minimal and result.minimal.verdict
    # Hypothesis may draw a file twice (run once): most of the 60 must be distinct runs.
    assert result.examples_run >= 40


def test_database_replays_the_failure_first(s_piece_mutant, tmp_path):
    db = tmp_path / "db"
    first = fuzz(s_piece_mutant, 300, seed=21, database=db)
    assert first.failed and first.first_failure_at > 1
    assert any(database_folder(db, first.target).iterdir())
    # Another seed, same database: the saved minimal file is the very first file run.
    again = fuzz(s_piece_mutant, 300, seed=22, database=db)
    assert again.first_failure_at == 1 and again.examples_run == 1
    assert again.minimal.case.input == first.minimal.case.input
    # The database is per target: another target path does not replay it.
    other = fuzz(s_piece_mutant, 300, seed=22, database=db, key="/some/other/fillit")
    assert other.failed and other.first_failure_at > 1


def test_same_seed_same_run(s_piece_mutant):
    one = fuzz(s_piece_mutant, 300, seed=33, database=None)
    two = fuzz(s_piece_mutant, 300, seed=33, database=None)
    assert one.failed and two.failed
    assert one.first_failure_at == two.first_failure_at
    assert one.first_failure.case.input == two.first_failure.case.input
    assert one.minimal.case.input == two.minimal.case.input


def test_shrink_budget_keeps_the_best_so_far(s_piece_mutant, tmp_path):
    # Seed 10 first fails on a file of many pieces.
    result = fuzz(s_piece_mutant, 300, seed=10, database=tmp_path / "db", shrink_budget_s=0.0)
    assert result.failed and result.shrink_budget_exhausted
    assert result.shrink_runs == 0
    # No candidate was run after the first failure: the first failing file is the answer.
    assert result.minimal.case.input == result.first_failure.case.input
    assert len(parse(result.minimal.case.input).pieces) > 3
    # Stopping hypothesis early leaves it usable, and the file was saved: a full run
    # replays it first and shrinks it to the minimal one.
    full = fuzz(s_piece_mutant, 300, seed=12, database=tmp_path / "db")
    assert full.first_failure_at == 1
    assert full.first_failure.case.input == result.minimal.case.input
    assert_minimal_s_failure(full)


def test_fuzz_inputs_reach_every_kind_of_file():
    fast = settings(max_examples=2000, database=None, deadline=None, phases=[Phase.generate],
                    suppress_health_check=list(HealthCheck))
    big = find(fuzz_inputs(), lambda d: parse(d).valid and len(parse(d).pieces) >= 20, settings=fast)
    assert len(parse(big).pieces) >= 20
    disputed = find(fuzz_inputs(), lambda d: bool(parse(d).disputed), settings=fast)
    assert parse(disputed).rejection.rule == "trailing_empty_line"
    crlf = find(fuzz_inputs(), lambda d: b"\r" in d, settings=fast)
    assert parse(crlf).rejection is not None


def test_fuzz_case_honours_the_disputed_rule():
    data = b"#...\n#...\n#...\n#...\n\n"
    case = fuzz_case(data, 7)
    assert case.id == "fuzz/7" and case.category == "fuzz"
    assert case.expected == "error\n"
    assert case.disputed == "trailing_empty_line"
    assert case.accepted == ("A...\nA...\nA...\nA...\n",)
    assert fuzz_case(data[:-1], 8).disputed is None


def test_text_helpers_show_invisible_characters():
    assert visible("AB\r\nC") == ["AB^M$", "C"]
    assert visible("") == []
    table = side_by_side("AA\nAA\n", "AA\nAa\n")
    rows = table.splitlines()
    assert rows[1].startswith("  AA$") and rows[2].startswith("! AA$") and rows[2].endswith("Aa$")


def grade(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "frontends.grade", *args], capture_output=True, text=True,
                          cwd=cwd, timeout=300)


def test_cli_fuzz_prints_and_reports_the_minimal_file(s_piece_mutant, tmp_path):
    proc = grade(str(s_piece_mutant), "--fuzz", "300", "--seed", "4", "--json", "fuzz.json", "-q", cwd=tmp_path)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    out = proc.stdout
    assert "DISAGREEMENT" in out and "diagnosis: WRONG bad_pieces" in out
    assert "seed 4" in out and "expected" in out and "actual" in out
    report = json.loads((tmp_path / "fuzz.json").read_text())
    assert report["suite"] == "fuzz" and report["failed"] == 1 and report["passed"] == 0
    [case] = report["cases"]
    assert case["verdict"] == "WRONG" and case["diagnosis"] == "bad_pieces"
    data = case["input"].encode()
    assert len(parse(data).pieces) == 3
    # The minimal file is printed as text, line by line ('$' at each line end).
    for line in data.decode().split("\n")[:-1]:
        assert f"    {line}$" in out
    # Its database sits in the current folder, and hypothesis leaves no .hypothesis there.
    assert (tmp_path / ".fillit-fuzz-db").is_dir() and not (tmp_path / ".hypothesis").exists()
    replay = grade(str(s_piece_mutant), "--fuzz", "300", "--seed", "12", "-q", cwd=tmp_path)
    assert replay.returncode == 1 and "the file run #1 failed" in replay.stdout


def test_cli_fuzz_passes_a_correct_solver(s_piece_solver, tmp_path):
    proc = grade(str(s_piece_solver), "--fuzz", "40", "--seed", "3", "--json", "fuzz.json",
                 "--fuzz-db", str(tmp_path / "db"), cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "no disagreement" in proc.stdout
    report = json.loads((tmp_path / "fuzz.json").read_text())
    assert report["suite"] == "fuzz" and report["cases"] == [] and report["failed"] == 0
    assert (tmp_path / "db").is_dir()


def test_summary_says_why_fewer_files_ran_than_asked(s_piece_solver, tmp_path):
    from hypothesis import strategies as st

    from frontends.fuzz import summary

    files = [b"##..\n##..\n....\n....\n", b"#...\n#...\n#...\n#...\n"]
    result = fuzz(s_piece_solver, 20, seed=1, database=None, strategy=st.sampled_from(files))
    assert not result.failed and result.examples_run == 2
    text = summary(result, "./fillit")
    assert "no disagreement with the reference in 2 distinct file(s) (20 asked: " in text
    assert f"hypothesis stopped after {2 + result.repeats} draw(s)" in text


def test_cli_fuzz_says_where_its_database_is(s_piece_solver, tmp_path):
    proc = grade(str(s_piece_solver), "--fuzz", "5", "--seed", "3", cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    folder = database_folder(Path(".fillit-fuzz-db"), str(Path(s_piece_solver).resolve()))
    assert f"example database {folder} (a failing file is kept there and replayed first" in proc.stderr
    assert "example database .fillit-fuzz-db," in proc.stdout
