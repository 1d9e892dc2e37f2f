""""How the score is computed", from the exercise's weights (Exercise.weights, never copied
here) as harness.grading.scoring applies them.

Each category present in the run weighs `category_weight(category, weights)`: it is worth
its weight's share of 100 points, earned in proportion to its cases that passed (a failed
case with partial credit earns its share of one case).  The points add up to the report's
score (up to its rounding to one decimal).
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from harness.grading.exercise import exercise_named
from harness.grading.model import GradeReport
from harness.grading.scoring import DEFAULT_WEIGHT, category_weight
from reports.common import counts


@dataclass(frozen=True)
class CategoryShare:
    category: str
    weight: float  # as in harness.grading.scoring (0 for disputed cases outside the strict profile)
    cases: int
    passed: int
    worth: float  # the most this category can add to the score in this run, 0-100
    earned: float  # cases' worth earned: the passed ones, plus failed ones' partial credit

    @property
    def points(self) -> float:
        """What the category adds to the score."""
        return self.worth * self.earned / self.cases if self.cases else 0.0


def _weight(category: str, weights: Mapping[str, float], strict: bool) -> float:
    # As harness.scoring.score: under the strict profile a weightless category (disputed) can fail, so it counts.
    return category_weight(category, weights) or (DEFAULT_WEIGHT if strict else 0.0)


def score_breakdown(report: GradeReport) -> list[CategoryShare]:
    """One share per category of the run, in the report's category order."""
    rows = counts(report)["by_category"]
    strict = report.profile == "strict"
    weights = exercise_named(report.exercise).weights
    total = sum(_weight(category, weights, strict) for category in rows)
    graded = [r for r in report.results if r.verdict.graded]
    return [CategoryShare(category, _weight(category, weights, strict), row["cases"], row["passed"],
                          100.0 * _weight(category, weights, strict) / total if total else 0.0,
                          sum(r.earned for r in graded if r.case.category == category))
            for category, row in rows.items()]
