"""The submissions of a cohort folder, and what identifies their content.

    submissions, ignored = discover(Path("submissions"), exclude=[out, db])

Each entry is a submission, named by the entry (any byte string: a name that is not UTF-8
is stored and reported with \\xNN escapes, `storage_name`): a folder is a repository, an
executable file a program. `content_hash` says whether it changed since the last run;
it never follows a link and never opens a special file (a FIFO would block).
"""
from __future__ import annotations

import hashlib
import os
import stat
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

SubmissionKind = Literal["repository", "binary"]
REPOSITORY: SubmissionKind = "repository"
BINARY: SubmissionKind = "binary"
IGNORED_NAMES = frozenset({".git"})
# Names taken in the output folder by the cohort files (a submission's reports go to <out>/<name>/).
RESERVED_NAMES = frozenset({"index.html", "cohort.csv", "results.sqlite", "results.sqlite-wal",
                            "results.sqlite-shm", "results.sqlite-journal"})


@dataclass(frozen=True)
class Submission:
    name: str
    path: Path
    kind: SubmissionKind
    submission_hash: str


def _walk(root: Path) -> list[tuple[str, Path]]:
    """(relative posix path, path) of every file and symlink under `root`, sorted, .git skipped."""
    found: list[tuple[str, Path]] = []
    for directory, dirs, files in os.walk(root, followlinks=False):
        dirs[:] = sorted(d for d in dirs if d not in IGNORED_NAMES)
        base = Path(directory)
        for name in files + [d for d in dirs if (base / d).is_symlink()]:
            path = base / name
            found.append((path.relative_to(root).as_posix(), path))
    return sorted(found)


def content_hash(path: Path) -> str:
    """sha256 of a submission: sorted relative paths and contents, .git ignored.

    Links count by their target text (never followed); special files (FIFOs, sockets,
    devices) by their kind only — never opened, since opening a FIFO blocks; a single
    file counts by its content alone, so renaming the entry does not change it (the store
    keys by name)."""
    digest = hashlib.sha256()
    entries = [("", path)] if not path.is_dir() else _walk(path)
    for relative, item in entries:
        digest.update(b"P" + relative.encode("utf-8", "surrogateescape") + b"\0")
        info = os.lstat(item)
        if stat.S_ISLNK(info.st_mode):
            digest.update(b"L" + os.fsencode(os.readlink(item)) + b"\0")
        elif not stat.S_ISREG(info.st_mode):
            digest.update(b"S%o\0" % stat.S_IFMT(info.st_mode))
        else:
            fd = os.open(item, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
            with os.fdopen(fd, "rb") as handle:
                if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):  # swapped since the lstat
                    raise OSError(f"{item} changed while it was read")
                digest.update(b"F")
                for block in iter(lambda: handle.read(1 << 20), b""):
                    digest.update(block)
            digest.update(b"\0")
    return digest.hexdigest()


def storage_name(entry_name: str) -> str:
    """The name a submission is stored and reported under: its folder entry's name, with
    bytes that are not UTF-8 (the entry name is any byte string) shown as \\xNN."""
    return os.fsencode(entry_name).decode("utf-8", errors="backslashreplace")


def discover(folder: Path, exclude: Sequence[Path] = ()) -> tuple[list[Submission], list[str]]:
    """Submissions of `folder` sorted by name, and the entries ignored (with why).

    Hidden entries and the paths in `exclude` (the output folder, the database) are
    skipped silently; anything that is neither a folder nor an executable file is
    listed as ignored.
    """
    excluded = {p.resolve() for p in exclude}
    submissions: list[Submission] = []
    ignored: list[str] = []
    for entry in sorted(folder.iterdir(), key=lambda p: p.name):
        if entry.name.startswith("."):
            continue
        resolved = entry.resolve()
        if resolved in excluded or any(resolved in p.parents for p in excluded):
            continue
        if entry.name in RESERVED_NAMES:
            ignored.append(f"{storage_name(entry.name)}: the name of a cohort output file; rename it to grade it")
            continue
        info = os.lstat(entry)
        if stat.S_ISDIR(info.st_mode):
            kind = REPOSITORY
        elif stat.S_ISREG(info.st_mode) and info.st_mode & 0o111:
            kind = BINARY
        else:
            ignored.append(f"{storage_name(entry.name)}: neither a folder nor an executable file")
            continue
        name = storage_name(entry.name)
        if any(other.name == name for other in submissions):
            ignored.append(f"{name}: its name, shown as UTF-8, is the name of another submission; rename it")
            continue
        submissions.append(Submission(name, entry, kind, content_hash(entry)))
    return submissions, ignored


