"""Build the mutant zoo: base.c + the textual replacements of mutants.toml.

    from tests.zoo.build import load_manifest, build   (or import build from this folder)
    mutants, corrects = load_manifest()
    binary = build(mutants[0], out_dir)

Each replacement's old text must occur exactly once in base.c; `apply` raises
ZooError otherwise, so a change of base.c cannot silently disarm a mutant.
"""
from __future__ import annotations

import fnmatch
import subprocess
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

ZOO_DIR = Path(__file__).resolve().parent
BASE = ZOO_DIR / "base.c"
MANIFEST = ZOO_DIR / "mutants.toml"

VERDICTS = ("OK", "WRONG", "TIMEOUT", "CRASH", "OUTPUT_LIMIT", "DISPUTED")


class ZooError(Exception):
    """The manifest is malformed, or a replacement does not apply exactly once."""


@dataclass(frozen=True)
class Expectation:
    verdict: str
    diagnosis: str | None
    cases: tuple[str, ...] = ()  # globs of the case ids that must show it; () = any case

    def matches(self, case_id: str) -> bool:
        return not self.cases or any(fnmatch.fnmatchcase(case_id, pattern) for pattern in self.cases)


@dataclass(frozen=True)
class Entry:
    """One mutant or correct variant, with its final C source."""

    name: str
    description: str
    kind: str  # "mutant" or "correct"
    source: str  # the C text to compile (replacements already applied)
    replace: tuple[tuple[str, str], ...] = ()
    source_file: str | None = None  # for a correct variant written as its own file
    expect: tuple[Expectation, ...] = field(default=())  # mutants only; a correct one expects score 100
    accept_disputed: bool = False  # takes the seed's side of the disputed cases
    # A correct variant's suite: "quick" when its change only touches what every quick case
    # already shows (usage, error and stderr output), so the standard suite's 343 other
    # cases would grade base.c's behaviour again (10 s each).
    suite: str = "standard"

    @property
    def is_correct(self) -> bool:
        return self.kind == "correct"


def apply(text: str, replacements: tuple[tuple[str, str], ...], name: str = "?") -> str:
    """Apply each [old, new] in turn; each old text must occur exactly once in the current text."""
    for old, new in replacements:
        count = text.count(old)
        if count != 1:
            raise ZooError(f"{name}: replaced text occurs {count} times in base.c (must be exactly once): {old!r}")
        text = text.replace(old, new)
    return text


def _expectations(name: str, raw: list) -> tuple[Expectation, ...]:
    if not raw:
        raise ZooError(f"{name}: a mutant needs a non-empty `expect`")
    out = []
    for item in raw:
        verdict = item.get("verdict")
        if verdict not in VERDICTS or verdict == "OK":
            raise ZooError(f"{name}: bad verdict {verdict!r}")
        cases = item.get("cases", [])
        if not isinstance(cases, list) or not all(isinstance(pattern, str) for pattern in cases):
            raise ZooError(f"{name}: `cases` must be a list of case-id globs")
        out.append(Expectation(verdict, item.get("diagnosis"), tuple(cases)))
    return tuple(out)


def _entry(kind: str, raw: dict, base: str) -> Entry:
    name = raw.get("name")
    if not name or not isinstance(name, str):
        raise ZooError(f"a [[{kind}]] without a name")
    replace = tuple((str(old), str(new)) for old, new in raw.get("replace", []))
    source_file = raw.get("source")
    if source_file is not None:
        if replace:
            raise ZooError(f"{name}: `source` and `replace` exclude each other")
        source = (ZOO_DIR / source_file).read_text()
    else:
        if kind == "mutant" and not replace:
            raise ZooError(f"{name}: a mutant needs `replace`")
        source = apply(base, replace, name)
    expect = _expectations(name, raw.get("expect", [])) if kind == "mutant" else ()
    return Entry(
        name=name,
        description=raw.get("description", ""),
        kind=kind,
        source=source,
        replace=replace,
        source_file=source_file,
        expect=expect,
        accept_disputed=bool(raw.get("accept_disputed", False)),
        suite=_suite(name, raw.get("suite", "standard")),
    )


def _suite(name: str, suite: object) -> str:
    if suite not in ("quick", "standard"):
        raise ZooError(f"{name}: `suite` must be \"quick\" or \"standard\", not {suite!r}")
    return str(suite)


def load_manifest(path: Path = MANIFEST) -> tuple[list[Entry], list[Entry]]:
    """(mutants, correct variants), sources already built from base.c."""
    base = BASE.read_text()
    data = tomllib.loads(Path(path).read_text())
    mutants = [_entry("mutant", raw, base) for raw in data.get("mutant", [])]
    corrects = [_entry("correct", raw, base) for raw in data.get("correct", [])]
    names = [entry.name for entry in mutants + corrects]
    duplicates = sorted({n for n in names if names.count(n) > 1})
    if duplicates:
        raise ZooError(f"duplicate names: {duplicates}")
    return mutants, corrects


def base_entry() -> Entry:
    return Entry(name="base", description="the correct base solver", kind="correct", source=BASE.read_text())


def build(entry: Entry, out_dir: Path, cc: str = "gcc") -> Path:
    """Write `<out_dir>/<name>.c`, compile it with `gcc -O2`, return the binary path."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    source = out_dir / f"{entry.name}.c"
    binary = out_dir / entry.name
    source.write_text(entry.source)
    result = subprocess.run(
        [cc, "-O2", "-o", str(binary), str(source)], capture_output=True, text=True, timeout=120
    )
    if result.returncode != 0:
        raise ZooError(f"{entry.name}: compilation failed:\n{result.stderr}")
    return binary


if __name__ == "__main__":  # python tests/zoo/build.py OUT_DIR: build everything
    import sys

    target = Path(sys.argv[1] if len(sys.argv) > 1 else "zoo-build")
    all_mutants, all_corrects = load_manifest()
    for item in [base_entry(), *all_mutants, *all_corrects]:
        print(build(item, target))
