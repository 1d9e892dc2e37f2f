"""Resource limits for one run of an untrusted program, each named and explicit
(in the spirit of DOMjudge's runguard and isolate)."""
from __future__ import annotations

from dataclasses import dataclass

MiB = 1024 * 1024


@dataclass(frozen=True)
class Limits:
    wall_s: float = 10.0  # real time; the program and everything it started is killed after it
    cpu_s: float = 10.0  # CPU seconds (RLIMIT_CPU), summed over the run's processes where measurable
    memory_bytes: int = 1024 * MiB  # address space per process (RLIMIT_AS)
    file_size_bytes: int = 16 * MiB  # largest file the program may write (RLIMIT_FSIZE)
    processes: int = 64  # processes/threads of the run's user (RLIMIT_NPROC; unprivileged user only)
    open_files: int = 64  # file descriptors per process (RLIMIT_NOFILE)
    output_bytes: int = 1 * MiB  # stdout cap; past it the run is killed: OUTPUT_LIMIT
    stderr_bytes: int = 64 * 1024  # stderr is kept up to this, the rest is discarded (not a failure)
    grace_s: float = 0.5  # after a kill, how long the harness waits for pipes to close

    def describe(self) -> dict[str, float | int]:
        return {
            "wall_s": self.wall_s,
            "cpu_s": self.cpu_s,
            "memory_bytes": self.memory_bytes,
            "file_size_bytes": self.file_size_bytes,
            "processes": self.processes,
            "open_files": self.open_files,
            "output_bytes": self.output_bytes,
            "stderr_bytes": self.stderr_bytes,
        }
