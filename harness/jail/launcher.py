"""The compiled launcher (harness/jail/launcher.c), statically linked when possible: the
copy run inside the jail (`--inner`) then needs no dynamic loader, and its exec costs
well under a millisecond."""
from __future__ import annotations

from pathlib import Path

from harness.jail.native import compiled

SOURCE = Path(__file__).with_name("launcher.c")


def launcher_path() -> Path:
    return compiled(SOURCE, "fillit-jail-exec", static=True)
