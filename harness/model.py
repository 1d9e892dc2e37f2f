"""Records that cross module borders after the runner: verdicts and whole grading runs.

Data flows one way: generators (Case) -> runner (RunResult) -> checker (Verdict)
-> CaseResult / GradeReport -> reports.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from generators.cases import Case
from harness.limits import Limits

# HARNESS_ERROR: the jail failed, the case was not graded; never scored against the program.
VerdictName = Literal["OK", "WRONG", "TIMEOUT", "CRASH", "OUTPUT_LIMIT", "DISPUTED", "HARNESS_ERROR"]
VERDICTS: tuple[str, ...] = ("OK", "WRONG", "TIMEOUT", "CRASH", "OUTPUT_LIMIT", "DISPUTED", "HARNESS_ERROR")
# Verdicts that count as passed.
PASSING: frozenset[str] = frozenset({"OK", "DISPUTED"})

# Diagnoses for WRONG (SPEC.md); CRASH uses the signal name, TIMEOUT "wall" or "cpu".
WRONG_DIAGNOSES: tuple[str, ...] = (
    "not_minimal", "not_upper_left", "bad_pieces", "format", "false_error",
    "missed_error", "bad_usage", "nondeterministic",
)


@dataclass(frozen=True)
class Verdict:
    verdict: str  # one of VERDICTS
    diagnosis: str | None  # None for OK
    message: str  # one plain sentence a student can act on ("" for OK)
    details: dict[str, Any] = field(default_factory=dict)  # structured facts behind the message

    @property
    def passed(self) -> bool:
        return self.verdict in PASSING

    @property
    def graded(self) -> bool:
        """False when the harness failed to run the case (HARNESS_ERROR)."""
        return self.verdict != "HARNESS_ERROR"


@dataclass(frozen=True)
class CaseResult:
    case: Case
    verdict: Verdict
    actual: str  # stdout as text (undecodable bytes replaced), capped
    stderr: str  # capped
    time_s: float  # wall time of the (last) run
    cpu_s: float
    max_rss_kb: int
    exit_code: int | None
    signal: str | None
    isolation: str  # "jail", "namespaces" or "rlimits" (harness.jail.IsolationMode)
    time_limit_s: float  # the CPU-time limit of the case

    @property
    def passed(self) -> bool:
        return self.verdict.passed


CheckStatus = Literal["pass", "fail", "skip"]


@dataclass(frozen=True)
class ProjectCheck:
    """A repository rule (Makefile rules, relink, flags, forbidden functions, norm, leaks...)."""

    name: str
    status: CheckStatus
    message: str  # why it failed or was skipped; what was checked when it passed


@dataclass(frozen=True)
class CaseSelection:
    """The `grade` options that chose a run's cases: what a report needs to print the
    command that reruns one of them (`grade TARGET ... -k CASE_ID`)."""

    suite: str  # a suite name, or "none" when only the student's own files ran
    seed: int | None  # None: the suite's fixed seed
    cases_dir: str | None  # --cases DIR, as given
    profile: str  # "default" or "strict"
    timeout: float | None  # --timeout, None: per category


@dataclass
class GradeReport:
    target: str
    suite: str
    seed: int
    profile: str  # "default" or "strict"
    limits: Limits
    isolation: str
    results: list[CaseResult]
    checks: list[ProjectCheck] = field(default_factory=list)
    started_at: str = ""  # ISO 8601
    duration_s: float = 0.0
    build: dict[str, Any] = field(default_factory=dict)  # repository mode: command, lenient, log excerpt
    score: float = 0.0  # 0-100, from harness.scoring
    first_failure_line: str = ""  # moulinette-style one-liner, "" when everything passed
    selection: CaseSelection | None = None  # set by `grade`; None when built otherwise (batch, API)

    @property
    def passed(self) -> int:
        return sum(1 for r in self.results if r.passed)

    @property
    def failed(self) -> int:
        return sum(1 for r in self.results if not r.passed and r.verdict.graded)

    @property
    def harness_errors(self) -> list[CaseResult]:
        return [r for r in self.results if not r.verdict.graded]

    @property
    def first_failure(self) -> CaseResult | None:
        return next((r for r in self.results if not r.passed and r.verdict.graded), None)
