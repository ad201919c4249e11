"""What a run page of the HTML report shows, read from a runs folder (issue 34).

A run's page needs more than its :class:`~benchsmith.running.report.RunMetrics`: the published
record (``<runs>/<run id>/run.json``: stages, per-stage verdicts, compactions with the tokens
the adapter reported, the judge's checks and notes, times, artifacts), the messages it was
sent and its tool calls (the ``events`` table of runs.db), and which of its kept files exist.
:func:`load_details` reads them once; rendering (:mod:`benchsmith.running.report_html`) is a pure
function of the result.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchsmith.running.records import DB_NAME

FILES = (
    ("transcript", "transcript.md"),
    ("events", "events.jsonl"),
    ("record", "run.json"),
    ("agent transcripts", "actions/transcripts"),
    ("actions", "actions"),
    ("final workspace", "workspace.tar.gz"),
    ("judge output", "judge.stdout"),
    ("judge errors", "judge.stderr"),
)
"""The kept files a run page links to, by label and path inside the run's folder."""


@dataclass(frozen=True, slots=True)
class Message:
    """A message sent to the agent: its stage number, stage id and text."""

    stage: int
    stage_id: str
    text: str


@dataclass(frozen=True, slots=True)
class ToolCall:
    """One tool call the adapter reported: when, in which stage, its name and result size."""

    seq: int
    t: float
    stage: int
    name: str
    result_bytes: int


@dataclass(frozen=True, slots=True)
class RunDetail:
    """Everything a run page shows beyond the report's figures.

    Attributes:
        run_id: The run.
        record: Its run.json (``None`` when absent or unreadable: an unfinished run).
        messages: The user messages sent, in order.
        tools: The tool calls, in order.
        files: The kept files that exist, as (label, path inside the run folder).
        stage_stdout: The per-stage judge outputs kept (``judge-stageN.stdout``), sorted.
    """

    run_id: str
    record: dict[str, Any] | None
    messages: tuple[Message, ...] = ()
    tools: tuple[ToolCall, ...] = ()
    files: tuple[tuple[str, str], ...] = ()
    stage_stdout: tuple[str, ...] = ()


def load_details(runs_dir: Path, run_ids: Iterable[str]) -> dict[str, RunDetail]:
    """The :class:`RunDetail` of each of ``run_ids`` recorded in ``runs_dir``."""
    wanted = sorted(set(run_ids))
    if not wanted:
        return {}
    messages: dict[str, list[Message]] = {}
    tools: dict[str, list[ToolCall]] = {}
    # Read-only: the report never writes to the records (benchsmith.report opened them first).
    conn = sqlite3.connect(f"{(runs_dir / DB_NAME).resolve().as_uri()}?mode=ro", uri=True)
    conn.row_factory = sqlite3.Row
    try:
        marks = ", ".join("?" * len(wanted))
        rows = conn.execute(
            f"SELECT run_id, seq, t, stage, type, result_bytes, payload FROM events "
            f"WHERE run_id IN ({marks}) AND type IN ('user_message', 'tool_call') "
            "ORDER BY run_id, seq",
            wanted,
        ).fetchall()
    finally:
        conn.close()
    for row in rows:
        payload = _payload(row)
        if row["type"] == "user_message":
            messages.setdefault(row["run_id"], []).append(
                Message(row["stage"], str(payload.get("stage_id", "")), str(payload["text"]))
            )
        else:
            tools.setdefault(row["run_id"], []).append(
                ToolCall(row["seq"], row["t"], row["stage"], str(payload.get("name", "?")),
                         int(row["result_bytes"] or 0))
            )  # fmt: skip
    return {run_id: _detail(runs_dir / run_id, run_id, messages, tools) for run_id in wanted}


def _payload(row: sqlite3.Row) -> dict[str, Any]:
    try:
        value = json.loads(row["payload"])
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


def _detail(
    folder: Path,
    run_id: str,
    messages: dict[str, list[Message]],
    tools: dict[str, list[ToolCall]],
) -> RunDetail:
    record = None
    try:
        loaded = json.loads((folder / "run.json").read_text(encoding="utf-8"))
        record = loaded if isinstance(loaded, dict) else None
    except (OSError, ValueError):
        pass
    files = tuple((label, rel) for label, rel in FILES if (folder / rel).exists())
    stage_stdout = tuple(sorted(p.name for p in folder.glob("judge-stage*.stdout")))
    return RunDetail(
        run_id=run_id,
        record=record,
        messages=tuple(messages.get(run_id, ())),
        tools=tuple(tools.get(run_id, ())),
        files=files,
        stage_stdout=stage_stdout,
    )
