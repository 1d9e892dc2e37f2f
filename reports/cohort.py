"""The cohort page (`<out>/index.html`) and its CSV export (`<out>/cohort.csv`).

One row per submission: name, build status, score, project checks, verdict counts, time,
first failure, and a link to the submission's own report.  The page is self-contained:
a histogram of scores drawn as inline SVG, columns sorted by a few lines of inline
JavaScript, no network access.
"""
from __future__ import annotations

import csv
import math
import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from urllib.parse import quote

from jinja2 import Environment, FileSystemLoader, StrictUndefined

from harness.grading.model import VERDICTS, ProjectCheck
from harness.batch.store import BUILD_FAILED, DONE, SubmissionRow
from reports.common import fmt_score, fmt_seconds
from reports.groups import checks_tally

TEMPLATES = Path(__file__).parent / "templates"
BINS = 10  # score histogram: [0,10), [10,20) ... [90,100]
CSV_FIELDS = ("name", "kind", "status", "build", "score", "passed", "failed", "project_checks", *VERDICTS,
              "run_time_s", "grading_s", "first_failure", "report")
# Spreadsheets run a cell that starts with one of these as a formula.
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


@dataclass(frozen=True)
class CohortRow:
    name: str
    kind: str
    status: str  # done, build_failed, error, grading (interrupted), pending
    build: str  # "ok", "lenient", "failed", "n/a" (binary)
    build_message: str
    score: float | None
    passed: int
    failed: int
    counts: dict[str, int]
    run_time_s: float | None
    grading_s: float
    first_failure: str
    report: str  # link relative to the cohort page, "" when none was written
    build_log: str  # idem
    checks: tuple[ProjectCheck, ...] | None = None  # None: not checked (an executable, or not yet)

    @property
    def score_text(self) -> str:
        return "–" if self.score is None else fmt_score(self.score)

    @property
    def checks_text(self) -> str:
        """"7 passed, 1 skipped (norm)"; "n/a" for an executable, "–" when not checked."""
        if self.checks is None:
            return "n/a" if self.kind != "repository" else "–"
        return checks_tally(self.checks)

    @property
    def checks_failed(self) -> int:
        """Failed project checks (-1 when there are none to count), the column's sort key."""
        return -1 if self.checks is None else sum(1 for check in self.checks if check.status == "fail")


def _build_status(row: SubmissionRow) -> tuple[str, str]:
    if row.kind != "repository":
        return "n/a", ""
    if row.build_ok is None:
        return "?", ""
    message = (row.build or {}).get("message", "")
    if not row.build_ok:
        return "failed", message
    return ("lenient" if (row.build or {}).get("lenient") else "ok"), message


def cohort_rows(submissions: Iterable[SubmissionRow | None], out: Path) -> list[CohortRow]:
    rows: list[CohortRow] = []
    for sub in submissions:
        if sub is None:
            continue
        build, message = _build_status(sub)
        finished = sub.status in (DONE, BUILD_FAILED)
        report, log = f"{sub.name}/report.html", f"{sub.name}/build.log"
        rows.append(CohortRow(
            name=sub.name, kind=sub.kind, status=sub.status, build=build, build_message=message,
            score=sub.score if finished else None,
            passed=sub.passed or 0, failed=sub.failed or 0,
            counts={v: int(sub.counts.get(v, 0)) for v in VERDICTS},
            run_time_s=sub.run_time_s, grading_s=sub.grading_s,
            first_failure=sub.first_failure if finished else (sub.error or "not finished: rerun to resume"),
            report=quote(report) if finished and (out / report).is_file() else "",
            build_log=quote(log) if sub.kind == "repository" and (out / log).is_file() else "",
            checks=None if sub.checks is None else tuple(
                ProjectCheck.from_dict({"message": "", **c}) for c in sub.checks),
        ))
    return rows


