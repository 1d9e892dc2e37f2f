"""`grade batch --scheduler`: a local Dask scheduler and two workers on loopback, one killed mid-run.

The verdicts per (submission, case) must be the ones the local process pool gives.
"""
from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from harness.grading.suites import load_suite
from test_batch_helpers import GRADE, ROOT, cohort, db_rows, run_grade, verdicts

pytest.importorskip("distributed")

QUICK = load_suite("quick")
DASK = str(Path(sys.executable).with_name("dask"))


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _start(args: list[str], log: Path) -> subprocess.Popen:
    with open(log, "wb") as handle:
        return subprocess.Popen(args, cwd=ROOT, stdout=handle, stderr=subprocess.STDOUT, start_new_session=True)


def _stop(process: subprocess.Popen) -> None:
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGKILL)
    process.wait(timeout=30)


@pytest.fixture()
def dask_cluster(tmp_path: Path):
    """(address, [worker processes]) of a scheduler and two single-thread workers on 127.0.0.1."""
    if not os.path.exists(DASK):
        pytest.skip("the dask command is not installed (pip install 'fillit-moulinette[dask]')")
    from distributed import Client

    port = _free_port()
    address = f"tcp://127.0.0.1:{port}"
    processes = [_start([DASK, "scheduler", "--host", "127.0.0.1", "--port", str(port),
                         "--dashboard-address", "127.0.0.1:0"], tmp_path / "scheduler.log")]
    try:
        workers = [_start([DASK, "worker", address, "--nworkers", "1", "--nthreads", "1", "--no-dashboard",
                           "--host", "127.0.0.1"], tmp_path / f"worker{i}.log") for i in range(2)]
        processes += workers
        deadline = time.monotonic() + 60
        client = None
        while client is None:
            try:
                client = Client(address, timeout=5, set_as_default=False)
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.5)
        try:
            client.wait_for_workers(2, timeout=90)
        finally:
            client.close()
        yield address, workers
    finally:
        for process in reversed(processes):
            _stop(process)


@pytest.mark.slow
def test_dask_backend_matches_local_grading_and_survives_a_lost_worker(tmp_path: Path, dask_cluster) -> None:
    address, workers = dask_cluster
    folder = tmp_path / "subs"
    names = cohort(folder, tmp_path / "scratch", limit=6)
    for name in names[:2]:  # more tasks than workers, so the killed worker holds some
        shutil.copy2(folder / name, folder / f"{name}-again")
    names = sorted(p.name for p in folder.iterdir())
    assert len(names) >= 8
    common = ["--suite", "quick"]

    local = run_grade("batch", str(folder), "--out", str(tmp_path / "local"), "--jobs", "2", *common)
    assert local.returncode == 0, local.stdout + local.stderr

    out = tmp_path / "dask"
    db = out / "results.sqlite"
    batch = subprocess.Popen([*GRADE, "batch", str(folder), "--out", str(out), "--scheduler", address, *common],
                             cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        deadline = time.monotonic() + 180
        finished = 0
        while finished < 1 and batch.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
            if db.exists():
                try:
                    finished = db_rows(db, "SELECT count(*) FROM submissions WHERE status = 'done'")[0][0]
                except Exception:  # schema not there yet
                    finished = 0
        assert batch.poll() is None, "the batch ended before a worker could be killed"
        _stop(workers[0])  # lose a worker (and whatever it was grading) mid-run
        output, _ = batch.communicate(timeout=300)
    finally:
        if batch.poll() is None:
            batch.kill()
            batch.wait()
    assert batch.returncode == 0, output
    assert f"{len(names)} graded, 0 skipped" in output
    assert dict(db_rows(db, "SELECT name, status FROM submissions")) == {n: "done" for n in names}
    assert db_rows(db, "PRAGMA integrity_check") == [("ok",)]
    # Every case a Dask worker graded ran in the full jail (a cohort is refused anything less).
    assert db_rows(db, "SELECT DISTINCT isolation FROM results") == [("jail",)]
    remote = verdicts(db)
    assert len(remote) == len(names) * len(QUICK)
    assert remote == verdicts(tmp_path / "local" / "results.sqlite")
    assert (out / "index.html").is_file() and (out / names[0] / "report.html").is_file()
