"""The sandboxed runner against the hostile zoo (tests/hostile/*.c), under both
isolation paths. Every run must: end the expected way (limit / signal / exit),
return within its wall limit + grace (+ a generous margin: the machine is
noisy), leave no process behind and no file outside its run folder."""
from __future__ import annotations

import os
import secrets
import shutil
import socket
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import psutil
import pytest

from harness import runner, sandbox
from harness.limits import Limits
from harness.runner import IsolationUnavailable, RunFile, RunResult, available_isolation, run

HOSTILE = Path(__file__).parent / "hostile"
MARGIN_S = 3.0  # on top of wall + grace: scheduling noise on a busy 2-core machine

ISOLATIONS = [
    "rlimits",
    pytest.param("bwrap", marks=pytest.mark.skipif(available_isolation() != "bwrap",
                                                  reason="bubblewrap is not usable here")),
]
pytestmark = pytest.mark.skipif(not hasattr(os, "pidfd_open"), reason="needs Linux pidfds")


class Zoo:
    """Builds a zoo program and hands out a uniquely named copy of it: the token
    in its name is in the name (comm) of every process of the run, forked
    children included, so leftovers can be found whatever the run uid was."""

    def __init__(self, build_c, tmp_path: Path) -> None:
        self.build_c = build_c
        self.tmp_path = tmp_path

    def program(self, stem: str) -> tuple[Path, str]:
        built = self.build_c(HOSTILE / f"{stem}.c")
        token = secrets.token_hex(4)
        copy = self.tmp_path / f"z{token}{stem}"[:15]
        shutil.copy2(built, copy)
        return copy, token


@pytest.fixture
def zoo(build_c, tmp_path) -> Zoo:
    return Zoo(build_c, tmp_path)


def survivors(token: str) -> list[str]:
    found = []
    for p in psutil.process_iter(["pid", "name", "cmdline", "status", "uids"]):
        info = p.info
        text = (info.get("name") or "") + " " + " ".join(info.get("cmdline") or [])
        if token in text:
            found.append(f"pid {info['pid']} {info['status']} uid {info['uids']}: {text}")
    return found


def run_zoo(zoo: Zoo, stem: str, isolation: str, limits: Limits, args=(), files=()) -> RunResult:
    program, token = zoo.program(stem)
    started = time.monotonic()
    result = run(program, list(args), list(files), limits, isolation)
    elapsed = time.monotonic() - started
    assert elapsed <= limits.wall_s + limits.grace_s + MARGIN_S, f"{stem} took {elapsed:.2f} s"
    assert survivors(token) == [], f"{stem} left processes behind"
    assert result.isolation == isolation
    return result


def limits(**kw) -> Limits:
    base = dict(wall_s=2.0, cpu_s=30.0, memory_bytes=256 * 1024 * 1024, processes=16,
                output_bytes=1024 * 1024, grace_s=0.5)
    base.update(kw)
    return Limits(**base)


# ---------------------------------------------------------------- well-behaved

@pytest.mark.parametrize("isolation", ISOLATIONS)
def test_well_behaved_prints_its_input(zoo, isolation):
    data = b"....\n##..\n.#..\n.#..\n"
    r = run_zoo(zoo, "well_behaved", isolation, limits(), ["input.fillit"], [RunFile("input.fillit", data)])
    assert (r.stdout, r.stderr, r.exit_code, r.signal, r.limit) == (data, b"", 0, None, None)
    assert r.wall_s > 0 and r.cpu_s >= 0 and r.max_rss_kb > 0


@pytest.mark.parametrize("isolation", ISOLATIONS)
def test_exit_status_passes_through(zoo, isolation):
    r = run_zoo(zoo, "well_behaved", isolation, limits(), ["missing.fillit"])
    assert (r.stdout, r.exit_code, r.signal, r.limit) == (b"cannot open missing.fillit\n", 1, None, None)


