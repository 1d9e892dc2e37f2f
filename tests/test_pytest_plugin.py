"""The pytest plugin (`pytest --fillit=./fillit`, frontends/pytest_plugin.py) and the CI
commands of docs/ci.md, run for real in a scratch folder without any test file."""
from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from generators.cases import SPEED
from harness.grading.suites import load_suite
from reference.parser import parse
from reference.shapes import SHAPE_BY_NAME

HERE = Path(__file__).parent
ROOT = HERE.parent
SOLVER = HERE / "fuzz_targets" / "solver.c"
CI_DOC = ROOT / "docs" / "ci.md"
S_SHAPES = {SHAPE_BY_NAME["S_horizontal"], SHAPE_BY_NAME["S_vertical"]}
QUICK = load_suite("quick")



def s_bug_failures(cases) -> list[str]:
    """Ids of the cases the S-piece mutant gets wrong: valid, >= 3 pieces, one an S; and,
    since solver.c is plain backtracking, every speed case (too slow for the timeout)."""
    wrong = []
    for case in cases:
        if case.invocation != "file" or case.input is None:
            continue
        parsed = parse(case.input)
        if case.category == SPEED or (parsed.valid and len(parsed.pieces) >= 3 and S_SHAPES & set(parsed.pieces)):
            wrong.append(case.id)
    return wrong


def workdir(tmp_path: Path, binary: Path) -> Path:
    """A folder like a solver repository after `make`: ./fillit and no Python test at all."""
    shutil.copy(binary, tmp_path / "fillit")
    (tmp_path / "Makefile").write_text("all:\n\t@true\n")
    return tmp_path


def pytest_run(cwd: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *args],
                          cwd=cwd, capture_output=True, text=True, timeout=600)


def pytest_quick(cwd: Path, *args: str) -> subprocess.CompletedProcess:
    """The plugin on the quick suite (the default is standard, as for grade): fast tests."""
    return pytest_run(cwd, "--fillit-suite", "quick", *args)


def summary_counts(output: str) -> dict[str, int]:
    last = output.strip().splitlines()[-1]
    return {word: int(n) for n, word in re.findall(r"(\d+) (passed|failed|deselected|error)", last)}


def failed_ids(output: str) -> list[str]:
    return re.findall(r"^FAILED fillit::(\S+)", output, re.MULTILINE)


@pytest.mark.slow
def test_correct_solver_passes_every_quick_case(s_piece_solver, tmp_path):
    proc = pytest_run(workdir(tmp_path, s_piece_solver), "--fillit=./fillit", "--fillit-suite", "quick", "-q")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert summary_counts(proc.stdout) == {"passed": len(QUICK)}


@pytest.mark.slow
def test_mutant_fails_exactly_its_cases_with_a_readable_report(s_piece_mutant, tmp_path):
    expected = s_bug_failures(QUICK)
    assert expected, "the quick suite should hold a valid file with >= 3 pieces and an S"
    proc = pytest_run(workdir(tmp_path, s_piece_mutant), "--fillit=./fillit", "--fillit-suite", "quick", "-q")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert sorted(failed_ids(proc.stdout)) == sorted(expected)
    assert summary_counts(proc.stdout) == {"failed": len(expected), "passed": len(QUICK) - len(expected)}
    # The report of a failure: diagnosis, then both squares side by side.
    assert "diagnosis: WRONG bad_pieces" in proc.stdout
    assert re.search(r"^\s+expected\s+actual$", proc.stdout, re.MULTILINE)
    assert re.search(r"^! [A-Z.]+\$ +\| [A-Za-z.]+\$$", proc.stdout, re.MULTILINE)


@pytest.mark.slow
def test_x_stops_at_the_first_failure(s_piece_mutant, tmp_path):
    proc = pytest_quick(workdir(tmp_path, s_piece_mutant), "--fillit=./fillit", "-x", "-q")
    assert proc.returncode == 1
    assert summary_counts(proc.stdout)["failed"] == 1
    assert failed_ids(proc.stdout) == s_bug_failures(QUICK)[:1]


