"""The example wrappers in examples/adapters/, driven by fake CLIs.

The fakes print genuine recorded streams of the real CLIs (tests/run/streams/, sources in
its SOURCES.md); these tests check the wrappers end to end through ``benchsmith run``: session
handling, transcripts, and what reaches run.json and the database. test_adapter_streams.py
replays every recording through the mappers against the streams' own totals.
"""

from __future__ import annotations

import json
import sqlite3
import sys
from pathlib import Path

import pytest

from tests.run.conftest import EXAMPLES, MULTI, batch

STREAMS = Path(__file__).parent / "streams"
"""Genuine recorded CLI streams (see streams/SOURCES.md)."""

FAKE_CLAUDE = """\
import json, os, sys
prompt = sys.stdin.read()
with open(sys.argv[0] + ".log", "a") as log:
    log.write(json.dumps(sys.argv[1:]) + "\\n")
stream = os.environ["FAKE_COMPACT" if prompt == "/compact" else "FAKE_MESSAGE"]
lines = open(stream, encoding="utf-8").read().splitlines()
session = next((json.loads(l)["session_id"] for l in lines if '"init"' in l), None)
if session:  # the session's own log, as Claude Code keeps it
    home = os.environ.get("CLAUDE_CONFIG_DIR") or os.path.join(os.environ["HOME"], ".claude")
    os.makedirs(os.path.join(home, "projects", "ws"), exist_ok=True)
    with open(os.path.join(home, "projects", "ws", session + ".jsonl"), "a") as log:
        log.write(json.dumps({"prompt": prompt}) + "\\n")
for line in lines:
    print(line, flush=True)
"""
"""A ``claude`` that prints a genuine recorded stream: FAKE_MESSAGE for a message,
FAKE_COMPACT for ``/compact``."""

FAKE_CODEX = """\
import json, os, sys
with open(sys.argv[0] + ".log", "a") as log:
    log.write(json.dumps(sys.argv[1:]) + "\\n")
stream = os.environ["FAKE_RESUME" if "resume" in sys.argv else "FAKE_FRESH"]
lines = open(stream, encoding="utf-8").read().splitlines()
thread = json.loads(lines[0])["thread_id"]
day = os.path.join(os.environ["CODEX_HOME"], "sessions", "2025", "01", "01")
os.makedirs(day, exist_ok=True)
with open(os.path.join(day, "rollout-2025-01-01T00-00-00-" + thread + ".jsonl"), "a") as log:
    log.write(json.dumps(sys.argv[-1]) + "\\n")
for line in lines:
    print(line, flush=True)
"""
"""A ``codex`` that prints a genuine recorded stream: FAKE_FRESH for a new thread,
FAKE_RESUME for ``exec resume``."""


def fake(tmp_path: Path, name: str, body: str) -> Path:
    script = tmp_path / name
    script.write_text(f"#!{sys.executable}\n{body}", encoding="utf-8")
    script.chmod(0o755)
    return script


def wrapper(name: str) -> str:
    return f"command:{sys.executable} {EXAMPLES / 'adapters' / name}"


