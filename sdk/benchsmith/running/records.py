"""Run records: one SQLite file, ``<runs>/runs.db``, plus a folder per run.

Tables: ``runs`` (one row per run, reserved as ``pending`` before it starts so concurrent
invocations never share a repeat number), ``stages``, ``events`` (the whole timeline),
``usage`` (a measure column per usage-event metric of :class:`~benchsmith.running.metrics.Usage`),
``compactions``, ``verdicts`` (the final, scored verdict), ``stage_verdicts`` (the verdict
on the state after each stage but the last: ``judge.py --stage N``) and ``diagnostics``.
``PRAGMA user_version`` holds the schema version. Only the parent process writes; several
invocations may append to one database (writes are short transactions behind SQLite's lock,
with a busy timeout).
"""

from __future__ import annotations

import contextlib
import json
import re
import sqlite3
from collections.abc import Iterator
from pathlib import Path

from benchsmith._version import __version__
from benchsmith.diagnostics import Diagnostic, display_path
from benchsmith.errors import BenchsmithError, UsageError
from benchsmith.running.data import Entry, Kind, RunOutcome, RunPlan, TaskInfo
from benchsmith.running.metrics import event_values, final_response_tokens, usage_columns
from benchsmith.runtime.run import agent_settings, json_text, owner_alive, printable, write_json

DB_NAME = "runs.db"
SCHEMA_VERSION = 1
ARM_PATTERN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$")

DDL = """
CREATE TABLE runs (
    run_id TEXT PRIMARY KEY,
    arm TEXT NOT NULL,
    task TEXT NOT NULL,
    task_id INTEGER NOT NULL,
    slug TEXT NOT NULL,
    pressure TEXT NOT NULL,
    stage_count INTEGER NOT NULL,
    repeat INTEGER NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('primary', 'diagnostic')),
    adapter TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('pending', 'finished', 'interrupted')),
    end_reason TEXT,
    end_detail TEXT,
    timeout_seconds REAL NOT NULL,
    timeout_overridden INTEGER NOT NULL,
    task_digest TEXT NOT NULL,
    python TEXT NOT NULL,
    benchsmith_version TEXT NOT NULL,
    invocation TEXT NOT NULL,
    started_at TEXT,
    setup_seconds REAL,
    agent_seconds REAL,
    inject_seconds REAL,
    lifecycle_seconds REAL,
    judge_seconds REAL,
    record_seconds REAL,
    final_response_tokens INTEGER,
    artifacts TEXT NOT NULL,
    sealed INTEGER,
    UNIQUE (arm, task, kind, repeat)
);
CREATE TABLE stages (
    run_id TEXT NOT NULL REFERENCES runs (run_id),
    number INTEGER NOT NULL,
    stage_id TEXT NOT NULL,
    compact_after INTEGER NOT NULL,
    inject_seconds REAL NOT NULL,
    outcome TEXT NOT NULL,
    detail TEXT NOT NULL,
    exit_code INTEGER,
    started REAL,
    seconds REAL,
    done_seen INTEGER NOT NULL,
    PRIMARY KEY (run_id, number)
);
CREATE TABLE events (
    run_id TEXT NOT NULL REFERENCES runs (run_id),
    seq INTEGER NOT NULL,
    t REAL NOT NULL,
    stage INTEGER NOT NULL,
    action TEXT NOT NULL,
    action_no INTEGER NOT NULL,
    source TEXT NOT NULL,
    type TEXT NOT NULL,
    result_bytes INTEGER,
    payload TEXT NOT NULL,
    PRIMARY KEY (run_id, seq)
);
CREATE TABLE compactions (
    run_id TEXT NOT NULL REFERENCES runs (run_id),
    number INTEGER NOT NULL,
    after_stage INTEGER NOT NULL,
    trigger TEXT NOT NULL CHECK (trigger IN ('requested', 'natural')),
    status TEXT NOT NULL CHECK (status IN ('completed', 'failed')),
    started REAL,
    seconds REAL,
    detail TEXT NOT NULL,
    PRIMARY KEY (run_id, number)
);
CREATE TABLE verdicts (
    run_id TEXT PRIMARY KEY REFERENCES runs (run_id),
    status TEXT NOT NULL,
    progress_level INTEGER NOT NULL,
    main_checks_passed INTEGER NOT NULL,
    main_checks_total INTEGER NOT NULL,
    edge_check_passed INTEGER NOT NULL,
    notes TEXT NOT NULL,
    raw TEXT,
    exit_code INTEGER,
    seconds REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS stage_verdicts (
    run_id TEXT NOT NULL REFERENCES runs (run_id),
    stage INTEGER NOT NULL,
    stage_id TEXT NOT NULL,
    snapshot_seconds REAL NOT NULL,
    problem TEXT NOT NULL,
    status TEXT,
    progress_level INTEGER,
    main_checks_passed INTEGER,
    main_checks_total INTEGER,
    edge_check_passed INTEGER,
    notes TEXT,
    raw TEXT,
    exit_code INTEGER,
    seconds REAL,
    PRIMARY KEY (run_id, stage)
);
CREATE TABLE diagnostics (
    run_id TEXT NOT NULL REFERENCES runs (run_id),
    number INTEGER NOT NULL,
    stage INTEGER NOT NULL,
    action TEXT NOT NULL,
    action_no INTEGER NOT NULL,
    line INTEGER NOT NULL,
    code TEXT NOT NULL,
    message TEXT NOT NULL,
    text TEXT NOT NULL,
    PRIMARY KEY (run_id, number)
);
"""

