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


# ---------------------------------------------------------------------------------------------
# scenario
# ---------------------------------------------------------------------------------------------

SCENARIO_FILE: Final = "scenario.json"
SCENARIO_SCHEMA: Final = "prime-context.python-realworld-task/v1"
WORKSPACE_PLACEHOLDER: Final = benchlib.WORKSPACE_PLACEHOLDER
VERSIONED: Final = ("scenario.json", "judge.py", "seed.py")
_INJECT = re.compile(r"^(visible|stages/[^/]+)/$")


class ScenarioError(Exception):
    """Raised when a task folder holds no usable scenario.json (or judge.py, seed.py)."""


@dataclass(frozen=True)
class Stage:
    """One stage of scenario.json: id, injected folder, user message, compaction after it."""

    id: str
    inject: str
    message: str
    compact_after: bool


@dataclass(frozen=True)
class Service:
    """A loopback fixture service kept running during the agent run (spec 10.4)."""

    name: str
    run: str
    url_file: str
    origins: tuple[tuple[str, str], ...] = ()

    def declared(self) -> dict[str, Any]:
        """The service as judge.py's ``TASK["services"]`` declares it."""
        data: dict[str, Any] = {"name": self.name, "run": self.run, "url_file": self.url_file}
        if self.origins:
            data["origins"] = dict(self.origins)
        return data


@dataclass(frozen=True)
class Scenario:
    """A task as the runner sees it: scenario.json plus the judge's services.

    Attributes:
        task_dir: The task folder.
        id: Task number.
        slug: Task slug.
        title: Task title.
        pressure: Pressure class (N, L, M, H).
        timeout_seconds: The agent's time budget over all its actions.
        editable: Workspace paths the agent may write.
        stages: Stages in order.
        judge_command: The judge's command line (``{workspace}`` placeholder).
        services: Fixture services (from judge.py's ``TASK["services"]``).
    """

    task_dir: Path
    id: int
    slug: str
    title: str
    pressure: str
    timeout_seconds: float
    editable: tuple[str, ...]
    stages: tuple[Stage, ...]
    judge_command: tuple[str, ...]
    services: tuple[Service, ...] = ()

    @property
    def dirname(self) -> str:
        """``NN-slug``: the task's folder name and its key in run records."""
        return self.task_dir.name

    @property
    def layout(self) -> benchlib.Layout:
        """The runtime layout: stage ids, their ``inject`` folders, editable paths."""
        return benchlib.Layout(
            task_dir=self.task_dir,
            stages=tuple(s.id for s in self.stages),
            editable=self.editable,
            injects=tuple(s.inject for s in self.stages),
        )


def _require(condition: bool, path: Path, what: str) -> None:
    if not condition:
        raise ScenarioError(f"{path}: {what}")


def load_scenario(task_dir: Path) -> Scenario:
    """Read a task folder's scenario.json (and the services its judge.py declares).

    Raises:
        ScenarioError: When scenario.json is missing, not JSON or not of the v1 shape the
            runner needs, or seed.py, judge.py or TASK.md is missing.
    """
    task_dir = Path(task_dir).absolute()
    path = task_dir / SCENARIO_FILE
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ScenarioError(f"{path}: cannot be read: {exc}") from None
    except RecursionError:
        raise ScenarioError(f"{path}: cannot be read: nested too deeply") from None
    _require(isinstance(data, dict), path, "not a JSON object")
    _require(data.get("schema") == SCENARIO_SCHEMA, path, f"schema is not {SCENARIO_SCHEMA}")
    for name in ("seed.py", "judge.py", "TASK.md"):
        _require((task_dir / name).is_file(), task_dir / name, "missing")
    scenario = Scenario(
        task_dir=task_dir,
        id=_int(data, "id", path),
        slug=_text(data, "slug", path),
        title=_text(data, "title", path),
        pressure=_text(data, "pressure", path),
        timeout_seconds=float(_int(data, "timeout_seconds", path)),
        editable=_texts(data, "editable_paths", path),
        stages=_stages(data, path),
        judge_command=_judge_command(data, path),
        services=judge_services(task_dir / "judge.py"),
    )
    _require(scenario.timeout_seconds > 0, path, "timeout_seconds must be positive")
    return scenario


def _int(data: Mapping[str, Any], key: str, path: Path) -> int:
    value = data.get(key)
    if not isinstance(value, int) or isinstance(value, bool):
        raise ScenarioError(f"{path}: {key}: no integer")
    return value


def _text(data: Mapping[str, Any], key: str, path: Path) -> str:
    value = data.get(key)
    _require(isinstance(value, str) and bool(value), path, f"{key}: no text")
    return str(value)


def _texts(data: Mapping[str, Any], key: str, path: Path) -> tuple[str, ...]:
    value = data.get(key)
    ok = isinstance(value, list) and bool(value) and all(isinstance(v, str) for v in value)
    _require(ok, path, f"{key}: not a list of strings")
    return tuple(value)  # type: ignore[arg-type]


def _stages(data: Mapping[str, Any], path: Path) -> tuple[Stage, ...]:
    stages = data.get("stages")
    _require(isinstance(stages, list) and bool(stages), path, "stages: not a list of stages")
    found = []
    for number, stage in enumerate(stages, 1):  # type: ignore[arg-type]
        where = f"stages[{number - 1}]"
        _require(isinstance(stage, dict), path, f"{where}: not an object")
        inject = _text(stage, "inject", path)
        _require(bool(_INJECT.match(inject)), path, f"{where}.inject: {inject!r} is no folder")
        compact = stage.get("compact_after")
        _require(isinstance(compact, bool), path, f"{where}.compact_after: not a boolean")
        found.append(
            Stage(_text(stage, "id", path), inject, _text(stage, "message", path), compact)
        )
    return tuple(found)


def _judge_command(data: Mapping[str, Any], path: Path) -> tuple[str, ...]:
    command = _texts(data, "judge_command", path)
    ok = any(WORKSPACE_PLACEHOLDER in a for a in command)
    _require(ok, path, f"judge_command does not pass {WORKSPACE_PLACEHOLDER}")
    return command


@contextlib.contextmanager
def serve(
    service: Mapping[str, Any], workspace: Path, python: str, *, sealed: bool = False
) -> Iterator[benchlib.ServiceHandle]:
    """Start a declared service in ``workspace`` and write its URL files (read-only), as the
    runner does for an agent; the service stops when the context ends. ``sealed``: in the
    view of :func:`service_seal`.

    Raises:
        RuntimeError: When the service does not start (the message names it, its command, what
            went wrong and the last lines of its stderr).
    """
    seal = service_seal(workspace, python) if sealed else None
    with benchlib.start_declared_service(service, workspace, python, seal=seal) as handle:
        files = {service["name"]: service["url_file"], **service.get("origins", {})}
        for rel in files.values():
            target = workspace / rel
            if rel and target.parent.exists():
                target.parent.chmod(target.parent.stat().st_mode | 0o700)
            if rel and target.exists():
                target.chmod(0o644)
        benchlib.write_url_files(workspace, service, handle)
        yield handle


SERVICE_LIMITS = benchlib.Limits(cpu_seconds=None, memory_bytes=4 << 30, processes=256)
"""A fixture service lives as long as the agent's run: no CPU-time cap; 4 GiB of address
space and 256 processes are far more than a loopback fixture server needs."""


def service_seal(workspace: Path, python: str) -> benchlib.Seal:
    """How a fixture service runs beside a sealed agent (spec 10.4).

    The minimal view: the system folders, the task's interpreter, benchlib's own file (the
    service wrapper) and the workspace, all read-only, the workspace as its working
    directory; a private ``/tmp`` and ``HOME``; an environment of its own
    (:func:`benchlib.sandbox_env`: no runner variable, no ``--pass-env`` credential); a
    fresh uid when the runner is root. It shares the host's network namespace, since the
    agent reaches it on the host's loopback (agents share it too, ``--network host``); the
    service is the task's own code, and nothing else of the host is visible to it.

    Raises:
        RuntimeError: When ``python`` cannot be run.
    """
    binds = (*benchlib.interpreter(python).binds(), benchlib.Bind(workspace))
    return benchlib.Seal(
        binds=binds, network=True, limits=SERVICE_LIMITS, env=benchlib.sandbox_env(),
        cwd=str(workspace),
    )  # fmt: skip


def judge_services(judge: Path) -> tuple[Service, ...]:
    """The services of judge.py's embedded ``TASK`` data, read as a literal (never run).

    Raises:
        ScenarioError: When judge.py does not parse or its ``services`` are malformed.
    """
    try:
        tree = ast.parse(judge.read_bytes(), filename=str(judge))
    except (OSError, SyntaxError, ValueError) as exc:
        raise ScenarioError(f"{judge}: cannot be read: {exc}") from None
    for node in tree.body:
        if isinstance(node, ast.Assign) and [ast.unparse(t) for t in node.targets] == ["TASK"]:
            try:
                task = ast.literal_eval(node.value)
            except (ValueError, TypeError, SyntaxError, RecursionError):
                return ()
            services = task.get("services", []) if isinstance(task, dict) else []
            try:
                return tuple(_service(s) for s in services)
            except (TypeError, KeyError, AttributeError) as exc:
                raise ScenarioError(f"{judge}: TASK['services'] is malformed: {exc}") from None
    return ()


def _service(data: Mapping[str, Any]) -> Service:
    origins = tuple((str(k), str(v)) for k, v in data.get("origins", {}).items())
    return Service(data["name"], data["run"], data["url_file"], origins)


def task_version(task_dir: Path) -> str:
    """SHA-256 over scenario.json, judge.py and seed.py: what an agent is asked and judged by.

    Two runs with one version ran the same task; ``benchsmith report --arms`` warns when the
    two runs of a matched pair differ.
    """
    digest = hashlib.sha256()
    for name in VERSIONED:
        path = Path(task_dir) / name
        digest.update(name.encode() + b"\0")
        digest.update(path.read_bytes() if path.is_file() else b"")
    return digest.hexdigest()


# ---------------------------------------------------------------------------------------------
# actions
# ---------------------------------------------------------------------------------------------

IDLE_GRACE = 10.0
MAX_STREAM_BYTES: Final = 10 << 20
"""What is kept of each action's events file, stdout and stderr: the first 10 MiB. Beyond
that, events are not read and the streams are cut back as the adapter writes (so a flood
never fills the disk), each noted once as an ``event-cap`` or ``output-cap`` diagnostic."""
MAX_TRANSCRIPT_BYTES: Final = 64 << 20
"""What a run keeps of the files its adapter saved in ``$BENCHSMITH_TRANSCRIPT_DIR`` (all
files together; the rest is cut and recorded as a ``transcript-cap`` diagnostic)."""
TRANSCRIPTS: Final = "transcripts"
"""The folder of ``actions/`` that keeps the adapter's raw transcripts."""
MAX_PROBLEMS = 200
POLL_FIRST = 0.002
POLL_MAX = 0.025
COMMAND_PREFIX: Final = "command:"

Outcome = Literal["idle", "timeout", "crash"]


@dataclass(frozen=True)
class ActionEnv:
    """What one action tells the adapter.

    Attributes:
        action: ``message`` or ``compact``.
        stage: 1-based stage number the action belongs to.
        stage_id: That stage's id.
        stages: Number of stages of the task.
        workspace: The agent's workspace (absolute).
        events: File the adapter appends event lines to.
        state_dir: Private folder that persists across this run's actions.
        editable: Workspace paths the agent may write.
        timeout: Seconds left of the agent's time budget.
        message_file: File holding the user message (``message`` actions only).
        reference: The task's reference solution (passed to ``replay`` only).
        transcript_dir: Folder, kept across this run's actions, where the adapter may save
            its raw (vendor) transcript files; the run keeps them in
            ``actions/transcripts/``.
    """

    action: str
    stage: int
    stage_id: str
    stages: int
    workspace: Path
    events: Path
    state_dir: Path
    editable: tuple[str, ...]
    timeout: float
    message_file: Path | None = None
    reference: Path | None = None
    transcript_dir: Path | None = None