def test_claude_code_wrapper_maps_stream_json(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cli = fake(tmp_path, "claude", FAKE_CLAUDE)
    monkeypatch.setenv("CLAUDE_BIN", str(cli))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("FAKE_MESSAGE", str(STREAMS / "claude-subagent-tools.jsonl"))
    monkeypatch.setenv("FAKE_COMPACT", str(STREAMS / "claude-manual-compact.jsonl"))
    session = "4e3453f9-129a-4da9-bc25-a287453d58d9"  # the recorded stream's session
    (outcome,) = batch(tmp_path / "runs", [MULTI], wrapper("claude_code.py"), arm="cc").outcomes
    assert outcome.end_reason == "completed", outcome.end_detail
    kept = outcome.plan.run_dir / outcome.artifacts["transcripts"]
    names = sorted(p.relative_to(kept).as_posix() for p in kept.rglob("*") if p.is_file())
    assert names == [
        "01-message-s1.claude.jsonl", "02-compact-s1.claude.jsonl", "03-message-s2.claude.jsonl",
        "04-message-s3.claude.jsonl", f"sessions/{session}.jsonl",
    ]  # fmt: skip
    raw = (kept / "01-message-s1.claude.jsonl").read_text("utf-8").splitlines()
    recorded = (STREAMS / "claude-subagent-tools.jsonl").read_text("utf-8").splitlines()
    assert raw == recorded and json.loads(raw[0])["session_id"] == session
    assert len((kept / "sessions" / f"{session}.jsonl").read_text("utf-8").splitlines()) == 3
    assert not outcome.diagnostics
    calls = [json.loads(line) for line in Path(f"{cli}.log").read_text().splitlines()]
    assert len(calls) == 4  # three stages and one compaction
    assert "--resume" not in calls[0] and calls[1][-2:] == ["--resume", session]
    (compaction,) = outcome.compactions
    assert (compaction.status, compaction.tokens_before, compaction.tokens_after) == (
        "completed", 61895, 5706
    )  # fmt: skip
    record = json.loads((outcome.plan.run_dir / "run.json").read_text("utf-8"))
    assert record["compactions"][0]["tokens_before"] == 61895
    assert record["compactions"][0]["tokens_after"] == 5706
    conn = sqlite3.connect(tmp_path / "runs" / "runs.db")
    usage = conn.execute(
        "SELECT kind, model, sum(calls), sum(uncached_input_tokens), sum(output_tokens), "
        "sum(cache_read_tokens), sum(cost_usd) FROM usage GROUP BY kind ORDER BY kind"
    ).fetchall()
    assert usage == [  # three times the recorded result's modelUsage
        ("main", "claude-sonnet-4-6", 6, 12, 1728, 121854, pytest.approx(3 * 0.0645234)),
        ("subagent", "claude-haiku-4-5-20251001", 3, 1719, 402, 23097,
         pytest.approx(3 * 0.0117929)),
    ]  # fmt: skip
    tools = conn.execute("SELECT count(*), sum(result_bytes) FROM events WHERE type='tool_call'")
    assert tools.fetchone() == (6, 12)
    (settings,) = conn.execute("SELECT settings FROM runs").fetchone()
    assert json.loads(settings) == {
        "provider": "anthropic", "model": "claude-sonnet-4-6", "reasoning": "default",
        "requested_model": None, "cli_version": "2.1.178",
    }  # fmt: skip


def test_codex_wrapper_maps_exec_json(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cli = fake(tmp_path, "codex", FAKE_CODEX)
    monkeypatch.setenv("CODEX_BIN", str(cli))
    monkeypatch.setenv("FAKE_FRESH", str(STREAMS / "codex-steps-reasoning.jsonl"))
    monkeypatch.setenv("FAKE_RESUME", str(STREAMS / "codex-resume.jsonl"))
    first, resumed = "019fef35-728f-73d1-a25f-cf68185ce634", "01a0c860-875c-74d1-8c7f-a41c4043f624"
    agent = wrapper("codex.py") + " --fresh-home"
    (outcome,) = batch(tmp_path / "runs", [MULTI], agent, arm="codex").outcomes
    assert outcome.end_reason == "completed", outcome.end_detail
    kept = outcome.plan.run_dir / outcome.artifacts["transcripts"]
    names = sorted(p.relative_to(kept).as_posix() for p in kept.rglob("*") if p.is_file())
    assert names == [
        "01-message-s1.codex.jsonl", "02-message-s2.codex.jsonl", "03-message-s3.codex.jsonl",
        f"sessions/rollout-2025-01-01T00-00-00-{first}.jsonl",
        f"sessions/rollout-2025-01-01T00-00-00-{resumed}.jsonl",
    ]  # fmt: skip
    assert json.loads((kept / "01-message-s1.codex.jsonl").read_text("utf-8").splitlines()[0]) == {
        "type": "thread.started", "thread_id": first
    }  # fmt: skip
    calls = [json.loads(line) for line in Path(f"{cli}.log").read_text().splitlines()]
    assert len(calls) == 3  # compaction is not sent to codex
    assert "resume" not in calls[0] and calls[1][-3:-1] == ["resume", first]
    assert calls[2][-3:-1] == ["resume", resumed]  # the thread the resumed stream named
    (compaction,) = outcome.compactions
    assert (compaction.status, compaction.detail) == (
        "failed", "codex exec has no compaction command"
    )  # fmt: skip
    record = json.loads((outcome.plan.run_dir / "run.json").read_text("utf-8"))
    assert "tokens_before" not in record["compactions"][0]  # none reported, none recorded
    conn = sqlite3.connect(tmp_path / "runs" / "runs.db")
    row = conn.execute(
        "SELECT count(uncached_input_tokens), sum(calls), sum(input_tokens), "
        "sum(output_tokens), sum(cache_read_tokens), sum(cache_write_tokens) FROM usage"
    ).fetchone()
    # cached tokens stay inside input (no uncached figure); calls: 4 steps, then 1 and 1
    assert row == (0, 6, 103412 + 2 * 66886, 576 + 2 * 24, 87040 + 2 * 13568, 0)
    (settings,) = conn.execute("SELECT settings FROM runs").fetchone()
    assert json.loads(settings)["provider"] == "openai"
