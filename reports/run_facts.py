"""How a run ended, in words: the exit status, or the limit that stopped it.

The verdict already says what happened (TIMEOUT wall, CRASH SIGSEGV...) and its details
hold the measurements; these sentences only put them next to the limits that applied.
"""
from __future__ import annotations

from harness.grading.grade import wall_backstop
from harness.limits import Limits
from harness.grading.model import CaseResult
from reports.common import fmt_bytes, fmt_seconds

# Verdicts of a run the harness or a signal stopped: its output is shown, never compared.
STOPPED: frozenset[str] = frozenset({"TIMEOUT", "CRASH", "OUTPUT_LIMIT"})


def ending(result: CaseResult, limits: Limits) -> str:
    """"exit status 0", "died with SIGSEGV", "killed by the harness: wall-clock limit 5 s"..."""
    verdict = result.verdict
    if verdict.verdict in ("TIMEOUT", "OUTPUT_LIMIT"):
        return f"killed by the harness: {limit_hit(result, limits)}"
    if verdict.verdict == "CRASH":
        return f"died with {verdict.diagnosis}"
    if result.exit_code is None:
        return "no exit status"
    return f"exit status {result.exit_code}"


def limit_hit(result: CaseResult, limits: Limits) -> str:
    """The limit that stopped a TIMEOUT or OUTPUT_LIMIT run, with what was measured."""
    verdict = result.verdict
    if verdict.verdict == "TIMEOUT" and verdict.diagnosis == "cpu":
        return (f"CPU time limit {fmt_seconds(result.time_limit_s)} "
                f"(used {fmt_seconds(verdict.details.get('cpu_s', result.cpu_s))} of CPU)")
    if verdict.verdict == "TIMEOUT":
        ran = verdict.details.get("wall_s", result.time_s)
        backstop = verdict.details.get("wall_limit_s", wall_backstop(result.time_limit_s))
        return (f"wall-clock backstop {fmt_seconds(backstop)} (ran {fmt_seconds(ran)}, "
                f"using {fmt_seconds(result.cpu_s)} of its {fmt_seconds(result.time_limit_s)} CPU limit)")
    printed = verdict.details.get("stdout_bytes")
    after = f" (printed {fmt_bytes(printed)} or more)" if printed else ""
    return f"stdout limit {fmt_bytes(limits.output_bytes)}{after}"


def limits_in_force(result: CaseResult, limits: Limits) -> str:
    """The limits a run had, for a crash (a malloc refused by the memory limit often is one)."""
    return (f"CPU {fmt_seconds(result.time_limit_s)}, memory {fmt_bytes(limits.memory_bytes)}, "
            f"stdout {fmt_bytes(limits.output_bytes)}, {limits.processes} processes, "
            f"{limits.open_files} open files")
