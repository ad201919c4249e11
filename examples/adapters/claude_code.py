#!/usr/bin/env python3
"""benchsmith adapter for Claude Code (the ``claude`` CLI in headless mode).

NEVER RUN WITH CREDENTIALS: benchsmith's tests drive this wrapper with a fake ``claude`` and
replay its mapper on genuine public stream-json recordings of Claude Code 2.1.15 to 2.1.278
(tests/run/test_example_adapters.py, tests/run/test_adapter_streams.py; the recordings and
their sources are in tests/run/streams/). It assumes Claude Code 2.x headless mode:

    claude -p --output-format stream-json --verbose --permission-mode bypassPermissions
           [--resume SESSION_ID] [--model MODEL]      (the prompt on standard input)

whose stream has ``system``/``init`` (session_id, model, claude_code_version), ``assistant``
(message.id, model, content blocks, message.usage; parent_tool_use_id in subagents),
``user`` (tool_result blocks), ``system``/``status`` (compact_result), ``system``/
``compact_boundary`` (compact_metadata) and a final ``result`` (usage, modelUsage,
total_cost_usd, is_error, num_turns) line. Check these against your version before
trusting the numbers.

Use:

    benchsmith run TASKS --arm claude-sonnet \\
        --agent "command:python examples/adapters/claude_code.py --model claude-sonnet-4-5"

Mapping to the benchsmith protocol (README, "Agent adapters"):

* ``message``: first action starts a session, later ones ``--resume`` it (the session id is
  kept in $BENCHSMITH_STATE_DIR/claude_session);
* ``compact``: sends ``/compact`` to the session; a ``compact_boundary`` line means
  ``completed`` (with ``tokens_before`` / ``tokens_after`` from ``compact_metadata``'s
  ``pre_tokens`` / ``post_tokens``; ``post_tokens`` counts the conversation only, not the
  system prompt and tools), anything else ``failed``; a boundary during a ``message`` action
  is a compaction Claude Code made on its own, reported the same way;
* ``settings``: the model as ``system/init`` names it (``requested_model`` is ``--model``);
* each assistant message -> one ``assistant`` event (its text; ``tokens`` only for the final
  answer, from ``result.usage.iterations``: a message's own ``output_tokens`` is a
  placeholder, kept as ``stream_output_tokens``);
* ``result`` -> one ``usage`` event per model of ``modelUsage`` (tokens and ``costUSD``; kind
  ``main``, ``subagent`` or ``auxiliary``, or ``compaction`` during a compact action; calls =
  that model's messages in the stream; Anthropic reports input without cache reads and
  writes, so ``uncached_input_tokens`` = ``input_tokens`` and the cache ratio is derivable),
  or one from ``result.usage`` and ``total_cost_usd`` without ``modelUsage``;
  ``usage_source`` says which; an ``is_error`` result -> ``error`` (its ``errors``, else
  ``terminal_reason`` and ``api_error_status``);
* each tool result -> ``tool_call`` with the result's UTF-8 size;
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
    """Turns stream-json lines into protocol events.

    Totals come from the ``result`` line, the only authoritative ones: stream-json reports
    each assistant message as it starts, so a message's ``usage.output_tokens`` is a
    placeholder (often 1 to 10; the real count is in ``result``). ``result.modelUsage`` gives
    one ``usage`` event per model (``usage_source`` says which field was used); without it,
    ``result.usage`` gives one for the main model; with no ``result`` at all (the CLI died),
    the messages' own usage is summed and the event says so.
    """

    def __init__(
        self, events: Events, state: Path, kind: str = "main",
        settings: dict[str, Any] | None = None,
    ) -> None:  # fmt: skip
        self.events, self.state, self.kind = events, state, kind
        self.settings = settings  # emitted once the stream names the model (message actions)
        self.tools: dict[str, str] = {}
        self.message: dict[str, Any] | None = None
        self.seen: dict[str, dict[str, Any]] = {}  # message id -> model, parent, usage
        self.main_model = ""
        self.compacted = False
        self.compaction: dict[str, Any] = {}  # tokens of the last compact_boundary
        self.compact_error = ""
        self.failed = ""
        self.finished = False
        self.num_turns: int | None = None

    def line(self, raw: str) -> None:
        try:
            data = json.loads(raw)
        except ValueError:
            return
        if not isinstance(data, dict):
            return
        kind, subtype = data.get("type"), data.get("subtype")
        if kind == "system" and subtype == "init":
            self.init(data)
        elif kind == "system" and subtype == "compact_boundary":
            self.boundary(data)
        elif kind == "system" and subtype == "status" and data.get("compact_result") == "failed":
            self.compact_error = str(data.get("compact_error") or "compact_result: failed")
            if self.kind != "compaction":  # a compaction Claude Code tried on its own
                self.events.emit("compaction", status="failed", detail=self.compact_error)
        elif kind == "assistant":
            self.assistant(data.get("message") or {}, data.get("parent_tool_use_id"))
        elif kind == "user":
            self.flush()
            self.tool_results(data.get("message") or {})
        elif kind == "result":
            self.flush(data)
            self.result(data)

    def init(self, data: dict[str, Any]) -> None:
        if data.get("session_id"):
            (self.state / "claude_session").write_text(data["session_id"], encoding="utf-8")
        if isinstance(data.get("model"), str) and data["model"]:
            self.main_model = data["model"]
        self.emit_settings(data.get("claude_code_version"))

    def emit_settings(self, version: Any = None) -> None:
        """The settings event, once: the model as the stream names it (``system/init``), the
        one asked for (``--model``) beside it."""
        if self.settings is None:
            return
        settings, self.settings = dict(self.settings), None
        fallback = settings.pop("fallback_model", None)  # --model, or claude-code-default
        model = self.main_model or fallback
        extra = {"cli_version": version} if isinstance(version, str) else {}
        self.events.emit("settings", model=model, **settings, **extra)

    def boundary(self, data: dict[str, Any]) -> None:
        """``compact_boundary``: ``compact_metadata`` (stdout) or ``compactMetadata`` (the
        session log) holds ``trigger``, ``pre_tokens`` and ``post_tokens``."""
        self.compacted = True
        meta = data.get("compact_metadata") or data.get("compactMetadata") or {}
        meta = meta if isinstance(meta, dict) else {}
        before = meta.get("pre_tokens", meta.get("preTokens"))
        after = meta.get("post_tokens", meta.get("postTokens"))
        fields: dict[str, Any] = {}
        if isinstance(before, int) and before >= 0:
            fields["tokens_before"] = before
        if isinstance(after, int) and after >= 0:
            # post_tokens counts the summarized conversation only, not the system prompt
            # and tool definitions sent with it (anthropics/claude-code#87602)
            fields["tokens_after"] = after
        raw = {k: v for k, v in meta.items() if isinstance(v, str | int | float | bool)}
        self.compaction = {
            **fields, "compact_metadata": raw,
            "tokens_source": "compact_metadata.pre_tokens / post_tokens (post: conversation only)",
        }  # fmt: skip
        if self.kind != "compaction":  # a compaction Claude Code made on its own
            trigger = str(meta.get("trigger") or "auto")
            self.events.emit("compaction", status="completed", detail=trigger, **self.compaction)

    def assistant(self, message: dict[str, Any], parent: Any) -> None:
        if self.message is not None and self.message.get("id") != message.get("id"):
            self.flush()
        if self.message is None:
            self.message = {"id": message.get("id"), "text": [], "usage": {}, "model": ""}
        self.message["model"] = message.get("model") or self.message["model"]
        self.message["usage"] = message.get("usage") or self.message["usage"]
        self.message["parent"] = parent
        for block in message.get("content") or []:
            if not isinstance(block, dict):
                continue
            if block.get("type") == "text":
                self.message["text"].append(block.get("text", ""))
            elif block.get("type") == "tool_use":
                self.tools[block.get("id", "")] = block.get("name") or "tool"

    def flush(self, result: dict[str, Any] | None = None) -> None:
        """Emit the finished assistant message's text. Its ``tokens`` are the stream's
        placeholder unless ``result.usage.iterations`` (the last call's real usage) matches
        this message's input, which it does for the final answer."""
        message, self.message = self.message, None
        if message is None:
            return
        usage = message["usage"] if isinstance(message["usage"], dict) else {}
        model = message["model"]
        if message["id"] and model and model != "<synthetic>":
            self.seen[str(message["id"])] = {
                "model": model, "parent": message.get("parent"), "usage": usage,
            }  # fmt: skip
            if not message.get("parent") and not self.main_model:
                self.main_model = model
        if not message["text"]:
            return
        placeholder = _int(usage.get("output_tokens"))
        fields: dict[str, Any] = {"stream_output_tokens": placeholder}
        last = _last_iteration(result)
        if last is not None and all(
            _int(last.get(key)) == _int(usage.get(key))
            for key in ("input_tokens", "cache_read_input_tokens", "cache_creation_input_tokens")
        ):
            fields.update(tokens=_int(last.get("output_tokens")),
                          tokens_source="result.usage.iterations[-1].output_tokens")  # fmt: skip
        if model == "<synthetic>":
            fields["synthetic"] = True  # Claude Code's own text (an API error), no model call
        self.events.emit("assistant", text="".join(message["text"]), **fields)

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
        self.finished = True
        turns = data.get("num_turns")
        self.num_turns = turns if isinstance(turns, int) and not isinstance(turns, bool) else None
        by_model = data.get("modelUsage")
        usage = data.get("usage")
        cost = data.get("total_cost_usd")
        if isinstance(by_model, dict) and by_model:
            for model, counts in by_model.items():
                if isinstance(counts, dict):
                    self.model_usage(str(model), counts)
        elif isinstance(usage, dict) and usage:
            self.usage(self.main_model or "claude", {
                "input_tokens": usage.get("input_tokens"),
                "output_tokens": usage.get("output_tokens"),
                "cache_read_tokens": usage.get("cache_read_input_tokens"),
                "cache_write_tokens": usage.get("cache_creation_input_tokens"),
                "cost_usd": cost,
            }, "result.usage")  # fmt: skip
        elif isinstance(cost, int | float) and not isinstance(cost, bool):
            self.events.emit(
                "usage", model=self.main_model or "claude", kind="billing", calls=0,
                input_tokens=0, output_tokens=0, cost_usd=float(cost),
                usage_source="result.total_cost_usd",
            )  # fmt: skip
        if data.get("is_error"):
            self.failed = _result_error(data)
            self.events.emit("error", message=f"claude result: {self.failed}",
                             subtype=str(data.get("subtype") or ""))  # fmt: skip

    def model_usage(self, model: str, counts: dict[str, Any]) -> None:
        self.usage(model, {
            "input_tokens": counts.get("inputTokens"),
            "output_tokens": counts.get("outputTokens"),
            "cache_read_tokens": counts.get("cacheReadInputTokens"),
            "cache_write_tokens": counts.get("cacheCreationInputTokens"),
            "cost_usd": counts.get("costUSD"),
        }, "result.modelUsage")  # fmt: skip

    def usage(self, model: str, counts: dict[str, Any], source: str) -> None:
        """One ``usage`` event: a model's totals, its calls (messages the stream showed of it)
        and its peak context; Anthropic's input excludes cache reads and writes, so
        ``uncached_input_tokens`` = ``input_tokens``."""
        mine = [m for m in self.seen.values() if m["model"] == model]
        fresh = _int(counts["input_tokens"])
        fields: dict[str, Any] = {
            "input_tokens": fresh, "uncached_input_tokens": fresh,
            "output_tokens": _int(counts["output_tokens"]),
            "cache_read_tokens": _int(counts["cache_read_tokens"]),
            "cache_write_tokens": _int(counts["cache_write_tokens"]),
        }  # fmt: skip
        cost = counts["cost_usd"]
        if isinstance(cost, int | float) and not isinstance(cost, bool) and cost >= 0:
            fields["cost_usd"] = float(cost)
        contexts = [_context(m["usage"]) for m in mine]
        if any(contexts):
            fields["context_tokens"] = max(contexts)
        kind = self.role(model, mine)
        if kind != "subagent" and kind != "auxiliary" and self.num_turns is not None:
            fields["num_turns"] = self.num_turns  # the result's own count, kept raw
        self.events.emit(
            "usage", model=model, kind=kind, calls=max(len(mine), 1),
            **fields, usage_source=source, calls_source="assistant messages in the stream",
            stream_output_tokens=sum(_int(m["usage"].get("output_tokens")) for m in mine),
        )  # fmt: skip

    def role(self, model: str, mine: list[dict[str, Any]]) -> str:
        """``main`` for the session's model, ``subagent`` for a model only Task subagents
        used, ``auxiliary`` for one the stream never showed (Claude Code's own small calls);
        everything is ``compaction`` during a compact action."""
        if self.kind != "main":
            return self.kind
        if model == self.main_model or any(not m.get("parent") for m in mine):
            return "main"
        return "subagent" if mine else "auxiliary"

    def finish(self) -> None:
        """After the stream: the settings if never sent, and usage from the messages when the
        CLI died before its ``result`` line."""
        self.flush()
        self.emit_settings()
        if self.finished:
            return
        for model in dict.fromkeys(m["model"] for m in self.seen.values()):
            mine = [m["usage"] for m in self.seen.values() if m["model"] == model]
            self.usage(model, {
                "input_tokens": sum(_int(u.get("input_tokens")) for u in mine),
                "output_tokens": sum(_int(u.get("output_tokens")) for u in mine),
                "cache_read_tokens": sum(_int(u.get("cache_read_input_tokens")) for u in mine),
                "cache_write_tokens": sum(
                    _int(u.get("cache_creation_input_tokens")) for u in mine),
                "cost_usd": None,
            }, "assistant messages (no result line; output tokens are placeholders)")  # fmt: skip


def _int(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else 0


def _context(usage: dict[str, Any]) -> int:
    """Provider-bound tokens of one call: its input, cache reads and cache writes."""
    keys = ("input_tokens", "cache_read_input_tokens", "cache_creation_input_tokens")
    return sum(_int(usage.get(key)) for key in keys)


def _last_iteration(result: dict[str, Any] | None) -> dict[str, Any] | None:
    usage = (result or {}).get("usage")
    steps = usage.get("iterations") if isinstance(usage, dict) else None
    last = steps[-1] if isinstance(steps, list) and steps else None
    return last if isinstance(last, dict) else None


def _result_error(data: dict[str, Any]) -> str:
    """Why a ``result`` with ``is_error`` failed: its ``errors``, else ``terminal_reason`` and
    ``api_error_status`` (an API error reports ``subtype`` ``success``), else ``subtype``."""
    errors = data.get("errors")
    if isinstance(errors, list) and errors:
        return "; ".join(str(e) for e in errors)
    reason = data.get("terminal_reason")
    if reason:
        status = data.get("api_error_status")
        return f"{reason} ({status})" if status else str(reason)
    return str(data.get("subtype") or "error")


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
    settings = None
    if action == "message":
        prompt = Path(os.environ["BENCHSMITH_MESSAGE_FILE"]).read_text(encoding="utf-8")
        thinking = os.environ.get("MAX_THINKING_TOKENS")  # what Claude Code reads for thinking
        settings = {
            "provider": "anthropic", "fallback_model": args.model or "claude-code-default",
            "requested_model": args.model,
            "reasoning": {"max_thinking_tokens": thinking} if thinking else "default",
        }  # fmt: skip
    env = {k: v for k, v in os.environ.items() if not k.startswith("BENCHSMITH_")}
    if args.fresh_home:
        env["CLAUDE_CONFIG_DIR"] = str(state / "claude-home")
    mapper = Mapper(events, state, "main" if action == "message" else "compaction", settings)
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
    mapper.finish()
    transcript.close(session_logs(env, state))
    if action == "compact":
        status = "completed" if mapper.compacted and code == 0 else "failed"
        detail = mapper.compact_error if status == "failed" else ""
        events.emit("compaction", status=status, **({"detail": detail} if detail else {}),
                    **(mapper.compaction if status == "completed" else {}))  # fmt: skip
    if code != 0:
        events.emit("error", message=f"claude exited with status {code}")
        return code
    events.emit("idle")
    return 0


if __name__ == "__main__":
    sys.exit(main())
