#!/usr/bin/env python3
"""benchsmith adapter for OpenAI Codex CLI (``codex exec --json``).

UNTESTED AGAINST THE REAL CLI: benchsmith's test suite runs this wrapper only against a
fake ``codex`` that prints canned JSONL lines (tests/run/test_example_adapters.py); it has
never been run with credentials. It assumes the ``codex exec --json`` event stream of
codex-cli 0.4x/0.5x:

    codex exec --json --skip-git-repo-check --full-auto [--model MODEL] PROMPT
    codex exec --json --skip-git-repo-check --full-auto [--model MODEL] resume THREAD PROMPT

with ``thread.started`` (thread_id), ``item.completed`` (agent_message, command_execution,
file_change, mcp_tool_call, web_search items), ``turn.completed`` (usage: input_tokens,
cached_input_tokens, output_tokens), ``turn.failed`` and ``error`` lines. Check these
against your version before trusting the numbers.

Use:

    benchsmith run TASKS --arm codex-default \\
        --agent "command:python examples/adapters/codex.py --model gpt-5-codex"

Mapping to the benchsmith protocol (README, "Agent adapters"):

* ``message``: the first action starts a thread, later ones resume it (the thread id is kept
  in $BENCHSMITH_STATE_DIR/codex_thread);
* ``compact``: ``codex exec`` offers no compaction command, so the wrapper reports the
  requested compaction as ``failed`` (honestly, rather than pretending);
* ``agent_message`` -> ``assistant``; ``command_execution`` -> ``tool_call`` named ``shell``
  with the UTF-8 size of its aggregated output; other tool items likewise;
* ``turn.completed`` -> one ``usage`` event. OpenAI's ``input_tokens`` already include the
  cached tokens, so no ``uncached_input_tokens`` is reported and the report derives no cache
  ratio (spec section 7). Usage comes per turn, not per model call: ``main_calls`` counts
  turns. No cost is reported by the CLI.
* exit 0 -> ``idle``; the CLI's own nonzero exit is passed through (the run records a crash).

Set CODEX_BIN to use another executable. For a fresh agent home per run (spec 7.1), pass
``--fresh-home``: CODEX_HOME becomes a folder under the state folder (authenticate with
CODEX_API_KEY / OPENAI_API_KEY in the environment then).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

TOOL_ITEMS = {
    "command_execution": ("shell", "aggregated_output"),
    "file_change": ("apply_patch", "changes"),
    "mcp_tool_call": ("mcp", "result"),
    "web_search": ("web_search", "query"),
}


class Events:
    """Appends protocol events to $BENCHSMITH_EVENTS."""

    def __init__(self, path: str) -> None:
        self.path = path

    def emit(self, event_type: str, /, **fields: Any) -> None:
        with open(self.path, "a", encoding="utf-8") as stream:
            stream.write(json.dumps({"type": event_type, **fields}) + "\n")


def size(value: Any) -> int:
    """UTF-8 bytes of a tool result (JSON text for structured results)."""
    if value is None:
        return 0
    text = value if isinstance(value, str) else json.dumps(value)
    return len(text.encode())


class Mapper:
    """Turns codex JSONL lines into protocol events."""

    def __init__(self, events: Events, state: Path, model: str) -> None:
        self.events, self.state, self.model = events, state, model

    def line(self, raw: str) -> None:
        try:
            data = json.loads(raw)
        except ValueError:
            return
        kind = data.get("type")
        if kind == "thread.started" and data.get("thread_id"):
            (self.state / "codex_thread").write_text(data["thread_id"], encoding="utf-8")
        elif kind == "item.completed":
            self.item(data.get("item") or {})
        elif kind == "turn.completed":
            self.usage(data.get("usage") or {})
        elif kind == "turn.failed":
            message = (data.get("error") or {}).get("message", "turn failed")
            self.events.emit("error", message=str(message))
        elif kind == "error":
            self.events.emit("error", message=str(data.get("message", "error")))

    def item(self, item: dict[str, Any]) -> None:
        kind = item.get("type") or item.get("item_type")
        if kind == "agent_message":
            self.events.emit("assistant", text=str(item.get("text", "")))
        elif kind in TOOL_ITEMS:
            name, field = TOOL_ITEMS[kind]
            if kind == "mcp_tool_call":
                name = f"{item.get('server', 'mcp')}.{item.get('tool', 'tool')}"
            failed = item.get("status") == "failed" or item.get("exit_code") not in (None, 0)
            self.events.emit(
                "tool_call", name=name, result_bytes=size(item.get(field)), is_error=failed
            )

    def usage(self, usage: dict[str, Any]) -> None:
        self.events.emit(
            "usage", model=self.model, kind="main", input_tokens=int(usage.get("input_tokens", 0)),
            output_tokens=int(usage.get("output_tokens", 0)),
            cache_read_tokens=int(usage.get("cached_input_tokens", 0)),
        )  # fmt: skip


def command(args: argparse.Namespace, state: Path, prompt: str) -> list[str]:
    argv = [os.environ.get("CODEX_BIN", "codex"), "exec", "--json", "--skip-git-repo-check"]
    argv += ["--full-auto"] + (["--model", args.model] if args.model else [])
    if args.reasoning_effort:
        argv += ["-c", f"model_reasoning_effort={args.reasoning_effort}"]
    thread = state / "codex_thread"
    if thread.is_file():
        argv += ["resume", thread.read_text(encoding="utf-8").strip()]
    return [*argv, prompt]


def main() -> int:
    parser = argparse.ArgumentParser(description="benchsmith adapter for Codex CLI")
    parser.add_argument("--model", help="model passed to codex exec --model")
    parser.add_argument("--reasoning-effort", help="model_reasoning_effort (low, medium, high)")
    parser.add_argument("--fresh-home", action="store_true", help="CODEX_HOME per run")
    args = parser.parse_args()
    action = os.environ["BENCHSMITH_ACTION"]
    events = Events(os.environ["BENCHSMITH_EVENTS"])
    state = Path(os.environ["BENCHSMITH_STATE_DIR"])
    if action == "compact":
        events.emit("compaction", status="failed", detail="codex exec has no compaction command")
    if action != "message":
        events.emit("idle")
        return 0
    prompt = Path(os.environ["BENCHSMITH_MESSAGE_FILE"]).read_text(encoding="utf-8")
    events.emit(
        "settings", provider="openai", model=args.model or "codex-default",
        reasoning=args.reasoning_effort or "codex-default",
    )  # fmt: skip
    env = {k: v for k, v in os.environ.items() if not k.startswith("BENCHSMITH_")}
    if args.fresh_home:
        env["CODEX_HOME"] = str(state / "codex-home")
        Path(env["CODEX_HOME"]).mkdir(exist_ok=True)
    mapper = Mapper(events, state, args.model or "codex-default")
    process = subprocess.Popen(
        command(args, state, prompt), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
        text=True, encoding="utf-8", env=env,
    )  # fmt: skip
    assert process.stdout is not None
    for raw in process.stdout:
        mapper.line(raw)
    code = process.wait()
    if code != 0:
        events.emit("error", message=f"codex exited with status {code}")
        return code
    events.emit("idle")
    return 0


if __name__ == "__main__":
    sys.exit(main())
