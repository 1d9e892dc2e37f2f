"""Hostile repositories (tests/hostile_repos/*): their Makefile or binary attacks the
harness, the answers, other submissions or the results store; each attack must be
contained. Graded through `grade batch` and `grade REPO`, as staff would."""
from __future__ import annotations

import json
import os
import secrets
import shutil
import socket
import stat
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest

from jail_modes import jail_for
from test_batch_helpers import BASE_C, compile_c, db_rows, repository, run_grade

pytestmark = pytest.mark.slow  # (the fast loop: pytest -m "not slow", README's Development)

HOSTILE_REPOS = Path(__file__).parent / "hostile_repos"


def hostile_repo(name: str, destination: Path, **config: str) -> Path:
    """A copy of tests/hostile_repos/NAME with its config.mk (the attack's parameters)."""
    shutil.copytree(HOSTILE_REPOS / name, destination)
    (destination / "config.mk").write_text("".join(f"{key} = {value}\n" for key, value in config.items()))
    return destination


def victim(folder: Path) -> Path:
    """A root-only file in a root-only folder, outside everything graded."""
    folder.mkdir(mode=0o700)
    secret = folder / "secret"
    secret.write_text("root's secret\n")
    secret.chmod(0o600)
    return secret


def untouched(path: Path, content: str) -> None:
    info = os.lstat(path)
    assert stat.S_ISREG(info.st_mode) and info.st_uid == os.geteuid(), info
    assert stat.S_IMODE(info.st_mode) == 0o600, oct(info.st_mode)
    assert stat.S_IMODE(os.lstat(path.parent).st_mode) == 0o700 and os.lstat(path.parent).st_uid == os.geteuid()
    assert path.read_text() == content


def slow_correct_repository(folder: Path) -> Path:
    """A correct repository whose build takes 3 s: alive while a thief looks for it."""
    repository(folder, BASE_C)
    makefile = (folder / "Makefile").read_text()
    (folder / "Makefile").write_text(makefile.replace("\tgcc -Wall", "\tsleep 3\n\tgcc -Wall"))
    return folder


@pytest.fixture(scope="module")
def attacked_cohort(tmp_path_factory):
    jail_for("jail")
    root = tmp_path_factory.mktemp("attacks")
    subs, out = root / "subs", root / "out"
    subs.mkdir()
    compile_c(BASE_C, subs / "correct")
    first = run_grade("batch", str(subs), "--out", str(out), "--suite", "quick", "--no-project-checks")
    assert first.returncode == 0, first.stderr
    secret = victim(root / "victim")
    # The second run: attackers beside a fresh correct repository, with the first run's
    # answers in OUT.
    hostile_repo("harvester", subs / "harvester")
    hostile_repo("thief", subs / "thief")
    slow_correct_repository(subs / "slow_correct")
    db = out / "results.sqlite"
    hostile_repo("planter", subs / "planter", VICTIMS=f'"{db}", "{secret}"')
    fifo_repo = repository(subs / "with_fifo", BASE_C)
    os.mkfifo(fifo_repo / "pipe")
    shutil.copy2(subs / "correct", os.fsencode(subs) + b"/caf\xe9")
    # (the build-time and run-time attacks need no project checks; the leak check's own
    # attack is below, in repository mode)
    second = run_grade("batch", str(subs), "--out", str(out), "--suite", "quick", "--jobs", "2",
                       "--no-project-checks", timeout=900)
    rows = {name: (status, score, error) for name, status, score, error in
            db_rows(db, "SELECT name, status, score, error FROM submissions")}
    builds = {name: json.loads(build) for name, build in
              db_rows(db, "SELECT name, build_json FROM submissions WHERE build_json IS NOT NULL")}
    return dict(root=root, subs=subs, out=out, db=db, secret=secret, first=first, second=second, rows=rows,
                builds=builds)


def test_the_cohort_run_finishes_despite_the_attackers(attacked_cohort):
    second = attacked_cohort["second"]
    assert second.returncode == 0, second.stdout + second.stderr
    rows = attacked_cohort["rows"]
    assert {status for status, _, _ in rows.values()} == {"done"}, rows
    assert rows["slow_correct"][1] == 100 and rows["correct"][1] == 100


def test_the_answer_harvester_finds_nothing_and_scores_zero(attacked_cohort):
    assert attacked_cohort["rows"]["harvester"][1] == 0
    assert "harvested 0 file(s)" in attacked_cohort["builds"]["harvester"]["log"]


