"""An `author` file at the repository root: one login per line, each line ended by \\n."""
from __future__ import annotations

import os
import stat

from harness.grading.model import ProjectCheck
from harness.project.checks.common import CheckContext, failed, passed
from harness.project.workspace import read_nofollow

NAME = "author"
MAX_BYTES = 4096


def check(ctx: CheckContext) -> ProjectCheck:
    repo = ctx.ws.repo
    try:
        info = os.lstat(repo / "author")
    except FileNotFoundError:
        hint = " (found 'auteur'; the subject asks for 'author')" if os.path.lexists(repo / "auteur") else ""
        return failed(NAME, f"no author file at the repository root{hint}")
    if stat.S_ISLNK(info.st_mode):
        return failed(NAME, "author is a symbolic link, not a file")
    if not stat.S_ISREG(info.st_mode):
        return failed(NAME, "author is not a regular file")
    data = read_nofollow(repo / "author", MAX_BYTES + 1)
    if not data:
        return failed(NAME, "author is empty")
    if len(data) > MAX_BYTES:
        return failed(NAME, "author is larger than 4 KiB: it should hold logins only")
    if not data.endswith(b"\n"):
        return failed(NAME, "author does not end with a newline")
    lines = data[:-1].split(b"\n")
    for k, raw in enumerate(lines, 1):
        try:
            text = raw.decode("ascii")
        except UnicodeDecodeError:
            return failed(NAME, f"author line {k} is not plain ASCII")
        if not text:
            return failed(NAME, f"author line {k} is empty")
        if "\r" in text:
            return failed(NAME, f"author line {k} ends with a carriage return (\\r): use Unix newlines")
        if any(c.isspace() for c in text):
            return failed(NAME, f"author line {k} contains a space or tab: {text!r} (one login per line)")
        if not text.isprintable():
            return failed(NAME, f"author line {k} contains a control character")
    logins = [line.decode() for line in lines]
    return passed(NAME, f"author lists {len(logins)} login(s): {', '.join(logins[:5])}")
