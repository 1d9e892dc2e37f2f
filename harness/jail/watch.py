"""Watching one started step: read its output (capped), enforce the CPU, wall and output
limits while it runs, and notice when its main process ends.

The loop waits on the stdout/stderr pipes and on a pidfd of the main process, and wakes
up at least every `CPU_POLL_S` to read the CPU time of the whole step (its cgroup):
the CPU limit is checked against every process of the step, not only the main one, and
it is the limit verdicts rest on; the wall limit is a backstop for a program that
sleeps or waits.
"""
from __future__ import annotations

import os
import resource
import selectors
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass

from harness.jail.step import LimitHit
from harness.limits import Limits

READ_CHUNK = 1 << 16
CPU_POLL_S = 0.02  # how late a CPU-limit kill can be (plus the time a kill takes)


class CappedStream:
    """A non-blocking pipe, read to the end; the first `cap` bytes are kept."""

    def __init__(self, fd: int, cap: int) -> None:
        self.fd, self.cap = fd, cap
        self.chunks: list[bytes] = []
        self.kept = self.total = 0
        self.open = True
        os.set_blocking(fd, False)

    def read(self) -> None:
        try:
            data = os.read(self.fd, READ_CHUNK)
        except BlockingIOError:
            return
        if not data:
            self.open = False
            return
        self.total += len(data)
        if self.kept < self.cap:
            piece = data[: self.cap - self.kept]
            self.chunks.append(piece)
            self.kept += len(piece)

    def value(self) -> bytes:
        return b"".join(self.chunks)


@dataclass
class Watched:
    status: int | None  # wait status of the main process (None: it never ended)
    rusage: resource.struct_rusage | None  # its resource usage (os.wait4)
    limit: LimitHit | None
    ended_at: float  # monotonic time the main process ended, or was killed
    stdout: CappedStream
    stderr: CappedStream | None


def watch(proc: subprocess.Popen, limits: Limits, started: float, cpu_s: Callable[[], float] | None,
          kill: Callable[[], None], after_exit: Callable[[], None]) -> Watched:
    """Follow `proc` until it has ended and its pipes are drained (or `limits.grace_s`
    after a kill). `cpu_s` reads the CPU of the whole step (None: only rlimits apply);
    `kill` ends every process of the step; `after_exit` runs once the main process has
    been reaped (to end what it left behind, which may hold the pipes open).

    One loop on purpose (80 lines): every limit (output, stderr, CPU, wall, the grace after
    a kill) is checked at the same tick, in one place, as runguard's main loop does; split,
    the order of the checks (which limit a run is charged with) would be hidden."""
    assert proc.stdout is not None
    out = CappedStream(proc.stdout.fileno(), limits.output_bytes)
    err = CappedStream(proc.stderr.fileno(), limits.stderr_bytes) if proc.stderr is not None else None
    pidfd = os.pidfd_open(proc.pid)
    selector = selectors.DefaultSelector()
    for stream in (out, err):
        if stream is not None:
            selector.register(stream.fd, selectors.EVENT_READ, stream)
    selector.register(pidfd, selectors.EVENT_READ, None)
    deadline = started + limits.wall_s
    limit: LimitHit | None = None
    status = rusage = None
    killed_at: float | None = None
    ended_at: float | None = None
    drain_until: float | None = None

    def stop(why: LimitHit) -> None:
        nonlocal limit, killed_at
        if limit is None:
            limit = why
        if killed_at is None:
            killed_at = time.monotonic()
            kill()

    def close_streams() -> None:
        for stream in (out, err):
            if stream is not None and stream.open:
                stream.open = False
                selector.unregister(stream.fd)

    try:
        while True:
            now = time.monotonic()
            if status is None and killed_at is None:
                if now >= deadline:
                    stop("wall")
                    continue
                if cpu_s is not None and cpu_s() > limits.cpu_s:
                    stop("cpu")
                    continue
                wake = min(deadline, now + CPU_POLL_S) if cpu_s is not None else deadline
            elif status is None:  # killed: waiting for the main process to go
                assert killed_at is not None
                if now >= killed_at + limits.grace_s:
                    close_streams()
                if now >= killed_at + limits.grace_s + 5.0:
                    break  # not dead 5 s after SIGKILL (stuck in the kernel): give up waiting
                wake = killed_at + limits.grace_s + 5.0
            else:
                assert drain_until is not None
                if not (out.open or (err is not None and err.open)) or now >= drain_until:
                    break
                wake = drain_until
            for key, _ in selector.select(max(0.0, wake - now)):
                stream = key.data
                if stream is None:  # the pidfd: the main process has ended
                    _, status, rusage = os.wait4(proc.pid, 0)
                    proc.returncode = status  # Popen must not wait for it again
                    ended_at = time.monotonic()
                    selector.unregister(pidfd)
                    after_exit()
                    drain_until = (killed_at or ended_at) + limits.grace_s
                    continue
                if not stream.open:
                    continue
                stream.read()
                if not stream.open:
                    selector.unregister(stream.fd)
                if stream is out and out.total > limits.output_bytes:
                    stop("output")
    finally:
        selector.close()
        os.close(pidfd)
    return Watched(status, rusage, limit, ended_at or killed_at or time.monotonic(), out, err)
