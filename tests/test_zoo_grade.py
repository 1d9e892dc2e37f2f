"""The proof of the grader: every mutant gets its expected verdict and diagnosis,
every correct variant scores 100 (problemtools-style expectations in tests/zoo/mutants.toml).
"""
from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from harness.grading.grade import grade_binary
from harness.grading.model import GradeReport
from harness.grading.suites import load_suite
from zoo.build import base_entry, build, load_manifest

pytestmark = pytest.mark.slow  # (the fast loop: pytest -m "not slow", README's Development)

MUTANTS, CORRECTS = load_manifest()
JOBS = max(2, os.cpu_count() or 2)
# Mutants are graded with a short CPU limit (wall backstop 3 x 1 + 2 = 5 s, under the 30 s
# of sleeps_on_big_inputs): the slow ones are the ones that loop or sleep, and the cases
# their expectations name are small files a correct solver answers in milliseconds.
MUTANT_TIMEOUT_S = 1.0


@pytest.fixture(scope="module")
def binaries(tmp_path_factory) -> dict[str, Path]:
    out = tmp_path_factory.mktemp("zoo")
    entries = [base_entry(), *MUTANTS, *CORRECTS]
    with ThreadPoolExecutor(JOBS) as pool:
        paths = list(pool.map(lambda entry: build(entry, out), entries))
    for path in paths:  # the sandboxed program runs as an unprivileged user
        path.chmod(0o755)
    out.chmod(0o755)
    return {entry.name: path for entry, path in zip(entries, paths)}


@pytest.fixture(scope="module")
def suites(standard_suite) -> dict[str, list]:
    return {"quick": load_suite("quick"), "standard": standard_suite}


def matches(report: GradeReport, expect) -> list[str]:
    """Ids of the cases that show one of the expected verdict/diagnosis pairs (on the
    cases that expectation names, when it names some)."""
    return [r.case.id for r in report.results
            if any((r.verdict.verdict, r.verdict.diagnosis) == (e.verdict, e.diagnosis) and e.matches(r.case.id)
                   for e in expect)]


def graded_cases(mutant, cases: list) -> list:
    """The cases that can show one of the mutant's expectations: when every expectation
    names its cases, only those (a hit is only counted there, see `matches`)."""
    if all(e.cases for e in mutant.expect):
        return [case for case in cases if any(e.matches(case.id) for e in mutant.expect)]
    return cases


@pytest.mark.parametrize("mutant", MUTANTS, ids=[m.name for m in MUTANTS])
def test_mutant_gets_its_expected_verdict(mutant, binaries, suites):
    # The quick suite first; the rest of the standard suite when quick has no case that shows
    # the bug (quick's cases are standard cases: grading them again would show nothing new).
    quick_ids = {case.id for case in suites["quick"]}
    rest = [case for case in suites["standard"] if case.id not in quick_ids]
    report, hits = None, []
    for suite, cases in (("quick", suites["quick"]), ("standard", rest)):
        cases = graded_cases(mutant, cases)
        if not cases:
            continue
        report = grade_binary(binaries[mutant.name], cases, jobs=JOBS, timeout=MUTANT_TIMEOUT_S, suite=suite)
        hits = matches(report, mutant.expect)
        if hits:
            break
    assert report is not None, f"{mutant.name}: no case of quick or standard matches its expectation's ids"
    expected = ", ".join(f"{e.verdict} {e.diagnosis}" for e in mutant.expect)
    seen = sorted({(r.verdict.verdict, r.verdict.diagnosis) for r in report.results if not r.passed})
    assert hits, f"{mutant.name}: expected {expected} on some case; saw {seen}"
    assert report.score < 100


@pytest.mark.parametrize("variant", [base_entry(), *CORRECTS], ids=["base", *[c.name for c in CORRECTS]])
def test_correct_variant_scores_100(variant, binaries, suites):
    report = grade_binary(binaries[variant.name], suites[variant.suite], jobs=JOBS, suite=variant.suite)
    assert report.failed == 0, report.first_failure_line
    assert report.score == 100


def test_strict_profile_fails_the_seed_side_of_disputed_cases(binaries, suites):
    seed_side = next(c for c in CORRECTS if c.accept_disputed)
    disputed = [case for case in suites["standard"] if case.disputed]
    report = grade_binary(binaries[seed_side.name], disputed, jobs=JOBS, strict=True)
    assert disputed and report.failed == len(disputed)
    assert {r.verdict.diagnosis for r in report.results} == {"missed_error"}
