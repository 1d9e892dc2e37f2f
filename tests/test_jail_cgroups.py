"""Tidying up the cgroups of harness processes that are gone: on plain folders standing in
for a cgroup v2 tree, so that the races of several harnesses can be staged exactly."""
from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

from harness.jail import cgroups
from harness.jail.cgroups import CgroupError, V2Tree, _self_start_time

DEAD_PID = 2**22 + 1  # above pid_max's largest value: never a live process


def stale_group(base: Path, index: int = 0) -> Path:
    folder = base / f"run-{DEAD_PID}-12345-{index}"
    folder.mkdir()
    return folder


def test_a_gone_harness_s_empty_group_is_removed(tmp_path):
    stale = stale_group(tmp_path)
    live = tmp_path / f"run-{os.getpid()}-{_self_start_time()}-0"
    live.mkdir()
    assert V2Tree(tmp_path).remove_stale() == 1
    assert not stale.exists() and live.exists()


@pytest.mark.parametrize("code", [errno.ENODEV, errno.ENOENT])
def test_a_group_removed_meanwhile_is_skipped(tmp_path, monkeypatch, code):
    # What CI met: another test process removed the stale group between our listing and
    # our read of its cgroup.procs, which cgroup v1 answers with ENODEV.
    first, second = stale_group(tmp_path, 0), stale_group(tmp_path, 1)
    real_read = cgroups._read

    def read(path: Path) -> str:
        if path.parent == first:
            first.rmdir()
            raise OSError(code, os.strerror(code))
        return real_read(path)

    monkeypatch.setattr(cgroups, "_read", read)
    V2Tree(tmp_path).remove_stale()  # no error: a group gone meanwhile is as good as removed
    assert not first.exists() and not second.exists()


def test_a_group_that_cannot_be_emptied_is_left_without_failing(tmp_path, monkeypatch):
    stale = stale_group(tmp_path)

    def wait_empty(group, timeout_s):
        raise CgroupError(f"cannot write '1' to {group.path / 'cgroup.kill'}: No such device")

    monkeypatch.setattr(cgroups, "wait_empty", wait_empty)
    assert V2Tree(tmp_path).remove_stale() == 0
    assert stale.exists()


def test_other_read_errors_are_not_hidden(tmp_path):
    stale = stale_group(tmp_path)
    (stale / "cgroup.procs").mkdir()  # reading it fails with EISDIR: not "gone"
    with pytest.raises(IsADirectoryError):
        cgroups._members(stale / "cgroup.procs")
