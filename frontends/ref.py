"""`fillit-ref FILE`: behaves like a correct fillit binary.

    fillit-ref source_file                                  the square, or error
    fillit-ref --accept-trailing-empty-line source_file     the seed's side of the disputed case
    fillit-ref --help | --version

Like a fillit: one usage line on stdout for a wrong argument count, `error` for a missing,
unreadable, invalid or oversized file.  It reads at most one byte more than the largest
file it could accept, so an endless or huge input (`fillit-ref /dev/zero`) is answered at once.
"""
from __future__ import annotations

import sys

from reference.parser import MAX_PIECES
from reference.solver import solve_text
from reference.version import version_line

PROG = "fillit-ref"
USAGE = f"usage: {PROG} source_file\n"
ACCEPT_DISPUTED = "--accept-trailing-empty-line"
HELP = f"""{USAGE}
Solve a fillit file like a correct fillit: print the smallest square, upper-left first,
or 'error' for an invalid file (docs/SPEC.md).

options:
  {ACCEPT_DISPUTED}   accept one empty line after the last block (the seed's
                                 side of the disputed case; 42 answers error)
  -h, --help                     show this message and exit
  --version                      show the version and exit
"""
ERROR = "error\n"
# 26 blocks of 4 lines of 5 bytes, an empty line after each (the last one only under
# --accept-trailing-empty-line): nothing longer can be valid.
MAX_FILE_BYTES = MAX_PIECES * 21


def read_bounded(path: str, limit: int = MAX_FILE_BYTES) -> bytes | None:
    """The file's bytes, or None when it holds more than `limit` bytes (only limit + 1 are read)."""
    chunks: list[bytes] = []
    size = 0
    with open(path, "rb", buffering=0) as handle:
        while size <= limit:
            chunk = handle.read(limit + 1 - size)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    return None if size > limit else b"".join(chunks)


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args in (["-h"], ["--help"]):
        sys.stdout.write(HELP)
        return 0
    if args == ["--version"]:
        sys.stdout.write(version_line(PROG) + "\n")
        return 0
    accept_disputed = ACCEPT_DISPUTED in args
    if accept_disputed:
        args.remove(ACCEPT_DISPUTED)
    if len(args) != 1:
        sys.stdout.write(USAGE)
        return 1
    try:
        data = read_bounded(args[0])
    except OSError:
        data = None
    output = ERROR if data is None else solve_text(data, accept_disputed=accept_disputed)
    sys.stdout.write(output)
    sys.stdout.flush()
    return 1 if output == ERROR else 0


if __name__ == "__main__":
    raise SystemExit(main())
