"""Every compile command, sub-makes included, carries -Wall -Wextra -Werror and no other
flag the subject does not allow (read from `make -n -B`: harness.project.checks.dry_run).

The subject allows -Wall -Wextra -Werror. Tolerated beside them, because they change
neither the code the compiler generates nor which warnings stop the build ("neutral"):

* needed to build at all: -c, -o FILE, -I DIR (-iquote, -isystem, -idirafter, -include
  FILE), -L DIR, -l LIB, -x LANG;
* dependency files: -M, -MM, -MD, -MMD, -MP, -MG, -MF FILE, -MT/-MQ TARGET;
* configuration macros: -D NAME[=VALUE], -U NAME (get_next_line's -D BUFFER_SIZE=32);
* the language standard: -std=..., -ansi;
* more diagnostics only: any other -W<warning> (not -Wno-..., not -Wl,/-Wa,/-Wp,),
  -pedantic, -pedantic-errors, -Werror=..., -fdiagnostics-...;
* debug information: -g, -g0..-g3, -ggdb (memory_errors suggests it for source lines);
* -pipe and -O0 (the default), which change nothing in the output.

Everything else is reported by name: optimisation (-O1, -O2, -O3, -Os, -Ofast, -Og),
-march/-mtune/-m..., -f... (-flto, -fsanitize=..., -fno-builtin...), -w and -Wno-...
(which hide what -Werror would stop), -static, -s, -pg...
"""
from __future__ import annotations

import re
from collections.abc import Iterable

from harness.grading.model import ProjectCheck
from harness.project.checks.common import CheckContext, failed, passed
from harness.project.checks.dry_run import CompileCommand, dry_run

NAME = "flags"
REQUIRED_FLAGS = ("-Wall", "-Wextra", "-Werror")
NEUTRAL_WITH_VALUE = frozenset({"-o", "-I", "-iquote", "-isystem", "-idirafter", "-include", "-L", "-l", "-x",
                                "-MF", "-MT", "-MQ", "-D", "-U"})
NEUTRAL_FLAGS = frozenset({"-c", "-M", "-MM", "-MD", "-MMD", "-MP", "-MG", "-ansi", "-pedantic",
                           "-pedantic-errors", "-g", "-g0", "-g1", "-g2", "-g3", "-ggdb", "-pipe", "-O0"})
_NEUTRAL_PREFIXES = ("-I", "-L", "-l", "-D", "-U", "-MF", "-MT", "-MQ", "-std=", "-Werror=", "-fdiagnostics-")
_OPTIMISATION = re.compile(r"^-O(?!0$)\w*$|^-ftree-loop-distribute-patterns$")
MAX_EXAMPLE = 160


def _is_warning(flag: str) -> bool:
    """-W<warning>: one more warning (stricter under -Werror), not one fewer."""
    return (flag.startswith("-W") and len(flag) > 2 and not flag.startswith("-Wno-")
            and flag[2:4] not in ("l,", "a,", "p,"))


def extra_flags(argv: Iterable[str]) -> list[str]:
    """The flags of a compiler command beyond the required and the neutral ones (see the
    module doc), in order, each once."""
    words = list(argv)[1:]
    found: list[str] = []
    i = 0
    while i < len(words):
        word = words[i]
        if word in NEUTRAL_WITH_VALUE:
            i += 2
            continue
        i += 1
        if (not word.startswith("-") or word in REQUIRED_FLAGS or word in NEUTRAL_FLAGS
                or word.startswith(_NEUTRAL_PREFIXES) or _is_warning(word)):
            continue
        if word not in found:
            found.append(word)
    return found


def optimisation_flags(commands: Iterable[CompileCommand]) -> list[str]:
    """The optimisation flags of the compile commands (what makes gcc insert library calls:
    a byte loop becomes strlen or memset from -O2 on)."""
    found: list[str] = []
    for command in commands:
        found += [f for f in command.argv[1:] if _OPTIMISATION.match(f) and f not in found]
    return found


def _where(command: CompileCommand) -> str:
    example = command.text if len(command.text) <= MAX_EXAMPLE else command.text[:MAX_EXAMPLE - 3] + "..."
    return f"sub-make {command.folder}/: `{example}`" if command.folder else f"e.g. `{example}`"


def check(ctx: CheckContext) -> ProjectCheck:
    repo = ctx.ws.repo
    if not any((repo / n).is_file() for n in ("Makefile", "makefile", "GNUmakefile")):
        return failed(NAME, "no Makefile")
    listing = dry_run(ctx)
    if listing.timed_out:
        return failed(NAME, f"`make -n -B` timed out after {ctx.timeout_s:g} s")
    commands = listing.commands
    notes = "".join(f"; {problem}" for problem in listing.problems)
    if not commands:
        if listing.root_failure:
            return failed(NAME, f"`make -n -B` failed: {listing.root_failure}{notes}")
        return failed(NAME, f"no compiler command compiling .c files in `make -n -B` output{notes}")
    problems: list[str] = []
    missing_any: list[str] = []
    lacking = [c for c in commands if any(f not in c.argv[1:] for f in REQUIRED_FLAGS)]
    for command in lacking:
        missing_any += [f for f in REQUIRED_FLAGS if f not in command.argv[1:] and f not in missing_any]
    if lacking:
        problems.append(f"missing {' '.join(missing_any)} in {len(lacking)} of {len(commands)} compile "
                        f"command(s) ({_where(lacking[0])})")
    extra_any: list[str] = []
    offending = [c for c in commands if extra_flags(c.argv)]
    for command in offending:
        extra_any += [f for f in extra_flags(command.argv) if f not in extra_any]
    if offending:
        problems.append(f"flag(s) the subject does not allow: {' '.join(extra_any)} in {len(offending)} of "
                        f"{len(commands)} compile command(s) ({_where(offending[0])}; only "
                        f"{' '.join(REQUIRED_FLAGS)} are allowed)")
    if problems:
        return failed(NAME, "; ".join(problems) + notes)
    subs = [folder + "/" for folder in listing.folders if folder]
    where = f" (root and sub-make(s) {', '.join(subs)})" if subs else ""
    return passed(NAME, f"{' '.join(REQUIRED_FLAGS)} and no other flag in all {len(commands)} compile "
                        f"command(s){where}{notes}")
