"""Run a `Step` in the jail: the one way untrusted code runs here.

    jail = detect_jail("auto")                # probed once per process
    result = jail.run(Step(("./fillit", "input.fillit"), "/grade/work", Limits(cpu_s=2),
                           binds=(Bind(program, "/grade/work/fillit"),), scratch=(Scratch("/grade/work"),)))

The chain, for the full jail (`mode == "jail"`, the harness is root):

    harness ─ Popen ─▶ launcher (root) ─ exec ─▶ bwrap (run uid) ─▶ launcher --inner ─ exec ─▶ program
                       joins the step's cgroup    namespaces, the     rlimits, "started"
                       private mount namespace:   jail's file system  on the status pipe
                       stages binds and sized
                       tmpfs, drops to the uid

Everything after the launcher's first instruction is in the step's cgroup, so "the
step is over" means "the cgroup is empty", and its CPU, memory and processes are those
of the cgroup. The status pipe tells the harness's failures (`JailError`: the launcher
or bubblewrap could not set the jail up, bubblewrap vanished...) from the program's.
See docs/SECURITY.md for the threat model and what each layer stops.
"""
from __future__ import annotations

import contextlib
import math
import os
import re
import shutil
import signal
import subprocess
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from harness.jail import bwrap as bw
from harness.jail.cgroups import CgroupError, CgroupTree, RunCgroup, wait_empty
from harness.jail.fds import RunFds, become_subreaper, read_now, reap_init, uid_of, zombie_children
from harness.jail.hostview import on_host, realize_on_host
from harness.jail.identity import (Identity, IdentityError, held_uids, in_pool, kill_uid, mark_clean, quarantine,
                                   run_identity)
from harness.jail.status import check_status, result
from harness.jail.step import SIDE_OUTPUT_FD, IsolationMode, JailError, RunResult, Scratch, Step
from harness.jail.watch import watch
from harness.limits import Limits

IsolationRequest = Literal["auto", "jail", "namespaces", "rlimits"]
INNER_LAUNCHER = "/.fillit-jail-exec"  # the launcher's path inside the jail
STAGE_DIR = Path("/run/fillit-moulinette-stage")  # covered by a private tmpfs in each launcher
EMPTY_TIMEOUT_S = 5.0  # how long a killed step may take to be gone


