"""Reports (issue 6): JSON against its schema, HTML a student can read (and that stays inert
whatever the program printed), JUnit for CI, the terminal summary, and the page as a browser
draws it."""
from __future__ import annotations

import base64
import io
import json
import random
import re
import struct
import zlib
from collections.abc import Iterator, Sequence
from html.parser import HTMLParser
from pathlib import Path

import jsonschema
import pytest
from junitparser import JUnitXml
from rich.console import Console

from generators.cases import USAGE, Case
from generators.text import to_file
from harness.limits import Limits
from harness.grading.model import CaseResult, GradeReport, ProjectCheck, Verdict
from reference.parser import parse
from reference.shapes import SHAPE_BY_NAME, Shape
from reference.solver import Solution, render, solve_text
from reports import html as html_report
from reports import json_report, junit, terminal
from reports.common import PALETTE, cat_e, hex_to_rgb, parse_grid
from browser import screenshot

SCHEMA = json.loads((Path(json_report.__file__).parent / "report.schema.json").read_text())
XSS_SCRIPT = "<script>alert(1)</script>"
XSS_IMG = "<img src=x onerror=alert(2)>"


# --------------------------------------------------------------------------- building real reports

def placements(pieces: Sequence[Shape], side: int) -> Iterator[tuple[tuple[int, int], ...]]:
    """Every placement at `side`, in the upper-left-first order (the first is the answer)."""
    grid = [[False] * side for _ in range(side)]
    chosen: list[tuple[int, int]] = []

    def fits(shape: Shape, row: int, col: int) -> bool:
        return all(row + r < side and col + c < side and not grid[row + r][col + c] for r, c in shape.cells)

    def mark(shape: Shape, row: int, col: int, value: bool) -> None:
        for r, c in shape.cells:
            grid[row + r][col + c] = value

    def walk(index: int) -> Iterator[tuple[tuple[int, int], ...]]:
        if index == len(pieces):
            yield tuple(chosen)
            return
        shape = pieces[index]
        for row in range(side):
            for col in range(side):
                if fits(shape, row, col):
                    mark(shape, row, col, True)
                    chosen.append((row, col))
                    yield from walk(index + 1)
                    chosen.pop()
                    mark(shape, row, col, False)

    return walk(0)


def square(pieces: Sequence[Shape], side: int, nth: int = 0) -> str:
    """The `nth` placement at `side` (0: the answer when `side` is minimal) as fillit prints it."""
    gen = placements(pieces, side)
    for _ in range(nth):
        next(gen)
    return render(pieces, Solution(side, next(gen)))


def shapes(*names: str) -> list[Shape]:
    return [SHAPE_BY_NAME[n] for n in names]


def result(case: Case, verdict: Verdict, actual: str, stderr: str = "", time_s: float = 0.004,
           exit_code: int | None = 0, signal: str | None = None, rss: int = 1480) -> CaseResult:
    return CaseResult(case=case, verdict=verdict, actual=actual, stderr=stderr, time_s=time_s,
                      cpu_s=min(time_s, 0.9 * time_s), max_rss_kb=rss, exit_code=exit_code, signal=signal,
                      isolation="jail", time_limit_s=10.0)


def valid_case(case_id: str, pieces: Sequence[Shape], category: str = "valid", seed: int = 1) -> Case:
    data = to_file(pieces, random.Random(seed))
    return Case(case_id, category, data, solve_text(data), description=f"{len(pieces)} pieces")


def top_lefts(text: str) -> dict[str, tuple[int, int]]:
    """Each letter's 1-based (row, column) of the top-left of its bounding box."""
    cells: dict[str, list[tuple[int, int]]] = {}
    for r, row in enumerate(text.splitlines(), start=1):
        for c, ch in enumerate(row, start=1):
            if ch != ".":
                cells.setdefault(ch, []).append((r, c))
    return {ch: (min(r for r, _ in at), min(c for _, c in at)) for ch, at in cells.items()}


