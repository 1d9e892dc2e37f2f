"""The HTML report of real runs, parsed (html.parser): every card carries its raw input and
the commands to reproduce it, TIMEOUT/CRASH cards the limits and the output, failures come
grouped with counts and a filter, positions are 1-based, the score is explained, project
checks keep their status; and a browser draws the filter."""
from __future__ import annotations

import json
import re
import shutil
from collections import Counter
from html.parser import HTMLParser
from pathlib import Path

import pytest

from conftest import GradedRun, grade_in
from generators.cases import Case
from generators.corpus import case_filename
from harness.limits import Limits
from harness.grading.model import CaseResult, GradeReport, ProjectCheck, Verdict
from harness.grading.exercise import exercise_named
from harness.grading.scoring import category_weight
from reports import html as html_report
from reports.cohort import CohortRow, write_cohort
from reports.common import PALETTE, hex_to_rgb
from browser import screenshot
from test_reports import read_png
from zoo.build import build, load_manifest

pytestmark = pytest.mark.slow  # (the fast loop: pytest -m "not slow", README's Development)

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
# Classes whose text a card test reads.
CAPTURED = {"raw", "rerun", "source", "stopped", "limits", "stats", "note", "stderr", "panel", "group-title",
            "filter", "weights"}


BLOCKS = {"td", "th", "tr", "dt", "dd", "div", "p", "li", "figcaption", "figure", "h3", "h4", "summary",
          "label", "table", "thead", "tbody", "tfoot", "dl", "section", "article", "details"}


