"""Cohort grading: every submission of a folder, in parallel, resumable, stored in SQLite.

    summary = run_batch(Path("submissions"), BatchOptions(out=Path("out"), jobs=2))

Each entry of the submissions folder is a repository (a folder, built with make) or
a fillit executable.  The unit of parallel work is a task: a whole repository (build,
cases, checks), or a chunk of about `CHUNK_CASES` cases of an executable, so that one
slow submission is spread over the workers instead of keeping one busy at the end of
the run.  The parent process is the only writer of the store
(`harness.store`): worker processes (or Dask workers, `harness.dask_backend`) run
`grade_submission` on each task and send it messages -- the build outcome, each case result as
soon as it is known, the project checks, then "finished" -- which the parent writes,
one transaction each.  When a submission is finished (every chunk of it) the parent rebuilds its report
from the store, writes ``<out>/<name>/report.json`` and ``report.html``, and records
its score.  At the end it writes the cohort page ``<out>/index.html`` and
``<out>/cohort.csv``.

Rerunning the same command resumes: a finished submission with the same files and
the same grading settings is skipped; a partially graded one is graded only on the
cases missing from the store; a changed one is graded again from scratch.
"""
from __future__ import annotations

import contextlib
import dataclasses
import functools
import hashlib
import io
import json
import multiprocessing
import os
import queue as queue_module
import shutil
import signal
import stat
import tarfile
import time
import traceback
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path, PurePosixPath
from typing import Any

from generators.cases import Case
from harness.jail.engine import IsolationRequest
from harness.limits import Limits
from harness.model import VERDICTS, CaseResult, GradeReport, ProjectCheck, Verdict
from harness.store import BUILD_FAILED, DONE, StaleResult, Store

REPOSITORY, BINARY = "repository", "binary"
IGNORED_NAMES = frozenset({".git"})
# Names taken in the output folder by the cohort files (a submission's reports go to <out>/<name>/).
RESERVED_NAMES = frozenset({"index.html", "cohort.csv", "results.sqlite", "results.sqlite-wal",
                            "results.sqlite-shm", "results.sqlite-journal"})
DEFAULT_BUILD_TIMEOUT_S = 120.0
DEFAULT_BUDGET_S = 1200.0

Message = tuple  # (kind, name, submission_hash, payload)
Emit = Callable[[Message], None]
Echo = Callable[[str], None]


# --------------------------------------------------------------------------- submissions


@dataclass(frozen=True)
class Submission:
    name: str
    path: Path
    kind: str  # REPOSITORY or BINARY
    submission_hash: str


def _walk(root: Path) -> list[tuple[str, Path]]:
    """(relative posix path, path) of every file and symlink under `root`, sorted, .git skipped."""
    found: list[tuple[str, Path]] = []
    for directory, dirs, files in os.walk(root, followlinks=False):
        dirs[:] = sorted(d for d in dirs if d not in IGNORED_NAMES)
        base = Path(directory)
        for name in files + [d for d in dirs if (base / d).is_symlink()]:
            path = base / name
            found.append((path.relative_to(root).as_posix(), path))
    return sorted(found)


def content_hash(path: Path) -> str:
    """sha256 of a submission: sorted relative paths and contents, .git ignored.

    Links count by their target text (never followed); special files (FIFOs, sockets,
    devices) by their kind only — never opened, since opening a FIFO blocks; a single
    file counts by its content alone, so renaming the entry does not change it (the store
    keys by name)."""
    digest = hashlib.sha256()
    entries = [("", path)] if not path.is_dir() else _walk(path)
    for relative, item in entries:
        digest.update(b"P" + relative.encode("utf-8", "surrogateescape") + b"\0")
        info = os.lstat(item)
        if stat.S_ISLNK(info.st_mode):
            digest.update(b"L" + os.fsencode(os.readlink(item)) + b"\0")
        elif not stat.S_ISREG(info.st_mode):
            digest.update(b"S%o\0" % stat.S_IFMT(info.st_mode))
        else:
            fd = os.open(item, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
            with os.fdopen(fd, "rb") as handle:
                if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):  # swapped since the lstat
                    raise OSError(f"{item} changed while it was read")
                digest.update(b"F")
                for block in iter(lambda: handle.read(1 << 20), b""):
                    digest.update(block)
            digest.update(b"\0")
    return digest.hexdigest()