def histogram(scores: Sequence[float], bins: int = BINS) -> list[int]:
    """How many scores fall in each of `bins` equal ranges of 0-100 (100 goes in the last)."""
    counts = [0] * bins
    for value in scores:
        if not math.isfinite(value):
            continue
        index = min(bins - 1, max(0, int(value * bins // 100)))
        counts[index] += 1
    return counts


@dataclass(frozen=True)
class Bar:
    x: float
    y: float
    width: float
    height: float
    count: int
    label: str  # "30–39"


def chart(scores: Sequence[float], width: int = 520, height: int = 180) -> dict:
    """Geometry of the score histogram for the SVG in the template."""
    counts = histogram(scores)
    top = max(counts) if counts and max(counts) > 0 else 1
    left, bottom, pad = 30, 30, 16
    slot = (width - left - 10) / len(counts)
    span = height - bottom - pad
    bars = []
    for i, count in enumerate(counts):
        h = span * count / top
        low = i * (100 // BINS)
        label = f"{low}–{low + 9}" if i < len(counts) - 1 else f"{low}–100"
        bars.append(Bar(left + i * slot + 2, pad + span - h, slot - 4, h, count, label))
    return {"width": width, "height": height, "bars": bars, "base_y": pad + span, "left": left,
            "top": top, "top_y": pad}


def _environment() -> Environment:
    return Environment(loader=FileSystemLoader(str(TEMPLATES)),
                       autoescape=True,  # names and messages come from student submissions
                       undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True)


def render_cohort(rows: Sequence[CohortRow], title: str = "Cohort") -> str:
    scores = [r.score for r in rows if r.score is not None]
    stats = {
        "submissions": len(rows),
        "graded": len(scores),
        "mean": fmt_score(round(sum(scores) / len(scores), 1)) if scores else "–",
        "median": fmt_score(round(sorted(scores)[len(scores) // 2] if len(scores) % 2 else
                                  (sorted(scores)[len(scores) // 2 - 1] + sorted(scores)[len(scores) // 2]) / 2,
                                  1)) if scores else "–",
        "perfect": sum(1 for s in scores if s >= 100),
        "build_failed": sum(1 for r in rows if r.status == BUILD_FAILED),
        "unfinished": sum(1 for r in rows if r.status not in (DONE, BUILD_FAILED)),
    }
    return _environment().get_template("cohort.html.j2").render(
        title=title, rows=rows, verdicts=VERDICTS, chart=chart(scores), stats=stats,
        fmt_seconds=fmt_seconds, generated=datetime.now(timezone.utc).isoformat(timespec="seconds"))


def _csv_safe(text: str) -> str:
    return "'" + text if text.startswith(_FORMULA_START) else text


def write_csv(rows: Sequence[CohortRow], path: Path) -> None:
    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(CSV_FIELDS)
        for r in rows:
            writer.writerow([
                _csv_safe(r.name), r.kind, r.status, r.build, "" if r.score is None else r.score, r.passed, r.failed,
                _csv_safe(r.checks_text),
                *(r.counts.get(v, 0) for v in VERDICTS),
                "" if r.run_time_s is None else round(r.run_time_s, 3), round(r.grading_s, 3),
                _csv_safe(r.first_failure), r.report,
            ])


def _replace(path: Path, text: str) -> None:
    """Write `text` to `path` atomically (a reader never sees half a page)."""
    temporary = path.with_name(f".{path.name}.tmp{os.getpid()}")
    temporary.write_text(text, encoding="utf-8")
    os.replace(temporary, path)


def write_cohort(rows: Sequence[CohortRow], out: Path, title: str = "Cohort") -> tuple[Path, Path]:
    """Write `<out>/index.html` and `<out>/cohort.csv`; return their paths."""
    index, table = out / "index.html", out / "cohort.csv"
    _replace(index, render_cohort(rows, title))
    temporary = table.with_name(f".{table.name}.tmp{os.getpid()}")
    write_csv(rows, temporary)
    os.replace(temporary, table)
    return index, table
