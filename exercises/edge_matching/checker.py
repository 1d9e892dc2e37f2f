"""Grade an edge-matching program's answer: there is no single expected text, so the
answer is read as a board, checked legal, and its edges counted.

    verdict = check(case, runs)
    verdict.verdict, verdict.diagnosis, verdict.credit    # "WRONG", "partial", 0.95

Order, as fillit's checker (harness.grading.checker, whose helpers it uses): limits and
signals first (the output of a killed program means nothing); then, for an invalid file,
`error`; for a valid one, `none` when the puzzle has no solution; else the board: its
layout, its shape, each entry, pieces used once, piece 1 at the top left unrotated; then
its edges. A legal board with every inner edge matched is OK; one with some mismatched
is WRONG `partial`, and earns `credit` = matched / best known (the reference's solution
matches all inner edges, so best known = all). With several runs, the worst one counts.
"""
from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Literal

from generators.cases import Case
from harness.grading.checker import decode, excerpt, says_error, stopped_verdict, told_instead_of_error
from harness.grading.model import Verdict
from harness.jail import RunResult
from exercises.edge_matching.board import MISMATCHES_LISTED, Problem, count_edges, read_answer
from exercises.edge_matching.puzzle import ERROR, NONE, parse
from exercises.edge_matching.render import board_drawing

Diagnosis = Literal["partial", "wrong_count", "unknown_piece", "bad_rotation", "reused_piece", "first_piece",
                    "format", "false_error", "missed_error", "false_none", "missed_none"]
DIAGNOSES: tuple[Diagnosis, ...] = ("partial", "wrong_count", "unknown_piece", "bad_rotation", "reused_piece",
                                    "first_piece", "format", "false_error", "missed_error", "false_none",
                                    "missed_none")


def _wrong(diagnosis: Diagnosis, message: str, **details: object) -> Verdict:
    return Verdict("WRONG", diagnosis, message, dict(details))


def check(case: Case, runs: Sequence[RunResult], strict: bool = False) -> Verdict:
    """The verdict for `case` given its runs; the worst run's when there are several
    (different full solutions on two runs are both right). `strict` changes nothing:
    this exercise has no disputed rule."""
    for run in runs:
        stopped = stopped_verdict(run)
        if stopped is not None:
            return _with_hard_hint(case, stopped)
    verdicts = [judge(case, decode(run.stdout), decode(run.stderr)) for run in runs]
    return min(verdicts, key=lambda v: (v.passed, v.credit or 0.0))


def _with_hard_hint(case: Case, stopped: Verdict) -> Verdict:
    if stopped.verdict != "TIMEOUT" or case.category not in ("hard", "large"):
        return stopped
    hint = ("a search that backtracks needs pruning here: index the pieces by the colours a cell asks for, "
            "skip identical pieces and symmetric rotations, and check colour counts before searching; a "
            "heuristic must print its best full board in time")
    return dataclasses.replace(stopped, message=f"{stopped.message}: {hint}")


def judge(case: Case, actual: str, stderr: str = "") -> Verdict:
    """The verdict of one output for `case`."""
    parsed = parse(case.input or b"")
    if parsed.puzzle is None:
        return _invalid(case, actual, stderr)
    puzzle = parsed.puzzle
    if says_error(actual):
        exactly = "" if actual == ERROR else " (and 'error' must be printed exactly as 'error\\n')"
        return _wrong("false_error", f"the puzzle is valid but the program printed error{exactly}", actual=actual)
    solvable = case.expected != NONE
    if actual.strip().lower() == "none":
        if not solvable:
            return Verdict("OK", None, "") if actual == NONE else _wrong(
                "format", f"the puzzle has no solution: print exactly 'none\\n', not {actual!r}", actual=actual)
        return _wrong("false_none", f"the program printed none, but the puzzle has a solution (the reference's: "
                      f"{excerpt(str(case.expected))})")
    reading = read_answer(puzzle, actual)
    if reading.problem is not None:
        return _illegal(reading.problem, reading.defects)
    assert reading.board is not None
    score = count_edges(puzzle, reading.board)
    counted = f"matched {score.matched}/{score.total} edges"
    details = {"matched": score.matched, "total": score.total, "best_known": score.total,
               "mismatches": [edge.to_dict() for edge in score.mismatches[:MISMATCHES_LISTED]],
               "board": board_drawing(puzzle, reading.board, score)}
    if not solvable:
        return _wrong("missed_none", f"the puzzle has no solution ({_proof(case)}), so the answer is 'none'; the "
                      f"program printed a board ({counted})", **details)
    if reading.defects:
        what = "the board is a full solution" if score.complete else f"the board {counted}"
        return _wrong("format", f"{what}, but the layout is not right: {'; '.join(reading.defects)}",
                      defects=list(reading.defects), **details)
    if score.complete:
        return Verdict("OK", None, "", {"matched": score.matched, "total": score.total})
    return _partial(score.matched, score.total, counted, details)


def _partial(matched: int, total: int, counted: str, details: dict[str, object]) -> Verdict:
    mismatches = details["mismatches"]
    assert isinstance(mismatches, list) and mismatches
    first = mismatches[0]
    side = "the cell to its right" if first["side"] == "right" else "the cell below"
    return Verdict("WRONG", "partial", f"{counted} (the best known board matches all {total}): a legal board, "
                   f"but not a solution; the first mismatch is row {first['row']}, column {first['col']} against "
                   f"{side} (colours {first['colours'][0]} and {first['colours'][1]})", details,
                   credit=matched / total)


def _proof(case: Case) -> str:
    description = case.description
    return description.split("(reference: ", 1)[1].rstrip(")") if "(reference: " in description else "reference"


def _illegal(problem: Problem, defects: Sequence[str]) -> Verdict:
    also = f" (also: {'; '.join(defects)})" if defects else ""
    return Verdict("WRONG", problem.diagnosis, problem.message + also, dict(problem.details))


def _invalid(case: Case, actual: str, stderr: str) -> Verdict:
    rejection = parse(case.input or b"").rejection
    why = f"the file is invalid ({rejection})"
    if actual == ERROR:
        return Verdict("OK", None, "")
    if says_error(actual):
        return _wrong("format", f"{why}: print exactly 'error\\n', not {actual!r}", rule=case.rule, actual=actual)
    told = told_instead_of_error(actual, "error" in stderr.lower())
    return _wrong("missed_error", f"{why}, but the program {told}", rule=case.rule)
