"""How a run grades, besides the program itself: one record for `grade`, `grade batch` and
the pytest plugin (each front-end fills it from its own options).

    settings = GradeSettings(suite="quick", profile="strict")

It travels in batch tasks (picklable), names the results in the store (`config_key`), and
a report keeps it to print the command that reruns a case.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from harness.grading.exercise import DEFAULT_EXERCISE
from harness.jail.engine import IsolationRequest

Profile = Literal["default", "strict"]
DEFAULT_SUITE = "standard"  # for grade, grade batch and the pytest plugin alike
DEFAULT_BUILD_TIMEOUT_S = 120.0
DEFAULT_BUDGET_S = 1200.0


@dataclass(frozen=True)
class GradeSettings:
    exercise: str = DEFAULT_EXERCISE  # --exercise NAME (harness.grading.exercise)
    suite: str = DEFAULT_SUITE  # a suite name, or "none" when only the student's own files run
    seed: int | None = None  # None: the suite's fixed seed
    cases_dir: str | None = None  # grade --cases DIR, as given
    timeout: float | None = None  # --timeout: the CPU limit of every case (None: per case)
    profile: Profile = "default"  # strict: a disputed case must give the 42 answer
    isolation: IsolationRequest = "auto"
    unsafe_no_jail: bool = False  # grade without the jail the target needs (harness.jail.policy)
    lenient_build: bool = False  # repository mode: -Werror dropped (recorded)
    project_checks: bool = True  # repository mode: the 42 rules
    build_timeout_s: float = DEFAULT_BUILD_TIMEOUT_S  # CPU seconds of each build step
    # Batch: wall seconds one submission's cases may take in all (a share of it per chunk);
    # past it the cases left are TIMEOUT ("budget"), so one pathological program cannot
    # hold a worker for hours.
    budget_s: float = DEFAULT_BUDGET_S

    @property
    def strict(self) -> bool:
        return self.profile == "strict"
