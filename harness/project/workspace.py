"""A private workspace for grading one repository, and the jailed steps run in it.

    with Workspace.create(jail) as ws:
        build = build_repository(Path("repo"), ws)     # harness.project.build
        checks = project_checks(build, ws)             # harness.project.checks

Layout (a fresh folder under the run root, root's own, 0700; on tmpfs when possible, so
that what a Makefile writes counts against its step's memory cgroup)::

    repo/        the copy of the repository: the only folder a step may write, owned by
                 the workspace's uid, bound at /grade/repo
    graded/      the graded binary, copied out once the build is over (root-only): case
                 runs, nm and valgrind use this copy, never the repository's file
    tools/       the --lenient-build compiler wrappers (root-owned, read-only in the jail)
    inputs-N/    fresh root-owned folders of inputs for valgrind (read-only in the jail)
    logs/        valgrind's logs, written through a descriptor the harness opened

One uid is held for the workspace's whole life: every step runs as it, so the copy
never changes hands, and no other step (of this or another submission) shares it until
the workspace is closed. The harness reads the tree only after a step is over (its
cgroup empty: nothing can move a file meanwhile), with lstat and O_NOFOLLOW opens.
"""
from __future__ import annotations

import contextlib
import os
import shutil
import stat
import tempfile
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from harness.jail import Bind, Jail, RunResult, Scratch, Step
from harness.jail.bwrap import which_in_jail
from harness.jail.identity import Identity, run_identity
from harness.limits import MiB, Limits
from harness.runner import run_root

REPO = "/grade/repo"  # the repository copy, inside the jail
WORK = "/grade/work"  # the private working folder of steps that only read
TOOLS = "/grade/tools"
SYSTEM_PATH = "/usr/local/bin:/usr/bin:/bin"
LOG_CAP_BYTES = 64 * 1024
RepoAccess = Literal["rw", "ro", "none"]  # kept of a step's output: the head and the tail, half each

# Limits of a build step (make, nm, norminette, valgrind): a compiler needs far more than
# a fillit; all are explicit here, like a case's (harness.limits).
BUILD_LIMITS = Limits(cpu_s=120.0, wall_s=240.0, memory_bytes=2048 * MiB, address_space_bytes=4096 * MiB,
                      processes=256, file_size_bytes=512 * MiB, open_files=1024, tmpfs_bytes=512 * MiB,
                      output_bytes=8 * MiB, stderr_bytes=1 * MiB, grace_s=0.5)


@dataclass(frozen=True)
class ExecResult:
    """A build step, as the checks read it."""

    returncode: int | None  # None when it was killed (a limit) or died by a signal
    timed_out: bool
    output: str  # stdout and stderr interleaved, capped (head and tail)
    result: RunResult

    @property
    def ok(self) -> bool:
        return not self.timed_out and self.returncode == 0


def build_env(home: str = "/tmp", extra_path: Sequence[str] = ()) -> dict[str, str]:
    return {"PATH": ":".join([*extra_path, SYSTEM_PATH]), "HOME": home, "TMPDIR": "/tmp", "LANG": "C",
            "LC_ALL": "C",  # compiler diagnostics in English: "error:", "warning:"
            "TERM": "dumb"}


