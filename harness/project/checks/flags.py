"""Every compile command carries -Wall -Wextra -Werror (read from `make -n -B`)."""
from __future__ import annotations

import os
import re
import shlex

from harness.model import ProjectCheck
from harness.project.build import failure_line, make_step
from harness.project.checks.common import CheckContext, failed, passed

NAME = "flags"
REQUIRED_FLAGS = ("-Wall", "-Wextra", "-Werror")
_COMPILER_NAME = re.compile(r"^(?:[\w.+]*-)?(?:cc|gcc|clang|c99|c89|c11)(?:-\d+(?:\.\d+)*)?$")
_SEPARATORS = {"&&", "||", ";", "|", "&", "(", ")", ";;", "\n"}


def compile_commands(dry_run_output: str) -> list[list[str]]:
    """Compiler invocations that compile C sources, from `make -n` output."""
    found: list[list[str]] = []
    for line in dry_run_output.splitlines():
        try:
            lex = shlex.shlex(line, posix=True, punctuation_chars=True)
            lex.whitespace_split = True
            tokens = list(lex)
        except ValueError:
            tokens = line.split()
        segment: list[str] = []
        for token in [*tokens, ";"]:
            if token in _SEPARATORS:
                _maybe_compile(segment, found)
                segment = []
            else:
                segment.append(token)
    return found


def _maybe_compile(segment: list[str], found: list[list[str]]) -> None:
    i = 0
    while i < len(segment) and (re.match(r"^[A-Za-z_][A-Za-z0-9_]*=", segment[i])
                                or segment[i] in ("exec", "time", "ccache", "env", "@", "-", "+")):
        i += 1
    if i >= len(segment):
        return
    if not _COMPILER_NAME.match(os.path.basename(segment[i].lstrip("@-+"))):
        return
    args = segment[i + 1:]
    if "-c" in args or any(a.endswith(".c") for a in args):
        found.append(segment[i:])


def check(ctx: CheckContext) -> ProjectCheck:
    repo = ctx.ws.repo
    if not any(os.path.isfile(repo / n) for n in ("Makefile", "makefile", "GNUmakefile")):
        return failed(NAME, "no Makefile")
    # -B: every target out of date, so every compile command is printed; -n: print, do
    # not run (recursive $(MAKE) lines still run: jailed, like every make).
    result = make_step(ctx.ws, ctx.build.lenient, cpu_s=ctx.timeout_s, extra=("-n", "-B"))
    if result.timed_out:
        return failed(NAME, f"`make -n -B` timed out after {ctx.timeout_s:g} s")
    commands = compile_commands(result.output)
    if not commands:
        if not result.ok:
            return failed(NAME, f"`make -n -B` failed: {failure_line(result.output, result)}")
        return failed(NAME, "no compiler command compiling .c files in `make -n -B` output")
    missing_any: list[str] = []
    offenders = 0
    example = ""
    for command in commands:
        missing = [f for f in REQUIRED_FLAGS if f not in command[1:]]
        if missing:
            offenders += 1
            example = example or " ".join(command)
            missing_any += [f for f in missing if f not in missing_any]
    if missing_any:
        if len(example) > 160:
            example = example[:157] + "..."
        return failed(NAME, f"missing {' '.join(missing_any)} in {offenders} of {len(commands)} "
                            f"compile command(s), e.g. `{example}`")
    return passed(NAME, f"{' '.join(REQUIRED_FLAGS)} in all {len(commands)} compile command(s)")
