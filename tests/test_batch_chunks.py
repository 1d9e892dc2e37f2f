"""`grade batch` splits executables into chunks of cases: planning, ordering, and the parent's bookkeeping."""
from __future__ import annotations

from pathlib import Path

import pytest

from frontends.batch import CohortFiles
from harness.batch.discovery import BINARY, REPOSITORY
from harness.batch.messages import CaseGraded, TaskFinished
from harness.batch.parent import BatchOptions, BatchSummary, Parent, run_batch
from harness.batch.store import Store
from harness.batch.tasks import GradeTask, cases_digest, chunk_task, interleave
from harness.grading.model import CaseResult, Verdict
from harness.grading.settings import GradeSettings
from harness.grading.suites import load_suite
from test_batch_helpers import db_rows, small_cohort

QUICK = load_suite("quick")
IDS = [case.id for case in QUICK]


def _task(name: str, kind: str = BINARY, skip: frozenset[str] = frozenset()) -> GradeTask:
    return GradeTask(name, kind, f"/nowhere/{name}", "h-" + name, GradeSettings(suite="quick"),
                     cases_digest(QUICK), skip)


def test_chunks_cover_the_remaining_cases_once_in_strides() -> None:
    done = frozenset(IDS[:5])
    parts = chunk_task(_task("a", skip=done), IDS, chunk_cases=8)
    assert len(parts) == -(-(len(IDS) - 5) // 8)
    assert [p.part for p in parts] == list(range(len(parts)))
    covered = [case_id for p in parts for case_id in p.case_ids]
    assert sorted(covered) == sorted(set(IDS) - done) and len(covered) == len(set(covered))
    assert all(len(p.case_ids) <= 8 for p in parts)
    # Strides: neighbouring cases (often one slow category) go to different parts.
    assert parts[0].case_ids[:2] == (IDS[5], IDS[5 + len(parts)])


def test_repositories_and_small_remainders_stay_whole() -> None:
    repo = _task("r", kind=REPOSITORY)
    assert chunk_task(repo, IDS, 8) == [repo]
    almost = _task("b", skip=frozenset(IDS[3:]))
    assert chunk_task(almost, IDS, 8) == [almost]
    assert chunk_task(_task("c"), IDS, 0) == [_task("c")]


def test_interleave_mixes_chunks_of_neighbouring_submissions() -> None:
    groups = [[f"{n}{k}" for k in range(size)] for n, size in (("a", 3), ("b", 1), ("c", 2), ("d", 2))]
    assert interleave(groups, window=2) == ["a0", "b0", "a1", "a2", "c0", "d0", "c1", "d1"]
    assert interleave(groups, window=1) == [x for g in groups for x in g]


def _graded(case_id: str, key: str) -> CaseGraded:
    case = next(c for c in QUICK if c.id == case_id)
    return CaseGraded("a", key, CaseResult(case=case, verdict=Verdict("OK", None, "", {}), actual="", stderr="",
                                           time_s=0.01, cpu_s=0.0, max_rss_kb=1, exit_code=0, signal=None,
                                           isolation="rlimits", time_limit_s=5.0))


def test_parent_finalizes_a_submission_after_its_last_part_only(tmp_path: Path) -> None:
    store = Store(tmp_path / "r.sqlite")
    try:
        summary, lines = BatchSummary(submissions=1), []
        parent = Parent(store, tmp_path / "out", GradeSettings(suite="quick"), QUICK, summary, lines.append, 1,
                        CohortFiles())
        task = _task("a")
        store.begin("a", task.submission_hash, "cfg", BINARY, len(QUICK))
        parts = chunk_task(task, IDS, 8)
        parent.expect(parts)
        for part in parts[:-1]:
            for case_id in part.case_ids:
                parent.handle(_graded(case_id, task.submission_hash))
            parent.handle(TaskFinished("a", task.submission_hash, 1.0, part.part))
            parent.handle(TaskFinished("a", task.submission_hash, 1.0, part.part))
        assert "a" not in parent.closed and store.submission("a").status == "grading"
        last = parts[-1]
        for case_id in last.case_ids:
            parent.handle(_graded(case_id, task.submission_hash))
        parent.handle(TaskFinished("a", task.submission_hash, 1.0, last.part))
        row = store.submission("a")
        assert "a" in parent.closed and row.status == "done" and row.score == 100.0
        assert row.grading_s == len(parts)  # the parts' times add up; the duplicate counted once
        assert (tmp_path / "out" / "a" / "report.json").is_file()
        assert summary.graded == 1 and not summary.errors
    finally:
        store.close()


@pytest.mark.slow
def test_chunked_and_whole_grading_store_the_same_verdicts(tmp_path: Path) -> None:
    folder = tmp_path / "subs"
    names = small_cohort(folder, tmp_path / "scratch")
    settings = GradeSettings(suite="quick")
    whole = run_batch(folder, BatchOptions(out=tmp_path / "whole", jobs=2, settings=settings, chunk_cases=0),
                      CohortFiles(), echo=lambda line: None)
    split = run_batch(folder, BatchOptions(out=tmp_path / "split", jobs=2, settings=settings, chunk_cases=3),
                      CohortFiles(), echo=lambda line: None)
    assert whole.graded == split.graded == len(names) and not whole.errors and not split.errors
    query = "SELECT submission, case_id, verdict, diagnosis FROM results ORDER BY submission, case_id"
    rows = db_rows(tmp_path / "split" / "results.sqlite", query)
    assert rows == db_rows(tmp_path / "whole" / "results.sqlite", query)
    assert len(rows) == len(names) * len(QUICK)
    assert db_rows(tmp_path / "split" / "results.sqlite", "SELECT DISTINCT status FROM submissions") == [("done",)]
