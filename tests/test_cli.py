"""`grade` on bad input of its own: one clear line on stderr, exit 2, never a traceback."""
import os
import subprocess
import sys
from pathlib import Path

import pytest


def grade(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "harness.cli", *args], capture_output=True, text=True,
                          cwd=cwd, timeout=300)


def assert_one_line_error(proc: subprocess.CompletedProcess, fragment: str) -> None:
    assert proc.returncode == 2, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith("grade: error:") and fragment in lines[0]
    assert "Traceback" not in proc.stderr


def test_missing_target(tmp_path):
    assert_one_line_error(grade(str(tmp_path / "nope")), "does not exist")


def test_not_executable(tmp_path):
    target = tmp_path / "fillit"
    target.write_text("#!/bin/sh\necho hi\n")
    target.chmod(0o644)
    assert_one_line_error(grade(str(target)), "not executable")


@pytest.mark.parametrize("args, fragment", [
    (["--suite", "nope"], "nope"),
    (["--jobs", "0"], "0"),
    (["--timeout", "abc"], "abc"),
    (["--bogus"], "bogus"),
])
def test_bad_options(tmp_path, args, fragment):
    target = tmp_path / "fillit"
    target.write_text("#!/bin/sh\n")
    target.chmod(0o755)
    assert_one_line_error(grade(str(target), *args), fragment)


def test_no_arguments():
    proc = grade()
    assert proc.returncode == 2 and "Traceback" not in proc.stderr


@pytest.mark.parametrize("option", ["--json", "--html", "--junit"])
def test_unwritable_report_path(tmp_path, option):
    target = tmp_path / "fillit"
    target.write_text("#!/bin/sh\n")
    target.chmod(0o755)
    assert_one_line_error(grade(str(target), option, str(tmp_path / "no" / "such" / "r.out")), "does not exist")
    assert_one_line_error(grade(str(target), option, str(tmp_path)), "directory")


def test_build_failure_is_one_line(tmp_path):
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / "Makefile").write_text("all:\n\tcc -o fillit missing.c\n")
    assert_one_line_error(grade(str(repo), "--suite", "quick"), "build failed")


def test_empty_selection(tmp_path):
    target = tmp_path / "fillit"
    target.write_text("#!/bin/sh\n")
    target.chmod(0o755)
    assert_one_line_error(grade(str(target), "--suite", "quick", "-k", "no-such-case-anywhere"), "matches")
