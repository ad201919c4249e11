"""run: the runner of a benchmark corpus -- spec section 5, written once.

This file is assembled, in the benchsmith repository, from the parts in ``sdk/runtime/run/``
(``01_protocol.py`` to ``07_lean_runner.py``, joined in order by ``benchsmith.assembly``:
``make runtime``) into ``sdk/benchsmith/runtime/run.py``; ``benchsmith build`` copies that to
the root of each corpus next to ``benchlib.py`` and ``benchsmith lint`` reports copies that
drifted (BS503). Edit the parts, never a copy. It imports the standard library and benchlib
only, so a corpus runs anywhere Python 3.12 does.

Two front ends drive the one lifecycle defined here (:class:`Lifecycle`):

* ``python run.py --agent 'command:...' [--task NN-slug | --all] [--runs DIR] [--timeout S]``,
  the spec's lean runner: one adapter command, a JSON record per run, a plain-text summary
  with the section 7 figures (:func:`main`);
* ``benchsmith run``, which adds SQLite records, parallel runs, archives and reports.

Both read a task from its ``scenario.json`` (stages, messages, ``inject`` folders,
compactions, timeout, editable paths, judge command) and its ``seed.py`` (the seeded files
of each stage, ``--stage N --only``); never from task.toml. Loopback services come from the
judge's embedded task data (``TASK["services"]`` in judge.py, read with :mod:`ast`, never
executed): scenario.json's v1 shape is fixed by the spec and has no place for them.

Sections:
    * protocol   -- the adapter protocol: ``BENCHSMITH_*`` variables and event lines;
    * scenario   -- reading a task (:func:`load_scenario`, :func:`task_version`);
    * actions    -- one adapter action: events, time budget, process-group kill
                    (:func:`run_action`);
    * workspaces -- materializing a run's workspace and stage files (:class:`WorkspaceSource`);
    * lifecycle  -- one run (:class:`Lifecycle`): workspace, services, stages, compactions,
                    stop, judge, record;
    * judging    -- the lean runner's judge call (:class:`CommandJudge`), on benchlib's one
                    judge contract (:func:`benchlib.judge_once`);
    * lean runner -- figures, records and the command line of ``python run.py``.
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import datetime as _dt
import errno
import fcntl
import functools
import gzip
import hashlib
import json
import math
import os
import re
import shlex
import shutil
import signal
import stat
import subprocess
import sys
import tarfile
import tempfile
import threading
import time
import traceback
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Final, Literal, Protocol

try:
    from benchsmith.runtime import benchlib
except ImportError:  # the corpus copy: benchlib.py sits next to this file
    sys.dont_write_bytecode = True  # keep __pycache__ out of the corpus folder
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import benchlib  # type: ignore[no-redef,import-not-found]

# ---------------------------------------------------------------------------------------------
# protocol
# ---------------------------------------------------------------------------------------------

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
ENV_TRANSCRIPT_DIR: Final = "BENCHSMITH_TRANSCRIPT_DIR"
# Given to the built-in ``replay`` adapter only: never to external adapters.
ENV_REFERENCE: Final = "BENCHSMITH_REFERENCE"

MAX_LINE_BYTES: Final = 1 << 20
MAX_EVENT_DEPTH: Final = 64
"""Nesting of arrays and objects an event line may have (deeper lines are ``event-json``)."""
MAX_EVENT_INT: Final = (1 << 63) - 1
"""Integers of an event line must fit SQLite's signed 64-bit range (else ``event-range``)."""

USAGE_KEYS: Final[Mapping[str, tuple[str, bool]]] = {
    "calls": ("int", False),
    "input_tokens": ("int", True),
    "uncached_input_tokens": ("int", False),
    "output_tokens": ("int", True),
    "cache_read_tokens": ("int", False),
    "cache_write_tokens": ("int", False),
    "cost_usd": ("number", False),
    "context_tokens": ("int", False),
}
"""The measures of a ``usage`` event: key -> (``int`` or ``number``, required). benchsmith's
``Usage`` dataclass (``benchsmith.running.metrics``) defines the same keys; a test keeps both
equal."""

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


