"""The SQLite store of a cohort run: one row per submission, one row per (submission, case).

One process writes (the `grade batch` parent); workers only send it results.  The
database is in WAL mode with ``synchronous=NORMAL``: every committed transaction
survives the writer being killed (SIGKILL), and a half-written transaction is rolled
back on the next open, so the file is never corrupt and no result is half there.

Identity and resumption
-----------------------
A submission is known by its name (the entry of the submissions folder).  Its
``submission_hash`` covers its files (see `harness.batch.discovery.content_hash`); its ``config``
covers the grading settings (suite, seed, cases, timeout, profile, build mode).  A
finished submission whose hash and config are unchanged is skipped; a changed one
has its old results deleted (in the same transaction that records the new hash)
and is graded again.  A result row is unique per ``(submission, case_id)`` and is
written with ``INSERT ... ON CONFLICT DO UPDATE``, so a case graded twice (a resumed
run, a Dask task retried on another worker) is stored exactly once.
"""
from __future__ import annotations

import json
import os
import sqlite3
import time
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from harness.grading.model import CaseResult, ProjectCheck

SCHEMA_VERSION = 2  # 2: results.credit

# Submission states.
SubmissionStatus = Literal["grading", "done", "build_failed", "error"]
GRADING: SubmissionStatus = "grading"
DONE: SubmissionStatus = "done"
BUILD_FAILED: SubmissionStatus = "build_failed"
ERROR: SubmissionStatus = "error"
FINISHED_STATES = frozenset({DONE, BUILD_FAILED})

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS submissions (
    name            TEXT PRIMARY KEY,
    submission_hash TEXT NOT NULL,
    config          TEXT NOT NULL,
    kind            TEXT NOT NULL,            -- "repository" or "binary"
    status          TEXT NOT NULL,            -- grading, done, build_failed, error
    total_cases     INTEGER NOT NULL DEFAULT 0,
    build_ok        INTEGER,                  -- NULL for a binary
    build_json      TEXT,                     -- command, lenient, message, log
    checks_json     TEXT,                     -- project checks, repository mode
    score           REAL,
    passed          INTEGER,
    failed          INTEGER,
    counts_json     TEXT,                     -- {verdict: n}
    first_failure   TEXT,
    run_time_s      REAL,                     -- sum of the program's wall time over the cases
    grading_s       REAL NOT NULL DEFAULT 0,  -- harness time spent on it, summed over (resumed) runs
    isolation       TEXT,
    error           TEXT,
    updated_at      REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS results (
    submission      TEXT NOT NULL REFERENCES submissions(name) ON DELETE CASCADE,
    submission_hash TEXT NOT NULL,
    case_id         TEXT NOT NULL,
    category        TEXT NOT NULL,
    verdict         TEXT NOT NULL,
    diagnosis       TEXT,
    message         TEXT NOT NULL,
    details_json    TEXT NOT NULL,
    credit          REAL,                     -- partial credit of a failed case (NULL: none)
    actual          TEXT NOT NULL,
    stderr          TEXT NOT NULL,
    time_s          REAL NOT NULL,
    cpu_s           REAL NOT NULL,
    max_rss_kb      INTEGER NOT NULL,
    exit_code       INTEGER,
    signal          TEXT,
    isolation       TEXT NOT NULL,
    time_limit_s    REAL NOT NULL,
    recorded_at     REAL NOT NULL,
    UNIQUE (submission, case_id)
);
CREATE INDEX IF NOT EXISTS results_by_hash ON results (submission_hash, case_id);
"""

# Columns of a result row: CaseResult.to_dict()'s fields, its details as JSON.
RESULT_FIELDS: tuple[str, ...] = (
    "case_id", "category", "verdict", "diagnosis", "message", "details_json", "credit", "actual", "stderr",
    "time_s", "cpu_s", "max_rss_kb", "exit_code", "signal", "isolation", "time_limit_s",
)


@dataclass(frozen=True)
class SubmissionRow:
    name: str
    submission_hash: str
    config: str
    kind: str
    status: str
    total_cases: int
    build_ok: bool | None
    build: dict[str, Any] | None
    checks: list[dict[str, str]] | None
    score: float | None
    passed: int | None
    failed: int | None
    counts: dict[str, int]
    first_failure: str
    run_time_s: float | None
    grading_s: float
    isolation: str | None
    error: str | None

    @property
    def finished(self) -> bool:
        return self.status in FINISHED_STATES


class StaleResult(Exception):
    """A result for a submission hash that is no longer the current one."""


class Store:
    """The batch database; not shared between threads (one writer: the batch parent)."""

    def __init__(self, path: Path, timeout_s: float = 30.0) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        # The results hold every expected answer: the file (and SQLite's -wal and -shm,
        # which take its mode) is the owner's only. Created here, never through a link.
        os.close(os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600))
        os.chmod(self.path, 0o600)
        # isolation_level=None: no implicit transactions; `transaction()` opens them explicitly.
        self.db = sqlite3.connect(str(self.path), timeout=timeout_s, isolation_level=None)
        self.db.row_factory = sqlite3.Row
        self.db.execute(f"PRAGMA busy_timeout = {int(timeout_s * 1000)}")
        mode = self.db.execute("PRAGMA journal_mode = WAL").fetchone()[0]
        if str(mode).lower() != "wal":
            raise sqlite3.OperationalError(f"{self.path}: cannot switch to WAL mode (got {mode})")
        self.db.execute("PRAGMA synchronous = NORMAL")
        self.db.execute("PRAGMA foreign_keys = ON")
        # Every statement is idempotent (IF NOT EXISTS / OR IGNORE): a kill in between is harmless.
        self.db.executescript(_SCHEMA)
        with self.transaction():
            self.db.execute("INSERT OR IGNORE INTO meta (key, value) VALUES ('schema_version', ?)",
                            (str(SCHEMA_VERSION),))
        version = self.db.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()[0]
        if int(version) != SCHEMA_VERSION:
            raise sqlite3.DatabaseError(f"{self.path}: schema version {version}, expected {SCHEMA_VERSION}")

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """BEGIN IMMEDIATE ... COMMIT, rolled back on any exception."""
        self.db.execute("BEGIN IMMEDIATE")
        try:
            yield self.db
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
        self.db.execute("COMMIT")

    # ------------------------------------------------------------------ submissions

    def submission(self, name: str) -> SubmissionRow | None:
        row = self.db.execute("SELECT * FROM submissions WHERE name = ?", (name,)).fetchone()
        return None if row is None else _submission(row)

    def submissions(self) -> list[SubmissionRow]:
        return [_submission(r) for r in self.db.execute("SELECT * FROM submissions ORDER BY name")]

    def is_current(self, name: str, submission_hash: str, config: str) -> bool:
        """Finished, with the same files and the same grading settings: nothing to do."""
        row = self.submission(name)
        return (row is not None and row.finished and row.submission_hash == submission_hash
                and row.config == config)

    def begin(self, name: str, submission_hash: str, config: str, kind: str, total_cases: int) -> set[str]:
        """Prepare `name` for grading and return the case ids already stored for it.

        Same hash and config as stored: the results stay (a resumed run grades only
        the missing cases).  Anything changed: the old results and outcome are dropped.
        """
        with self.transaction() as db:
            row = db.execute("SELECT submission_hash, config FROM submissions WHERE name = ?",
                             (name,)).fetchone()
            now = time.time()
            if row is None:
                db.execute(
                    "INSERT INTO submissions (name, submission_hash, config, kind, status, total_cases, updated_at)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (name, submission_hash, config, kind, GRADING, total_cases, now))
                return set()
            if row["submission_hash"] != submission_hash or row["config"] != config:
                db.execute("DELETE FROM results WHERE submission = ?", (name,))
                db.execute(
                    "UPDATE submissions SET submission_hash = ?, config = ?, kind = ?, status = ?,"
                    " total_cases = ?, build_ok = NULL, build_json = NULL, checks_json = NULL, score = NULL,"
                    " passed = NULL, failed = NULL, counts_json = NULL, first_failure = NULL,"
                    " run_time_s = NULL, grading_s = 0, isolation = NULL, error = NULL, updated_at = ?"
                    " WHERE name = ?",
                    (submission_hash, config, kind, GRADING, total_cases, now, name))
                return set()
            db.execute("UPDATE submissions SET status = ?, kind = ?, total_cases = ?, error = NULL,"
                       " updated_at = ? WHERE name = ?", (GRADING, kind, total_cases, now, name))
            return {r[0] for r in db.execute("SELECT case_id FROM results WHERE submission = ?", (name,))}

    def _check_current(self, db: sqlite3.Connection, name: str, submission_hash: str) -> None:
        row = db.execute("SELECT submission_hash FROM submissions WHERE name = ?", (name,)).fetchone()
        if row is None or row[0] != submission_hash:
            raise StaleResult(f"{name}: result for {submission_hash[:12]}, which is not the current version")

    def record_build(self, name: str, submission_hash: str, build: dict[str, Any]) -> None:
        with self.transaction() as db:
            self._check_current(db, name, submission_hash)
            db.execute("UPDATE submissions SET build_ok = ?, build_json = ?, updated_at = ? WHERE name = ?",
                       (int(bool(build.get("ok"))), json.dumps(build), time.time(), name))

    def record_results(self, name: str, submission_hash: str, results: Iterable[CaseResult]) -> int:
        """Store case results (one transaction); a case already stored is replaced, never duplicated."""
        columns = ("submission", "submission_hash") + RESULT_FIELDS + ("recorded_at",)
        updates = ", ".join(f"{c} = excluded.{c}" for c in columns if c not in ("submission", "case_id"))
        sql = (f"INSERT INTO results ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})"
               f" ON CONFLICT (submission, case_id) DO UPDATE SET {updates}")
        now = time.time()
        count = 0
        with self.transaction() as db:
            self._check_current(db, name, submission_hash)
            for result in results:
                row = result.to_dict()
                row["details_json"] = json.dumps(row.pop("details"), sort_keys=True)
                db.execute(sql, (name, submission_hash, *(row[f] for f in RESULT_FIELDS), now))
                count += 1
        return count

    def record_checks(self, name: str, submission_hash: str, checks: Sequence[ProjectCheck]) -> None:
        with self.transaction() as db:
            self._check_current(db, name, submission_hash)
            db.execute("UPDATE submissions SET checks_json = ?, updated_at = ? WHERE name = ?",
                       (json.dumps([check.to_dict() for check in checks]), time.time(), name))

    def finish(self, name: str, submission_hash: str, *, status: str, score: float, passed: int, failed: int,
               counts: dict[str, int], first_failure: str, run_time_s: float, grading_s: float,
               isolation: str | None, keep_case_ids: Iterable[str] | None = None) -> None:
        """Record the outcome; results of case ids not in `keep_case_ids` (stale ones) are dropped."""
        with self.transaction() as db:
            self._check_current(db, name, submission_hash)
            if keep_case_ids is not None:
                keep = set(keep_case_ids)
                stale = [r[0] for r in db.execute("SELECT case_id FROM results WHERE submission = ?", (name,))
                         if r[0] not in keep]
                db.executemany("DELETE FROM results WHERE submission = ? AND case_id = ?",
                               [(name, case_id) for case_id in stale])
            db.execute(
                "UPDATE submissions SET status = ?, score = ?, passed = ?, failed = ?, counts_json = ?,"
                " first_failure = ?, run_time_s = ?, grading_s = grading_s + ?, isolation = ?, error = NULL,"
                " updated_at = ? WHERE name = ?",
                (status, score, passed, failed, json.dumps(counts), first_failure, run_time_s, grading_s,
                 isolation, time.time(), name))

    def add_grading_time(self, name: str, seconds: float) -> None:
        with self.transaction() as db:
            db.execute("UPDATE submissions SET grading_s = grading_s + ? WHERE name = ?", (seconds, name))

    def mark_error(self, name: str, submission_hash: str, message: str) -> None:
        with self.transaction() as db:
            db.execute("UPDATE submissions SET status = ?, error = ?, updated_at = ?"
                       " WHERE name = ? AND submission_hash = ?",
                       (ERROR, message, time.time(), name, submission_hash))

    # ------------------------------------------------------------------ results

    def case_ids(self, name: str) -> set[str]:
        return {r[0] for r in self.db.execute("SELECT case_id FROM results WHERE submission = ?", (name,))}

    def results(self, name: str) -> dict[str, dict[str, Any]]:
        """{case_id: CaseResult.to_dict() form} for `name` (CaseResult.from_dict makes it whole)."""
        rows = self.db.execute("SELECT * FROM results WHERE submission = ?", (name,))
        found = {}
        for r in rows:
            row = dict(r)
            row["details"] = json.loads(row.pop("details_json"))
            found[r["case_id"]] = row
        return found

    def integrity_check(self) -> str:
        return str(self.db.execute("PRAGMA integrity_check").fetchone()[0])


def _submission(row: sqlite3.Row) -> SubmissionRow:
    return SubmissionRow(
        name=row["name"],
        submission_hash=row["submission_hash"],
        config=row["config"],
        kind=row["kind"],
        status=row["status"],
        total_cases=row["total_cases"],
        build_ok=None if row["build_ok"] is None else bool(row["build_ok"]),
        build=json.loads(row["build_json"]) if row["build_json"] else None,
        checks=json.loads(row["checks_json"]) if row["checks_json"] else None,
        score=row["score"],
        passed=row["passed"],
        failed=row["failed"],
        counts=json.loads(row["counts_json"]) if row["counts_json"] else {},
        first_failure=row["first_failure"] or "",
        run_time_s=row["run_time_s"],
        grading_s=row["grading_s"] or 0.0,
        isolation=row["isolation"],
        error=row["error"],
    )
