"""`fillit-ref`: behaves like a correct fillit on the command line, and reads a bounded amount."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from generators.corpus import SEED_SAMPLE
from frontends.ref import MAX_FILE_BYTES, USAGE
from reference.solver import solve_text


def fillit_ref(*args: str, timeout: float = 60) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "frontends.ref", *args], capture_output=True, timeout=timeout)


def test_endless_input_is_answered_error_at_once():
    # /dev/zero never ends: the reference must stop after its bounded read (a generous
    # timeout guards against hanging; it is not a speed test).
    proc = fillit_ref("/dev/zero", timeout=60)
    assert proc.stdout == b"error\n" and proc.returncode == 1


def test_files_over_the_largest_valid_one_are_errors(tmp_path: Path):
    block = b"#...\n#...\n#...\n#...\n"
    largest = b"\n".join([block] * 26)  # 26 blocks: the largest valid file
    assert len(largest) == MAX_FILE_BYTES - 1
    (tmp_path / "26.fillit").write_bytes(largest)
    assert fillit_ref(str(tmp_path / "26.fillit")).stdout.decode() == solve_text(largest)
    # One trailing empty line (the disputed case) fills the bound exactly: the seed's side accepts it.
    (tmp_path / "26-trailing.fillit").write_bytes(largest + b"\n")
    accepted = fillit_ref("--accept-trailing-empty-line", str(tmp_path / "26-trailing.fillit"))
    assert accepted.stdout.decode() == solve_text(largest)
    (tmp_path / "big.fillit").write_bytes(largest + b"\n" * 2)  # one byte over the bound
    assert fillit_ref("--accept-trailing-empty-line", str(tmp_path / "big.fillit")).stdout == b"error\n"
    (tmp_path / "huge.fillit").write_bytes(block * 100_000)
    assert fillit_ref(str(tmp_path / "huge.fillit")).stdout == b"error\n"


def test_usage_and_help_like_a_fillit(tmp_path: Path):
    (tmp_path / "sample.fillit").write_bytes(SEED_SAMPLE)
    for args in ([], [str(tmp_path / "sample.fillit")] * 2):
        proc = fillit_ref(*args)
        # What the graders accept from a fillit: one line starting with "usage", on stdout.
        assert proc.stdout.decode() == USAGE == "usage: fillit-ref source_file\n"
        assert proc.returncode == 1 and proc.stderr == b""
    for flag in ("--help", "-h"):
        shown = fillit_ref(flag)
        assert shown.returncode == 0
        assert shown.stdout != b"error\n" and shown.stdout.decode().startswith(USAGE)
        assert b"--accept-trailing-empty-line" in shown.stdout
    assert fillit_ref(str(tmp_path / "sample.fillit")).stdout == b"DDAA\nCDDA\nCCCA\nBBBB\n"
    assert fillit_ref(str(tmp_path / "missing.fillit")).stdout == b"error\n"
    assert fillit_ref(str(tmp_path)).stdout == b"error\n"  # a directory