@dataclass(frozen=True)
class Adapter:
    """An agent adapter, ready to start.

    Attributes:
        spec: The ``--agent`` value as given (recorded with each run).
        kind: ``command`` (or a front end's built-in: ``replay``, ``nop``).
        argv: The program started for every action.
        binds: Host files the program needs, shown read-only to a sealed agent at the same
            paths (see :func:`command_adapter`).
    """

    spec: str
    kind: str
    argv: tuple[str, ...]
    binds: tuple[benchlib.Bind, ...] = ()

    def env(self, context: ActionEnv) -> dict[str, str]:
        """The ``BENCHSMITH_*`` variables of one action."""
        values = {
            ENV_PROTOCOL: PROTOCOL_VERSION,
            ENV_ACTION: context.action,
            ENV_STAGE: str(context.stage),
            ENV_STAGE_ID: context.stage_id,
            ENV_STAGES: str(context.stages),
            ENV_WORKSPACE: str(context.workspace),
            ENV_EVENTS: str(context.events),
            ENV_STATE_DIR: str(context.state_dir),
            ENV_EDITABLE: json.dumps(list(context.editable)),
            ENV_TIMEOUT: f"{max(context.timeout, 0.0):.1f}",
        }
        if context.message_file is not None:
            values[ENV_MESSAGE_FILE] = str(context.message_file)
        if context.transcript_dir is not None:
            values[ENV_TRANSCRIPT_DIR] = str(context.transcript_dir)
        if self.kind == "replay" and context.reference is not None:
            values[ENV_REFERENCE] = str(context.reference)
        return values


SHELL_SYNTAX: Final = frozenset("|&;<>()$`*?[]{}~\n")
"""Characters that make a ``command:`` line more than one program with its arguments."""

SCRIPT_INTERPRETERS: Final = frozenset(
    {"bash", "bun", "dash", "deno", "node", "perl", "ruby", "sh", "zsh"}
)
AGENT_DIRS: Final = ("/opt",)
"""Folders a sealed agent sees read-only besides the system folders (when they exist)."""

SHELL_BUILTINS: Final = frozenset(
    {".", ":", "cd", "eval", "exec", "exit", "export", "set", "true", "false", "ulimit", "umask"}
)


def command_adapter(spec: str, cwd: Path | None = None) -> Adapter:
    """The adapter of ``command:<shell command>``, run with ``/bin/sh -c``.

    A simple command (one program and its arguments, no shell syntax) is resolved here, on
    the host, from ``cwd`` (default: the caller's working directory), because actions run in
    the workspace and a sealed agent sees only the system folders: the program becomes an
    absolute path (found on ``PATH``, or relative to ``cwd``; a pyenv shim becomes the real
    interpreter, a venv's interpreter brings its venv), an interpreter's script (its first
    argument not starting with ``-``, when that names a file) becomes absolute, and the
    adapter's :attr:`Adapter.binds` show those files (and the interpreter's installation)
    read-only.
    A compound command runs as written; what it needs outside the system folders must be
    bound with ``--agent-bind``.

    Raises:
        ValueError: When ``spec`` is not ``command:`` followed by a command, or its program
            cannot be found.
    """
    command = spec.removeprefix(COMMAND_PREFIX).strip() if spec.startswith(COMMAND_PREFIX) else ""
    if not command:
        raise ValueError(f"--agent {spec!r}: expected command:<shell command>")
    words = _simple_words(command)
    if words is None or words[0] in SHELL_BUILTINS:
        return Adapter(spec, "command", ("/bin/sh", "-c", command))
    base = (cwd or Path.cwd()).absolute()
    program, binds = _resolve_program(words[0], base)
    resolved = [program, *words[1:]]
    script = next((i for i, w in enumerate(words) if i and not w.startswith("-")), None)
    if script is not None and _is_interpreter(words[0]) and (base / words[script]).is_file():
        path = (base / words[script]).resolve()
        resolved[script] = str(path)
        binds.append(benchlib.Bind(path))
    visible = tuple(
        b for b in dict.fromkeys(binds) if not _visible_to_agents(str(b.source.resolve()))
    )
    return Adapter(spec, "command", ("/bin/sh", "-c", shlex.join(resolved)), visible)


def _simple_words(command: str) -> list[str] | None:
    """The words of ``command`` when it is one program with arguments, else ``None``."""
    if any(c in SHELL_SYNTAX for c in command):
        return None
    try:
        words = shlex.split(command)
    except ValueError:
        return None
    if not words or "=" in words[0]:
        return None
    return words


def _resolve_program(word: str, base: Path) -> tuple[str, list[benchlib.Bind]]:
    """The absolute program of ``word`` and the binds it needs.

    Raises:
        ValueError: When it cannot be found.
    """
    found = str(base / word) if "/" in word else shutil.which(word)
    if found is None or not os.access(found, os.X_OK) or Path(found).is_dir():
        where = f"relative to {base}" if "/" in word else "on PATH"
        raise ValueError(f"the adapter's program {word!r} is not an executable file {where}")
    program = Path(found).absolute()
    if not Path(word).name.startswith("python"):
        return str(program), [benchlib.Bind(program.resolve(), str(program))]
    try:
        real = benchlib.interpreter(str(program))
    except RuntimeError as exc:
        raise ValueError(f"the adapter's program {word!r}: {exc}") from None
    binds = list(real.binds())
    if _is_shim(program):
        return real.executable, binds
    venv = program.parent.parent
    if (venv / "pyvenv.cfg").is_file():
        return str(program), [*binds, benchlib.Bind(venv)]
    if str(program.resolve()) != real.executable:
        binds.append(benchlib.Bind(program.resolve(), str(program)))
    return str(program), binds


def _is_interpreter(word: str) -> bool:
    """Whether the program ``word`` takes a script file as its first plain argument."""
    name = Path(word).name
    return name.startswith("python") or name in SCRIPT_INTERPRETERS


def _is_shim(program: Path) -> bool:
    """Whether ``program`` is a script standing for an interpreter (a pyenv shim)."""
    try:
        with open(program, "rb") as stream:
            return stream.read(2) == b"#!"
    except OSError:
        return False


def _visible_to_agents(path: str) -> bool:
    """Whether ``path`` lies in the folders every sealed agent sees anyway."""
    return any(path == f or path.startswith(f + "/") for f in (*benchlib.SYSTEM_DIRS, *AGENT_DIRS))


@dataclass(frozen=True)
class Received:
    """One valid event line, stamped when the runner read it.

    Attributes:
        line: 1-based line number in the action's events file.
        t: Seconds since the run started.
        event: The event object.
    """

    line: int
    t: float
    event: dict[str, Any]


@dataclass(frozen=True)
class Problem:
    """A malformed events line or an adapter misbehaviour, recorded as a diagnostic.

    Attributes:
        line: 1-based line number (0 when not about a line).
        code: Short stable code (see :class:`LineProblem`, ``lingered``, ``event-file``).
        message: What is wrong.
        text: The offending text (clipped), if any.
    """

    line: int
    code: str
    message: str
    text: str = ""


@dataclass
class ActionResult:
    """What one action did.

    Attributes:
        action: ``message`` or ``compact``.
        stage: The stage it belongs to.
        outcome: ``idle`` (turn finished), ``timeout`` or ``crash``.
        detail: Human explanation of a non-idle outcome.
        exit_code: The adapter's exit status (``None`` when killed or never started).
        started: Seconds since the run started.
        seconds: Wall time of the action.
        events: Valid events in order.
        problems: Malformed lines and misbehaviours.
    """

    action: str
    stage: int
    outcome: Outcome
    detail: str
    exit_code: int | None
    started: float
    seconds: float
    events: list[Received] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)

    def has(self, kind: str) -> bool:
        """Whether the adapter emitted an event of type ``kind``."""
        return any(r.event["type"] == kind for r in self.events)


class EventTail:
    """Reads an events file incrementally, validating complete lines."""

    def __init__(self, path: Path, origin: float) -> None:
        self.path, self.origin = path, origin
        self.offset, self.buffer, self.lines = 0, b"", 0
        self.not_regular = False
        self.capped = False
        self.idle = False
        self.events: list[Received] = []
        self.problems: list[Problem] = []

    def poll(self, *, final: bool = False) -> None:
        """Consume what was appended since the last call (and a last unterminated line)."""
        chunk = self.read_new()
        self.offset += len(chunk)
        self.buffer += chunk
        *complete, self.buffer = self.buffer.split(b"\n")
        if final and self.buffer:
            if not self.capped:  # past the cap, the last line is cut, not malformed
                complete.append(self.buffer)
            self.buffer = b""
        for raw in complete:
            self.take(raw)

    def read_new(self) -> bytes:
        """Bytes appended since the last read, up to :data:`MAX_STREAM_BYTES` in all; never
        blocks, even if a FIFO replaced the file, and never follows a symbolic link."""
        try:
            fd = os.open(self.path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOFOLLOW)
        except OSError as exc:
            if exc.errno == errno.ELOOP:
                self.not_a_file("the events file is a symbolic link (not followed)")
            return b""
        try:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                self.not_a_file("the events file is not a regular file")
                return b""
            left = MAX_STREAM_BYTES - self.offset
            os.lseek(fd, self.offset, os.SEEK_SET)
            chunks, size = [], 0
            while size < left and (chunk := os.read(fd, min(1 << 20, left - size))):
                chunks.append(chunk)
                size += len(chunk)
            if size == left:
                self.cap(fd)
            return b"".join(chunks)
        finally:
            os.close(fd)

    def not_a_file(self, message: str) -> None:
        """Note once that the events file cannot be read."""
        if not self.not_regular:
            self.not_regular = True
            self.problem(Problem(0, "event-file", message))

    def cap(self, fd: int) -> None:
        """Past the cap: note it once, and cut the file back so a flood stays on no disk."""
        if os.fstat(fd).st_size > MAX_STREAM_BYTES:
            if not self.capped:
                self.capped = True
                self.problem(
                    Problem(0, "event-cap", f"events beyond {MAX_STREAM_BYTES >> 20} MiB not read")
                )
            with contextlib.suppress(OSError):
                os.truncate(self.path, MAX_STREAM_BYTES)

    def take(self, raw: bytes) -> None:
        """Validate one line and keep it as an event or a problem."""
        self.lines += 1
        if not raw.strip():
            return
        parsed = parse_event(raw.strip())
        if isinstance(parsed, LineProblem):
            self.problem(Problem(self.lines, parsed.code, parsed.message, clip(raw)))
        else:
            self.events.append(Received(self.lines, time.monotonic() - self.origin, parsed))
            self.idle = self.idle or parsed["type"] == "idle"

    def problem(self, problem: Problem) -> None:
        """Record a problem, up to :data:`MAX_PROBLEMS` per action."""
        if len(self.problems) < MAX_PROBLEMS:
            self.problems.append(problem)
        elif len(self.problems) == MAX_PROBLEMS:
            self.problems.append(Problem(0, "too-many", "further problems were not recorded"))


def clip(raw: bytes, limit: int = 500) -> str:
    """The start of an offending line, decoded leniently."""
    return raw[:limit].decode("utf-8", errors="replace")


@dataclass(frozen=True)
class ActionFiles:
    """Where one action's message, events and output streams live."""

    message: Path | None
    events: Path
    stdout: Path
    stderr: Path


@dataclass(frozen=True)
class AgentSeal:
    """How adapter actions run sealed under bubblewrap (benchlib's :class:`~benchlib.Seal`,
    ``minimal`` view): what an agent sees and may write. An allowlist: nothing of the host
    shows that is not named here, so no copy of a corpus, export or earlier run anywhere on
    the machine can be read.

    Read-only: the system folders (``/usr``, ``/bin``, ``/sbin``, ``/lib*``, ``/etc``) and
    ``/opt``; the task's interpreter (``python``; its folder first on ``PATH``); the adapter's
    program and script (:attr:`Adapter.binds`); and ``binds``. ``/tmp`` is a private tmpfs.
    At their own paths: the workspace read-only with each editable path writable (an
    editable *file*'s folder, so tools can replace it and SQLite keep a journal beside it;
    never the workspace root itself), the adapter's state folder writable, the action's
    events file writable and its message file read-only. ``HOME`` and
    ``XDG_{CONFIG,CACHE,DATA}_HOME`` are fresh folders in the state folder. Own PID
    namespace: when the action ends, everything it started dies with it, daemons included.

    Attributes:
        binds: Extra read-only binds: ``--agent-bind`` paths, a built-in adapter's
            interpreter and package.
        python: The interpreter the task uses (``--python``), shown to the agent; empty: none.
        network: Share the host network (model APIs); ``False``: only a private loopback.
        pass_env: Variables passed through from the runner's environment (credentials).
    """

    binds: tuple[benchlib.Bind, ...] = ()
    python: str = ""
    network: bool = True
    pass_env: tuple[str, ...] = ()


