"""The isolation modes the tests run under, and how a test gets a jail of a mode.

Set FILLIT_REQUIRE_JAIL=1 (CI does) to make a mode this machine cannot offer a test
failure rather than a skip: the jail's tests must never silently not run in CI."""
from __future__ import annotations

import os

import pytest

from harness.jail import Jail, JailError, detect_jail

ISOLATIONS = ("jail", "namespaces", "rlimits")
REQUIRE_VAR = "FILLIT_REQUIRE_JAIL"


def jail_for(mode: str) -> Jail:
    """The jail of `mode`, or skip (fail under FILLIT_REQUIRE_JAIL) when it is not available."""
    try:
        jail = detect_jail(mode)  # type: ignore[arg-type]
    except JailError as error:
        if os.environ.get(REQUIRE_VAR):
            pytest.fail(f"isolation {mode!r} is required here ({REQUIRE_VAR}) but unavailable: {error}")
        pytest.skip(f"isolation {mode!r} is not available here: {error}")
    if jail.mode != mode:
        message = f"asked for isolation {mode!r}, got {jail.describe()}"
        if os.environ.get(REQUIRE_VAR):
            pytest.fail(message)
        pytest.skip(message)
    return jail
