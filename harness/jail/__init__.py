"""The jail: every step that runs code a submission controls goes through it.

    from harness.jail import Bind, Scratch, Step, detect_jail
    jail = detect_jail()                       # "jail", "namespaces" or "rlimits"
    result = jail.run(Step(("./fillit", "input.fillit"), "/grade/work", limits,
                           binds=(...), scratch=(Scratch("/grade/work"),)))

Modules: `step` (the records), `engine` (the launch chain), `detect` (which jail this
machine offers), `watch` (the read and limit loop), `status` (the launcher's report, the
RunResult), `fds` (a step's descriptors, reaping), `hostview` (the rlimits mode's folder),
`cgroups` (a cgroup per step), `bwrap` (the namespaces), `identity` (the uid pool),
`launcher` (`launcher.c`), `native` (compiling our C programs), `policy` (which jail a
target needs). The threat model and what each layer stops: docs/SECURITY.md.
"""
from harness.jail.detect import detect_jail
from harness.jail.engine import IsolationRequest, Jail
from harness.jail.step import (ISOLATION_MODES, JAIL_ROOT, SIDE_OUTPUT_FD, Bind, CannotExecute, IsolationMode,
                               JailError, LimitHit, RunResult, Scratch, Step)

__all__ = ["ISOLATION_MODES", "JAIL_ROOT", "SIDE_OUTPUT_FD", "Bind", "CannotExecute", "IsolationMode",
           "IsolationRequest", "Jail", "JailError", "LimitHit", "RunResult", "Scratch", "Step", "detect_jail"]
