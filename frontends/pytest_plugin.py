"""pytest plugin: the cases of a grading suite as pytest tests, for a solver's CI.

    pytest --fillit=./fillit [--fillit-suite standard] [--fillit-seed N] [--fillit-timeout S]
    pytest --fillit=./solver --fillit-exercise shikaku     # another exercise (grade --list-exercises)

Installed with the package (entry point `pytest11`), so it is loaded by every pytest run
of everyone who installs fillit-moulinette: without `--fillit` it only declares its options
and does nothing else (no import of the harness, no collection).

Collection: no test file is needed in the solver's repository.  The plugin wraps
`pytest_make_collect_report` for the Session itself and appends one collector, `fillit`,
to the Session's collected children; pytest then collects it like any other node, so
`--collect-only`, `-k`, `-m fillit`, `-x`, `--junitxml`, `--lf` and pytest-xdist (which
needs the same collection on every worker: the suite is seeded, ids and order are fixed)
all work unchanged.  Each case is an item `fillit::<case id>`, e.g.
`fillit::invalid/bad_char_letter-2`; the case's category is a keyword (`-k invalid`).

A case runs through `harness.grading.grade.grade_case` (the jail, limits, checker); a
failure's report is the diagnosis with the expected and actual outputs side by side.
Each item also carries a pytest-timeout marker a minute above its own wall limit, as a
backstop should the runner itself ever hang.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from harness.jail.engine import IsolationRequest

# The same default as `grade` and `grade batch` (harness.suites.DEFAULT_SUITE, which is not
# imported here: without --fillit the plugin must not import the harness).
SUITE_DEFAULT = "standard"
EXERCISE_DEFAULT = "fillit"  # harness.grading.exercise.DEFAULT_EXERCISE, likewise not imported
COLLECTOR_NAME = "fillit"
# pytest-timeout backstop above a case's own wall limit (the runner kills first).
BACKSTOP_MARGIN_S = 60.0


@dataclass(frozen=True)
class _Options:
    program: Path
    exercise: str
    suite: str
    seed: int | None
    timeout: float | None
    strict: bool
    isolation: IsolationRequest


_OPTIONS = pytest.StashKey[_Options]()


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("fillit", "fillit-moulinette: grade a fillit executable, one test per case")
    group.addoption("--fillit", metavar="PATH", default=None,
                    help="fillit executable to grade (relative to the invocation folder); "
                         "without it the plugin does nothing.")
    group.addoption("--fillit-exercise", metavar="NAME", default=EXERCISE_DEFAULT,
                    help=f"the exercise the program solves (default: {EXERCISE_DEFAULT}; grade --list-exercises).")
    group.addoption("--fillit-suite", metavar="NAME", default=SUITE_DEFAULT,
                    help=f"suite of cases: quick, standard or full (default: {SUITE_DEFAULT}).")
    group.addoption("--fillit-seed", metavar="N", type=int, default=None,
                    help="seed of the suite's generated cases (default: the suite's fixed seed).")
    group.addoption("--fillit-timeout", metavar="S", type=float, default=None,
                    help="wall-clock limit per case in seconds (default: per category).")
    group.addoption("--fillit-profile", choices=("default", "strict"), default="default",
                    help="strict: disputed cases must give the 42 answer.")
    group.addoption("--fillit-isolation", choices=("auto", "jail", "namespaces", "rlimits"), default="auto",
                    help="jail for the runs (default: the strongest this machine has; docs/SECURITY.md).")


def pytest_configure(config: pytest.Config) -> None:
    value = config.getoption("fillit", None)
    if value is None:
        return
    program = Path(os.path.expanduser(value))
    if not program.is_absolute():
        program = config.invocation_params.dir / program
    if not program.exists():
        raise pytest.UsageError(f"--fillit: {value} does not exist (build it first, e.g. with make)")
    if program.is_dir():
        raise pytest.UsageError(f"--fillit: {value} is a folder; pass the fillit executable (build it with make)")
    if not os.access(program, os.X_OK):
        raise pytest.UsageError(f"--fillit: {value} is not executable (chmod +x {value}?)")
    from harness.grading.exercise import UnknownExercise, exercise_named

    try:
        exercise = exercise_named(config.getoption("fillit_exercise"))
    except UnknownExercise as unknown:
        raise pytest.UsageError(f"--fillit-exercise: {unknown}") from None
    suite = config.getoption("fillit_suite")
    if suite not in exercise.suites:
        raise pytest.UsageError(f"--fillit-suite: unknown suite {suite!r} of {exercise.name} "
                                f"(one of {', '.join(sorted(exercise.suites))})")
    timeout = config.getoption("fillit_timeout")
    if timeout is not None and not timeout > 0:
        raise pytest.UsageError("--fillit-timeout: must be a positive number of seconds")
    program = program.resolve()
    # pytest-xdist workers receive the option values: give them the resolved path.
    config.option.fillit = str(program)
    config.stash[_OPTIONS] = _Options(program, exercise.name, suite, config.getoption("fillit_seed"), timeout,
                                      config.getoption("fillit_profile") == "strict",
                                      config.getoption("fillit_isolation"))
    config.addinivalue_line("markers", "fillit: a case of the fillit grading suite (fillit-moulinette)")
    config.addinivalue_line("markers", "timeout(seconds): pytest-timeout limit")


@pytest.hookimpl(wrapper=True)
def pytest_make_collect_report(collector: pytest.Collector):
    report = yield
    if isinstance(collector, pytest.Session) and report.passed and _OPTIONS in collector.config.stash:
        report.result.append(FillitSuite.from_parent(collector, name=COLLECTOR_NAME, nodeid=COLLECTOR_NAME))
    return report


def pytest_report_header(config: pytest.Config) -> list[str] | None:
    options = config.stash.get(_OPTIONS, None)
    if options is None:
        return None
    seed = "fixed" if options.seed is None else options.seed
    return [f"{options.exercise}: {options.program} (suite {options.suite}, seed {seed}, "
            f"profile {'strict' if options.strict else 'default'})"]


class FillitCaseFailed(Exception):
    """A case's verdict is neither OK nor DISPUTED."""

    def __init__(self, result: Any) -> None:
        super().__init__(result.verdict.message)
        self.result = result


