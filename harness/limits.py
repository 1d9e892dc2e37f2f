"""Resource limits of one jailed step (a case run, `make`, valgrind...), each named, with
its unit, and enforced as documented in docs/SECURITY.md (in the spirit of DOMjudge's
runguard and isolate, whose options these mirror)."""
from __future__ import annotations

from dataclasses import dataclass, fields

MiB = 1024 * 1024


@dataclass(frozen=True)
class Limits:
    # CPU seconds of every process of the run together (its cgroup), checked while it
    # runs; the limit a verdict is based on, since it does not depend on machine load.
    cpu_s: float = 10.0
    # Real time: only a backstop (a program that sleeps or waits uses no CPU).
    wall_s: float = 32.0
    # Memory of every process together, their tmpfs files and shared memory included
    # (cgroup; no swap). Without cgroups: the address space of each process.
    memory_bytes: int = 1024 * MiB
    # Address space of each process (RLIMIT_AS); None: no such limit (valgrind maps far
    # more than it uses; the cgroup's memory limit still holds).
    address_space_bytes: int | None = 1024 * MiB
    processes: int = 64  # processes and threads together (cgroup pids.max; else RLIMIT_NPROC)
    file_size_bytes: int = 16 * MiB  # largest file a process may write (RLIMIT_FSIZE)
    open_files: int = 64  # file descriptors per process (RLIMIT_NOFILE)
    tmpfs_bytes: int = 64 * MiB  # size of each private tmpfs: the work folder, /tmp, /dev/shm
    output_bytes: int = 1 * MiB  # stdout cap; past it the run is killed: OUTPUT_LIMIT
    stderr_bytes: int = 64 * 1024  # stderr is kept up to this, the rest is discarded (not a failure)
    grace_s: float = 0.5  # after the program ends or is killed, how long its pipes may drain

    def describe(self) -> dict[str, float | int | None]:
        return {f.name: getattr(self, f.name) for f in fields(self) if f.name != "grace_s"}
