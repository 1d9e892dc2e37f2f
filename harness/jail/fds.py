"""The descriptors of one step besides its stdio, and the processes that come back to us.

The launcher's status pipe (harness/jail/launcher.c), bwrap's info pipe (without a cgroup
it names the pid namespace's init, which we reap), the side output (valgrind's log). The
harness is a child subreaper: orphans of a step (bwrap's init when a step was killed, a
daemon's dead parent) come back to it, to be reaped by uid.
"""
from __future__ import annotations

import contextlib
import ctypes
import fcntl
import functools
import os
import resource
import re
import select
from collections.abc import Iterator
from dataclasses import dataclass

from harness.jail.step import JailError, Step


@dataclass
class RunFds:
    """The descriptors of one run besides its stdio: the launcher's status pipe, bwrap's
    info pipe (no cgroup: it names the init to reap), the side output (valgrind's log)."""

    status_read: int
    status_write: int
    info_read: int | None = None
    info_write: int | None = None
    side: int | None = None

    @classmethod
    def open(cls, step: Step, info: bool) -> "RunFds":
        fds = cls(*pipe_above(10))
        try:
            if info:
                fds.info_read, fds.info_write = pipe_above(10)
            if step.side_output is not None:
                fds.side = fd_above(os.open(step.side_output, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW
                                             | os.O_CLOEXEC, 0o600), 10)
        except BaseException:
            fds.close()
            raise
        return fds

    def passed(self) -> tuple[int, ...]:
        return tuple(fd for fd in (self.status_write, self.info_write, self.side) if fd is not None)

    def close_writers(self) -> None:
        for name in ("status_write", "info_write", "side"):
            fd = getattr(self, name)
            if fd is not None and fd >= 0:
                os.close(fd)
                setattr(self, name, None)

    def close(self) -> None:
        self.close_writers()
        for fd in (self.status_read, self.info_read):
            if fd is not None:
                with contextlib.suppress(OSError):
                    os.close(fd)


def read_now(fd: int) -> bytes:
    """What a pipe holds now (a writer may still be dying when no cgroup is waited on)."""
    os.set_blocking(fd, False)
    try:
        return os.read(fd, 65536)
    except BlockingIOError:
        return b""


def reap_init(info_read: int, timeout_s: float) -> Iterator[resource.struct_rusage]:
    """Reap bwrap's init (named on its info pipe; re-parented to us, a subreaper, since the
    outer bwrap does not wait for it): its rusage holds the program's. Yields it once."""
    match = re.search(rb'"child-pid":\s*(\d+)', read_now(info_read))
    if match is None:
        return
    pid = int(match.group(1))
    with contextlib.suppress(OSError):
        fd = os.pidfd_open(pid)
        try:
            select.select([fd], [], [], timeout_s)
        finally:
            os.close(fd)
    with contextlib.suppress(ChildProcessError):
        reaped, _, usage = os.wait4(pid, os.WNOHANG)
        if reaped == pid:
            yield usage


def pipe_above(low: int) -> tuple[int, int]:
    read, write = os.pipe()
    return fd_above(read, low), fd_above(write, low)


def fd_above(fd: int, low: int) -> int:
    """`fd` moved to a number >= `low` (close-on-exec), so it never collides with the
    numbers the launcher dup2()s onto."""
    if fd >= low:
        return fd
    moved = fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, low)
    os.close(fd)
    return moved


@functools.cache
def become_subreaper() -> None:
    """Orphans of a step come back to us, to be reaped (else a container's pid 1 that
    never reaps would collect them as zombies)."""
    if ctypes.CDLL(None, use_errno=True).prctl(36, 1, 0, 0, 0) != 0:  # PR_SET_CHILD_SUBREAPER
        raise JailError(f"prctl(PR_SET_CHILD_SUBREAPER): {os.strerror(ctypes.get_errno())}")


def zombie_children() -> list[int]:
    found = []
    for tid in os.listdir("/proc/self/task"):
        with contextlib.suppress(OSError):
            with open(f"/proc/self/task/{tid}/children", "rb") as handle:
                found += [int(pid) for pid in handle.read().split()]
    zombies = []
    for pid in found:
        with contextlib.suppress(OSError, IndexError):
            with open(f"/proc/{pid}/stat", "rb") as handle:
                if handle.read().rsplit(b")", 1)[1].split()[0] == b"Z":
                    zombies.append(pid)
    return zombies


def uid_of(pid: int) -> int | None:
    try:
        with open(f"/proc/{pid}/status", "rb") as handle:
            match = re.search(rb"\nUid:\t(\d+)", handle.read(2048))
    except OSError:
        return None
    return int(match.group(1)) if match else None