class FillitSuite(pytest.Collector):
    """The cases of the suite, in suite order."""

    def collect(self) -> list[pytest.Item]:
        from harness.grading.exercise import exercise_named
        from harness.grading.suites import load_suite

        options = self.config.stash[_OPTIONS]
        cases = load_suite(options.suite, options.seed, exercise=exercise_named(options.exercise))
        return [FillitCase.from_parent(self, name=case.id, case=case) for case in cases]

    def reportinfo(self):
        return self.path, None, f"fillit suite {self.config.stash[_OPTIONS].suite}"


class FillitCase(pytest.Item):
    """One case: run the program on it and check the output."""

    def __init__(self, *, case: Any, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        from harness.grading.suites import cpu_limit

        self.case = case
        self.extra_keyword_matches.add(case.category)
        self.add_marker(pytest.mark.fillit)
        from harness.grading.grade import wall_backstop

        cpu = cpu_limit(case, self.config.stash[_OPTIONS].timeout)
        # (a TIMEOUT runs twice, then the plain algorithm once, under the same limits)
        self.add_marker(pytest.mark.timeout(wall_backstop(cpu) * (max(1, case.runs) + 2) + BACKSTOP_MARGIN_S))
        self.result: Any = None

    def setup(self) -> None:
        """Grading happens here: a failure of the harness itself (the jail) is then an
        ERROR of the test, never a FAILED case blamed on the program."""
        from harness.grading.exercise import exercise_named
        from harness.grading.grade import grade_case_confirmed
        from harness.limits import Limits
        from harness.jail.policy import JailRefused, choose_jail

        options = self.config.stash[_OPTIONS]
        try:
            jail, _ = choose_jail(options.isolation, "binary")
        except JailRefused as refused:
            raise RuntimeError(f"fillit-moulinette: {refused}") from None
        self.result = grade_case_confirmed(options.program, self.case, Limits(), jail, options.strict,
                                           options.timeout, exercise_named(options.exercise))
        if not self.result.verdict.graded:
            raise RuntimeError(f"fillit-moulinette could not run this case (not the program's fault): "
                               f"{self.result.verdict.message}")

    def runtest(self) -> None:
        result = self.result
        verdict = result.verdict
        self.user_properties.append(("verdict", verdict.verdict))
        if verdict.diagnosis:
            self.user_properties.append(("diagnosis", verdict.diagnosis))
        self.user_properties.append(("time_s", f"{result.time_s:.3f}"))
        if not result.passed:
            raise FillitCaseFailed(result)

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style=None):
        if isinstance(excinfo.value, FillitCaseFailed):
            from reports.describe import describe_failure

            result = excinfo.value.result
            about = f" ({self.case.description})" if self.case.description else ""
            return f"{describe_failure(result, self.config.stash[_OPTIONS].exercise)}\ntime {result.time_s:.2f} s{about}"
        return super().repr_failure(excinfo, style=style)

    def reportinfo(self):
        return self.path, None, f"fillit {self.case.id}"
