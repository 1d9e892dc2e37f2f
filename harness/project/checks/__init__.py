"""The project checks of repository mode (the 42 subject's rules), one module each,
run in the order of `CHECKS` (adding a check: a module with NAME and check(ctx), and a
line here; steps shared by checks, valgrind's runs and the `make -n -B` listing, are
cached in the context). Order matters twice: no_relink needs the tree exactly as the build left
it, and makefile_rules, which cleans and rebuilds, runs last.

    checks = project_checks(build, ws, sample_inputs=[data], timeout_s=60)
"""
from __future__ import annotations

from collections.abc import Sequence
from types import ModuleType

from harness.grading.model import ProjectCheck
from harness.project.build import BuildResult
from harness.project.checks import (author, binary_at_root, flags, forbidden_functions, leaks, makefile_rules,
                                    memory_errors, no_relink, norm)
from harness.project.checks.common import CheckContext, skipped
from harness.project.workspace import Workspace

CHECKS: tuple[ModuleType, ...] = (binary_at_root, no_relink, author, forbidden_functions, leaks, memory_errors,
                                  norm, flags, makefile_rules)
CHECK_NAMES: tuple[str, ...] = tuple(module.NAME for module in CHECKS)


def project_checks(build: BuildResult, ws: Workspace, *, sample_inputs: Sequence[bytes] = (),
                   timeout_s: float = 120.0) -> list[ProjectCheck]:
    """Every project check, in `CHECKS` order. Never raises: a check that cannot run comes
    back as "skip" with the reason (a jail failure included: it is not the student's)."""
    ctx = CheckContext(build, ws, tuple(sample_inputs), timeout_s)
    results = []
    for module in CHECKS:
        try:
            results.append(module.check(ctx))
        except Exception as error:  # never let one check break the grading
            results.append(skipped(module.NAME, f"could not check: {type(error).__name__}: {error}"))
    return results
