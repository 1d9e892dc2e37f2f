"""The summary printed at the end of `grade`: a table by category, the first failure, the score.

A rich table with colours on a terminal; plain text (no ANSI codes, no box drawing) when the
console is not a terminal (a pipe, a CI log, a file).  A pure function of the report.
"""
from __future__ import annotations

from rich.console import Console
from rich.table import Table
from rich.text import Text

from harness.model import GradeReport
from reports.common import counts, first_failure_line, fmt_score, fmt_seconds, verdict_label

MAX_LISTED = 10  # failed cases listed under the table


def _score_style(report: GradeReport) -> str:
    if report.failed == 0 and report.score >= 100:
        return "bold green"
    return "bold yellow" if report.score >= 50 else "bold red"


def _checks_line(report: GradeReport) -> str:
    if not report.checks:
        return ""
    tally = {s: [c.name for c in report.checks if c.status == s] for s in ("pass", "fail", "skip")}
    parts = [f"{len(tally['pass'])} passed"]
    if tally["fail"]:
        parts.append(f"{len(tally['fail'])} failed ({', '.join(tally['fail'])})")
    if tally["skip"]:
        parts.append(f"{len(tally['skip'])} skipped ({', '.join(tally['skip'])})")
    return "project checks: " + ", ".join(parts)


def _header(report: GradeReport) -> str:
    return (f"fillit moulinette: {report.target}  (suite {report.suite}, seed {report.seed}, "
            f"profile {report.profile}, isolation {report.isolation}, {fmt_seconds(report.duration_s)})")


def plain_lines(report: GradeReport) -> list[str]:
    """The summary as plain text lines."""
    rows = [("category", "cases", "passed", "failed")]
    for category, row in counts(report)["by_category"].items():
        rows.append((category, str(row["cases"]), str(row["passed"]), str(row["failed"])))
    rows.append(("total", str(len(report.results)), str(report.passed), str(report.failed)))
    width = max(len(r[0]) for r in rows)
    lines = [_header(report), ""]
    for i, (category, *numbers) in enumerate(rows):
        if i == len(rows) - 1:
            lines.append("-" * (width + 3 * 8))
        lines.append(category.ljust(width) + "".join(n.rjust(8) for n in numbers))
    lines.append("")
    failures = [r for r in report.results if not r.passed]
    if failures:
        lines.append(first_failure_line(report))
        if len(failures) > 1:
            lines.append(f"failed cases ({len(failures)}):")
            for result in failures[:MAX_LISTED]:
                lines.append(f"  {result.case.id}: {verdict_label(result)}")
            if len(failures) > MAX_LISTED:
                lines.append(f"  ... and {len(failures) - MAX_LISTED} more")
    else:
        lines.append("every case passed")
    if report.checks:
        lines.append(_checks_line(report))
    lines.append(f"score: {fmt_score(report.score)}/100")
    return lines


def _rich(report: GradeReport, console: Console) -> None:
    console.print(Text(_header(report), style="bold"))
    table = Table(show_footer=True, header_style="bold", footer_style="bold")
    table.add_column("category", footer="total")
    table.add_column("cases", justify="right", footer=str(len(report.results)))
    table.add_column("passed", justify="right", footer=Text(str(report.passed), style="green"))
    table.add_column("failed", justify="right",
                     footer=Text(str(report.failed), style="red" if report.failed else "dim"))
    for category, row in counts(report)["by_category"].items():
        table.add_row(
            category,
            str(row["cases"]),
            Text(str(row["passed"]), style="green"),
            Text(str(row["failed"]), style="bold red" if row["failed"] else "dim"),
        )
    console.print(table)
    failures = [r for r in report.results if not r.passed]
    if failures:
        console.print(Text(first_failure_line(report), style="red"))
        if len(failures) > 1:
            console.print(Text(f"failed cases ({len(failures)}):", style="bold"))
            for result in failures[:MAX_LISTED]:
                line = Text("  ")
                line.append(result.case.id, style="bold")
                line.append(": ")
                line.append(verdict_label(result), style="red")
                console.print(line)
            if len(failures) > MAX_LISTED:
                console.print(Text(f"  ... and {len(failures) - MAX_LISTED} more", style="dim"))
    else:
        console.print(Text("every case passed", style="green"))
    if report.checks:
        failed_check = any(c.status == "fail" for c in report.checks)
        console.print(Text(_checks_line(report), style="red" if failed_check else ""))
    score = Text("score: ")
    score.append(f"{fmt_score(report.score)}/100", style=_score_style(report))
    console.print(score)


def print_summary(report: GradeReport, console: Console | None = None) -> None:
    """Print the summary on `console` (default: stdout)."""
    console = console or Console()
    if console.is_terminal:
        _rich(report, console)
        return
    for line in plain_lines(report):
        console.print(line, markup=False, highlight=False, emoji=False, soft_wrap=True)
