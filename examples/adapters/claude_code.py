#!/usr/bin/env python3
"""benchsmith adapter for Claude Code (the ``claude`` CLI in headless mode).

UNTESTED AGAINST THE REAL CLI: benchsmith's test suite runs this wrapper only against a
fake ``claude`` that prints canned stream-json lines (tests/run/test_example_adapters.py);
it has never been run with credentials. It assumes Claude Code 1.x/2.x headless mode:

    claude -p --output-format stream-json --verbose --permission-mode bypassPermissions
           [--resume SESSION_ID] [--model MODEL]      (the prompt on standard input)

whose stream has ``system``/``init`` (session_id), ``assistant`` (message.id, content
blocks, message.usage), ``user`` (tool_result blocks), ``system``/``compact_boundary`` and a
final ``result`` (total_cost_usd, is_error) line. Check these against your version
before trusting the numbers.

Use:

    benchsmith run TASKS --arm claude-sonnet \\
        --agent "command:python examples/adapters/claude_code.py --model claude-sonnet-4-5"

Mapping to the benchsmith protocol (README, "Agent adapters"):

* ``message``: first action starts a session, later ones ``--resume`` it (the session id is
  kept in $BENCHSMITH_STATE_DIR/claude_session);
* ``compact``: sends ``/compact`` to the session; a ``compact_boundary`` line means
  ``completed``, anything else ``failed``;
* each assistant message -> one ``assistant`` event (its text, with its output tokens) and
  one ``usage`` event (kind ``main``, or ``compaction`` during a compact action; Anthropic
  reports input without cache reads and writes, so ``uncached_input_tokens`` =
  ``input_tokens`` and the cache ratio is derivable);
* each tool result -> ``tool_call`` with the result's UTF-8 size;
* ``result.total_cost_usd`` -> one billing line (``calls`` 0, cost only). Auxiliary model
  calls are not exposed per call by the CLI and are not reported.
* exit 0 -> ``idle``; the CLI's own nonzero exit is passed through (the run records a crash).
* raw transcript: each action's stream-json lines go to
  $BENCHSMITH_TRANSCRIPT_DIR/NN-ACTION-sSTAGE.claude.jsonl, and the session's own log
  (CLAUDE_CONFIG_DIR or ~/.claude, ``projects/*/SESSION_ID.jsonl``) is copied to its
  ``sessions/`` after every action; the run keeps them in ``actions/transcripts/``.

Set CLAUDE_BIN to use another executable, and pass ``--fresh-home`` to give every run its
own configuration folder (CLAUDE_CONFIG_DIR under the state folder; needs
ANTHROPIC_API_KEY in the environment), per spec section 7.1.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any


class Events:
    """Appends protocol events to $BENCHSMITH_EVENTS."""

    def __init__(self, path: str) -> None:
        self.path = path

    def emit(self, event_type: str, /, **fields: Any) -> None:
        with open(self.path, "a", encoding="utf-8") as stream:
            stream.write(json.dumps({"type": event_type, **fields}) + "\n")


def text_size(content: Any) -> int:
    """UTF-8 bytes of a tool_result content (a string or a list of text blocks)."""
    if isinstance(content, str):
        return len(content.encode())
    if isinstance(content, list):
        return sum(text_size(block.get("text", "")) for block in content if isinstance(block, dict))
    return 0


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
    """Turns stream-json lines into protocol events."""

    def __init__(self, events: Events, state: Path, kind: str = "main") -> None:
        self.events, self.state, self.kind = events, state, kind
        self.tools: dict[str, str] = {}
        self.message: dict[str, Any] | None = None
        self.compacted = False
        self.failed = ""

    def line(self, raw: str) -> None:
        try:
            data = json.loads(raw)
        except ValueError:
            return
        kind, subtype = data.get("type"), data.get("subtype")
        if kind == "system" and subtype == "init" and data.get("session_id"):
            (self.state / "claude_session").write_text(data["session_id"], encoding="utf-8")
        elif kind == "system" and subtype == "compact_boundary":
            self.compacted = True
            meta = data.get("compact_metadata") or {}
            before = meta.get("pre_tokens", meta.get("preTokens"))
            if meta.get("trigger") == "auto":  # a compaction Claude Code made on its own
                fields = {"tokens_before": before} if isinstance(before, int) else {}
                self.events.emit("compaction", status="completed", detail="auto", **fields)
        elif kind == "assistant":
            self.assistant(data.get("message") or {})
        elif kind == "user":
            self.flush()
            self.tool_results(data.get("message") or {})
        elif kind == "result":
            self.flush()
            self.result(data)

    def assistant(self, message: dict[str, Any]) -> None:
        if self.message is not None and self.message.get("id") != message.get("id"):
            self.flush()
        if self.message is None:
            self.message = {"id": message.get("id"), "text": [], "usage": {}, "model": ""}
        self.message["model"] = message.get("model") or self.message["model"]
        self.message["usage"] = message.get("usage") or self.message["usage"]
        for block in message.get("content") or []:
            if block.get("type") == "text":
                self.message["text"].append(block.get("text", ""))
            elif block.get("type") == "tool_use":
                self.tools[block.get("id", "")] = block.get("name") or "tool"

    def flush(self) -> None:
        """Emit the finished assistant message: its text and its usage."""
        message, self.message = self.message, None
        if message is None:
            return
        usage = message["usage"]
        output = int(usage.get("output_tokens", 0))
        if message["text"]:
            self.events.emit("assistant", text="".join(message["text"]), tokens=output)
        if usage:
            fresh = int(usage.get("input_tokens", 0))
            read = int(usage.get("cache_read_input_tokens", 0))
            write = int(usage.get("cache_creation_input_tokens", 0))
            self.events.emit(
                "usage", model=message["model"] or "claude", kind=self.kind, input_tokens=fresh,
                uncached_input_tokens=fresh, output_tokens=output, cache_read_tokens=read,
                cache_write_tokens=write, context_tokens=fresh + read + write,
            )  # fmt: skip

    def tool_results(self, message: dict[str, Any]) -> None:
        content = message.get("content")
        for block in content if isinstance(content, list) else []:
            if isinstance(block, dict) and block.get("type") == "tool_result":
                self.events.emit(
                    "tool_call",
                    name=self.tools.get(block.get("tool_use_id", ""), "tool"),
                    result_bytes=text_size(block.get("content")),
                    is_error=bool(block.get("is_error", False)),
                )

    def result(self, data: dict[str, Any]) -> None:
        cost = data.get("total_cost_usd")
        if isinstance(cost, int | float):
            self.events.emit(
                "usage", model="claude-code", kind="billing", calls=0, input_tokens=0,
                uncached_input_tokens=0, output_tokens=0, cost_usd=float(cost),
            )  # fmt: skip
        if data.get("is_error"):
            self.failed = str(data.get("subtype") or "error")
            self.events.emit("error", message=f"claude result: {self.failed}")


def command(args: argparse.Namespace, state: Path) -> list[str]:
    argv = [os.environ.get("CLAUDE_BIN", "claude"), "-p", "--output-format", "stream-json",
            "--verbose", "--permission-mode", args.permission_mode]  # fmt: skip
    session = state / "claude_session"
    if session.is_file():
        argv += ["--resume", session.read_text(encoding="utf-8").strip()]
    if args.model:
        argv += ["--model", args.model]
    return argv


def session_logs(env: dict[str, str], state: Path) -> list[Path]:
    """The session's own log: CONFIG_DIR/projects/*/SESSION_ID.jsonl."""
    session = state / "claude_session"
    if not session.is_file():
        return []
    home = Path(env.get("CLAUDE_CONFIG_DIR") or Path(env.get("HOME", "~")).expanduser() / ".claude")
    name = session.read_text(encoding="utf-8").strip() + ".jsonl"
    return sorted((home / "projects").glob(f"*/{name}"))


