"""`grade` on bad input of its own: one clear line on stderr, exit 2, never a traceback."""
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest


def grade(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "frontends.grade", *args], capture_output=True, text=True,
                          cwd=cwd, timeout=300)


def assert_one_line_error(proc: subprocess.CompletedProcess, fragment: str) -> None:
    assert proc.returncode == 2, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith("grade: error:") and fragment in lines[0]
    assert "Traceback" not in proc.stderr


def test_missing_target(tmp_path):
    assert_one_line_error(grade(str(tmp_path / "nope")), "does not exist")


@pytest.mark.slow
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


# ----------------------------------------------------------------- targets that cannot run here

def _gcc(tmp_path: Path, *flags: str, name: str = "prog", source: str = "int main(void){return 0;}\n") -> Path:
    if shutil.which("gcc") is None:
        pytest.skip("gcc is not installed")
    (tmp_path / f"{name}.c").write_text(source)
    out = tmp_path / name
    subprocess.run(["gcc", *flags, "-o", str(out), str(tmp_path / f"{name}.c")], check=True, capture_output=True)
    out.chmod(0o755)
    return out


def _other_machine(binary: Path) -> Path:
    """`binary` with its ELF e_machine changed to another architecture."""
    data = bytearray(binary.read_bytes())
    machine = int.from_bytes(data[18:20], "little")
    data[18:20] = (183 if machine != 183 else 62).to_bytes(2, "little")  # AArch64, or x86-64 on AArch64
    out = binary.with_name("foreign")
    out.write_bytes(bytes(data))
    out.chmod(0o755)
    return out


@pytest.mark.parametrize("kind, fragment", [
    ("text", "neither an ELF executable nor a script starting with '#!'"),
    ("foreign", "an ELF file for another machine"),
    ("shared", "a shared library (.so)"),
])
def test_unrunnable_target_is_one_line(tmp_path, kind, fragment):
    if kind == "text":
        target = tmp_path / "fillit"
        target.write_text("echo DDAA\n")
        target.chmod(0o755)
    elif kind == "foreign":
        target = _other_machine(_gcc(tmp_path))
    else:
        target = _gcc(tmp_path, "-shared", "-fPIC", name="libfillit.so", source="int f(void){return 1;}\n")
    assert_one_line_error(grade(str(target), "--suite", "quick"), fragment)


@pytest.mark.slow
def test_report_stores_the_seed_that_reproduces_the_run(tmp_path):
    target = tmp_path / "fillit"
    target.write_text("#!/bin/sh\necho usage: fillit file\n")
    target.chmod(0o755)
    for extra, seed in (([], 20240601), (["--seed", "7"], 7)):
        report = tmp_path / f"r{seed}.json"
        proc = grade(str(target), "--suite", "quick", "-k", "usage", "--json", str(report), "-q", *extra)
        assert proc.returncode == 0, proc.stderr
        assert json.loads(report.read_text())["seed"] == seed
