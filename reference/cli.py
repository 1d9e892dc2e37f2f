"""`fillit-ref FILE`: behaves exactly like a correct fillit binary."""
from __future__ import annotations

import sys

from reference.solver import solve_text

USAGE = "usage: fillit-ref [--accept-trailing-empty-line] source_file\n"


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    accept_disputed = "--accept-trailing-empty-line" in args
    if accept_disputed:
        args.remove("--accept-trailing-empty-line")
    if len(args) != 1:
        sys.stdout.write(USAGE)
        return 1
    try:
        with open(args[0], "rb") as handle:
            data = handle.read()
    except OSError:
        sys.stdout.write("error\n")
        return 1
    output = solve_text(data, accept_disputed=accept_disputed)
    sys.stdout.write(output)
    return 1 if output == "error\n" else 0


if __name__ == "__main__":
    raise SystemExit(main())