@dataclass
class Workspace:
    root: Path
    jail: Jail
    who: Identity
    _inputs: int = field(default=0)
    _logs: int = field(default=0)

    @classmethod
    @contextlib.contextmanager
    def create(cls, jail: Jail) -> Iterator["Workspace"]:
        root = Path(tempfile.mkdtemp(prefix="fillit-repo-", dir=run_root()))
        if jail.mode == "rlimits":  # no mount namespace: the uid must reach repo/ by path
            os.chmod(root, 0o711)
        try:
            with run_identity() as who:
                for name in ("graded", "tools", "logs"):
                    os.mkdir(root / name, 0o700)
                yield cls(root, jail, who)
        finally:
            shutil.rmtree(root, ignore_errors=True)  # (fd-based: never follows a link)

    @property
    def repo(self) -> Path:
        return self.root / "repo"

    @property
    def graded_binary(self) -> Path:
        return self.root / "graded" / "fillit"

    def give_repo(self) -> None:
        """The copy to the workspace's uid, before any step has run (so nothing can race)."""
        if self.who.uid is None:
            return
        for folder, dirs, files, fd in os.fwalk(self.repo):
            os.chown(fd, self.who.uid, self.who.gid or -1)
            for name in dirs + files:
                os.chown(name, self.who.uid, self.who.gid or -1, dir_fd=fd, follow_symlinks=False)
        if self.jail.mode == "rlimits":
            os.chmod(self.repo, 0o755)

    def new_input_folder(self, files: Mapping[str, bytes]) -> Path:
        """A fresh root-owned folder holding `files` (never a folder a step could write)."""
        self._inputs += 1
        folder = self.root / f"inputs-{self._inputs}"
        os.mkdir(folder)
        os.chmod(folder, 0o755)  # (explicit modes: the harness runs with umask 077)
        for name, data in files.items():
            fd = os.open(folder / name, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
            with os.fdopen(fd, "wb") as out:
                out.write(data)
                os.fchmod(out.fileno(), 0o644)
        return folder

    def new_log(self, stem: str) -> Path:
        """A fresh path in logs/ for a step's side output (the jail creates the file, once)."""
        self._logs += 1
        return self.root / "logs" / f"{stem}-{self._logs}.log"

    def run(self, argv: Sequence[str], *, cwd: str = REPO, repo: RepoAccess = "rw", binds: Sequence[Bind] = (),
            scratch: Sequence[Scratch] = (), env: Mapping[str, str] | None = None, cpu_s: float | None = None,
            limits: Limits = BUILD_LIMITS, side_output: Path | None = None) -> ExecResult:
        """Run `argv` (argv[0] a command name or a jail path) as one jailed step, with the
        repository copy at /grade/repo (writable, read-only, or not there) and `binds`."""
        if cpu_s is not None:
            limits = Limits(**{**limits.__dict__, "cpu_s": max(0.5, cpu_s), "wall_s": 2 * max(0.5, cpu_s) + 5})
        program = argv[0] if argv[0].startswith("/") else (which_in_jail(argv[0]) or argv[0])
        all_binds = tuple(binds)
        if repo != "none" and self.repo.exists():
            all_binds = (Bind(self.repo, REPO, writable=repo == "rw"), *all_binds)
        step = Step((program, *argv[1:]), cwd, limits, binds=all_binds, scratch=tuple(scratch),
                    env=dict(env if env is not None else build_env()), merge_stderr=True, side_output=side_output)
        result = self.jail.run(step, self.who)
        return ExecResult(returncode=result.exit_code if result.limit is None else None,
                          timed_out=result.limit in ("cpu", "wall"), output=head_and_tail(result.stdout),
                          result=result)

    def run_on_graded(self, argv: Sequence[str], *, cpu_s: float, inputs: Mapping[str, bytes] | None = None,
                      limits: Limits = BUILD_LIMITS, side_output: Path | None = None) -> ExecResult:
        """Run a tool on the graded binary: /grade/work holds `fillit` (the root-only copy)
        and `inputs`, all read-only; the repository is not there."""
        binds = [Bind(self.graded_binary, f"{WORK}/fillit")]
        if inputs:
            folder = self.new_input_folder(inputs)
            binds += [Bind(folder / name, f"{WORK}/{name}") for name in inputs]
        return self.run(argv, cwd=WORK, repo="none", binds=binds, scratch=(Scratch(WORK),), cpu_s=cpu_s,
                        limits=limits, side_output=side_output)


def head_and_tail(data: bytes, cap: int = LOG_CAP_BYTES) -> str:
    if len(data) > cap:
        data = data[: cap // 2] + f"\n[... {len(data) - cap} bytes cut ...]\n".encode() + data[-(cap // 2):]
    return data.decode("utf-8", errors="replace")


def read_nofollow(path: Path, cap: int | None = None) -> bytes:
    """Read a file of the repository copy as root, never through a symbolic link planted
    in its place, and never blocking on a FIFO."""
    fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    with os.fdopen(fd, "rb") as handle:
        if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
            raise OSError(f"{path.name} is not a regular file")
        return handle.read() if cap is None else handle.read(cap)
