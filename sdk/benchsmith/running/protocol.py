"""The adapter protocol: environment variables, actions and event lines.

An adapter is a command the runner starts once per *action* (``message`` or ``compact``)
with the ``BENCHSMITH_*`` variables below, in the workspace, in its own process group. It
appends one JSON object per line to ``$BENCHSMITH_EVENTS``. The definition lives in the
runner core shipped with every corpus (:mod:`benchsmith.runtime.run`, the corpus's
``run.py``), so the lean runner and ``benchsmith run`` accept exactly the same lines; this
module names it for the SDK. ``schemas/run-record.schema.json`` publishes the same event
shapes (``$defs``) for adapter authors, and a usage event's metric keys are the event fields
of :class:`benchsmith.running.metrics.Usage` (a test keeps them equal).
"""

from __future__ import annotations

from benchsmith.runtime.run import (
    ENV_ACTION,
    ENV_EDITABLE,
    ENV_EVENTS,
    ENV_MESSAGE_FILE,
    ENV_PROTOCOL,
    ENV_REFERENCE,
    ENV_STAGE,
    ENV_STAGE_ID,
    ENV_STAGES,
    ENV_STATE_DIR,
    ENV_TIMEOUT,
    ENV_TRANSCRIPT_DIR,
    ENV_WORKSPACE,
    FIELDS,
    MAX_LINE_BYTES,
    PROTOCOL_VERSION,
    USAGE_KEYS,
    LineProblem,
    event_line,
    parse_event,
)

__all__ = [
    "ENV_ACTION",
    "ENV_EDITABLE",
    "ENV_EVENTS",
    "ENV_MESSAGE_FILE",
    "ENV_PROTOCOL",
    "ENV_REFERENCE",
    "ENV_STAGE",
    "ENV_STAGES",
    "ENV_STAGE_ID",
    "ENV_STATE_DIR",
    "ENV_TIMEOUT",
    "ENV_TRANSCRIPT_DIR",
    "ENV_WORKSPACE",
    "FIELDS",
    "MAX_LINE_BYTES",
    "PROTOCOL_VERSION",
    "USAGE_KEYS",
    "LineProblem",
    "event_line",
    "parse_event",
]
