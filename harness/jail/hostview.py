"""The rlimits mode's stand-in for a mount namespace: the jail's /grade tree laid out in a
fresh host folder, and the step's paths rewritten into it. Only for the unsafe mode."""
from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

from harness.jail.identity import Identity
from harness.jail.step import JAIL_ROOT, Step


def on_host(path: str, host_root: Path) -> str:
    return str(host_root) + path if path == JAIL_ROOT or path.startswith(JAIL_ROOT + "/") else path


def realize_on_host(step: Step, who: Identity) -> Path:
    """No namespaces: lay the jail's /grade tree out in a fresh folder (scratch folders
    owned by the step's uid, read-only files copied root-owned, folders linked) and run
    with paths rewritten into it. Only for the unsafe rlimits mode."""
    base = Path(tempfile.mkdtemp(prefix="fillit-step-"))
    os.chmod(base, 0o711)  # the run's uid must reach its folders: traversable, not listable
    root = base / "root"
    for scratch in step.scratch:
        folder = Path(on_host(scratch.target, root))
        traversable_folders(base, folder)
        if who.uid is not None:
            os.chown(folder, who.uid, who.gid if who.gid is not None else -1)
        os.chmod(folder, scratch.mode)
    for bind in step.binds:
        target = Path(on_host(bind.target, root))
        traversable_folders(base, target.parent)
        if bind.writable:
            target.symlink_to(bind.source)  # (its folders must be reachable by the uid: 0711)
        elif bind.source.is_dir():
            shutil.copytree(bind.source, target, symlinks=True)
        else:
            shutil.copy2(bind.source, target, follow_symlinks=False)
    return root


def traversable_folders(base: Path, folder: Path) -> None:
    """`folder` and its missing parents below `base`, each 0711 (whatever the umask)."""
    for level in [*reversed(folder.relative_to(base).parents), folder.relative_to(base)]:
        path = base / level
        if not path.exists():
            path.mkdir()
            os.chmod(path, 0o711)