class Report(HTMLParser):
    """The page as cards (by anchor id), groups and the filter; text kept exact."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.cards: dict[str, dict[str, list[str]]] = {}
        self.card_group: dict[str, str] = {}
        self.groups: list[str] = []  # group slugs, page order
        self.radios: list[tuple[str, bool]] = []
        self.grids: dict[str, list[list[tuple[str, str, str]]]] = {}  # card -> grids -> (classes, title, text)
        self.page: dict[str, list[str]] = {}
        self.style = ""
        self._stack: list[tuple[str, set[str], list[str]]] = []  # tag, classes, captured classes
        self._buffers: dict[int, list[str]] = {}
        self._card: str | None = None
        self._card_depth = -1
        self._group: str | None = None
        self._cell: list[str] | None = None
        self._in_style = False

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        classes = set((attributes.get("class") or "").split())
        if tag == "input" and "ff" in classes:
            self.radios.append((attributes["id"], "checked" in attributes))
        if tag in VOID:
            return
        self._separate(tag)
        if tag == "style":
            self._in_style = True
        if tag == "section" and "group" in classes:
            self._group = next(c[2:] for c in classes if c.startswith("g-"))
            self.groups.append(self._group)
        if tag in ("article", "details") and (attributes.get("id") or "").startswith("case-"):
            self._card, self._card_depth = attributes["id"], len(self._stack) + 1
            self.cards[self._card] = {}
            if self._group:
                self.card_group[self._card] = self._group
        if tag == "div" and "grid" in classes and "numbered" in classes and self._card:
            self.grids.setdefault(self._card, []).append([])
        if tag == "span" and self._card in self.grids and ({"cell", "axis"} & classes):
            self._cell = [" ".join(sorted(classes)), attributes.get("title") or "", ""]
        # "raw" is the input's <pre>; a <details class="raw"> holds the outputs' exact text.
        captured = [c for c in sorted(CAPTURED & classes) if c != "raw" or tag == "pre"]
        self._stack.append((tag, classes, captured))
        if captured:
            self._buffers[len(self._stack)] = []

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        self._separate(tag)
        if tag == "style":
            self._in_style = False
        if tag == "span" and self._cell is not None:
            self.grids[self._card][-1].append(tuple(self._cell))
            self._cell = None
        while self._stack:
            depth = len(self._stack)
            open_tag, classes, captured = self._stack.pop()
            if captured:
                text = "".join(self._buffers.pop(depth))
                target = self.cards[self._card] if self._card else self.page
                for name in captured:
                    target.setdefault(name, []).append(text)
            if depth == self._card_depth:
                self._card, self._card_depth = None, -1
            if open_tag == "section" and "group" in classes:
                self._group = None
            if open_tag == tag:
                break

    def _separate(self, tag: str) -> None:
        """Text of neighbouring cells and blocks stays apart (pre text is left exact)."""
        if tag in BLOCKS:
            for buffer in self._buffers.values():
                buffer.append(" ")

    def handle_data(self, data):
        if self._in_style:
            self.style += data
        if self._cell is not None:
            self._cell[2] += data
        for buffer in self._buffers.values():
            buffer.append(data)


def parse_report(page: str) -> Report:
    parser = Report()
    parser.feed(page)
    parser.close()
    return parser


def squash(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def card_of(parsed: Report, index: int) -> dict[str, list[str]]:
    (anchor,) = [a for a in parsed.cards if a.startswith(f"case-{index}-")]
    return parsed.cards[anchor]


@pytest.fixture(scope="module")
def parsed(mixed_bag_run: GradedRun) -> Report:
    return parse_report(mixed_bag_run.html)


def test_every_card_carries_its_raw_input_and_the_commands(mixed_bag_run: GradedRun, parsed: Report):
    cases = mixed_bag_run.report["cases"]
    assert len(parsed.cards) == len(cases)
    for index, case in enumerate(cases):
        card = card_of(parsed, index)
        assert card["rerun"] == [f"$ grade ./fillit --suite quick --timeout 1 -k {case['id']}"], case["id"]
        if case["input"] is None:
            assert "raw" not in card and "source" not in card
            continue
        assert card["raw"] == [case["input"]], case["id"]  # exactly the file, to copy
        assert card["source"] == [f"$ fillit-gen case {case['id']} --suite quick -o "
                                  f"{case_filename(case['id'])}.fillit"]
    # The cat -e view beside it: '$' at each line end.
    sample = card_of(parsed, next(i for i, c in enumerate(cases) if c["id"] == "valid/seed-sample"))
    panels = " ".join(sample["panel"])
    assert "##..$" in panels.replace(" ", "") and "Raw" in panels and "cat -e" in panels


def test_timeout_and_crash_cards_show_the_limits_and_the_output(mixed_bag_run: GradedRun, parsed: Report):
    cases = mixed_bag_run.report["cases"]
    stopped = {verdict: [i for i, c in enumerate(cases) if c["verdict"] == verdict] for verdict in ("TIMEOUT", "CRASH")}
    assert stopped["TIMEOUT"] and stopped["CRASH"]
    for index in stopped["TIMEOUT"]:
        card = card_of(parsed, index)
        # --timeout 1: a CPU limit of 1 s; the mixed bag's timeout sleeps, so the wall backstop (3 x 1 + 2 s) stops it
        assert re.fullmatch(r"Stopped by the wall-clock backstop 5\.00 s \(ran 5\.\d\d s, using \d+ ms of its "
                            r"1\.00 s CPU limit\)\.", squash(card["stopped"][0])), card["stopped"]
        assert "ended killed by the harness: wall-clock backstop 5.00 s" in squash(" ".join(card["stats"]))
        assert "(nothing on stdout)" in " ".join(card["panel"])
        assert "what it printed before it was stopped" in " ".join(card["note"])
        assert card["stderr"]  # stdout and stderr excerpts, even when empty
    for index in stopped["CRASH"]:
        card = card_of(parsed, index)
        limits = squash(card["limits"][0])
        assert limits.startswith("Limits in force: CPU 1.00 s, memory 1 GiB, stdout 1 MiB")
        assert "ended died with SIGSEGV" in squash(" ".join(card["stats"]))
        assert card["stderr"]
    assert "exit None" not in mixed_bag_run.html and ">None<" not in mixed_bag_run.html


def test_failures_are_grouped_by_kind_with_counts_and_a_filter(mixed_bag_run: GradedRun, parsed: Report):
    cases = mixed_bag_run.report["cases"]
    expected = Counter(f"{c['verdict']} {c['diagnosis']}" for c in cases if not c["passed"])
    titles = [squash(t) for t in parsed.page["group-title"]]
    assert [re.sub(r" \d+ cases?$", "", t) for t in titles] == list(expected)  # first-failure order
    assert [int(re.search(r"(\d+) cases?$", t).group(1)) for t in titles] == list(expected.values())
    slugs = parsed.groups
    per_group = Counter(parsed.card_group.values())
    assert [per_group[slug] for slug in slugs] == list(expected.values())
    # The filter: "all" first and checked, then one radio per group; the labels carry the counts.
    assert parsed.radios == [("ff-all", True)] + [(f"ff-{slug}", False) for slug in slugs]
    labels = squash(parsed.page["filter"][0])
    assert labels.startswith(f"Failures by kind: all {mixed_bag_run.report['failed']} ")
    for label, count in expected.items():
        assert f"{label} {count}" in labels
    for slug in slugs:  # CSS only: the checked radio hides the other groups
        assert f"#ff-{slug}:checked ~ .group:not(.g-{slug}) {{ display: none; }}" in parsed.style


def test_the_score_is_explained_with_the_weights_of_scoring(mixed_bag_run: GradedRun, parsed: Report):
    table = squash(parsed.page["weights"][0])
    report = mixed_bag_run.report
    points = 0.0
    for category, row in report["counts"]["by_category"].items():
        found = re.search(rf"{category} ([\d.]+) ([\d.]+) {row['passed']}/{row['cases']} ([\d.]+)", table)
        assert found, category
        assert float(found.group(1)) == category_weight(category, exercise_named().weights)
        points += float(found.group(3))
    assert points == pytest.approx(report["score"], abs=0.3)
    assert table.endswith(f"score 100 {report['passed']}/{report['total']} {report['score']:g}")


@pytest.fixture(scope="module")
def column_major_run(tmp_path_factory) -> GradedRun:
    mutants, _ = load_manifest()
    folder = tmp_path_factory.mktemp("column-major")
    binary = build(next(m for m in mutants if m.name == "column_major"), folder / "bin")
    for path in (folder, binary.parent, binary):
        path.chmod(0o755)
    shutil.copy(binary, folder / "fillit")
    proc = grade_in(folder, "./fillit", "--suite", "quick", "--json", "r.json", "--html", "r.html")
    assert proc.returncode == 1, proc.stderr
    return GradedRun(folder, proc, json.loads((folder / "r.json").read_text()), (folder / "r.html").read_text())


def top_left(square: str, letter: str) -> tuple[int, int]:
    cells = [(r, c) for r, row in enumerate(square.splitlines()) for c, ch in enumerate(row) if ch == letter]
    return min(r for r, _ in cells) + 1, min(c for _, c in cells) + 1


def test_positions_are_1_based_in_messages_details_and_grids(column_major_run: GradedRun):
    parsed = parse_report(column_major_run.html)
    shifted = [(i, c) for i, c in enumerate(column_major_run.report["cases"]) if c["diagnosis"] == "not_upper_left"]
    assert shifted
    for index, case in shifted:
        piece, details = case["details"]["piece"], case["details"]
        actual, expected = top_left(case["actual"], piece), top_left(case["expected"], piece)
        assert details["actual"] == list(actual) and details["expected"] == list(expected)
        assert case["message"].startswith(f"piece {piece} is at row {actual[0]}, column {actual[1]}; ")
        assert case["message"].endswith(f"has it at row {expected[0]}, column {expected[1]}")
        card = card_of(parsed, index)
        notes = " ".join(card["note"])
        assert f"piece {piece}'s top-left: row {expected[0]}, column {expected[1]}" in notes
        assert f"piece {piece}'s top-left: row {actual[0]}, column {actual[1]}" in notes
        anchor = next(a for a in parsed.cards if a.startswith(f"case-{index}-"))
        expected_grid, actual_grid = parsed.grids[anchor][:2]
        side = len(case["expected"].splitlines())
        columns = [text for classes, _, text in expected_grid if "col" in classes.split()]
        rows = [text for classes, _, text in expected_grid if "row" in classes.split()]
        assert columns == rows == [str(n) for n in range(1, side + 1)]
        for grid, (row, col) in ((expected_grid, expected), (actual_grid, actual)):
            framed = [re.match(r"row (\d+), column (\d+)", title).groups()
                      for classes, title, _ in grid if "focus" in classes.split()]
            assert min(int(r) for r, _ in framed) == row and min(int(c) for _, c in framed) == col


def one_case_report(checks: list[ProjectCheck]) -> GradeReport:
    case = Case("usage/no-args", "usage", None, "usage", invocation="no_args")
    result = CaseResult(case, Verdict("OK", None, ""), "usage: ./fillit file\n", "", 0.01, 0.0, 1000, 0, None,
                        "rlimits", 5.0)
    return GradeReport("./fillit", "quick", 1, "default", Limits(), "rlimits", [result], checks=checks,
                       score=100.0)


def test_project_checks_keep_their_status():
    report = one_case_report([ProjectCheck("makefile_rules", "pass", "ok"), ProjectCheck("relink", "pass", "ok"),
                              ProjectCheck("norm", "skip", "norminette is not installed")])
    text = squash(re.sub(r"<[^>]+>", " ", html_report.render_html(report)))
    assert "project checks: 2 passed, 1 skipped (norm)" in text
    assert "3/3" not in text and "2/3" not in text


def test_cohort_page_has_a_project_check_column(tmp_path: Path):
    counts = {"OK": 1, "WRONG": 0, "TIMEOUT": 0, "CRASH": 0, "OUTPUT_LIMIT": 0, "DISPUTED": 0}
    checks = (ProjectCheck("relink", "fail", "relinked"), ProjectCheck("norm", "skip", "not installed"),
              ProjectCheck("author", "pass", "found"))
    rows = [CohortRow("repo", "repository", "done", "ok", "", 90.0, 1, 0, counts, 0.1, 0.2, "", "", "", checks),
            CohortRow("exe", "binary", "done", "n/a", "", 100.0, 1, 0, counts, 0.1, 0.2, "", "", "")]
    index, table = write_cohort(rows, tmp_path)
    page = index.read_text()
    assert ">project checks</th>" in page
    assert '<td class="checks fail" data-sort="1" title="relink: fail\nnorm: skip\nauthor: pass">' \
           "1 passed, 1 failed (relink), 1 skipped (norm)</td>" in page
    assert '<td class="checks" data-sort="-1">n/a</td>' in page
    assert table.read_text().splitlines()[0].split(",")[7] == "project_checks"


# --------------------------------------------------------------------------- in a browser

def pixels(png: bytes, colours: set[bytes]) -> int:
    _, _, rows = read_png(png)
    return sum(1 for row in rows for x in range(0, len(row), 3) if row[x:x + 3] in colours)


PALETTE_RGB = {bytes(hex_to_rgb(colour)) for colour in PALETTE.values()}


@pytest.mark.slow
def test_browser_filter_shows_one_kind_of_failure(mixed_bag_run: GradedRun, tmp_path: Path):
    """The filter is CSS only: checking a radio is what a click does.  With all failures shown
    the cards' squares and pieces fill the page with palette colours; with only the crash
    (an empty file: no piece, no square) they are gone."""
    everything = tmp_path / "all.html"
    everything.write_text(mixed_bag_run.html, encoding="utf-8")
    crash_only = tmp_path / "crash.html"
    crash_only.write_text(mixed_bag_run.html.replace('id="ff-all" checked>', 'id="ff-all">')
                          .replace('id="ff-CRASH-SIGSEGV">', 'id="ff-CRASH-SIGSEGV" checked>'), encoding="utf-8")
    shown = pixels(screenshot(everything, tmp_path / "all.png", tmp_path / "profile-a", "1200,4000"), PALETTE_RGB)
    filtered_png = screenshot(crash_only, tmp_path / "crash.png", tmp_path / "profile-b", "1200,4000")
    filtered = pixels(filtered_png, PALETTE_RGB)
    assert shown > 5000, shown
    assert filtered < shown / 10, (filtered, shown)
    assert pixels(filtered_png, {bytes(hex_to_rgb("#7a1fa2"))}) > 500  # the crash card (its border, its badge)


def test_a_fuzz_report_offers_no_command_that_cannot_work():
    """A fuzz case is in no suite: `-k fuzz/1` or `fillit-gen case fuzz/1` would find nothing."""
    case = Case("fuzz/1", "fuzz", b"##..\n##..\n....\n....\n", "AA\nAA\n")
    result = CaseResult(case, Verdict("WRONG", "format", "the output is not a square"), "A\n", "", 0.01, 0.0,
                        1000, 0, None, "rlimits", 2.0)
    report = GradeReport("./fillit", "fuzz", 4, "default", Limits(), "rlimits", [result], score=0.0)
    parsed = parse_report(html_report.render_html(report))
    (card,) = parsed.cards.values()
    assert "rerun" not in card and "source" not in card
    assert card["raw"] == ["##..\n##..\n....\n....\n"]  # the input is in the report itself
