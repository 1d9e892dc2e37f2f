"""The record that flows from generators to the harness: one graded case."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

# How the program under test is invoked for a case.
#   file          ./fillit input.fillit          (the file holds `input`)
#   no_args       ./fillit
#   two_args      ./fillit input.fillit input.fillit
#   missing_file  ./fillit does-not-exist.fillit
#   directory     ./fillit a-directory
#   unreadable    ./fillit input.fillit          (mode 000; run as an unprivileged user)
Invocation = Literal["file", "no_args", "two_args", "missing_file", "directory", "unreadable"]

# `expected` for usage cases: any single line starting with "usage" (any case) passes.
USAGE = "usage"


@dataclass(frozen=True)
class Case:
    id: str  # unique within a suite: "group/name", e.g. "invalid/bad_char_letter-3"
    category: str  # scoring category: valid, invalid, usage, errors, large, hard, disputed
    input: bytes | None  # content of the input file; None when the invocation passes no file
    expected: str  # exact expected stdout: the square, "error\n", or USAGE
    invocation: Invocation = "file"
    accepted: tuple[str, ...] = ()  # other outputs that also pass (a disputed case's other answer)
    disputed: str | None = None  # name of the disputed rule this case exercises
    rule: str | None = None  # for an invalid input: the rule (reference.parser.RULES) it breaks
    description: str = ""
    runs: int = 1  # >1: run again and compare, to catch non-deterministic output