def _is_setting(value: Any) -> bool:
    return value is None or isinstance(value, str | bool | int | float | dict | list)


_WHAT: dict[_Check, str] = {
    _is_int: "a non-negative integer",
    _is_number: "a non-negative number",
    _is_text: "a string",
    _is_name: "a non-empty string",
    _is_bool: "a boolean",
    _is_status: "'completed' or 'failed'",
    _is_setting: "a JSON value",
}


def _usage_fields() -> tuple[dict[str, _Check], dict[str, _Check]]:
    required: dict[str, _Check] = {"model": _is_name, "kind": _is_name}
    optional: dict[str, _Check] = {}
    for key, (kind, needed) in USAGE_KEYS.items():
        (required if needed else optional)[key] = _is_number if kind == "number" else _is_int
    return required, optional


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
    "settings": ({}, dict.fromkeys(("provider", "model", "reasoning"), _is_setting)),
}
"""Event type -> (required fields, optional fields); extra keys are kept verbatim."""

SETTING_KEYS: Final = ("provider", "model", "reasoning")
"""What a ``settings`` event reports of the agent (spec section 5.3: a matched pair runs with
the same provider, model and reasoning setting); other keys it holds are kept as reported."""


def agent_settings(events: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """A run's agent settings: its ``settings`` events merged in order (a later value wins);
    every key of :data:`SETTING_KEYS` present, ``None`` when never reported."""
    merged: dict[str, Any] = dict.fromkeys(SETTING_KEYS)
    for event in events:
        if event.get("type") == "settings":
            merged.update({k: v for k, v in event.items() if k != "type"})
    return merged


@dataclass(frozen=True)
class LineProblem:
    """Why one events line was rejected.

    Attributes:
        code: Stable short code (``event-json``, ``event-type``, ``event-field``,
            ``event-size``, ``event-encoding``, ``event-range``).
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
    """Parse and validate one events line (without its newline)."""
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
    unusable = _value_problem(event)
    if unusable is not None:
        return unusable
    kind = event.get("type")
    if kind not in FIELDS:
        return LineProblem("event-type", f"unknown event type {kind!r}")
    problem = _field_problem(event, str(kind))
    return LineProblem("event-field", problem) if problem else event


def _value_problem(event: dict[str, Any]) -> LineProblem | None:
    """Why a parsed line cannot be stored as it is, anywhere in it: nested deeper than
    :data:`MAX_EVENT_DEPTH`, an integer outside SQLite's 64-bit range, a number that is not
    finite (``NaN``, ``1e999``), or a string or key holding a lone surrogate (``"\\ud800"``
    is valid JSON but no UTF-8 text)."""
    pending: list[tuple[Any, str, int]] = [(event, "", 1)]
    while pending:
        value, where, depth = pending.pop()
        at = f" at {where[:80]}" if where else ""
        if isinstance(value, dict | list):
            if depth > MAX_EVENT_DEPTH:
                return LineProblem("event-json", f"nested deeper than {MAX_EVENT_DEPTH} levels")
            items = value.items() if isinstance(value, dict) else enumerate(value)
            for key, item in items:
                if isinstance(key, str) and not _encodable(key):
                    return LineProblem("event-encoding", f"a key{at} holds a lone surrogate")
                pending.append((item, f"{where}.{key}" if where else str(key), depth + 1))
        elif isinstance(value, str) and not _encodable(value):
            return LineProblem("event-encoding", f"a string{at} holds a lone surrogate")
        elif isinstance(value, bool):
            continue
        elif isinstance(value, int) and not -MAX_EVENT_INT - 1 <= value <= MAX_EVENT_INT:
            return LineProblem("event-range", f"an integer{at} is beyond the 64-bit range")
        elif isinstance(value, float) and not math.isfinite(value):
            return LineProblem("event-range", f"a number{at} is not finite")
    return None


def _encodable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def event_line(event: Mapping[str, Any]) -> str:
    """Serialize one event the way adapters should: compact JSON plus a newline."""
    return json.dumps(dict(event), ensure_ascii=False, sort_keys=True) + "\n"
