"""Every compile command of the build, sub-makes included, read from `make -n -B`
(jailed), shared by the checks that need it (flags; forbidden functions, to name the flag
that made the compiler insert a call).

`-n` prints the recipes without running them, `-B` makes every target out of date, so
every command is printed. A recursive make written `$(MAKE) -C dir` is run even under -n
(with -n passed on): its commands are printed between "Entering directory" lines. A plain
`make -C dir` (or `cd dir && make`) is only printed, so `make -n -B` is run again in each
such folder, jailed like every make, with the same targets and variable assignments.

    listing = dry_run(ctx)     # cached in ctx.cache
    listing.commands           # CompileCommand(folder="libft", argv=("gcc", "-g", "-c", "a.c"))
"""
from __future__ import annotations

import os
import posixpath
import re
import shlex
import stat
from dataclasses import dataclass

from harness.project.build import failure_line, make_step
from harness.project.checks.common import CheckContext, Deadline
from harness.project.workspace import REPO

MAX_SUB_MAKES = 8  # `make -n -B` steps besides the root's (a Makefile could name hundreds)
_COMPILER_NAME = re.compile(r"^(?:[\w.+]*-)?(?:cc|gcc|clang|c99|c89|c11)(?:-\d+(?:\.\d+)*)?$")
_MAKE_NAME = re.compile(r"^g?make$")
_SEPARATORS = {"&&", "||", ";", "|", "&", "(", ")", ";;", "\n"}
_PREFIXES = ("exec", "time", "ccache", "env", "@", "-", "+")  # words that run the next one
_ASSIGNMENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=")
_DIRECTORY = re.compile(r"^\S*make(?:\[\d+\])?: (Entering|Leaving) directory [`'‘\"](.*)['’\"]$")
# make options that take a value in the next word; of them, only -f/--file is passed on
_MAKE_VALUE_OPTIONS = {"-C", "--directory", "-f", "--file", "--makefile", "-I", "--include-dir", "-j", "--jobs",
                       "-l", "--load-average", "-o", "--old-file", "-W", "--what-if", "--new-file", "--assume-new"}


@dataclass(frozen=True)
class CompileCommand:
    folder: str  # where it runs, relative to the repository root ("" for the root)
    argv: tuple[str, ...]  # the compiler and its arguments

    @property
    def text(self) -> str:
        return " ".join(self.argv)


@dataclass(frozen=True)
class SubMake:
    folder: str  # relative to the repository root
    args: tuple[str, ...]  # targets, variable assignments and -f FILE, passed on


@dataclass(frozen=True)
class DryRun:
    commands: tuple[CompileCommand, ...]
    folders: tuple[str, ...]  # folders whose commands were listed: the root ("") first
    problems: tuple[str, ...]  # sub-makes that could not be listed, one line each
    root_failure: str  # `make -n -B` at the root failed: why ("" when it did not)
    timed_out: bool


@dataclass
class Listing:
    """What one `make -n -B` output says."""

    commands: list[CompileCommand]
    sub_makes: list[SubMake]
    entered: set[str]  # folders a recursive $(MAKE) already listed


def _relative(jail_path: str) -> str | None:
    """A jail path as a folder of the repository copy, or None when it is outside."""
    path = posixpath.normpath(jail_path)
    if path == REPO:
        return ""
    if path.startswith(REPO + "/"):
        return path[len(REPO) + 1:]
    return None


def _tokens(line: str) -> list[str]:
    try:
        lex = shlex.shlex(line, posix=True, punctuation_chars=True)
        lex.whitespace_split = True
        return list(lex)
    except ValueError:  # an unbalanced quote: words are still words
        return line.split()


def _command_start(segment: list[str]) -> int:
    """Index of the program a shell segment runs (after VAR=value and prefix words)."""
    i = 0
    while i < len(segment) and (_ASSIGNMENT.match(segment[i]) or segment[i] in _PREFIXES):
        i += 1
    return i


def _sub_make(words: list[str], here: str) -> SubMake | None:
    """The folder and arguments of a `make [-C dir] ...` run from folder `here`."""
    folder, args, i = here, [], 0
    while i < len(words):
        word = words[i]
        value = words[i + 1] if i + 1 < len(words) else ""
        if word in ("-C", "--directory"):
            folder, i = posixpath.join(folder, value), i + 2
            continue
        if word.startswith("--directory="):
            folder = posixpath.join(folder, word.split("=", 1)[1])
        elif word.startswith("-C") and len(word) > 2:
            folder = posixpath.join(folder, word[2:])
        elif word in ("-f", "--file", "--makefile"):
            args += [word, value]
            i += 2
            continue
        elif word in _MAKE_VALUE_OPTIONS:
            i += 2
            continue
        elif not word.startswith("-"):
            args.append(word)  # a target or VAR=value
        i += 1
    relative = _relative(posixpath.join(REPO, folder))
    return None if relative is None else SubMake(relative, tuple(args))


