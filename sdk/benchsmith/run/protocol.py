"""The adapter protocol: environment variables, actions and event lines.

An adapter is a command the runner starts once per *action* (``message`` or ``compact``)
with the ``BENCHSMITH_*`` variables below, in the workspace, in its own process group. It
appends one JSON object per line to ``$BENCHSMITH_EVENTS``. This module is the single
definition of those names and of what a valid event line is (a usage event's metric keys
come from :mod:`benchsmith.run.metrics`); it imports only the standard library and that
module so the built-in adapters start fast. ``schemas/run-record.schema.json`` publishes the
same event shapes (``$defs``) for adapter authors.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Final

from benchsmith.run.metrics import usage_columns

PROTOCOL_VERSION: Final = "1"

ENV_PROTOCOL: Final = "BENCHSMITH_PROTOCOL"
ENV_ACTION: Final = "BENCHSMITH_ACTION"
ENV_STAGE: Final = "BENCHSMITH_STAGE"
ENV_STAGE_ID: Final = "BENCHSMITH_STAGE_ID"
ENV_STAGES: Final = "BENCHSMITH_STAGES"
ENV_WORKSPACE: Final = "BENCHSMITH_WORKSPACE"
ENV_MESSAGE_FILE: Final = "BENCHSMITH_MESSAGE_FILE"
ENV_EVENTS: Final = "BENCHSMITH_EVENTS"
ENV_STATE_DIR: Final = "BENCHSMITH_STATE_DIR"
ENV_EDITABLE: Final = "BENCHSMITH_EDITABLE"
ENV_TIMEOUT: Final = "BENCHSMITH_TIMEOUT"
# Given to the built-in ``replay`` adapter only: never to external adapters.
ENV_REFERENCE: Final = "BENCHSMITH_REFERENCE"

MAX_LINE_BYTES: Final = 1 << 20

_Check = Callable[[Any], bool]


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _is_number(value: Any) -> bool:
    ok_type = isinstance(value, int | float) and not isinstance(value, bool)
    return ok_type and math.isfinite(value) and value >= 0


def _is_text(value: Any) -> bool:
    return isinstance(value, str)


def _is_name(value: Any) -> bool:
    return isinstance(value, str) and bool(value.strip())


def _is_bool(value: Any) -> bool:
    return isinstance(value, bool)


def _is_status(value: Any) -> bool:
    return value in ("completed", "failed")


_WHAT: dict[_Check, str] = {
    _is_int: "a non-negative integer",
    _is_number: "a non-negative number",
    _is_text: "a string",
    _is_name: "a non-empty string",
    _is_bool: "a boolean",
    _is_status: "'completed' or 'failed'",
}


def _usage_fields() -> tuple[dict[str, _Check], dict[str, _Check]]:
    """Required and optional keys of a usage event: its dimensions, then every metric column."""
    required: dict[str, _Check] = {"model": _is_name, "kind": _is_name}
    optional: dict[str, _Check] = {}
    for column in usage_columns():
        check = _is_number if column.type is float else _is_int
        (required if column.required else optional)[column.key] = check
    return required, optional


# type -> (required fields, optional fields); extra keys are kept verbatim.
FIELDS: Final[Mapping[str, tuple[Mapping[str, _Check], Mapping[str, _Check]]]] = {
    "assistant": ({"text": _is_text}, {"tokens": _is_int}),
    "tool_call": ({"name": _is_name, "result_bytes": _is_int}, {"is_error": _is_bool}),
    "usage": _usage_fields(),
    "compaction": (
        {"status": _is_status},
        {"detail": _is_text, "tokens_before": _is_int, "tokens_after": _is_int},
    ),
    "idle": ({}, {}),
    "done": ({}, {}),
    "error": ({"message": _is_text}, {}),
}


@dataclass(frozen=True, slots=True)
class LineProblem:
    """Why one events line was rejected.

    Attributes:
        code: Stable short code (``event-json``, ``event-type``, ``event-field``,
            ``event-size``, ``event-encoding``).
        message: What is wrong.
    """

    code: str
    message: str


def _field_problem(event: Mapping[str, Any], kind: str) -> str:
    required, optional = FIELDS[kind]
    for name, check in required.items():
        if name not in event:
            return f"{kind} event lacks {name!r}"
        if not check(event[name]):
            return f"{kind} event: {name!r} must be {_WHAT[check]}"
    for name, check in optional.items():
        if name in event and not check(event[name]):
            return f"{kind} event: {name!r} must be {_WHAT[check]}"
    return ""


def parse_event(raw: bytes) -> dict[str, Any] | LineProblem:
    """Parse and validate one events line (without its newline).

    Returns:
        The event object, or the :class:`LineProblem` that rejects it.
    """
    if len(raw) > MAX_LINE_BYTES:
        return LineProblem("event-size", f"line of {len(raw)} bytes exceeds {MAX_LINE_BYTES}")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        return LineProblem("event-encoding", f"not UTF-8 (byte {exc.start})")
    try:
        event = json.loads(text)
    except (ValueError, RecursionError) as exc:
        return LineProblem("event-json", f"not JSON: {exc}")
    if not isinstance(event, dict):
        return LineProblem("event-json", f"expected a JSON object, got {type(event).__name__}")
    kind = event.get("type")
    if kind not in FIELDS:
        return LineProblem("event-type", f"unknown event type {kind!r}")
    problem = _field_problem(event, str(kind))
    return LineProblem("event-field", problem) if problem else event


def event_line(event: Mapping[str, Any]) -> str:
    """Serialize one event the way adapters should: compact JSON plus a newline."""
    return json.dumps(dict(event), ensure_ascii=False, sort_keys=True) + "\n"
