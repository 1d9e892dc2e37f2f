"""A failing case as plain text: its input in `cat -e` style, the expected and actual
outputs side by side. What `grade --fuzz` prints and what the pytest plugin shows for a
failed case.

    print(describe_failure(result))
"""
from __future__ import annotations

from generators.cases import UsageLine
from harness.grading.model import CaseResult
from harness.grading.exercise import DEFAULT_EXERCISE
from reference.parser import parse
from reports.common import cat_e

MAX_LINES = 40
MAX_WIDTH = 60


def visible(text: str) -> list[str]:
    """Lines as `cat -e` shows them (reports.common.cat_e), at most MAX_LINES of MAX_WIDTH;
    a cut is marked with '...'."""
    lines, cut = cat_e(text, MAX_LINES, MAX_WIDTH)
    shown = ["".join(token.text for token in line.tokens) for line in lines]
    if cut:
        shown.append("...")
    return shown


def side_by_side(expected: str, actual: str, titles: tuple[str, str] = ("expected", "actual")) -> str:
    """The two outputs in two columns (cat -e style); rows that differ are marked '!'."""
    left, right = visible(expected) or ["(nothing)"], visible(actual) or ["(nothing)"]
    width = max(len(titles[0]), *(len(line) for line in left))
    rows = [f"  {titles[0]:<{width}}   {titles[1]}"]
    for i in range(max(len(left), len(right))):
        a = left[i] if i < len(left) else ""
        b = right[i] if i < len(right) else ""
        mark = " " if a == b else "!"
        rows.append(f"{mark} {a:<{width}} | {b}")
    return "\n".join(rows)


def describe_input(data: bytes | None, exercise: str = DEFAULT_EXERCISE) -> str:
    """One line about a case's input: a fillit file's pieces, or the rule it breaks."""
    if data is None:
        return "no input file"
    if exercise != DEFAULT_EXERCISE:  # (the exercise's own reading is in the verdict's message)
        return f"{exercise} input, {len(data)} bytes"
    parsed = parse(data)
    if parsed.valid:
        return f"valid file of {len(parsed.pieces)} piece(s), {len(data)} bytes"
    note = " (disputed: the seed accepts it)" if parsed.disputed else ""
    return f"invalid file, {len(data)} bytes: {parsed.rejection}{note}"


def describe_failure(result: CaseResult, exercise: str = DEFAULT_EXERCISE) -> str:
    """The diagnosis (first line), the failing case and its file, the two outputs side by side."""
    case, verdict = result.case, result.verdict
    reason = f" {verdict.diagnosis}" if verdict.diagnosis else ""
    lines = [f"diagnosis: {verdict.verdict}{reason}: {verdict.message}",
             f"case {case.id}: {describe_input(case.input, exercise)}"]
    if case.invocation != "file":
        lines.append(f"invocation: {case.invocation.replace('_', ' ')}")
    if case.input is not None:
        lines.append("input file ('$' marks each line end):")
        lines += [f"    {line}" for line in visible(case.input.decode("utf-8", errors="replace"))] or ["    (empty)"]
    expected = "usage... (one line starting with 'usage')\n" if isinstance(case.expected, UsageLine) else case.expected
    lines.append(side_by_side(expected, result.actual))
    if result.stderr.strip():
        lines.append("stderr: " + " / ".join(result.stderr.strip().splitlines()[:5])[:300])
    return "\n".join(lines)
