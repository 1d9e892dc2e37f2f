"""The mutant zoo builds, and each entry behaves as it claims, without the grader:

- every mutant's replacements apply exactly once to base.c and the result compiles;
- every mutant behaves differently from base.c on at least one probe (stdout, death
  by a signal, or running past a short timeout), which proves it really is broken;
- base.c and every correct variant print exactly what `fillit-ref` prints on every probe.

Every run gets the grader's memory limit (1 GiB address space) and a 1 MiB file-size
limit on its stdout (a file), so floods and memory hogs stay harmless.
"""
from __future__ import annotations

import os
import signal
import subprocess
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pytest

from reference.solver import solve_text
from zoo.build import ZooError, apply, base_entry, build, load_manifest
from zoo.inputs import Probe, probes

pytestmark = pytest.mark.slow  # (the fast loop: pytest -m "not slow", README's Development)

RUN_TIMEOUT_S = 2.0
MEMORY_BYTES = 1024 * 1024 * 1024
STDOUT_BYTES = 1024 * 1024
JOBS = max(2, os.cpu_count() or 2)


@dataclass(frozen=True)
class Outcome:
    stdout: bytes
    signal: str | None
    timed_out: bool
    exit_code: int | None

    def same_behaviour(self, other: "Outcome") -> bool:
        """Equal as far as grading goes (exit codes are not graded)."""
        return (self.stdout, self.signal, self.timed_out) == (other.stdout, other.signal, other.timed_out)

    def __str__(self) -> str:
        if self.timed_out:
            return "timed out"
        if self.signal:
            return f"killed by {self.signal}"
        return f"stdout {self.stdout[:80]!r} (exit {self.exit_code})"


# prlimit (util-linux) sets the limits then execs the program: with a preexec_fn instead,
# Python would fork the whole test process (its page tables) for each of thousands of runs.
LIMITED = ["prlimit", f"--as={MEMORY_BYTES}", f"--fsize={STDOUT_BYTES}", "--core=0", "--"]


def run(binary: Path, probe: Probe, folder: Path, slot: str) -> Outcome:
    argv = [*LIMITED, str(binary)]
    for arg in probe.argv:
        if arg == "<missing>":
            argv.append(str(folder / "does-not-exist.fillit"))
        elif arg == "<dir>":
            argv.append(str(folder / "a-directory"))
        else:
            argv.append(str(folder / arg))
    out_path = folder / "out" / f"{slot}.stdout"
    with open(out_path, "wb") as out:
        try:
            done = subprocess.run(
                argv, stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.DEVNULL,
                timeout=RUN_TIMEOUT_S, cwd=folder,
            )
        except subprocess.TimeoutExpired:
            return Outcome(out_path.read_bytes()[:STDOUT_BYTES], None, True, None)
    code = done.returncode
    sig = signal.Signals(-code).name if code < 0 else None
    return Outcome(out_path.read_bytes()[:STDOUT_BYTES], sig, False, code if code >= 0 else None)


def expected(probe: Probe, folder: Path, accept_disputed: bool = False) -> bytes | None:
    """What a correct fillit prints; None for the usage probes (checked leniently)."""
    if len(probe.argv) != 1:
        return None
    if probe.argv[0] in ("<missing>", "<dir>"):
        return b"error\n"
    return solve_text((folder / probe.argv[0]).read_bytes(), accept_disputed=accept_disputed).encode()


def matches_reference(outcome: Outcome, probe: Probe, folder: Path, accept_disputed: bool) -> bool:
    if outcome.timed_out or outcome.signal:
        return False
    want = expected(probe, folder, accept_disputed)
    if want is None:
        text = outcome.stdout.decode(errors="replace")
        return text.lower().startswith("usage") and text.count("\n") == 1 and text.endswith("\n")
    return outcome.stdout == want


@pytest.fixture(scope="session")
def zoo(tmp_path_factory):
    """Every entry built once, the probe files written, base.c's outcomes computed."""
    folder = tmp_path_factory.mktemp("zoo")
    (folder / "a-directory").mkdir()
    (folder / "out").mkdir()
    probe_list = probes()
    for probe in probe_list:
        if probe.content is not None:
            (folder / probe.name).write_bytes(probe.content)
    mutants, corrects = load_manifest()
    entries = [base_entry(), *mutants, *corrects]
    with ThreadPoolExecutor(JOBS) as pool:
        binaries = dict(zip((e.name for e in entries), pool.map(lambda e: build(e, folder / "bin"), entries)))
        base_outcomes = list(pool.map(lambda p: run(binaries["base"], p, folder, f"base-{p.name}"), probe_list))
    return {
        "folder": folder, "probes": probe_list, "mutants": mutants, "corrects": corrects,
        "binaries": binaries, "base": dict(zip((p.name for p in probe_list), base_outcomes)),
    }