def agent_binds(paths: Sequence[str], cwd: Path | None = None) -> tuple[benchlib.Bind, ...]:
    """The read-only binds of ``--agent-bind`` paths (relative ones from ``cwd``).

    Raises:
        ValueError: When a path does not exist.
    """
    base = (cwd or Path.cwd()).absolute()
    binds = []
    for given in paths:
        path = base / given
        if not path.exists():
            raise ValueError(f"--agent-bind {given}: no such file or folder")
        binds.append(benchlib.Bind(path.resolve(), str(path.absolute())))
    return tuple(binds)


AGENT_LIMITS = benchlib.Limits(cpu_seconds=None, memory_bytes=None, processes=4096)
"""Agents (often Node.js) reserve large address spaces: only files and processes are capped;
the agent's time budget bounds the rest."""


def agent_home(state_dir: Path) -> dict[str, str]:
    """The fresh ``HOME`` and XDG folders of a sealed agent, created in its state folder."""
    home = state_dir / "home"
    folders = {
        "HOME": home,
        "XDG_CONFIG_HOME": home / ".config",
        "XDG_CACHE_HOME": home / ".cache",
        "XDG_DATA_HOME": home / ".local" / "share",
    }
    for folder in folders.values():
        folder.mkdir(parents=True, exist_ok=True)
    return {name: str(folder) for name, folder in folders.items()}


def agent_seal(
    seal: AgentSeal,
    env: ActionEnv,
    files: ActionFiles,
    variables: Mapping[str, str],
    adapter: Adapter | None = None,
) -> benchlib.Seal:
    """The :class:`benchlib.Seal` of one action of ``adapter``."""
    binds = [benchlib.Bind(Path(d)) for d in AGENT_DIRS if Path(d).is_dir()]
    search = os.environ.get("PATH", ":".join(benchlib.SANDBOX_PATH)).split(":")
    if seal.python:
        python = benchlib.interpreter(seal.python)
        binds += python.binds()
        search.insert(0, str(Path(python.executable).parent))
    binds += [*(adapter.binds if adapter else ()), *seal.binds, benchlib.Bind(env.workspace)]
    for rel in env.editable:
        path = env.workspace / rel.rstrip("/")
        if not rel.endswith("/") and not path.is_dir() and path.parent != env.workspace:
            path = path.parent
        if path.exists() and path != env.workspace:
            binds.append(benchlib.Bind(path, writable=True))
    binds.append(benchlib.Bind(env.state_dir, writable=True))
    if env.transcript_dir is not None:
        binds.append(benchlib.Bind(env.transcript_dir, writable=True))
    binds.append(benchlib.Bind(files.events, writable=True))
    if files.message is not None:
        binds.append(benchlib.Bind(files.message))
    passed = {n: os.environ[n] for n in seal.pass_env if n in os.environ}
    environment = benchlib.sandbox_env(
        {**passed, **variables, **agent_home(env.state_dir), "PATH": ":".join(search)}
    )
    return benchlib.Seal(
        binds=tuple(binds), view="minimal", network=seal.network, limits=AGENT_LIMITS,
        env=environment, cwd=str(env.workspace),
    )  # fmt: skip


def run_action(
    adapter: Adapter,
    env: ActionEnv,
    files: ActionFiles,
    *,
    origin: float,
    seal: AgentSeal | None = None,
) -> ActionResult:
    """Run one action to its end; never raises for the adapter's misbehaviour.

    The adapter runs with the workspace as its working directory, sealed by ``seal``
    (:class:`AgentSeal`) or, unsealed, in its own process group. The turn is finished when it
    exits 0 after emitting ``idle``; one still running :data:`IDLE_GRACE` seconds after
    ``idle`` is stopped (and that recorded). A nonzero exit, or an exit without ``idle``, is
    a crash; running past ``env.timeout`` a timeout. Everything the action started is killed
    when it ends: the sandbox's PID namespace, or unsealed the process group and any process
    that left it but carries the action's token in its environment.

    Args:
        adapter: The adapter to start.
        env: What the action tells the adapter (its ``timeout`` is the budget left).
        files: The action's files (the events file is created empty).
        origin: ``time.monotonic()`` at the start of the run, for event stamps.
        seal: How to seal the adapter; ``None`` runs it unsealed.
    """
    files.events.write_bytes(b"")
    started = time.monotonic()
    tail = EventTail(files.events, origin)
    base = ActionResult(env.action, env.stage, "crash", "", None, started - origin, 0.0)
    token = benchlib.run_token()
    variables = {**adapter.env(env), benchlib.RUN_TOKEN_VARIABLE: token}
    streams = StreamCap((files.stdout, files.stderr))
    with open(files.stdout, "wb") as out, open(files.stderr, "wb") as err:
        try:
            with _started(adapter, env, files, variables, seal, (out, err)) as process:
                how, detail = _follow(process, tail, started + env.timeout, streams.trim)
        except OSError as exc:
            base.detail = f"adapter could not start: {exc}"
            return base
        finally:
            benchlib.sweep(token)  # children that left the group (setsid, double fork)
        streams.settle((out, err))
    tail.poll(final=True)
    streams.trim()
    tail.problems.extend(streams.problems())
    base.outcome, base.detail = _settle(how, detail, process.returncode, tail)
    base.exit_code = None if how == "timeout" or detail == "lingered" else process.returncode
    if detail == "lingered":
        tail.problems.append(
            Problem(0, "lingered", f"adapter still running {IDLE_GRACE:g} s after idle; stopped")
        )
    base.seconds = time.monotonic() - started
    base.events, base.problems = tail.events, tail.problems
    return base


@contextlib.contextmanager
def _started(
    adapter: Adapter,
    env: ActionEnv,
    files: ActionFiles,
    variables: Mapping[str, str],
    seal: AgentSeal | None,
    streams: tuple[Any, Any],
) -> Iterator[subprocess.Popen[bytes]]:
    """The adapter's process, killed (with all it started) when the block ends.

    Raises:
        OSError: When it cannot be started.
    """
    out, err = streams
    if seal is not None:
        sealed = agent_seal(seal, env, files, variables, adapter)
        with benchlib.sealed_popen(sealed, list(adapter.argv), stdout=out, stderr=err) as process:
            yield process
        return
    process = subprocess.Popen(
        list(adapter.argv), cwd=env.workspace, stdin=subprocess.DEVNULL, stdout=out,
        stderr=err, env=benchlib.clean_env(variables), start_new_session=True,
    )  # fmt: skip
    try:
        yield process
    finally:
        benchlib.kill_group(process)
        process.wait()


class StreamCap:
    """Keeps an action's stdout and stderr files to their first :data:`MAX_STREAM_BYTES`.

    The adapter writes through a descriptor it shares with the runner, so its offset runs on
    past a truncation: what it writes later lands beyond the cut, in a hole that takes no
    space, and is cut again at the next poll. The largest size seen is what was written.
    """

    def __init__(self, paths: Sequence[Path]) -> None:
        self.written = dict.fromkeys(paths, 0)

    def trim(self) -> None:
        """Cut each file back to the cap (called at every poll and once at the end)."""
        for path in self.written:
            with contextlib.suppress(OSError):
                size = path.stat().st_size
                if size > MAX_STREAM_BYTES:
                    self.written[path] = max(self.written[path], size)
                    os.truncate(path, MAX_STREAM_BYTES)

    def settle(self, streams: Sequence[Any]) -> None:
        """Once the adapter is gone, count what it wrote by the offset it shares with our
        ``streams`` (one per path, in order): a size seen at a poll misses what it wrote
        between that poll's stat and truncate."""
        for path, stream in zip(self.written, streams, strict=True):
            with contextlib.suppress(OSError):
                offset = os.lseek(stream.fileno(), 0, os.SEEK_CUR)
                if offset > MAX_STREAM_BYTES:
                    self.written[path] = max(self.written[path], offset)

    def problems(self) -> list[Problem]:
        """One ``output-cap`` note per stream that was cut."""
        return [
            Problem(
                0,
                "output-cap",
                f"{path.suffix[1:]}: kept the first {MAX_STREAM_BYTES >> 20} MiB of at least "
                f"{size} bytes written",
            )
            for path, size in self.written.items()
            if size
        ]


def _follow(
    process: subprocess.Popen[bytes], tail: EventTail, deadline: float, trim: Callable[[], None]
) -> tuple[str, str]:
    """Wait for the adapter to exit, time out, or linger after idle; read events and keep
    its output streams to their cap meanwhile."""
    delay, idle_since = POLL_FIRST, 0.0
    while True:
        if process.poll() is not None:
            return "exited", ""
        tail.poll()
        trim()
        now = time.monotonic()
        if now >= deadline:
            return "timeout", ""
        if tail.idle and not idle_since:
            idle_since = now
        if idle_since and now - idle_since >= IDLE_GRACE:
            return "exited", "lingered"
        time.sleep(min(delay, max(deadline - now, 0.0)))
        delay = min(delay * 2, POLL_MAX)


def _settle(how: str, detail: str, returncode: int | None, tail: EventTail) -> tuple[Outcome, str]:
    """Classify the end of an action."""
    if how == "timeout":
        return "timeout", "the agent's time budget ran out"
    if detail == "lingered":
        return "idle", ""
    if returncode != 0:
        return "crash", f"adapter exited with status {returncode}{_error_hint(tail)}"
    if not tail.idle:
        return "crash", "adapter exited without an idle event"
    return "idle", ""


def _error_hint(tail: EventTail) -> str:
    errors = [r.event["message"] for r in tail.events if r.event["type"] == "error"]
    return f": {errors[-1][:200]}" if errors else ""


def remaining(budget: float, spent: float) -> float:
    """Seconds of the agent budget left (never negative)."""
    return max(budget - spent, 0.0)


# ---------------------------------------------------------------------------------------------
# workspaces
# ---------------------------------------------------------------------------------------------

_WORKSPACE_ENTRY = "workspace"
_TREE = "tree"


@dataclass(frozen=True)
class WorkspaceSource:
    """Materializes a task's workspaces for its runs: seeded once, then copied.

    seed.py is deterministic, so every run of a task in one invocation starts from the same
    tree. With a ``cache`` folder, the stage-1 workspace and each later stage's files are
    materialized once, the first time a run needs them (under an exclusive lock, into a
    temporary folder renamed into place when complete, so concurrent runs wait for one
    seeding and a crash leaves no half-written entry), and every run copies them, symlinks as
    links and every mode kept. A workspace holding a FIFO, socket or device is not cached.

    Attributes:
        layout: The task's layout (its ``injects`` are scenario.json's folders).
        python: Interpreter that runs seed.py.
        cache: This task's folder in the invocation's cache; ``None`` seeds afresh each time.
    """

    layout: benchlib.Layout
    python: str
    cache: Path | None = None

    def make(self, dest: Path) -> None:
        """Write the stage-1 workspace to ``dest`` (which must not exist yet)."""
        if self.cache is not None:
            tree = self.entry(_WORKSPACE_ENTRY, self.build_workspace) / _TREE
            if tree.is_dir():
                shutil.copytree(tree, dest, symlinks=True)
                return
        benchlib.make_workspace(self.layout, dest, stage=1, python=self.python)

    def inject(self, workspace: Path, stage: int) -> None:
        """Add the files stage ``stage`` introduces to the live ``workspace``."""
        if self.cache is None:
            benchlib.inject_stage(self.layout, workspace, stage, self.python)
            return
        entry = self.entry(f"stage-{stage}", lambda out: self.build_stage(out, stage))
        benchlib.apply_stage_files(self.layout, workspace, entry / _TREE)

    def build_workspace(self, out: Path) -> None:
        """Materialize the stage-1 workspace into ``out/tree`` when a copy can reproduce it."""
        benchlib.make_workspace(self.layout, out / _TREE, stage=1, python=self.python)
        if not copyable(out / _TREE):
            benchlib.remove_path(out / _TREE)

    def build_stage(self, out: Path, stage: int) -> None:
        """Write the files stage ``stage`` introduces into ``out/tree``."""
        (out / _TREE).mkdir()
        benchlib.stage_files(self.layout, out / _TREE, stage, self.python)

    def entry(self, name: str, build: Callable[[Path], None]) -> Path:
        """The cache entry ``name``, built by ``build`` (into an empty folder) if missing."""
        assert self.cache is not None
        ready = self.cache / name
        if ready.is_dir():
            return ready
        self.cache.mkdir(parents=True, exist_ok=True)
        with _locked(self.cache / f".{name}.lock"):
            if not ready.is_dir():
                building = Path(tempfile.mkdtemp(prefix=f".{name}-", dir=self.cache))
                try:
                    build(building)
                    building.rename(ready)
                finally:
                    if building.exists():
                        benchlib.remove_path(building)
        return ready


