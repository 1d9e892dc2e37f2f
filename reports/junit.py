"""JUnit XML for CI: one testcase per case (classname = category, name = case id).

A failed case carries a <failure> whose message is the diagnosis sentence and whose type
is "VERDICT/diagnosis"; system-out holds the expected and the actual output.  Project
checks, when there are any, form a second test suite ("project checks").
"""
from __future__ import annotations

import io
from pathlib import Path

from junitparser import Failure, JUnitXml, Skipped, TestCase, TestSuite

from harness.grading.model import CaseResult, GradeReport
from harness.grading.exercise import Exercise, exercise_named
from reports.common import cap, command_line, expected_summary, fmt_score, xml_safe

EXCERPT = 4000  # characters of stdout/stderr kept per testcase


def failure_type(result: CaseResult) -> str:
    v = result.verdict
    return f"{v.verdict}/{v.diagnosis}" if v.diagnosis else v.verdict


def _system_out(result: CaseResult, exercise: Exercise) -> str:
    actual, cut = cap(result.actual, EXCERPT)
    parts = [
        f"command: {command_line(result.case, exercise)}",
        f"verdict: {failure_type(result)}",
    ]
    if result.verdict.message:
        parts.append(f"diagnosis: {result.verdict.message}")
    parts += [
        f"time: {result.time_s:.3f} s (limit {result.time_limit_s:g} s), cpu {result.cpu_s:.3f} s, "
        f"max rss {result.max_rss_kb} KiB, exit code {result.exit_code}, signal {result.signal}",
        "--- expected ---",
        expected_summary(result.case).rstrip("\n"),
        "--- actual ---",
        actual.rstrip("\n") + ("\n[... cut]" if cut else ""),
    ]
    return xml_safe("\n".join(parts) + "\n")


def _case(result: CaseResult, exercise: Exercise) -> TestCase:
    case = TestCase(name=result.case.id, classname=result.case.category, time=round(result.time_s, 6))
    if not result.passed:
        case.result = [Failure(xml_safe(result.verdict.message or failure_type(result)), failure_type(result))]
    case.system_out = _system_out(result, exercise)
    if result.stderr:
        stderr, cut = cap(result.stderr, EXCERPT)
        case.system_err = xml_safe(stderr + ("\n[... cut]" if cut else ""))
    return case


def build(report: GradeReport) -> JUnitXml:
    xml = JUnitXml(name="fillit-moulinette")
    exercise = exercise_named(report.exercise)
    suite = TestSuite(name=f"{exercise.name} {report.suite}")
    for key, value in (
        ("score", fmt_score(report.score)),
        ("exercise", exercise.name),
        ("target", report.target),
        ("suite", report.suite),
        ("seed", report.seed),
        ("profile", report.profile),
        ("isolation", report.isolation),
        ("passed", report.passed),
        ("failed", report.failed),
    ):
        suite.add_property(key, xml_safe(str(value)))
    if report.started_at:
        suite.timestamp = report.started_at
    for result in report.results:
        suite.add_testcase(_case(result, exercise))
    suite.update_statistics()
    suite.time = round(report.duration_s, 6)
    xml.add_testsuite(suite)
    if report.checks:
        checks = TestSuite(name="project checks")
        for check in report.checks:
            case = TestCase(name=check.name, classname="project")
            if check.status == "fail":
                case.result = [Failure(xml_safe(check.message), "CHECK/fail")]
            elif check.status == "skip":
                case.result = [Skipped(xml_safe(check.message))]
            case.system_out = xml_safe(check.message)
            checks.add_testcase(case)
        checks.update_statistics()
        xml.add_testsuite(checks)
    xml.update_statistics()
    return xml


def write_junit(report: GradeReport, path: Path) -> None:
    """Write the JUnit XML; an unwritable path raises OSError."""
    buffer = io.BytesIO()
    build(report).write(buffer, pretty=True)
    with open(path, "wb") as out:
        out.write(buffer.getvalue())
