"""C programs of this package compiled once per machine (and per version of their source)
into the harness's root-only state folder: the jail's launcher, the seed's plain solver.

    path = compiled(SOURCE, "fillit-jail-exec", static=True)

Statically linked when asked and the C library allows it (a copy run inside the jail then
needs no dynamic loader). Concurrent harness processes may compile the same program at
once: each writes a private file and renames it into place, so the race is harmless.
"""
from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import threading
from pathlib import Path

from harness.jail.identity import private_state_dir

_lock = threading.Lock()


class CompileError(RuntimeError):
    """gcc is missing or could not compile one of the package's C programs."""


def compiled(source: Path, name: str, *, static: bool = False) -> Path:
    """The binary of `source` (0755, in the root-only state folder), compiled if needed."""
    text = source.read_bytes()
    target = private_state_dir() / f"{name}-{hashlib.sha256(text).hexdigest()[:16]}"
    with _lock:
        if not (target.is_file() and os.access(target, os.X_OK)):
            _compile(text, target, static)
    return target


def _compile(source: bytes, target: Path, static: bool) -> None:
    gcc = shutil.which("gcc", path="/usr/local/bin:/usr/bin:/bin") or shutil.which("gcc")
    if gcc is None:
        raise CompileError(f"gcc is not installed: {target.name} cannot be compiled")
    partial = target.with_name(f"{target.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    errors = ""
    try:
        for flags in ([["-O2", "-static"], ["-O2"]] if static else [["-O2"]]):
            proc = subprocess.run([gcc, *flags, "-x", "c", "-o", str(partial), "-"], input=source,
                                  capture_output=True, timeout=120)
            if proc.returncode == 0:
                os.chmod(partial, 0o755)  # (a run's uid executes the launcher inside the jail)
                os.replace(partial, target)
                return
            errors = (proc.stderr.decode(errors="replace").strip().splitlines() or [""])[-1]
    except (OSError, subprocess.SubprocessError) as error:
        errors = str(error)
    finally:
        partial.unlink(missing_ok=True)
    raise CompileError(f"cannot compile {target.name}: {errors}")
