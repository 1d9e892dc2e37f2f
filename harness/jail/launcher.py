"""The compiled launcher (harness/jail/launcher.c): built with gcc on first use, once per
machine and version of its source, into the harness's root-only state folder.

Statically linked when the C library allows it, so that the copy run inside the jail
(`--inner`) needs no dynamic loader and its exec costs well under a millisecond.
"""
from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import threading
from pathlib import Path

SOURCE = Path(__file__).with_name("launcher.c")
SETUP_FAILED = 125  # the launcher's exit status when it could not set the jail up

_lock = threading.Lock()


class LauncherUnavailable(RuntimeError):
    """gcc is missing or could not compile the launcher."""


def launcher_path(state_dir: Path) -> Path:
    """The launcher binary in `state_dir` (root-only), compiled if needed."""
    source = SOURCE.read_bytes()
    target = state_dir / f"fillit-jail-exec-{hashlib.sha256(source).hexdigest()[:16]}"
    with _lock:
        if not (target.is_file() and os.access(target, os.X_OK)):
            _compile(source, target)
    return target


def _compile(source: bytes, target: Path) -> None:
    gcc = shutil.which("gcc", path="/usr/local/bin:/usr/bin:/bin") or shutil.which("gcc")
    if gcc is None:
        raise LauncherUnavailable("gcc is not installed: the jail's launcher cannot be compiled")
    stem = f"{target.name}.{os.getpid()}.{threading.get_ident()}"
    partial = target.with_name(stem + ".tmp")
    errors = ""
    try:
        for flags in (["-O2", "-static"], ["-O2"]):
            proc = subprocess.run([gcc, *flags, "-x", "c", "-o", str(partial), "-"], input=source,
                                  stdin=None, capture_output=True, timeout=120)
            if proc.returncode == 0:
                os.chmod(partial, 0o755)  # the run's uid executes it inside the jail
                os.replace(partial, target)  # atomic: concurrent builders race harmlessly
                return
            errors = proc.stderr.decode(errors="replace").strip().splitlines()[-1:][0] if proc.stderr else ""
    except (OSError, subprocess.SubprocessError) as error:
        errors = str(error)
    finally:
        partial.unlink(missing_ok=True)
    raise LauncherUnavailable(f"cannot compile the jail's launcher: {errors}")
