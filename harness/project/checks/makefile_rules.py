"""The Makefile has `all`, `clean`, `fclean` and `re`, and each does its job: run in that
order (clean, fclean, all from a clean tree, re), checking what each leaves behind. It
runs last: it rebuilds the tree (the graded binary is a separate copy)."""
from __future__ import annotations

import re
import time

from harness.grading.model import ProjectCheck
from harness.project.build import BINARY_NAME, failure_line, make_step
from harness.project.checks.common import CheckContext, Deadline, failed, objects, passed, skipped, stamp
from harness.project.workspace import ExecResult

NAME = "makefile_rules"
REQUIRED_RULES = ("clean", "fclean", "all", "re")
# Removes the build products inside the jail, as the workspace's uid: the harness never
# deletes by name in a tree a step could write.
_CLEAN_TREE = f"rm -f ./{BINARY_NAME}; find . -name '*.o' -type f -delete"


def _no_rule(output: str, target: str) -> bool:
    return re.search(r"No rule to make target [`'‘\"]?" + re.escape(target) + r"['’\"]?", output) is not None


def check(ctx: CheckContext) -> ProjectCheck:
    repo = ctx.ws.repo
    if not (repo / "Makefile").is_file():
        other = next((n for n in ("makefile", "GNUmakefile") if (repo / n).is_file()), None)
        if other:
            return failed(NAME, f"no Makefile (found '{other}'; the subject asks for 'Makefile')")
        return failed(NAME, "no Makefile at the repository root")
    if not ctx.build.ok or ctx.build.binary is None:
        return skipped(NAME, "not checked: the build failed")
    deadline = Deadline(ctx.timeout_s)
    binary = repo / BINARY_NAME
    problems: list[str] = []

    def step(target: str) -> ExecResult | None:
        if deadline.expired():
            problems.append(f"`make {target}` not run (time limit)")
            return None
        result = make_step(ctx.ws, ctx.build.lenient, (target,), cpu_s=deadline.left())
        if _no_rule(result.output, target):
            problems.append(f"no rule `{target}`")
        elif result.timed_out:
            problems.append(f"`make {target}` timed out")
        elif result.returncode != 0:
            problems.append(f"`make {target}` failed: {failure_line(result.output, result)}")
        else:
            return result
        return None

    if step("clean") is not None:
        left = objects(repo)
        if left:
            shown = ", ".join(left[:3]) + (" ..." if len(left) > 3 else "")
            problems.append(f"`make clean` left {len(left)} object file(s): {shown}")
        if stamp(binary) is None:
            problems.append(f"`make clean` removed ./{BINARY_NAME} (only fclean should)")
    if step("fclean") is not None:
        if stamp(binary) is not None:
            problems.append(f"`make fclean` left ./{BINARY_NAME}")
        left = objects(repo)
        if left:
            problems.append(f"`make fclean` left {len(left)} object file(s): {', '.join(left[:3])}")
    ctx.ws.run(["/bin/sh", "-c", _CLEAN_TREE], cpu_s=10)  # `all` must build from a clean tree
    if step("all") is not None and stamp(binary) is None:
        problems.append(f"`make all` did not build ./{BINARY_NAME}")
    before = stamp(binary)
    time.sleep(0.05)
    if step("re") is not None:
        after = stamp(binary)
        if after is None:
            problems.append(f"`make re` did not build ./{BINARY_NAME}")
        elif before is not None and after == before:
            problems.append(f"`make re` did not rebuild ./{BINARY_NAME}")
    if problems:
        return failed(NAME, "; ".join(problems))
    return passed(NAME, "all, clean, fclean and re exist and work "
                        "(clean keeps fillit, fclean removes it, all and re build it)")
