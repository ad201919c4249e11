"""The example wrappers in examples/adapters/, driven by fake CLIs.

The fakes print what the wrappers' headers say the real CLIs print; these tests check the
wrappers' mapping and session handling, not the real tools (no credentials here).
"""

from __future__ import annotations

import json
import sqlite3
import sys
from pathlib import Path

import pytest

from tests.run.conftest import EXAMPLES, MULTI, batch

FAKE_CLAUDE = """\
import json, os, sys
prompt = sys.stdin.read()
with open(sys.argv[0] + ".log", "a") as log:
    log.write(json.dumps(sys.argv[1:]) + "\\n")
home = os.environ.get("CLAUDE_CONFIG_DIR") or os.path.join(os.environ["HOME"], ".claude")
os.makedirs(os.path.join(home, "projects", "ws"), exist_ok=True)
with open(os.path.join(home, "projects", "ws", "S-1.jsonl"), "a") as session:
    session.write(json.dumps({"prompt": prompt}) + "\\n")
def out(obj):
    print(json.dumps(obj), flush=True)
out({"type": "system", "subtype": "init", "session_id": "S-1", "model": "claude-x"})
usage = {"input_tokens": 10, "cache_read_input_tokens": 300, "cache_creation_input_tokens": 50,
         "output_tokens": 7}
if prompt == "/compact":
    out({"type": "system", "subtype": "compact_boundary",
         "compact_metadata": {"trigger": "manual", "pre_tokens": 900}})
    out({"type": "result", "subtype": "success", "is_error": False, "total_cost_usd": 0.01})
    sys.exit(0)
message = {"id": "m1", "model": "claude-x", "usage": usage,
           "content": [{"type": "tool_use", "id": "t1", "name": "Bash", "input": {}}]}
out({"type": "assistant", "message": message})
out({"type": "user", "message": {"content": [
    {"type": "tool_result", "tool_use_id": "t1", "content": [{"type": "text", "text": "ok!"}]}]}})
out({"type": "assistant", "message": {"id": "m2", "model": "claude-x", "usage": usage,
     "content": [{"type": "text", "text": "Done."}]}})
out({"type": "result", "subtype": "success", "is_error": False, "total_cost_usd": 0.02,
     "result": "Done."})
"""

FAKE_CODEX = """\
import json, os, sys
with open(sys.argv[0] + ".log", "a") as log:
    log.write(json.dumps(sys.argv[1:]) + "\\n")
day = os.path.join(os.environ["CODEX_HOME"], "sessions", "2025", "01", "01")
os.makedirs(day, exist_ok=True)
with open(os.path.join(day, "rollout-2025-01-01T00-00-00-T-9.jsonl"), "a") as rollout:
    rollout.write(json.dumps(sys.argv[-1]) + "\\n")
def out(obj):
    print(json.dumps(obj), flush=True)
if "resume" not in sys.argv:
    out({"type": "thread.started", "thread_id": "T-9"})
out({"type": "turn.started"})
out({"type": "item.completed", "item": {"id": "i1", "type": "command_execution",
     "command": "ls", "aggregated_output": "TASK.md\\n", "exit_code": 0, "status": "completed"}})
out({"type": "item.completed", "item": {"id": "i2", "type": "agent_message", "text": "Done."}})
out({"type": "turn.completed",
     "usage": {"input_tokens": 400, "cached_input_tokens": 300, "output_tokens": 20}})
"""


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
    (outcome,) = batch(tmp_path / "runs", [MULTI], wrapper("claude_code.py"), arm="cc").outcomes
    assert outcome.end_reason == "completed", outcome.end_detail
    kept = outcome.plan.run_dir / outcome.artifacts["transcripts"]
    names = sorted(p.relative_to(kept).as_posix() for p in kept.rglob("*") if p.is_file())
    assert names == [
        "01-message-s1.claude.jsonl", "02-compact-s1.claude.jsonl", "03-message-s2.claude.jsonl",
        "04-message-s3.claude.jsonl", "sessions/S-1.jsonl",
    ]  # fmt: skip
    raw = (kept / "01-message-s1.claude.jsonl").read_text("utf-8").splitlines()
    assert json.loads(raw[0])["session_id"] == "S-1" and len(raw) == 5
    assert len((kept / "sessions" / "S-1.jsonl").read_text("utf-8").splitlines()) == 4
    assert not outcome.diagnostics
    calls = [json.loads(line) for line in Path(f"{cli}.log").read_text().splitlines()]
    assert len(calls) == 4  # three stages and one compaction
    assert "--resume" not in calls[0] and calls[1][-2:] == ["--resume", "S-1"]
    (compaction,) = outcome.compactions
    assert compaction.status == "completed"
    conn = sqlite3.connect(tmp_path / "runs" / "runs.db")
    usage = conn.execute(
        "SELECT kind, sum(calls), sum(uncached_input_tokens), sum(cache_read_tokens), "
        "sum(cost_usd) FROM usage GROUP BY kind ORDER BY kind"
    ).fetchall()
    assert usage == [("billing", 0, 0, 0, pytest.approx(0.07)), ("main", 6, 60, 1800, None)]
    tools = conn.execute("SELECT count(*), sum(result_bytes) FROM events WHERE type='tool_call'")
    assert tools.fetchone() == (3, 9)
    (settings,) = conn.execute("SELECT settings FROM runs").fetchone()
    assert json.loads(settings) == {
        "provider": "anthropic", "model": "claude-code-default", "reasoning": "default"
    }  # fmt: skip


def test_codex_wrapper_maps_exec_json(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cli = fake(tmp_path, "codex", FAKE_CODEX)
    monkeypatch.setenv("CODEX_BIN", str(cli))
    agent = wrapper("codex.py") + " --fresh-home"
    (outcome,) = batch(tmp_path / "runs", [MULTI], agent, arm="codex").outcomes
    assert outcome.end_reason == "completed", outcome.end_detail
    kept = outcome.plan.run_dir / outcome.artifacts["transcripts"]
    names = sorted(p.relative_to(kept).as_posix() for p in kept.rglob("*") if p.is_file())
    assert names == [
        "01-message-s1.codex.jsonl", "02-message-s2.codex.jsonl", "03-message-s3.codex.jsonl",
        "sessions/rollout-2025-01-01T00-00-00-T-9.jsonl",
    ]  # fmt: skip
    assert json.loads((kept / "01-message-s1.codex.jsonl").read_text("utf-8").splitlines()[0]) == {
        "type": "thread.started", "thread_id": "T-9"
    }  # fmt: skip
    calls = [json.loads(line) for line in Path(f"{cli}.log").read_text().splitlines()]
    assert len(calls) == 3  # compaction is not sent to codex
    assert "resume" not in calls[0] and calls[1][-3:-1] == ["resume", "T-9"]
    (compaction,) = outcome.compactions
    assert (compaction.status, compaction.detail) == (
        "failed", "codex exec has no compaction command"
    )  # fmt: skip
    conn = sqlite3.connect(tmp_path / "runs" / "runs.db")
    row = conn.execute(
        "SELECT count(uncached_input_tokens), sum(input_tokens), sum(cache_read_tokens) FROM usage"
    ).fetchone()
    assert row == (0, 1200, 900)  # cached tokens stay inside input: no uncached figure
    (settings,) = conn.execute("SELECT settings FROM runs").fetchone()
    assert json.loads(settings)["provider"] == "openai"
