"""Verdicts a student can trust and act on: CPU-time limits that do not flip with the
machine's load, every TIMEOUT and CRASH explained, nondeterminism caught. Real C
programs (tests/verdict_targets/*.c, and the seed's plain algorithm started too small)
graded through `grade_binary`."""
from __future__ import annotations

from reference.plain import PLAIN_C_SOURCE

import dataclasses
import multiprocessing
import re
import time
from pathlib import Path

import pytest

from generators.cases import Case
from harness.grading.grade import grade_binary
from harness.jail import detect_jail
from reference.solver import solve_text

from jail_modes import jail_for

TARGETS = Path(__file__).parent / "verdict_targets"
PLAIN_C = PLAIN_C_SOURCE
SAMPLE = b"....\n##..\n.#..\n.#..\n\n....\n####\n....\n....\n\n#...\n###.\n....\n....\n\n....\n##..\n.##.\n....\n"


def sample_case(case_id: str = "valid/seed-sample") -> Case:
    return Case(id=case_id, category="valid", input=SAMPLE, expected=solve_text(SAMPLE))


@pytest.fixture(scope="module")
def slow_start(tmp_path_factory) -> Path:
    """The seed's plain backtracking, but starting at a 2x2 square: correct, and it must
    prove every square below ceil(sqrt(4n)) impossible by exhaustion (three of fourteen
    real student fillits do that)."""
    source = PLAIN_C.read_text()
    start = "for (side = 2; side * side < 4 * count; side++)\n        ;"
    assert source.count(start) == 1
    path = tmp_path_factory.mktemp("slow-start") / "slow_start.c"
    path.write_text(source.replace(start, "side = 2;"))
    return path


@pytest.mark.slow
def test_a_search_that_starts_too_small_gets_the_lower_bound_hint(build_c, slow_start, standard_suite):
    program = build_c(slow_start, flags=("-O2",))
    cases = [c for c in standard_suite if c.category in ("valid", "large")
             and c.input is not None and c.input.count(b"#") // 4 >= 18][:3]
    report = grade_binary(program, cases, jail=detect_jail(), timeout=0.5, jobs=2)
    timeouts = [r for r in report.results if r.verdict.verdict == "TIMEOUT"]
    assert timeouts, [r.verdict for r in report.results]
    for result in timeouts:
        details, message = result.verdict.details, result.verdict.message
        assert details["confirmed"] is True and details["plain_cpu_s"] < 0.05, details
        bound = details["bound_side"]
        assert f"{details['pieces']} pieces, which fit at best in a {bound}x{bound} square" in message
        assert "the seed's plain backtracking, starting at" in message and "(measured now)" in message
        assert f"Likely cause: a search that starts below {bound}x{bound} (ceil(sqrt(4n)))" in message


def _hog(seconds: float) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        pass


def test_a_slow_but_correct_program_is_not_a_timeout_on_a_busy_machine(build_c):
    """0.5 s of CPU per file against a 1 s CPU limit, with both cores busy beside it: wall
    time stretches, CPU time does not, so every case passes."""
    program = build_c(TARGETS / "slow_correct.c")
    hogs = [multiprocessing.get_context("fork").Process(target=_hog, args=(60.0,)) for _ in range(3)]
    for hog in hogs:
        hog.start()
    try:
        report = grade_binary(program, [sample_case(f"valid/seed-sample-{k}") for k in range(4)],
                              jail=detect_jail(), timeout=1.0, jobs=2)
    finally:
        for hog in hogs:
            hog.terminate()
            hog.join()
    assert [r.verdict.verdict for r in report.results] == ["OK"] * 4, [r.verdict for r in report.results]
    assert all(0.4 < r.cpu_s < 1.0 for r in report.results)


def test_a_crash_only_with_an_empty_environment_says_so(build_c):
    program = build_c(TARGETS / "env_crash.c")
    report = grade_binary(program, [sample_case()], jail=detect_jail())
    verdict = report.results[0].verdict
    assert (verdict.verdict, verdict.diagnosis) == ("CRASH", "SIGSEGV")
    assert "only with the harness's near-empty environment" in verdict.message
    assert "probably reads uninitialised memory" in verdict.message
    assert verdict.details["command"] == f"./{program.name} input.fillit"
    assert verdict.details["environment"] == {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": "/grade/work",
                                              "LC_ALL": "C"}
    assert verdict.details["with_normal_environment"] == "no crash (exit status 0)"


def test_a_garbage_column_is_nondeterministic_not_a_format_error(build_c):
    program = build_c(TARGETS / "garbage_column.c")
    report = grade_binary(program, [sample_case()], jail=detect_jail())
    verdict = report.results[0].verdict
    assert (verdict.verdict, verdict.diagnosis) == ("WRONG", "nondeterministic"), verdict
    first, second = verdict.details["outputs"]
    assert first != second and all(re.fullmatch(r"(?:[A-D]{4}[a-z]\n){4}", out) for out in (first, second))


def test_a_memory_limit_is_a_crash_with_its_cause(build_c):
    program = build_c(Path(__file__).parent / "hostile" / "multi_hog.c")
    report = grade_binary(program, [sample_case()], jail=jail_for("jail"))  # (a cgroup: every process together)
    verdict = report.results[0].verdict
    assert (verdict.verdict, verdict.diagnosis) == ("CRASH", "memory_limit"), verdict


def test_a_crash_shows_valgrind_s_first_error_with_its_stack(build_c):
    program = build_c(TARGETS / "heap_overflow.c", flags=("-O0", "-g"))
    report = grade_binary(program, [sample_case()], jail=detect_jail())
    verdict = report.results[0].verdict
    assert verdict.verdict == "CRASH", verdict
    first = verdict.details["memcheck_first_error"]
    assert first.startswith("Invalid write of size") and "smash (heap_overflow.c:" in first, first
    assert "valgrind: Invalid write" in verdict.message


def test_the_cpu_limit_follows_the_plain_algorithm_s_cost(standard_suite):
    from generators.valid import EASY_BUDGET, plain_tries
    from harness.grading.suites import DEFAULT_CPU_S, PLAIN_TRY_BUDGET_S, cpu_limit
    from reference.parser import parse

    standard = standard_suite
    valid = [c for c in standard if c.category in ("valid", "large") and c.input is not None]
    # The suite's valid files stay within the plain search's easy budget: the floor covers them.
    assert all(plain_tries(parse(c.input).pieces, EASY_BUDGET) is not None for c in valid[::7])
    assert EASY_BUDGET * PLAIN_TRY_BUDGET_S <= DEFAULT_CPU_S
    assert {cpu_limit(c) for c in valid} == {DEFAULT_CPU_S}
    # A file whose plain search is long gets the time it needs, proportionally.
    heavy = dataclasses.replace(valid[0], plain_tries=3_000_000)
    assert cpu_limit(heavy) == pytest.approx(30.0) == 3_000_000 * PLAIN_TRY_BUDGET_S
    assert cpu_limit(heavy, override=2.0) == 2.0
