"""From per-case verdicts to a 0-100 score and a moulinette-style first-failure line.

Each category weighs a fixed share of the score; within a category every case
counts the same.  Categories absent from the suite do not count, so a quick
run and a full run both score out of 100.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence

from harness.grading.model import CaseResult

# The weights are the exercise's (Exercise.weights, each documented where the exercise
# is); a category an exercise does not weigh (own files, fuzz finds) gets this one.
DEFAULT_WEIGHT = 5.0


def category_weight(category: str, weights: Mapping[str, float]) -> float:
    return weights.get(category, DEFAULT_WEIGHT)


def score(results: Sequence[CaseResult], weights: Mapping[str, float], strict: bool = False) -> float:
    """Weighted share of earned cases, 0-100, rounded to one decimal: a passed case earns
    all of its share, a failed one its verdict's `credit` (a heuristic's partial answer).

    Under the strict profile a disputed case counts like any other (its weight
    becomes the default weight), since it can fail.
    """
    by_category: dict[str, list[CaseResult]] = {}
    for result in (r for r in results if r.verdict.graded):  # a harness error is nobody's score
        by_category.setdefault(result.case.category, []).append(result)
    total = earned = 0.0
    for category, members in by_category.items():
        weight = category_weight(category, weights) or (DEFAULT_WEIGHT if strict else 0.0)
        total += weight
        earned += weight * sum(r.earned for r in members) / len(members)
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
