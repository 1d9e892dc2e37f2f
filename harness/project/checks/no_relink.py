"""A second `make` with nothing changed rebuilds nothing (it needs the tree exactly as
the build left it, so it runs before any check that runs make targets)."""
from __future__ import annotations

import time

from harness.grading.model import ProjectCheck
from harness.project.build import BINARY_NAME, failure_line, make_step
from harness.project.checks.common import CheckContext, built_files, failed, passed, skipped

NAME = "no_relink"


def check(ctx: CheckContext) -> ProjectCheck:
    build = ctx.build
    if not build.ok:
        return skipped(NAME, "not checked: the build failed")
    before = built_files(ctx.ws.repo)
    time.sleep(0.05)  # coarse file timestamps tick every few ms: a rewrite gets a new one
    result = make_step(ctx.ws, build.lenient, cpu_s=ctx.timeout_s)
    if not result.ok:
        return failed(NAME, f"a second `make` failed: {failure_line(result.output, result, ctx.timeout_s)}")
    after = built_files(ctx.ws.repo)
    if BINARY_NAME not in after:
        return failed(NAME, f"a second `make` removed ./{BINARY_NAME}")
    relinked = after[BINARY_NAME] != before.get(BINARY_NAME)
    rebuilt = sorted(r for r in after if r != BINARY_NAME and after[r] != before.get(r))
    if not (relinked or rebuilt):
        return passed(NAME, f"a second `make` left ./{BINARY_NAME} and {len(after) - 1} object file(s) untouched")
    parts = [f"relinked ./{BINARY_NAME}"] if relinked else []
    if rebuilt:
        shown = ", ".join(rebuilt[:5]) + (" ..." if len(rebuilt) > 5 else "")
        parts.append(f"rebuilt {len(rebuilt)} object file(s) ({shown})")
    return failed(NAME, "a second `make` with nothing changed " + " and ".join(parts))
