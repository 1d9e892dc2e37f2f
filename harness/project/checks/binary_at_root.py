"""`make` builds ./fillit at the repository root."""
from __future__ import annotations

from harness.grading.model import ProjectCheck
from harness.project.build import BINARY_NAME
from harness.project.checks.common import CheckContext, failed, passed

NAME = "binary_at_root"


def check(ctx: CheckContext) -> ProjectCheck:
    build = ctx.build
    if build.ok and build.binary is not None:
        return passed(NAME, f"`{build.command}` builds ./{BINARY_NAME} at the repository root")
    return failed(NAME, build.message or f"no ./{BINARY_NAME} after make")
