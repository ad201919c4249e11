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
* raw transcript: each action's JSONL lines go to
  $BENCHSMITH_TRANSCRIPT_DIR/NN-message-sSTAGE.codex.jsonl, and the thread's own log
  (CODEX_HOME or ~/.codex, ``sessions/**/rollout-*THREAD_ID.jsonl``) is copied to its
  ``sessions/`` after every action; the run keeps them in ``actions/transcripts/``.

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


class Transcript:
    """Saves the CLI's raw output in $BENCHSMITH_TRANSCRIPT_DIR, which the run keeps in its
    ``actions/transcripts/`` folder (nothing is saved when the runner does not offer one)."""

    def __init__(self, vendor: str, action: str) -> None:
        folder = os.environ.get("BENCHSMITH_TRANSCRIPT_DIR")
        self.folder = Path(folder) if folder else None
        self.stream: Any = None
        if self.folder is not None:
            number = len(list(self.folder.glob(f"*.{vendor}.jsonl"))) + 1
            stage = os.environ.get("BENCHSMITH_STAGE", "0")
            name = f"{number:02d}-{action}-s{stage}.{vendor}.jsonl"
            self.stream = open(self.folder / name, "a", encoding="utf-8", buffering=1)  # noqa: SIM115

    def write(self, raw: str) -> None:
        if self.stream is not None:
            self.stream.write(raw if raw.endswith("\n") else raw + "\n")

    def close(self, sessions: list[Path]) -> None:
        """Close the stream and copy the vendor's own session logs (``sessions/NAME``)."""
        if self.stream is not None:
            self.stream.close()
        if self.folder is None:
            return
        for log in sessions:
            if log.is_file() and not log.is_symlink():
                (self.folder / "sessions").mkdir(exist_ok=True)
                (self.folder / "sessions" / log.name).write_bytes(log.read_bytes())


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


def session_logs(env: dict[str, str], state: Path) -> list[Path]:
    """The thread's own log: CODEX_HOME/sessions/**/rollout-*THREAD_ID.jsonl."""
    thread = state / "codex_thread"
    if not thread.is_file():
        return []
    home = Path(env.get("CODEX_HOME") or Path(env.get("HOME", "~")).expanduser() / ".codex")
    name = thread.read_text(encoding="utf-8").strip()
    return sorted((home / "sessions").glob(f"**/*{name}.jsonl"))


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
    transcript = Transcript("codex", action)
    process = subprocess.Popen(
        command(args, state, prompt), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
        text=True, encoding="utf-8", env=env,
    )  # fmt: skip
    assert process.stdout is not None
    for raw in process.stdout:
        transcript.write(raw)
        mapper.line(raw)
    code = process.wait()
    transcript.close(session_logs(env, state))
    if code != 0:
        events.emit("error", message=f"codex exited with status {code}")
        return code
    events.emit("idle")
    return 0


if __name__ == "__main__":
    sys.exit(main())
