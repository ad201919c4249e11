"""The example adapters' mappers, replayed on genuine recorded CLI streams (issue 27).

Each recording in streams/ (sources in streams/SOURCES.md) is fed line by line to the
adapter's ``Mapper``; the events it emits must add up to the stream's own totals: the
``result`` line's ``modelUsage`` / ``usage`` for Claude Code, ``turn.completed.usage`` for
Codex, ``compact_metadata`` for compactions. Expected values are read from the recording
itself wherever the stream states them, and pinned as literals besides, so that an edited
recording is noticed too.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import jsonschema
import pytest

from benchsmith.export.standalone import export_standalone
from benchsmith.pythons import resolve_python
from benchsmith.running import artifacts
from benchsmith.runtime.run import CompactionRecord, compaction_json
from tests.run.conftest import EXAMPLES, MULTI, REPO
from tests.run.test_example_adapters import FAKE_CLAUDE, fake

STREAMS = Path(__file__).parent / "streams"


def adapter(name: str) -> ModuleType:
    """An example adapter script, imported as a module (it runs nothing on import)."""
    path = EXAMPLES / "adapters" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(f"adapter_{name}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def lines(name: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (STREAMS / name).read_text("utf-8").splitlines()]


def replay_claude(
    tmp_path: Path, name: str, kind: str = "main", drop: str = ""
) -> tuple[list[dict[str, Any]], Any]:
    """Feed a recording to the Claude Code mapper; return its events and the mapper."""
    module = adapter("claude_code")
    events = module.Events(str(tmp_path / "events.jsonl"))
    settings = {"provider": "anthropic", "fallback_model": "asked", "requested_model": "asked",
                "reasoning": "default"}  # fmt: skip
    mapper = module.Mapper(events, tmp_path, kind, settings if kind == "main" else None)
    for line in (STREAMS / name).read_text("utf-8").splitlines():
        if not drop or json.loads(line).get("type") != drop:
            mapper.line(line)
    mapper.finish()
    return read(tmp_path / "events.jsonl"), mapper


def replay_codex(tmp_path: Path, name: str) -> list[dict[str, Any]]:
    module = adapter("codex")
    events = module.Events(str(tmp_path / "events.jsonl"))
    mapper = module.Mapper(events, tmp_path, "gpt-x")
    for line in (STREAMS / name).read_text("utf-8").splitlines():
        mapper.line(line)
    return read(tmp_path / "events.jsonl")


def read(path: Path) -> list[dict[str, Any]]:
    if not path.is_file():
        return []
    return [json.loads(line) for line in path.read_text("utf-8").splitlines()]


def of(events: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [e for e in events if e["type"] == kind]


# --- Claude Code ------------------------------------------------------------------------------


def test_claude_usage_is_the_result_lines_per_model_totals(tmp_path: Path) -> None:
    stream = lines("claude-subagent-tools.jsonl")
    (result,) = [line for line in stream if line["type"] == "result"]
    events, _ = replay_claude(tmp_path, "claude-subagent-tools.jsonl")
    usage = {e["model"]: e for e in of(events, "usage")}
    assert set(usage) == set(result["modelUsage"])
    for model, counts in result["modelUsage"].items():
        got = usage[model]
        assert (got["input_tokens"], got["uncached_input_tokens"]) == (counts["inputTokens"],) * 2
        assert got["output_tokens"] == counts["outputTokens"]
        assert got["cache_read_tokens"] == counts["cacheReadInputTokens"]
        assert got["cache_write_tokens"] == counts["cacheCreationInputTokens"]
        assert got["cost_usd"] == pytest.approx(counts["costUSD"])
        assert got["usage_source"] == "result.modelUsage"
    main = usage["claude-sonnet-4-6"]
    assert main["kind"] == "main" and main["output_tokens"] == result["usage"]["output_tokens"]
    assert main["output_tokens"] == 576 and main["stream_output_tokens"] == 8  # 7 + 1: placeholders
    assert main["calls"] == result["num_turns"] == main["num_turns"] == 2
    assert main["context_tokens"] == max(3 + 16945 + 6728, 1 + 23673 + 553)  # the peak call
    assert usage["claude-haiku-4-5-20251001"]["kind"] == "subagent"  # the Explore subagent
    assert sum(e["cost_usd"] for e in usage.values()) == pytest.approx(result["total_cost_usd"])
    assert not of(events, "error")


def test_claude_model_is_the_one_the_stream_names(tmp_path: Path) -> None:
    (init,) = [
        line for line in lines("claude-subagent-tools.jsonl") if line.get("subtype") == "init"
    ]
    events, _ = replay_claude(tmp_path, "claude-subagent-tools.jsonl")
    (settings,) = of(events, "settings")
    assert settings["model"] == init["model"] == "claude-sonnet-4-6"
    assert settings["requested_model"] == "asked" and settings["cli_version"] == "2.1.178"


def test_claude_final_answer_tokens_come_from_the_results_last_iteration(tmp_path: Path) -> None:
    (result,) = [line for line in lines("claude-subagent-tools.jsonl") if line["type"] == "result"]
    events, _ = replay_claude(tmp_path, "claude-subagent-tools.jsonl")
    first, final = of(events, "assistant")
    assert "tokens" not in first and first["stream_output_tokens"] == 7
    assert final["tokens"] == result["usage"]["iterations"][-1]["output_tokens"] == 38
    assert final["stream_output_tokens"] == 1


def test_claude_tool_calls_and_their_errors(tmp_path: Path) -> None:
    stream = lines("claude-tool-errors.jsonl")
    results = [b for line in stream if line["type"] == "user" for b in line["message"]["content"]]
    (result,) = [line for line in stream if line["type"] == "result"]
    events, _ = replay_claude(tmp_path, "claude-tool-errors.jsonl")
    calls = of(events, "tool_call")
    assert [c["is_error"] for c in calls] == [b["is_error"] for b in results] == [True, False, True]
    assert {c["name"] for c in calls} == {"Bash"}
    assert [c["result_bytes"] for c in calls] == [len(b["content"].encode()) for b in results]
    (usage,) = of(events, "usage")  # no modelUsage in 2.1.15: result.usage, for the main model
    assert usage["usage_source"] == "result.usage"
    assert usage["model"] == "claude-sonnet-4-5-20250929" and usage["kind"] == "main"
    assert (usage["input_tokens"], usage["output_tokens"]) == (
        result["usage"]["input_tokens"], result["usage"]["output_tokens"]
    ) == (10, 368)  # fmt: skip
    assert usage["cache_read_tokens"] == result["usage"]["cache_read_input_tokens"]
    assert usage["cache_write_tokens"] == result["usage"]["cache_creation_input_tokens"]
    assert usage["cost_usd"] == pytest.approx(result["total_cost_usd"])
    assert usage["calls"] == 1  # the one message (three tool_use blocks) the recording keeps


def test_claude_automatic_compaction_reports_its_tokens(tmp_path: Path) -> None:
    (boundary,) = [line for line in lines("claude-auto-compact.jsonl")
                   if line.get("subtype") == "compact_boundary"]  # fmt: skip
    meta = boundary["compact_metadata"]
    events, _ = replay_claude(tmp_path, "claude-auto-compact.jsonl")
    (compaction,) = of(events, "compaction")
    assert (compaction["status"], compaction["detail"]) == ("completed", "auto")
    assert (compaction["tokens_before"], compaction["tokens_after"]) == (
        meta["pre_tokens"], meta["post_tokens"]
    ) == (42375, 1793)  # fmt: skip
    assert compaction["compact_metadata"]["cumulative_dropped_tokens"] == 40582  # kept raw
    assert "preserved_messages" not in compaction["compact_metadata"]  # lists are dropped


def test_claude_compact_action_keeps_the_boundarys_tokens(tmp_path: Path) -> None:
    (boundary,) = lines("claude-manual-compact.jsonl")
    events, mapper = replay_claude(tmp_path, "claude-manual-compact.jsonl", kind="compaction")
    assert not of(events, "compaction")  # main() answers the compact action with them
    assert mapper.compacted and mapper.compaction["tokens_before"] == 61895
    assert mapper.compaction["tokens_after"] == boundary["compact_metadata"]["post_tokens"]


def test_claude_session_log_casing_is_read_too(tmp_path: Path) -> None:
    """The session log writes the same boundary as ``compactMetadata`` / ``preTokens``."""
    module = adapter("claude_code")
    mapper = module.Mapper(module.Events(str(tmp_path / "e.jsonl")), tmp_path)
    meta = {"trigger": "auto", "preTokens": 155025}
    mapper.line(
        json.dumps({"type": "system", "subtype": "compact_boundary", "compactMetadata": meta})
    )
    (compaction,) = read(tmp_path / "e.jsonl")
    assert compaction["tokens_before"] == 155025 and "tokens_after" not in compaction


def test_claude_api_error_result_is_an_error(tmp_path: Path) -> None:
    events, mapper = replay_claude(tmp_path, "claude-api-error.jsonl")
    (error,) = of(events, "error")
    assert error["message"] == "claude result: api_error (403)" and error["subtype"] == "success"
    assert mapper.failed == "api_error (403)"
    (text,) = of(events, "assistant")
    assert text["synthetic"] is True and "tokens" not in text
    assert not of(events, "usage")  # Claude Code's own message is no model call
    (settings,) = of(events, "settings")
    assert settings["model"] == "asked"  # the stream never named one: the one asked for


def test_claude_without_a_result_line_sums_the_messages_and_says_so(tmp_path: Path) -> None:
    events, _ = replay_claude(tmp_path, "claude-subagent-tools.jsonl", drop="result")
    usage = {e["model"]: e for e in of(events, "usage")}
    main = usage["claude-sonnet-4-6"]
    assert main["output_tokens"] == 8 and "no result line" in main["usage_source"]
    assert main["input_tokens"] == 3 + 1 and "cost_usd" not in main


# --- Codex ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "steps"),
    [
        ("codex-steps-reasoning.jsonl", 4),  # message + patch, command, command, answer
        ("codex-multi-command.jsonl", 4),  # three commands one at a time, then the answer
        ("codex-failed-command.jsonl", 2),  # a command that exits 42, then the answer
        ("codex-resume.jsonl", 1),  # a resumed thread answering at once
    ],
)
def test_codex_usage_is_the_turns_totals_and_calls_are_its_steps(
    tmp_path: Path, name: str, steps: int
) -> None:
    (done,) = [line for line in lines(name) if line["type"] == "turn.completed"]
    reported = done["usage"]
    (usage,) = of(replay_codex(tmp_path, name), "usage")
    assert usage["calls"] == steps
    assert usage["input_tokens"] == reported["input_tokens"]  # cached tokens included
    assert usage["output_tokens"] == reported["output_tokens"]
    assert usage["cache_read_tokens"] == reported["cached_input_tokens"]
    assert "uncached_input_tokens" not in usage  # no cache ratio from folded input
    assert usage["raw_usage"] == reported and usage["usage_source"] == "turn.completed.usage"
    if "reasoning_output_tokens" in reported:  # the newer fields
        assert usage["cache_write_tokens"] == reported["cache_write_input_tokens"]
        assert usage["reasoning_tokens"] == reported["reasoning_output_tokens"]
    else:
        assert "cache_write_tokens" not in usage and "reasoning_tokens" not in usage


def test_codex_newer_fields_are_read(tmp_path: Path) -> None:
    (usage,) = of(replay_codex(tmp_path, "codex-steps-reasoning.jsonl"), "usage")
    assert (usage["reasoning_tokens"], usage["output_tokens"]) == (345, 576)
    assert (usage["input_tokens"], usage["cache_read_tokens"]) == (103412, 87040)


def test_codex_tools_and_failures(tmp_path: Path) -> None:
    events = replay_codex(tmp_path, "codex-failed-command.jsonl")
    (call,) = of(events, "tool_call")
    assert (call["name"], call["is_error"], call["result_bytes"]) == ("shell", True, 0)
    (tmp_path / "other").mkdir()
    steps = replay_codex(tmp_path / "other", "codex-steps-reasoning.jsonl")
    assert [c["name"] for c in of(steps, "tool_call")] == ["apply_patch", "shell", "shell"]
    assert len(of(steps, "assistant")) == 2  # the error item is a CLI warning, not a message


def test_codex_resume_names_the_thread_again(tmp_path: Path) -> None:
    (tmp_path / "codex_thread").write_text("older-thread", encoding="utf-8")
    replay_codex(tmp_path, "codex-resume.jsonl")
    thread = lines("codex-resume.jsonl")[0]["thread_id"]
    assert (tmp_path / "codex_thread").read_text("utf-8") == thread


# --- run records ------------------------------------------------------------------------------


def test_compaction_records_carry_reported_tokens_only() -> None:
    both = CompactionRecord(1, 1, "requested", "completed", 1.0, 2.0, "", 61895, 5706)
    neither = CompactionRecord(2, 2, "natural", "completed", None, None, "auto")
    assert artifacts.compaction_json is compaction_json  # bundle run.py and benchsmith run
    assert compaction_json(both)["tokens_before"] == 61895
    assert compaction_json(both)["tokens_after"] == 5706
    assert "tokens_before" not in compaction_json(neither)
    assert "tokens_after" not in compaction_json(neither)
    schema = json.loads((REPO / "schemas" / "run-record.schema.json").read_text("utf-8"))
    compaction = {"$defs": schema["$defs"], **schema["$defs"]["compaction"]}
    jsonschema.validate(compaction_json(both), compaction)
    jsonschema.validate(compaction_json(neither), compaction)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({**compaction_json(both), "tokens_after": -1}, compaction)


def test_the_bundle_runner_records_compaction_tokens(tmp_path: Path) -> None:
    """The standalone bundle's run.py, driving the Claude Code adapter on recordings: the
    requested compaction has the manual boundary's tokens, the natural one the automatic's."""
    cli = fake(tmp_path, "claude", FAKE_CLAUDE)
    message = tmp_path / "message.jsonl"  # a message whose turn also compacted on its own
    message.write_text(
        (STREAMS / "claude-subagent-tools.jsonl").read_text("utf-8")
        + (STREAMS / "claude-auto-compact.jsonl").read_text("utf-8"),
        encoding="utf-8",
    )
    export_standalone([MULTI], tmp_path / "out", allow_partial=True)
    bundle = tmp_path / "out" / "benchmarks" / "python-realworld-30"
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    env.update(CLAUDE_BIN=str(cli), HOME=str(tmp_path / "home"), FAKE_MESSAGE=str(message),
               FAKE_COMPACT=str(STREAMS / "claude-manual-compact.jsonl"))  # fmt: skip
    script = EXAMPLES / "adapters" / "claude_code.py"
    done = subprocess.run(
        [resolve_python(None), "-I", "run.py", "--agent", f"command:{sys.executable} {script}",
         "--all", "--runs", tmp_path / "runs", "--unsealed"],
        cwd=bundle, capture_output=True, text=True, timeout=600, check=False, env=env,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    (record_path,) = (tmp_path / "runs").glob("*/run.json")
    record = json.loads(record_path.read_text("utf-8"))
    tokens = [(c["trigger"], c.get("tokens_before"), c.get("tokens_after"))
              for c in record["compactions"]]  # fmt: skip
    assert tokens == [
        ("natural", 42375, 1793), ("requested", 61895, 5706),
        ("natural", 42375, 1793), ("natural", 42375, 1793),
    ]  # fmt: skip
    schema = json.loads((REPO / "schemas" / "run-record.schema.json").read_text("utf-8"))
    for compaction in record["compactions"]:  # the bundle's record has keys of its own besides
        jsonschema.validate(compaction, {"$defs": schema["$defs"], **schema["$defs"]["compaction"]})
