"""The jailed runner against the hostile zoo (tests/hostile/*.c), under every isolation
mode (the full jail, namespaces only, rlimits only). Every run must: end the expected
way (limit / signal / exit), return within its wall limit + grace (+ a generous margin:
the machine is noisy), and leave no process behind."""
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

from harness.jail import JailError, RunResult, detect_jail
from harness.jail.identity import UID_BASE, UID_COUNT, run_identity
from harness.limits import Limits
from harness.runner import RunFile, run, run_root

from jail_modes import ISOLATIONS, jail_for

HOSTILE = Path(__file__).parent / "hostile"
MARGIN_S = 3.0  # on top of wall + grace: scheduling noise on a busy 2-core machine
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
    """Processes of the run still alive (zombies are dead: they are reaped separately)."""
    found = []
    for p in psutil.process_iter(["pid", "name", "cmdline", "status", "uids"]):
        info = p.info
        if info["status"] == psutil.STATUS_ZOMBIE:
            continue
        text = (info.get("name") or "") + " " + " ".join(info.get("cmdline") or [])
        if token in text:
            found.append(f"pid {info['pid']} {info['status']} uid {info['uids']}: {text}")
    return found


def run_zoo(zoo: Zoo, stem: str, isolation: str, limits: Limits, args=(), files=()) -> RunResult:
    program, token = zoo.program(stem)
    started = time.monotonic()
    result = run(program, list(args), list(files), limits, jail_for(isolation))
    elapsed = time.monotonic() - started
    assert elapsed <= limits.wall_s + limits.grace_s + MARGIN_S, f"{stem} took {elapsed:.2f} s"
    assert survivors(token) == [], f"{stem} left processes behind"
    assert result.isolation == isolation
    return result


def limits(**kw) -> Limits:
    base = dict(wall_s=2.0, cpu_s=30.0, memory_bytes=256 * 1024 * 1024, address_space_bytes=256 * 1024 * 1024,
                processes=16, output_bytes=1024 * 1024, grace_s=0.5)
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
    programs = {n for n in names if n.startswith("z")}  # the zoo's copies are named z<token>...
    assert names - programs == {"a.fillit", "sub", "folder.fillit"} and len(programs) == 1
    assert content == "B"
    assert uid != "uid=0 euid=0" and uid.startswith("uid="), "the program must never run as root"
    if isolation == "rlimits":
        assert not os.path.exists(cwd), "the run folder must be removed"
    else:
        assert cwd == "/grade/work", "inside the jail the program works in /grade/work"


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


@pytest.mark.slow
@pytest.mark.parametrize("isolation", ISOLATIONS)
@pytest.mark.parametrize("stem", ["infinite_loop", "xcpu_ignorer"])  # SIGXCPU; SIGKILL at the hard limit
def test_cpu_hog_hits_the_cpu_limit(zoo, isolation, stem):
    lim = limits(wall_s=20.0, cpu_s=1.0)
    r = run_zoo(zoo, stem, isolation, lim)
    assert (r.limit, r.exit_code, r.signal) == ("cpu", None, None), r
    assert r.cpu_s >= lim.cpu_s * 0.5  # (RLIMIT_CPU and rusage disagree by ~15% on this VM)