@pytest.mark.slow
def test_k_selects_cases_by_id(s_piece_solver, tmp_path):
    wanted = [case.id for case in QUICK if "bad_char" in case.id]
    assert wanted
    proc = pytest_quick(workdir(tmp_path, s_piece_solver), "--fillit=./fillit", "-k", "bad_char", "-v")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    ran = re.findall(r"^fillit::(\S+) PASSED", proc.stdout, re.MULTILINE)
    assert ran == wanted
    assert summary_counts(proc.stdout) == {"passed": len(wanted), "deselected": len(QUICK) - len(wanted)}


@pytest.mark.slow
def test_junitxml_names_testcases_by_case_id(s_piece_mutant, tmp_path):
    cwd = workdir(tmp_path, s_piece_mutant)
    proc = pytest_quick(cwd, "--fillit=./fillit", "--junitxml=out.xml", "-q")
    assert proc.returncode == 1
    cases = ET.parse(cwd / "out.xml").getroot().iter("testcase")
    seen = {(case.get("classname"), case.get("name")): case.find("failure") is not None for case in cases}
    assert sorted(name for _, name in seen) == sorted(case.id for case in QUICK)
    assert {classname for classname, _ in seen} == {"fillit"}
    assert sorted(name for (_, name), failed in seen.items() if failed) == sorted(s_bug_failures(QUICK))


@pytest.mark.slow
def test_xdist_workers_collect_the_same_cases(s_piece_mutant, tmp_path):
    proc = pytest_quick(workdir(tmp_path, s_piece_mutant), "--fillit=./fillit", "-n", "2", "-q")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert sorted(failed_ids(proc.stdout)) == sorted(s_bug_failures(QUICK))
    assert sum(summary_counts(proc.stdout).values()) == len(QUICK)


@pytest.mark.slow
def test_binary_is_resolved_from_the_invocation_folder(s_piece_solver, tmp_path):
    (tmp_path / "solver" / "bin").mkdir(parents=True)
    shutil.copy(s_piece_solver, tmp_path / "solver" / "bin" / "fillit")
    (tmp_path / "elsewhere").mkdir()
    proc = pytest_quick(tmp_path / "solver", "--fillit=bin/fillit", "--rootdir", str(tmp_path / "elsewhere"),
                      "-k", "usage", "-q")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert summary_counts(proc.stdout)["passed"] == sum("usage" in case.id for case in QUICK)


@pytest.mark.parametrize("args, message", [
    (["--fillit=./nope"], "--fillit: ./nope does not exist"),
    (["--fillit=."], "is a folder"),
    (["--fillit=./fillit", "--fillit-suite", "huge"], "unknown suite 'huge'"),
])
def test_bad_options_are_usage_errors(s_piece_solver, tmp_path, args, message):
    proc = pytest_run(workdir(tmp_path, s_piece_solver), *args)
    assert proc.returncode == 4  # pytest's "usage error"
    assert message in proc.stderr


@pytest.mark.slow
def test_without_fillit_the_plugin_does_nothing(tmp_path):
    (tmp_path / "test_plain.py").write_text("def test_one():\n    assert 1 + 1 == 2\n")
    proc = pytest_run(tmp_path, "-q")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert summary_counts(proc.stdout) == {"passed": 1}
    listed = pytest_run(tmp_path, "--collect-only", "-q")
    assert "fillit::" not in listed.stdout
    assert "--fillit=PATH" in pytest_run(tmp_path, "--help").stdout


# --------------------------------------------------------------------------- docs/ci.md

def ci_blocks() -> list[str]:
    return re.findall(r"```yaml\n(.*?)```", CI_DOC.read_text(), re.DOTALL)


def harness_commands(block: str) -> list[str]:
    """The `grade` and `pytest` command lines of a CI file, in order."""
    lines = [re.sub(r"^\s*(- )?(run: )?", "", line) for line in block.splitlines()]
    return [line.strip() for line in lines if re.match(r"(grade|pytest) ", line.strip())]


