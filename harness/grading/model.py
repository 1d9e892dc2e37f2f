"""Records that cross module borders after the runner: verdicts and whole grading runs.

Data flows one way: generators (Case) -> runner (RunResult) -> checker (Verdict)
-> CaseResult / GradeReport -> reports. Each record has one plain-dict form (`to_dict`,
`from_dict`), the one the SQLite store, the batch messages and the JSON report build on.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Literal

from generators.cases import Case
from harness.grading.exercise import DEFAULT_EXERCISE
from harness.grading.settings import GradeSettings, Profile
from harness.limits import Limits

# HARNESS_ERROR: the jail failed, the case was not graded; never scored against the program.
VerdictName = Literal["OK", "WRONG", "TIMEOUT", "CRASH", "OUTPUT_LIMIT", "DISPUTED", "HARNESS_ERROR"]
VERDICTS: tuple[VerdictName, ...] = ("OK", "WRONG", "TIMEOUT", "CRASH", "OUTPUT_LIMIT", "DISPUTED", "HARNESS_ERROR")
CheckStatus = Literal["pass", "fail", "skip"]
# Verdicts that count as passed.
PASSING: frozenset[str] = frozenset({"OK", "DISPUTED"})

# Diagnoses for WRONG (SPEC.md); CRASH uses the signal name, TIMEOUT "wall" or "cpu".
WRONG_DIAGNOSES: tuple[str, ...] = (
    "not_minimal", "not_upper_left", "bad_pieces", "format", "false_error",
    "missed_error", "bad_usage", "nondeterministic",
)


@dataclass(frozen=True)
class Verdict:
    verdict: VerdictName
    diagnosis: str | None  # None for OK
    message: str  # one plain sentence a student can act on ("" for OK)
    details: dict[str, Any] = field(default_factory=dict)  # structured facts behind the message
    # The share (0..1) of the case's value a failed verdict still earns: a heuristic's legal
    # but incomplete answer (edge matching: matched edges over the best known). None: 0.
    credit: float | None = None

    @property
    def passed(self) -> bool:
        return self.verdict in PASSING

    @property
    def earned(self) -> float:
        """The share of the case's value this verdict earns."""
        return 1.0 if self.passed else (self.credit or 0.0)

    @property
    def graded(self) -> bool:
        """False when the harness failed to run the case (HARNESS_ERROR)."""
        return self.verdict != "HARNESS_ERROR"

    def to_dict(self) -> dict[str, Any]:
        return {"verdict": self.verdict, "diagnosis": self.diagnosis, "message": self.message,
                "details": json_safe(self.details), "credit": self.credit}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "Verdict":
        verdict = next((v for v in VERDICTS if v == data["verdict"]), None)
        if verdict is None:
            raise ValueError(f"unknown verdict {data['verdict']!r}")
        return cls(verdict, data["diagnosis"], data["message"], dict(data["details"]), data.get("credit"))


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

    @property
    def earned(self) -> float:
        return self.verdict.earned

    def to_dict(self) -> dict[str, Any]:
        """The result without its case's content (the case is known by its id)."""
        return {"case_id": self.case.id, "category": self.case.category, **self.verdict.to_dict(),
                "actual": self.actual, "stderr": self.stderr, "time_s": json_safe(float(self.time_s)),
                "cpu_s": json_safe(float(self.cpu_s)), "max_rss_kb": int(self.max_rss_kb),
                "exit_code": self.exit_code, "signal": self.signal, "isolation": self.isolation,
                "time_limit_s": json_safe(float(self.time_limit_s))}

    @classmethod
    def from_dict(cls, case: Case, data: dict[str, Any]) -> "CaseResult":
        """`to_dict`'s result back, for `case` (the one its case_id names)."""
        return cls(case=case, verdict=Verdict.from_dict(data), actual=data["actual"], stderr=data["stderr"],
                   time_s=data["time_s"] or 0.0, cpu_s=data["cpu_s"] or 0.0, max_rss_kb=data["max_rss_kb"],
                   exit_code=data["exit_code"], signal=data["signal"], isolation=data["isolation"],
                   time_limit_s=data["time_limit_s"] or 0.0)


@dataclass(frozen=True)
class ProjectCheck:
    """A repository rule (Makefile rules, relink, flags, forbidden functions, norm, leaks...)."""

    name: str
    status: CheckStatus
    message: str  # why it failed or was skipped; what was checked when it passed

    def to_dict(self) -> dict[str, str]:
        return {"name": self.name, "status": self.status, "message": self.message}

    @classmethod
    def from_dict(cls, data: dict[str, str]) -> "ProjectCheck":
        statuses: dict[str, CheckStatus] = {"pass": "pass", "fail": "fail", "skip": "skip"}
        if data["status"] not in statuses:
            raise ValueError(f"unknown project check status {data['status']!r}")
        return cls(data["name"], statuses[data["status"]], data["message"])


@dataclass
class GradeReport:
    target: str
    suite: str
    seed: int
    profile: Profile
    limits: Limits
    isolation: str
    results: list[CaseResult]
    checks: list[ProjectCheck] = field(default_factory=list)
    started_at: str = ""  # ISO 8601
    duration_s: float = 0.0
    build: dict[str, Any] = field(default_factory=dict)  # repository mode: command, lenient, log excerpt
    score: float = 0.0  # 0-100, from harness.grading.scoring
    first_failure_line: str = ""  # moulinette-style one-liner, "" when everything passed
    settings: GradeSettings | None = None  # how the run graded (set by `grade`; None from the API)
    exercise: str = DEFAULT_EXERCISE  # the exercise graded (harness.grading.exercise)

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


def json_safe(value: Any) -> Any:
    """JSON-safe: non-finite floats become null, tuples lists, bytes text (\\xNN for what is
    not UTF-8), unknown objects their str()."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, dict):
        return {str(k): json_safe(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        return [json_safe(v) for v in value]
    if isinstance(value, bytes):
        return value.decode("utf-8", errors="backslashreplace")
    return str(value)
