"""The record that flows from generators to the harness: one graded case."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

# How the program under test is invoked for a case.
#   file          ./fillit input.fillit          (the file holds `input`)
#   no_args       ./fillit
#   two_args      ./fillit input.fillit input.fillit
#   three_args    ./fillit input.fillit input.fillit input.fillit
#   missing_file  ./fillit does-not-exist.fillit
#   empty_path    ./fillit ""                    (one argument, the empty string)
#   directory     ./fillit a-directory
#   unreadable    ./fillit input.fillit          (mode 000; run as an unprivileged user)
Invocation = Literal["file", "no_args", "two_args", "three_args", "missing_file", "empty_path", "directory",
                     "unreadable"]

# Scoring categories (harness.grading.scoring weighs them; SPEC.md describes them).
Category = Literal["valid", "large", "invalid", "usage", "errors", "hard", "disputed", "speed", "fuzz", "own"]
# Valid files plain backtracking cannot answer within the moulinette's timeout (generators.speed).
SPEED: Category = "speed"

# `expected` for usage cases: any single line starting with "usage" (any case) passes.
@dataclass(frozen=True)
class UsageLine:
    """What a wrong argument count expects: one line starting with "usage" (any case)."""

    def __str__(self) -> str:
        return "usage"


USAGE = UsageLine()
# What a case expects on stdout: an exact text (the square, or "error\n" for an invalid
# file), or a usage line.
Expected = str | UsageLine


@dataclass(frozen=True)
class Case:
    id: str  # unique within a suite: "group/name", e.g. "invalid/bad_char_letter-3"
    category: Category  # scoring category
    input: bytes | None  # content of the input file; None when the invocation passes no file
    expected: Expected
    invocation: Invocation = "file"
    accepted: tuple[str, ...] = ()  # other outputs that also pass (a disputed case's other answer)
    disputed: str | None = None  # name of the disputed rule this case exercises
    rule: str | None = None  # for an invalid input: the rule (reference.parser.RULES) it breaks
    description: str = ""
    runs: int = 1  # >1: run again and compare, to catch non-deterministic output
    # The seed's plain search on this valid file: placement tries until its first solution,
    # when counted (a student's own files); the suites' files are generated under
    # generators.valid.EASY_BUDGET. The CPU limit is derived from it (harness.grading.suites).
    plain_tries: int | None = None