def test_manifest_size(zoo):
    assert len(zoo["mutants"]) >= 25
    assert len(zoo["corrects"]) >= 5
    for mutant in zoo["mutants"]:
        assert mutant.description and mutant.expect, mutant.name


def test_replacement_must_occur_exactly_once():
    with pytest.raises(ZooError):
        apply("abc abc", (("abc", "x"),), "twice")
    with pytest.raises(ZooError):
        apply("abc", (("zzz", "x"),), "absent")
    assert apply("abc", (("b", "x"),)) == "axc"


def test_a_variant_suite_is_quick_or_standard(tmp_path):
    manifest = tmp_path / "mutants.toml"
    manifest.write_text('[[correct]]\nname = "x"\nsuite = "huge"\nreplace = []\n')
    with pytest.raises(ZooError, match="`suite` must be"):
        load_manifest(manifest)
    manifest.write_text('[[correct]]\nname = "x"\nreplace = []\n')
    assert load_manifest(manifest)[1][0].suite == "standard"
    # the algorithmic variants keep the standard suite, with its speed and large cases
    corrects = {entry.name: entry.suite for entry in load_manifest()[1]}
    assert corrects["plain_char_grid"] == corrects["prune_only_when_tight"] == "standard"


def test_every_entry_built(zoo):
    for entry in [*zoo["mutants"], *zoo["corrects"]]:
        assert zoo["binaries"][entry.name].exists(), entry.name


def test_base_matches_reference(zoo):
    folder = zoo["folder"]
    wrong = [p.name for p in zoo["probes"] if not matches_reference(zoo["base"][p.name], p, folder, False)]
    assert not wrong, f"base.c differs from fillit-ref on {wrong}"


def _first_difference(name: str, zoo) -> str | None:
    folder, binary = zoo["folder"], zoo["binaries"][name]
    for probe in zoo["probes"]:
        outcome = run(binary, probe, folder, f"{name}-{probe.name}")
        if not outcome.same_behaviour(zoo["base"][probe.name]):
            return f"{probe.name}: {outcome} vs base {zoo['base'][probe.name]}"
    return None


def test_every_mutant_differs_from_base(zoo):
    names = [m.name for m in zoo["mutants"]]
    with ThreadPoolExecutor(JOBS) as pool:
        differences = dict(zip(names, pool.map(lambda n: _first_difference(n, zoo), names)))
    same = [name for name, diff in differences.items() if diff is None]
    assert not same, f"mutants that behave like base.c on every probe: {same}"


def _mismatches(entry, zoo) -> list[str]:
    folder, binary = zoo["folder"], zoo["binaries"][entry.name]
    bad = []
    for probe in zoo["probes"]:
        outcome = run(binary, probe, folder, f"{entry.name}-{probe.name}")
        if not matches_reference(outcome, probe, folder, entry.accept_disputed):
            bad.append(f"{probe.name}: {outcome}")
    return bad


def test_correct_variants_match_reference(zoo):
    entries = zoo["corrects"]
    with ThreadPoolExecutor(JOBS) as pool:
        results = dict(zip((e.name for e in entries), pool.map(lambda e: _mismatches(e, zoo), entries)))
    failing = {name: bad for name, bad in results.items() if bad}
    assert not failing, failing


def test_disputed_variant_really_takes_the_other_side(zoo):
    """The accept_disputed variant differs from base.c exactly on the disputed probe."""
    folder = zoo["folder"]
    for entry in zoo["corrects"]:
        if not entry.accept_disputed:
            continue
        disputed = [p for p in zoo["probes"] if p.accept_disputed_differs]
        assert disputed
        for probe in disputed:
            outcome = run(zoo["binaries"][entry.name], probe, folder, f"{entry.name}-{probe.name}-d")
            assert not outcome.same_behaviour(zoo["base"][probe.name]), entry.name
