"""The summary printed at the end of `grade`: what failed, why, and what to do next.

In order: the table by category, the count of every verdict, the failures grouped by
verdict and diagnosis (every group named, with its count), the first failing case of each
group in full (at most MAX_SHOWN), the commands to rerun, where the reports were written,
the project checks, what the repository copy left out, the score.  A rich table with
colours on a terminal; the same content as plain text (no ANSI codes, no box drawing)
when the console is not a terminal.
A pure function of the report and of the paths written.
"""
from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from rich.console import Console
from rich.table import Table
from rich.text import Text

from harness.grading.model import VERDICTS, GradeReport
from reports.common import counts, first_failure_line, fmt_score, fmt_seconds, left_out_line
from reports.groups import checks_tally, failure_groups
from reports.reproduce import rerun_failed_command
from reports.terminal_case import Styled, case_lines

MAX_SHOWN = 3  # failing cases shown in full: the first of each group
IDS_PER_GROUP = 4  # case ids named on a group's line


def _score_style(report: GradeReport) -> str:
    if report.failed == 0 and report.score >= 100:
        return "bold green"
    return "bold yellow" if report.score >= 50 else "bold red"


def _header(report: GradeReport) -> str:
    return (f"{report.exercise} moulinette: {report.target}  (suite {report.suite}, seed {report.seed}, "
            f"profile {report.profile}, isolation {report.isolation}, {fmt_seconds(report.duration_s)})")


def _verdict_line(report: GradeReport) -> str:
    tally = counts(report)["by_verdict"]
    return "verdicts: " + " · ".join(f"{v} {tally[v]}" for v in VERDICTS if tally.get(v))


def _groups_part(report: GradeReport) -> list[Styled]:
    groups = failure_groups(report.results)
    lines = [Styled(first_failure_line(report), "red"),
             Styled(f"failures by kind ({report.failed} case{'s' if report.failed != 1 else ''}):", "bold")]
    width = max(len(group.label) for group in groups)
    for group in groups:
        ids = [r.case.id for r in group.results]
        named = ", ".join(ids[:IDS_PER_GROUP]) + (f", +{len(ids) - IDS_PER_GROUP} more" if len(ids) > IDS_PER_GROUP else "")
        lines.append(Styled(f"  {group.label:<{width}}  {len(ids):>4}  {named}", "red"))
    lines.append(Styled(""))
    shown = [group.results[0] for group in groups][:MAX_SHOWN]
    for result in shown:
        lines += case_lines(report, result, report.limits)
        lines.append(Styled(""))
    hidden = report.failed - len(shown)
    more = f"; the {hidden} other failure(s) are in the reports" if hidden else ""
    lines.append(Styled(f"shown in full: the first failing case of {len(shown)} kind(s){more}", "dim"))
    rerun = rerun_failed_command(report)
    if rerun is not None:
        lines.append(Styled(f"rerun the failures only: {rerun}", "cyan"))
    return lines


def _closing_part(report: GradeReport, written: Mapping[str, Path]) -> list[Styled]:
    lines = []
    if written:
        lines.append(Styled("reports: " + " · ".join(f"{kind} {path}" for kind, path in written.items())))
    if report.checks:
        failed_check = any(c.status == "fail" for c in report.checks)
        lines.append(Styled(f"project checks: {checks_tally(report.checks)}", "red" if failed_check else ""))
    left_out = left_out_line(report.build or {})
    if left_out:
        lines.append(Styled(left_out, "yellow"))
    return lines


def summary_lines(report: GradeReport, written: Mapping[str, Path]) -> list[Styled]:
    """Everything under the table."""
    lines = [Styled(_verdict_line(report)), Styled("")]
    if report.failed:
        lines += _groups_part(report)
    else:
        lines.append(Styled("every case passed", "green"))
    return lines + _closing_part(report, written)


def plain_lines(report: GradeReport, written: Mapping[str, Path] | None = None) -> list[str]:
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
    lines += [line.text for line in summary_lines(report, written or {})]
    lines.append(f"score: {fmt_score(report.score)}/100")
    return lines


def _table(report: GradeReport) -> Table:
    table = Table(show_footer=True, header_style="bold", footer_style="bold")
    table.add_column("category", footer="total")
    table.add_column("cases", justify="right", footer=str(len(report.results)))
    table.add_column("passed", justify="right", footer=Text(str(report.passed), style="green"))
    table.add_column("failed", justify="right",
                     footer=Text(str(report.failed), style="red" if report.failed else "dim"))
    for category, row in counts(report)["by_category"].items():
        table.add_row(category, str(row["cases"]), Text(str(row["passed"]), style="green"),
                      Text(str(row["failed"]), style="bold red" if row["failed"] else "dim"))
    return table


def _rich(report: GradeReport, console: Console, written: Mapping[str, Path]) -> None:
    console.print(Text(_header(report), style="bold"))
    console.print(_table(report))
    for line in summary_lines(report, written):
        console.print(Text(line.text, style=line.style), soft_wrap=True)
    score = Text("score: ")
    score.append(f"{fmt_score(report.score)}/100", style=_score_style(report))
    console.print(score)


def print_summary(report: GradeReport, console: Console | None = None,
                  written: Mapping[str, Path] | None = None) -> None:
    """Print the summary on `console` (default: stdout); `written` maps report kinds to paths."""
    console = console or Console()
    if console.is_terminal:
        _rich(report, console, written or {})
        return
    for line in plain_lines(report, written):
        console.print(line, markup=False, highlight=False, emoji=False, soft_wrap=True)