@pytest.mark.parametrize("isolation", ISOLATIONS)
def test_the_cpu_limit_is_exact_not_whole_seconds(zoo, isolation):
    # RLIMIT_CPU counts whole seconds (soft limit 2 s here). With a cgroup the step's CPU
    # is read while it runs: the program is stopped at 0.2 s; without one, a program that
    # ends by itself after 0.6 s is still reported over its 0.2 s budget.
    lim = limits(wall_s=20.0, cpu_s=0.2)
    r = run_zoo(zoo, "spin", isolation, lim, ["600"])
    assert r.limit == "cpu" and r.signal is None
    if jail_for(isolation).cgroups is not None:
        assert r.stdout == b"" and 0.2 <= r.cpu_s < 0.55
    else:
        assert (r.stdout, r.exit_code) == (b"done\n", 0) and r.cpu_s >= 0.55


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
    assert 0 < forked < lim.processes  # pids.max (or RLIMIT_NPROC) held (the program is one of them)


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
def test_files_outside_the_run_folder_do_not_reach_the_host(zoo, isolation, tmp_path):
    token = secrets.token_hex(4)
    outside = [Path(f"/tmp/fillit-escape-{token}"), Path(f"/var/tmp/fillit-escape-{token}"),
               tmp_path / f"escape-{token}"]
    try:
        r = run_zoo(zoo, "escape_writer", isolation, limits(), [*map(str, outside), "../escape"])
        assert r.exit_code == 0
        report = dict(line.split(": ", 1) for line in r.stdout.decode().splitlines()[1:])
        assert report[str(outside[2])] != "created"  # root-only folders: unwritable, or not even there
        if isolation == "rlimits":
            # Known limit of the unsafe mode: /tmp is the host's, world-writable.
            assert report[str(outside[0])] == "created"
        else:
            # The jail's /tmp is a private tmpfs: written inside, gone with the jail.
            assert report[str(outside[0])] == "created" and not outside[0].exists()
            assert report[str(outside[1])] != "created"  # no /var in the jail at all
    finally:
        for path in outside[:2]:
            path.unlink(missing_ok=True)


@pytest.mark.parametrize("isolation", ISOLATIONS)
def test_loopback_network(zoo, isolation):
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as server:
        server.bind(("127.0.0.1", 0))
        server.listen(8)
        port = server.getsockname()[1]
        r = run_zoo(zoo, "tcp_connect", isolation, limits(), [str(port)])
    if isolation == "rlimits":
        # Known limit of the unsafe mode: no network isolation, the host's loopback is reachable.
        assert (r.exit_code, r.stdout) == (0, b"connected\n")
    else:
        assert r.exit_code == 1 and r.stdout.startswith(b"connect: "), r  # its own network namespace


# ---------------------------------------------------------------- parallel runs

@pytest.mark.parametrize("isolation", ISOLATIONS)
def test_parallel_runs_do_not_disturb_each_other(zoo, isolation):
    """Fork bombs and daemons being killed next to well-behaved runs: each run
    has its own uid, so no run's cleanup touches another's processes."""
    data = b"#...\n#...\n#...\n#...\n"
    calm, calm_token = zoo.program("well_behaved")
    jobs = [("fork_bomb", limits(wall_s=1.0, processes=16)), ("daemon", limits(wall_s=10.0)),
            ("fork_bomb", limits(wall_s=1.5, processes=16)), ("daemon", limits(wall_s=10.0))]

    jail = jail_for(isolation)

    def calm_runs() -> list[RunResult]:
        return [run(calm, ["in"], [RunFile("in", data)], limits(wall_s=10.0), jail) for _ in range(8)]

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
def test_a_killed_harness_leaves_nothing_running(zoo, isolation):
    """A harness process SIGKILLed in the middle of a run: its program goes too (the pid
    namespace dies with bubblewrap, --die-with-parent; without namespaces the launcher's
    parent-death signal), without anyone cleaning up after it."""
    jail_for(isolation)
    sleeper, token = zoo.program("sleeper")
    code = ("import sys; from pathlib import Path; from harness.runner import run; from harness.limits import Limits; "
            f"from harness.jail import detect_jail; run(Path(sys.argv[1]), [], [], Limits(wall_s=60.0), "
            f"detect_jail({isolation!r}))")
    child = subprocess.Popen([sys.executable, "-c", code, str(sleeper)], cwd=Path(__file__).parents[1])
    try:
        for _ in range(400):  # (by name: the child's own command line holds the token too)
            if any(token in (p.info["name"] or "") for p in psutil.process_iter(["name"])):
                break
            time.sleep(0.05)
        else:
            pytest.fail("the sleeper never started")
        time.sleep(0.2)
    finally:
        child.kill()
        child.wait()
    deadline = time.monotonic() + 5.0
    while survivors(token) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert survivors(token) == []
    calm, _ = zoo.program("well_behaved")
    run(calm, [], [], limits(), jail_for(isolation))  # (our next run reaps what came back to us)
    pool = range(UID_BASE, UID_BASE + UID_COUNT)
    zombies = [c.pid for c in psutil.Process().children()
               if c.status() == psutil.STATUS_ZOMBIE and c.uids().real in pool]
    assert zombies == [], "zombies of the killed harness's run were not reaped"


