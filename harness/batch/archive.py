"""A submission as tar.gz bytes, for a Dask worker that shares no file system with the
client, and back: unpacked safely on every Python 3.11 (tarfile's extraction filters came
in 3.11.4, and Debian 12 has 3.11.2)."""
from __future__ import annotations

import io
import os
import shutil
import tarfile
from pathlib import Path, PurePosixPath

from harness.batch.discovery import IGNORED_NAMES


def archive(path: Path) -> bytes:
    """The submission as tar.gz bytes (one top-level member named like the entry, .git left out)."""
    buffer = io.BytesIO()

    def keep(info: tarfile.TarInfo) -> tarfile.TarInfo | None:
        parts = Path(info.name).parts
        if any(part in IGNORED_NAMES for part in parts):
            return None
        info.uid = info.gid = 0
        info.uname = info.gname = ""
        return info

    with tarfile.open(fileobj=buffer, mode="w:gz") as tar:
        tar.add(str(path), arcname=path.name, recursive=True, filter=keep)
    return buffer.getvalue()


def extract(data: bytes, destination: Path) -> Path:
    """Unpack an `archive` into `destination`, safely on every Python 3.11 (tarfile's
    extraction filters came in 3.11.4): only folders, regular files and links; no
    absolute path, no `..`, nothing written through a link (every parent is a folder this
    function made), no special bits; links are made but never followed."""
    destination.mkdir(parents=True, exist_ok=True)
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as tar:
        members = tar.getmembers()
        tops = {PurePosixPath(m.name).parts[0] for m in members if PurePosixPath(m.name).parts}
        if len(tops) != 1:
            raise ValueError(f"submission archive has {len(tops)} top-level entries, expected 1")
        made: set[PurePosixPath] = {PurePosixPath(".")}
        for member in members:
            relative = PurePosixPath(member.name)
            if relative.is_absolute() or ".." in relative.parts or not relative.parts:
                raise ValueError(f"unsafe path in submission archive: {member.name!r}")
            for parent in reversed(relative.parents):
                if parent not in made:
                    os.mkdir(destination / parent, 0o755)
                    made.add(parent)
            target = destination / relative
            if member.isdir():
                if relative not in made:
                    os.mkdir(target, 0o755)
                    made.add(relative)
            elif member.issym():
                os.symlink(member.linkname, target)
            elif member.isfile():
                source = tar.extractfile(member)
                assert source is not None
                fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
                with os.fdopen(fd, "wb") as out:
                    shutil.copyfileobj(source, out)
                os.chmod(target, 0o755 if member.mode & 0o111 else 0o644)
            # anything else (hard links, devices, FIFOs) is left out
    return destination / tops.pop()
