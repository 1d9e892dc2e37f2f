"""Which jail a command may grade with (docs/SECURITY.md, "Policy").

    jail, warning = choose_jail("auto", "repository", unsafe=False)

* a cohort (`grade batch`) needs the full jail (namespaces + a cgroup per step);
* a repository (`grade path/to/repo`: its Makefile runs) needs at least the namespaces;
* a binary (`grade ./fillit`, a student grading their own program) may fall back to a
  uid and rlimits, with a one-line warning;
* `--unsafe-no-jail` lifts the first two rules; the report then says so.

A bubblewrap that is installed but cannot start is an error, never a silent downgrade
(harness.jail.detect_jail raises).
"""
from __future__ import annotations

from typing import Literal

from harness.jail import Jail, JailError, detect_jail
from harness.jail.engine import IsolationRequest

Target = Literal["binary", "repository", "cohort"]
NEEDED: dict[Target, tuple[str, ...]] = {"binary": ("jail", "namespaces", "rlimits"),
                                         "repository": ("jail", "namespaces"), "cohort": ("jail",)}
WHAT: dict[Target, str] = {"binary": "a binary", "repository": "a repository (its Makefile runs code)",
                           "cohort": "a cohort (other people's code)"}


class JailRefused(Exception):
    """The jail available here is too weak for what is being graded: one line for the user."""


def choose_jail(request: IsolationRequest, target: Target, unsafe: bool = False) -> tuple[Jail, str | None]:
    """The jail to grade `target` with, and a warning line when it is not the full jail."""
    try:
        jail = detect_jail(request)
    except JailError as error:
        raise JailRefused(f"the jail cannot run here: {error}") from None
    if jail.mode not in NEEDED[target] and not unsafe:
        raise JailRefused(f"refusing to grade {WHAT[target]} with isolation {jail.describe()}: "
                          f"it needs {' or '.join(NEEDED[target])} (run as root with bubblewrap and cgroups, "
                          "see docs/SECURITY.md), or pass --unsafe-no-jail")
    if jail.mode == "jail":
        return jail, None
    if jail.mode not in NEEDED[target]:
        return jail, f"UNSAFE: grading {WHAT[target]} without the jail ({jail.describe()}), as --unsafe-no-jail asked"
    return jail, f"warning: weaker isolation: {jail.describe()}"
