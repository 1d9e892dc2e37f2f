"""The Norm, checked by `norminette` — jailed like everything that reads the student's
files: the system's python3 runs norminette's own package, bound read-only at
/grade/tools (not the harness's environment, which holds the reference solver)."""
from __future__ import annotations

import importlib.metadata
import re
from pathlib import Path

from harness.jail import Bind
from harness.grading.model import ProjectCheck
from harness.project.build import failure_line
from harness.project.checks.common import CheckContext, failed, passed, skipped, source_files
from harness.project.workspace import REPO, TOOLS

NAME = "norm"
_ANSI = re.compile(r"\x1b\[[0-9;]*m")  # (colours, should a norminette ignore --no-colors)
SYSTEM_PYTHON = Path("/usr/bin/python3")
_RUN_NORMINETTE = (f"import sys; sys.path.insert(0, {TOOLS!r}); sys.argv[0] = 'norminette'; "
                   "from norminette.__main__ import main; main()")


def norminette_files() -> list[Path] | str:
    """norminette's package folder and its metadata folder, or why they cannot be used."""
    try:
        dist = importlib.metadata.distribution("norminette")
    except importlib.metadata.PackageNotFoundError:
        return "norminette not installed (pip install norminette)"
    metadata = next((f for f in dist.files or () if f.name == "METADATA"), None)
    init = next((f for f in dist.files or () if f.parts[-2:] == ("norminette", "__init__.py")), None)
    if metadata is None or init is None:
        return "norminette is installed in a way the jail cannot use (no package folder)"
    return [Path(str(dist.locate_file(init))).parent, Path(str(dist.locate_file(metadata))).parent]


def check(ctx: CheckContext) -> ProjectCheck:
    tool = norminette_files()
    if isinstance(tool, str):
        return skipped(NAME, tool)
    if not SYSTEM_PYTHON.is_file():
        return skipped(NAME, f"no {SYSTEM_PYTHON} to run norminette inside the jail")
    files = source_files(ctx.ws.repo)
    if not files:
        return failed(NAME, "no .c or .h file in the repository")
    binds = [Bind(folder, f"{TOOLS}/{folder.name}") for folder in tool]
    result = ctx.ws.run([str(SYSTEM_PYTHON), "-S", "-s", "-c", _RUN_NORMINETTE, "--no-colors", *files], cwd=REPO,
                        repo="ro",
                        binds=binds, cpu_s=ctx.timeout_s)
    if result.timed_out:
        return skipped(NAME, f"norminette timed out after {ctx.timeout_s:g} s")
    if result.returncode not in (0, 1):
        return skipped(NAME, f"norminette could not run: {failure_line(result.output, result)}")
    lines = _ANSI.sub("", result.output).splitlines()
    bad_files = [ln.rsplit(":", 1)[0].strip() for ln in lines if ln.rstrip().endswith("Error!")]
    first_error = next((ln.strip() for ln in lines if ln.strip().startswith("Error")
                        and not ln.rstrip().endswith("Error!")), "")
    if bad_files or result.returncode != 0:
        first_error = re.sub(r"\s+", " ", first_error)
        where = (f"{len(bad_files)} of {len(files)} file(s) fail the Norm" if bad_files
                 else f"norminette exited with status {result.returncode}")
        detail = f" (first: {bad_files[0]}: {first_error})" if bad_files and first_error else ""
        return failed(NAME, where + detail)
    return passed(NAME, f"norminette: {len(files)} file(s) OK")
