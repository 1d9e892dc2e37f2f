"""The HTML report: one self-contained page a student understands at a glance.

Everything the student's program printed is untrusted: the template autoescapes every
value, and no value is ever marked safe.  No external resource is referenced; the page
needs no JavaScript (a few lines only open every <details> before printing).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from jinja2 import Environment, FileSystemLoader, StrictUndefined

from generators.cases import Case
from harness.model import VERDICTS, CaseResult, GradeReport
from reference.parser import RULES, parse
from reports.common import (
    PALETTE,
    Grid,
    Line,
    cat_e,
    command_line,
    counts,
    decode_input,
    first_failure_line,
    fmt_bytes,
    fmt_kib,
    fmt_score,
    fmt_seconds,
    mark_lines,
    moved_piece,
    parse_grid,
)

TEMPLATES = Path(__file__).parent / "templates"
STDERR_LINES = 40
OUTPUT_LINES = 60
INPUT_LINES = 80

VERDICT_TEXT = {
    "OK": "passed",
    "DISPUTED": "passed (disputed)",
    "WRONG": "wrong output",
    "TIMEOUT": "too slow",
    "CRASH": "crashed",
    "OUTPUT_LIMIT": "output flood",
    "HARNESS_ERROR": "not graded (the harness failed)",
}


@dataclass(frozen=True)
class Cell:
    text: str  # what the cell shows ("" for an empty cell)
    css: str  # classes
    title: str = ""


@dataclass(frozen=True)
class GridView:
    side: int
    width: int
    rows: tuple[tuple[Cell, ...], ...]
    lenient: bool = False
    diffs: int = 0


@dataclass(frozen=True)
class Panel:
    """One side of the comparison: a drawn grid, or text as `cat -e` shows it."""

    title: str
    grid: GridView | None = None
    lines: tuple[Line, ...] = ()
    cut: bool = False
    empty: bool = False
    note: str = ""


@dataclass(frozen=True)
class PieceView:
    letter: str
    grid: GridView


@dataclass
class CaseView:
    index: int
    id: str
    anchor: str
    category: str
    verdict: str
    diagnosis: str | None
    verdict_text: str
    message: str
    description: str
    command: str
    passed: bool
    stats: list[tuple[str, str]]
    pieces: list[PieceView] = field(default_factory=list)
    input_lines: list[Line] = field(default_factory=list)
    input_cut: bool = False
    input_note: str = ""
    input_size: str = ""
    expected: Panel | None = None
    actual: Panel | None = None
    raw_expected: list[Line] = field(default_factory=list)
    raw_actual: list[Line] = field(default_factory=list)
    raw_open: bool = False
    show_raw: bool = False
    focus: str | None = None
    stderr_lines: list[Line] = field(default_factory=list)
    stderr_cut: bool = False
    accepted: list[Panel] = field(default_factory=list)


def _anchor(index: int, case_id: str) -> str:
    return f"case-{index}-" + re.sub(r"[^A-Za-z0-9_-]+", "-", case_id).strip("-")[:60]


def _cell(ch: str, diff: bool = False, focus: bool = False, title: str = "") -> Cell:
    if ch == ".":
        css = "cell e"
        text = ""
    elif ch in PALETTE:
        css = f"cell L{ch}"
        text = ch
    else:
        css = "cell x"
        text = ch
    if diff:
        css += " diff"
    if focus:
        css += " focus"
    return Cell(text, css, title)


def grid_view(grid: Grid, other: Grid | None = None, focus: str | None = None, mine: str = "this square",
              theirs: str = "the other") -> GridView:
    """`grid` drawn; when `other` has the same side, cells that differ are marked."""
    compare = other is not None and other.side == grid.side
    rows = []
    diffs = 0
    for r, row in enumerate(grid.rows):
        cells = []
        for c, ch in enumerate(row):
            diff = compare and other.at(r, c) != ch
            title = ""
            if diff:
                diffs += 1
                title = f"row {r + 1}, column {c + 1}: {mine} has {ch!r}, {theirs} has {other.at(r, c)!r}"
            cells.append(_cell(ch, diff, focus is not None and ch == focus, title))
        rows.append(tuple(cells))
    return GridView(grid.side, grid.side, tuple(rows), grid.lenient, diffs)


def _piece_view(letter: str, shape) -> PieceView:
    rows = tuple(
        tuple(_cell(letter if (r, c) in shape.cells else ".") for c in range(shape.width))
        for r in range(shape.height)
    )
    return PieceView(letter, GridView(shape.height, shape.width, rows))


def _text_panel(title: str, text: str) -> Panel:
    if text == "":
        return Panel(title, empty=True)
    lines, cut = cat_e(text, max_lines=OUTPUT_LINES)
    return Panel(title, lines=tuple(lines), cut=cut)


def _input_part(view: CaseView, case: Case) -> None:
    if case.input is None:
        view.input_note = "no input file: the program is run as shown above"
        return
    data = case.input
    view.input_size = fmt_bytes(len(data))
    parsed = parse(data)
    if parsed.pieces and (parsed.valid or parsed.disputed):
        view.pieces = [_piece_view(chr(ord("A") + i), shape) for i, shape in enumerate(parsed.pieces)]
        if parsed.rejection is not None:
            view.input_note = f"disputed: {parsed.rejection.message}"
    else:
        text, exact = decode_input(data)
        lines, cut = cat_e(text, max_lines=INPUT_LINES)
        bad_line = parsed.rejection.line if parsed.rejection else None
        view.input_lines = [Line(l.number, l.tokens, l.number == bad_line) for l in lines]
        view.input_cut = cut
        if parsed.rejection is not None:
            view.input_note = f"invalid file: {parsed.rejection.message}"
        elif case.rule:
            view.input_note = f"rule: {RULES.get(case.rule, case.rule)}"
        if not exact:
            view.input_note += " (bytes that are not UTF-8 are shown as \\xNN)"


def _output_part(view: CaseView, result: CaseResult) -> None:
    case = result.case
    expected_grid = parse_grid(case.expected) if case.expected not in ("error\n",) else None
    actual_grid = parse_grid(result.actual)
    if expected_grid is not None and expected_grid.lenient:
        expected_grid = None
    view.focus = moved_piece(expected_grid, actual_grid) if expected_grid and actual_grid else None
    if view.verdict != "WRONG" or (view.diagnosis or "") != "not_upper_left":
        view.focus = None

    if expected_grid is not None:
        view.expected = Panel(
            f"Expected ({expected_grid.side}×{expected_grid.side})",
            grid=grid_view(expected_grid, actual_grid, view.focus, "the expected square", "yours"),
        )
    elif case.expected == "usage":
        view.expected = Panel("Expected", lines=tuple(cat_e("usage: ./fillit source_file\n")[0]),
                              note="any single line starting with 'usage'")
    else:
        view.expected = _text_panel("Expected", case.expected)
    for other in case.accepted:
        other_grid = parse_grid(other)
        if other_grid is not None and not other_grid.lenient:
            view.accepted.append(Panel(f"Also accepted ({other_grid.side}×{other_grid.side})",
                                       grid=grid_view(other_grid)))
        else:
            view.accepted.append(_text_panel("Also accepted", other))

    if actual_grid is not None:
        note = ""
        if actual_grid.lenient:
            note = "drawn ignoring spaces and blank lines; the exact text is below"
        view.actual = Panel(
            f"Your output ({actual_grid.side}×{actual_grid.side})",
            grid=grid_view(actual_grid, expected_grid, view.focus, "yours", "the expected square"),
            note=note,
        )
    else:
        view.actual = _text_panel("Your output", result.actual)
        if result.verdict.verdict in ("CRASH", "TIMEOUT", "OUTPUT_LIMIT") and result.actual:
            view.actual = Panel(view.actual.title, lines=view.actual.lines, cut=view.actual.cut,
                                note="what it printed before it was stopped")

    if actual_grid is not None:
        # The drawing hides the exact text (format): show both sides as `cat -e` does.
        exp_lines = cat_e(case.expected if case.expected != "usage" else "", max_lines=OUTPUT_LINES)[0]
        act_lines, _ = cat_e(result.actual, max_lines=OUTPUT_LINES)
        view.raw_expected = mark_lines(exp_lines, act_lines)
        view.raw_actual = mark_lines(act_lines, exp_lines)
        view.show_raw = True
        view.raw_open = view.diagnosis == "format" or actual_grid.lenient


def case_view(index: int, result: CaseResult, full: bool) -> CaseView:
    case, verdict = result.case, result.verdict
    stats = [
        ("time", f"{fmt_seconds(result.time_s)} (limit {fmt_seconds(result.time_limit_s)})"),
        ("cpu", fmt_seconds(result.cpu_s)),
        ("memory", fmt_kib(result.max_rss_kb)),
        ("exit", "killed by " + result.signal if result.signal else str(result.exit_code)),
    ]
    if case.runs > 1:
        stats.append(("runs", str(case.runs)))
    view = CaseView(
        index=index,
        id=case.id,
        anchor=_anchor(index, case.id),
        category=case.category,
        verdict=verdict.verdict,
        diagnosis=verdict.diagnosis,
        verdict_text=VERDICT_TEXT.get(verdict.verdict, verdict.verdict),
        message=verdict.message,
        description=case.description,
        command=command_line(case),
        passed=result.passed,
        stats=stats,
    )
    if full:
        _input_part(view, case)
        _output_part(view, result)
        if result.stderr:
            lines, cut = cat_e(result.stderr, max_lines=STDERR_LINES)
            view.stderr_lines, view.stderr_cut = lines, cut
    else:
        grid = parse_grid(result.actual)
        if grid is not None and not grid.lenient:
            view.actual = Panel("Your output", grid=grid_view(grid))
        else:
            view.actual = _text_panel("Your output", result.actual)
    return view


def _score_class(report: GradeReport) -> str:
    if report.failed == 0 and report.score >= 100:
        return "good"
    return "mid" if report.score >= 50 else "bad"


def context(report: GradeReport) -> dict:
    """Everything the template shows, already computed."""
    tally = counts(report)
    total = len(report.results)
    first = report.first_failure
    failing = [case_view(i, r, True) for i, r in enumerate(report.results) if not r.passed]
    passing = [case_view(i, r, False) for i, r in enumerate(report.results) if r.passed]
    first_anchor = failing[0].anchor if failing else ""
    limits = report.limits
    build = []
    for key, value in (report.build or {}).items():
        text = value if isinstance(value, str) else repr(value)
        build.append((str(key), text, "\n" in text or len(text) > 100))
    return {
        "report": report,
        "total": total,
        "score": fmt_score(report.score),
        "score_pct": max(0.0, min(100.0, float(report.score))) if report.score == report.score else 0.0,
        "score_class": _score_class(report),
        "verdicts": [(v, tally["by_verdict"].get(v, 0)) for v in VERDICTS if tally["by_verdict"].get(v, 0)],
        "categories": [
            (name, row, round(100 * row["passed"] / row["cases"]) if row["cases"] else 0,
             [(v, row["by_verdict"][v]) for v in VERDICTS if v != "OK" and row["by_verdict"].get(v)])
            for name, row in tally["by_category"].items()
        ],
        "first_line": first_failure_line(report),
        "first": first,
        "first_anchor": first_anchor,
        "limits": [
            ("wall time", fmt_seconds(limits.wall_s)),
            ("CPU time", fmt_seconds(limits.cpu_s)),
            ("memory", fmt_bytes(limits.memory_bytes)),
            ("stdout", fmt_bytes(limits.output_bytes)),
            ("file size", fmt_bytes(limits.file_size_bytes)),
            ("processes", str(limits.processes)),
            ("open files", str(limits.open_files)),
        ],
        "duration": fmt_seconds(report.duration_s),
        "checks": report.checks,
        "checks_failed": sum(1 for c in report.checks if c.status == "fail"),
        "build": build,
        "failing": failing,
        "passing": passing,
        "palette": sorted(PALETTE.items()),
    }


def _environment() -> Environment:
    return Environment(
        loader=FileSystemLoader(str(TEMPLATES)),
        autoescape=True,  # every value is escaped; student output is untrusted
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )


def render_html(report: GradeReport) -> str:
    return _environment().get_template("report.html.j2").render(**context(report))


def write_html(report: GradeReport, path: Path) -> None:
    """Write the page; an unwritable path raises OSError."""
    text = render_html(report)
    with open(path, "w", encoding="utf-8", errors="replace") as out:
        out.write(text)
