"""valgrind memcheck on the graded binary, once per sample input, shared by the checks
that read it (leaks; memory errors). How its log is read, and when it is trusted:
harness.grading.memcheck."""
from __future__ import annotations

from dataclasses import dataclass

from harness.limits import Limits
from harness.grading.memcheck import LOG_NOTES, memcheck_argv, parse_log
from harness.project.checks.common import CheckContext, Deadline
from harness.project.workspace import BUILD_LIMITS

MAX_INPUTS = 3
VALGRIND_LIMITS = Limits(**{**BUILD_LIMITS.__dict__, "address_space_bytes": None,  # valgrind maps far more
                            "file_size_bytes": 64 * 1024 * 1024})                  # than it uses


@dataclass(frozen=True)
class MemcheckRun:
    input_number: int  # 1-based
    ran: bool  # valgrind ran to the end and its log is its own
    note: str  # why not, when not
    tampered: bool = False  # the program wrote valgrind-like lines into valgrind's log
    definitely_lost_bytes: int = 0
    definitely_lost_blocks: int = 0
    errors: int = 0  # memory errors, leaks not included (invalid read/write, uninitialised values, bad free...)
    contexts: int = 0  # distinct memory errors (valgrind prints each once)
    first_error: tuple[str, ...] = ()  # the first memory error and its stack, as valgrind printed it


def memcheck_runs(ctx: CheckContext) -> list[MemcheckRun]:
    """valgrind on each sample input (the same runs for every check that asks)."""
    cached = ctx.cache.get("memcheck")
    if cached is not None:
        return cached
    deadline = Deadline(ctx.timeout_s)
    runs = []
    for k, data in enumerate(ctx.sample_inputs[:MAX_INPUTS], 1):
        if deadline.expired():
            runs.append(MemcheckRun(k, False, f"input #{k} not run (time limit)"))
            continue
        log = ctx.ws.new_log(f"valgrind-input{k}")
        result = ctx.ws.run_on_graded(
            memcheck_argv("./fillit", (f"input{k}.fillit",)),
            cpu_s=deadline.left(), inputs={f"input{k}.fillit": data}, limits=VALGRIND_LIMITS, side_output=log)
        if result.timed_out:
            runs.append(MemcheckRun(k, False, f"input #{k} timed out under valgrind"))
            continue
        text = log.read_text(errors="replace") if log.exists() else ""
        killed = result.result.signal is not None or result.result.limit is not None
        status, facts = parse_log(text, killed)
        note = "" if status == "ok" else f"input #{k}: {LOG_NOTES[status]}"
        if status == "killed" and result.result.signal:
            note += f" (it died with {result.result.signal})"
        runs.append(MemcheckRun(k, status == "ok", note, tampered=status == "forged",
                                definitely_lost_bytes=facts.lost_bytes, definitely_lost_blocks=facts.lost_blocks,
                                errors=facts.errors, contexts=facts.contexts, first_error=facts.first_error))
    ctx.cache["memcheck"] = runs
    return runs