@pytest.mark.parametrize("isolation", ISOLATIONS)
def test_run_folder_holds_only_the_given_files_and_goes_away(zoo, isolation):
    files = [RunFile("a.fillit", b"A\n"), RunFile("sub/b.fillit", b"B\n"), RunFile("folder.fillit", None, 0o755)]
    r = run_zoo(zoo, "well_behaved", isolation, limits(), ["-l", "-c", "-u", "sub/b.fillit"], files)
    assert r.exit_code == 0, r
    lines = r.stdout.decode().splitlines()
    names, cwd, uid, content = set(lines[:-3]), lines[-3], lines[-2], lines[-1]
    assert names == {"a.fillit", "sub", "folder.fillit"}
    assert content == "B"
    assert uid != "uid=0 euid=0" and uid.startswith("uid="), "the program must never run as root"
    assert not os.path.exists(cwd), "the run folder must be removed"


@pytest.mark.parametrize("isolation", ISOLATIONS)
def test_unreadable_file_is_unreadable(zoo, isolation):
    files = [RunFile("input.fillit", b"secret\n", 0o000)]
    r = run_zoo(zoo, "well_behaved", isolation, limits(), ["input.fillit"], files)
    assert (r.stdout, r.exit_code) == (b"cannot open input.fillit\n", 1)


@pytest.mark.parametrize("isolation", ISOLATIONS)
def test_harness_files_are_not_readable(zoo, isolation, tmp_path):
    secret = tmp_path / "expected" / "answer.txt"  # under pytest's root-only (0700) folder
    secret.parent.mkdir()
    secret.write_bytes(b"the expected output\n")
    os.chmod(secret, 0o644)
    r = run_zoo(zoo, "well_behaved", isolation, limits(), [str(secret)])
    assert (r.stdout, r.exit_code) == (f"cannot open {secret}\n".encode(), 1)


# ---------------------------------------------------------------- time

@pytest.mark.parametrize("isolation", ISOLATIONS)
def test_infinite_loop_hits_the_wall_limit(zoo, isolation):
    lim = limits(wall_s=1.0)
    r = run_zoo(zoo, "infinite_loop", isolation, lim)
    assert (r.limit, r.exit_code, r.signal) == ("wall", None, None)
    assert r.wall_s >= lim.wall_s


@pytest.mark.parametrize("isolation", ISOLATIONS)
@pytest.mark.parametrize("stem", ["infinite_loop", "xcpu_ignorer"])  # SIGXCPU; SIGKILL at the hard limit
def test_cpu_hog_hits_the_cpu_limit(zoo, isolation, stem):
    lim = limits(wall_s=20.0, cpu_s=1.0)
    r = run_zoo(zoo, stem, isolation, lim)
    assert (r.limit, r.exit_code, r.signal) == ("cpu", None, None), r
    assert r.cpu_s >= lim.cpu_s * 0.5  # (RLIMIT_CPU and rusage disagree by ~15% on this VM)


@pytest.mark.parametrize("isolation", ISOLATIONS)
def test_fractional_cpu_budget_is_checked_on_the_measured_time(zoo, isolation):
    # RLIMIT_CPU counts whole seconds (soft limit 1 s here): a program that ends by
    # itself after 0.6 s of CPU is still over a 0.2 s budget.
    lim = limits(wall_s=20.0, cpu_s=0.2)
    r = run_zoo(zoo, "spin", isolation, lim, ["600"])
    assert (r.stdout, r.exit_code, r.signal) == (b"done\n", 0, None)
    assert r.cpu_s >= 0.55 and r.limit == "cpu"


@pytest.mark.parametrize("isolation", ISOLATIONS)
def test_within_the_cpu_budget_no_limit(zoo, isolation):
    r = run_zoo(zoo, "spin", isolation, limits(wall_s=20.0, cpu_s=5.0), ["200"])
    assert (r.stdout, r.exit_code, r.signal, r.limit) == (b"done\n", 0, None, None)
    assert 0.15 <= r.cpu_s < 5.0


