"""`grade --lf`: rerun only the cases that failed last time.

After each graded run `grade` records, per target (its resolved path), which of the cases
it ran failed, in `.fillit-cache/last-failed.json` under the current folder, like pytest's
`.pytest_cache` (the folder holds a `.gitignore` of `*`, so it is never committed).
Cases that did not run keep their recorded state: `grade ./fillit -k invalid` and then
`grade ./fillit --lf` still reruns the valid failures of an earlier full run.
"""
from __future__ import annotations

import json
import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from generators.cases import Case

CACHE_DIR = Path(".fillit-cache")
LAST_FAILED_FILE = "last-failed.json"
FORMAT_VERSION = 1
_CACHE_README = ("This folder is written by fillit-moulinette's `grade` (the failures of the last run,\n"
                 "for `grade --lf`). Safe to delete.\n")


@dataclass(frozen=True)
class LastFailedChoice:
    """The cases `--lf` keeps, and the sentence that says what it did."""

    cases: list[Case]
    note: str


def _key(target: Path) -> str:
    return str(target.resolve())


def _read(cache_dir: Path) -> dict[str, list[str]]:
    """target key -> failed case ids; an unreadable or foreign file counts as empty."""
    try:
        data = json.loads((cache_dir / LAST_FAILED_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict) or data.get("version") != FORMAT_VERSION:
        return {}
    targets = data.get("targets")
    if not isinstance(targets, dict):
        return {}
    return {str(k): [str(i) for i in v] for k, v in targets.items() if isinstance(v, list)}


def last_failed(target: Path, cache_dir: Path = CACHE_DIR) -> set[str]:
    """Ids recorded as failed for `target` (empty when nothing is recorded)."""
    return set(_read(cache_dir).get(_key(target), []))


def choose_last_failed(cases: Sequence[Case], target: Path, cache_dir: Path = CACHE_DIR) -> LastFailedChoice:
    """The cases among `cases` that failed last time; all of them when none did (as pytest's
    --lf does), with a note saying which happened."""
    failed = last_failed(target, cache_dir)
    kept = [case for case in cases if case.id in failed]
    where = cache_dir / LAST_FAILED_FILE
    if kept:
        return LastFailedChoice(kept, f"--lf: rerunning the {len(kept)} case(s) that failed last time ({where})")
    if failed:
        why = f"none of the {len(failed)} case(s) that failed last time is among the selected cases"
    else:
        why = f"no failure recorded for {target} in {where}"
    return LastFailedChoice(list(cases), f"--lf: {why}: running every selected case")


def record_run(target: Path, ran: Iterable[str], failed: Iterable[str], cache_dir: Path = CACHE_DIR) -> Path:
    """Update the record of `target` after a run (`ran` ids, of which `failed` failed).

    Raises OSError when the cache cannot be written.
    """
    targets = _read(cache_dir)
    ran_ids = set(ran)
    kept = [case_id for case_id in targets.get(_key(target), []) if case_id not in ran_ids]
    targets[_key(target)] = sorted(set(kept) | set(failed))
    if not targets[_key(target)]:
        del targets[_key(target)]
    cache_dir.mkdir(parents=True, exist_ok=True)
    for name, text in ((".gitignore", "*\n"), ("README.md", _CACHE_README)):
        if not (cache_dir / name).exists():
            (cache_dir / name).write_text(text, encoding="utf-8")
    path = cache_dir / LAST_FAILED_FILE
    temporary = path.with_name(f".{path.name}.{os.getpid()}")
    temporary.write_text(json.dumps({"version": FORMAT_VERSION, "targets": targets}, indent=1) + "\n",
                         encoding="utf-8")
    os.replace(temporary, path)
    return path