def storage_name(entry_name: str) -> str:
    """The name a submission is stored and reported under: its folder entry's name, with
    bytes that are not UTF-8 (the entry name is any byte string) shown as \\xNN."""
    return os.fsencode(entry_name).decode("utf-8", errors="backslashreplace")


def discover(folder: Path, exclude: Sequence[Path] = ()) -> tuple[list[Submission], list[str]]:
    """Submissions of `folder` sorted by name, and the entries ignored (with why).

    Hidden entries and the paths in `exclude` (the output folder, the database) are
    skipped silently; anything that is neither a folder nor an executable file is
    listed as ignored.
    """
    excluded = {p.resolve() for p in exclude}
    submissions: list[Submission] = []
    ignored: list[str] = []
    for entry in sorted(folder.iterdir(), key=lambda p: p.name):
        if entry.name.startswith("."):
            continue
        resolved = entry.resolve()
        if resolved in excluded or any(resolved in p.parents for p in excluded):
            continue
        if entry.name in RESERVED_NAMES:
            ignored.append(f"{storage_name(entry.name)}: the name of a cohort output file; rename it to grade it")
            continue
        info = os.lstat(entry)
        if stat.S_ISDIR(info.st_mode):
            kind = REPOSITORY
        elif stat.S_ISREG(info.st_mode) and info.st_mode & 0o111:
            kind = BINARY
        else:
            ignored.append(f"{storage_name(entry.name)}: neither a folder nor an executable file")
            continue
        name = storage_name(entry.name)
        if any(other.name == name for other in submissions):
            ignored.append(f"{name}: its name, shown as UTF-8, is the name of another submission; rename it")
            continue
        submissions.append(Submission(name, entry, kind, content_hash(entry)))
    return submissions, ignored


def archive(path: Path) -> bytes:
    """The submission as tar.gz bytes (one top-level member named like the entry, .git left out)."""
    buffer = io.BytesIO()

    def keep(info: tarfile.TarInfo) -> tarfile.TarInfo | None:
        parts = Path(info.name).parts
        if any(part in IGNORED_NAMES for part in parts):
            return None
        info.uid = info.gid = 0
        info.uname = info.gname = ""
        return info

    with tarfile.open(fileobj=buffer, mode="w:gz") as tar:
        tar.add(str(path), arcname=path.name, recursive=True, filter=keep)
    return buffer.getvalue()


def extract(data: bytes, destination: Path) -> Path:
    """Unpack an `archive` into `destination`, safely on every Python 3.11 (tarfile's
    extraction filters came in 3.11.4): only folders, regular files and links; no
    absolute path, no `..`, nothing written through a link (every parent is a folder this
    function made), no special bits; links are made but never followed."""
    destination.mkdir(parents=True, exist_ok=True)
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as tar:
        members = tar.getmembers()
        tops = {PurePosixPath(m.name).parts[0] for m in members if PurePosixPath(m.name).parts}
        if len(tops) != 1:
            raise ValueError(f"submission archive has {len(tops)} top-level entries, expected 1")
        made: set[PurePosixPath] = {PurePosixPath(".")}
        for member in members:
            relative = PurePosixPath(member.name)
            if relative.is_absolute() or ".." in relative.parts or not relative.parts:
                raise ValueError(f"unsafe path in submission archive: {member.name!r}")
            for parent in reversed(relative.parents):
                if parent not in made:
                    os.mkdir(destination / parent, 0o755)
                    made.add(parent)
            target = destination / relative
            if member.isdir():
                if relative not in made:
                    os.mkdir(target, 0o755)
                    made.add(relative)
            elif member.issym():
                os.symlink(member.linkname, target)
            elif member.isfile():
                source = tar.extractfile(member)
                assert source is not None
                fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
                with os.fdopen(fd, "wb") as out:
                    shutil.copyfileobj(source, out)
                os.chmod(target, 0o755 if member.mode & 0o111 else 0o644)
            # anything else (hard links, devices, FIFOs) is left out
    return destination / tops.pop()


