"""The HTML report: one self-contained page that answers "what is wrong, and how do I reproduce it".

Every case card carries its raw input (copyable, and as `cat -e` shows it) and the exact
commands to rerun it and to get its input file.  Failures come grouped by verdict and
diagnosis, with counts and a CSS-only filter.  Rows and columns are counted from 1
everywhere, and the squares carry their row and column numbers.

Everything the student's program printed is untrusted: the template autoescapes every
value, and no value is marked safe (the one filter that writes markup, keep_cr, escapes
first).  No external resource is referenced; the page
works without JavaScript (a few lines copy an input to the clipboard and open every
<details> before printing).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from jinja2 import Environment, FileSystemLoader, StrictUndefined
from markupsafe import Markup, escape

from generators.cases import Case, UsageLine
from harness.limits import Limits
from harness.grading.exercise import DEFAULT_EXERCISE, Exercise, exercise_named
from harness.grading.model import VERDICTS, CaseResult, GradeReport
from harness.grading.scoring import DEFAULT_WEIGHT
from reference.parser import RULES, parse
from reports.common import (
    PALETTE,
    Line,
    cap,
    cat_e,
    command_line,
    counts,
    decode_input,
    first_failure_line,
    fmt_bytes,
    fmt_kib,
    fmt_score,
    fmt_seconds,
    left_out_line,
    mark_lines,
    parse_grid,
)
from reports.groups import checks_tally, failure_groups
from reports.html_drawn import DRAWING_COLOURS, answer_drawings, plain_lines
from reports.html_grids import OUTPUT_LINES, Panel, PieceView, grid_view, piece_view, text_panel
from reports.reproduce import InputSource, input_source, rerun_command
from reports.run_facts import STOPPED, ending, limit_hit, limits_in_force
from reports.score_view import score_breakdown

TEMPLATES = Path(__file__).parent / "templates"
STDERR_LINES = 40
INPUT_LINES = 80
# The raw input kept for copying; a longer file is one command away (input_source).
RAW_INPUT_CHARS = 8 * 1024

VERDICT_TEXT = {
    "OK": "passed",
    "DISPUTED": "passed (disputed)",
    "WRONG": "wrong output",
    "TIMEOUT": "too slow",
    "CRASH": "crashed",
    "OUTPUT_LIMIT": "output flood",
    "HARNESS_ERROR": "not graded (the harness failed)",
}


# Characters an HTML page cannot carry in text (the parser drops or replaces them);
# '\r' it can, written as a character reference (see keep_carriage_returns).
_NOT_IN_HTML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


@dataclass(frozen=True)
class RawInput:
    """The input file as text to copy, and as `cat -e` shows it."""

    text: str
    cut: bool  # `text` holds only the start of the file
    exact: bool  # False: bytes that are not UTF-8 are shown as \xNN, or controls a page cannot carry
    size: str
    lines: tuple[Line, ...]
    lines_cut: bool


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
    command: str  # how the program is run: ./fillit input.fillit
    rerun: str | None  # grade ... -k ID (None: a fuzz case, in no suite)
    source: InputSource | None
    passed: bool
    stats: list[tuple[str, str]]
    raw: RawInput | None = None
    stopped: str = ""  # TIMEOUT / OUTPUT_LIMIT: the limit hit
    limits: str = ""  # CRASH: the limits in force (a refused malloc often is the cause)
    pieces: list[PieceView] = field(default_factory=list)
    input_lines: list[Line] = field(default_factory=list)
    input_cut: bool = False
    input_note: str = ""
    expected: Panel | None = None
    actual: Panel | None = None
    raw_expected: list[Line] = field(default_factory=list)
    raw_actual: list[Line] = field(default_factory=list)
    raw_open: bool = False
    show_raw: bool = False
    focus: str | None = None
    stderr_lines: list[Line] = field(default_factory=list)
    stderr_cut: bool = False
    show_stderr: bool = False
    accepted: list[Panel] = field(default_factory=list)
    drawings: list[Panel] = field(default_factory=list)  # answers drawn against the puzzle (Render.answer_drawing)


def _anchor(index: int, case_id: str) -> str:
    return f"case-{index}-" + re.sub(r"[^A-Za-z0-9_-]+", "-", case_id).strip("-")[:60]


def _raw_input(data: bytes) -> RawInput:
    text, exact = decode_input(data)
    lines, lines_cut = cat_e(text, max_lines=INPUT_LINES)
    kept, cut = cap(text, RAW_INPUT_CHARS)
    exact = exact and not _NOT_IN_HTML.search(kept)
    return RawInput(kept, cut, exact, fmt_bytes(len(data)), tuple(lines), lines_cut)


def keep_carriage_returns(text: str) -> Markup:
    """`text` escaped, with each '\r' written `&#13;`: a page's parser turns a literal CR LF
    into LF, so a CRLF input copied from the page would lose its '\r' (the defect it shows).
    The one filter that builds markup: it escapes everything first."""
    return Markup(str(escape(text)).replace("\r", "&#13;"))


def _input_part(view: CaseView, case: Case) -> None:
    if case.input is None:
        view.input_note = "no input file: the program is run as shown above"
        return
    data = case.input
    view.raw = _raw_input(data)
    parsed = parse(data)
    if parsed.pieces and (parsed.valid or parsed.disputed):
        view.pieces = [piece_view(chr(ord("A") + i), shape) for i, shape in enumerate(parsed.pieces)]
        if parsed.rejection is not None:
            view.input_note = f"disputed: {parsed.rejection.message}"
        return
    bad_line = parsed.rejection.line if parsed.rejection else None
    view.input_lines = [Line(l.number, l.tokens, l.number == bad_line) for l in view.raw.lines]
    view.input_cut = view.raw.lines_cut
    if parsed.rejection is not None:
        view.input_note = f"invalid file: {parsed.rejection.message}"
    elif case.rule:
        view.input_note = f"rule: {RULES.get(case.rule, case.rule)}"


def _piece_at(result: CaseResult, side: str) -> str:
    """not_upper_left: where the checker found the misplaced piece (`side` "actual") or where
    it belongs ("expected"), from its details (1-based), as a caption under that square."""
    details = result.verdict.details
    at = details.get(side)
    return f"piece {details['piece']}'s top-left: row {at[0]}, column {at[1]}" if at and "piece" in details else ""


def _output_part(view: CaseView, result: CaseResult) -> None:
    case = result.case
    exact = None if isinstance(case.expected, UsageLine) else case.expected
    expected_grid = parse_grid(exact) if exact is not None and exact != "error\n" else None
    if expected_grid is not None and expected_grid.lenient:
        expected_grid = None
    actual_grid = parse_grid(result.actual)
    if view.diagnosis == "not_upper_left":
        view.focus = result.verdict.details.get("piece")

    if expected_grid is not None:
        view.expected = Panel(
            f"Expected ({expected_grid.side}×{expected_grid.side})",
            grid=grid_view(expected_grid, actual_grid, view.focus, "the expected square", "yours"),
            note=_piece_at(result, "expected"),
        )
    elif exact is None:
        view.expected = Panel("Expected", lines=tuple(cat_e("usage: ./fillit source_file\n")[0]),
                              note="any single line starting with 'usage'")
    else:
        view.expected = text_panel("Expected", exact)
    for other in case.accepted:
        other_grid = parse_grid(other)
        if other_grid is not None and not other_grid.lenient:
            view.accepted.append(Panel(f"Also accepted ({other_grid.side}×{other_grid.side})",
                                       grid=grid_view(other_grid)))
        else:
            view.accepted.append(text_panel("Also accepted", other))

    if actual_grid is not None:
        note = "drawn ignoring spaces and blank lines; the exact text is below" if actual_grid.lenient else ""
        note = "; ".join(part for part in (_piece_at(result, "actual"), note) if part)
        view.actual = Panel(f"Your output ({actual_grid.side}×{actual_grid.side})",
                            grid=grid_view(actual_grid, expected_grid, view.focus, "yours", "the expected square"),
                            note=note)
        # The drawing hides the exact text (format): show both sides as `cat -e` does.
        exp_lines = cat_e(exact or "", max_lines=OUTPUT_LINES)[0]
        act_lines, _ = cat_e(result.actual, max_lines=OUTPUT_LINES)
        view.raw_expected = mark_lines(exp_lines, act_lines)
        view.raw_actual = mark_lines(act_lines, exp_lines)
        view.show_raw = True
        view.raw_open = view.diagnosis == "format" or actual_grid.lenient
    elif view.verdict in STOPPED:
        view.actual = text_panel("Your output (stdout)", result.actual, note="what it printed before it was stopped")
    else:
        view.actual = text_panel("Your output", result.actual)


def _drawn_part(view: CaseView, result: CaseResult, exercise: Exercise) -> None:
    """An exercise other than fillit: the puzzle and both answers as the exercise draws them
    (Exercise.render), lines that differ marked, and the exact texts as `cat -e` shows them."""
    case, render = result.case, exercise.render
    if case.input is not None:
        view.raw = _raw_input(case.input)
        view.input_lines = list(plain_lines(render.input_lines(case.input)))
    else:
        view.input_note = "no input: the program is run as shown above"
    exact = None if isinstance(case.expected, UsageLine) else case.expected
    expected = render.answer_lines(exact) if exact is not None else ["one line starting with 'usage'"]
    actual = render.answer_lines(result.actual) if result.actual else []
    differ = frozenset(i for i in range(1, max(len(expected), len(actual)) + 1)
                       if expected[i - 1:i] != actual[i - 1:i])
    view.expected = Panel("Expected", lines=plain_lines(expected, differ))
    for other in case.accepted:
        view.accepted.append(Panel("Also accepted", lines=plain_lines(render.answer_lines(other))))
    if not actual:
        view.actual = text_panel("Your output", result.actual,
                                 note="what it printed before it was stopped" if view.verdict in STOPPED else "")
        return
    view.actual = Panel("Your output", lines=plain_lines(actual, differ))
    view.drawings = answer_drawings(render, case.input, [("Expected, drawn", exact), ("Yours, drawn", result.actual)])
    exp_lines = cat_e(exact or "", max_lines=OUTPUT_LINES)[0]
    act_lines, _ = cat_e(result.actual, max_lines=OUTPUT_LINES)
    view.raw_expected = mark_lines(exp_lines, act_lines)
    view.raw_actual = mark_lines(act_lines, exp_lines)
    view.show_raw = True
    view.raw_open = view.diagnosis == "format"


def _stats(result: CaseResult, limits: Limits) -> list[tuple[str, str]]:
    stats = [
        ("time", f"{fmt_seconds(result.time_s)} (limit {fmt_seconds(result.time_limit_s)})"),
        ("cpu", fmt_seconds(result.cpu_s)),
        ("memory", fmt_kib(result.max_rss_kb)),
        ("ended", ending(result, limits)),
    ]
    if result.case.runs > 1:
        stats.append(("runs", str(result.case.runs)))
    return stats


def case_view(index: int, result: CaseResult, report: GradeReport) -> CaseView:
    """A card: everything for a failed case; for a passed one its input, output and commands."""
    case, verdict = result.case, result.verdict
    exercise = exercise_named(report.exercise)
    drawn_by_exercise = exercise.name != DEFAULT_EXERCISE  # fillit's squares are drawn here
    view = CaseView(
        index=index, id=case.id, anchor=_anchor(index, case.id), category=case.category,
        verdict=verdict.verdict, diagnosis=verdict.diagnosis,
        verdict_text=VERDICT_TEXT.get(verdict.verdict, verdict.verdict), message=verdict.message,
        description=case.description, command=command_line(case, exercise), rerun=rerun_command(report, case),
        source=input_source(report, case), passed=result.passed, stats=_stats(result, report.limits),
    )
    if result.passed and drawn_by_exercise:
        if case.input is not None:
            view.raw = _raw_input(case.input)
        view.actual = Panel("Your output", lines=plain_lines(exercise.render.answer_lines(result.actual)))
        return view
    if result.passed:
        if case.input is not None:
            view.raw = _raw_input(case.input)
        grid = parse_grid(result.actual)
        view.actual = (Panel("Your output", grid=grid_view(grid)) if grid is not None and not grid.lenient
                       else text_panel("Your output", result.actual))
        return view
    if drawn_by_exercise:
        _drawn_part(view, result, exercise)
    else:
        _input_part(view, case)
        _output_part(view, result)
    if verdict.verdict in ("TIMEOUT", "OUTPUT_LIMIT"):
        view.stopped = f"Stopped by the {limit_hit(result, report.limits)}"
    elif verdict.verdict == "CRASH":  # the message names the signal
        view.limits = f"Limits in force: {limits_in_force(result, report.limits)}"
    view.show_stderr = bool(result.stderr) or verdict.verdict in STOPPED
    if result.stderr:
        view.stderr_lines, view.stderr_cut = cat_e(result.stderr, max_lines=STDERR_LINES)
    return view


def _score_class(report: GradeReport) -> str:
    if report.failed == 0 and report.score >= 100:
        return "good"
    return "mid" if report.score >= 50 else "bad"


def _failure_groups(report: GradeReport) -> list[dict]:
    """The failed cards by verdict and diagnosis (case ids are unique within a run)."""
    cards = {r.case.id: case_view(i, r, report) for i, r in enumerate(report.results) if not r.passed}
    return [{"label": group.label, "slug": group.slug, "verdict": group.verdict,
             "cases": [cards[r.case.id] for r in group.results]}
            for group in failure_groups(report.results)]


def context(report: GradeReport) -> dict:
    """Everything the template shows, already computed."""
    tally = counts(report)
    total = len(report.results)
    groups = _failure_groups(report)
    limits = report.limits
    build = []
    for key, value in (report.build or {}).items():
        if isinstance(value, list):  # left_out: paths
            text = ", ".join(map(str, value))
        else:
            text = value if isinstance(value, str) else repr(value)
        build.append((str(key), text, "\n" in text or len(text) > 100))
    return {
        "report": report,
        "fillit_squares": report.exercise == DEFAULT_EXERCISE,
        "total": total,
        "score": fmt_score(report.score),
        "score_pct": max(0.0, min(100.0, float(report.score))) if report.score == report.score else 0.0,
        "score_class": _score_class(report),
        "shares": score_breakdown(report),
        "default_weight": DEFAULT_WEIGHT,
        "verdicts": [(v, tally["by_verdict"].get(v, 0)) for v in VERDICTS if tally["by_verdict"].get(v, 0)],
        "categories": [
            (name, row, round(100 * row["passed"] / row["cases"]) if row["cases"] else 0,
             [(v, row["by_verdict"][v]) for v in VERDICTS if v != "OK" and row["by_verdict"].get(v)])
            for name, row in tally["by_category"].items()
        ],
        "first_line": first_failure_line(report),
        "first": report.first_failure,
        "first_anchor": groups[0]["cases"][0].anchor if groups else "",
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
        "checks_tally": checks_tally(report.checks),
        "checks_failed": sum(1 for c in report.checks if c.status == "fail"),
        "build": build,
        "left_out": left_out_line(report.build or {}),
        "groups": groups,
        "passing": [case_view(i, r, report) for i, r in enumerate(report.results) if r.passed],
        "palette": sorted(PALETTE.items()),
        "palette_list": [colour for _, colour in sorted(PALETTE.items())],
        "drawing_colours": DRAWING_COLOURS,
    }


def _environment() -> Environment:
    environment = Environment(
        loader=FileSystemLoader(str(TEMPLATES)),
        autoescape=True,  # every value is escaped; student output is untrusted
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    environment.filters["keep_cr"] = keep_carriage_returns
    return environment


def render_html(report: GradeReport) -> str:
    return _environment().get_template("report.html.j2").render(**context(report))


def write_html(report: GradeReport, path: Path) -> None:
    """Write the page; an unwritable path raises OSError."""
    text = render_html(report)
    with open(path, "w", encoding="utf-8", errors="replace") as out:
        out.write(text)
