"""The distribution's name and version, for the `--version` of every command.

Here because every package of the distribution may import `reference` (it imports none).
"""
from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

PACKAGE = "fillit-moulinette"
# click's version_option message: "grade (fillit-moulinette) 0.1.0".
VERSION_MESSAGE = f"%(prog)s ({PACKAGE}) %(version)s"


def package_version() -> str:
    """The installed version; "unknown" when run from a tree that was never installed."""
    try:
        return version(PACKAGE)
    except PackageNotFoundError:
        return "unknown"


def version_line(prog: str) -> str:
    return f"{prog} ({PACKAGE}) {package_version()}"