@dataclass(frozen=True)
class Jail:
    mode: IsolationMode
    launcher: Path
    bwrap: Path | None = None
    bwrap_version: str = ""
    cgroups: CgroupTree | None = None
    sized_tmpfs: bool = True  # False: bwrap makes the tmpfs and cannot size it (not root, bwrap < 0.10)
    masked: tuple[str, ...] = ()  # folders of this package inside the system folders, hidden
    weaker_because: str = ""  # why the mode is not the full jail ("" when it is)
    _reaper: threading.Lock = field(default_factory=threading.Lock, compare=False, repr=False)

    def describe(self) -> str:
        parts: list[str] = [self.mode]
        if self.bwrap is not None:
            parts.append(f"bubblewrap {self.bwrap_version}")
        if self.cgroups is not None:
            parts.append(f"cgroup v{self.cgroups.version}")
        return ", ".join(parts) + (f" ({self.weaker_because})" if self.weaker_because else "")

    def run(self, step: Step, who: Identity | None = None) -> RunResult:
        """Run `step` as `who` (a uid the caller holds for several steps), else as a uid
        of its own; raises JailError (or CannotExecute) for the harness's own failures."""
        try:
            if who is not None:
                return self._run_as(step, who)
            with run_identity() as held:
                return self._run_as(step, held)
        except (CgroupError, IdentityError, OSError) as error:
            raise JailError(f"{type(error).__name__}: {error}") from None

    def _run_as(self, step: Step, who: Identity) -> RunResult:
        if not who.was_clean:  # its last holder was killed mid-step
            self._clean_after_crash(who)
            who.was_clean = True
        group = self.cgroups.create(step.limits) if self.cgroups is not None else None
        try:
            result, gone = self._run(step, who, group)
        finally:
            if group is not None and not group.members():
                group.remove()
        if not gone:
            quarantine(who)
            raise JailError(f"processes of the step (uid {who.uid}) survived every kill; "
                            "the uid is retired for the rest of this run")
        mark_clean(who)
        return result

    # ----------------------------------------------------------------- one step

    def _run(self, step: Step, who: Identity, group: RunCgroup | None) -> tuple[RunResult, bool]:
        fds = RunFds.open(step, info=self.mode == "namespaces")
        host_root: Path | None = None
        try:
            if self.mode == "rlimits":
                host_root = realize_on_host(step, who)
            argv, env, cwd = self._command(step, who, group, fds, host_root)
            with open(step.stdin or os.devnull, "rb", opener=_nofollow) as stdin:
                result, gone = self._spawn_and_watch(step, who, group, argv, env, cwd, stdin, fds)
            fds.close_writers()
            check_status(read_now(fds.status_read), result, self.mode)
            return result, gone
        finally:
            fds.close()
            if host_root is not None:
                shutil.rmtree(host_root.parent, ignore_errors=True)

    def _command(self, step: Step, who: Identity, group: RunCgroup | None, fds: "RunFds",
                 host_root: Path | None) -> tuple[list[str], dict[str, str], str]:
        limits = step.limits
        outer = [str(self.launcher), "--status-fd", str(fds.status_write)]
        if fds.side is not None:
            outer += ["--fd", str(fds.side), str(SIDE_OUTPUT_FD)]
        if group is not None:
            for path in group.join_files():
                outer += ["--cgroup-procs", path]
        rlimits = _rlimit_args(limits, pool_uid=who.uid is not None and group is None)
        if self.mode == "rlimits":
            assert host_root is not None
            outer += _uid_args(who) + ["--no-new-privs", "--pdeathsig", *rlimits, "--final", "--"]
            argv = [on_host(a, host_root) for a in step.argv]
            env = {k: ":".join(on_host(p, host_root) for p in v.split(":")) for k, v in step.env.items()}
            return outer + argv, env, on_host(step.cwd, host_root)
        assert self.bwrap is not None
        items: list[bw.JailBind | bw.JailTmpfs] = []
        private = [*step.scratch, Scratch("/tmp", 0o1777), Scratch("/dev/shm", 0o1777)]
        if os.geteuid() == 0:  # stage every mount as root; bwrap then binds the staged copies
            outer += ["--stage", str(STAGE_DIR)]
            for k, scratch in enumerate(private):
                outer += ["--tmpfs", f"t{k}", str(limits.tmpfs_bytes), f"{scratch.mode:o}"]
                items.append(bw.JailBind(str(STAGE_DIR / f"t{k}"), scratch.target, writable=True))
            for k, bind in enumerate(step.binds):
                outer += ["--rw" if bind.writable else "--ro", str(bind.source), f"b{k}"]
                items.append(bw.JailBind(str(STAGE_DIR / f"b{k}"), bind.target, bind.writable))
            outer += ["--ro", str(self.launcher), "launcher"]
            items.append(bw.JailBind(str(STAGE_DIR / "launcher"), INNER_LAUNCHER))
            outer += _uid_args(who)
        else:  # not root: bwrap binds the host paths itself, as the harness's own user
            for scratch in private:
                items.append(bw.JailTmpfs(scratch.target, limits.tmpfs_bytes if self.sized_tmpfs else None,
                                          scratch.mode))
            items += [bw.JailBind(str(b.source), b.target, b.writable) for b in step.binds]
            items.append(bw.JailBind(str(self.launcher), INNER_LAUNCHER))
        outer += ["--no-new-privs", "--pdeathsig", "--"]
        inner = [INNER_LAUNCHER, "--inner", "--status-fd", str(fds.status_write), *rlimits, "--no-new-privs", "--",
                 *step.argv]
        view = bw.JailView(tuple(items), step.cwd, self.masked)
        return outer + bw.bwrap_argv(self.bwrap, view, inner, fds.info_write), dict(step.env), "/"

    def _spawn_and_watch(self, step: Step, who: Identity, group: RunCgroup | None, argv: list[str],
                         env: dict[str, str], cwd: str, stdin, fds: "RunFds") -> tuple[RunResult, bool]:

        if who.uid is not None or fds.info_read is not None:
            become_subreaper()
        started = time.monotonic()
        proc = subprocess.Popen(argv, stdin=stdin, stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT if step.merge_stderr else subprocess.PIPE,
                                cwd=cwd, env=env, start_new_session=True, close_fds=True, pass_fds=fds.passed())
        init_usage: list = []  # bwrap's init, reaped here when no cgroup measures the step

        def kill() -> None:
            if group is not None:
                group.kill()
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(proc.pid, signal.SIGKILL)  # bwrap's session: --die-with-parent takes the rest

        def end_the_rest() -> None:  # the main process is gone: so is everything it started
            if group is not None:
                wait_empty(group, EMPTY_TIMEOUT_S)
                return
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(proc.pid, signal.SIGKILL)
            if fds.info_read is not None:
                init_usage.extend(reap_init(fds.info_read, EMPTY_TIMEOUT_S))

        try:
            watched = watch(proc, step.limits, started, group.cpu_s if group is not None else None, kill,
                            end_the_rest)
        except BaseException:  # interrupted: leave nothing behind anyway
            kill()
            if group is not None:
                wait_empty(group, EMPTY_TIMEOUT_S)
            raise
        finally:
            if proc.returncode is None:  # stuck after SIGKILL: reap it in the background
                threading.Thread(target=proc.wait, daemon=True).start()
            for pipe in (proc.stdout, proc.stderr):
                if pipe is not None:
                    pipe.close()
        if group is not None:
            gone = wait_empty(group, EMPTY_TIMEOUT_S)
        elif who.uid is not None:
            gone = kill_uid(who.uid)
        else:
            gone = True  # namespaces: the pid namespace died with its init; rlimits as a user: best effort
        if who.uid is not None:
            self._reap_orphans(who.uid)
        return result(step.limits, watched, group, started, self.mode, init_usage[0] if init_usage else None), gone

    # ----------------------------------------------------------------- housekeeping

    def _clean_after_crash(self, who: Identity) -> None:
        if self.cgroups is not None:
            self.cgroups.remove_stale()
        if who.uid is not None:
            kill_uid(who.uid)

    def _reap_orphans(self, own_uid: int) -> None:
        """Reap zombies of pool uids re-parented to us (we are a subreaper): bwrap's init
        when a step was killed, a daemon's dead parent, the program of a harness process
        of ours that was killed. Only uids no thread holds once the zombies are listed:
        never a child some other thread is waiting for (every running step has a uid of its
        own; `own_uid` is the step just over, whose main process is already reaped).

        The order matters: the held uids are read *after* the zombies are listed and
        pinned with a pidfd. Read before, a step that started in between (its uid not yet
        held) and whose program exited at once lost its main process to us, and its own
        wait found no process (CI saw it as ProcessLookupError on a 36-case grade)."""
        with self._reaper:
            pinned: list[tuple[int, int]] = []  # (pidfd, uid): waitid on the pidfd reaps that process only
            try:
                for pid in zombie_children():
                    with contextlib.suppress(OSError):
                        pidfd = os.pidfd_open(pid)
                        uid = uid_of(pid)
                        if uid is not None and in_pool(uid):
                            pinned.append((pidfd, uid))
                        else:
                            os.close(pidfd)
                busy = held_uids() - {own_uid}
                for pidfd, uid in pinned:
                    if uid not in busy:
                        with contextlib.suppress(ChildProcessError):
                            os.waitid(os.P_PIDFD, pidfd, os.WEXITED | os.WNOHANG)
            finally:
                for pidfd, _ in pinned:
                    os.close(pidfd)


def _nofollow(path: str, flags: int) -> int:
    return os.open(path, flags | os.O_NOFOLLOW | os.O_CLOEXEC)


def _uid_args(who: Identity) -> list[str]:
    return [] if who.uid is None else ["--uid", str(who.uid), "--gid", str(who.gid)]


def _rlimit_args(limits: Limits, pool_uid: bool) -> list[str]:
    """Per-process limits: RLIMIT_CPU a second above the CPU limit (the cgroup's CPU check
    comes first; without a cgroup this is the CPU limit), RLIMIT_NPROC only for a pool
    uid without a cgroup (for the harness's own uid it would count all its processes)."""
    cpu = math.ceil(limits.cpu_s) + 1
    args = ["--rlimit", "cpu", str(cpu), str(cpu + 1),
            "--rlimit", "fsize", str(limits.file_size_bytes), str(limits.file_size_bytes),
            "--rlimit", "nofile", str(limits.open_files), str(limits.open_files),
            "--rlimit", "core", "0", "0"]
    if limits.address_space_bytes is not None:
        args += ["--rlimit", "as", str(limits.address_space_bytes), str(limits.address_space_bytes)]
    if pool_uid:
        args += ["--rlimit", "nproc", str(limits.processes), str(limits.processes)]
    return args
