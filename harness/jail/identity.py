"""Who a jailed step runs as: a uid of its own from a pool, never root, never reused while
anything of its last step may live.

    with run_identity() as who:      # who.uid None: the harness is not root (its own uid)
        ...

The pool is FILLIT_RUN_UID_BASE (62000) and the FILLIT_RUN_UID_COUNT (64) uids after
it, which no other software on the machine may use. A uid is held with an flock()ed
file per uid in a root-only folder (exclusion between threads, since each open() is its
own description, and between harness processes; a crashed harness releases its locks).
The file says "dirty" while a step runs and "clean" once everything it started is gone:
the next holder of a dirty uid first kills what is left (`kill_uid`). A step whose
processes cannot be killed (stuck in the kernel) keeps its uid locked for the rest of
the harness's life (`quarantine`), so no later step shares a uid with a survivor.

Inside the namespace jail the uid is defence in depth (a separate pid namespace, mount
view and cgroup already keep runs apart); without the jail it is what keeps runs apart.
"""
from __future__ import annotations

import contextlib
import fcntl
import os
import re
import secrets
import stat
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

UID_BASE = int(os.environ.get("FILLIT_RUN_UID_BASE", "62000"))
UID_COUNT = int(os.environ.get("FILLIT_RUN_UID_COUNT", "64"))
LOCK_DIR_VAR = "FILLIT_RUN_LOCK_DIR"
WAIT_FOR_UID_S = 600.0


class IdentityError(RuntimeError):
    """No uid could be had (all busy for minutes, or the lock folder is unsafe)."""


@dataclass
class Identity:
    uid: int | None  # None: the harness's own uid (the harness is not root)
    gid: int | None
    lock_fd: int | None = None
    was_clean: bool = True


def private_state_dir() -> Path:
    """The harness's root-only folder for uid locks and the compiled launcher: one fixed
    place per machine, since the exclusion only holds between processes that use it."""
    custom = os.environ.get(LOCK_DIR_VAR)
    if custom:
        path = Path(custom)
    elif os.geteuid() == 0 and os.access("/run", os.W_OK):
        path = Path("/run/fillit-moulinette")
    else:
        path = Path(tempfile.gettempdir()) / f"fillit-moulinette-{os.geteuid()}"
    with contextlib.suppress(FileExistsError):
        os.mkdir(path, 0o700)
    info = os.lstat(path)
    # Its parent may be world-writable (/tmp): refuse a folder someone else prepared.
    if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.geteuid() or info.st_mode & 0o077:
        raise IdentityError(f"state folder {path} must be a folder owned by uid {os.geteuid()}, mode 0700")
    return path


_held_lock = threading.Lock()
_held: set[int] = set()  # uids this process holds right now
_quarantined: set[int] = set()  # uids with a survivor: never handed out again by this process


def held_uids() -> frozenset[int]:
    with _held_lock:
        return frozenset(_held)


def in_pool(uid: int) -> bool:
    return UID_BASE <= uid < UID_BASE + UID_COUNT


@contextlib.contextmanager
def run_identity() -> Iterator[Identity]:
    """Hold a run uid for the `with` block (the harness's own uid when it is not root)."""
    if os.geteuid() != 0:
        yield Identity(None, None)
        return
    folder = private_state_dir()
    start = secrets.randbelow(UID_COUNT)  # spread concurrent holders over the pool
    deadline = time.monotonic() + WAIT_FOR_UID_S
    while True:
        for k in range(UID_COUNT):
            uid = UID_BASE + (start + k) % UID_COUNT
            with _held_lock:
                if uid in _quarantined:
                    continue
            fd = os.open(folder / f"uid-{uid}.lock", os.O_RDWR | os.O_CREAT | os.O_CLOEXEC | os.O_NOFOLLOW, 0o600)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                os.close(fd)
                continue
            who = Identity(uid, uid, fd, os.pread(fd, 16, 0) == b"clean\n")
            os.pwrite(fd, b"dirty\n", 0)
            with _held_lock:
                _held.add(uid)
            try:
                yield who
            finally:
                with _held_lock:
                    _held.discard(uid)
                    if uid in _quarantined:
                        return  # the lock stays held (fd kept open) for the harness's life
                os.close(fd)
            return
        if time.monotonic() > deadline:
            raise IdentityError(f"all {UID_COUNT} run uids from {UID_BASE} stayed busy for "
                                f"{WAIT_FOR_UID_S:g} s")
        time.sleep(0.05)


def mark_clean(who: Identity) -> None:
    if who.lock_fd is not None:
        os.pwrite(who.lock_fd, b"clean\n", 0)


def quarantine(who: Identity) -> None:
    """Something of `who`'s last step survived every kill: never lend its uid again."""
    if who.uid is not None:
        with _held_lock:
            _quarantined.add(who.uid)


# --------------------------------------------------------------------------- without cgroups

_UIDS = re.compile(rb"\nUid:\t(\d+)\t(\d+)\t(\d+)")


def uid_processes(uid: int) -> list[int]:
    """Every process whose real, effective or saved uid is `uid` (zombies included)."""
    found = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/status", "rb") as handle:
                match = _UIDS.search(handle.read(2048))
        except OSError:
            continue
        if match and uid in {int(u) for u in match.groups()}:
            found.append(int(name))
    return found


def kill_uid(uid: int, timeout_s: float = 5.0) -> bool:
    """Without a cgroup, "everything the step started" is "every process of its uid":
    kill(-1, SIGKILL) sent by a helper running as that uid reaches all of them at once
    (the kernel walks the task list under a lock, and a process with a pending SIGKILL
    cannot finish a fork), as isolate and runguard do. True when none is left but zombies
    whose parent is not ours to reap."""
    end = time.monotonic() + timeout_s
    while True:
        with contextlib.suppress(OSError, subprocess.SubprocessError):
            subprocess.run(["/bin/kill", "-9", "-1"], user=uid, group=uid, extra_groups=[],
                           stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                           env={"PATH": "/usr/bin:/bin"}, timeout=10, close_fds=True)
        if not [pid for pid in uid_processes(uid) if not _zombie(pid)]:
            return True
        if time.monotonic() > end:
            return False
        time.sleep(0.005)


def _zombie(pid: int) -> bool:
    """Dead but not reaped: every thread is a zombie. (A thread-group leader that called
    pthread_exit reads as Z while its other threads run: that process is alive.)"""
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return True
    for tid in tasks:
        try:
            with open(f"/proc/{pid}/task/{tid}/stat", "rb") as handle:
                if handle.read().rsplit(b")", 1)[1].split()[0] not in (b"Z", b"X"):
                    return False
        except (OSError, IndexError):
            continue
    return True
