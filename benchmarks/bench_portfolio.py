"""Where the reference's time goes on the slow files: the portfolios' turns that answered and
those that did not.

    python benchmarks/bench_portfolio.py [CODE ...]

Solves each file (shape codes, `generators.hard.decode`; by default every file of
`generators.hard.RESTRICTED_SLOWEST`) in a fresh process and times every turn that
`reference.portfolio.balanced` gives a helper, by the question's answer ("yes", "no", or
"none" when every helper stopped at its cap) and by whether that turn answered.  The
rest of the CPU time is spent outside the portfolios (the DP's whole-piece questions, the
C core's first search, the LP certificate).  A file whose time sits in the answering
turns needs faster helpers; one whose time sits in the turns that did not answer needs a
better schedule (docs/BENCHMARKS.md, "Fourteenth pass").
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

from generators.hard import RESTRICTED_SLOWEST

HERE = Path(__file__).resolve().parents[1]
CHILD = """
import json, sys, time
from collections import defaultdict
from generators.hard import decode
from reference import portfolio, runs, side_questions
from reference.solver import solve

turns = defaultdict(float)  # (answer, helper, answered) -> CPU seconds
balanced = portfolio.balanced

def timed_balanced(helpers, ask, distrust=None, packable=bool):
    log = []
    def timed_ask(helper, budget):
        start = time.process_time()
        answer, work = ask(helper, budget)
        log.append((helper, time.process_time() - start, answer is not None))
        return answer, work
    answer = balanced(helpers, timed_ask, distrust, packable)
    kind = "none" if answer is None else ("yes" if packable(answer) else "no")
    for helper, seconds, answered in log:
        turns[f"{kind} {helper} {int(answered)}"] += seconds
    return answer

runs.balanced = side_questions.balanced = timed_balanced
start = time.process_time()
solve(decode(sys.argv[1]))
print(json.dumps([time.process_time() - start, turns]))
"""


def traced(code: str) -> tuple[float, dict[str, float]]:
    """(CPU seconds, seconds per "answer helper answered") of one solve in a fresh process."""
    done = subprocess.run([sys.executable, "-c", CHILD, code], cwd=HERE, env={"PYTHONPATH": str(HERE)},
                          capture_output=True, text=True, check=True)
    total, turns = json.loads(done.stdout)
    return total, turns


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("codes", nargs="*", help="files as shape codes (default: RESTRICTED_SLOWEST)")
    args = parser.parse_args(argv)
    codes = args.codes or list(RESTRICTED_SLOWEST.values())
    print("| file | total | answering turns | turns that did not answer | of which on \"no\": beam, C core, SAT "
          "| outside the portfolios |")
    print("|---|---|---|---|---|---|")
    for code in codes:
        total, turns = traced(code)
        answering = sum(seconds for key, seconds in turns.items() if key.endswith(" 1"))
        idle = sum(seconds for key, seconds in turns.items() if key.endswith(" 0"))
        on_no = ", ".join(f"{turns.get(f'no {helper} 0', 0.0):.2f}" for helper in ("beam", "c", "sat"))
        print(f"| `{code}` | {total:.2f} | {answering:.2f} | {idle:.2f} | {on_no} | {total - answering - idle:.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
