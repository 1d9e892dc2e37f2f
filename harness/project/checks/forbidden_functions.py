"""Only the functions the subject allows: exit, open, close, write, read, malloc, free
(plus what the C runtime and the compiler pull in on their own), read with `nm` from the
graded binary, jailed (a hostile binary may target binutils too).

Each forbidden function is attributed (harness.project.checks.origins): called in the
sources (read as text after the steps, never run), the compiler's replacement for a
function called there (printf("x\\n") becomes puts), or inserted by the compiler because
of an optimisation flag of the compile commands (a byte loop becomes strlen from -O2).
"""
from __future__ import annotations

import re

from harness.grading.model import ProjectCheck
from harness.project.build import BINARY_NAME
from harness.project.checks.common import CheckContext, Deadline, failed, passed, skipped
from harness.project.checks.origins import attribute
from harness.project.workspace import ExecResult, Workspace
from harness.jail.bwrap import which_in_jail

NAME = "forbidden_functions"
ALLOWED_FUNCTIONS = frozenset({"exit", "open", "close", "write", "read", "malloc", "free"})

#: Other names an allowed function may be imported under: glibc's fortified `read`
#: (_FORTIFY_SOURCE, on by default with some distributions' gcc) and its checked `open`
#: for O_CREAT without a mode; `open64` is `open` with a 64-bit off_t.
ALLOWED_ALIASES = {"__read_chk": "read", "__open_2": "open", "open64": "open", "__open64_2": "open"}

#: Symbols the C runtime, the start files or the compiler insert on their own, never
#: because the student called them: start-up and tear-down (__libc_start_main,
#: __cxa_finalize, __gmon_start__, _ITM_*TMCloneTable, __register_frame_info /
#: __deregister_frame_info, _Jv_RegisterClasses); __stack_chk_fail (stack protector);
#: __errno_location (reading errno is not calling a function); memset, memcpy, memmove,
#: which gcc and clang emit for struct/array zeroing and copies even at -O0: a call to
#: them cannot be told from an explicit one, so, to be fair, they are allowed. Their
#: fortified forms (__memcpy_chk...) only come from explicit calls and stay forbidden.
RUNTIME_SYMBOLS = frozenset({
    "__libc_start_main", "__cxa_finalize", "__gmon_start__",
    "_ITM_deregisterTMCloneTable", "_ITM_registerTMCloneTable",
    "__register_frame_info", "__deregister_frame_info", "_Jv_RegisterClasses",
    "__stack_chk_fail", "__errno_location",
    "memset", "memcpy", "memmove",
})


def _nm(ws: Workspace, args: list[str], cpu_s: float) -> ExecResult:
    return ws.run_on_graded(["nm", *args, "fillit"], cpu_s=cpu_s)


def _symbols(output: str, kinds: str) -> list[str]:
    names = []
    for line in output.splitlines():
        parts = line.split()
        if len(parts) >= 2 and parts[-2] in kinds:
            names.append(parts[-1].split("@", 1)[0])
    return names


def check(ctx: CheckContext) -> ProjectCheck:
    if not ctx.build.ok or ctx.build.binary is None:
        return skipped(NAME, "not checked: no binary was built")
    if which_in_jail("nm") is None:
        return skipped(NAME, "nm not installed (binutils)")
    deadline = Deadline(ctx.timeout_s)
    result = _nm(ctx.ws, ["-D", "--undefined-only"], deadline.left())
    if result.timed_out:
        return failed(NAME, "nm timed out")
    imported = _symbols(result.output, "Uw") if result.ok else []
    how = "nm -D --undefined-only"
    if not imported:
        full = _nm(ctx.ws, [], deadline.left())
        if not full.ok:
            first = next((ln for ln in full.output.splitlines() if ln.strip()), "nm failed")
            return failed(NAME, f"./{BINARY_NAME} is not an executable nm can read: {first.strip()}")
        if "__libc_start_main" in set(_symbols(full.output, "TtWi")):
            return skipped(NAME, f"./{BINARY_NAME} is statically linked: the functions it uses "
                                 "cannot be told from libc's own; link it dynamically")
        imported = _symbols(full.output, "Uw")
        how = "nm -u"
    forbidden: dict[str, str] = {}  # the function: the symbol it is imported as
    for symbol in imported:
        if symbol in ALLOWED_FUNCTIONS or symbol in RUNTIME_SYMBOLS or symbol in ALLOWED_ALIASES:
            continue
        fortified = re.fullmatch(r"__(\w+?)_chk", symbol)
        forbidden.setdefault(fortified.group(1) if fortified else symbol, symbol)
    if forbidden:
        origins = attribute(ctx, sorted(forbidden))
        shown = []
        for name, symbol in sorted(forbidden.items()):
            notes = [f"as {symbol}"] if symbol != name else []
            if name in origins:
                notes.append(origins[name])
            shown.append(f"{name} ({', '.join(notes)})" if notes else name)
        return failed(NAME, f"forbidden function(s): {'; '.join(shown)}")
    used = sorted({ALLOWED_ALIASES.get(s, s) for s in imported} & ALLOWED_FUNCTIONS)
    return passed(NAME, f"only allowed functions imported ({how}): {', '.join(used) or 'none'}")
