"""Resolving ``--agent`` into the command the runner starts for each action.

Three forms: ``replay`` (plays the task's reference solution), ``nop`` (does nothing and
goes idle) and ``command:<shell command>`` (any harness, run through ``/bin/sh -c``). The
built-ins run as ``python -m benchsmith.run.builtin`` through exactly the same protocol path as an
external adapter.
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from pathlib import Path

from benchsmith.errors import UsageError
from benchsmith.run import protocol

BUILTINS = ("replay", "nop")
COMMAND_PREFIX = "command:"


@dataclass(frozen=True, slots=True)
class Adapter:
    """An agent adapter, ready to start.

    Attributes:
        spec: The ``--agent`` value as given (recorded with each run).
        kind: ``replay``, ``nop`` or ``command``.
        argv: The program started for every action.
    """

    spec: str
    kind: str
    argv: tuple[str, ...]

    def env(self, context: ActionEnv) -> dict[str, str]:
        """The ``BENCHSMITH_*`` variables of one action (added to the inherited environment)."""
        values = {
            protocol.ENV_PROTOCOL: protocol.PROTOCOL_VERSION,
            protocol.ENV_ACTION: context.action,
            protocol.ENV_STAGE: str(context.stage),
            protocol.ENV_STAGE_ID: context.stage_id,
            protocol.ENV_STAGES: str(context.stages),
            protocol.ENV_WORKSPACE: str(context.workspace),
            protocol.ENV_EVENTS: str(context.events),
            protocol.ENV_STATE_DIR: str(context.state_dir),
            protocol.ENV_EDITABLE: json.dumps(list(context.editable)),
            protocol.ENV_TIMEOUT: f"{max(context.timeout, 0.0):.1f}",
        }
        if context.message_file is not None:
            values[protocol.ENV_MESSAGE_FILE] = str(context.message_file)
        if self.kind == "replay" and context.reference is not None:
            values[protocol.ENV_REFERENCE] = str(context.reference)
        return values


@dataclass(frozen=True, slots=True)
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


def resolve_adapter(spec: str) -> Adapter:
    """Turn an ``--agent`` value into an :class:`Adapter`.

    Raises:
        UsageError: When ``spec`` is neither a built-in nor ``command:<shell command>``.
    """
    if spec in BUILTINS:
        return Adapter(spec, spec, (sys.executable, "-m", "benchsmith.run.builtin", spec))
    if spec.startswith(COMMAND_PREFIX):
        command = spec.removeprefix(COMMAND_PREFIX).strip()
        if not command:
            raise UsageError("--agent command: needs a shell command after the colon")
        return Adapter(spec, "command", ("/bin/sh", "-c", command))
    raise UsageError(
        f"--agent {spec!r}: expected replay, nop or command:<shell command> "
        "(see examples/adapters/ for wrappers of agent CLIs)"
    )
