"""`fillit-gen` through its console script, as users and CI call it."""
from __future__ import annotations

import filecmp
import json
import subprocess
import sys
from pathlib import Path

import pytest

from generators.invalid import INVALID_CATEGORIES, invalid_file
from generators.valid import VALID_FAMILIES
from reference.parser import parse

_SCRIPT = Path(sys.executable).parent / "fillit-gen"
COMMAND = [str(_SCRIPT)] if _SCRIPT.exists() else [sys.executable, "-m", "frontends.gen"]


def run(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([*COMMAND, *args], capture_output=True, timeout=600, cwd=cwd)


def test_list_names_every_category_and_family():
    result = run("--list")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.decode().splitlines()
    names = {line.split()[1]: line.split()[0] for line in lines}
    assert sum(kind == "invalid" for kind in names.values()) >= 20
    assert set(INVALID_CATEGORIES) <= set(names)
    assert names["trailing_empty_line_single"] == "disputed"
    assert {name for name, kind in names.items() if kind == "valid"} == set(VALID_FAMILIES)
    assert len(lines) == len(names)  # one line each


@pytest.mark.parametrize("args", [
    ["--pieces", "0"],
    ["--pieces", "27"],
    ["--invalid", "no_such_category"],
    ["--hard", "no_such_family"],
    ["--shapes", "O,no_such_shape"],
    ["--no-such-option"],
    ["--invalid", "crlf", "--pieces", "3"],
    ["--pieces", "3", "-o", "/nonexistent-dir/out.fillit"],
    ["--pieces", "5", "--shapes", "O", "--family", "greedy"],
    ["corpus"],
])
def test_bad_options_exit_2_with_one_line(args):
    result = run(*args)
    assert result.returncode == 2
    stderr = result.stderr.decode()
    assert len(stderr.splitlines()) == 1, stderr
    assert "Traceback" not in stderr and result.stdout == b""


def test_valid_file_to_stdout_and_to_a_path(tmp_path):
    first = run("--pieces", "7", "--seed", "11")
    assert first.returncode == 0
    parsed = parse(first.stdout)
    assert parsed.valid and len(parsed.pieces) == 7
    assert run("--pieces", "7", "--seed", "11").stdout == first.stdout
    assert run("--pieces", "7", "--seed", "12").stdout != first.stdout
    out = tmp_path / "seven.fillit"
    assert run("--pieces", "7", "--seed", "11", "-o", str(out)).returncode == 0
    assert out.read_bytes() == first.stdout


def test_valid_file_with_shapes_and_family():
    result = run("--pieces", "9", "--seed", "2", "--shapes", "O,I_vertical", "--family", "greedy")
    parsed = parse(result.stdout)
    assert parsed.valid and {shape.name for shape in parsed.pieces} <= {"O", "I_vertical"}


def test_invalid_file():
    for category in ("bad_char_tab", "separator_missing", "trailing_empty_line_single"):
        result = run("--invalid", category, "--seed", "4")
        assert result.returncode == 0
        assert result.stdout == invalid_file(category, 4)
        assert parse(result.stdout).rejection.rule == INVALID_CATEGORIES[category].rule


def test_corpus_writes_manifest_inputs_and_expected(tmp_path):
    result = run("corpus", str(tmp_path / "quick"), "--suite", "quick")
    assert result.returncode == 0, result.stderr
    manifest = json.loads((tmp_path / "quick" / "manifest.json").read_text())
    assert manifest["suite"] == "quick" and manifest["count"] == len(manifest["cases"]) >= 25
    for entry in manifest["cases"]:
        assert set(entry) >= {"id", "category", "invocation", "rule", "disputed", "expected", "input"}
        expected = (tmp_path / "quick" / entry["expected"]).read_text()
        if entry["input"] is not None:
            data = (tmp_path / "quick" / entry["input"]).read_bytes()
            if entry["category"] == "invalid":
                assert expected == "error\n" and parse(data).rejection.rule == entry["rule"]
        else:
            assert entry["invocation"] in ("no_args", "missing_file", "empty_path", "directory")


@pytest.mark.slow
def test_standard_corpus_folder_is_byte_identical_across_runs(tmp_path):
    for name in ("one", "two"):
        result = run("corpus", str(tmp_path / name))
        assert result.returncode == 0, result.stderr
    files = sorted(path.name for path in (tmp_path / "one").iterdir())
    assert len(files) > 600 and files == sorted(path.name for path in (tmp_path / "two").iterdir())
    match, mismatch, errors = filecmp.cmpfiles(tmp_path / "one", tmp_path / "two", files, shallow=False)
    assert not mismatch and not errors
    assert json.loads((tmp_path / "one" / "manifest.json").read_text())["count"] >= 300


def test_seed_before_the_subcommand(tmp_path):
    assert run("--seed", "3", "corpus", str(tmp_path / "a"), "--suite", "quick").returncode == 0
    assert run("corpus", str(tmp_path / "b"), "--suite", "quick", "--seed", "3").returncode == 0
    assert (tmp_path / "a" / "manifest.json").read_bytes() == (tmp_path / "b" / "manifest.json").read_bytes()


def test_hard_family_when_available():
    from generators.corpus import hard_families

    families = hard_families()
    if not families:
        pytest.skip("generators/hard.py does not exist yet")
    listed = run("--list").stdout.decode().splitlines()
    assert {line.split()[1] for line in listed if line.split()[0] == "hard"} == set(families)
    name = next(iter(families))
    first = run("--hard", name, "--seed", "5")
    assert first.returncode == 0 and parse(first.stdout).valid
    assert run("--hard", name, "--seed", "5").stdout == first.stdout


# --------------------------------------------------------------------------- fillit-gen case

@pytest.mark.slow
def test_case_writes_the_input_of_a_graded_case(tmp_path):
    from harness.grading.suites import load_suite

    quick = {case.id: case for case in load_suite("quick")}
    # The cheapest suite holding the id is found without --suite; -o writes a file.
    result = run("case", "invalid/crlf-1")
    assert result.returncode == 0, result.stderr
    assert result.stdout == quick["invalid/crlf-1"].input
    assert run("case", "valid/seed-sample", "--suite", "standard", "-o", str(tmp_path / "s.fillit")).returncode == 0
    assert (tmp_path / "s.fillit").read_bytes() == quick["valid/seed-sample"].input
    # Another seed, other bytes: the same as the suite's with that seed.
    seeded = run("case", "valid/greedy-10-1", "--suite", "quick", "--seed", "7")
    assert seeded.stdout == next(c.input for c in load_suite("quick", 7) if c.id == "valid/greedy-10-1")
    assert seeded.stdout != quick["valid/greedy-10-1"].input


@pytest.mark.parametrize("args, fragment", [
    (["case", "valid/no-such-case", "--suite", "quick"], "no case 'valid/no-such-case' in suite quick"),
    (["case", "usage/no-args", "--suite", "quick"], "runs without an input file"),
    (["case", "own/mine"], "one of your own files"),
])
def test_case_refuses_with_one_line(args, fragment):
    result = run(*args)
    assert result.returncode == 2
    assert result.stdout == b"" and fragment in result.stderr.decode() and result.stderr.count(b"\n") == 1
