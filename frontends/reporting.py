"""The report files `grade` writes: --json, --html, --junit (`grade batch`'s own are
frontends.batch.CohortFiles).
"""
from __future__ import annotations

from pathlib import Path
from typing import Literal

from harness.grading.model import GradeReport
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