USAGE_KEYS = ("run_id", "seq", "stage", "model", "kind")
"""The ``usage`` table's columns before the measures of :func:`metrics.usage_columns`."""


def usage_ddl() -> str:
    """``CREATE TABLE usage``: one row per usage event, a column per reported metric."""
    measures = "".join(f"    {c.key} {c.sql},\n" for c in usage_columns())
    return (
        "CREATE TABLE usage (\n"
        "    run_id TEXT NOT NULL REFERENCES runs (run_id),\n"
        "    seq INTEGER NOT NULL,\n"
        "    stage INTEGER NOT NULL,\n"
        "    model TEXT NOT NULL,\n"
        "    kind TEXT NOT NULL,\n"
        f"{measures}"
        "    PRIMARY KEY (run_id, seq)\n"
        ");\n"
    )


def _usage_names() -> list[str]:
    return [*USAGE_KEYS, *(c.key for c in usage_columns())]


ADDED_TABLES = DDL[DDL.index("CREATE TABLE IF NOT EXISTS stage_verdicts") :].split(";")[0]
"""``stage_verdicts``, which databases created before it existed gain on opening."""

DETAIL_TABLES = (
    "stages",
    "events",
    "usage",
    "compactions",
    "verdicts",
    "stage_verdicts",
    "diagnostics",
)


class RecordsError(BenchsmithError):
    """Raised when a runs folder or its database cannot be used."""


def check_arm(arm: str) -> str:
    """Return ``arm`` when it is a valid arm name.

    Raises:
        UsageError: When it is not 1-64 letters, digits, ``.``, ``_`` or ``-``.
    """
    if not ARM_PATTERN.match(arm):
        raise UsageError(f"--arm {arm!r}: use 1-64 letters, digits, '.', '_' or '-'")
    return arm


def run_id_for(arm: str, task: str, kind: Kind, repeat: int) -> str:
    """The run id (and folder name): ``ARM--NN-slug--r001`` (``d001`` for diagnostics)."""
    return f"{arm}--{task}--{'r' if kind == 'primary' else 'd'}{repeat:03d}"


def connect(path: Path) -> sqlite3.Connection:
    """Open a runs database, creating or checking its schema.

    Raises:
        RecordsError: When the file is not a runs database of a version this code reads.
    """
    try:
        conn = sqlite3.connect(path, timeout=60.0, isolation_level=None)
        conn.row_factory = sqlite3.Row
        conn.execute("PRAGMA foreign_keys = ON")
        _ensure_schema(conn, path)
        _ensure_sealed_column(conn)
    except sqlite3.OperationalError as exc:
        raise RecordsWriteError(
            f"{display_path(path)}: cannot open the runs database ({exc})",
            [Diagnostic(display_path(path), 1, 1, "BS001", str(exc))],
        ) from exc
    except sqlite3.DatabaseError as exc:
        raise RecordsError(f"{display_path(path)}: not a usable runs database ({exc})") from exc
    return conn


