"""What `grade` accepts as a program: an ELF executable for this machine (PIE or not,
static or dynamic) or a '#!' script; not a text file, a foreign ELF, a library, an object."""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from harness.grading.executable import unrunnable_reason

MAIN = "int main(void){return 0;}\n"


@pytest.fixture(scope="module")
def compiled(tmp_path_factory) -> dict[str, Path]:
    if shutil.which("gcc") is None:
        pytest.skip("gcc is not installed")
    folder = tmp_path_factory.mktemp("elf")
    (folder / "main.c").write_text(MAIN)
    (folder / "lib.c").write_text("int f(void){return 1;}\n")
    builds = {"pie": ["-pie", "-fPIE"], "no_pie": ["-no-pie"], "static_pie": ["-static-pie"],
              "static": ["-static"], "shared": ["-shared", "-fPIC"], "object": ["-c"]}
    out = {}
    for name, flags in builds.items():
        source = folder / ("lib.c" if name == "shared" else "main.c")
        proc = subprocess.run(["gcc", *flags, "-o", str(folder / name), str(source)], capture_output=True)
        if proc.returncode == 0:  # static builds need the static libc, not always installed
            out[name] = folder / name
    return out


@pytest.mark.parametrize("name", ["pie", "no_pie", "static_pie", "static"])
def test_executables_for_this_machine_are_accepted(compiled, name):
    if name not in compiled:
        pytest.skip(f"gcc cannot build {name} here")
    assert unrunnable_reason(compiled[name]) is None
    assert subprocess.run([str(compiled[name])]).returncode == 0  # and they do run


def test_a_shebang_script_is_accepted(tmp_path):
    script = tmp_path / "fillit"
    script.write_text("#!/bin/sh\necho error\n")
    assert unrunnable_reason(script) is None


@pytest.mark.parametrize("name, words", [("shared", "a shared library (.so)"), ("object", "an object file (.o)")])
def test_libraries_and_objects_are_refused(compiled, name, words):
    assert words in unrunnable_reason(compiled[name])


def test_text_and_foreign_elf_are_refused(compiled, tmp_path):
    text = tmp_path / "text"
    text.write_text("echo error\n")
    assert "neither an ELF executable nor a script" in unrunnable_reason(text)
    foreign = bytearray(compiled["pie"].read_bytes())
    machine = int.from_bytes(foreign[18:20], "little")
    foreign[18:20] = (40 if machine != 40 else 62).to_bytes(2, "little")  # ARM (32-bit), or x86-64
    (tmp_path / "foreign").write_bytes(bytes(foreign))
    assert "another machine" in unrunnable_reason(tmp_path / "foreign")
    (tmp_path / "short").write_bytes(b"\x7fELF\x02\x01")
    assert "neither" in unrunnable_reason(tmp_path / "short")