def copyable(root: Path) -> bool:
    """Whether ``root`` holds only folders, regular files and symlinks (a copy's repertoire)."""
    for folder, dirs, files in benchlib.walk(root):
        for name in dirs + files:
            mode = Path(folder, name).lstat().st_mode
            if not (stat.S_ISDIR(mode) or stat.S_ISREG(mode) or stat.S_ISLNK(mode)):
                return False
    return True


def remove_tree(root: Path) -> None:
    """Remove a folder of the runner's, read-only trees included, whatever is left."""
    with contextlib.suppress(OSError):
        benchlib.make_writable(root)
    benchlib.delete_tree(root, ignore_errors=True)


@contextlib.contextmanager
def _locked(path: Path) -> Iterator[None]:
    """Hold an exclusive lock on ``path`` (created if missing) across processes."""
    handle = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(handle, fcntl.LOCK_EX)
        yield
    finally:
        os.close(handle)


# ---------------------------------------------------------------------------------------------
# archive -- deterministic archives of final workspaces (both runners keep one per run)
# ---------------------------------------------------------------------------------------------
# Entries are sorted, owned by uid/gid 0 with empty names, dated 0 and gzip-compressed with
# mtime 0, so two identical workspaces give byte-identical archives (handy for comparing
# arms). Modes are kept, so read-only inputs stay visible as such.

WORKSPACE_ARCHIVE: Final = "workspace.tar.gz"


def archive_members(root: Path, paths: tuple[str, ...] | None) -> list[Path]:
    """Files, links and folders under ``root`` (only under ``paths`` when given).

    Sorted by relative path, so every folder comes before its contents.
    """
    tops = [root / p.rstrip("/") for p in paths] if paths is not None else [root]
    found: set[Path] = set()
    for top in tops:
        if not (top.exists() or top.is_symlink()):
            continue
        if top != root:
            found.add(top)
        if top.is_dir() and not top.is_symlink():
            found.update(_archive_walk(top))
    return sorted(found, key=lambda p: p.relative_to(root).as_posix())


def _archive_walk(top: Path) -> Iterator[Path]:
    for folder, dirs, files in benchlib.walk(top):
        dirs.sort()
        base = Path(folder)
        for name in sorted(dirs + files):
            yield base / name


def _info(path: Path, root: Path) -> tarfile.TarInfo | None:
    """The tar header of ``path``; ``None`` for FIFOs, sockets and devices (never opened)."""
    info = tarfile.TarInfo(path.relative_to(root).as_posix())
    status = path.lstat()
    info.mode = status.st_mode & 0o7777
    info.mtime, info.uid, info.gid, info.uname, info.gname = 0, 0, 0, "", ""
    if stat.S_ISLNK(status.st_mode):
        info.type, info.linkname = tarfile.SYMTYPE, str(path.readlink())
    elif stat.S_ISDIR(status.st_mode):
        info.type = tarfile.DIRTYPE
    elif stat.S_ISREG(status.st_mode):
        info.size = status.st_size
    else:
        return None
    return info


def write_archive(
    root: Path, dest: Path, paths: tuple[str, ...] | None = None
) -> list[tuple[str, str]]:
    """Archive ``root`` (or only its ``paths``) to ``dest`` as a deterministic tar.gz.

    Returns:
        The workspace-relative paths left out, each with why: ``unreadable`` (unreadable
        files, FIFOs, sockets and devices: an agent may leave any of them, and opening a
        FIFO would block the runner forever) or ``above N bytes`` (a file larger than
        ``benchlib.COPY_FILE_BYTES``, the judge's own bound: a sparse file of 1 GiB that
        holds nothing would otherwise be read and compressed whole).
    """
    skipped: list[tuple[str, str]] = []
    benchlib.ensure_parent(dest)
    with (
        open(dest, "wb") as raw,
        gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0) as zipped,
        tarfile.open(fileobj=zipped, mode="w", format=tarfile.PAX_FORMAT) as tar,
    ):
        for path in archive_members(root, paths):
            try:
                added = _add(tar, path, root)
            except OSError:
                added = "unreadable"
            if added:
                skipped.append((path.relative_to(root).as_posix(), added))
    return skipped


def archive_workspace(
    workspace: Path, run_dir: Path, paths: tuple[str, ...] | None = None
) -> list[DiagnosticEntry]:
    """Archive a run's final workspace (only ``paths`` when given) as ``run_dir``'s
    :data:`WORKSPACE_ARCHIVE`; an ``archive`` diagnostic for each entry left out."""
    skipped = write_archive(workspace, run_dir / WORKSPACE_ARCHIVE, paths)
    return [
        DiagnosticEntry(0, "runner", 0, 0, "archive", f"{why}, not archived: {rel}")
        for rel, why in skipped
    ]


def _add(tar: tarfile.TarFile, path: Path, root: Path) -> str:
    """Add ``path`` to ``tar``; why it was left out, or "" once added."""
    info = _info(path, root)
    if info is None:
        return "unreadable"
    if info.isreg() and info.size > benchlib.COPY_FILE_BYTES:
        return f"above {benchlib.COPY_FILE_BYTES} bytes"
    if info.isreg():
        with open(path, "rb") as stream:
            tar.addfile(info, stream)
    else:
        tar.addfile(info)
    return ""


# ---------------------------------------------------------------------------------------------
# interruption
# ---------------------------------------------------------------------------------------------

TEMP_PREFIX: Final = "benchsmith-run-"
OWNER_LOCK: Final = ".lock"
STOP_SIGNALS: Final = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)


class Interrupted(BaseException):
    """Raised in the runner by SIGTERM, SIGINT or SIGHUP: every cleanup runs on the way out.

    Attributes:
        signum: The signal.
    """

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


_held: list[int] | None = None
"""Stop signals received inside :func:`uninterrupted` (``None``: none is being held)."""


def _interrupt(signum: int, frame: Any) -> None:
    if _held is not None:
        _held.append(signum)
        return
    raise Interrupted(signum)


@contextlib.contextmanager
def uninterrupted() -> Iterator[None]:
    """Hold stop signals while the block runs; the first that came is raised after it,
    unless an exception is already on its way out (that one is what the caller must see).

    For the few steps that must not stop half-way, such as removing an invocation's lock
    file and then its folder: keep the block that short, a held signal waits for it.
    Blocking the signal would not do: it reaches whichever thread does not block it, and
    Python runs the handler in the main thread anyway. Outside the main thread, and nested,
    this holds nothing more.
    """
    global _held
    if _held is not None or threading.current_thread() is not threading.main_thread():
        yield
        return
    _held = []
    try:
        yield
    finally:
        held, _held = _held, None
        if held and sys.exc_info()[1] is None:
            raise Interrupted(held[0])


REDELIVERY_DELAY = 0.05
"""Seconds after which a swallowed stop signal is sent again (see :func:`_redeliver`)."""


def _redeliver(unraisable: Any, fallback: Callable[[Any], object]) -> None:
    """An :class:`Interrupted` raised where Python can only report it ("Exception ignored
    in", e.g. in an at-fork hook while a subprocess starts) is not lost: another thread sends
    its signal again a moment later, once this code is left (sent from here, the handler
    would raise inside this hook and be swallowed again). Anything else goes to
    ``fallback``."""
    if isinstance(unraisable.exc_value, Interrupted):
        again = (os.getpid(), unraisable.exc_value.signum)
        threading.Timer(REDELIVERY_DELAY, os.kill, again).start()
    else:
        fallback(unraisable)


@contextlib.contextmanager
def interruptible() -> Iterator[None]:
    """Turn SIGTERM, SIGINT and SIGHUP into :class:`Interrupted` (main thread only)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {s: signal.signal(s, _interrupt) for s in STOP_SIGNALS}
    hook = sys.unraisablehook
    sys.unraisablehook = functools.partial(_redeliver, fallback=hook)
    try:
        yield
    finally:
        sys.unraisablehook = hook
        for number, handler in previous.items():
            signal.signal(number, handler)


def owner_alive(root: Path) -> bool:
    """Whether the invocation owning the temporary folder ``root`` still runs (holds its lock)."""
    try:
        handle = os.open(root / OWNER_LOCK, os.O_RDWR)
    except OSError:
        return False
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return True
    finally:
        os.close(handle)
    return False


def sweep_stale_temp(base: Path) -> list[Path]:
    """Remove the temporary folders of invocations that died (``kill -9``) under ``base``:
    their workspaces, seeded caches and judges' folders (``benchlib-judge-*``)."""
    removed = []
    for folder in sorted(base.glob(f"{TEMP_PREFIX}*")):
        if (folder / OWNER_LOCK).is_file():
            if owner_alive(folder):
                continue
        elif not _abandoned(folder):
            continue  # an invocation that is creating it: its lock comes next
        _dispose(folder, tries=DISPOSE_TRIES_STALE)
        if not folder.exists():
            removed.append(folder)
    return removed


ABANDONED_SECONDS: Final = 600.0
"""Age after which a runner's folder without a lock file is swept: one whose owner was
killed (``kill -9``) between creating it and its lock, or between removing the lock and
the folder. A live invocation's folder has its lock a moment after it is created."""


def _abandoned(folder: Path) -> bool:
    try:
        changed = folder.stat().st_mtime
    except OSError:
        return False
    return time.time() - changed > ABANDONED_SECONDS


@contextlib.contextmanager
def private_temp() -> Iterator[Path]:
    """A temporary folder holding everything this invocation creates (sessions, caches, the
    judges' folders through ``TMPDIR``), locked while it lives and removed afterwards; the
    folders of dead invocations are swept first."""
    base = Path(tempfile.gettempdir())
    sweep_stale_temp(base)
    saved = tempfile.tempdir, os.environ.get("TMPDIR")
    root: Path | None = None
    handle: int | None = None
    try:
        with uninterrupted():  # its lock file must exist before anything can stop this
            root = Path(tempfile.mkdtemp(prefix=TEMP_PREFIX, dir=base))
            root.chmod(0o711)  # sandboxes reach their staged mounts through it; nobody lists it
            handle = _owner_lock(root)
        tempfile.tempdir, os.environ["TMPDIR"] = str(root), str(root)
        yield root
    finally:
        tempfile.tempdir = saved[0]
        if saved[1] is None:
            os.environ.pop("TMPDIR", None)
        else:
            os.environ["TMPDIR"] = saved[1]
        try:
            if root is not None:
                _dispose(root)
        finally:
            if handle is not None:
                os.close(handle)


def _owner_lock(root: Path) -> int:
    """Create ``root``'s lock file, already locked: it is locked under another name and then
    renamed, so no sweep (:func:`sweep_stale_temp`) ever sees it unlocked and takes a live
    invocation's folder for a dead one's. Returns the open, locked handle."""
    staged = root / f"{OWNER_LOCK}-new"
    handle = os.open(staged, os.O_RDWR | os.O_CREAT, 0o600)
    fcntl.flock(handle, fcntl.LOCK_EX)
    staged.rename(root / OWNER_LOCK)
    return handle


DISPOSE_TRIES: Final = 100
"""Rounds (50 ms apart) an invocation spends removing its own folder at exit: up to 5 s,
spent only while something is still being created in it. A sandbox killed a moment ago dies
with its PID namespace, not at once, and on a loaded machine that took over the former 1 s
(issue 30: a folder left behind after SIGTERM, seen in CI under load)."""
DISPOSE_TRIES_STALE: Final = 20
"""Rounds a sweep spends on a dead invocation's folder (up to 1 s, only when it is not
emptied at once): its owner died a moment ago, so its sandboxes may still be dying."""


def _dispose(root: Path, tries: int = DISPOSE_TRIES) -> None:
    """Remove an invocation's folder, its lock last: a child killed a moment ago (a sandbox
    dies with its PID namespace, not at once) may still create a file while this runs, and
    a folder left behind must keep its lock file so the next sweep knows it is stale."""
    for _ in range(tries):
        if not root.is_dir():
            return
        for child in sorted(root.iterdir()):
            if child.name == OWNER_LOCK:
                continue
            if child.is_dir() and not child.is_symlink():
                remove_tree(child)
            else:
                with contextlib.suppress(OSError):
                    child.unlink()
        if _remove_emptied(root):
            return
        time.sleep(0.05)


def _remove_emptied(root: Path) -> bool:
    """Remove ``root`` if nothing but its lock file is left in it; whether it is gone.

    The lock goes, then the folder, stop signals held in between (:func:`uninterrupted`): a
    signal there would leave a folder without its lock. Should a file appear meanwhile, an
    (unlocked) lock file is put back, so the folder stays a dead invocation's to any sweep.
    """
    with uninterrupted():
        try:
            if [c.name for c in root.iterdir()] not in ([OWNER_LOCK], []):
                return False
            (root / OWNER_LOCK).unlink(missing_ok=True)
            root.rmdir()
        except FileNotFoundError:
            return True
        except OSError:
            with contextlib.suppress(OSError):
                (root / OWNER_LOCK).touch()
            return False
    return True


