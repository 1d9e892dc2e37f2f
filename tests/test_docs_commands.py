"""The docs match the code: every command of README.md and docs/*.md marked runnable runs as
written, and the contract pages name what the code does.

Convention (README.md, "Development"): a fenced block whose info string is `sh tested`
holds commands, one a line (a `# comment` after a command is the shell's), run in order by
the shell in one scratch folder per document, each expected to exit 0.  The folder holds:

    ./fillit       a correct fillit that prunes (tests/zoo/base.c, built with gcc): fast
                   enough for the speed files, as a good student's is
    examples/      a copy of the repository's examples/ (examples/fillit is a repository)
    submissions/   two executables: alice (correct) and bob (wrong when a file has an S piece)
    my-tests/      square.fillit with its square.expected, and bad.fillit (invalid, no .expected)

Plain ```` ```sh ```` blocks are shown, not run: installation, the test suite itself, a cluster.
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from generators.corpus import SEED_SAMPLE
from harness.grading.model import WRONG_DIAGNOSES
from harness.grading.suites import load_suite
from frontends.ref import MAX_FILE_BYTES

ROOT = Path(__file__).resolve().parent.parent
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
TESTED_BLOCK = re.compile(r"^```sh tested\n(.*?)^```", re.DOTALL | re.MULTILINE)
PROGRAMS = ("grade", "fillit-gen", "fillit-ref", "pytest")


def runnable_commands(document: Path) -> list[str]:
    """The command lines of the document's `sh tested` blocks, in order."""
    blocks = TESTED_BLOCK.findall(document.read_text(encoding="utf-8"))
    return [line.strip() for block in blocks for line in block.splitlines() if line.strip()]


DOCUMENTED = {doc.relative_to(ROOT).as_posix(): runnable_commands(doc) for doc in DOCUMENTS if runnable_commands(doc)}


def test_the_convention_finds_the_documented_commands():
    assert {"README.md", "docs/batch.md"} <= set(DOCUMENTED)
    for name, commands in DOCUMENTED.items():
        for command in commands:
            assert command.split()[0] in PROGRAMS, f"{name}: {command}"
    readme = DOCUMENTED["README.md"]
    for needed in ("--cases", "--lf", "--collect-only", "--save-inputs", "fillit-gen case", "grade batch"):
        assert any(needed in command for command in readme), needed


def _build_products(folder: str, names: list[str]) -> list[str]:
    """What a local `make` left in examples/ (objects, the fillit binary): not part of a clone."""
    return [n for n in names if n.endswith(".o") or (n == "fillit" and (Path(folder) / n).is_file())]


@pytest.fixture()
def scratch(tmp_path: Path, build_c, s_piece_solver: Path, s_piece_mutant: Path) -> Path:
    if shutil.which("make") is None:
        pytest.skip("make is needed (examples/fillit is built with it)")
    shutil.copy(build_c(ROOT / "tests" / "zoo" / "base.c"), tmp_path / "fillit")
    shutil.copytree(ROOT / "examples", tmp_path / "examples", ignore=_build_products)
    (tmp_path / "submissions").mkdir()
    shutil.copy(s_piece_solver, tmp_path / "submissions" / "alice")
    shutil.copy(s_piece_mutant, tmp_path / "submissions" / "bob")
    (tmp_path / "my-tests").mkdir()
    (tmp_path / "my-tests" / "square.fillit").write_bytes(SEED_SAMPLE)
    (tmp_path / "my-tests" / "square.expected").write_text("DDAA\nCDDA\nCCCA\nBBBB\n")
    (tmp_path / "my-tests" / "bad.fillit").write_bytes(b"....\n.##.\n.#x.\n....\n")
    return tmp_path


@pytest.mark.slow
@pytest.mark.parametrize("document", sorted(DOCUMENTED))
def test_documented_commands_run_as_written(document: str, scratch: Path):
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"}
    for command in DOCUMENTED[document]:
        proc = subprocess.run(command, shell=True, cwd=scratch, env=env, capture_output=True, text=True,
                              timeout=600)
        assert proc.returncode == 0, f"{document}: {command}\n{proc.stdout[-3000:]}\n{proc.stderr[-2000:]}"


# --------------------------------------------------------------------------- what the pages say

SPEC = (ROOT / "docs" / "SPEC.md").read_text(encoding="utf-8")


def test_spec_names_every_verdict_and_diagnosis():
    for name in (*WRONG_DIAGNOSES, "OUTPUT_LIMIT", "DISPUTED", "TIMEOUT", "CRASH"):
        assert f"`{name}`" in SPEC, name


def test_spec_cites_no_missing_file_and_the_real_json_fields():
    assert "seeds/" not in SPEC and "input_path" not in SPEC
    assert "`input`" in SPEC
    assert f"at most {MAX_FILE_BYTES + 1} bytes" in SPEC


def test_install_commands_use_what_exists():
    everything = "\n".join(doc.read_text(encoding="utf-8") for doc in DOCUMENTS)
    # The package is not on a public index: the extras install from a clone.
    assert "pip install 'fillit-moulinette[" not in everything
    assert "pip install -e '.[dask]'" in (ROOT / "docs" / "batch.md").read_text(encoding="utf-8")
    # The wheel pip builds carries the C core: it is tagged for one Python and platform.
    wheels = re.findall(r"fillit_moulinette-[^\s`]+\.whl", everything)
    assert wheels and not any("py3-none-any" in wheel for wheel in wheels), wheels


def test_suite_sizes_quoted_in_the_docs_are_the_real_ones(standard_suite):
    sizes = {"quick": len(load_suite("quick")), "standard": len(standard_suite)}
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert f"the standard suite ({sizes['standard']} cases)" in readme
    assert f"`--suite quick`\n({sizes['quick']} cases)" in readme
    assert f"`quick`\n({sizes['quick']} cases," in SPEC and f"`standard` ({sizes['standard']}, the default)" in SPEC
