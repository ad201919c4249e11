"""The adapter event protocol: what a valid line is, agreeing with the published schema."""

from __future__ import annotations

import json
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from benchsmith import resources
from benchsmith.running import protocol

VALID: list[dict[str, Any]] = [
    {"type": "assistant", "text": "hello"},
    {"type": "assistant", "text": "", "tokens": 3, "extra": {"kept": True}},
    {"type": "tool_call", "name": "bash", "result_bytes": 0},
    {"type": "tool_call", "name": "read", "result_bytes": 12, "is_error": False},
    {"type": "usage", "model": "m", "kind": "main", "input_tokens": 1, "output_tokens": 2},
    {
        "type": "usage",
        "model": "m",
        "kind": "title",
        "input_tokens": 1,
        "output_tokens": 2,
        "uncached_input_tokens": 1,
        "cache_read_tokens": 5,
        "cache_write_tokens": 0,
        "cost_usd": 0.25,
        "calls": 0,
        "context_tokens": 9,
    },
    {"type": "compaction", "status": "completed", "tokens_before": 10, "tokens_after": 2},
    {"type": "compaction", "status": "failed", "detail": "not supported"},
    {"type": "idle"},
    {"type": "done"},
    {"type": "error", "message": "rate limited"},
]

INVALID: list[tuple[Any, str]] = [
    ({"type": "assistant"}, "event-field"),
    ({"type": "assistant", "text": 3}, "event-field"),
    ({"type": "tool_call", "name": "x", "result_bytes": -1}, "event-field"),
    ({"type": "tool_call", "name": " ", "result_bytes": 1}, "event-field"),
    ({"type": "tool_call", "name": "x", "result_bytes": True}, "event-field"),
    ({"type": "usage", "model": "m", "input_tokens": 1, "output_tokens": 2}, "event-field"),
    (
        {"type": "usage", "model": "m", "kind": "main", "input_tokens": 1.5, "output_tokens": 2},
        "event-field",
    ),
    (
        {
            "type": "usage",
            "model": "m",
            "kind": "main",
            "input_tokens": 1,
            "output_tokens": 2,
            "cost_usd": -1,
        },
        "event-field",
    ),
    ({"type": "compaction", "status": "done"}, "event-field"),
    ({"type": "error"}, "event-field"),
    ({"type": "thinking"}, "event-type"),
    ({"text": "no type"}, "event-type"),
    ([1, 2], "event-json"),
]


@pytest.mark.parametrize("event", VALID)
def test_valid_events_parse(event: dict[str, Any]) -> None:
    assert protocol.parse_event(json.dumps(event).encode()) == event


@pytest.mark.parametrize(("event", "code"), INVALID)
def test_invalid_events_are_problems(event: Any, code: str) -> None:
    parsed = protocol.parse_event(json.dumps(event).encode())
    assert isinstance(parsed, protocol.LineProblem)
    assert parsed.code == code


@pytest.mark.parametrize(
    ("raw", "code"),
    [
        (b"not json", "event-json"),
        (b'{"type": "idle"', "event-json"),
        (b"\xff\xfe", "event-encoding"),
        (b"[" * 100000 + b"]" * 100000, "event-json"),
        (b'{"type":"idle","x":"' + b"a" * protocol.MAX_LINE_BYTES + b'"}', "event-size"),
    ],
)
def test_garbage_bytes_are_problems(raw: bytes, code: str) -> None:
    parsed = protocol.parse_event(raw)
    assert isinstance(parsed, protocol.LineProblem)
    assert parsed.code == code


def _schema_accepts(event: Any) -> bool:
    schema = resources.schema("run-record")
    validator = Draft202012Validator({"$defs": schema["$defs"], "$ref": "#/$defs/adapterEvent"})
    return validator.is_valid(event)


@pytest.mark.parametrize("event", VALID)
def test_schema_accepts_what_the_runner_accepts(event: dict[str, Any]) -> None:
    assert _schema_accepts(event)


@pytest.mark.parametrize(("event", "code"), [c for c in INVALID if c[1] != "event-json"])
def test_schema_rejects_what_the_runner_rejects(event: Any, code: str) -> None:
    assert not _schema_accepts(event), code


def test_event_line_is_one_json_line() -> None:
    line = protocol.event_line({"type": "assistant", "text": "a\nb"})
    assert line.endswith("\n") and line.count("\n") == 1
    assert protocol.parse_event(line.strip().encode()) == {"type": "assistant", "text": "a\nb"}