@pytest.mark.parametrize("isolation", ISOLATIONS)
@pytest.mark.parametrize("stem, stdout", [("sleeper", b""), ("sigterm_ignorer", b""), ("sigstop_self", b"stopping\n")])
def test_programs_that_never_end_hit_the_wall_limit(zoo, isolation, stem, stdout):
    r = run_zoo(zoo, stem, isolation, limits(wall_s=1.0))
    assert (r.limit, r.exit_code, r.signal, r.stdout) == ("wall", None, None, stdout)
    if stem != "sigterm_ignorer":
        assert r.cpu_s < 0.5


# ---------------------------------------------------------------- processes

@pytest.mark.parametrize("isolation", ISOLATIONS)
def test_fork_bomb_is_bounded_and_killed(zoo, isolation):
    lim = limits(wall_s=1.5, processes=16)
    r = run_zoo(zoo, "fork_bomb", isolation, lim)
    assert (r.limit, r.exit_code, r.signal) == ("wall", None, None)
    forked = int(r.stdout.decode().split()[1])
    assert 0 < forked < lim.processes  # RLIMIT_NPROC held (the program itself is one of them)


@pytest.mark.parametrize("isolation", ISOLATIONS)
def test_setsid_daemon_holding_stdout_does_not_hold_the_run(zoo, isolation):
    lim = limits(wall_s=10.0)
    r = run_zoo(zoo, "daemon", isolation, lim)
    assert (r.exit_code, r.signal, r.limit) == (0, None, None)
    assert b"parent done\n" in r.stdout and b"daemon still here" not in r.stdout
    assert r.wall_s < lim.wall_s  # the program ended at once: no wait for the daemon's 60 s


# ---------------------------------------------------------------- memory, output, crashes

@pytest.mark.parametrize("isolation", ISOLATIONS)
def test_memory_hog_sees_malloc_fail(zoo, isolation):
    lim = limits(wall_s=10.0, memory_bytes=256 * 1024 * 1024)
    r = run_zoo(zoo, "memory_hog", isolation, lim)
    assert (r.exit_code, r.signal, r.limit) == (3, None, None), r
    assert r.stdout.startswith(b"malloc failed after ")
    assert 64 * 1024 < r.max_rss_kb <= lim.memory_bytes // 1024


@pytest.mark.parametrize("isolation", ISOLATIONS)
def test_huge_output_hits_the_output_limit(zoo, isolation):
    lim = limits(wall_s=10.0, output_bytes=1024 * 1024)
    r = run_zoo(zoo, "big_output", isolation, lim)
    assert (r.limit, r.exit_code, r.signal) == ("output", None, None)
    assert r.stdout == b"x" * lim.output_bytes
    assert r.wall_s < lim.wall_s


@pytest.mark.parametrize("isolation", ISOLATIONS)
def test_stdout_closed_early(zoo, isolation):
    r = run_zoo(zoo, "stdout_closer", isolation, limits(wall_s=5.0))
    assert (r.exit_code, r.signal, r.limit) == (0, None, None)
    assert r.stdout == b"before close\n"
    assert r.stderr == b"still running after close\n"


@pytest.mark.parametrize("isolation", ISOLATIONS)
@pytest.mark.parametrize("stem, sig, stdout", [("segv", "SIGSEGV", b"about to crash\n"), ("abort", "SIGABRT", b"")])
def test_crash_reports_the_signal(zoo, isolation, stem, sig, stdout):
    r = run_zoo(zoo, stem, isolation, limits())
    assert (r.signal, r.exit_code, r.limit, r.stdout) == (sig, None, None, stdout)


# ---------------------------------------------------------------- escapes

