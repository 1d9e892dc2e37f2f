"""Reading valgrind memcheck's log: whether it is valgrind's own, what it says (leaks,
memory errors, the first error with its stack), and that error on one line. Used by the
project checks (leaks, memory_errors) and by the second look at a CRASH.

valgrind and the program are one process: the program can write to valgrind's log
descriptor. So a log counts only when it is valgrind's own: exactly one ERROR SUMMARY of
the main process (whose pid the log's first line gives, written before the program ran),
and the main process ended normally (a program that kills itself to suppress the real
summary, or that prints a fake one, is caught). See docs/SECURITY.md.

    status, facts = parse_log(log_text, killed=False)
    line, no_source_lines = compact_error(facts.first_error, "/grade/work/fillit")
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from harness.jail import SIDE_OUTPUT_FD

_PID = re.compile(r"^==(\d+)==", re.M)
_DEFINITELY = re.compile(r"definitely lost: ([\d,]+) bytes in ([\d,]+) blocks")
_ERRORS = re.compile(r"ERROR SUMMARY: ([\d,]+) errors")


# Leaks and errors; the log on the jail's side descriptor (a file the harness opened).
MEMCHECK_OPTIONS: tuple[str, ...] = ("--leak-check=full", "--errors-for-leak-kinds=definite", "--error-exitcode=42",
                                     "--vgdb=no", f"--log-fd={SIDE_OUTPUT_FD}")


def memcheck_argv(program: str, args: tuple[str, ...] = ()) -> list[str]:
    return ["valgrind", *MEMCHECK_OPTIONS, program, *args]


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


FRAMES_PER_STACK = 4
_FRAME = re.compile(r"^(at|by) 0x[0-9A-Fa-f]+: (.*?)(?: \((.*)\))?$")
_SOURCE_LINE = re.compile(r"\.[ch]:\d+$")
_SECTION_END = re.compile(r"(?: at)?:?$")  # its frames get their own "at"


def compact_error(block: tuple[str, ...], binary: str) -> tuple[str, bool]:
    """valgrind's error block on one line ("Invalid write of size 1 at main (main.c:14) by
    solve (solve.c:30); Address 0x... alloc'd at malloc by main (main.c:9)"), and whether
    its frames in `binary` (its path inside the jail) lack source lines."""
    sections: list[str] = []
    frames = 0
    without_lines = False
    for line in block:
        frame = _FRAME.match(line)
        if frame is None:  # a section: "Address 0x... alloc'd", "Block was alloc'd at"
            sections.append(_SECTION_END.sub("", line))
            frames = 0
            continue
        frames += 1
        if frames > FRAMES_PER_STACK:
            if frames == FRAMES_PER_STACK + 1:
                sections[-1] += " ..."
            continue
        function, where = frame.group(2), frame.group(3) or ""
        if where == f"in {binary}":
            without_lines = True
        shown = f"{function} ({where})" if _SOURCE_LINE.search(where) else function
        if sections:
            sections[-1] += f" {frame.group(1)} {shown}"
        else:
            sections.append(f"{frame.group(1)} {shown}")
    return "; ".join(sections), without_lines
