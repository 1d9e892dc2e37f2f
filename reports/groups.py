"""Failures grouped by what went wrong (verdict and diagnosis), and project checks tallied.

Shared by the terminal summary and the HTML page, so both count the same way.
"""
from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from harness.grading.model import CaseResult, CheckStatus, ProjectCheck


@dataclass(frozen=True)
class FailureGroup:
    verdict: str
    diagnosis: str | None
    results: tuple[CaseResult, ...]  # run order

    @property
    def label(self) -> str:
        """"WRONG not_minimal", "CRASH SIGSEGV", "TIMEOUT wall"."""
        return f"{self.verdict} {self.diagnosis}" if self.diagnosis else self.verdict

    @property
    def slug(self) -> str:
        """A CSS-safe name for the group: "WRONG-not_minimal"."""
        return re.sub(r"[^A-Za-z0-9_]+", "-", self.label)


def failure_groups(results: Sequence[CaseResult]) -> list[FailureGroup]:
    """The failed results by (verdict, diagnosis), groups in order of their first failure."""
    members: dict[tuple[str, str | None], list[CaseResult]] = {}
    for result in results:
        if not result.passed:
            members.setdefault((result.verdict.verdict, result.verdict.diagnosis), []).append(result)
    return [FailureGroup(verdict, diagnosis, tuple(found)) for (verdict, diagnosis), found in members.items()]


CHECK_STATUSES: tuple[CheckStatus, ...] = ("pass", "fail", "skip")
_STATUS_WORDS: dict[CheckStatus, str] = {"pass": "passed", "fail": "failed", "skip": "skipped"}


def checks_tally(checks: Iterable[ProjectCheck]) -> str:
    """"7 passed, 1 failed (relink), 1 skipped (norm)": a skipped check is not a passed one."""
    names: dict[CheckStatus, list[str]] = {status: [] for status in CHECK_STATUSES}
    for check in checks:
        names[check.status].append(check.name)
    parts = [f"{len(names['pass'])} passed"]
    for status in ("fail", "skip"):
        if names[status]:
            parts.append(f"{len(names[status])} {_STATUS_WORDS[status]} ({', '.join(names[status])})")
    return ", ".join(parts)
