"""The end of a step in words: the launcher's status protocol (the jail's own failures,
never the program's) and the `RunResult` made from what the step did."""
from __future__ import annotations

import os
import resource
import signal

from harness.jail.cgroups import RunCgroup
from harness.jail.step import CannotExecute, IsolationMode, JailError, RunResult
from harness.jail.watch import Watched
from harness.limits import Limits


def status_records(report: bytes) -> list[tuple[str, str]]:
    """The launcher's status pipe as records: ("S", "") or ("X"/"E", message)."""
    text, records, at = report.decode(errors="replace"), [], 0
    while at < len(text):
        if text[at] == "S":
            records.append(("S", ""))
            at += 1
            continue
        end = text.find("\n", at)
        end = len(text) if end < 0 else end
        records.append((text[at], text[at + 1:end]))
        at = end + 1
    return records


def check_status(report: bytes, result: RunResult, mode: IsolationMode) -> None:
    """The status pipe's verdict on the jail (see launcher.c): raise if it failed."""
    records = status_records(report)
    failed = next((message for kind, message in records if kind == "X"), None)
    if failed is not None:
        raise JailError(f"the jail could not start: {failed}")
    if ("S", "") not in records:
        lines = (result.stderr or result.stdout).decode(errors="replace").strip().splitlines()
        detail = next((ln for ln in lines if ln.startswith(("bwrap:", "fillit-jail-exec:"))), "")
        raise JailError("the jail could not start: " + (detail or f"{'bubblewrap' if mode != 'rlimits' else 'the launcher'} "
                                                        "ended before the program ran"))
    cannot = next((message for kind, message in records if kind == "E"), None)
    if cannot is not None:
        raise CannotExecute(f"cannot execute the program: {cannot}")


def result(limits: Limits, watched: Watched, group: RunCgroup | None, started: float, mode: IsolationMode,
            init_usage: resource.struct_rusage | None = None) -> RunResult:
    status, usage, limit = watched.status, watched.rusage, watched.limit
    if group is not None:
        cpu = group.cpu_s()
        rss_kb = group.memory_peak_bytes() // 1024
        forks_refused = group.forks_refused()
    else:
        # Without a cgroup: the main process's rusage (it includes the children it waited
        # for), plus bwrap's init's (which waited for the program). Linux starts a
        # process's peak RSS at that of the process it was exec'd from, so the main
        # figure includes the harness's own peak: the init's is the program's.
        cpu = sum(u.ru_utime + u.ru_stime for u in (usage, init_usage) if u is not None)
        rss_kb = init_usage.ru_maxrss if init_usage is not None else usage.ru_maxrss if usage is not None else 0
        forks_refused = 0
    exit_code = sig = None
    if status is not None and limit is None:
        if os.WIFEXITED(status):
            exit_code = os.WEXITSTATUS(status)
            if mode != "rlimits" and exit_code > 128 and signal_name(exit_code - 128):
                # bwrap reports a program killed by signal N as exit status 128+N (the
                # shell's convention); a program calling exit(128+N) itself reads the same.
                sig, exit_code = signal_name(exit_code - 128), None
        elif os.WIFSIGNALED(status):
            sig = signal_name(os.WTERMSIG(status)) or f"SIG{os.WTERMSIG(status)}"
        if sig == "SIGXCPU" or (sig == "SIGKILL" and cpu >= limits.cpu_s):
            limit, sig = "cpu", None  # RLIMIT_CPU: SIGXCPU at the soft limit, SIGKILL at the hard one
    if limit is None and group is not None and group.oom_kills():
        # The kernel killed a process of the step at the cgroup's memory limit (the main
        # one or another: together they used more than the step may).
        limit = "memory"
        if sig == "SIGKILL":
            sig = None
    if limit is None and cpu > limits.cpu_s:
        limit = "cpu"
    return RunResult(stdout=watched.stdout.value(), stderr=watched.stderr.value() if watched.stderr else b"",
                     exit_code=exit_code, signal=sig, wall_s=round(watched.ended_at - started, 6),
                     cpu_s=round(cpu, 6), max_rss_kb=int(rss_kb), limit=limit, isolation=mode,
                     forks_refused=forks_refused)


def signal_name(number: int) -> str | None:
    try:
        return signal.Signals(number).name
    except ValueError:
        return None