# Issue 9 (sealing): whether candidates ran in the sandbox (1) or --unsealed (0); NULL for runs
# recorded before the column existed, which databases of schema version 1 gain on opening.
def _ensure_sealed_column(conn: sqlite3.Connection) -> None:
    columns = {row["name"] for row in conn.execute("PRAGMA table_info(runs)")}
    for name, sql in ADDED_COLUMNS:
        if name not in columns:
            conn.execute(f"ALTER TABLE runs ADD COLUMN {name} {sql}")
    if not conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'stage_verdicts'").fetchone():
        conn.execute(ADDED_TABLES)


ADDED_COLUMNS = (
    ("sealed", "INTEGER"),
    ("owner", "TEXT"),
    ("network", "TEXT"),
    ("stage_judging", "TEXT"),
    ("stage_judge_seconds", "REAL"),
    ("settings", "TEXT"),
)
"""Columns of ``runs`` added after schema version 1 (NULL for older rows): whether agents and
candidates ran sealed; the temporary folder of the invocation running a pending row (its lock
says whether that invocation still lives); the sealed agents' network, ``host`` or ``none``;
whether each stage was judged (``on``, ``single_stage``, ``unsupported``) and how long the
per-stage judgings took; the agent settings its adapter reported (``settings`` events merged,
JSON). Tables added since (``stage_verdicts``) are created on opening."""


def _ensure_schema(conn: sqlite3.Connection, path: Path) -> None:
    if _version(conn) == SCHEMA_VERSION:
        return
    with transaction(conn):
        version = _version(conn)
        empty = not conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table'").fetchone()
        if version == 0 and empty:
            for statement in (DDL + usage_ddl()).split(";"):
                if statement.strip():
                    conn.execute(statement)
            conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            return
    if version != SCHEMA_VERSION:
        raise RecordsError(
            f"{display_path(path)}: runs database schema version {version}, "
            f"this benchsmith reads version {SCHEMA_VERSION}"
        )


def _version(conn: sqlite3.Connection) -> int:
    return int(conn.execute("PRAGMA user_version").fetchone()[0])


class RecordsWriteError(RecordsError):
    """Raised when the runs database cannot be written: a full disk, a read-only file system
    or missing permissions (exit 3: the environment failed, not the task)."""

    exit_code = 3


