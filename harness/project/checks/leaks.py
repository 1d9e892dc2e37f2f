"""No memory definitely lost (valgrind memcheck) on the first sample inputs."""
from __future__ import annotations

from harness.jail.bwrap import which_in_jail
from harness.grading.model import ProjectCheck
from harness.project.checks.common import CheckContext, failed, passed, skipped
from harness.project.checks.valgrind import memcheck_runs

NAME = "leaks"


def check(ctx: CheckContext) -> ProjectCheck:
    if which_in_jail("valgrind") is None:
        return skipped(NAME, "valgrind not installed")
    if not ctx.build.ok or ctx.build.binary is None:
        return skipped(NAME, "not checked: no binary was built")
    if not ctx.sample_inputs:
        return skipped(NAME, "no sample input to run the binary on")
    runs = memcheck_runs(ctx)
    notes = [run.note for run in runs if not run.ran]
    leaks = [f"definitely lost {run.definitely_lost_bytes} bytes in {run.definitely_lost_blocks} block(s) "
             f"on input #{run.input_number}" for run in runs if run.ran and run.definitely_lost_bytes]
    ran = sum(run.ran for run in runs)
    if leaks or any(run.tampered for run in runs):
        return failed(NAME, "; ".join(leaks + notes))
    if ran == 0:
        return skipped(NAME, "; ".join(notes) or "valgrind could not run")
    return passed(NAME, f"no definite leak on {ran} input(s)" + (f" ({'; '.join(notes)})" if notes else ""))
