"""Resolving ``--agent`` into the command the runner starts for each action.

Three forms: ``replay`` (plays the task's reference solution), ``nop`` (does nothing and
goes idle) and ``command:<shell command>`` (any harness, run through ``/bin/sh -c``). The
built-ins run as ``python -m benchsmith.running.builtin`` through exactly the same protocol
path as an external adapter. :class:`Adapter` and :class:`ActionEnv` are the runner core's
(:mod:`benchsmith.runtime.run`), whose lean ``run.py`` knows only ``command:``.
"""

from __future__ import annotations

import sys

from benchsmith.errors import UsageError
from benchsmith.runtime.run import COMMAND_PREFIX, ActionEnv, Adapter, command_adapter

__all__ = ["BUILTINS", "COMMAND_PREFIX", "ActionEnv", "Adapter", "resolve_adapter"]

BUILTINS = ("replay", "nop")


def resolve_adapter(spec: str) -> Adapter:
    """Turn an ``--agent`` value into an :class:`Adapter`.

    Raises:
        UsageError: When ``spec`` is neither a built-in nor ``command:<shell command>``, or
            its program cannot be found.
    """
    if spec in BUILTINS:
        return Adapter(spec, spec, (sys.executable, "-m", "benchsmith.running.builtin", spec))
    if spec.startswith(COMMAND_PREFIX):
        if not spec.removeprefix(COMMAND_PREFIX).strip():
            raise UsageError("--agent command: needs a shell command after the colon")
        try:
            return command_adapter(spec)
        except ValueError as exc:
            raise UsageError(f"--agent {spec!r}: {exc}") from None
    raise UsageError(
        f"--agent {spec!r}: expected replay, nop or command:<shell command> "
        "(see examples/adapters/ for wrappers of agent CLIs)"
    )
