"""From per-case verdicts to a 0-100 score and a moulinette-style first-failure line.

Each category weighs a fixed share of the score; within a category every case
counts the same.  Categories absent from the suite do not count, so a quick
run and a full run both score out of 100.
"""
from __future__ import annotations

from collections.abc import Sequence

from harness.grading.model import CaseResult

# Why these weights: solving valid files is the exercise; rejecting bad input is
# half of the subject's text; the command-line contract is small.  Speed is graded
# apart from correctness and weighs little: a correct plain backtracking solver
# loses only this category (94.7 on the standard suite).  Disputed cases are
# warnings (they never change the score unless --profile strict fails them).
CATEGORY_WEIGHTS: dict[str, float] = {
    "valid": 35.0,
    "large": 15.0,
    "invalid": 25.0,
    "errors": 7.5,
    "usage": 7.5,
    "hard": 10.0,
    "speed": 5.0,
    "disputed": 0.0,
}
DEFAULT_WEIGHT = 5.0


def category_weight(category: str) -> float:
    return CATEGORY_WEIGHTS.get(category, DEFAULT_WEIGHT)


def score(results: Sequence[CaseResult], strict: bool = False) -> float:
    """Weighted share of passed cases, 0-100, rounded to one decimal.

    Under the strict profile a disputed case counts like any other (its weight
    becomes the default weight), since it can fail.
    """
    by_category: dict[str, list[CaseResult]] = {}
    for result in (r for r in results if r.verdict.graded):  # a harness error is nobody's score
        by_category.setdefault(result.case.category, []).append(result)
    total = earned = 0.0
    for category, members in by_category.items():
        weight = category_weight(category) or (DEFAULT_WEIGHT if strict else 0.0)
        total += weight
        earned += weight * sum(r.passed for r in members) / len(members)
    if total == 0:
        return 100.0 if all(r.passed for r in results) else 0.0
    return round(100.0 * earned / total, 1)


def first_failure_line(results: Sequence[CaseResult]) -> str:
    """Like the moulinette: the first failed case, what happened, and why; "" if none."""
    for result in results:
        if not result.passed and result.verdict.graded:
            verdict = result.verdict
            reason = f" ({verdict.diagnosis})" if verdict.diagnosis else ""
            return f"First failure: {result.case.id}: {verdict.verdict}{reason}: {verdict.message}"
    return ""
