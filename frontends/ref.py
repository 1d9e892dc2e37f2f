"""`fillit-ref FILE`: behaves like a correct fillit binary.

    fillit-ref source_file                                  the square, or error
    fillit-ref --accept-trailing-empty-line source_file     the seed's side of the disputed case
    fillit-ref --exercise NAME FILE|-                       another exercise's reference answer
    fillit-ref --help | --version

Like a fillit: one usage line on stdout for a wrong argument count, `error` for a missing,
unreadable, invalid or oversized file.  It reads at most one byte more than the largest
file it could accept, so an endless or huge input (`fillit-ref /dev/zero`) is answered at once.
"""
from __future__ import annotations

import sys

from harness.grading.exercise import DEFAULT_EXERCISE, UnknownExercise, exercise_named
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
  --exercise NAME FILE           the reference answer of another exercise's input
                                 FILE ('-': standard input; grade --list-exercises)
  -h, --help                     show this message and exit
  --version                      show the version and exit
"""
ERROR = "error\n"
# 26 blocks of 4 lines of 5 bytes, an empty line after each (the last one only under
# --accept-trailing-empty-line): nothing longer can be valid.
MAX_FILE_BYTES = MAX_PIECES * 21
OTHER_MAX_BYTES = 16 * 1024 * 1024  # another exercise's input (as grade --cases reads at most)


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
    if args[:1] == ["--exercise"]:
        return _other_exercise(args[1:])
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


def _other_exercise(args: list[str]) -> int:
    """`fillit-ref --exercise NAME FILE`: what a correct program of that exercise prints."""
    if len(args) != 2:
        sys.stderr.write(f"{PROG}: --exercise takes a name and one input file (or -)\n")
        return 2
    name, path = args
    try:
        exercise = exercise_named(name)
    except UnknownExercise as unknown:
        sys.stderr.write(f"{PROG}: {unknown}\n")
        return 2
    if exercise.name == DEFAULT_EXERCISE:
        return main([path])
    try:
        data = sys.stdin.buffer.read() if path == "-" else read_bounded(path, OTHER_MAX_BYTES)
    except OSError as error:
        sys.stderr.write(f"{PROG}: cannot read {path}: {error.strerror or error}\n")
        return 2
    if data is None:
        sys.stderr.write(f"{PROG}: {path} is larger than {OTHER_MAX_BYTES >> 20} MiB\n")
        return 2
    sys.stdout.write(exercise.reference(data))
    sys.stdout.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