@contextlib.contextmanager
def transaction(conn: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """An immediate (write-locking) transaction, rolled back on error.

    SQLite rolls back by itself when the disk fills; the rollback here then has nothing to
    undo and is skipped, so the error raised is the real one.

    Raises:
        RecordsWriteError: When SQLite cannot write (``database or disk is full``, a
            read-only database, an I/O error); nothing of the transaction was written.
    """
    try:
        conn.execute("BEGIN IMMEDIATE")
        try:
            yield conn
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                with contextlib.suppress(sqlite3.Error):
                    conn.execute("ROLLBACK")
            raise
    except sqlite3.OperationalError as exc:
        raise write_error(conn, exc) from exc


def write_error(conn: sqlite3.Connection, exc: sqlite3.Error) -> RecordsWriteError:
    """The user-facing error of a failed write to ``conn``'s database."""
    name = ""
    with contextlib.suppress(sqlite3.Error):
        name = str(conn.execute("PRAGMA database_list").fetchone()[2])
    where = display_path(name) if name else "the runs database"
    hint = "a read-only file or file system" if "readonly" in str(exc) else "free some space"
    return RecordsWriteError(
        f"cannot write {where}: {exc} ({hint}, or choose another --runs; "
        "nothing of this write was recorded)",
        [Diagnostic(where, 1, 1, "BS001", str(exc))],
    )


def open_runs(runs_dir: Path, *, create: bool) -> sqlite3.Connection:
    """Open ``runs_dir/runs.db`` (creating the folder and database when ``create``).

    Raises:
        RecordsError: When the database is missing (and not ``create``) or unusable.
    """
    path = runs_dir / DB_NAME
    if not create and not path.is_file():
        raise RecordsError(f"{display_path(path)}: no runs database here; run benchsmith run")
    runs_dir.mkdir(parents=True, exist_ok=True)
    return connect(path)


def recorded_adapter(conn: sqlite3.Connection, arm: str) -> str | None:
    """The adapter an arm was recorded with, if it has runs."""
    row = conn.execute("SELECT adapter FROM runs WHERE arm = ? LIMIT 1", (arm,)).fetchone()
    return None if row is None else str(row["adapter"])


def next_repeat(conn: sqlite3.Connection, arm: str, task: str, kind: Kind) -> int:
    """The next free repeat number of (arm, task, kind)."""
    row = conn.execute(
        "SELECT max(repeat) FROM runs WHERE arm = ? AND task = ? AND kind = ?", (arm, task, kind)
    ).fetchone()
    return int(row[0] or 0) + 1


def insert_pending(
    conn: sqlite3.Connection, plan: RunPlan, invocation: str, owner: str = ""
) -> None:
    """Reserve a planned run's row (status ``pending``), owned by the invocation's ``owner``
    folder (see :func:`reap_stale`)."""
    task: TaskInfo = plan.task
    conn.execute(
        """INSERT INTO runs (run_id, arm, task, task_id, slug, pressure, stage_count, repeat,
            kind, adapter, status, timeout_seconds, timeout_overridden, task_digest, python,
            benchsmith_version, invocation, artifacts, sealed, owner, network)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'pending', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""",
        (
            plan.run_id, plan.arm, task.dirname, task.id, task.slug, task.pressure,
            len(task.stages), plan.repeat, plan.kind, plan.adapter, plan.timeout_seconds,
            int(plan.timeout_overridden), task.digest, plan.python, __version__, invocation,
            plan.run_id, int(plan.sealed), owner or None, "host" if plan.network else "none",
        ),
    )  # fmt: skip


KILLED = "its invocation ended before the run did (killed, or unable to record it)"


def reap_stale(conn: sqlite3.Connection, runs_dir: Path) -> list[str]:
    """Mark ``interrupted`` the pending runs whose invocation died (``kill -9``, a full disk
    that kept even that mark from being written): its owner folder's lock is free.

    A run.json such a run left is rewritten first (atomically), then the row, so the two
    never disagree for longer than until the next reap.
    """
    rows = conn.execute("SELECT run_id, owner FROM runs WHERE status = 'pending'").fetchall()
    stale = [r["run_id"] for r in rows if r["owner"] and not owner_alive(Path(r["owner"]))]
    for run_id in stale:
        record = runs_dir / run_id / "run.json"
        with contextlib.suppress(OSError, ValueError):
            data = json.loads(record.read_text(encoding="utf-8"))
            data.update(end_reason="interrupted", end_detail=KILLED)
            write_json(record, data)
    if stale:
        mark_interrupted(conn, stale, KILLED)
    return stale


def mark_interrupted(conn: sqlite3.Connection, run_ids: list[str], detail: str = "") -> None:
    """Mark reserved runs that never finished as interrupted, saying why (``detail``)."""
    with transaction(conn):
        conn.executemany(
            "UPDATE runs SET status = 'interrupted', end_reason = 'interrupted', "
            "end_detail = ? WHERE run_id = ? AND status = 'pending'",
            [(detail or None, r) for r in run_ids],
        )


def store_outcome(conn: sqlite3.Connection, outcome: RunOutcome) -> None:
    """Write a finished run: its row and every detail table, in one transaction."""
    with transaction(conn):
        for table in DETAIL_TABLES:
            conn.execute(f"DELETE FROM {table} WHERE run_id = ?", (outcome.run_id,))
        _update_run(conn, outcome)
        _insert_stages(conn, outcome)
        _insert_events(conn, outcome)
        _insert_compactions(conn, outcome)
        _insert_verdict(conn, outcome)
        _insert_stage_verdicts(conn, outcome)
        _insert_diagnostics(conn, outcome)


def _update_run(conn: sqlite3.Connection, outcome: RunOutcome) -> None:
    times = outcome.times
    events = [e.event for e in outcome.timeline if e.source == "adapter"]
    conn.execute(
        """UPDATE runs SET status = 'finished', end_reason = ?, end_detail = ?, started_at = ?,
            setup_seconds = ?, agent_seconds = ?, inject_seconds = ?, lifecycle_seconds = ?,
            judge_seconds = ?, record_seconds = ?, final_response_tokens = ?,
            stage_judging = ?, stage_judge_seconds = ?, settings = ?
        WHERE run_id = ?""",
        (
            outcome.end_reason, outcome.end_detail, outcome.started_at, times.setup,
            times.agent, times.inject, times.lifecycle, times.judge, times.record,
            final_response_tokens(events), outcome.plan.task.stage_judging, times.stage_judge,
            json_text(agent_settings(events), sort_keys=True), outcome.run_id,
        ),
    )  # fmt: skip


def _insert_stages(conn: sqlite3.Connection, outcome: RunOutcome) -> None:
    rows = []
    for stage in outcome.stages:
        result = stage.result
        rows.append(
            (
                outcome.run_id, stage.number, stage.stage_id, int(stage.compact_after),
                stage.inject_seconds, result.outcome if result else "not_reached",
                result.detail if result else "", result.exit_code if result else None,
                result.started if result else None, result.seconds if result else None,
                int(result.has("done")) if result else 0,
            )
        )  # fmt: skip
    conn.executemany("INSERT INTO stages VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)


def _insert_events(conn: sqlite3.Connection, outcome: RunOutcome) -> None:
    conn.executemany(
        "INSERT INTO events VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [_event_row(outcome.run_id, e) for e in outcome.timeline],
    )
    insert_usage(
        conn,
        outcome.run_id,
        [e for e in outcome.timeline if e.source == "adapter" and e.event["type"] == "usage"],
    )


def _event_row(run_id: str, entry: Entry) -> tuple[object, ...]:
    event = entry.event
    size = event.get("result_bytes") if event["type"] == "tool_call" else None
    payload = json_text(event, sort_keys=True)
    return (
        run_id, entry.seq, entry.t, entry.stage, entry.action, entry.action_no, entry.source,
        event["type"], size, payload,
    )  # fmt: skip


def insert_usage(conn: sqlite3.Connection, run_id: str, entries: list[Entry]) -> None:
    """Store a run's usage events, one ``usage`` row each."""
    names = _usage_names()
    conn.executemany(
        f"INSERT INTO usage ({', '.join(names)}) VALUES ({', '.join('?' * len(names))})",
        [
            (run_id, e.seq, e.stage, e.event["model"], e.event["kind"], *event_values(e.event))
            for e in entries
        ],
    )


def usage_rows(conn: sqlite3.Connection) -> Iterator[sqlite3.Row]:
    """Every ``usage`` row (keys and measures by column name), in run and event order."""
    return conn.execute(f"SELECT {', '.join(_usage_names())} FROM usage ORDER BY run_id, seq")


def _insert_compactions(conn: sqlite3.Connection, outcome: RunOutcome) -> None:
    conn.executemany(
        "INSERT INTO compactions VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        [
            (outcome.run_id, c.number, c.after_stage, c.trigger, c.status, c.started, c.seconds,
             c.detail)
            for c in outcome.compactions
        ],
    )  # fmt: skip


def _insert_verdict(conn: sqlite3.Connection, outcome: RunOutcome) -> None:
    verdict = outcome.verdict
    if verdict is None:
        return
    conn.execute(
        "INSERT INTO verdicts VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            outcome.run_id, verdict.status, verdict.progress_level, verdict.main_checks_passed,
            verdict.main_checks_total, int(verdict.edge_check_passed),
            json_text(list(verdict.notes)),
            json_text(verdict.raw, sort_keys=True) if verdict.raw else None,
            verdict.exit_code, verdict.seconds,
        ),
    )  # fmt: skip


