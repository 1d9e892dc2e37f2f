"""The JSON report (SPEC.md "Command-line and report contract"; docs/json-report.md;
reports/report.schema.json)."""
from __future__ import annotations

import base64
import json
from pathlib import Path
from typing import Any

from harness.grading.model import CaseResult, GradeReport, json_safe
from reports.common import cap, counts, decode_input, first_failure_line

SCHEMA_VERSION = 3  # 2: positions in `details` are 1-based; 3: `exercise`, a case's `credit`
# Longest text kept for `input`, `actual` and `stderr` (characters); longer ones are cut
# and flagged with `<field>_truncated`.
TEXT_LIMIT = 64 * 1024


def _input_fields(data: bytes | None) -> dict[str, Any]:
    if data is None:
        return {"input": None, "input_base64": None, "input_bytes": None, "input_truncated": False}
    text, exact = decode_input(data)
    text, cut = cap(text, TEXT_LIMIT)
    return {
        "input": text,
        # The exact bytes, only when they are not UTF-8 (then `input` shows them as \xNN escapes).
        "input_base64": None if exact else base64.b64encode(data).decode("ascii"),
        "input_bytes": len(data),
        "input_truncated": cut,
    }


def case_dict(result: CaseResult) -> dict[str, Any]:
    case = result.case
    actual, actual_cut = cap(result.actual, TEXT_LIMIT)
    stderr, stderr_cut = cap(result.stderr, TEXT_LIMIT)
    fields = result.to_dict()
    del fields["case_id"], fields["category"]
    return {
        "id": case.id,
        "category": case.category,
        "description": case.description,
        "invocation": case.invocation,
        **_input_fields(case.input),
        "expected": str(case.expected),
        "accepted": list(case.accepted),
        "rule": case.rule,
        "disputed": case.disputed,
        "runs": case.runs,
        "passed": result.passed,
        **fields,
        "actual": actual,
        "actual_truncated": actual_cut,
        "stderr": stderr,
        "stderr_truncated": stderr_cut,
    }


def to_dict(report: GradeReport) -> dict[str, Any]:
    first = report.first_failure
    return {
        "schema_version": SCHEMA_VERSION,
        "target": report.target,
        "exercise": report.exercise,
        "suite": report.suite,
        "seed": report.seed,
        "profile": report.profile,
        "isolation": report.isolation,
        "limits": json_safe(report.limits.describe()),
        "started_at": report.started_at,
        "duration_s": json_safe(float(report.duration_s)),
        "score": json_safe(float(report.score)),
        "total": len(report.results),
        "passed": report.passed,
        "failed": report.failed,
        "counts": counts(report),
        "first_failure": None if first is None else {
            "id": first.case.id,
            "category": first.case.category,
            "verdict": first.verdict.verdict,
            "diagnosis": first.verdict.diagnosis,
            "message": first.verdict.message,
            "line": first_failure_line(report),
        },
        "checks": [{"name": c.name, "status": c.status, "message": c.message} for c in report.checks],
        "build": json_safe(report.build),
        "cases": [case_dict(r) for r in report.results],
    }


def dumps(report: GradeReport) -> str:
    return json.dumps(to_dict(report), indent=2, ensure_ascii=True, allow_nan=False) + "\n"


def write_json(report: GradeReport, path: Path) -> None:
    """Write the report; an unwritable path raises OSError."""
    text = dumps(report)
    with open(path, "w", encoding="utf-8") as out:
        out.write(text)