# --------------------------------------------------------------------------- settings


@dataclass(frozen=True)
class GradeSettings:
    """What decides the results besides the submission's own files."""

    suite: str = "quick"
    seed: int | None = None
    timeout: float | None = None
    strict: bool = False
    lenient_build: bool = False
    isolation: IsolationRequest = "auto"
    unsafe_no_jail: bool = False  # grade without the full jail (harness.policy)
    build_timeout_s: float = DEFAULT_BUILD_TIMEOUT_S
    project_checks: bool = True
    # Wall seconds one submission's cases may take in all (a share of it per chunk): past
    # it, the cases left are TIMEOUT ("budget"), so one pathological program cannot hold
    # a worker for hours. Builds and checks have their own limits.
    budget_s: float = DEFAULT_BUDGET_S


def cases_digest(cases: Sequence[Case]) -> str:
    digest = hashlib.sha256()
    for case in cases:
        fields = [case.id, case.category, case.invocation, case.expected, "\x1f".join(case.accepted),
                  case.disputed or "", str(case.runs)]
        digest.update("\x1e".join(fields).encode("utf-8"))
        digest.update(b"\x1d" + (case.input if case.input is not None else b"\x00none"))
    return digest.hexdigest()


def config_key(settings: GradeSettings, cases: Sequence[Case]) -> str:
    """A stable text naming the grading settings; a different one means "grade again"."""
    return json.dumps({
        "suite": settings.suite, "seed": settings.seed, "timeout": settings.timeout,
        "profile": "strict" if settings.strict else "default", "lenient_build": settings.lenient_build,
        "project_checks": settings.project_checks, "cases": cases_digest(cases)[:16],
    }, sort_keys=True)


@functools.lru_cache(maxsize=4)
def suite_cases(suite: str, seed: int | None) -> tuple[Case, ...]:
    from harness.suites import load_suite

    return tuple(load_suite(suite, seed))


@dataclass(frozen=True)
class GradeTask:
    """Work for one worker (picklable; `path` is local to the worker).

    A whole submission (`case_ids` None: every case not in `skip_case_ids`, plus the
    build and the project checks of a repository), or one chunk of an executable's
    cases (`case_ids` the ids to run, `part` its number): a submission is then graded
    by several tasks, possibly at the same time on different workers, and the parent
    finalizes it when every part has reported "finished".
    """

    name: str
    kind: str
    path: str
    submission_hash: str
    settings: GradeSettings
    cases_digest: str
    skip_case_ids: frozenset[str] = frozenset()
    case_ids: tuple[str, ...] | None = None
    part: int | None = None


# Cases per task when an executable is split (`chunk_task`): small enough that one slow
# submission (a 5 s timeout on every case of a category) is spread over the workers and
# the last tasks of a run are short; on the mutant zoo 4 gave 34 s at --jobs 2 where 8
# gave 39.6 s (63-64 s at --jobs 1 either way).
CHUNK_CASES = 4


