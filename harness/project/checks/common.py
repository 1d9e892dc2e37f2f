"""What every project check shares: its context, its three outcomes, and reading the
repository copy's state (only ever with lstat: never through a link)."""
from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from harness.grading.model import ProjectCheck
from harness.project.build import BINARY_NAME, BuildResult
from harness.project.workspace import Workspace


@dataclass(frozen=True)
class CheckContext:
    build: BuildResult
    ws: Workspace
    sample_inputs: tuple[bytes, ...]
    timeout_s: float  # CPU seconds each check may spend in its jailed steps
    cache: dict[str, Any] = field(default_factory=dict)  # runs shared by checks (valgrind's)


def passed(name: str, message: str) -> ProjectCheck:
    return ProjectCheck(name, "pass", message)


def failed(name: str, message: str) -> ProjectCheck:
    return ProjectCheck(name, "fail", message)


def skipped(name: str, message: str) -> ProjectCheck:
    return ProjectCheck(name, "skip", message)


class Deadline:
    """A check's budget shared by its steps (a step gets what is left, 0.5 s at least)."""

    def __init__(self, seconds: float) -> None:
        self.end = time.monotonic() + seconds

    def left(self) -> float:
        return max(0.5, self.end - time.monotonic())

    def expired(self) -> bool:
        return time.monotonic() >= self.end


def built_files(repo: Path) -> dict[str, tuple[int, int]]:
    """(inode, mtime in ns) of the binary and of every object/archive in the copy."""
    found: dict[str, tuple[int, int]] = {}
    for root, dirs, files in os.walk(repo, followlinks=False):
        dirs[:] = [d for d in dirs if d != ".git"]
        for name in files:
            relative = os.path.relpath(os.path.join(root, name), repo)
            if relative == BINARY_NAME or name.endswith((".o", ".a")):
                try:
                    info = os.lstat(os.path.join(root, name))
                except OSError:
                    continue
                found[relative] = (info.st_ino, info.st_mtime_ns)
    return found


def source_files(repo: Path, suffixes: tuple[str, ...] = (".c", ".h")) -> list[str]:
    """The C sources of the copy (relative paths, sorted), never through a link, not in
    hidden folders."""
    found = []
    for root, dirs, files in os.walk(repo, followlinks=False):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for name in sorted(files):
            if name.endswith(suffixes) and not os.path.islink(os.path.join(root, name)):
                found.append(os.path.relpath(os.path.join(root, name), repo))
    return found


def objects(repo: Path) -> list[str]:
    return sorted(r for r in built_files(repo) if r.endswith(".o"))


def stamp(path: Path) -> tuple[int, int] | None:
    try:
        info = os.lstat(path)
    except OSError:
        return None
    return info.st_ino, info.st_mtime_ns
