"""No memory error (valgrind memcheck: invalid read or write, use of uninitialised values,
invalid or mismatched free, overlapping copies...) on the first sample inputs; leaks are
the `leaks` check's. The same valgrind runs as `leaks` (harness.project.checks.valgrind).

The message gives the count and the first error with its stack, on one line. Source
lines (main.c:14) need debug information in the graded binary; the harness grades the
binary the student's Makefile builds and never rebuilds it differently, so when it has
none the message says so and suggests -g (which changes no code, and the flags check
allows).
"""
from __future__ import annotations

from harness.jail.bwrap import which_in_jail
from harness.grading.memcheck import compact_error
from harness.grading.model import ProjectCheck
from harness.project.checks.common import CheckContext, failed, passed, skipped
from harness.project.checks.valgrind import MemcheckRun, memcheck_runs
from harness.project.workspace import WORK

NAME = "memory_errors"
NO_DEBUG_INFO = ("no source lines: ./fillit has no debug information; add -g to the compile flags to see them "
                 "(it changes no code, and the flags check allows it)")


def _counted(run: MemcheckRun) -> str:
    distinct = f" ({run.contexts} distinct)" if run.contexts and run.contexts != run.errors else ""
    return f"{run.errors} memory error(s){distinct} on input #{run.input_number}"


def check(ctx: CheckContext) -> ProjectCheck:
    if which_in_jail("valgrind") is None:
        return skipped(NAME, "valgrind not installed")
    if not ctx.build.ok or ctx.build.binary is None:
        return skipped(NAME, "not checked: no binary was built")
    if not ctx.sample_inputs:
        return skipped(NAME, "no sample input to run the binary on")
    runs = memcheck_runs(ctx)
    notes = [run.note for run in runs if run.note]
    erring = [run for run in runs if run.errors and run.first_error]
    if erring:
        first, without_lines = compact_error(erring[0].first_error, f"{WORK}/fillit")
        parts = ["; ".join(_counted(run) for run in erring), f"first: {first}"]
        if without_lines:
            parts.append(NO_DEBUG_INFO)
        return failed(NAME, "; ".join(parts + notes))
    if any(run.tampered for run in runs):
        return failed(NAME, "; ".join(notes))
    ran = sum(run.ran for run in runs)
    if ran == 0:
        return skipped(NAME, "; ".join(notes) or "valgrind could not run")
    return passed(NAME, f"no memory error on {ran} input(s)" + (f" ({'; '.join(notes)})" if notes else ""))
