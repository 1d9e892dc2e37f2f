"""`grade batch`: a cohort of C submissions graded, stored, and reported."""
from __future__ import annotations

import csv
import json
import os
import re
import shutil
import stat
from pathlib import Path

import pytest

from harness.batch.archive import archive, extract
from harness.batch.discovery import content_hash, discover
from frontends.grade import main
from harness.batch.store import Store, StaleResult
from harness.grading.model import CaseResult, Verdict
from generators.cases import Case
from harness.grading.suites import load_suite
from reports.cohort import CohortRow, histogram, write_cohort
from reference.parser import parse
from test_batch_helpers import BASE_C, CRASHERS, HOSTILE, compile_c, db_rows, repository, small_cohort

QUICK = load_suite("quick")
QUICK_IDS = {case.id for case in QUICK}


def crashing_ids(name: str) -> set[str]:
    """The quick cases the crashing mutant `name` crashes on: valid files of more pieces."""
    over = CRASHERS[name][0]
    parsed = {case.id: parse(case.input) for case in QUICK if case.invocation == "file" and case.input is not None}
    return {case_id for case_id, p in parsed.items() if p.valid and len(p.pieces) > over}
HOSTILE_NAME = "<i>evil&co"  # a legal file name that must not turn into markup


# --------------------------------------------------------------------------- hashing, archives


