#!/usr/bin/env python3
"""benchsmith adapter for OpenAI Codex CLI (``codex exec --json``).

NEVER RUN WITH CREDENTIALS: benchsmith's tests drive this wrapper with a fake ``codex`` and
replay its mapper on genuine public ``codex exec --json`` recordings
(tests/run/test_example_adapters.py, tests/run/test_adapter_streams.py). It assumes the
``codex exec --json`` event stream of codex-cli 0.4x to 0.155:

    codex exec --json --skip-git-repo-check --full-auto [--model MODEL] PROMPT
    codex exec --json --skip-git-repo-check --full-auto [--model MODEL] resume THREAD PROMPT

with ``thread.started`` (thread_id, printed again on resume), ``item.started`` /
``item.completed`` (agent_message, reasoning, command_execution, file_change, mcp_tool_call,
web_search items; ``error`` items are warnings), ``turn.completed`` (usage: input_tokens,
cached_input_tokens, output_tokens; newer CLIs add cache_write_input_tokens and
reasoning_output_tokens), ``turn.failed`` and ``error`` lines. The mapper is replayed on
genuine recorded streams in the tests (tests/run/streams/, with SOURCES.md); check your
version against them before trusting the numbers.

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
  ratio (spec section 7); ``cache_write_input_tokens`` -> ``cache_write_tokens`` and
  ``reasoning_output_tokens`` -> ``reasoning_tokens`` (part of ``output_tokens``) when the CLI
  reports them. ``calls`` counts the turn's model calls (steps), inferred from its items (the
  stream marks none; see ``Mapper``). No cost and no model name are reported by the CLI.
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


MODEL_ITEMS = {"agent_message", "reasoning", "todo_list", "collab_tool_call", *TOOL_ITEMS}
"""Items the model produced (``error`` items are the CLI's own warnings)."""

USAGE_FIELDS = (
    "input_tokens", "cached_input_tokens", "cache_write_input_tokens", "output_tokens",
    "reasoning_output_tokens",
)  # fmt: skip
"""``turn.completed.usage``: the first, second and fourth since 0.4x; the third and fifth in
newer CLIs (openai/codex#19308)."""


class Mapper:
    """Turns codex JSONL lines into protocol events.

    ``codex exec --json`` marks no model call: a turn's calls (steps) are counted from its
    items, one for the first and one more each time the model speaks again after a tool
    result (parallel tool calls in one response would count once each). Usage is read as
    reported, per action: ``turn.completed.usage`` sums the calls this ``codex exec`` process
    made, on a resumed thread too. (codex-cli 0.155.1, tests/run/streams/codex-resume.jsonl:
    66886 input tokens where the rollout's thread total was already 64126 before the answer
    call, whose prompt alone is some 32000: so not the thread's total. An inference, which is
    why the event keeps ``raw_usage``.)
    """

    def __init__(self, events: Events, state: Path, model: str) -> None:
        self.events, self.state, self.model = events, state, model
        self.thread = ""
        self.steps = 0
        self.after_tool = False
        self.items: set[str] = set()

    def line(self, raw: str) -> None:
        try:
            data = json.loads(raw)
        except ValueError:
            return
        if not isinstance(data, dict):
            return
        kind = data.get("type")
        if kind == "thread.started" and data.get("thread_id"):
            self.thread = str(data["thread_id"])
            (self.state / "codex_thread").write_text(self.thread, encoding="utf-8")
        elif kind == "turn.started":
            self.steps, self.after_tool, self.items = 0, False, set()
        elif kind in ("item.started", "item.updated", "item.completed"):
            item = data.get("item") or {}
            self.step(item, done=kind == "item.completed")
            if kind == "item.completed":
                self.item(item)
        elif kind == "turn.completed":
            self.usage(data.get("usage") or {})
        elif kind == "turn.failed":
            message = (data.get("error") or {}).get("message", "turn failed")
            self.events.emit("error", message=str(message))
        elif kind == "error":
            self.events.emit("error", message=str(data.get("message", "error")))

    def step(self, item: dict[str, Any], done: bool) -> None:
        """Count model calls: a new item after a finished tool call starts one."""
        kind = item.get("type") or item.get("item_type")
        if kind not in MODEL_ITEMS:
            return
        key = str(item.get("id", len(self.items)))
        if key not in self.items:
            self.items.add(key)
            if self.steps == 0 or self.after_tool:
                self.steps += 1
            self.after_tool = False
        if done and kind in TOOL_ITEMS:
            self.after_tool = True

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
        """One ``usage`` event per turn: ``input_tokens`` includes the cached tokens (no
        ``uncached_input_tokens``, no cache ratio), ``output_tokens`` includes the reasoning
        tokens (kept apart as ``reasoning_tokens``)."""
        counts = {key: _int(usage.get(key)) for key in USAGE_FIELDS if key in usage}
        fields: dict[str, Any] = {
            "input_tokens": counts.get("input_tokens", 0),
            "output_tokens": counts.get("output_tokens", 0),
            "cache_read_tokens": counts.get("cached_input_tokens", 0),
        }
        if "cache_write_input_tokens" in counts:
            fields["cache_write_tokens"] = counts["cache_write_input_tokens"]
        if "reasoning_output_tokens" in counts:
            fields["reasoning_tokens"] = counts["reasoning_output_tokens"]
        self.events.emit(
            "usage", model=self.model, kind="main", calls=max(self.steps, 1), **fields,
            usage_source="turn.completed.usage", raw_usage=counts,
            calls_source="items: 1 + each model item after a finished tool call",
        )  # fmt: skip


def _int(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else 0


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
