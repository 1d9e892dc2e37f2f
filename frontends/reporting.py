"""The report files the front-ends write: `grade`'s --json/--html/--junit, and each
submission's reports plus the cohort page for `grade batch` (harness.batch.parent.Reporter).
"""
from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any, Literal

from harness.batch.store import SubmissionRow
from harness.grading.model import GradeReport
from reports.cohort import cohort_rows, write_cohort
from reports.html import write_html
from reports.json_report import write_json
from reports.junit import write_junit

ReportKind = Literal["json", "html", "junit"]
WRITERS = {"json": write_json, "html": write_html, "junit": write_junit}


def write_reports(report: GradeReport, outputs: dict[ReportKind, Path | None]) -> None:
    """Write each report whose path is given (OSError for an unwritable path)."""
    for kind, path in outputs.items():
        if path is not None:
            WRITERS[kind](report, path)


class CohortFiles:
    """`grade batch`'s reports: OUT/NAME/report.json, report.html (and build.log for a
    repository), and OUT/index.html with OUT/cohort.csv."""

    def submission(self, report: GradeReport, directory: Path, build: dict[str, Any] | None) -> None:
        write_json(report, directory / "report.json")
        write_html(report, directory / "report.html")
        if build is not None:
            (directory / "build.log").write_text(build.get("log", ""), encoding="utf-8")

    def cohort(self, rows: Sequence[SubmissionRow], out: Path, title: str) -> tuple[Path, Path]:
        return write_cohort(cohort_rows(rows, out), out, title=title)