OK = Verdict("OK", None, "")
SAMPLE_PIECES = shapes("L_180", "I_horizontal", "J_90", "Z_horizontal")  # the seed's four-piece example
SHIFT_PIECES = shapes("T_down", "L_0", "O", "I_vertical", "Z_horizontal")


def build_report() -> GradeReport:
    rows: list[CaseResult] = []

    sample = valid_case("valid/sample-4", SAMPLE_PIECES)
    assert sample.expected == "DDAA\nCDDA\nCCCA\nBBBB\n"
    rows.append(result(sample, OK, sample.expected))

    # A genuinely shifted square: the second placement at the minimal side.
    shifted = valid_case("valid/shifted-5", SHIFT_PIECES, seed=5)
    side = len(shifted.expected.splitlines())
    wrong = square(SHIFT_PIECES, side, nth=1)
    exp_at, act_at = top_lefts(shifted.expected), top_lefts(wrong)
    moved = next(l for l in "ABCDE" if exp_at[l] != act_at[l])
    (er, ec), (ar, ac) = exp_at[moved], act_at[moved]
    rows.append(result(shifted, Verdict(
        "WRONG", "not_upper_left",
        f"piece {moved} is at row {ar}, column {ac}; the upper-left answer has it at row {er}, column {ec}",
        {"piece": moved, "actual": [ar, ac], "expected": [er, ec]}), wrong))

    bigger = valid_case("valid/too-big-4", shapes("O", "O", "O", "O"), seed=2)
    rows.append(result(bigger, Verdict(
        "WRONG", "not_minimal", "the square is 5×5 but these pieces fit in a 4×4 square",
        {"expected_side": 4, "actual_side": 5}), square(shapes("O", "O", "O", "O"), 5)))

    spaces = valid_case("valid/trailing-spaces-3", shapes("I_horizontal", "T_up", "S_vertical"), seed=3)
    rows.append(result(spaces, Verdict(
        "WRONG", "format", "the square is right but the layout is not: trailing spaces at the end of lines",
        {"defects": ["trailing spaces at the end of lines"]}), spaces.expected.replace("\n", " \n")))

    bad = b"....\n.##.\n.#x.\n....\n"
    missed = Case("invalid/bad_char-1", "invalid", bad, "error\n", rule="char")
    rows.append(result(missed, Verdict(
        "WRONG", "missed_error", "line 3: unexpected byte b'x' (only '#', '.' and newline characters are "
        "allowed), but the program printed a square", {"rule": "char"}), "AA\nAA\n"))

    short = Case("invalid/line_length-2", "invalid", b"....\n.##..\n.##.\n....\n", "error\n", rule="line_length")
    rows.append(result(short, OK, "error\n"))

    latin = Case("invalid/latin1-byte", "invalid", b"#...\n#...\n#..\xe9\n#...\n", "error\n", rule="char")
    rows.append(result(latin, OK, "error\n"))

    crash = valid_case("valid/crash-6", shapes("L_0", "J_0", "T_up", "O", "Z_vertical", "I_horizontal"), seed=6)
    rows.append(result(crash, Verdict("CRASH", "SIGSEGV", "the program died with SIGSEGV", {"exit_code": -11}),
                       "", stderr="AddressSanitizer: SEGV on unknown address 0x000000000000\n",
                       exit_code=-11, signal="SIGSEGV"))

    big = [SHAPE_BY_NAME[n] for n in random.Random(26).choices(sorted(SHAPE_BY_NAME), k=26)]
    slow = valid_case("large/26-pieces", big, category="large", seed=7)
    rows.append(result(slow, Verdict("TIMEOUT", "wall", "the program exceeded the 10 s wall time limit and "
                                     "was killed", {"wall_s": 10.0}), "", time_s=10.02, exit_code=None,
                       signal="SIGKILL", rss=90312))

    hostile = valid_case("hard/<b>hostile</b>", shapes("O", "I_vertical"), category="hard", seed=8)
    garbage = f"{XSS_SCRIPT}\n{XSS_IMG}\n\x01\x1b[31mred\x00\n"
    rows.append(result(hostile, Verdict(
        "WRONG", "format", f"the output is not a square of '.' and letters: it starts with {XSS_SCRIPT!r}",
        {"actual": garbage}), garbage, stderr=f"debug: {XSS_SCRIPT}\n"))

    flood = valid_case("valid/flood-2", shapes("O", "O"), seed=9)
    rows.append(result(flood, Verdict("OUTPUT_LIMIT", "output", "the program printed more than the output "
                                      "limit and was killed", {"stdout_bytes": 1 << 20}),
                       "AABB\n" * 3000, exit_code=None, signal="SIGKILL"))

    overlap = valid_case("valid/overlap-3", shapes("O", "O", "I_horizontal"), seed=10)
    rows.append(result(overlap, Verdict(
        "WRONG", "bad_pieces", "piece A shows 2 cells instead of 4 (overlap or a piece drawn twice)",
        {"piece": "A", "cells": 2}), "BBA.\nBBA.\nCCCC\n....\n"))

    trailing = to_file(shapes("O")) + b"\n"
    disputed = Case("disputed/trailing_empty_line", "disputed", trailing, "error\n",
                    accepted=(solve_text(trailing, accept_disputed=True),), disputed="trailing_empty_line")
    rows.append(result(disputed, Verdict("DISPUTED", "trailing_empty_line",
                                         "disputed case trailing_empty_line: the program gave the seed's answer "
                                         "(a square); both pass by default", {"answer": "seed"}), "AA\nAA\n"))

    usage = Case("usage/no_args", "usage", None, USAGE, invocation="no_args")
    rows.append(result(usage, Verdict("WRONG", "bad_usage", "with a wrong number of arguments the program must "
                                      "print one usage line on stdout; it printed nothing on stdout", {}), ""))

    missing = Case("errors/missing_file", "errors", None, "error\n", invocation="missing_file")
    rows.append(result(missing, OK, "error\n"))

    one = valid_case("valid/one-piece", shapes("T_left"), seed=11)
    rows.append(result(one, OK, one.expected))

    passed = sum(r.passed for r in rows)
    return GradeReport(
        target="/home/student/fillit",
        suite="default",
        seed=42,
        profile="default",
        limits=Limits(),
        isolation="jail, bubblewrap 0.8.0, cgroup v1",
        results=rows,
        checks=[
            ProjectCheck("makefile_rules", "pass", "rules all, clean, fclean, re found"),
            ProjectCheck("relink", "fail", "a second `make` relinked fillit"),
            ProjectCheck("norm", "skip", "norminette is not installed"),
        ],
        started_at="2024-05-01T10:00:00+00:00",
        duration_s=12.5,
        build={"command": "make", "lenient": False, "log": "gcc -Wall -Wextra -Werror -c main.c\n<b>ok</b>\n"},
        score=round(100 * passed / len(rows), 1),
        first_failure_line="",
    )


