"""One of the student's own fillit files (`grade --cases DIR`) as a case.

Its expected output is the reference's answer (`solve_text`): the square, or `error\\n`
for an invalid file; a file that breaks only a disputed rule accepts both answers, as the
suites' disputed cases do.  The seed's plain search is counted on the file: its cost sets
the CPU limit (harness.grading.suites.cpu_limit).
"""
from __future__ import annotations

from generators.cases import Case
from generators.valid import plain_tries
from harness.grading.exercise import OWN_CATEGORY
from reference.parser import parse
from reference.solver import solve_text

# Tries counted at most (12M: a few seconds of counting in Python; beyond, the limit is
# the longest anyway: 12M x 10 us = 120 s, harness.grading.suites.MAX_CPU_S).
PLAIN_COUNT_BUDGET = 12_000_000


def own_case(case_id: str, data: bytes, description: str) -> Case:
    parsed = parse(data)
    rule = parsed.rejection.rule if parsed.rejection is not None else None
    # Past the budget the file counts as hard for plain search: the longest limit.
    tries = plain_tries(parsed.pieces, PLAIN_COUNT_BUDGET) if parsed.valid else None
    if parsed.valid and tries is None:
        tries = PLAIN_COUNT_BUDGET
    disputed = parsed.disputed[0] if parsed.disputed and not parsed.valid else None
    return Case(case_id, OWN_CATEGORY, data, solve_text(data), rule=rule, disputed=disputed, plain_tries=tries,
                accepted=(solve_text(data, accept_disputed=True),) if disputed else (), description=description)
