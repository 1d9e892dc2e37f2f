"""`grade --exercise edge-matching SOLVER` end to end, as a user types it: the exact
solver scores 100; the seed's heuristic is graded by quality (partial verdicts whose
credit counts in the score, "matched X/Y edges" in the JSON and HTML reports); a wrong
solver gets this exercise's diagnoses."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from harness.grading.exercise import exercise_named
from conftest import grade_in

SOLVER = Path(__file__).resolve().parent / "edge_matching_targets" / "solver.c"
FLAGS = ("-O2", "-Wall", "-Wextra", "-Werror")


def _graded(build_c, folder: Path, define: str | None, *extra: str):
    flags = (*FLAGS, f"-D{define}") if define else FLAGS
    shutil.copy(build_c(SOLVER, flags=flags, name=f"grade-{(define or 'exact').lower()}"), folder / "solver")
    proc = grade_in(folder, "--exercise", "edge-matching", "./solver", "--suite", "quick", "--json", "report.json",
                    *extra)
    return proc, json.loads((folder / "report.json").read_text())


@pytest.fixture(scope="module")
def heuristic_run(build_c, tmp_path_factory):
    folder = tmp_path_factory.mktemp("edge-heuristic")
    proc, report = _graded(build_c, folder, "HEURISTIC", "--html", "report.html")
    return proc, report, (folder / "report.html").read_text(encoding="utf-8")


def test_the_exact_solver_scores_100(build_c, tmp_path: Path):
    proc, report = _graded(build_c, tmp_path, None)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert (report["exercise"], report["score"], report["failed"]) == ("edge-matching", 100.0, 0)
    assert {case["verdict"] for case in report["cases"]} == {"OK"}


def test_the_heuristic_is_scored_by_its_matched_edges(heuristic_run):
    proc, report, _ = heuristic_run
    assert proc.returncode == 1, proc.stdout + proc.stderr
    partial = [case for case in report["cases"] if case["diagnosis"] == "partial"]
    assert len(partial) >= 4
    for case in partial:
        details = case["details"]
        assert case["verdict"] == "WRONG" and not case["passed"]
        assert case["credit"] == details["matched"] / details["total"] and 0 < case["credit"] < 1
        assert case["message"].startswith(f"matched {details['matched']}/{details['total']} edges")
    assert {case["diagnosis"] for case in report["cases"] if not case["passed"]} == {"partial", "missed_none"}
    assert all(case["credit"] is None for case in report["cases"] if case["diagnosis"] != "partial")
    # The score is the exercise's weighting, a partial case counting its credit.
    weights = exercise_named("edge-matching").weights
    by_category: dict[str, list[float]] = {}
    for case in report["cases"]:
        by_category.setdefault(case["category"], []).append(1.0 if case["passed"] else case["credit"] or 0.0)
    earned = sum(weights[c] * sum(v) / len(v) for c, v in by_category.items())
    expected = round(100 * earned / sum(weights[c] for c in by_category), 1)
    assert report["score"] == expected
    without_credit = sum(weights[c] * sum(v == 1.0 for v in vs) / len(vs) for c, vs in by_category.items())
    assert report["score"] > round(100 * without_credit / sum(weights[c] for c in by_category), 1)
    assert f"score: {expected:g}/100" in proc.stdout


def test_the_html_report_shows_the_count_and_the_board(heuristic_run):
    _, report, html = heuristic_run
    case = next(case for case in report["cases"] if case["diagnosis"] == "partial")
    assert case["id"] in html
    assert f"matched {case['details']['matched']}/{case['details']['total']} edges" in html
    assert "--exercise edge-matching --suite quick -k" in html
    assert "1/0" in html  # the answers, drawn with the exercise's Render
    # The heuristic's board drawn against the puzzle, its mismatched edges marked: the same
    # drawing the checker put in the details.
    assert "Yours, drawn" in html and "Expected, drawn" in html
    import re
    from html import unescape
    text = unescape(re.sub(r"<[^>]+>", "", html))  # the page's text (colours are spans)
    assert all(line in text for line in case["details"]["board"] if line.strip())
    assert any("!" in line for line in case["details"]["board"])
    # Its colours painted (border colour 0 grey, the others from the palette), mismatches marked.
    assert '<span class="colour c0">0</span>' in html and '<span class="mismatch">!</span>' in html
    assert "pre.text .colour.c1 { background: #" in html


def test_a_solver_that_reuses_pieces(build_c, tmp_path: Path):
    proc, report = _graded(build_c, tmp_path, "BUG_REUSE")
    assert proc.returncode == 1
    failed = [case for case in report["cases"] if not case["passed"]]
    assert failed and {case["diagnosis"] for case in failed} <= {"reused_piece", "missed_none"}
    assert any(case["diagnosis"] == "reused_piece" for case in failed)
    assert all(case["credit"] is None for case in failed)