def test_ci_doc_github_and_gitlab_run_the_same_commands():
    blocks = ci_blocks()
    assert len(blocks) == 2
    github, gitlab = (harness_commands(block) for block in blocks)
    assert github == gitlab
    assert [command.split()[0] for command in github] == ["grade", "pytest"]
    for block in blocks:
        assert 'pip install "$MOULINETTE"' in block
        assert re.search(r"^\s*(- )?(run: )?make$", block, re.MULTILINE)
        assert "report.xml" in block and "pytest-report.xml" in block


def solver_repository(folder: Path, kind: str) -> Path:
    """A solver repository with a Makefile building ./fillit: the example solver
    (examples/fillit, when it is there) or tests/fuzz_targets/solver.c, correct or with
    the S-piece bug."""
    example = ROOT / "examples" / "fillit"
    if kind == "correct" and (example / "Makefile").is_file():
        shutil.copytree(example, folder, ignore=shutil.ignore_patterns("*.o", "fillit"))
        return folder
    folder.mkdir()
    shutil.copy(SOLVER, folder / "solver.c")
    flags = "-Wall -Wextra -Werror" + (" -DBUG_S_PIECE" if kind == "s_bug" else "")
    (folder / "Makefile").write_text(f"all: fillit\nfillit: solver.c\n\tgcc {flags} -o fillit solver.c\n")
    return folder


def on_suite(command: str, suite: str) -> str:
    """`command` with its `--suite standard` / `--fillit-suite standard` set to `suite`."""
    changed = re.sub(r"(--(?:fillit-)?suite) standard\b", rf"\1 {suite}", command)
    assert changed != command or suite == "standard", command
    return changed


@pytest.mark.slow
@pytest.mark.parametrize("kind, passes, suite", [("correct", True, "standard"), ("s_bug", False, "quick")])
def test_ci_doc_commands_grade_a_solver(tmp_path, kind, passes, suite, standard_suite):
    """The doc's own command lines in a solver repository: make, grade, pytest. The correct
    solver runs them exactly as written (the standard suite); the wrong one runs them on the
    quick suite, which holds cases its bug fails: on the standard suite it would also time
    out on every speed file (it backtracks plainly), minutes of CPU that prove nothing more
    here (tests/test_plain_timing.py shows plain search misses the speed files' limit)."""
    if shutil.which("gcc") is None or shutil.which("make") is None:
        pytest.skip("gcc and make are needed")
    cwd = solver_repository(tmp_path / "repo", kind)
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"}
    build = subprocess.run(["make"], cwd=cwd, capture_output=True, text=True, timeout=300)
    assert build.returncode == 0, build.stdout + build.stderr
    for command in harness_commands(ci_blocks()[0]):
        command = on_suite(command, suite)
        argv = shlex.split(command)
        if argv[0] == "pytest":
            argv = [sys.executable, "-m", "pytest", *argv[1:]]
        proc = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=900)
        assert proc.returncode in (0, 1), f"{command}\n{proc.stdout[-3000:]}\n{proc.stderr[-2000:]}"
        assert (proc.returncode == 0) == passes, f"{command}\n{proc.stdout[-3000:]}\n{proc.stderr[-2000:]}"
    junit = ET.parse(cwd / "report.xml").getroot()
    pytest_junit = ET.parse(cwd / "pytest-report.xml").getroot()
    failures = lambda root: {c.get("name") for c in root.iter("testcase") if c.find("failure") is not None}
    assert (cwd / "report.html").stat().st_size > 0
    cases = standard_suite if suite == "standard" else load_suite(suite)
    assert len(list(pytest_junit.iter("testcase"))) == len(cases)
    if passes:
        assert failures(pytest_junit) == set()
    else:
        expected = s_bug_failures(cases)
        assert expected
        assert failures(pytest_junit) == set(expected)
        # grade's JUnit names the same failing cases (its testcase names hold the case ids).
        grade_failures = failures(junit)
        assert grade_failures and all(any(i in name for i in expected) for name in grade_failures)
