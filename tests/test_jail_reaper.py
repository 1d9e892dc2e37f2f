"""The jail's reaper of orphans (as root the harness is a subreaper, and zombies of the
uid pool re-parented to it are reaped after each step) against steps running beside it."""
from __future__ import annotations

import contextlib
import os
import subprocess
import time

import pytest

from harness.jail import engine
from harness.jail.identity import Identity, run_identity
from jail_modes import REQUIRE_VAR, jail_for


@pytest.fixture
def jail() -> engine.Jail:
    if os.geteuid() != 0:  # the uid pool, and so the reaper, exist only for root
        if os.environ.get(REQUIRE_VAR):
            pytest.fail(f"the reaper's tests need root ({REQUIRE_VAR} is set)")
        pytest.skip("the reaper runs only as root")
    return jail_for("rlimits")


def zombie_of(who: Identity) -> subprocess.Popen:
    """A child of ours running as `who` that has exited and is not reaped yet."""
    proc = subprocess.Popen(["true"], user=who.uid, group=who.gid)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        with open(f"/proc/{proc.pid}/stat", "rb") as handle:
            if handle.read().rsplit(b")", 1)[1].split()[0] == b"Z":
                return proc
        time.sleep(0.01)
    raise AssertionError(f"pid {proc.pid} did not exit")


def reaped(proc: subprocess.Popen) -> bool:
    try:
        _, status = os.waitpid(proc.pid, 0)
    except ChildProcessError:
        proc.returncode = -1  # Popen must not wait for it again
        return True
    proc.returncode = status
    return False


def test_a_step_starting_while_the_reaper_runs_keeps_its_program(jail, monkeypatch):
    # Another thread's step takes its uid and its program exits at once after the reaper
    # began but before it listed the zombies: the step's own wait must still find it.
    listed = engine.zombie_children
    steps = contextlib.ExitStack()
    started: list[subprocess.Popen] = []

    def a_step_starts_then_list() -> list[int]:
        started.append(zombie_of(steps.enter_context(run_identity())))
        return listed()

    monkeypatch.setattr(engine, "zombie_children", a_step_starts_then_list)
    with steps:
        jail._reap_orphans(own_uid=-1)
        assert not reaped(started[0]), "the reaper took the main process of a step still running"


def test_an_orphan_of_a_uid_no_step_holds_is_reaped(jail):
    with run_identity() as who:
        orphan = zombie_of(who)
        jail._reap_orphans(own_uid=-1)
        assert not reaped(orphan), "reaped while its uid was held"
    kept = zombie_of(Identity(os.getuid(), os.getgid()))  # the harness's own uid: never the reaper's
    orphan = zombie_of(who)
    jail._reap_orphans(own_uid=-1)
    assert reaped(orphan)
    assert not reaped(kept)
