"""Time the reference on every case of a suite, slowest first (docs/exercises/shikaku.md).

    python -m exercises.shikaku.timing [quick|standard|full] [--plain TRIES]

With --plain, also count the placements the seed's plain search needs on each valid
puzzle, stopping at TRIES (printed as '>TRIES').
"""
from __future__ import annotations

import argparse
import time

from exercises.shikaku.plain import plain_tries
from exercises.shikaku.puzzle import parse
from exercises.shikaku.solver import answer_text
from exercises.shikaku.suites import full_suite, quick_suite, standard_suite

_SUITES = {"quick": quick_suite, "standard": standard_suite, "full": full_suite}


def main(argv: list[str] | None = None) -> None:
    options = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    options.add_argument("suite", nargs="?", default="full", choices=sorted(_SUITES))
    options.add_argument("--plain", type=int, metavar="TRIES", help="also count plain search's placements")
    options.add_argument("--top", type=int, default=10, help="cases shown (default 10)")
    args = options.parse_args(argv)
    rows = []
    for case in _SUITES[args.suite]():
        start = time.perf_counter()
        answer_text(case.input or b"")
        seconds = time.perf_counter() - start
        plain = ""
        puzzle = parse(case.input or b"").puzzle
        if args.plain and puzzle is not None:
            tries = plain_tries(puzzle, args.plain)
            plain = f"  plain {tries if tries is not None else f'>{args.plain}'}"
        rows.append((seconds, f"{case.id}{plain}  ({case.description})"))
    rows.sort(reverse=True)
    print(f"{args.suite}: {len(rows)} cases, reference {sum(s for s, _ in rows):.2f} s in all")
    for seconds, line in rows[:args.top]:
        print(f"{seconds * 1000:9.1f} ms  {line}")


if __name__ == "__main__":
    main()
