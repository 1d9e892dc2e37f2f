"""valgrind memcheck on the graded binary, once per sample input, shared by the checks
that read it (leaks; memory errors).

valgrind and the program are one process: the program can write to valgrind's log
descriptor. So a log counts only when it is valgrind's own: exactly one ERROR SUMMARY of
the main process (whose pid the log's first line gives, written before the program ran),
and the main process ended normally (a program that kills itself to suppress the real
summary, or that prints a fake one, is caught). See docs/SECURITY.md.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from harness.jail import SIDE_OUTPUT_FD
from harness.limits import Limits
from harness.project.checks.common import CheckContext, Deadline
from harness.project.workspace import BUILD_LIMITS

MAX_INPUTS = 3
VALGRIND_LIMITS = Limits(**{**BUILD_LIMITS.__dict__, "address_space_bytes": None,  # valgrind maps far more
                            "file_size_bytes": 64 * 1024 * 1024})                  # than it uses
_PID = re.compile(r"^==(\d+)==", re.M)
_DEFINITELY = re.compile(r"definitely lost: ([\d,]+) bytes in ([\d,]+) blocks")
_ERRORS = re.compile(r"ERROR SUMMARY: ([\d,]+) errors")


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


@dataclass(frozen=True)
class LogFacts:
    lost_bytes: int = 0
    lost_blocks: int = 0
    errors: int = 0
    contexts: int = 0
    first_error: tuple[str, ...] = ()


LogStatus = Literal["ok", "no_log", "killed", "forged"]
LOG_NOTES: dict[LogStatus, str] = {
    "no_log": "valgrind wrote no log",
    "killed": "the program did not end normally under valgrind",
    "forged": "the program wrote valgrind-like lines into valgrind's log: it cannot be trusted",
}

# The head line of every memory error memcheck reports (valgrind's manual, 4.2); a leak's
# record reads "N bytes in M blocks are definitely lost in loss record k of n".
ERROR_HEADS = ("Invalid read", "Invalid write", "Invalid free", "Mismatched free", "Conditional jump",
               "Use of uninitialised", "Syscall param", "Source and destination overlap",
               "Argument 'size' of function", "Invalid alignment", "Jump to the invalid address",
               "Invalid size value", "realloc() with size 0")
_DEFINITE_RECORD = re.compile(r"are definitely lost in loss record \d")
MAX_STACK_LINES = 12


def parse_log(text: str, killed: bool) -> tuple[LogStatus, LogFacts]:
    """Whether the log is valgrind's own (see the module doc), and its facts. A killed
    run's log still says which memory errors came before the end (a crash often follows
    one), but nothing it says can clear the program: its leak facts are not kept."""
    first = _PID.search(text)
    if first is None:
        return "no_log", LogFacts()
    pid = first.group(1)
    mine = [line[len(pid) + 4:].strip() for line in text.splitlines() if line.startswith(f"=={pid}==")]
    summaries = [line for line in mine if line.startswith("ERROR SUMMARY:")]
    heads = [k for k, line in enumerate(mine) if line.startswith(ERROR_HEADS)]
    first_error = _block(mine, heads[0]) if heads else ()
    if killed:
        return "killed", LogFacts(errors=len(heads), contexts=len(heads), first_error=first_error)
    if len(summaries) != 1:
        return "forged", LogFacts()
    body = "\n".join(mine)
    lost = _DEFINITELY.findall(body)
    errors_match = _ERRORS.search(summaries[0])
    # --errors-for-leak-kinds=definite counts each definite leak record as one error of
    # the summary: what is left are the memory errors (each context counted as often as
    # it occurred, which the records alone do not say).
    total = int(errors_match.group(1).replace(",", "")) if errors_match else 0
    leak_records = sum(1 for line in mine if _DEFINITE_RECORD.search(line))
    return "ok", LogFacts(
        lost_bytes=int(lost[-1][0].replace(",", "")) if lost else 0,
        lost_blocks=int(lost[-1][1].replace(",", "")) if lost else 0,
        errors=max(len(heads), total - leak_records), contexts=len(heads), first_error=first_error)


def _block(lines: list[str], start: int) -> tuple[str, ...]:
    """An error's head line and its stacks, up to the blank line that ends it."""
    block = [lines[start]]
    for more in lines[start + 1:start + MAX_STACK_LINES]:
        if not more:
            break
        block.append(more)
    return tuple(block)


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
            ["valgrind", "--leak-check=full", "--errors-for-leak-kinds=definite", "--error-exitcode=42",
             "--vgdb=no", f"--log-fd={SIDE_OUTPUT_FD}", "./fillit", f"input{k}.fillit"],
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
