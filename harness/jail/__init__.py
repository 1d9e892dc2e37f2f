"""The jail: every step that runs code a submission controls goes through it.

    from harness.jail import Bind, Scratch, Step, detect_jail
    jail = detect_jail()                       # "jail", "namespaces" or "rlimits"
    result = jail.run(Step(("./fillit", "input.fillit"), "/grade/work", limits,
                           binds=(...), scratch=(Scratch("/grade/work"),)))

Modules: `step` (the records), `engine` (the launch chain and detection), `watch` (the
read/limit loop), `cgroups` (a cgroup per step), `bwrap` (the namespaces), `identity`
(the uid pool), `launcher` (the compiled launcher, `launcher.c`). The threat model and
what each layer stops: docs/SECURITY.md.
"""
from harness.jail.engine import IsolationRequest, Jail, detect_jail
from harness.jail.step import (ISOLATION_MODES, JAIL_ROOT, SIDE_OUTPUT_FD, Bind, CannotExecute, IsolationMode,
                               JailError, LimitHit, RunResult, Scratch, Step)

__all__ = ["ISOLATION_MODES", "JAIL_ROOT", "SIDE_OUTPUT_FD", "Bind", "CannotExecute", "IsolationMode",
           "IsolationRequest", "Jail", "JailError", "LimitHit", "RunResult", "Scratch", "Step", "detect_jail"]
