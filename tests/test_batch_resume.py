"""`grade batch` killed with SIGKILL in the middle, then rerun: every result once, nothing lost."""
from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path

import pytest

from harness.grading.suites import load_suite
from test_batch_helpers import GRADE, HOSTILE, ROOT, compile_c, db_rows, run_grade, small_cohort

QUICK = load_suite("quick")


def _count(db: Path) -> int:
    if not db.exists():
        return 0
    try:
        return db_rows(db, "SELECT count(*) FROM results")[0][0]
    except Exception:  # the schema is not there yet
        return 0


@pytest.mark.slow
def test_sigkill_then_rerun_resumes_exactly_once(tmp_path: Path) -> None:
    folder = tmp_path / "subs"
    names = small_cohort(folder, tmp_path / "scratch")
    total = len(names) * len(QUICK)
    out = tmp_path / "out"
    db = out / "results.sqlite"
    args = ["batch", str(folder), "--out", str(out), "--suite", "quick", "--jobs", "2"]

    victim = subprocess.Popen([*GRADE, *args], cwd=ROOT, start_new_session=True,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 120
    try:
        while _count(db) < 8 and victim.poll() is None and time.monotonic() < deadline:
            time.sleep(0.02)
        assert victim.poll() is None, "the batch ended before it could be killed"
    finally:
        os.killpg(victim.pid, signal.SIGKILL)  # the parent and every worker process
        victim.wait()
    at_kill = db_rows(db, "SELECT submission, case_id, recorded_at FROM results")
    assert 8 <= len(at_kill) < total
    assert db_rows(db, "PRAGMA integrity_check") == [("ok",)]

    rerun_started = time.time()
    second = run_grade(*args)
    assert second.returncode == 0, second.stdout + second.stderr
    assert f"{len(names)} submissions:" in second.stdout
    rows = db_rows(db, "SELECT submission, case_id, recorded_at FROM results")
    assert len(rows) == total  # every (submission, case) exactly once
    assert {(s, c) for s, c, _ in rows} == {(n, case.id) for n in names for case in QUICK}
    # Nothing lost: the results stored before the kill were kept, not graded again.
    kept = {(s, c): t for s, c, t in rows}
    assert all(kept[(s, c)] == t for s, c, t in at_kill)
    assert all(t >= rerun_started for key, t in kept.items() if key not in {(s, c) for s, c, _ in at_kill})
    assert dict(db_rows(db, "SELECT name, status FROM submissions")) == {n: "done" for n in names}
    assert db_rows(db, "PRAGMA integrity_check") == [("ok",)]
    for name in names:
        assert (out / name / "report.json").is_file()

    third = run_grade(*args)
    assert third.returncode == 0
    assert f"0 graded, {len(names)} skipped" in third.stdout
    assert db_rows(db, "SELECT submission, case_id, recorded_at FROM results") == rows

    # A changed submission is graded again (and only it): "correct" now prints its input.
    compile_c(HOSTILE / "well_behaved.c", folder / "correct")
    fourth = run_grade(*args)
    assert fourth.returncode == 0, fourth.stdout + fourth.stderr
    assert f"1 graded, {len(names) - 1} skipped" in fourth.stdout
    verdicts = db_rows(db, "SELECT DISTINCT verdict FROM results WHERE submission = 'correct'")
    assert verdicts == [("WRONG",)]
    assert db_rows(db, "SELECT count(*) FROM results")[0][0] == total
    assert db_rows(db, "SELECT score FROM submissions WHERE name = 'correct'") == [(0.0,)]