def chunk_task(task: GradeTask, all_case_ids: Sequence[str], chunk_cases: int = CHUNK_CASES) -> list[GradeTask]:
    """`task` split into parts of about `chunk_cases` of its remaining cases.

    Repositories are not split (the build is needed first; they stay one task).  The
    cases are dealt out in strides (part k gets every n-th remaining case from the k-th),
    so the cases of one category -- often all slow together -- land in different parts.
    """
    remaining = [case_id for case_id in all_case_ids if case_id not in task.skip_case_ids]
    if task.kind != BINARY or chunk_cases <= 0 or len(remaining) <= chunk_cases:
        return [task]
    parts = -(-len(remaining) // chunk_cases)
    return [dataclasses.replace(task, case_ids=tuple(remaining[k::parts]), part=k) for k in range(parts)]


def interleave(groups: Sequence[Sequence[GradeTask]], window: int) -> list[GradeTask]:
    """The tasks of `groups` (one group per submission, in order), dealt round-robin over
    consecutive windows of `window` submissions: chunks of neighbouring submissions mix,
    while submissions still finish (and get their reports) progressively through the run."""
    ordered: list[GradeTask] = []
    window = max(1, window)
    for start in range(0, len(groups), window):
        block = [list(g) for g in groups[start:start + window]]
        for k in range(max((len(g) for g in block), default=0)):
            ordered.extend(g[k] for g in block if k < len(g))
    return ordered


# --------------------------------------------------------------------------- worker side


def result_row(result: CaseResult) -> dict[str, Any]:
    """A case result as the store keeps it (plain JSON-able values)."""
    from reports.json_report import clean_json

    verdict = result.verdict
    return {
        "case_id": result.case.id,
        "category": result.case.category,
        "verdict": verdict.verdict,
        "diagnosis": verdict.diagnosis,
        "message": verdict.message,
        "details_json": json.dumps(clean_json(verdict.details), sort_keys=True),
        "actual": result.actual,
        "stderr": result.stderr,
        "time_s": float(result.time_s),
        "cpu_s": float(result.cpu_s),
        "max_rss_kb": int(result.max_rss_kb),
        "exit_code": result.exit_code,
        "signal": result.signal,
        "isolation": result.isolation,
        "time_limit_s": float(result.time_limit_s),
    }


def case_result(case: Case, row: dict[str, Any]) -> CaseResult:
    """A stored row back as a CaseResult (the case comes from the suite, by id)."""
    return CaseResult(
        case=case,
        verdict=Verdict(row["verdict"], row["diagnosis"], row["message"], json.loads(row["details_json"])),
        actual=row["actual"],
        stderr=row["stderr"],
        time_s=row["time_s"],
        cpu_s=row["cpu_s"],
        max_rss_kb=row["max_rss_kb"],
        exit_code=row["exit_code"],
        signal=row["signal"],
        isolation=row["isolation"],
        time_limit_s=row["time_limit_s"],
    )


def grade_submission(task: GradeTask, emit: Emit) -> None:
    """Build (repository mode) and grade one submission; every outcome goes through `emit`.

    Messages, in order: ("build", ...) in repository mode, ("result", ..., row) per case
    not in `task.skip_case_ids` (and in `task.case_ids` if given), ("checks", ..., [check
    dicts]) in repository mode, and ("finished", ..., {"grading_s"[, "part"]}).  It is idempotent: running it twice sends the same
    results, which the store keeps once.
    """
    from harness.grading import grade_case_confirmed
    from harness.jail import JailError
    from harness.policy import JailRefused, choose_jail

    started = time.monotonic()
    name, key, settings = task.name, task.submission_hash, task.settings
    cases = suite_cases(settings.suite, settings.seed)
    if cases_digest(cases) != task.cases_digest:
        raise RuntimeError(f"this worker generates different cases for suite {settings.suite!r} "
                           "(is the same fillit-moulinette version installed everywhere?)")
    try:
        jail, _ = choose_jail(settings.isolation, "cohort", settings.unsafe_no_jail)
    except JailRefused as refused:
        raise JailError(f"on this worker: {refused}") from None
    wanted = [case for case in cases if case.id not in task.skip_case_ids
              and (task.case_ids is None or case.id in task.case_ids)]
    budget_end = started + settings.budget_s * len(wanted) / max(1, len(cases))
    with contextlib.ExitStack() as stack:
        build = workspace = None
        if task.kind == REPOSITORY:
            from harness.project import Workspace, build_repository

            workspace = stack.enter_context(Workspace.create(jail))
            build = build_repository(Path(task.path), workspace, lenient=settings.lenient_build,
                                     timeout_s=settings.build_timeout_s)
            emit(("build", name, key, build.summary()))
            if not build.ok or build.binary is None:
                emit(("finished", name, key, {"grading_s": time.monotonic() - started}))
                return
            program = build.binary
        else:
            program = Path(task.path).resolve()
        for case in wanted:
            if time.monotonic() > budget_end:
                result = over_budget(case, settings.budget_s, jail.mode)
            else:
                result = grade_case_confirmed(program, case, Limits(), jail, settings.strict, settings.timeout)
            if not result.verdict.graded:  # the jail failed: the submission is an error, rerun resumes
                raise JailError(f"case {case.id}: {result.verdict.message}")
            emit(("result", name, key, result_row(result)))
        if build is not None and workspace is not None and settings.project_checks:
            from harness.project import leak_check_inputs, project_checks

            checks = project_checks(build, workspace, sample_inputs=leak_check_inputs(cases))
            emit(("checks", name, key, [dataclasses.asdict(check) for check in checks]))
    done: dict[str, Any] = {"grading_s": time.monotonic() - started}
    if task.part is not None:
        done["part"] = task.part
    emit(("finished", name, key, done))


def over_budget(case: Case, budget_s: float, isolation: str) -> CaseResult:
    return CaseResult(case=case, verdict=Verdict("TIMEOUT", "budget", f"not run: the submission used up its time "
                                                                      f"budget of {budget_s:g} s"),
                      actual="", stderr="", time_s=0.0, cpu_s=0.0, max_rss_kb=0, exit_code=None, signal=None,
                      isolation=isolation, time_limit_s=0.0)


def grade_submission_safely(task: GradeTask, emit: Emit) -> None:
    """`grade_submission`, turning the harness's own failure into an ("error", ...) message."""
    try:
        grade_submission(task, emit)
    except Exception as error:  # reported per submission; the rest of the cohort goes on
        last = traceback.format_exception_only(type(error), error)[-1].strip()
        emit(("error", task.name, task.submission_hash, last))


_worker_queue: Any = None


def _init_worker(message_queue: Any) -> None:
    global _worker_queue
    _worker_queue = message_queue
    # Ctrl-C reaches the whole process group: the parent decides (it stops the workers).
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _local_task(task: GradeTask) -> str:
    grade_submission_safely(task, _worker_queue.put)
    return task.name


# --------------------------------------------------------------------------- parent side


@dataclass
class BatchOptions:
    out: Path
    db: Path | None = None  # default <out>/results.sqlite
    jobs: int = 2
    settings: GradeSettings = field(default_factory=GradeSettings)
    scheduler: str | None = None  # tcp://host:port: grade on Dask workers
    chunk_cases: int = CHUNK_CASES  # an executable's cases are graded in tasks of about this many (0: whole)


@dataclass
class BatchSummary:
    submissions: int = 0
    graded: int = 0  # finished in this run (build failures included)
    skipped: int = 0  # unchanged and already finished
    resumed: int = 0  # of the graded ones, how many kept results from an interrupted run
    build_failed: int = 0
    errors: list[str] = field(default_factory=list)
    ignored: list[str] = field(default_factory=list)
    index: Path | None = None
    csv: Path | None = None
    integrity: str = ""

    def line(self) -> str:
        parts = [f"{self.graded} graded", f"{self.skipped} skipped"]
        if self.resumed:
            parts.append(f"{self.resumed} resumed")
        if self.build_failed:
            parts.append(f"{self.build_failed} build failed")
        parts.append(f"{len(self.errors)} errors")
        return f"{self.submissions} submissions: " + ", ".join(parts)


class BatchError(Exception):
    """The batch cannot run at all (bad folder, unusable database, unreachable scheduler)."""


class _Parent:
    """Receives worker messages, writes the store, finalizes submissions."""

    def __init__(self, store: Store, out: Path, settings: GradeSettings, cases: Sequence[Case],
                 summary: BatchSummary, echo: Echo, total: int) -> None:
        self.store, self.out, self.settings, self.cases = store, out, settings, list(cases)
        self.by_id = {case.id: case for case in self.cases}
        self.summary, self.echo, self.total = summary, echo, total
        self.closed: set[str] = set()
        self.count = 0
        # Submissions graded in parts: the parts not finished yet, and the time the finished ones took.
        self.pending_parts: dict[str, set[int]] = {}
        self.parts_time: dict[str, float] = {}

    def expect(self, tasks: Sequence[GradeTask]) -> None:
        """Note the parts that must all report "finished" before their submission is finalized."""
        for task in tasks:
            if task.part is not None:
                self.pending_parts.setdefault(task.name, set()).add(task.part)

    def part_finished(self, name: str, key: str, payload: dict[str, Any]) -> None:
        pending = self.pending_parts.get(name)
        part = payload.get("part")
        if pending is None or part not in pending:
            return  # a duplicate of a part already counted (a Dask task run twice)
        pending.discard(part)
        self.parts_time[name] = self.parts_time.get(name, 0.0) + payload.get("grading_s", 0.0)
        if not pending:
            del self.pending_parts[name]
            self.finalize(name, key, self.parts_time.pop(name))

    def handle(self, message: Message) -> None:
        kind, name, key, payload = message
        if name in self.closed:
            return  # a duplicate (a Dask task run twice): already final
        try:
            if kind == "build":
                self.store.record_build(name, key, payload)
            elif kind == "result":
                self.store.record_results(name, key, [payload])
            elif kind == "results":
                self.store.record_results(name, key, payload)
            elif kind == "checks":
                self.store.record_checks(name, key, payload)
            elif kind == "finished" and "part" in payload:
                self.part_finished(name, key, payload)
            elif kind == "finished":
                self.finalize(name, key, payload.get("grading_s", 0.0))
            elif kind == "error":
                self.fail(name, key, str(payload))
            else:
                raise ValueError(f"unknown message {kind!r}")
        except StaleResult as stale:
            self.echo(f"warning: ignored {stale}")

    def fail(self, name: str, key: str, message: str) -> None:
        self.closed.add(name)
        self.store.mark_error(name, key, message)
        self.summary.errors.append(f"{name}: {message}")
        self.count += 1
        self.echo(f"[{self.count}/{self.total}] {name}: ERROR: {message}")

    def finalize(self, name: str, key: str, grading_s: float) -> None:
        row = self.store.submission(name)
        if row is None or row.submission_hash != key:
            return
        report = self.report(name)
        if row.build_ok is False:
            status = BUILD_FAILED
        else:
            stored = self.store.case_ids(name)
            missing = [c.id for c in self.cases if c.id not in stored]
            if missing:
                self.fail(name, key, f"{len(missing)} cases have no result (first: {missing[0]})")
                return
            status = DONE
        report.duration_s = round(row.grading_s + grading_s, 3)
        directory = self.out / name
        directory.mkdir(parents=True, exist_ok=True)
        write_submission_reports(report, directory, row.build)
        counts = {v: 0 for v in VERDICTS}
        for result in report.results:
            counts[result.verdict.verdict] = counts.get(result.verdict.verdict, 0) + 1
        first = report.first_failure_line or ("" if status == DONE else f"build failed: {row.build['message']}")
        self.store.finish(name, key, status=status, score=report.score, passed=report.passed,
                          failed=report.failed, counts=counts, first_failure=first,
                          run_time_s=round(sum(r.time_s for r in report.results), 3), grading_s=grading_s,
                          isolation=report.isolation or None, keep_case_ids=self.by_id)
        self.closed.add(name)
        self.summary.graded += 1
        self.count += 1
        if status == BUILD_FAILED:
            self.summary.build_failed += 1
            self.echo(f"[{self.count}/{self.total}] {name}: build failed: {row.build['message']}")
        else:
            self.echo(f"[{self.count}/{self.total}] {name}: score {report.score:g}/100 "
                      f"({report.passed} passed, {report.failed} failed)")

    def report(self, name: str) -> GradeReport:
        """The submission's GradeReport, rebuilt from the store."""
        from harness.scoring import first_failure_line, score
        from harness.suites import DEFAULT_CPU_S, suite_seed

        row = self.store.submission(name)
        assert row is not None
        stored = self.store.results(name)
        results = [case_result(case, stored[case.id]) for case in self.cases if case.id in stored]
        settings = self.settings
        checks = [ProjectCheck(c["name"], c["status"], c["message"]) for c in (row.checks or [])]
        build = {} if row.build is None else {k: row.build[k] for k in ("command", "lenient", "message", "log",
                                                                     "left_out") if k in row.build}
        return GradeReport(
            target=name,
            suite=settings.suite,
            seed=suite_seed(settings.seed),
            profile="strict" if settings.strict else "default",
            limits=dataclasses.replace(Limits(), wall_s=settings.timeout or DEFAULT_CPU_S),
            isolation=results[0].isolation if results else "",
            results=results,
            checks=checks,
            started_at=datetime.now(timezone.utc).isoformat(timespec="seconds"),
            duration_s=row.grading_s,
            build=build,
            score=score(results, strict=settings.strict) if results else 0.0,
            first_failure_line=first_failure_line(results),
        )


def write_submission_reports(report: GradeReport, directory: Path, build: dict[str, Any] | None) -> None:
    from reports.html import write_html
    from reports.json_report import write_json

    write_json(report, directory / "report.json")
    write_html(report, directory / "report.html")
    if build is not None:
        (directory / "build.log").write_text(build.get("log", ""), encoding="utf-8")


def _inside_the_jails_view(*paths: Path) -> str:
    """Why a path the batch reads or writes would be visible inside every jail (the
    system folders are bound read-only), or "" when none is."""
    from harness.jail.bwrap import SYSTEM_DIRS

    for path in paths:
        real = os.path.realpath(path)
        folder = next((d for d in SYSTEM_DIRS if real == d or real.startswith(d + "/")), None)
        if folder is not None:
            return (f"{path} is inside {folder}, which every jail sees: put the submissions, the output "
                    "folder and the database elsewhere")
    return ""


def run_batch(folder: Path, options: BatchOptions, echo: Echo = print) -> BatchSummary:
    """Grade every submission of `folder`; see the module docstring."""
    if not folder.is_dir():
        raise BatchError(f"submissions folder {folder} does not exist or is not a folder")
    out = options.out
    db_path = options.db or out / "results.sqlite"
    settings = options.settings
    visible = _inside_the_jails_view(folder, out, db_path)
    if visible:
        raise BatchError(visible)
    if options.scheduler is None:  # (on Dask, each worker checks its own jail)
        from harness.policy import JailRefused, choose_jail

        try:
            jail, warning = choose_jail(settings.isolation, "cohort", settings.unsafe_no_jail)
        except JailRefused as refused:
            raise BatchError(str(refused)) from None
        if warning:
            echo(warning)
    out.mkdir(mode=0o700, parents=True, exist_ok=True)
    os.chmod(out, 0o700)  # the answers are in there: private (docs/SECURITY.md, "Outputs")
    try:
        cases = list(suite_cases(settings.suite, settings.seed))
    except KeyError:
        raise BatchError(f"unknown suite {settings.suite!r}") from None
    digest = cases_digest(cases)
    config = config_key(settings, cases)
    submissions, ignored = discover(folder, exclude=[out, db_path])
    summary = BatchSummary(submissions=len(submissions), ignored=ignored)
    for line in ignored:
        echo(f"ignored {line}")
    store = Store(db_path)
    try:
        todo: list[list[GradeTask]] = []  # per submission: its task, or the parts of its cases
        parent = _Parent(store, out, settings, cases, summary, echo, len(submissions))
        for sub in submissions:
            if store.is_current(sub.name, sub.submission_hash, config):
                summary.skipped += 1
                continue
            done = store.begin(sub.name, sub.submission_hash, config, sub.kind, len(cases))
            done &= parent.by_id.keys()
            if done:
                summary.resumed += 1
            row = store.submission(sub.name)
            needs_checks = sub.kind == REPOSITORY and settings.project_checks
            if len(done) == len(cases) and (not needs_checks or row.checks is not None):
                parent.handle(("finished", sub.name, sub.submission_hash, {"grading_s": 0.0}))
                continue
            task = GradeTask(sub.name, sub.kind, str(sub.path.resolve()), sub.submission_hash, settings,
                             digest, frozenset(done))
            todo.append(chunk_task(task, [case.id for case in cases], options.chunk_cases))
        if summary.skipped:
            echo(f"{summary.skipped} unchanged submissions already graded: skipped")
        if todo:
            # Chunks of neighbouring submissions interleave, so that the last tasks of the run
            # are short parts rather than one long submission keeping a single worker busy.
            tasks = interleave(todo, window=2 * max(1, options.jobs) if not options.scheduler else 8)
            parent.expect(tasks)
            if options.scheduler:
                from harness.dask_backend import run_dask

                run_dask(options.scheduler, tasks, parent.handle, echo)
            else:
                _run_local(tasks, options.jobs, parent)
        from reports.cohort import cohort_rows, write_cohort

        rows = cohort_rows([store.submission(s.name) for s in submissions], out)
        summary.index, summary.csv = write_cohort(rows, out, title=f"{folder.name}: {settings.suite} suite")
        summary.integrity = store.integrity_check()
    finally:
        store.close()
    return summary


def _run_local(tasks: Sequence[GradeTask], jobs: int, parent: _Parent, poll_s: float = 0.2) -> None:
    """Grade `tasks` on `jobs` worker processes; results come back through one queue."""
    context = multiprocessing.get_context("spawn")
    messages = context.Queue()
    open_names = {task.name for task in tasks}
    pool = ProcessPoolExecutor(max_workers=max(1, min(jobs, len(tasks))), mp_context=context,
                               initializer=_init_worker, initargs=(messages,))
    try:
        futures: dict[Future, GradeTask] = {pool.submit(_local_task, task): task for task in tasks}
        broken_since: dict[str, float] = {}
        while open_names:
            try:
                parent.handle(messages.get(timeout=poll_s))
            except queue_module.Empty:
                pass
            open_names -= parent.closed
            # A worker that died without a word (killed, out of memory): its task's
            # future fails; give the queue a moment to deliver what it did send.
            now = time.monotonic()
            for future, task in futures.items():
                if task.name in open_names and future.done() and future.exception() is not None:
                    since = broken_since.setdefault(task.name, now)
                    if now - since > 2.0:
                        error = future.exception()
                        parent.fail(task.name, task.submission_hash,
                                    f"worker process died: {type(error).__name__}: {error}")
                        open_names.discard(task.name)
    except BaseException:
        # Interrupted (Ctrl-C) or the store failed: stop the workers now; what is stored
        # stays stored, and rerunning the command resumes.
        workers = list((getattr(pool, "_processes", None) or {}).values())
        pool.shutdown(wait=False, cancel_futures=True)
        for process in workers:
            process.terminate()
        for process in workers:
            process.join(timeout=5)
        raise
    else:
        pool.shutdown(wait=True)
    finally:
        messages.close()
