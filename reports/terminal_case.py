"""One failing case in full, for the terminal: the diagnosis, the input as `cat -e` shows it,
the expected and actual outputs side by side, how the run ended, and the commands to rerun
it and to get its input file.

Lines come with a rich style name ("" for none); the plain summary prints the text alone.
"""
from __future__ import annotations

from dataclasses import dataclass

from generators.cases import UsageLine
from harness.limits import Limits
from harness.grading.model import CaseResult, GradeReport
from reference.parser import parse
from reports.common import LETTERS, cat_e, parse_grid, verdict_label
from reports.reproduce import input_source, rerun_command
from reports.run_facts import STOPPED, ending, limits_in_force

INPUT_LINES = 60  # 12 blocks; the whole file is one command away
BLOCK_HEIGHT = 4
BLOCKS_PER_ROW = 8
OUTPUT_LINES = 30
STDERR_LINES = 8


@dataclass(frozen=True)
class Styled:
    text: str
    style: str = ""


def _shown(text: str, max_lines: int) -> tuple[list[str], bool]:
    """`text` as `cat -e` lines ('$' at each line end, controls as ^X, a trailing blank as '·')."""
    lines, cut = cat_e(text, max_lines=max_lines)
    return ["".join(token.text for token in line.tokens) for line in lines], cut


def side_by_side(expected: str, actual: str) -> list[Styled]:
    """Both outputs in two columns with 1-based row numbers (and a column ruler over squares);
    rows that differ start with '!'."""
    left, left_cut = _shown(expected, OUTPUT_LINES)
    right, right_cut = _shown(actual, OUTPUT_LINES)
    left, right = left or ["(nothing)"], right or ["(nothing)"]
    width = max(len("expected"), *(len(line) for line in left))
    number = len(str(max(len(left), len(right))))
    rows = [Styled(f"  {'':>{number}} {'expected':<{width}}   actual", "bold")]
    grid = parse_grid(expected)
    if grid is not None and not grid.lenient:
        ruler = "".join(str((c + 1) % 10) for c in range(grid.side))
        rows.append(Styled(f"  {'':>{number}} {ruler:<{width}}   {ruler}", "dim"))
    for i in range(max(len(left), len(right))):
        a = left[i] if i < len(left) else ""
        b = right[i] if i < len(right) else ""
        differs = a != b
        rows.append(Styled(f"{'!' if differs else ' '} {i + 1:>{number}} {a:<{width}} | {b}",
                           "red" if differs else ""))
    if left_cut or right_cut:
        rows.append(Styled(f"  [cut at {OUTPUT_LINES} lines]", "dim"))
    return rows


def input_lines(data: bytes) -> list[Styled]:
    """The input file as `cat -e` shows it.  A valid file's blocks stand side by side under
    their letters (BLOCKS_PER_ROW a row), so they can be read against the squares."""
    text = data.decode("utf-8", errors="backslashreplace")
    parsed = parse(data)
    if not parsed.valid or len(parsed.pieces) < 2:
        shown, cut = _shown(text, INPUT_LINES)
        lines = [Styled("input ('$' ends each line, '·' is a trailing blank):", "bold")]
        lines += [Styled(f"    {line}") for line in shown] or [Styled("    (empty file)", "dim")]
        if cut:
            lines.append(Styled(f"    [cut at {INPUT_LINES} lines: get the whole file with the command below]", "dim"))
        return lines
    blocks = [_shown(block + "\n", BLOCK_HEIGHT)[0] for block in text.split("\n\n")]
    lines = [Styled(f"input ({len(blocks)} blocks, one empty line between blocks; '$' ends each line):", "bold")]
    for start in range(0, len(blocks), BLOCKS_PER_ROW):
        band = blocks[start:start + BLOCKS_PER_ROW]
        lines.append(Styled("    " + "  ".join(f"{LETTERS[start + i]:<5}" for i in range(len(band))).rstrip(), "dim"))
        lines += [Styled("    " + "  ".join(block[row] for block in band)) for row in range(BLOCK_HEIGHT)]
    return lines


def excerpt(title: str, text: str, max_lines: int) -> list[Styled]:
    if not text:
        return [Styled(f"{title}: (nothing)", "dim")]
    lines, cut = _shown(text, max_lines)
    out = [Styled(f"{title}:", "bold")] + [Styled(f"    {line}") for line in lines]
    if cut:
        out.append(Styled(f"    [cut at {max_lines} lines]", "dim"))
    return out


def case_lines(report: GradeReport, result: CaseResult, limits: Limits) -> list[Styled]:
    """Every line of the full view of one failed case."""
    case, verdict = result.case, result.verdict
    lines = [Styled(f"── {case.id}: {verdict_label(result)} ──", "bold red"),
             Styled(verdict.message)]
    if case.description:
        lines.append(Styled(case.description, "dim"))
    if case.input is not None:
        lines += input_lines(case.input)
    else:
        lines.append(Styled(f"invocation: {case.invocation.replace('_', ' ')} (no input file)", "dim"))
    if verdict.verdict in STOPPED:
        lines.append(Styled(f"ended: {ending(result, limits)}", "yellow"))
        if verdict.verdict == "CRASH":
            lines.append(Styled(f"limits in force: {limits_in_force(result, limits)}", "dim"))
        lines += excerpt("stdout before it was stopped", result.actual, STDERR_LINES)
        lines += excerpt("stderr", result.stderr, STDERR_LINES)
    else:
        expected = "usage: ... (one line starting with 'usage')\n" if isinstance(case.expected, UsageLine) else case.expected
        lines.append(Styled(""))
        lines += side_by_side(expected, result.actual)
        if result.stderr:
            lines += excerpt("stderr (shown, not graded)", result.stderr, STDERR_LINES)
    rerun = rerun_command(report, case)
    if rerun is not None:
        lines.append(Styled(f"rerun it:           {rerun}", "cyan"))
    source = input_source(report, case)
    if source is not None:
        lines.append(Styled(f"{source.label + ':':<19} {source.text}", "cyan"))
    return lines
