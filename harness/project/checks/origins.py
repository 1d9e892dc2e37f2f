"""Where a forbidden function of the binary comes from, so that the message names the
real cause: the student's own call, or the compiler.

The sources are read as text by the harness after the steps are over (lstat walk,
O_NOFOLLOW opens: harness.project.workspace.read_nofollow), never compiled or run again;
comments and string literals are blanked first, so that `/* no printf here */` is no call.
"""
from __future__ import annotations

import re
from collections.abc import Sequence

from harness.project.checks.common import CheckContext, source_files
from harness.project.checks.dry_run import dry_run
from harness.project.checks.flags import optimisation_flags
from harness.project.workspace import read_nofollow

MAX_SOURCE_BYTES = 1024 * 1024  # read of each file (a source larger than that is not a fillit's)
MAX_SOURCE_FILES = 2000
FILES_NAMED = 3

#: What gcc calls in place of a function called in the source (at every -O level):
#: printf("x\n") is puts("x"), printf("x") putchar('x'), fprintf(f, "x") fputs or
#: fwrite, strcat(d, s) strlen + memcpy, strcpy + strlen stpcpy; <ctype.h>'s macros read
#: glibc's tables through __ctype_*_loc.
REPLACEMENTS: dict[str, tuple[str, ...]] = {
    "puts": ("printf",),
    "putchar": ("printf",),
    "fputs": ("fprintf",),
    "fputc": ("fprintf", "fputs"),
    "fwrite": ("fprintf", "fputs"),
    "strlen": ("strcat",),
    "stpcpy": ("strcpy",),
    "__ctype_b_loc": ("isalpha", "isdigit", "isalnum", "isspace", "isupper", "islower", "isprint", "ispunct",
                      "isxdigit", "iscntrl", "isgraph"),
    "__ctype_toupper_loc": ("toupper",),
    "__ctype_tolower_loc": ("tolower",),
}

#: What an optimising gcc writes for a loop or an idiom of the source: a byte-counting
#: loop is strlen and a zeroing loop memset (loop distribution, from -O2), malloc then
#: zeroing is calloc, a copy returning its end stpcpy (the strlen pass).
COMPILER_IDIOMS = frozenset({"strlen", "rawmemchr", "calloc", "stpcpy", "memset", "memcpy", "memmove"})

_COMMENTS_AND_LITERALS = re.compile(r"//[^\n]*|/\*.*?\*/|\"(?:\\.|[^\"\\\n])*\"|'(?:\\.|[^'\\\n])*'", re.S)


def _sources(ctx: CheckContext) -> dict[str, str]:
    """Each C source of the copy as text, without comments and string literals."""
    texts: dict[str, str] = {}
    for relative in source_files(ctx.ws.repo)[:MAX_SOURCE_FILES]:
        try:
            data = read_nofollow(ctx.ws.repo / relative, MAX_SOURCE_BYTES)
        except OSError:
            continue
        texts[relative] = _COMMENTS_AND_LITERALS.sub(" ", data.decode("utf-8", errors="replace"))
    return texts


def _files_naming(texts: dict[str, str], name: str) -> list[str]:
    word = re.compile(rf"(?<![\w$]){re.escape(name)}(?![\w$])")
    return [relative for relative, text in texts.items() if word.search(text)]


def _named(files: list[str]) -> str:
    more = f" and {len(files) - FILES_NAMED} more" if len(files) > FILES_NAMED else ""
    return ", ".join(files[:FILES_NAMED]) + more


def attribute(ctx: CheckContext, functions: Sequence[str]) -> dict[str, str]:
    """For each forbidden function, where it comes from in a few words ("called in
    main.c", "not in your sources: inserted by the compiler because of -O3"); nothing
    for a function when there is no source to read."""
    texts = _sources(ctx)
    if not texts:
        return {}
    origins: dict[str, str] = {}
    for name in functions:
        files = _files_naming(texts, name)
        if files:
            origins[name] = f"called in {_named(files)}"
            continue
        replaced = [(origin, found) for origin in REPLACEMENTS.get(name, ())
                    if (found := _files_naming(texts, origin))]
        if replaced:
            origin, found = replaced[0]
            origins[name] = f"not in your sources: the compiler's replacement for {origin}, called in {_named(found)}"
        elif name in COMPILER_IDIOMS:
            flags = optimisation_flags(dry_run(ctx).commands)
            origins[name] = ("not in your sources: inserted by the compiler because of " + " ".join(flags) if flags
                             else "not in your sources: inserted by the compiler (an optimisation flag?)")
        else:
            origins[name] = "not in your sources: from a library or a system header's macro"
    return origins
