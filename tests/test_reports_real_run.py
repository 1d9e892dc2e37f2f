"""`grade ./wrong-solver --html r.html --json r.json --junit r.xml` writes all three, and
they agree with each other and with the schema (issue 6's end-to-end check)."""
from __future__ import annotations

import json
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import jsonschema
import pytest
from junitparser import JUnitXml

from zoo.build import build, load_manifest

pytestmark = pytest.mark.slow  # (the fast loop: pytest -m "not slow", README's Development)

SCHEMA = json.loads((Path(__file__).resolve().parent.parent / "reports" / "report.schema.json").read_text())


class _Text(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.chunks: list[str] = []

    def handle_data(self, data: str) -> None:
        self.chunks.append(data)


def test_reports_of_a_real_run_of_a_wrong_solver(tmp_path: Path):
    mutants, _ = load_manifest()
    column_major = next(m for m in mutants if m.name == "column_major")
    binary = build(column_major, tmp_path / "bin")
    for path in (tmp_path, binary.parent, binary):
        path.chmod(0o755)
    out = {kind: tmp_path / f"r.{kind}" for kind in ("html", "json", "xml")}
    proc = subprocess.run(
        [sys.executable, "-m", "frontends.grade", str(binary), "--suite", "quick", "--html", str(out["html"]),
         "--json", str(out["json"]), "--junit", str(out["xml"])],
        capture_output=True, text=True, timeout=600, cwd=tmp_path)  # grade writes .fillit-cache/ there
    assert proc.returncode == 1, proc.stderr  # some case failed

    report = json.loads(out["json"].read_text())
    jsonschema.validate(report, SCHEMA)
    failing = [case for case in report["cases"] if case["verdict"] not in ("OK", "DISPUTED")]
    assert failing and report["failed"] == len(failing)
    assert {case["diagnosis"] for case in failing} >= {"not_upper_left"}
    assert 0 <= report["score"] < 100

    suites = JUnitXml.fromfile(str(out["xml"]))
    cases = [case for suite in suites for case in suite]
    failed_ids = {case.name for case in cases if not case.is_passed and not case.is_skipped}
    assert failed_ids == {case["id"] for case in failing}

    parser = _Text()
    parser.feed(out["html"].read_text())
    text = " ".join(parser.chunks)
    for case in failing:
        assert case["id"] in text
        assert case["message"].split(";")[0] in text  # the diagnosis sentence is shown