@pytest.mark.parametrize("isolation", ISOLATIONS)
def test_files_outside_the_run_folder_do_not_survive(zoo, isolation, tmp_path):
    token = secrets.token_hex(4)
    outside = [Path(f"/tmp/fillit-escape-{token}"), Path(f"/var/tmp/fillit-escape-{token}"),
               tmp_path / f"escape-{token}"]
    r = run_zoo(zoo, "escape_writer", isolation, limits(), [*map(str, outside), "../escape"])
    assert r.exit_code == 0
    lines = r.stdout.decode().splitlines()
    cwd = Path(lines[0].removeprefix("cwd="))
    report = dict(line.split(": ", 1) for line in lines[1:])
    for path in outside:
        assert not path.exists(), f"{path} was left behind"
    assert not (cwd.parent / "escape").exists() and not cwd.exists()
    # root-only folders are out of reach either way (unwritable, or not even there under bwrap)
    assert report[str(outside[2])] != "created"
    if isolation == "rlimits":
        # Known limit of this path: /tmp is world-writable, so the file is created;
        # the harness removes what the run uid left there afterwards.
        assert report[str(outside[0])] == "created"
        assert report["../escape"] == "Permission denied"


@pytest.mark.parametrize("isolation", ISOLATIONS)
def test_loopback_network(zoo, isolation):
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as server:
        server.bind(("127.0.0.1", 0))
        server.listen(8)
        port = server.getsockname()[1]
        r = run_zoo(zoo, "tcp_connect", isolation, limits(), [str(port)])
    if isolation == "bwrap":
        assert r.exit_code == 1 and r.stdout.startswith(b"connect: "), r  # own network namespace
    else:
        # Known limit of the rlimits path: no network isolation, the host's loopback is reachable.
        assert (r.exit_code, r.stdout) == (0, b"connected\n")


# ---------------------------------------------------------------- parallel runs

@pytest.mark.parametrize("isolation", ISOLATIONS)
def test_parallel_runs_do_not_disturb_each_other(zoo, isolation):
    """Fork bombs and daemons being killed next to well-behaved runs: each run
    has its own uid, so no run's cleanup touches another's processes."""
    data = b"#...\n#...\n#...\n#...\n"
    calm, calm_token = zoo.program("well_behaved")
    jobs = [("fork_bomb", limits(wall_s=1.0, processes=16)), ("daemon", limits(wall_s=10.0)),
            ("fork_bomb", limits(wall_s=1.5, processes=16)), ("daemon", limits(wall_s=10.0))]

    def calm_runs() -> list[RunResult]:
        return [run(calm, ["in"], [RunFile("in", data)], limits(wall_s=10.0), isolation) for _ in range(8)]

    with ThreadPoolExecutor(max_workers=6) as pool:
        hostile = [pool.submit(run_zoo, zoo, stem, isolation, lim) for stem, lim in jobs]
        calm_results = [pool.submit(calm_runs) for _ in range(2)]
        for future in hostile:
            future.result()
        for future in calm_results:
            for r in future.result():
                assert (r.stdout, r.exit_code, r.signal, r.limit) == (data, 0, None, None)
    assert survivors(calm_token) == []


@pytest.mark.parametrize("isolation", ISOLATIONS)
def test_runs_of_a_killed_harness_process_are_cleaned_up(zoo, isolation):
    """A harness subprocess killed in the middle of a run leaves its program behind
    (re-parented to us, a subreaper); our next run kills and reaps it."""
    if os.geteuid() != 0:
        pytest.skip("run uids are only used when the harness is root")
    sleeper, token = zoo.program("sleeper")
    calm, _ = zoo.program("well_behaved")
    run(calm, [], [], limits(), isolation)  # (makes this process a subreaper)
    code = ("import sys; from pathlib import Path; from harness.runner import run; from harness.limits import Limits; "
            f"run(Path(sys.argv[1]), [], [], Limits(wall_s=60.0), {isolation!r})")
    child = subprocess.Popen([sys.executable, "-c", code, str(sleeper)], cwd=Path(__file__).parents[1])
    try:
        for _ in range(200):  # (by name: the child's own command line holds the token too)
            if any(token in (p.info["name"] or "") for p in psutil.process_iter(["name"])):
                break
            time.sleep(0.05)
        else:
            pytest.fail("the sleeper never started")
        time.sleep(0.2)
    finally:
        child.kill()
        child.wait()
    r = run(calm, [], [], limits(), isolation)  # (one run: it need not draw the dead run's uid)
    assert r.exit_code == 0
    deadline = time.monotonic() + 2.0
    while survivors(token) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert survivors(token) == []
    pool = range(sandbox.UID_BASE, sandbox.UID_BASE + sandbox.UID_COUNT)
    zombies = [c.pid for c in psutil.Process().children()
               if c.status() == psutil.STATUS_ZOMBIE and c.uids().real in pool]
    assert zombies == [], "zombies of the dead harness's run (bwrap's, under bwrap) were not reaped"
    assert not list(Path(sandbox.run_root()).glob(f"fillit-run-*/bin/{sleeper.name}")), "its run folder is left"