def test_content_hash_covers_paths_and_contents_but_not_git(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    (repo / "src").mkdir(parents=True)
    (repo / "src" / "main.c").write_text("int main(void) { return 0; }\n")
    (repo / "Makefile").write_text("all:\n")
    first = content_hash(repo)
    (repo / ".git").mkdir()
    (repo / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    assert content_hash(repo) == first
    (repo / "src" / "main.c").write_text("int main(void) { return 1; }\n")
    changed = content_hash(repo)
    assert changed != first
    (repo / "src" / "main.c").rename(repo / "src" / "other.c")
    assert content_hash(repo) not in (first, changed)


def test_archive_round_trip_keeps_files_and_execute_bit(tmp_path: Path) -> None:
    repo = tmp_path / "alice"
    (repo / "src").mkdir(parents=True)
    (repo / "src" / "a.c").write_bytes(b"\x00\xffbinary")
    (repo / "Makefile").write_text("all:\n")
    (repo / ".git").mkdir()
    (repo / ".git" / "config").write_text("secret\n")
    tool = repo / "tool.sh"
    tool.write_text("#!/bin/sh\n")
    tool.chmod(0o755)
    unpacked = extract(archive(repo), tmp_path / "unpacked")
    assert unpacked.name == "alice"
    assert not (unpacked / ".git").exists()
    assert content_hash(unpacked) == content_hash(repo)
    assert os.stat(unpacked / "tool.sh").st_mode & stat.S_IXUSR

    binary = compile_c(HOSTILE / "abort.c", tmp_path / "bob")
    single = extract(archive(binary), tmp_path / "unpacked-single")
    assert single.read_bytes() == binary.read_bytes()
    assert os.access(single, os.X_OK)


def test_discover_kinds_and_ignored_entries(tmp_path: Path) -> None:
    folder = tmp_path / "subs"
    repository(folder / "repo", BASE_C)
    compile_c(HOSTILE / "abort.c", folder / "exe")
    (folder / "notes.txt").write_text("not a submission\n")
    (folder / ".hidden").mkdir()
    (folder / "out").mkdir()
    subs, ignored = discover(folder, exclude=[folder / "out"])
    assert [(s.name, s.kind) for s in subs] == [("exe", "binary"), ("repo", "repository")]
    assert ignored == ["notes.txt: neither a folder nor an executable file"]


# --------------------------------------------------------------------------- store


def _row(case_id: str, verdict: str = "OK") -> CaseResult:
    case = Case(id=case_id, category="valid", input=b"", expected="AA\n")
    return CaseResult(case=case, verdict=Verdict(verdict, None, "", {}), actual="AA\n", stderr="", time_s=0.01,
                      cpu_s=0.0, max_rss_kb=100, exit_code=0, signal=None, isolation="rlimits", time_limit_s=5.0)


def test_store_keeps_one_row_per_case_and_drops_results_of_a_changed_submission(tmp_path: Path) -> None:
    with Store(tmp_path / "r.sqlite") as store:
        assert store.begin("alice", "h1", "cfg", "binary", 2) == set()
        store.record_results("alice", "h1", [_row("a"), _row("b")])
        store.record_results("alice", "h1", [_row("a", "WRONG")])  # graded again: replaced, not added
        assert store.begin("alice", "h1", "cfg", "binary", 2) == {"a", "b"}
        assert {k: v["verdict"] for k, v in store.results("alice").items()} == {"a": "WRONG", "b": "OK"}
        assert store.begin("alice", "h2", "cfg", "binary", 2) == set()  # new files: start over
        assert store.results("alice") == {}
        with pytest.raises(StaleResult):
            store.record_results("alice", "h1", [_row("a")])  # a late result for the old files
        assert store.results("alice") == {}
        store.record_results("alice", "h2", [_row("a")])
        assert store.begin("alice", "h2", "other-settings", "binary", 2) == set()
        assert store.integrity_check() == "ok"
    mode = db_rows(tmp_path / "r.sqlite", "PRAGMA journal_mode")[0][0]
    assert mode == "wal"


# --------------------------------------------------------------------------- cohort page


def test_histogram_bins_edges() -> None:
    assert histogram([0, 9.9, 10, 55, 99.9, 100]) == [2, 1, 0, 0, 0, 1, 0, 0, 0, 2]
    assert histogram([]) == [0] * 10


def test_cohort_page_escapes_names_and_csv_neutralizes_formulas(tmp_path: Path) -> None:
    counts = {"OK": 1, "WRONG": 0, "TIMEOUT": 0, "CRASH": 0, "OUTPUT_LIMIT": 0, "DISPUTED": 0}
    rows = [CohortRow("<script>alert(1)</script>", "binary", "done", "n/a", "", 100.0, 1, 0, counts, 0.1, 0.2,
                      "", "x/report.html", ""),
            CohortRow("=HYPERLINK(\"http://x\")", "binary", "done", "n/a", "", 0.0, 0, 1, counts, 0.1, 0.2,
                      "-oops", "", "")]
    index, table = write_cohort(rows, tmp_path)
    page = index.read_text()
    assert "<script>alert(1)</script>" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "<svg" in page and page.count("<rect") == 10
    with open(table, newline="") as handle:
        lines = list(csv.DictReader(handle))
    assert [line["name"] for line in lines] == ["<script>alert(1)</script>", "'=HYPERLINK(\"http://x\")"]
    assert lines[1]["first_failure"] == "'-oops"


# --------------------------------------------------------------------------- end to end


@pytest.fixture(scope="module")
def graded_cohort(tmp_path_factory: pytest.TempPathFactory) -> dict:
    root = tmp_path_factory.mktemp("batch")
    folder = root / "submissions"
    names = small_cohort(folder, root / "scratch")
    shutil.copy2(folder / "correct", folder / HOSTILE_NAME)
    repository(folder / "repo_ok", BASE_C)
    repository(folder / "repo_broken", BASE_C, broken=True)
    (folder / "README.txt").write_text("the cohort\n")
    out = root / "out"
    code = main(["batch", str(folder), "--out", str(out), "--suite", "quick", "--jobs", "2"])
    names = sorted(names + [HOSTILE_NAME, "repo_ok", "repo_broken"])
    return {"code": code, "folder": folder, "out": out, "db": out / "results.sqlite", "names": names}


@pytest.mark.slow  # (the graded_cohort fixture grades a cohort)
def test_batch_stores_every_case_of_every_submission(graded_cohort: dict) -> None:
    assert graded_cohort["code"] == 0
    db = graded_cohort["db"]
    assert db_rows(db, "PRAGMA integrity_check") == [("ok",)]
    graded = [n for n in graded_cohort["names"] if n != "repo_broken"]
    for name in graded:
        stored = {c for (c,) in db_rows(db, "SELECT case_id FROM results WHERE submission = ?", (name,))}
        assert stored == QUICK_IDS, name
    status = dict(db_rows(db, "SELECT name, status FROM submissions"))
    assert status == {n: ("build_failed" if n == "repo_broken" else "done") for n in graded_cohort["names"]}


@pytest.mark.slow  # (the graded_cohort fixture grades a cohort)
def test_batch_verdicts_tell_the_submissions_apart(graded_cohort: dict) -> None:
    db = graded_cohort["db"]
    scores = dict(db_rows(db, "SELECT name, score FROM submissions"))
    assert scores["correct"] == scores["repo_ok"] == scores[HOSTILE_NAME] == 100.0
    assert 0.0 < scores["underscore_dots"] < 100.0  # answers errors right, squares wrong
    for name, signal in (("segv", "SIGSEGV"), ("abort", "SIGABRT")):
        assert 0.0 < scores[name] < 100.0
        crashed = db_rows(db, "SELECT case_id, verdict, diagnosis FROM results WHERE submission = ? AND verdict NOT IN ('OK', 'DISPUTED')",
                          (name,))
        assert crashing_ids(name) and {c for c, _, _ in crashed} == crashing_ids(name)
        assert {(v, d) for _, v, d in crashed} == {("CRASH", signal)}
    build = db_rows(db, "SELECT build_ok, build_json FROM submissions WHERE name = 'repo_broken'")[0]
    assert build[0] == 0 and "make failed" in json.loads(build[1])["message"]
    checks = json.loads(db_rows(db, "SELECT checks_json FROM submissions WHERE name = 'repo_ok'")[0][0])
    assert any(c["name"] == "makefile_rules" for c in checks)


@pytest.mark.slow  # (the graded_cohort fixture grades a cohort)
def test_batch_writes_each_report_and_the_cohort_page(graded_cohort: dict) -> None:
    out, db = graded_cohort["out"], graded_cohort["db"]
    scores = dict(db_rows(db, "SELECT name, score FROM submissions"))
    for name in graded_cohort["names"]:
        report = json.loads((out / name / "report.json").read_text())
        assert report["score"] == scores[name]
        assert len(report["cases"]) == (0 if name == "repo_broken" else len(QUICK))
        assert (out / name / "report.html").read_text().lstrip().lower().startswith("<!doctype html")
    assert "Error 1" in (out / "repo_broken" / "build.log").read_text()  # make's own words
    page = (out / "index.html").read_text()
    assert "<i>evil" not in page and "&lt;i&gt;evil&amp;co" in page
    assert re.search(r'<a href="correct/report.html">correct</a>', page)
    assert "%3Ci%3Eevil%26co/report.html" in page
    assert not re.search(r"<script[^>]+src=|<link[^>]+href=\"?https?:", page)  # self-contained
    with open(out / "cohort.csv", newline="") as handle:
        rows = {row["name"]: row for row in csv.DictReader(handle)}
    assert sorted(rows) == graded_cohort["names"]
    assert rows["segv"]["CRASH"] == str(len(crashing_ids("segv")))
    assert rows["segv"]["first_failure"].startswith("First failure:")
    assert rows["repo_broken"]["build"] == "failed" and rows["repo_ok"]["build"] == "ok"
    # The project checks column: a repository's tally (a skipped check is not a passed one), n/a for executables.
    assert re.fullmatch(r"\d+ passed(, \d+ failed \([^)]*\))?(, \d+ skipped \([^)]*\))?", rows["repo_ok"]["project_checks"])
    assert rows["correct"]["project_checks"] == "n/a"
    assert ">project checks</th>" in page
    assert float(rows["correct"]["score"]) == 100.0


@pytest.mark.slow  # (the graded_cohort fixture grades a cohort)
def test_rerun_skips_unchanged_submissions(graded_cohort: dict, capsys: pytest.CaptureFixture) -> None:
    before = db_rows(graded_cohort["db"], "SELECT submission, case_id, recorded_at FROM results")
    capsys.readouterr()
    code = main(["batch", str(graded_cohort["folder"]), "--out", str(graded_cohort["out"]), "--suite", "quick"])
    output = capsys.readouterr().out
    assert code == 0
    assert f"0 graded, {len(graded_cohort['names'])} skipped" in output
    assert db_rows(graded_cohort["db"], "SELECT submission, case_id, recorded_at FROM results") == before


def test_batch_refuses_an_empty_folder(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    (tmp_path / "cohort").mkdir()
    (tmp_path / "cohort" / "README.txt").write_text("submissions go here\n")
    assert main(["batch", str(tmp_path / "cohort"), "--out", str(tmp_path / "out")]) == 2
    error = capsys.readouterr().err
    assert error.startswith("grade batch: error: no submission in ") and error.count("\n") == 1
    assert "README.txt: neither a folder nor an executable file" in error
    assert not (tmp_path / "out").exists()


def test_batch_has_version_and_the_default_suite_of_grade(capsys: pytest.CaptureFixture) -> None:
    from importlib.metadata import version

    from frontends.batch import batch_command
    from frontends.pytest_plugin import SUITE_DEFAULT
    from harness.grading.settings import DEFAULT_SUITE

    assert main(["batch", "--version"]) == 0
    assert capsys.readouterr().out == f"grade batch (fillit-moulinette) {version('fillit-moulinette')}\n"
    suite_option = next(p for p in batch_command.params if p.name == "suite")
    assert suite_option.default == DEFAULT_SUITE == SUITE_DEFAULT == "standard"


def test_batch_cannot_run_on_a_missing_folder(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    assert main(["batch", str(tmp_path / "nope"), "--out", str(tmp_path / "out")]) == 2
    assert "does not exist" in capsys.readouterr().err