# ---------------------------------------------------------------------------------------------
# lifecycle
# ---------------------------------------------------------------------------------------------

EndReason = Literal[
    "completed", "timeout", "adapter_crash", "setup_error", "runner_error", "interrupted"
]
JUDGED_REASONS: Final = ("completed", "timeout", "adapter_crash")


class VerdictLike(Protocol):
    """What the lifecycle reads of a verdict (``benchsmith.judging.Verdict``, :class:`Verdict`)."""

    @property
    def status(self) -> str: ...
    @property
    def progress_level(self) -> int: ...
    @property
    def seconds(self) -> float: ...
    @property
    def raw(self) -> dict[str, Any] | None: ...


class Judging(Protocol):
    """A front end's judge call: (workspace, file receiving the judge's stdout, stage) ->
    verdict. ``stage`` (1-based) asks for ``judge.py --stage N``; ``None`` the final verdict."""

    def __call__(self, workspace: Path, output: Path, stage: int | None = None) -> VerdictLike: ...


StageJudging = Literal["on", "single_stage", "unsupported"]
"""Whether a run judges each stage: ``on``; ``single_stage`` (nothing before the final
verdict to judge); ``unsupported`` (the task's judge does not accept ``--stage``)."""


@dataclass(frozen=True)
class Entry:
    """One line of a run's timeline: an adapter event or a runner lifecycle event.

    Attributes:
        seq: 1-based position in the run.
        t: Seconds since the run started.
        stage: The stage it belongs to (0 before the first stage).
        action: ``message``, ``compact`` or ``runner``.
        action_no: 1-based number of the adapter action (0 for runner events).
        source: ``adapter`` or ``runner``.
        event: The event object (``type`` plus fields).
    """

    seq: int
    t: float
    stage: int
    action: str
    action_no: int
    source: str
    event: dict[str, Any]


@dataclass(frozen=True)
class DiagnosticEntry:
    """A malformed event line or a recorded misbehaviour of the adapter or the run."""

    stage: int
    action: str
    action_no: int
    line: int
    code: str
    message: str
    text: str = ""


@dataclass(frozen=True)
class StageRecord:
    """What happened at one stage.

    Attributes:
        number: 1-based stage number.
        stage_id: Stage id.
        compact_after: Whether a compaction was scheduled after it.
        inject_seconds: Time spent injecting its files (0 for stage 1).
        result: Its ``message`` action, or ``None`` when the run ended before it.
    """

    number: int
    stage_id: str
    compact_after: bool
    inject_seconds: float
    result: ActionResult | None


@dataclass(frozen=True)
class CompactionRecord:
    """One compaction: requested by the runner, or reported by the agent on its own.

    Attributes:
        number: 1-based number within the run.
        after_stage: The stage answered before it.
        trigger: ``requested`` or ``natural``.
        status: ``completed`` or ``failed``.
        started: Seconds since the run started (requested compactions).
        seconds: Duration of the compact action (requested compactions).
        detail: Why it failed, or what the adapter said.
        tokens_before: Context tokens before it, when the adapter reported them.
        tokens_after: Context tokens after it, when the adapter reported them.
    """

    number: int
    after_stage: int
    trigger: str
    status: str
    started: float | None
    seconds: float | None
    detail: str
    tokens_before: int | None = None
    tokens_after: int | None = None


@dataclass(frozen=True)
class StageVerdict:
    """The verdict on the state after one stage (``judge.py --stage N``), judged on a
    snapshot of the workspace taken when the stage was answered, after the agent stopped.

    Attributes:
        stage: 1-based stage number.
        stage_id: Stage id.
        verdict: The judge's verdict (``None`` until judged, or when the snapshot failed).
        snapshot_seconds: Time taken to copy the snapshot (inside the lifecycle).
        problem: Why there is no verdict (the snapshot could not be taken).
    """

    stage: int
    stage_id: str
    verdict: Any
    snapshot_seconds: float
    problem: str = ""


@dataclass
class Times:
    """Wall times of a run, in seconds.

    Attributes:
        setup: Workspace materialization and service start.
        agent: Sum of the adapter actions (message and compact): the measured agent time.
        inject: Stage injections between actions.
        lifecycle: From the start of the run to the agent's stop and teardown.
        judge: The judge, run after the agent stopped (never part of agent time).
        stage_judge: The per-stage judgings, run after the final judge (never part of agent
            or lifecycle time; the snapshots they judge are taken inside the lifecycle).
        record: Archiving and writing the run's artifacts.
    """

    setup: float = 0.0
    agent: float = 0.0
    inject: float = 0.0
    lifecycle: float = 0.0
    judge: float = 0.0
    stage_judge: float = 0.0
    record: float = 0.0


@dataclass
class RunState:
    """Everything one run recorded, filled in by :class:`Lifecycle` as the run goes."""

    started_at: str
    end_reason: EndReason = "completed"
    end_detail: str = ""
    times: Times = field(default_factory=Times)
    stages: list[StageRecord] = field(default_factory=list)
    compactions: list[CompactionRecord] = field(default_factory=list)
    timeline: list[Entry] = field(default_factory=list)
    diagnostics: list[DiagnosticEntry] = field(default_factory=list)
    verdict: Any = None
    stage_verdicts: list[StageVerdict] = field(default_factory=list)
    artifacts: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class RunConfig:
    """One run to execute, as the lifecycle needs it.

    Attributes:
        scenario: The task.
        adapter: The agent adapter.
        python: Interpreter for seed.py and services.
        timeout_seconds: The agent's time budget over all its actions.
        run_dir: Folder receiving the run's artifacts (``actions/`` and the front end's).
        judge: The front end's judge call.
        workspaces: Where the workspace and stage files come from.
        record: The front end's recording step, called with the lifecycle once the run is
            over (the workspace still exists then; archive it there).
        seal: How adapter actions are sealed (``None``: unsealed, ``--unsealed``).
        stage_judging: Whether to judge the state after each stage but the last (``on``: the
            judge accepts ``--stage``; see :func:`stage_judging`).
    """

    scenario: Scenario
    adapter: Adapter
    python: str
    timeout_seconds: float
    run_dir: Path
    judge: Judging
    workspaces: WorkspaceSource
    record: Callable[[Lifecycle], None] = lambda lifecycle: None
    seal: AgentSeal | None = None
    stage_judging: StageJudging = "unsupported"


class SetupFailed(Exception):
    """Raised inside a run when the workspace or a service cannot be prepared."""


def utc_now() -> str:
    """The current UTC time, ISO 8601 to the second (run metadata, never fixture data)."""
    return _dt.datetime.now(_dt.UTC).replace(microsecond=0).isoformat().replace("+00:00", "Z")