def test_uids_are_distinct_across_threads_and_processes():
    if os.geteuid() != 0:
        pytest.skip("run uids are only used when the harness is root")
    held: list[int] = []
    with run_identity() as a, run_identity() as b, run_identity() as c:
        held = [a.uid, b.uid, c.uid]
        code = "from harness.jail.identity import run_identity\nwith run_identity() as i: print(i.uid)"
        other = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
        results: list[int] = []
        lock = threading.Lock()

        def grab() -> None:
            with run_identity() as i:
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
    assert all(UID_BASE <= u < UID_BASE + UID_COUNT for u in held)


# ---------------------------------------------------------------- API


def test_asking_for_a_jail_this_machine_lacks_is_a_clear_error(monkeypatch):
    monkeypatch.setenv("FILLIT_CGROUP_ROOT", "/nonexistent/cgroup")  # no usable cgroup tree
    with pytest.raises(JailError, match="cgroup"):
        detect_jail.__wrapped__("jail")


def test_a_bubblewrap_that_cannot_start_is_an_error_not_a_downgrade(tmp_path, monkeypatch):
    broken = tmp_path / "bwrap"  # (in a private folder: the harness makes a copy the run's uid can exec)
    broken.write_text("#!/bin/sh\necho 'bwrap: No permissions to create new namespace' >&2\nexit 1\n")
    broken.chmod(0o755)
    monkeypatch.setenv("FILLIT_BWRAP", str(broken))
    with pytest.raises(JailError, match="installed but cannot build a jail.*No permissions"):
        detect_jail.__wrapped__("auto")


@pytest.mark.parametrize("isolation", ISOLATIONS)
def test_a_launcher_setup_failure_is_an_error_not_an_exit_code(zoo, isolation):
    program, _ = zoo.program("well_behaved")
    with pytest.raises(JailError, match="setrlimit"):  # RLIMIT_NOFILE above the kernel's nr_open
        run(program, ["-u"], limits=limits(open_files=1 << 40), jail=jail_for(isolation))


@pytest.mark.parametrize("isolation", ISOLATIONS)
def test_a_program_that_cannot_be_executed_is_the_harness_s_to_report(tmp_path, isolation):
    script = tmp_path / "not-a-program"
    script.write_bytes(b"\x7fELF garbage, not an executable")
    script.chmod(0o755)
    with pytest.raises(JailError, match="cannot execute the program"):
        run(script, [], limits=limits(), jail=jail_for(isolation))


def test_auto_picks_the_strongest_jail(zoo):
    program, _ = zoo.program("well_behaved")
    r = run(program, ["-u"], limits=limits())
    assert r.isolation == detect_jail().mode
    assert r.exit_code == 0
    if os.geteuid() == 0 and os.environ.get("FILLIT_REQUIRE_JAIL"):
        assert r.isolation == "jail"


@pytest.mark.parametrize("name", ["../x", "/etc/x", "a/../../x", ""])
def test_run_file_names_stay_inside(zoo, name):
    program, _ = zoo.program("well_behaved")
    with pytest.raises(ValueError):
        run(program, [], [RunFile(name, b"x")], limits())


def test_run_folders_are_removed(zoo, tmp_path, monkeypatch):
    root = tmp_path / "runs"
    root.mkdir()
    monkeypatch.setenv("FILLIT_RUN_ROOT", str(root))
    program, _ = zoo.program("well_behaved")
    run(program, ["-u"], limits=limits())
    assert run_root() == str(root) and list(root.iterdir()) == []