def parse_listing(output: str, folder: str = "") -> Listing:
    """Compile commands and plain sub-makes in the output of `make -n -B` run in `folder`."""
    listing = Listing([], [], set())
    stack = [folder]
    for raw in output.splitlines():
        moved = _DIRECTORY.match(raw.strip())
        if moved:
            entered = _relative(moved.group(2))
            if moved.group(1) == "Entering":
                stack.append(entered if entered is not None else stack[-1])
                if entered is not None:
                    listing.entered.add(entered)
            elif len(stack) > 1:
                stack.pop()
            continue
        here = stack[-1]
        segment: list[str] = []
        for token in [*_tokens(raw), ";"]:
            if token not in _SEPARATORS:
                segment.append(token)
                continue
            start = _command_start(segment)
            words = segment[start:]
            segment = []
            if not words:
                continue
            program = os.path.basename(words[0].lstrip("@-+"))
            if program == "cd" and len(words) > 1:
                moved_to = _relative(posixpath.join(REPO, here, words[1]))
                here = moved_to if moved_to is not None else here
            elif _MAKE_NAME.match(program):
                sub = _sub_make(words[1:], here)
                if sub is not None:
                    listing.sub_makes.append(sub)
            elif _COMPILER_NAME.match(program) and ("-c" in words or any(w.endswith(".c") for w in words[1:])):
                listing.commands.append(CompileCommand(here, tuple(words)))
    return listing


def _is_folder(ctx: CheckContext, folder: str) -> bool:
    """`folder` is a real folder of the copy, no link on the way (lstat only)."""
    path = ctx.ws.repo
    for part in folder.split("/"):
        path = path / part
        try:
            if not stat.S_ISDIR(os.lstat(path).st_mode):
                return False
        except OSError:
            return False
    return True


def _merge(commands: list[CompileCommand], found: list[CompileCommand]) -> None:
    """Add a sub-make's commands to `commands`. A recursive make run with -s or
    --no-print-directory printed them already, without saying where (they read as the
    parent folder's): those are placed in their folder instead of counted twice."""
    placed: set[int] = set()
    for command in found:
        twin = next((i for i, known in enumerate(commands)
                     if i not in placed and known.argv == command.argv and known.folder != command.folder), None)
        if twin is None:
            commands.append(command)
            placed.add(len(commands) - 1)
        else:
            commands[twin] = command
            placed.add(twin)


def dry_run(ctx: CheckContext) -> DryRun:
    """`make -n -B` at the root and in every plain sub-make's folder (the same listing for
    every check that asks)."""
    cached = ctx.cache.get("dry_run")
    if cached is not None:
        return cached
    deadline = Deadline(ctx.timeout_s)
    root = make_step(ctx.ws, ctx.build.lenient, cpu_s=deadline.left(), extra=("-n", "-B"))
    listing = parse_listing(root.output)
    commands = list(listing.commands)
    listed = {"", *listing.entered}  # folders whose commands are in `commands`
    seen = set(listed)  # ... and the folders that could not be listed
    pending = list(listing.sub_makes)
    problems: list[str] = []
    unlisted: list[str] = []  # beyond MAX_SUB_MAKES or the time limit
    steps = 0
    while pending and not root.timed_out:
        sub = pending.pop(0)
        if sub.folder in seen:
            continue
        seen.add(sub.folder)
        shown = f"`make -C {sub.folder}`"
        if steps == MAX_SUB_MAKES or deadline.expired():
            unlisted.append(sub.folder)
            continue
        if not _is_folder(ctx, sub.folder):
            problems.append(f"{shown}: {sub.folder} is not a folder of the repository")
            continue
        steps += 1
        result = make_step(ctx.ws, ctx.build.lenient, cpu_s=deadline.left(), extra=("-n", "-B", *sub.args),
                           folder=sub.folder)
        found = parse_listing(result.output, sub.folder)
        if not result.ok and not found.commands:
            problems.append(f"could not list the commands of {shown}: "
                            f"{failure_line(result.output, result, ctx.timeout_s)}")
            continue
        _merge(commands, found.commands)
        listed |= {sub.folder, *found.entered}
        seen |= found.entered
        pending += found.sub_makes
    if unlisted:
        problems.append(f"{len(unlisted)} sub-make(s) not listed (more than {MAX_SUB_MAKES}, or the time limit): "
                        + ", ".join(unlisted[:3]) + (" ..." if len(unlisted) > 3 else ""))
    outcome = DryRun(tuple(commands), tuple(sorted(listed)), tuple(problems),
                     "" if root.ok else failure_line(root.output, root, ctx.timeout_s), root.timed_out)
    ctx.cache["dry_run"] = outcome
    return outcome