@pytest.fixture(scope="module")
def report() -> GradeReport:
    return build_report()


@pytest.fixture(scope="module")
def page(report: GradeReport) -> str:
    return html_report.render_html(report)


def test_sample_report_is_realistic(report: GradeReport):
    shifted = next(r for r in report.results if r.case.id == "valid/shifted-5")
    exp, act = parse_grid(shifted.case.expected), parse_grid(shifted.actual)
    assert exp.side == act.side and exp.rows != act.rows
    # The shifted square holds the same pieces: only the placement differs.
    assert sorted("".join(exp.rows)) == sorted("".join(act.rows))
    assert parse(report.results[0].case.input).valid


# --------------------------------------------------------------------------- JSON

def test_schema_is_valid_draft_2020_12():
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    assert SCHEMA["$schema"] == "https://json-schema.org/draft/2020-12/schema"


def test_json_report_validates_and_holds_every_case(report: GradeReport, tmp_path: Path):
    path = tmp_path / "report.json"
    json_report.write_json(report, path)
    data = json.loads(path.read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator(SCHEMA).validate(data)
    assert data["target"] == report.target
    assert data["passed"] == report.passed and data["failed"] == report.failed
    assert data["passed"] + data["failed"] == len(data["cases"]) == data["total"]
    assert 0 <= data["score"] <= 100
    assert [c["id"] for c in data["cases"]] == [r.case.id for r in report.results]
    by_id = {c["id"]: c for c in data["cases"]}
    assert by_id["valid/sample-4"]["diagnosis"] is None
    assert by_id["valid/sample-4"]["input"] == report.results[0].case.input.decode()
    assert by_id["valid/shifted-5"]["diagnosis"] == "not_upper_left"
    assert by_id["valid/crash-6"]["signal"] == "SIGSEGV"
    assert by_id["usage/no_args"]["input"] is None
    assert data["first_failure"]["id"] == report.first_failure.case.id
    assert data["first_failure"]["line"].startswith("First failure: valid/shifted-5: WRONG (not_upper_left)")
    assert data["counts"]["by_verdict"]["OK"] == sum(r.verdict.verdict == "OK" for r in report.results)
    assert data["counts"]["by_category"]["invalid"] == {
        "cases": 3, "passed": 2, "failed": 1, "by_verdict": {"WRONG": 1, "OK": 2}}
    assert sum(c["cases"] for c in data["counts"]["by_category"].values()) == len(report.results)
    assert [c["status"] for c in data["checks"]] == ["pass", "fail", "skip"]


def test_json_non_utf8_input_is_escaped_and_exact_in_base64(report: GradeReport):
    case = next(c for c in json_report.to_dict(report)["cases"] if c["id"] == "invalid/latin1-byte")
    assert "\\xe9" in case["input"]
    assert base64.b64decode(case["input_base64"]) == b"#...\n#...\n#..\xe9\n#...\n"
    assert case["input_bytes"] == 20
    assert all(c["input_base64"] is None for c in json_report.to_dict(report)["cases"]
               if c["id"] != "invalid/latin1-byte")


def test_docs_describe_every_field():
    doc = (Path(__file__).parent.parent / "docs" / "json-report.md").read_text(encoding="utf-8")
    assert "reports/report.schema.json" in doc
    fields = list(SCHEMA["properties"]) + list(SCHEMA["$defs"]["case"]["properties"])
    missing = [name for name in fields if f"`{name}`" not in doc]
    assert not missing, missing


@pytest.mark.parametrize("breakage", [
    lambda d: d["cases"][0].update(verdict="MAYBE"),
    lambda d: d["cases"][0].update(diagnosis="not_minimal"),  # OK with a diagnosis
    lambda d: d["cases"][1].update(diagnosis="sloppy"),  # WRONG with an unknown diagnosis
    lambda d: d["cases"][1].pop("actual"),
    lambda d: d.update(score=140),
    lambda d: d.pop("counts"),
])
def test_schema_rejects_broken_reports(report: GradeReport, breakage):
    data = json.loads(json_report.dumps(report))
    breakage(data)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.Draft202012Validator(SCHEMA).validate(data)


# --------------------------------------------------------------------------- HTML

class Page(HTMLParser):
    """Collects what matters: elements with their attributes, the text, the grids' cells."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.elements: list[tuple[str, dict[str, str | None]]] = []
        self.scripts: list[str] = []
        self.text: list[str] = []
        self.grids: list[list[tuple[str, str]]] = []  # per div.grid: (classes, text) of each cell
        self.ids: list[str] = []
        self._in_script = False
        self._cell: list[str] | None = None
        self._open_details: list[bool] = []
        self.closed_details_text: list[str] = []

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        self.elements.append((tag, attributes))
        if "id" in attributes:
            self.ids.append(attributes["id"])
        classes = (attributes.get("class") or "").split()
        if tag == "script":
            self._in_script = True
            self.scripts.append("")
        if tag == "div" and "grid" in classes:
            self.grids.append([])
        if tag == "span" and "cell" in classes and self.grids:
            self._cell = [" ".join(classes), ""]
        if tag == "details":
            self._open_details.append("open" in attributes)

    def handle_endtag(self, tag):
        if tag == "script":
            self._in_script = False
        if tag == "span" and self._cell is not None:
            self.grids[-1].append((self._cell[0], self._cell[1]))
            self._cell = None
        if tag == "details" and self._open_details:
            self._open_details.pop()

    def handle_data(self, data):
        if self._in_script:
            self.scripts[-1] += data
            return
        if self._cell is not None:
            self._cell[1] += data
        self.text.append(data)
        if self._open_details and not all(self._open_details):
            self.closed_details_text.append(data)

    @property
    def plain(self) -> str:
        return re.sub(r"\s+", " ", "".join(self.text))


@pytest.fixture(scope="module")
def parsed(page: str) -> Page:
    parser = Page()
    parser.feed(page)
    parser.close()
    return parser


def _squash(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def test_html_shows_summary_and_every_failure(report: GradeReport, parsed: Page):
    text = parsed.plain
    assert "fillit report" in text
    assert f"{report.score:g}" in text
    for r in report.results:
        if not r.passed:
            assert r.case.id in text
            assert _squash(r.verdict.message) in text, r.case.id
    assert "First failure" in text and "valid/shifted-5" in text
    for category in ("valid", "invalid", "usage", "errors", "large", "hard", "disputed"):
        assert category in text
    assert "bubblewrap" in text and "relink" in text and "norminette is not installed" in text
    assert "10 s" in text  # the wall limit


def _grid_rows(cells: list[tuple[str, str]], side: int) -> list[str]:
    letters = [text or "." for _, text in cells]
    return ["".join(letters[i * side:(i + 1) * side]) for i in range(side)]


def test_html_draws_expected_and_actual_squares_with_differences_marked(report: GradeReport, parsed: Page):
    shifted = next(r for r in report.results if r.case.id == "valid/shifted-5")
    side = len(shifted.case.expected.splitlines())
    expected_rows, actual_rows = shifted.case.expected.splitlines(), shifted.actual.splitlines()
    drawn = [g for g in parsed.grids if len(g) == side * side]
    exp = next(g for g in drawn if _grid_rows(g, side) == expected_rows)
    act = next(g for g in drawn if _grid_rows(g, side) == actual_rows)
    differing = sum(a != b for ea, aa in zip(expected_rows, actual_rows) for a, b in zip(ea, aa))
    assert differing > 0
    assert sum("diff" in classes for classes, _ in exp) == differing
    assert sum("diff" in classes for classes, _ in act) == differing
    # Letter cells carry their letter's colour class; empty cells none.
    for classes, text in act:
        assert (f"L{text}" in classes.split()) if text else ("e" in classes.split())
    # The moved piece is framed in both squares.
    moved = shifted.verdict.details["piece"]
    assert {t for c, t in act if "focus" in c} == {moved}
    # The input pieces are drawn too: five small grids of four coloured cells each.
    pieces = [g for g in parsed.grids if sum("cell L" in c for c, _ in g) == 4 and len(g) <= 8]
    assert len(pieces) >= 5


def test_html_shows_text_when_output_is_not_a_square(parsed: Page, page: str):
    text = parsed.plain
    assert "(nothing on stdout)" in text  # the crash
    assert "AddressSanitizer: SEGV" in text  # its stderr
    assert "[… cut]" in text  # the flood is capped
    assert page.count("AABB") < 200
    assert "^A" in text and "^[" in text and "^@" in text  # control characters made visible
    assert "·$" in text.replace(" ", "")  # trailing spaces visible in the cat -e view


def test_html_keeps_student_output_inert(parsed: Page, page: str):
    # The payload is shown as text...
    assert XSS_SCRIPT in parsed.plain and XSS_IMG in parsed.plain
    # ...but never as markup: one script element (the print helper), no handler attributes.
    assert "alert" not in "".join(parsed.scripts)
    assert sum(tag == "script" for tag, _ in parsed.elements) == 1
    assert "<script>alert" not in page and "<img" not in page and "<b>" not in page
    for tag, attributes in parsed.elements:
        assert tag != "img"
        assert not any(name.startswith("on") for name in attributes), (tag, attributes)


def test_html_is_self_contained(parsed: Page, page: str):
    for tag, attributes in parsed.elements:
        for name in ("src", "href", "action", "srcset", "poster", "data"):
            value = (attributes.get(name) or "").strip().lower()
            assert not value.startswith(("http:", "https:", "//", "ftp:")), (tag, name, value)
        if tag == "link":
            pytest.fail("a <link> element")
        if tag == "a" and attributes.get("href"):
            assert attributes["href"].startswith("#")
    assert "@import" not in page and "url(" not in page


def test_html_prints_everything_and_fits_a_phone(page: str):
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in page
    assert "@media (max-width: 600px)" in page
    css_print = page[page.index("@media print"):]
    assert "break-inside: avoid" in css_print and "details::details-content" in css_print
    assert "print-color-adjust: exact" in css_print
    assert 'addEventListener("beforeprint"' in page


def test_html_links_and_ids(parsed: Page):
    assert len(parsed.ids) == len(set(parsed.ids))
    links = [a["href"][1:] for tag, a in parsed.elements if tag == "a" and a.get("href", "").startswith("#")]
    assert links and all(target in parsed.ids for target in links)


def test_passing_cases_are_collapsed_but_present(report: GradeReport, parsed: Page):
    hidden = "".join(parsed.closed_details_text)
    for r in report.results:
        if r.passed:
            assert r.case.id in hidden
    assert "disputed case trailing_empty_line" in hidden
    # Failures are not hidden.
    assert "valid/shifted-5" not in re.sub(r"First failure.*", "", hidden)


def test_html_for_a_clean_run(report: GradeReport):
    clean = GradeReport(target="./fillit", suite="quick", seed=1, profile="strict", limits=Limits(),
                        isolation="rlimits", results=[r for r in report.results if r.verdict.verdict == "OK"],
                        score=100.0)
    parser = Page()
    parser.feed(html_report.render_html(clean))
    assert "Every case passed" in parser.plain
    assert "Failed cases" not in parser.plain


def test_html_strict_disputed_failure_shows_both_answers():
    data = to_file(shapes("O")) + b"\n"
    case = Case("disputed/trailing_empty_line", "disputed", data, "error\n",
                accepted=(solve_text(data, accept_disputed=True),), disputed="trailing_empty_line")
    message = ("disputed case trailing_empty_line: the strict profile expects error like the 42 moulinette, "
               "the program printed a square")
    strict = GradeReport(target="./fillit", suite="quick", seed=3, profile="strict", limits=Limits(),
                         isolation="rlimits", score=0.0,
                         results=[result(case, Verdict("WRONG", "missed_error", message, {"answer": "seed"}),
                                         "AA\nAA\n")])
    parser = Page()
    parser.feed(html_report.render_html(strict))
    assert message in parser.plain
    assert "Also accepted (2×2)" in parser.plain and "error$" in parser.plain.replace(" ", "")
    squares = [g for g in parser.grids if [t for _, t in g] == ["A", "A", "A", "A"]]
    assert len(squares) >= 3  # the accepted answer, the student's square, and the input piece
    assert "disputed: " in parser.plain  # the input note names the disputed rule


def test_writers_raise_oserror_on_unwritable_path(report: GradeReport, tmp_path: Path):
    missing = tmp_path / "no" / "such" / "dir" / "out"
    for write in (json_report.write_json, html_report.write_html, junit.write_junit):
        with pytest.raises(OSError):
            write(report, missing)
        with pytest.raises(OSError):
            write(report, tmp_path)  # a directory


def test_write_html_writes_the_rendered_page(report: GradeReport, page: str, tmp_path: Path):
    path = tmp_path / "report.html"
    html_report.write_html(report, path)
    assert path.read_text(encoding="utf-8") == page


# --------------------------------------------------------------------------- JUnit

def test_junit_parses_back_with_the_right_counts(report: GradeReport, tmp_path: Path):
    path = tmp_path / "junit.xml"
    junit.write_junit(report, path)
    xml = JUnitXml.fromfile(str(path))
    suites = list(xml)
    cases_suite, checks_suite = suites
    assert cases_suite.tests == len(report.results)
    assert cases_suite.failures == report.failed
    assert cases_suite.errors == 0
    cases = {c.name: c for c in cases_suite}
    assert set(cases) == {r.case.id for r in report.results}
    shifted = cases["valid/shifted-5"]
    assert shifted.classname == "valid"
    (failure,) = shifted.result
    assert failure.type == "WRONG/not_upper_left"
    assert failure.message.startswith("piece ")
    assert "--- expected ---" in shifted.system_out and report.results[1].case.expected.split()[0] in shifted.system_out
    assert cases["valid/sample-4"].is_passed
    assert cases["valid/crash-6"].result[0].type == "CRASH/SIGSEGV"
    assert "<script>" in cases["hard/<b>hostile</b>"].system_out  # as text, parsed back
    properties = {p.name: p.value for p in cases_suite.properties()}
    assert float(properties["score"]) == pytest.approx(report.score)
    assert checks_suite.tests == 3 and checks_suite.failures == 1 and checks_suite.skipped == 1


# --------------------------------------------------------------------------- terminal

def test_terminal_plain_when_not_a_tty(report: GradeReport):
    out = io.StringIO()
    terminal.print_summary(report, Console(file=out, force_terminal=False, width=120))
    text = out.getvalue()
    assert "\x1b" not in text
    assert f"score: {report.score:g}/100" in text
    assert re.search(r"^invalid\s+3\s+2\s+1$", text, re.M)
    assert re.search(r"^total\s+%d\s+%d\s+%d$" % (len(report.results), report.passed, report.failed), text, re.M)
    assert "First failure: valid/shifted-5: WRONG (not_upper_left): piece" in text
    assert "project checks: 1 passed, 1 failed (relink), 1 skipped (norm)" in text


def test_terminal_rich_table_on_a_tty(report: GradeReport):
    out = io.StringIO()
    terminal.print_summary(report, Console(file=out, force_terminal=True, color_system="truecolor", width=120))
    text = out.getvalue()
    assert "\x1b[" in text
    plain = re.sub(r"\x1b\[[0-9;]*m", "", text)
    assert "┃" in plain or "│" in plain
    assert re.search(r"invalid\s*│\s*3\s*│\s*2\s*│\s*1", plain)
    assert f"{report.score:g}/100" in plain


def test_terminal_is_a_function_of_the_report(report: GradeReport):
    outputs = []
    for _ in range(2):
        out = io.StringIO()
        terminal.print_summary(report, Console(file=out, force_terminal=False, width=120))
        outputs.append(out.getvalue())
    assert outputs[0] == outputs[1]


# --------------------------------------------------------------------------- helpers

def test_parse_grid_exact_lenient_or_none():
    assert parse_grid("AB\nBA\n").rows == ("AB", "BA") and not parse_grid("AB\nBA\n").lenient
    lenient = parse_grid("A B \n\nB A")
    assert lenient.rows == ("AB", "BA") and lenient.lenient
    assert parse_grid("error\n") is None
    assert parse_grid("") is None
    assert parse_grid("AB\nB\n") is None


def test_cat_e_shows_line_ends_and_controls():
    lines, cut = cat_e("AB \r\nC")
    shown = ["".join(t.text for t in line.tokens) for line in lines]
    assert shown == ["AB·^M$", "C"] and not cut
    assert cat_e("A\n" * 100, max_lines=10)[1]


def test_palette_is_fixed_and_distinct():
    assert len(PALETTE) == 26 and len(set(PALETTE.values())) == 26
    assert PALETTE["A"] == html_report.PALETTE["A"]
    rgb = [hex_to_rgb(c) for c in PALETTE.values()]
    # Neighbours in file order must not look alike.
    for a, b in zip(rgb, rgb[1:]):
        assert sum(abs(x - y) for x, y in zip(a, b)) > 60


# --------------------------------------------------------------------------- in a browser

def read_png(data: bytes) -> tuple[int, int, list[bytes]]:
    """Width, height and RGB rows of an 8-bit RGB/RGBA non-interlaced PNG."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, header = 8, b"", None
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos:pos + 4])
        kind, body = data[pos + 4:pos + 8], data[pos + 8:pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        elif kind == b"IEND":
            break
    width, height, depth, colour, _, _, interlace = header
    assert depth == 8 and colour in (2, 6) and interlace == 0, header
    channels = 3 if colour == 2 else 4
    raw = zlib.decompress(idat)
    stride = width * channels
    rows, previous, offset = [], bytearray(stride), 0
    for _ in range(height):
        kind, line = raw[offset], bytearray(raw[offset + 1:offset + 1 + stride])
        offset += 1 + stride
        for i in range(stride):
            left = line[i - channels] if i >= channels else 0
            up = previous[i]
            corner = previous[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + left) & 0xFF
            elif kind == 2:
                line[i] = (line[i] + up) & 0xFF
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 0xFF
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                pred = left if pa <= pb and pa <= pc else up if pb <= pc else corner
                line[i] = (line[i] + pred) & 0xFF
        previous = line
        rgb = bytes(line) if channels == 3 else bytes(b for j, b in enumerate(line) if j % 4 != 3)
        rows.append(rgb)
    return width, height, rows


def test_read_png_roundtrip():
    # A 2x2 RGB PNG written by hand with the Up and Paeth filters.
    raw = b"\x00" + bytes([255, 0, 0, 0, 255, 0]) + b"\x04" + bytes([0, 0, 255, 255, 255, 255])
    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
    png = (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 2, 2, 8, 2, 0, 0, 0))
           + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))
    width, height, rows = read_png(png)
    assert (width, height) == (2, 2)
    pixels = [rows[y][x * 3:x * 3 + 3] for y in range(2) for x in range(2)]
    assert pixels[0] == bytes([255, 0, 0]) and pixels[1] == bytes([0, 255, 0])
    # Paeth by hand: first pixel predicts from above; second per channel from left/up/corner.
    assert pixels[2] == bytes([255, 0, 255])
    assert pixels[3] == bytes([255, 254, 254])