def test_the_harvester_would_score_with_the_answers(attacked_cohort, tmp_path):
    """Positive control: fed the first run's report, the harvester's fillit answers right."""
    harvest = tmp_path / "harvest"
    harvest.mkdir()
    shutil.copy2(attacked_cohort["out"] / "correct" / "report.json", harvest / "report.json")
    program = tmp_path / "fillit"
    program.write_text(subprocess.run([sys.executable, str(HOSTILE_REPOS / "harvester" / "embed.py"), str(harvest)],
                                      capture_output=True, text=True, check=True).stdout)
    case = next(c for c in json.loads((harvest / "report.json").read_text())["cases"] if c["category"] == "valid")
    (tmp_path / "input.fillit").write_text(case["input"])
    answer = subprocess.run([sys.executable, str(program), str(tmp_path / "input.fillit")], capture_output=True,
                            text=True).stdout
    assert answer == case["expected"]


def test_the_thief_finds_no_other_submission(attacked_cohort):
    assert attacked_cohort["rows"]["thief"][1] == 0
    assert "found nothing to steal" in attacked_cohort["builds"]["thief"]["log"]


def test_links_planted_by_the_binary_reach_neither_the_store_nor_a_victim(attacked_cohort):
    untouched(attacked_cohort["secret"], "root's secret\n")
    db = attacked_cohort["db"]
    assert db_rows(db, "PRAGMA integrity_check") == [("ok",)]
    for path in (db, Path(f"{db}-wal")):
        assert not os.path.islink(path)
    rerun = run_grade("batch", str(attacked_cohort["subs"]), "--out", str(attacked_cohort["out"]), "--suite", "quick",
                      "--no-project-checks")
    assert rerun.returncode == 0 and "0 graded" in rerun.stdout, rerun.stdout + rerun.stderr


def test_special_files_and_any_byte_name_are_graded(attacked_cohort):
    rows = attacked_cohort["rows"]
    assert rows["with_fifo"][1] == 100
    assert rows["caf\\xe9"][1] == 100


def test_outputs_are_private(attacked_cohort):
    out = attacked_cohort["out"]
    assert stat.S_IMODE(os.stat(out).st_mode) == 0o700
    for path in [attacked_cohort["db"], out / "correct" / "report.json", out / "index.html"]:
        assert not os.stat(path).st_mode & 0o077, path


def test_links_planted_for_the_leak_check_reach_no_victim(tmp_path):
    """The old leak check wrote its next inputs through links the binary planted in its
    folder, as root: now each valgrind run gets fresh read-only inputs in a private tmpfs."""
    jail_for("jail")
    secret = victim(tmp_path / "victim")
    repo = hostile_repo("planter", tmp_path / "planter", VICTIMS=f'"{secret}", "{secret}"')
    result = run_grade(str(repo), "--suite", "quick", "-q", "--json", str(tmp_path / "r.json"))
    assert result.returncode in (0, 1), result.stderr
    checks = {c["name"]: c for c in json.loads((tmp_path / "r.json").read_text())["checks"]}
    assert checks["leaks"]["status"] == "pass" and "3 input(s)" in checks["leaks"]["message"], checks["leaks"]
    untouched(secret, "root's secret\n")


def test_a_hand_back_racer_cannot_reach_a_victim(tmp_path):
    jail_for("jail")
    secret = victim(tmp_path / "victim")
    token = secrets.token_hex(4)
    repo = hostile_repo("swapper", tmp_path / "swapper", VICTIM=str(secret), VICTIM_DIR=str(secret.parent),
                        TOKEN=token)
    result = run_grade(str(repo), "--suite", "quick", "-q", "--json", str(tmp_path / "r.json"))
    assert result.returncode in (0, 1), result.stderr
    untouched(secret, "root's secret\n")
    racers = [p for p in psutil.process_iter(["cmdline"]) if f"swapper-{token}" in " ".join(p.info["cmdline"] or [])]
    assert racers == [], "make's daemon outlived the build"


def test_build_time_code_reaches_no_host_file_and_no_network(tmp_path):
    jail_for("jail")
    token = secrets.token_hex(4)
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen(4)
        server.setblocking(False)
        port = server.getsockname()[1]
        # A process that shows the address in its command line, as a Dask scheduler does.
        scheduler = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)", f"tcp://127.0.0.1:{port}"])
        try:
            repo = hostile_repo("escaper", tmp_path / "escaper", TOKEN=token, PORT=str(port))
            result = run_grade(str(repo), "--suite", "quick", "-q", "--json", str(tmp_path / "r.json"))
            with pytest.raises(BlockingIOError):
                server.accept()  # nobody connected
            on_host = subprocess.run(["grep", "-l", "-a", f"tcp://127.0.0.1:{port}", f"/proc/{scheduler.pid}/cmdline"],
                                     capture_output=True, text=True).stdout
        finally:
            scheduler.kill()
            scheduler.wait()
    assert on_host.strip(), "positive control: the address is in a host process's command line"
    assert result.returncode in (0, 1), result.stderr
    log = json.loads((tmp_path / "r.json").read_text())["build"]["log"]
    assert "CONNECTED" not in log and "FOUND" not in log and "proc scan done" in log, log
    for folder in ("/tmp", "/var/tmp", "/root"):
        assert not Path(folder, f"escape-{token}").exists(), folder