def _insert_stage_verdicts(conn: sqlite3.Connection, outcome: RunOutcome) -> None:
    rows = []
    for taken in outcome.stage_verdicts:
        verdict = taken.verdict
        judged: tuple[object, ...] = (None,) * 9
        if verdict is not None:
            judged = (
                verdict.status, verdict.progress_level, verdict.main_checks_passed,
                verdict.main_checks_total, int(verdict.edge_check_passed),
                json_text(list(verdict.notes)),
                json_text(verdict.raw, sort_keys=True)
                if verdict.raw else None,
                verdict.exit_code, verdict.seconds,
            )  # fmt: skip
        rows.append(
            (outcome.run_id, taken.stage, taken.stage_id, taken.snapshot_seconds, taken.problem,
             *judged)
        )  # fmt: skip
    conn.executemany(f"INSERT INTO stage_verdicts VALUES ({', '.join('?' * 14)})", rows)


def _insert_diagnostics(conn: sqlite3.Connection, outcome: RunOutcome) -> None:
    """Store the diagnostics (:func:`~benchsmith.runtime.run.printable`: a file name that is
    not UTF-8 is stored with its bytes escaped)."""
    conn.executemany(
        "INSERT INTO diagnostics VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [
            (outcome.run_id, n, d.stage, d.action, d.action_no, d.line, d.code,
             printable(d.message), printable(d.text))
            for n, d in enumerate(outcome.diagnostics, 1)
        ],
    )  # fmt: skip
