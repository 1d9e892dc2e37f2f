"""The records of the jail: what a step is (`Step`) and what happened (`RunResult`).

A step is one untrusted command — a case run, `make`, `nm`, valgrind, norminette — with
everything it may see listed: host paths bound into the jail (read-only unless said),
private tmpfs folders, its working folder, environment, standard input and limits.
Paths in `argv`, `cwd`, `env` and targets are paths *inside* the jail, under /grade.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from harness.limits import Limits

# How strongly a step is isolated (docs/SECURITY.md):
#   jail        namespaces (bubblewrap) + a cgroup per step + a pool uid: the full jail
#   namespaces  namespaces only (the harness is not root): per-process limits
#   rlimits     no namespaces: a pool uid (if root) and rlimits; unsafe for others' code
IsolationMode = Literal["jail", "namespaces", "rlimits"]
ISOLATION_MODES: tuple[IsolationMode, ...] = ("jail", "namespaces", "rlimits")

# Which limit ended a run (None: it ended by itself).
LimitHit = Literal["cpu", "wall", "memory", "output"]

JAIL_ROOT = "/grade"  # every path a step names lives below it
SIDE_OUTPUT_FD = 3  # `Step.side_output` is open on this descriptor inside the jail


class JailError(RuntimeError):
    """The jail could not run the step: the harness's fault, never the program's."""


class CannotExecute(JailError):
    """The jail ran, but the program itself could not be executed (wrong format...)."""


@dataclass(frozen=True)
class Bind:
    source: Path  # on the host: opened by the harness (root), never by the program
    target: str  # inside the jail
    writable: bool = False


@dataclass(frozen=True)
class Scratch:
    """A private tmpfs inside the jail of `Limits.tmpfs_bytes`, owned by the step's uid."""

    target: str
    mode: int = 0o700


@dataclass(frozen=True)
class Step:
    argv: tuple[str, ...]  # argv[0]: a path inside the jail ("./fillit", "/usr/bin/make")
    cwd: str
    limits: Limits
    binds: tuple[Bind, ...] = ()
    scratch: tuple[Scratch, ...] = ()  # made before the binds, so a bind may go inside one
    env: Mapping[str, str] = field(default_factory=dict)
    stdin: Path | None = None  # host file fed on standard input (else /dev/null)
    merge_stderr: bool = False  # stderr into the stdout stream (a build log)
    side_output: Path | None = None  # new host file, open for writing on SIDE_OUTPUT_FD


@dataclass(frozen=True)
class RunResult:
    stdout: bytes  # capped at limits.output_bytes
    stderr: bytes  # capped at limits.stderr_bytes (empty with merge_stderr)
    exit_code: int | None  # None when killed by a signal
    signal: str | None  # "SIGSEGV"... when the program died by a signal it did not get from us
    wall_s: float
    cpu_s: float  # every process of the step together
    max_rss_kb: int  # peak memory of the step (the cgroup's, or the largest process's)
    limit: LimitHit | None  # which limit ended the run, or None
    isolation: IsolationMode
    forks_refused: int = 0  # fork/clone calls refused at the process limit (cgroup only)

    @property
    def ok(self) -> bool:
        return self.limit is None and self.exit_code == 0
