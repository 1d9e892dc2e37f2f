"""What plain backtracking (the seed's algorithm, reference/plain_fillit.c) can answer in
time: every valid file of the standard suite quickly, and no speed file within the
moulinette's timeout, which the reference answers in a small fraction of it.

Times are CPU seconds of the solver alone, compared with the limits, never tight absolute
numbers: a loaded machine slows the wall clock, not the CPU a run needs.
"""
from __future__ import annotations


import math
import os
import signal
import subprocess
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pytest

from generators.cases import SPEED
from harness.grading.suites import DEFAULT_CPU_S, SPEED_CPU_S
from reference.parser import parse
from reference.solver import solve

pytestmark = pytest.mark.slow  # (the fast loop: pytest -m "not slow", README's Development)

# A standard valid file costs plain search at most EASY_BUDGET placement tries: milliseconds.
QUICK_FOR_PLAIN_S = DEFAULT_CPU_S / 10
# The reference must leave almost the whole speed limit unused.
REFERENCE_SHARE_OF_SPEED_LIMIT = 0.05


@dataclass(frozen=True)
class Run:
    stdout: str
    cpu_s: float
    answered: bool  # ended by itself (not killed at the CPU limit)
    signal: int | None = None  # the signal that ended it


def run_plain(binary: Path, path: Path, cpu_limit_s: float) -> Run:
    # prlimit (util-linux) sets the limit then execs: no preexec_fn, which would make Python
    # fork the whole test process instead of vfork (seconds of page tables per suite).
    argv = ["prlimit", f"--cpu={math.ceil(cpu_limit_s)}", "--", str(binary), str(path)]
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE)
    stdout = proc.stdout.read()
    _, status, usage = os.wait4(proc.pid, 0)
    proc.stdout.close()
    return Run(stdout.decode(), usage.ru_utime + usage.ru_stime, os.WIFEXITED(status),
               os.WTERMSIG(status) if os.WIFSIGNALED(status) else None)


@pytest.fixture(scope="module")
def standard(standard_suite):
    return standard_suite


def _written(tmp_path: Path, cases) -> list[tuple[object, Path]]:
    out = []
    for k, case in enumerate(cases):
        path = tmp_path / f"{k}.fillit"
        path.write_bytes(case.input)
        out.append((case, path))
    return out


def test_plain_search_answers_every_standard_valid_file_quickly(plain_c, standard, tmp_path):
    valid = [case for case in standard if case.invocation == "file" and case.category != SPEED
             and parse(case.input).valid]
    assert len(valid) > 150
    for case, path in _written(tmp_path, valid):
        result = run_plain(plain_c, path, DEFAULT_CPU_S)
        assert result.answered and result.stdout == case.expected, case.id
        assert result.cpu_s < QUICK_FOR_PLAIN_S, (case.id, result.cpu_s)


def test_speed_files_beat_plain_search_but_not_the_reference(plain_c, standard, tmp_path):
    speed = [case for case in standard if case.category == SPEED]
    assert 3 <= len(speed) <= 5
    for case in speed:
        started = time.process_time()
        solve(parse(case.input).pieces)
        assert time.process_time() - started < REFERENCE_SHARE_OF_SPEED_LIMIT * SPEED_CPU_S, case.id
    with ThreadPoolExecutor(2) as pool:
        runs = list(pool.map(lambda item: run_plain(plain_c, item[1], SPEED_CPU_S), _written(tmp_path, speed)))
    for case, result in zip(speed, runs):
        assert not result.answered, f"{case.id}: plain search answered in {result.cpu_s:.1f} s of CPU"
        # Killed at the CPU limit, not crashed: RLIMIT_CPU's soft and hard limits are equal, so
        # the kernel sends SIGXCPU or SIGKILL. (rusage's CPU reads up to ~20 % under the limit
        # the kernel enforced on a loaded machine: measured 4.1 s at load 11, so no CPU assert.)
        assert result.signal in (signal.SIGXCPU, signal.SIGKILL), (case.id, result.signal, result.cpu_s)