class Lifecycle:
    """One run (spec section 5) of one task through one adapter.

    1. materialize a fresh workspace in a private temporary folder (seed.py, the ``inject``
       folder of stage 1, TASK.md; inputs read-only, editable paths writable; nothing
       private), start the task's loopback services and write their URL files;
    2. send each stage's message through the adapter and wait for the turn to finish (an
       early ``done`` is recorded and ignored while stages remain); after a stage with
       ``compact_after`` request one compaction; inject the next stage's files;
    3. enforce the agent time budget over the sum of the adapter actions (runner overhead
       such as injections never eats into it); a timeout or crash ends the run;
    4. stop the agent (each action's process group is killed when the action ends), tear
       the services down, then judge outside the measured agent time: the final workspace
       (the scored verdict), then, when ``stage_judging`` is on, the snapshot of the editable
       paths taken as each earlier stage was answered, with ``judge.py --stage N``;
    5. record: the action files into ``run_dir/actions``, then the front end's ``record``.

    It never raises for anything an adapter, a judge or a task does: failures are recorded
    as the run's ``end_reason`` and diagnostics. Only an interrupt propagates.
    """

    def __init__(self, config: RunConfig, state: RunState, session: Path) -> None:
        self.config, self.scenario, self.state = config, config.scenario, state
        self.origin = time.monotonic()
        self.workspace = session / "workspace"
        self.io, self.agent_state = session / "io", session / "state"
        self.transcripts = session / TRANSCRIPTS
        self.snapshots = session / "snapshots"
        self.services: list[benchlib.ServiceHandle] = []
        self.action_no = 0

    @classmethod
    def execute(cls, config: RunConfig, state: RunState | None = None) -> RunState:
        """Execute one run in a private temporary folder (removed afterwards)."""
        state = state or RunState(started_at=utc_now())
        with benchlib.temporary_folder("benchsmith-") as tmp:
            cls(config, state, tmp).run()
        return state

    # -- timeline ---------------------------------------------------------------------------

    def now(self) -> float:
        """Seconds since the run started."""
        return time.monotonic() - self.origin

    def note(self, kind: str, stage: int, **fields: Any) -> None:
        """Append a runner lifecycle event to the timeline."""
        event = {"type": kind, **fields}
        seq = len(self.state.timeline) + 1
        self.state.timeline.append(Entry(seq, self.now(), stage, "runner", 0, "runner", event))

    def end(self, reason: EndReason, detail: str) -> None:
        """Record why the run ended early (the first reason wins)."""
        if self.state.end_reason == "completed":
            self.state.end_reason, self.state.end_detail = reason, detail

    # -- the run ----------------------------------------------------------------------------

    def run(self) -> None:
        """Run every step, recording instead of raising."""
        self.config.run_dir.mkdir(parents=True, exist_ok=True)
        try:
            with contextlib.ExitStack() as services:
                if self.setup(services):
                    self.converse()
                    self.stop_agent()
            if self.scenario.services:
                served = {h.name: len(h.requests()) for h in self.services}
                self.note("services_stopped", len(self.scenario.stages), requests=served)
            self.state.times.lifecycle = self.now()
            if self.state.end_reason in JUDGED_REASONS:
                self.judge()
                self.judge_stages()
        except Exception as exc:  # a bug in the runner: record it, keep the batch going
            self.end("runner_error", describe(exc))
            self.state.times.lifecycle = self.state.times.lifecycle or self.now()
        self.record()

    def setup(self, services: contextlib.ExitStack) -> bool:
        """Materialize the workspace and start the services; False (recorded) on failure."""
        for folder in (self.io, self.agent_state, self.transcripts):
            folder.mkdir()
        try:
            self.config.workspaces.make(self.workspace)
            self.guard_private()
            self.start_services(services)
        except Exception as exc:  # seed.py, copies and services fail in many ways; record any
            self.end("setup_error", f"setup failed: {describe(exc)}")
            return False
        finally:
            self.state.times.setup = self.now()
        self.note("workspace_ready", 1, seconds=round(self.state.times.setup, 6))
        return True

    def guard_private(self) -> None:
        """Refuse a workspace holding a private file of the task at its root."""
        leaked = [n for n in benchlib.PRIVATE_NAMES if (self.workspace / n).exists()]
        if leaked:
            raise SetupFailed(f"private files in the workspace: {', '.join(leaked)}")

    def start_services(self, services: contextlib.ExitStack) -> None:
        """Start each fixture service and write its URL file (read-only) into the workspace;
        sealed (:func:`service_seal`) when the agent is."""
        sealed = self.config.seal is not None
        for service in self.scenario.services:
            handle = services.enter_context(
                serve(service.declared(), self.workspace, self.config.python, sealed=sealed)
            )
            self.services.append(handle)
            self.note("service_started", 1, name=service.name, url=handle.url)
        if self.scenario.services:
            benchlib.protect_inputs(self.scenario.layout, self.workspace)

    def converse(self) -> None:
        """Drive the stages in order until the last one is answered or the run ends."""
        stages = self.scenario.stages
        for number, stage in enumerate(stages, 1):
            inject_seconds = 0.0
            if number > 1:
                if stages[number - 2].compact_after and not self.compact(number - 1):
                    break
                try:
                    inject_seconds = self.inject(number)
                except SetupFailed as exc:
                    self.end("setup_error", str(exc))
                    break
            self.note("user_message", number, stage_id=stage.id, text=stage.message)
            result = self.act("message", number, stage.message)
            self.state.stages.append(
                StageRecord(number, stage.id, stage.compact_after, inject_seconds, result)
            )
            if not self.finished(result):
                break
            if number < len(stages) and self.config.stage_judging == "on":
                self.snapshot(number)
        reached = len(self.state.stages)
        for number, stage in enumerate(stages[reached:], reached + 1):
            self.state.stages.append(StageRecord(number, stage.id, stage.compact_after, 0, None))

    def finished(self, result: ActionResult) -> bool:
        """Whether the turn finished; otherwise end the run with the reason."""
        if result.outcome == "timeout":
            self.end("timeout", f"timed out during {result.action} at stage {result.stage}")
        elif result.outcome == "crash":
            self.end("adapter_crash", f"stage {result.stage} {result.action}: {result.detail}")
        return result.outcome == "idle"

    def inject(self, number: int) -> float:
        """Add stage ``number``'s files to the workspace; return the seconds it took."""
        started = time.monotonic()
        try:
            self.config.workspaces.inject(self.workspace, number)
        except Exception as exc:  # the same open set of failures as setup
            raise SetupFailed(f"stage {number} injection failed: {describe(exc)}") from exc
        seconds = time.monotonic() - started
        self.state.times.inject += seconds
        self.note("stage_injected", number, seconds=round(seconds, 6))
        return seconds

    def compact(self, after: int) -> bool:
        """Request one compaction after stage ``after``; False when the run must end."""
        self.note("compaction_requested", after)
        result = self.act("compact", after, None)
        reported = [r.event for r in result.events if r.event["type"] == "compaction"]
        status, detail = _compaction_status(result, reported)
        number = len(self.state.compactions) + 1
        tokens = _compaction_tokens(reported[-1] if reported else {})
        self.state.compactions.append(
            CompactionRecord(
                number, after, "requested", status, result.started, result.seconds, detail,
                *tokens,
            )
        )  # fmt: skip
        self.note("compaction_" + status, after, detail=detail)
        return self.finished(result)

    def act(self, action: str, stage: int, message: str | None) -> ActionResult:
        """Run one adapter action and absorb its events into the timeline."""
        self.action_no += 1
        files = self.action_files(action, stage)
        if message is not None and files.message is not None:
            files.message.write_text(message, encoding="utf-8")
        budget = remaining(self.config.timeout_seconds, self.state.times.agent)
        env = self.action_env(action, stage, files, budget)
        result = run_action(
            self.config.adapter, env, files, origin=self.origin, seal=self.config.seal
        )
        self.state.times.agent += result.seconds
        self.absorb(result)
        return result

    def action_files(self, action: str, stage: int) -> ActionFiles:
        """The files of the next action, in the private io folder."""
        stem = self.io / f"{self.action_no:02d}-{action}-s{stage}"
        message = Path(f"{stem}.message.txt") if action == "message" else None
        return ActionFiles(
            message, Path(f"{stem}.jsonl"), Path(f"{stem}.stdout"), Path(f"{stem}.stderr")
        )

    def action_env(self, action: str, stage: int, files: ActionFiles, budget: float) -> ActionEnv:
        """What the adapter is told about the action."""
        reference = self.scenario.task_dir / "reference"
        return ActionEnv(
            action=action,
            stage=stage,
            stage_id=self.scenario.stages[stage - 1].id,
            stages=len(self.scenario.stages),
            workspace=self.workspace,
            events=files.events,
            state_dir=self.agent_state,
            editable=self.scenario.editable,
            timeout=budget,
            message_file=files.message,
            reference=reference if self.config.adapter.kind == "replay" else None,
            transcript_dir=self.transcripts,
        )

    def absorb(self, result: ActionResult) -> None:
        """Add an action's events and problems to the run."""
        timeline = self.state.timeline
        for received in result.events:
            timeline.append(
                Entry(
                    len(timeline) + 1, received.t, result.stage, result.action,
                    self.action_no, "adapter", received.event,
                )
            )  # fmt: skip
            if received.event["type"] == "compaction" and result.action == "message":
                self.natural_compaction(result.stage, received.event)
        self.state.diagnostics.extend(
            DiagnosticEntry(
                result.stage, result.action, self.action_no, p.line, p.code, p.message, p.text
            )
            for p in result.problems
        )

    def natural_compaction(self, stage: int, event: dict[str, Any]) -> None:
        """Record a compaction the agent performed on its own during a stage."""
        number = len(self.state.compactions) + 1
        detail = str(event.get("detail", ""))
        tokens = _compaction_tokens(event)
        self.state.compactions.append(
            CompactionRecord(number, stage, "natural", event["status"], None, None, detail, *tokens)
        )

    def stop_agent(self) -> None:
        """Mark the agent stopped: every action's process group was killed when it ended."""
        reached = [s.number for s in self.state.stages if s.result is not None]
        self.note("agent_stopped", reached[-1] if reached else 1)

    def snapshot(self, number: int) -> None:
        """Copy the editable paths (all a judge reads of a workspace) as stage ``number`` left
        them, to be judged with ``--stage N`` once the agent stopped."""
        started = time.monotonic()
        stage_id = self.scenario.stages[number - 1].id
        dest = self.snapshots / f"stage-{number}"
        try:
            dest.mkdir(parents=True)
            benchlib.overlay(self.workspace, dest, self.scenario.editable, [])
            problem = ""
        except Exception as exc:  # an unreadable file the agent left: recorded, run goes on
            problem = f"the stage {number} snapshot failed: {describe(exc)}"
        seconds = time.monotonic() - started
        self.state.stage_verdicts.append(StageVerdict(number, stage_id, None, seconds, problem))
        self.note("stage_snapshot", number, seconds=round(seconds, 6))

    def judge_stages(self) -> None:
        """Judge each stage snapshot with ``--stage N`` (after the final verdict)."""
        started = time.monotonic()
        for index, taken in enumerate(self.state.stage_verdicts):
            if taken.problem:
                continue
            output = self.config.run_dir / f"judge-stage{taken.stage}.stdout"
            verdict = self.config.judge(
                self.snapshots / f"stage-{taken.stage}", output, taken.stage
            )
            self.state.stage_verdicts[index] = replace(taken, verdict=verdict)
            self.note(
                "stage_judged", taken.stage, status=verdict.status, level=verdict.progress_level
            )
        self.state.times.stage_judge = time.monotonic() - started

    def judge(self) -> None:
        """Judge the final workspace (after the agent stopped and services went down)."""
        last = len(self.scenario.stages)
        self.note("judge_started", last)
        verdict = self.config.judge(self.workspace, self.config.run_dir / "judge.stdout")
        self.state.verdict = verdict
        self.state.times.judge = verdict.seconds
        self.note("judge_finished", last, status=verdict.status, level=verdict.progress_level)

    def record(self) -> None:
        """Keep the action files, then let the front end record the run."""
        started = time.monotonic()
        self.config.run_dir.mkdir(parents=True, exist_ok=True)
        if self.io.is_dir():
            _copy_regular_files(self.io, self.config.run_dir / "actions")
        if self.transcripts.is_dir():
            self.keep_transcripts(self.config.run_dir / "actions" / TRANSCRIPTS)
        self.config.record(self)
        self.state.times.record = time.monotonic() - started

    def keep_transcripts(self, dest: Path) -> None:
        """Copy the regular files the adapter saved in its transcript folder (subfolders
        too, symbolic links and FIFOs never) into ``dest``, :data:`MAX_TRANSCRIPT_BYTES` in
        all; a file cut or left out is a ``transcript-cap`` diagnostic."""
        left = MAX_TRANSCRIPT_BYTES
        for folder, dirs, names in benchlib.walk(self.transcripts):
            dirs[:] = sorted(d for d in dirs if not (Path(folder) / d).is_symlink())
            for name in sorted(names):
                path = Path(folder) / name
                rel = path.relative_to(self.transcripts)
                info = path.lstat()
                if not stat.S_ISREG(info.st_mode):
                    continue
                size = info.st_size
                if size > left:
                    kept = f"its first {left} bytes kept" if left else "left out"
                    self.state.diagnostics.append(DiagnosticEntry(
                        0, "runner", 0, 0, "transcript-cap",
                        f"transcript {rel.as_posix()} ({size} bytes) exceeds the "
                        f"{MAX_TRANSCRIPT_BYTES}-byte cap: {kept}",
                    ))  # fmt: skip
                if not left:
                    continue
                target = dest / rel
                try:
                    target.parent.mkdir(parents=True, exist_ok=True)
                    with open(path, "rb") as source, open(target, "wb") as copy:
                        left -= copy.write(source.read(left))
                except OSError as exc:  # an unreadable file the adapter left: recorded
                    self.state.diagnostics.append(DiagnosticEntry(
                        0, "runner", 0, 0, "transcript-cap",
                        f"transcript {rel.as_posix()} not kept: {describe(exc)}",
                    ))  # fmt: skip


def _copy_regular_files(src: Path, dest: Path) -> None:
    """Copy the regular files directly in ``src`` (an adapter could leave a FIFO there), each
    to at most :data:`MAX_STREAM_BYTES` (the cap the action kept them to)."""
    dest.mkdir(parents=True, exist_ok=True)
    for path in sorted(src.iterdir()):
        if stat.S_ISREG(path.lstat().st_mode):
            with open(path, "rb") as source, open(dest / path.name, "wb") as target:
                target.write(source.read(MAX_STREAM_BYTES))


def _compaction_status(result: ActionResult, reported: list[dict[str, Any]]) -> tuple[str, str]:
    """Completed only when the adapter reported a completed compaction and went idle."""
    if result.outcome != "idle":
        return "failed", result.detail
    if not reported:
        return "failed", "the adapter reported no compaction event"
    last = reported[-1]
    return last["status"], str(last.get("detail", ""))


def _compaction_tokens(event: Mapping[str, Any]) -> tuple[int | None, int | None]:
    """``tokens_before`` and ``tokens_after`` of a compaction event (validated integers), or
    ``None`` for each one the adapter did not report."""
    before, after = event.get("tokens_before"), event.get("tokens_after")
    return (
        before if _is_int(before) else None,
        after if _is_int(after) else None,
    )


def describe(exc: BaseException) -> str:
    """A failure for a record: the exception in one line, or the end of its traceback."""
    if isinstance(exc, SetupFailed | RuntimeError | OSError | ScenarioError):
        return f"{type(exc).__name__}: {exc}"[:2000]
    tail = "".join(traceback.format_exception(exc)[-3:])
    return tail[-2000:]


# ---------------------------------------------------------------------------------------------
# judging
# ---------------------------------------------------------------------------------------------

# One contract for every reader of a verdict: benchlib's (the judge's command line, process
# and verdict, shared with ``check``, ``audit``, ``benchsmith run`` and the Harbor verifier).
Verdict = benchlib.Verdict
STAGE_OPTION: Final = benchlib.STAGE_OPTION
unsealed_judging = benchlib.unsealed_judging


@dataclass(frozen=True)
class CommandJudge:
    """The lean runner's judge call: scenario.json's ``judge_command`` from the task folder.

    The command line is :func:`benchlib.judge_argv`'s with ``--fixture-cache DIR`` (and
    ``--unsealed``) appended; the judge runs and its verdict is held by
    :func:`benchlib.judge_once`, as every other reader of a verdict does.
    """

    scenario: Scenario
    python: str
    timeout: float
    cache: Path | None = None
    unsealed: bool = False
    extra: tuple[str, ...] = ()

    def argv(self, workspace: Path, stage: int | None = None) -> list[str]:
        """The judge's command line for ``workspace`` (``--stage N`` when ``stage`` is given)."""
        options = list(self.extra)
        if self.cache is not None:
            options += ["--fixture-cache", str(self.cache)]
        if self.unsealed:
            options.append("--unsealed")
        if stage is not None:
            options += [STAGE_OPTION, str(stage)]
        return benchlib.judge_argv(self.scenario.judge_command, workspace, self.python, options)

    def __call__(self, workspace: Path, output: Path, stage: int | None = None) -> Verdict:
        """Judge ``workspace`` (as of ``stage``, when given); write the judge's stdout to
        ``output`` and stderr beside it."""
        return benchlib.judge_once(
            self.argv(workspace, stage), cwd=self.scenario.task_dir, timeout=self.timeout,
            stage=stage, sealed=not self.unsealed, output=output,
        )  # fmt: skip


def stage_judging(scenario: Scenario, python: str, timeout: float = 60.0) -> StageJudging:
    """Whether runs of ``scenario`` judge each stage: a task of several stages whose judge
    lists ``--stage`` in its ``--help`` (as the Harbor verifier asks it) does."""
    if len(scenario.stages) < 2:
        return "single_stage"
    accepts = benchlib.judge_accepts_stage(
        scenario.judge_command, scenario.task_dir, python, timeout=timeout
    )
    return "on" if accepts else "unsupported"