@pytest.mark.slow
def test_browser_draws_the_grids(report: GradeReport, tmp_path: Path):
    html_path = tmp_path / "report.html"
    html_report.write_html(report, html_path)
    width, height, rows = read_png(screenshot(html_path, tmp_path / "shot.png", tmp_path / "profile"))
    assert (width, height) == (1200, 2000)
    colours: dict[bytes, int] = {}
    for row in rows:
        for x in range(0, len(row), 3):
            pixel = row[x:x + 3]
            colours[pixel] = colours.get(pixel, 0) + 1
    # Not blank: the page is mostly light, with plenty of distinct colours.
    assert len(colours) > 50
    assert max(colours.values()) < width * height * 0.9
    # The grids: palette colours fill whole cells (solid pixels, not anti-aliasing fringes).
    seen = {letter: colours.get(bytes(hex_to_rgb(colour)), 0) for letter, colour in PALETTE.items()}
    drawn = [letter for letter, n in seen.items() if n >= 100]
    assert len(drawn) >= 5, seen
    assert {"A", "B", "C", "D", "E"} <= set(drawn)


@pytest.mark.slow
def test_browser_phone_width_keeps_grids_visible(report: GradeReport, tmp_path: Path):
    html_path = tmp_path / "report.html"
    html_report.write_html(report, html_path)
    width, _, rows = read_png(screenshot(html_path, tmp_path / "phone.png", tmp_path / "profile", "390,4000"))
    assert width == 390
    target = {bytes(hex_to_rgb(PALETTE[l])) for l in "ABCDE"}
    hits = sum(1 for row in rows for x in range(0, len(row), 3) if row[x:x + 3] in target)
    assert hits >= 500