def test_uids_are_distinct_across_threads_and_processes():
    if os.geteuid() != 0:
        pytest.skip("run uids are only used when the harness is root")
    held: list[int] = []
    with sandbox.identity() as a, sandbox.identity() as b, sandbox.identity() as c:
        held = [a.uid, b.uid, c.uid]
        code = "from harness import sandbox\nwith sandbox.identity() as i: print(i.uid)"
        other = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
        results: list[int] = []
        lock = threading.Lock()

        def grab() -> None:
            with sandbox.identity() as i:
                with lock:
                    results.append(i.uid)
                time.sleep(0.05)

        threads = [threading.Thread(target=grab) for _ in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    assert len(set(held)) == 3
    assert int(other.stdout) not in held
    assert not set(results) & set(held)
    assert all(u != 0 for u in held)


# ---------------------------------------------------------------- API

def test_forcing_bwrap_when_unusable_is_a_clear_error(zoo, monkeypatch):
    program, _ = zoo.program("well_behaved")
    monkeypatch.setattr(runner, "_probe_result", "rlimits")
    with pytest.raises(IsolationUnavailable, match="bubblewrap"):
        run(program, [], isolation="bwrap")


@pytest.mark.skipif(available_isolation() != "bwrap", reason="bubblewrap is not usable here")
def test_a_bwrap_setup_failure_is_an_error_not_an_exit_code(zoo, monkeypatch):
    program, _ = zoo.program("well_behaved")
    real = sandbox.bwrap_command
    monkeypatch.setattr(sandbox, "bwrap_command",
                        lambda argv, *a, **k: real(argv, *a, **k)[:1] + ["--no-such-option"] + real(argv, *a, **k)[1:])
    with pytest.raises(sandbox.SandboxError, match="bwrap"):
        run(program, ["-u"], limits=limits(), isolation="bwrap")


@pytest.mark.parametrize("isolation", ISOLATIONS)
def test_a_launcher_setup_failure_is_an_error_not_an_exit_code(zoo, isolation):
    if sandbox._launcher() is None:
        pytest.skip("the compiled launcher is not in use (no gcc, or FILLIT_RUN_NO_LAUNCHER)")
    program, _ = zoo.program("well_behaved")
    with pytest.raises(sandbox.SandboxError, match="RLIMIT_NOFILE"):  # above the kernel's nr_open
        run(program, ["-u"], limits=limits(open_files=1 << 40), isolation=isolation)


def test_auto_picks_the_available_isolation(zoo):
    program, _ = zoo.program("well_behaved")
    r = run(program, ["-u"], limits=limits())
    assert r.isolation == available_isolation()
    assert r.exit_code == 0


@pytest.mark.parametrize("name", ["../x", "/etc/x", "a/../../x", ""])
def test_run_file_names_stay_inside(zoo, name):
    program, _ = zoo.program("well_behaved")
    with pytest.raises(ValueError):
        run(program, [], [RunFile(name, b"x")], limits(), "rlimits")


def test_unknown_isolation_is_refused(zoo):
    program, _ = zoo.program("well_behaved")
    with pytest.raises(ValueError):
        run(program, [], isolation="docker")