# ---------------------------------------------------------------------------------------------
# lean runner
# ---------------------------------------------------------------------------------------------

LEAN_RECORD_SCHEMA: Final = "benchlib.run-record/v1"
LEAN_ARM: Final = "lean"


def usage_figures(events: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The section 7 figures of one run from its adapter events.

    The rules are those of benchsmith's reports: ``calls`` counts 1 when absent; ``main``
    calls are main-model calls, other kinds auxiliary calls by kind; uncached input is known
    only when every usage event reports it; cost is unknown when none was reported; peak
    context is the largest; the final response tokens are those of the last assistant event
    that reports them.
    """
    usage = [e for e in events if e.get("type") == "usage"]
    figures: dict[str, Any] = {"main_calls": 0, "aux_calls": {}}
    for event in usage:
        calls = int(event.get("calls", 1))
        if event["kind"] == "main":
            figures["main_calls"] += calls
        else:
            figures["aux_calls"][event["kind"]] = figures["aux_calls"].get(event["kind"], 0) + calls
    for key in ("input_tokens", "output_tokens", "cache_read_tokens", "cache_write_tokens"):
        figures[key] = sum(int(e.get(key, 0)) for e in usage)
    uncached = [e.get("uncached_input_tokens") for e in usage]
    figures["uncached_input_tokens"] = None if None in uncached else sum(uncached)
    costs = [e["cost_usd"] for e in usage if "cost_usd" in e]
    figures["cost_usd"] = sum(costs) if costs else None
    contexts = [e["context_tokens"] for e in usage if "context_tokens" in e]
    figures["peak_context_tokens"] = max(contexts) if contexts else None
    tools = [e for e in events if e.get("type") == "tool_call"]
    figures["tool_calls"] = len(tools)
    figures["tool_result_bytes"] = sum(int(e["result_bytes"]) for e in tools)
    final = [e["tokens"] for e in events if e.get("type") == "assistant" and "tokens" in e]
    figures["final_response_tokens"] = final[-1] if final else None
    figures["prompt_cache_reuse"] = cache_reuse(figures)
    return figures


def cache_reuse(figures: Mapping[str, Any]) -> float | None:
    """``cache_read / (uncached_input + cache_read + cache_write)``, only when uncached input
    is reported separately (spec section 7); ``None`` otherwise."""
    if figures.get("uncached_input_tokens") is None:
        return None
    total = figures["uncached_input_tokens"] + figures["cache_read_tokens"]
    total += figures["cache_write_tokens"]
    return figures["cache_read_tokens"] / total if total else None


def _rounded(value: float | None) -> float | None:
    return None if value is None else round(value, 6)


def stage_json(stage: StageRecord) -> dict[str, Any]:
    """One stage of a run record."""
    result = stage.result
    return {
        "number": stage.number,
        "id": stage.stage_id,
        "compact_after": stage.compact_after,
        "inject_seconds": round(stage.inject_seconds, 6),
        "outcome": result.outcome if result else "not_reached",
        "detail": result.detail if result else "",
        "exit_code": result.exit_code if result else None,
        "started": _rounded(result.started) if result else None,
        "seconds": _rounded(result.seconds) if result else None,
        "done_seen": result.has("done") if result else False,
    }


def compaction_json(compaction: CompactionRecord) -> dict[str, Any]:
    """One compaction of a run record."""
    return {
        "number": compaction.number,
        "after_stage": compaction.after_stage,
        "trigger": compaction.trigger,
        "status": compaction.status,
        "seconds": _rounded(compaction.seconds),
        "detail": compaction.detail,
        **_reported_tokens(compaction),
    }


def _reported_tokens(compaction: CompactionRecord) -> dict[str, int]:
    """The token counts a compaction record carries: only those the adapter reported."""
    counts = {"tokens_before": compaction.tokens_before, "tokens_after": compaction.tokens_after}
    return {key: value for key, value in counts.items() if value is not None}


def diagnostic_json(entry: DiagnosticEntry) -> dict[str, Any]:
    """One diagnostic of a run record."""
    return {
        "stage": entry.stage,
        "action": entry.action,
        "action_no": entry.action_no,
        "line": entry.line,
        "code": entry.code,
        "message": entry.message,
        "text": entry.text,
    }


def times_json(times: Times) -> dict[str, float]:
    """The wall times of a run record."""
    return {
        "setup_seconds": round(times.setup, 6),
        "agent_seconds": round(times.agent, 6),
        "inject_seconds": round(times.inject, 6),
        "lifecycle_seconds": round(times.lifecycle, 6),
        "judge_seconds": round(times.judge, 6),
        "stage_judge_seconds": round(times.stage_judge, 6),
        "record_seconds": round(times.record, 6),
    }


def verdict_json(verdict: Any) -> dict[str, Any] | None:
    """A verdict in a run record (the judge's own ``checks`` kept, when it gave them)."""
    if verdict is None:
        return None
    return {
        "status": verdict.status,
        "progress_level": verdict.progress_level,
        "main_checks_passed": verdict.main_checks_passed,
        "main_checks_total": verdict.main_checks_total,
        "edge_check_passed": verdict.edge_check_passed,
        "notes": list(verdict.notes),
        "exit_code": verdict.exit_code,
        "seconds": round(verdict.seconds, 6),
        "checks": verdict_checks(verdict.raw),
    }


def verdict_checks(raw: Mapping[str, Any] | None) -> list[dict[str, Any]]:
    """The per-check results of a printed verdict (``name``, ``fixture``, ``level``,
    ``passed``); empty when the judge gave none or printed no sound object."""
    checks = raw.get("checks") if isinstance(raw, Mapping) else None
    kept = []
    for check in checks if isinstance(checks, list) else []:
        if isinstance(check, Mapping) and isinstance(check.get("name"), str):
            kept.append(
                {
                    "name": check["name"],
                    "fixture": str(check.get("fixture", "main")),
                    "level": check.get("level"),
                    "passed": bool(check.get("passed")),
                }
            )
    return kept


def stage_verdict_json(taken: StageVerdict) -> dict[str, Any]:
    """One per-stage verdict of a run record."""
    verdict = verdict_json(taken.verdict)
    return {
        "stage": taken.stage,
        "id": taken.stage_id,
        "snapshot_seconds": round(taken.snapshot_seconds, 6),
        "problem": taken.problem,
        "verdict": verdict,
    }


def _passed(checks: Sequence[Mapping[str, Any]]) -> set[tuple[str, str]]:
    return {(c["fixture"], c["name"]) for c in checks if c["passed"]}


def retention(
    compactions: Sequence[Mapping[str, Any]],
    stage_verdicts: Sequence[Mapping[str, Any]],
    final: Mapping[str, Any] | None,
) -> list[dict[str, Any]]:
    """For each compaction, whether every check that passed before it still passes at the end.

    "Before it" is the per-stage verdict of the last stage answered before the compaction:
    stage ``after_stage`` for a requested compaction, the stage before for a natural one
    (which happened during stage ``after_stage``). A check that no longer applies at the end
    (``until`` an earlier stage) is not compared; when the final verdict ran no main check
    (its commands did not complete), every check that passed before is lost. ``retained`` is
    ``None`` when it cannot be told: no stage verdict before the compaction, a judge error on
    either side, no per-check results, or no check passed before it.

    Args:
        compactions: ``compaction_json`` records.
        stage_verdicts: ``stage_verdict_json`` records.
        final: ``verdict_json`` of the final verdict.
    """
    by_stage = {s["stage"]: s["verdict"] for s in stage_verdicts}
    results = []
    for compaction in compactions:
        natural = compaction["trigger"] == "natural"
        before_stage = compaction["after_stage"] - (1 if natural else 0)
        entry: dict[str, Any] = {
            "compaction": compaction["number"],
            "trigger": compaction["trigger"],
            "status": compaction["status"],
            "after_stage": compaction["after_stage"],
            "judged_stage": before_stage if before_stage in by_stage else None,
            "passed_before": 0,
            "lost": [],
            "retained": None,
            "reason": "",
        }
        entry.update(_retained(by_stage.get(before_stage), final))
        results.append(entry)
    return results


def _retained(before: Mapping[str, Any] | None, final: Mapping[str, Any] | None) -> dict[str, Any]:
    """The retention fields of one compaction (see :func:`retention`)."""
    if before is None:
        return {"reason": "no per-stage verdict before it"}
    if before["status"] == "error" or final is None or final["status"] == "error":
        return {"reason": "a judge error on either side"}
    if not before["checks"]:
        return {"reason": "the judge gave no per-check results"}
    kept = _passed(before["checks"])
    if any(c["fixture"] == "main" for c in final["checks"]):  # else no check ran: all lost
        kept &= {(c["fixture"], c["name"]) for c in final["checks"]}
    if not kept:
        return {"reason": "no check passed before it"}
    lost = sorted(kept - _passed(final["checks"]))
    return {
        "passed_before": len(kept),
        "lost": [name if fixture == "main" else f"{fixture}:{name}" for fixture, name in lost],
        "retained": not lost,
    }


def entry_json(entry: Entry) -> dict[str, Any]:
    """One events.jsonl line."""
    return {
        "seq": entry.seq,
        "t": round(entry.t, 6),
        "stage": entry.stage,
        "action": entry.action,
        "action_no": entry.action_no,
        "source": entry.source,
        "event": entry.event,
    }


def stage_records(state: RunState, judging: StageJudging) -> dict[str, Any]:
    """The per-stage part of a run record: ``stage_judging``, ``stage_verdicts`` and
    ``retention``."""
    stages = [stage_verdict_json(s) for s in state.stage_verdicts]
    compactions = [compaction_json(c) for c in state.compactions]
    return {
        "stage_judging": judging,
        "stage_verdicts": stages,
        "retention": retention(compactions, stages, verdict_json(state.verdict)),
    }


LONE_SURROGATE: Final = benchlib.LONE_SURROGATE
printable = benchlib.printable


def json_text(value: Any, **options: Any) -> str:
    """``json.dumps(value, ensure_ascii=False, **options)`` that UTF-8 can always encode: a file
    name that is not UTF-8 (a ``surrogateescape`` string, from an agent's files) stays
    escaped (``\\udcff``) and reads back as the same string."""
    text = json.dumps(value, ensure_ascii=False, **options)
    return LONE_SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def write_json(path: Path, value: Any) -> None:
    """Write ``value`` as indented JSON (:func:`json_text`), atomically (a reader never sees
    half a record)."""
    text = json_text(value, indent=2, sort_keys=True) + "\n"
    handle, name = tempfile.mkstemp(prefix=".run-", dir=path.parent)
    try:
        os.fchmod(handle, 0o644)  # what a plain write gives, not mkstemp's 0600
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            stream.write(text)
        Path(name).replace(path)
    except BaseException:  # a full disk or a signal: no half record, no temporary file
        Path(name).unlink(missing_ok=True)
        raise


@dataclass(frozen=True)
class LeanRun:
    """One run of the lean runner: its id, folder and configuration."""

    run_id: str
    scenario: Scenario
    adapter: Adapter
    python: str
    timeout_seconds: float
    timeout_overridden: bool
    run_dir: Path
    sealed: bool
    stage_judging: StageJudging = "unsupported"

    def record(self, state: RunState, status: str) -> dict[str, Any]:
        """The run's ``run.json``."""
        events = [e.event for e in state.timeline if e.source == "adapter"]
        scenario = self.scenario
        return {
            "schema": LEAN_RECORD_SCHEMA,
            "run_id": self.run_id,
            "status": status,
            "task": {
                "dir": scenario.dirname,
                "id": scenario.id,
                "slug": scenario.slug,
                "pressure": scenario.pressure,
                "stages": len(scenario.stages),
                "version": task_version(scenario.task_dir),
            },
            "adapter": self.adapter.spec,
            "python": self.python,
            "started_at": state.started_at,
            "timeout_seconds": self.timeout_seconds,
            "timeout_overridden": self.timeout_overridden,
            "sealed": self.sealed,
            "end_reason": state.end_reason,
            "end_detail": state.end_detail,
            "times": times_json(state.times),
            "stages": [stage_json(s) for s in state.stages],
            "compactions": [compaction_json(c) for c in state.compactions],
            "figures": usage_figures(events),
            "settings": agent_settings(events),
            "diagnostics": [diagnostic_json(d) for d in state.diagnostics],
            "verdict": verdict_json(state.verdict),
            **stage_records(state, self.stage_judging),
            "artifacts": {"workspace": WORKSPACE_ARCHIVE}
            if (self.run_dir / WORKSPACE_ARCHIVE).is_file()
            else {},
        }

    def write(self, lifecycle: Lifecycle) -> None:
        """The record step: the final workspace (spec section 5, step 8) and events.jsonl
        (the timeline); run.json follows."""
        if lifecycle.workspace.is_dir():
            kept = archive_workspace(lifecycle.workspace, self.run_dir)
            lifecycle.state.diagnostics += kept
        lines = (json_text(entry_json(e)) + "\n" for e in lifecycle.state.timeline)
        (self.run_dir / "events.jsonl").write_text("".join(lines), encoding="utf-8")


def find_tasks(root: Path) -> list[Path]:
    """The task folders of the corpus at ``root``, as its tasks.json lists them."""
    index = root / "tasks.json"
    try:
        entries = json.loads(index.read_text(encoding="utf-8"))["tasks"]
        return [root / str(e["path"]) for e in entries]
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise ScenarioError(f"{index}: cannot be read: {exc}") from None


def task_names(task: Path) -> set[str]:
    """The names ``--task`` knows a task folder ``NN-slug`` by: itself, the slug, the id."""
    number, _, slug = task.name.partition("-")
    return {task.name, slug, number, *([str(int(number))] if number.isdigit() else [])}


def select_tasks(root: Path, wanted: Sequence[str], every: bool) -> list[Path]:
    """The tasks named by ``--task`` (folder name, slug or id), or every task with ``--all``."""
    tasks = find_tasks(root)
    if every:
        return tasks
    chosen = []
    for name in wanted:
        matches = [t for t in tasks if name in task_names(t)]
        if not matches:
            raise ScenarioError(f"--task {name}: no such task in {root / 'tasks.json'}")
        chosen += [m for m in matches if m not in chosen]
    return chosen


def runs_folder_problem(runs: Path) -> tuple[int, str] | None:
    """Why run records cannot be written under ``runs``, with the exit status to stop with
    (2: not a folder, a usage error; 3: it cannot be created or written), or ``None``.

    The folder is created when missing (as the first run would), and probed with a file
    created and removed at once, so a read-only mount or a file in the path is reported
    before any agent runs, not as a traceback after the first one.
    """
    if runs.exists() and not runs.is_dir():
        return 2, f"--runs {runs}: not a folder"
    try:
        runs.mkdir(parents=True, exist_ok=True)
        handle, probe = tempfile.mkstemp(prefix=".run-py-probe-", dir=runs)
        os.close(handle)
        Path(probe).unlink()
    except OSError as exc:
        why = exc.strerror or str(exc)
        return 3, f"--runs {runs}: cannot write there: {why} (check the folder and its permissions)"
    return None


def reserve_run(runs: Path, dirname: str) -> tuple[str, Path]:
    """A new run folder ``ARM--NN-slug--rNNN`` under ``runs`` (created, so never shared)."""
    runs.mkdir(parents=True, exist_ok=True)
    for repeat in range(1, 1_000_000):
        run_id = f"{LEAN_ARM}--{dirname}--r{repeat:03d}"
        with contextlib.suppress(FileExistsError):
            (runs / run_id).mkdir()
            return run_id, runs / run_id
    raise ScenarioError(f"{runs}: no free run number for {dirname}")


def reap_pending(runs: Path) -> list[str]:
    """Mark the ``pending`` runs of invocations that died (``kill -9``) ``interrupted``."""
    reaped = []
    for record_file in sorted(runs.glob("*/run.json")) if runs.is_dir() else []:
        try:
            record = json.loads(record_file.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        owner = record.get("owner")
        if record.get("status") == "pending" and not (owner and owner_alive(Path(owner))):
            record.update(status="interrupted", end_reason="interrupted")
            record["end_detail"] = "the runner was killed before the run ended"
            write_json(record_file, record)
            reaped.append(str(record.get("run_id")))
    return reaped


def lean_run(
    scenario: Scenario, options: argparse.Namespace, temp: Path, records: list[dict[str, Any]]
) -> None:
    """Run one task through the adapter and record it (appending its run.json to ``records``)."""
    run_id, run_dir = reserve_run(options.runs, scenario.dirname)
    timeout = options.timeout or scenario.timeout_seconds
    adapter = command_adapter(options.agent)
    lean = LeanRun(
        run_id, scenario, adapter, options.python, timeout, bool(options.timeout),
        run_dir.absolute(), not options.unsealed, stage_judging(scenario, options.python),
    )  # fmt: skip
    state = RunState(started_at=utc_now())
    extra = {"owner": str(temp), "network": options.network, "agent_binds": options.agent_bind}
    write_json(run_dir / "run.json", {**lean.record(state, "pending"), **extra})
    cache = temp / "judge-cache" / scenario.dirname
    judge = CommandJudge(scenario, options.python, options.judge_timeout, cache, options.unsealed)
    seal = None
    if not options.unsealed:
        seal = AgentSeal(
            agent_binds(options.agent_bind), options.python, network=options.network == "host",
            pass_env=tuple(options.pass_env),
        )  # fmt: skip
    config = RunConfig(
        scenario=scenario, adapter=adapter, python=options.python, timeout_seconds=timeout,
        run_dir=lean.run_dir, judge=judge,
        workspaces=WorkspaceSource(scenario.layout, options.python), record=lean.write, seal=seal,
        stage_judging=lean.stage_judging,
    )  # fmt: skip
    try:
        Lifecycle.execute(config, state)
    except Interrupted:
        state.end_reason, state.end_detail = "interrupted", "the runner was stopped by a signal"
        write_json(run_dir / "run.json", {**lean.record(state, "interrupted"), **extra})
        records.append(lean.record(state, "interrupted"))
        raise
    record = {**lean.record(state, "finished"), **extra}
    write_json(run_dir / "run.json", record)
    records.append(record)


SUMMARY_HEADERS = (
    "run",
    "end",
    "verdict",
    "level",
    "agent s",
    "judge s",
    "calls",
    "aux",
    "tools",
    "tool KiB",
    "compact r/ok/f/n",
    "retained",
    "input",
    "output",
    "cache rd",
    "cache wr",
    "cost $",
    "cache reuse",
    "final",
    "peak ctx",
)


def _cell(value: Any, digits: int = 0) -> str:
    if value is None:
        return "n/a"
    if isinstance(value, float):
        return f"{value:,.{digits}f}"
    return f"{value:,}" if isinstance(value, int) else str(value)


def summary_row(record: Mapping[str, Any]) -> list[str]:
    """One run's line of the summary."""
    figures, verdict = record["figures"], record["verdict"] or {}
    compactions = record["compactions"]
    requested = [c for c in compactions if c["trigger"] == "requested"]
    counts = (
        len(requested),
        sum(c["status"] == "completed" for c in requested),
        sum(c["status"] == "failed" for c in requested),
        len(compactions) - len(requested),
    )
    reuse = figures["prompt_cache_reuse"]
    return [
        record["run_id"], record["end_reason"], verdict.get("status", "-"),
        _cell(verdict.get("progress_level")), _cell(record["times"]["agent_seconds"], 1),
        _cell(record["times"]["judge_seconds"], 1), _cell(figures["main_calls"]),
        _cell(sum(figures["aux_calls"].values())), _cell(figures["tool_calls"]),
        _cell(figures["tool_result_bytes"] / 1024, 1), "/".join(map(str, counts)),
        retained_cell(record.get("retention", [])),
        _cell(figures["input_tokens"]), _cell(figures["output_tokens"]),
        _cell(figures["cache_read_tokens"]), _cell(figures["cache_write_tokens"]),
        _cell(figures["cost_usd"], 4), "n/a" if reuse is None else f"{100 * reuse:.0f}%",
        _cell(figures["final_response_tokens"]), _cell(figures["peak_context_tokens"]),
    ]  # fmt: skip


def retained_cell(entries: Sequence[Mapping[str, Any]]) -> str:
    """``kept/told`` of a run's compactions (``-``: none could be told)."""
    told = [e["retained"] for e in entries if e["retained"] is not None]
    return f"{sum(told)}/{len(told)}" if told else "-"


def text_table(headers: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """A plain-text table with aligned columns."""
    widths = [max(len(str(c)) for c in column) for column in zip(headers, *rows, strict=False)]
    lines = [
        "  ".join(str(c).ljust(w) for c, w in zip(row, widths, strict=False)).rstrip()
        for row in (headers, *rows)
    ]
    return "\n".join(lines)


def summary(records: Sequence[Mapping[str, Any]]) -> str:
    """The plain-text summary: one line per run, then strict passes by class and corpus."""
    parts = [text_table(SUMMARY_HEADERS, [summary_row(r) for r in records]), ""]
    groups: dict[str, list[Mapping[str, Any]]] = {}
    for record in records:
        groups.setdefault(record["task"]["pressure"], []).append(record)
    for key in [*(p for p in "NLMH" if p in groups), "corpus"]:
        mine = list(records) if key == "corpus" else groups[key]
        scored = [r for r in mine if (r["verdict"] or {}).get("status") in ("pass", "fail")]
        passes = sum(r["verdict"]["progress_level"] == 5 for r in scored)
        rate = f"{100 * passes / len(scored):.0f}%" if scored else "n/a"
        errored = len(mine) - len(scored)
        parts.append(f"{key}: {passes}/{len(scored)} strict passes ({rate}), {errored} errored")
    return "\n".join(parts) + "\n"


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="run.py",
        description="Run corpus tasks through an agent adapter (spec section 5) and judge them.",
    )
    parser.add_argument("--agent", required=True, help="command:<shell command> (the adapter)")
    parser.add_argument("--task", action="append", default=[], help="NN-slug, slug or id")
    parser.add_argument("--all", action="store_true", help="every task of tasks.json")
    parser.add_argument("--runs", type=Path, default=Path("runs"), help="records folder")
    parser.add_argument("--timeout", type=float, help="override every timeout_seconds")
    parser.add_argument("--python", default=sys.executable, help="interpreter of seeds and judges")
    parser.add_argument("--judge-timeout", type=float, default=1800.0, help="seconds per judge")
    parser.add_argument(
        "--unsealed", action="store_true", help="run agents and candidates without bubblewrap"
    )
    parser.add_argument(
        "--network", choices=("host", "none"), default="host",
        help="sealed agents share the host network (model APIs) or get none",
    )  # fmt: skip
    parser.add_argument(
        "--agent-bind", action="append", default=[], metavar="PATH",
        help="show this host file or folder read-only to sealed agents; repeatable",
    )  # fmt: skip
    parser.add_argument(
        "--pass-env", action="append", default=[], metavar="NAME",
        help="pass this variable (a credential) into the sealed agent's environment",
    )  # fmt: skip
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """``python run.py``: run the chosen tasks, write a record per run, print the summary.

    Exit status: 0 when every run was recorded and judged, 1 when a run hit a setup, runner
    or judge error, 2 on usage errors (an unknown task or adapter program, a ``--runs`` that
    is a file, ...), 3 when the runs folder cannot be created or written; 128 + N after
    signal N.
    """
    parser = _parser()
    options = parser.parse_args(argv)
    root = Path(__file__).resolve().parent
    try:
        command_adapter(options.agent)
        agent_binds(options.agent_bind)
        if not options.all and not options.task:
            raise ScenarioError("name tasks with --task or pass --all")
        if options.timeout is not None and not 0 < options.timeout < math.inf:
            raise ScenarioError("--timeout must be a positive number of seconds")
        scenarios = [load_scenario(t) for t in select_tasks(root, options.task, options.all)]
    except (ScenarioError, ValueError) as exc:
        parser.error(str(exc))
    if not options.unsealed:
        ok, why = benchlib.sandbox_status()
        if not ok:
            parser.error(
                f"cannot seal agents and candidates: {why}. Pass --unsealed to run them "
                "without the sandbox (they can then read the tasks and write anywhere you can)"
            )
    records: list[dict[str, Any]] = []
    options.runs = options.runs.absolute()
    problem = runs_folder_problem(options.runs)
    if problem is not None:
        code, message = problem
        if code == 2:
            parser.error(message)
        sys.stderr.write(f"{parser.prog}: error: {message}\n")
        return code
    try:
        with interruptible(), private_temp() as temp:
            reap_pending(options.runs)
            for scenario in scenarios:
                lean_run(scenario, options, temp, records)
    except Interrupted as stop:
        sys.stdout.write(summary(records))
        sys.stderr.write(f"interrupted by signal {stop.signum}\n")
        return 128 + stop.signum
    sys.stdout.write(summary(records))
    failed = [
        r
        for r in records
        if r["end_reason"] in ("setup_error", "runner_error")
        or (r["verdict"] or {}).get("status") == "error"
    ]
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
