"""Jail overhead per run, on a trivial C program, side by side with a bare subprocess.run.

    python benchmarks/bench_runner.py [--runs 200]

Builds `int main(void){puts("ok");}` with gcc, then runs it --runs times in each way,
interleaved (bare, jail, namespaces, rlimits, bare, ...) so machine noise hits every
way alike, and prints ms per run (median and mean), the overhead over the bare run, the
ratio to it, and the CPU time the harness process itself spent per run (mean; the
program's own CPU is not in it). "jail" is the full jail: a cgroup made, joined, read,
emptied and removed, the launcher's staging mounts, bubblewrap's namespaces, the inner
launcher; target: <= 10 ms median overhead on 2 cores.
"""
from __future__ import annotations

import argparse
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from harness.jail import JailError, detect_jail  # noqa: E402
from harness.limits import Limits  # noqa: E402
from harness.runner import RunFile, run  # noqa: E402

SOURCE = '#include <stdio.h>\nint main(void) { puts("ok"); return 0; }\n'


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=200)
    options = parser.parse_args()

    gcc = shutil.which("gcc")
    if gcc is None:
        print("gcc is needed to build the trivial program", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="bench-runner-") as tmp:
        src = Path(tmp) / "trivial.c"
        src.write_text(SOURCE)
        program = Path(tmp) / "trivial"
        subprocess.run([gcc, "-O2", "-o", str(program), str(src)], check=True)

        limits = Limits(cpu_s=5.0, wall_s=10.0)
        files = [RunFile("input.fillit", b"....\n.##.\n.##.\n....\n")]
        ways = {"bare subprocess.run": lambda: subprocess.run([str(program)], capture_output=True, check=True)}
        for mode in ("jail", "namespaces", "rlimits"):
            try:
                jail = detect_jail(mode)
            except JailError as error:
                print(f"({mode}: not available here: {error})")
                continue
            ways[f"runner {mode}"] = lambda jail=jail: run(program, ["input.fillit"], files, limits, jail)

        for call in ways.values():  # warm up (imports, the bwrap probe, page cache)
            for _ in range(5):
                call()
        times: dict[str, list[float]] = {name: [] for name in ways}
        cpu: dict[str, list[float]] = {name: [] for name in ways}  # the harness process's own CPU time
        for _ in range(options.runs):
            for name, call in ways.items():
                start, start_cpu = time.perf_counter(), time.process_time()
                result = call()
                times[name].append(time.perf_counter() - start)
                cpu[name].append(time.process_time() - start_cpu)
                if name != "bare subprocess.run":
                    assert result.stdout == b"ok\n" and result.exit_code == 0, result

    bare_median = statistics.median(times["bare subprocess.run"])
    bare_mean = statistics.fmean(times["bare subprocess.run"])
    print(f"python {platform.python_version()}, {os.cpu_count()} cores, uid {os.geteuid()}, "
          f"{options.runs} runs each, interleaved; jail: {detect_jail().describe()}")
    print(f"{'way':22} {'median ms':>10} {'mean ms':>9} {'overhead ms (median)':>21} {'ratio (median)':>15} "
          f"{'harness CPU ms':>15}")
    for name, values in times.items():
        median, mean = statistics.median(values), statistics.fmean(values)
        print(f"{name:22} {median * 1e3:10.2f} {mean * 1e3:9.2f} {(median - bare_median) * 1e3:21.2f} "
              f"{median / bare_median:15.2f} {statistics.fmean(cpu[name]) * 1e3:15.2f}")
    print(f"(bare mean {bare_mean * 1e3:.2f} ms)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
