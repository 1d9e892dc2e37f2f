"""Which jail this machine offers: probed once per process and request.

    jail = detect_jail("auto")      # the strongest: "jail", "namespaces" or "rlimits"
"""
from __future__ import annotations

import contextlib
import functools
import importlib.util
import os

from harness.jail import bwrap as bw
from harness.jail.cgroups import find_cgroup_tree
from harness.jail.engine import STAGE_DIR, IsolationRequest, Jail
from harness.jail.identity import IdentityError
from harness.jail.launcher import launcher_path
from harness.jail.native import CompileError
from harness.jail.step import IsolationMode, JailError, Step
from harness.limits import Limits

OWN_PACKAGES = ("reference", "generators", "harness", "reports", "exercises", "frontends")


def _own_package_dirs() -> tuple[str, ...]:
    """Folders of this project's packages that a jail would see through the system
    folders (a system-wide install in /usr/local): hidden, so that no step can read the
    reference solver or the generators. (Found without importing them.)"""
    found = []
    for name in OWN_PACKAGES:
        spec = importlib.util.find_spec(name)
        for location in (spec.submodule_search_locations or []) if spec is not None else []:
            folder = os.path.realpath(location)
            if any(folder == d or folder.startswith(d + "/") for d in bw.SYSTEM_DIRS):
                found.append(folder)
    return tuple(found)


@functools.cache
def detect_jail(request: IsolationRequest = "auto") -> Jail:
    """The strongest jail this machine offers (or the one asked for), probed once.

    Raises JailError when the request cannot be met, and when bubblewrap is installed
    but cannot build a jail here: that is a broken machine, not a reason to silently
    grade with less isolation."""
    try:
        launcher = launcher_path()
    except (CompileError, IdentityError, OSError) as error:
        raise JailError(str(error)) from None
    root = os.geteuid() == 0
    tree = find_cgroup_tree() if request != "namespaces" else "not used with --isolation namespaces"
    cgroups = tree if not isinstance(tree, str) else None
    if root:
        with contextlib.suppress(FileExistsError):
            os.mkdir(STAGE_DIR)
            os.chmod(STAGE_DIR, 0o755)  # the run's uid passes through it (umask may be 077)
        info = os.lstat(STAGE_DIR)
        if info.st_uid != 0 or info.st_mode & 0o022 or not os.path.isdir(STAGE_DIR) or os.path.islink(STAGE_DIR):
            raise JailError(f"{STAGE_DIR} must be a folder owned by root, not writable by others")
    masked = _own_package_dirs()
    if request == "rlimits":
        return Jail("rlimits", launcher, cgroups=cgroups, masked=masked,
                    weaker_because="no namespaces: asked for --isolation rlimits")
    try:
        path = bw.runnable_copy(bw.find_bwrap())
    except bw.BwrapMissing as missing:
        if request in ("jail", "namespaces"):
            raise JailError(str(missing)) from None
        return Jail("rlimits", launcher, cgroups=cgroups, masked=masked, weaker_because=str(missing))
    version = bw.bwrap_version(path)
    mode: IsolationMode = "jail" if cgroups is not None else "namespaces"
    if request == "jail" and cgroups is None:
        raise JailError(f"the full jail needs cgroups: {tree}")
    jail = Jail(mode, launcher, path, version, cgroups, sized_tmpfs=root or bw.supports_tmpfs_size(path),
                masked=masked, weaker_because="" if mode == "jail" else f"no cgroups: {tree}")
    _probe(jail)
    return jail


def _probe(jail: Jail) -> None:
    """Run /bin/true through the whole chain: a jail that cannot start is an error."""
    try:
        result = jail.run(Step(("/bin/true",), "/", Limits(cpu_s=5, wall_s=20)))
    except JailError as error:
        raise JailError(f"bubblewrap ({jail.bwrap}) is installed but cannot build a jail here: {error}") from None
    if result.exit_code != 0:
        raise JailError(f"bubblewrap ({jail.bwrap}) is installed but its probe failed: exit {result.exit_code}, "
                        f"{result.stderr.decode(errors='replace').strip()[:200]}")
