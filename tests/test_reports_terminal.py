"""What `grade` prints, captured from real runs of C programs: per-verdict counts, every kind
of failure named with its count, the first failing cases in full, where the reports went,
commands that work as printed, and the progress naming a slow case.  Both as plain text (a
pipe) and with `--color always` (what a terminal gets)."""
from __future__ import annotations

import re
import shlex
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from conftest import GradedRun, grade_in

pytestmark = pytest.mark.slow  # (the fast loop: pytest -m "not slow", README's Development)

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def kinds(report: dict) -> Counter:
    return Counter(f"{c['verdict']} {c['diagnosis']}" for c in report["cases"] if not c["passed"])


def check_summary(text: str, run: GradedRun) -> None:
    """The content both modes share (`text` without colour codes)."""
    report = run.report
    by_verdict = report["counts"]["by_verdict"]
    assert "verdicts: " + " · ".join(f"{v} {n}" for v, n in by_verdict.items() if n) in text
    # Every kind of failure is named with its count: nothing hides behind "... and N more".
    assert re.search(r"failures by kind \(%d cases\):" % report["failed"], text)
    for label, count in kinds(report).items():
        assert re.search(rf"^\s+{re.escape(label)}\s+{count}\s", text, re.M), label
    # The first failing case of each kind in full (three kinds at most).
    shown = re.findall(r"^── (\S+): (.+?) ──$", text, re.M)
    assert len(shown) == 3 and len({kind for _, kind in shown}) == 3
    # A valid file's blocks side by side as cat -e shows them, the squares side by side.
    assert re.search(r"^    A      B      C      D$", text, re.M)
    assert re.search(r"^    \.\.\.\.\$  ", text, re.M)
    assert re.search(r"^! 1 DDAA\$ +\| error\$$", text, re.M)
    # TIMEOUT: the limit that stopped it and what it printed.
    assert "ended: killed by the harness: wall-clock backstop 5.00 s" in text
    assert "stdout before it was stopped: (nothing)" in text
    assert "reports: json report.json · html report.html" in text
    assert "rerun the failures only: grade ./fillit --suite quick --timeout 1 --lf" in text
    assert f"score: {report['score']:g}/100" in text


def printed_commands(text: str) -> list[tuple[str, list[str]]]:
    return [(label, shlex.split(command))
            for label, command in re.findall(r"^(rerun it|get the input file): +(.+)$", text, re.M)]


def test_plain_summary_of_a_real_run(mixed_bag_run: GradedRun):
    text = mixed_bag_run.proc.stdout
    assert "\x1b" not in text and "│" not in text  # a pipe gets plain text
    check_summary(text, mixed_bag_run)


def test_printed_commands_rerun_the_case_and_write_its_input(mixed_bag_run: GradedRun):
    commands = printed_commands(mixed_bag_run.proc.stdout)
    assert [label for label, _ in commands].count("rerun it") == 3
    cases = {case["id"]: case for case in mixed_bag_run.report["cases"]}
    bin_dir = Path(sys.executable).parent
    for label, argv in commands:
        case_id = argv[argv.index("-k") + 1] if label == "rerun it" else argv[2]
        if label == "rerun it":
            assert argv[0] == "grade"
            proc = grade_in(mixed_bag_run.folder, *argv[1:], "--json", "one.json")
            assert proc.returncode == 1, proc.stderr
            assert f"failures by kind (1 case)" in proc.stdout and f"── {case_id}: " in proc.stdout
        else:
            assert argv[:2] == ["fillit-gen", "case"]
            proc = subprocess.run([str(bin_dir / "fillit-gen"), *argv[1:]], cwd=mixed_bag_run.folder,
                                  capture_output=True, text=True, timeout=120)
            assert proc.returncode == 0, proc.stderr
            written = (mixed_bag_run.folder / argv[argv.index("-o") + 1]).read_bytes()
            assert written.decode() == cases[case_id]["input"]


def test_forced_colour_gets_the_same_with_a_table_and_colours(mixed_bag: Path, tmp_path: Path,
                                                               mixed_bag_run: GradedRun):
    shutil.copy(mixed_bag, tmp_path / "fillit")
    proc = grade_in(tmp_path, "./fillit", "--suite", "quick", "--timeout", "1", "--json", "report.json",
                    "--html", "report.html", "--color", "always")
    assert proc.returncode == 1
    assert "\x1b[" in proc.stdout
    plain = ANSI.sub("", proc.stdout)
    invalid = [c for c in mixed_bag_run.report["cases"] if c["category"] == "invalid"]
    passed = sum(c["verdict"] == "OK" for c in invalid)
    assert re.search(rf"invalid\s*│\s*{len(invalid)}\s*│\s*{passed}\s*│\s*{len(invalid) - passed}", plain)  # the table
    check_summary(plain, mixed_bag_run)
    never = grade_in(tmp_path, "./fillit", "--suite", "quick", "--timeout", "1", "--color", "never", "-k", "usage")
    assert "\x1b" not in never.stdout + never.stderr


@pytest.mark.parametrize("color", ["never", "always"])
def test_progress_names_the_case_it_waits_on(mixed_bag: Path, tmp_path: Path, color: str):
    shutil.copy(mixed_bag, tmp_path / "fillit")
    proc = grade_in(tmp_path, "./fillit", "--suite", "quick", "-k", "large/greedy-26-1", "--timeout", "1",
                    "--color", color)
    assert proc.returncode == 1
    # mixed_bag sleeps on big files until the wall backstop (5 s): after 2 s the progress
    # says which case it waits on.
    assert re.search(r"waiting on large/greedy-26-1 \(\d+ s, limit 1 s\)", ANSI.sub("", proc.stderr)), proc.stderr


def test_every_kind_is_named_even_past_the_cases_shown_in_full():
    """The synthetic report of test_reports fails in nine ways: all nine are counted, three shown."""
    import io

    from rich.console import Console

    from reports.terminal import MAX_SHOWN, print_summary
    from test_reports import build_report

    report = build_report()
    out = io.StringIO()
    print_summary(report, Console(file=out, force_terminal=False, width=100), {"html": Path("r.html")})
    text = out.getvalue()
    failed = Counter(f"{r.verdict.verdict} {r.verdict.diagnosis}" for r in report.results if not r.passed)
    assert len(failed) > MAX_SHOWN
    for label, count in failed.items():
        assert re.search(rf"^\s+{re.escape(label)}\s+{count}\s", text, re.M), label
    assert len(re.findall(r"^── ", text, re.M)) == MAX_SHOWN
    assert "... and" not in text and "reports: html r.html" in text