def main() -> int:
    parser = argparse.ArgumentParser(description="benchsmith adapter for Claude Code")
    parser.add_argument("--model", help="model alias or name passed to claude --model")
    parser.add_argument("--permission-mode", default="bypassPermissions")
    parser.add_argument("--fresh-home", action="store_true", help="CLAUDE_CONFIG_DIR per run")
    args = parser.parse_args()
    action = os.environ["BENCHSMITH_ACTION"]
    events = Events(os.environ["BENCHSMITH_EVENTS"])
    state = Path(os.environ["BENCHSMITH_STATE_DIR"])
    if action not in ("message", "compact"):
        events.emit("idle")  # an action this wrapper does not know: do nothing
        return 0
    if action == "compact" and not (state / "claude_session").is_file():
        events.emit("compaction", status="failed", detail="no session to compact")
        events.emit("idle")
        return 0
    prompt = "/compact"
    if action == "message":
        prompt = Path(os.environ["BENCHSMITH_MESSAGE_FILE"]).read_text(encoding="utf-8")
        thinking = os.environ.get("MAX_THINKING_TOKENS")  # what Claude Code reads for thinking
        events.emit(
            "settings", provider="anthropic", model=args.model or "claude-code-default",
            reasoning={"max_thinking_tokens": thinking} if thinking else "default",
        )  # fmt: skip
    env = {k: v for k, v in os.environ.items() if not k.startswith("BENCHSMITH_")}
    if args.fresh_home:
        env["CLAUDE_CONFIG_DIR"] = str(state / "claude-home")
    mapper = Mapper(events, state, "main" if action == "message" else "compaction")
    transcript = Transcript("claude", action)
    process = subprocess.Popen(
        command(args, state), stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
        encoding="utf-8", env=env,
    )  # fmt: skip
    assert process.stdin is not None and process.stdout is not None
    process.stdin.write(prompt)
    process.stdin.close()
    for raw in process.stdout:
        transcript.write(raw)
        mapper.line(raw)
    code = process.wait()
    mapper.flush()
    transcript.close(session_logs(env, state))
    if action == "compact":
        status = "completed" if mapper.compacted and code == 0 else "failed"
        events.emit("compaction", status=status)
    if code != 0:
        events.emit("error", message=f"claude exited with status {code}")
        return code
    events.emit("idle")
    return 0


if __name__ == "__main__":
    sys.exit(main())
