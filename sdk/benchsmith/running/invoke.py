"""Running one adapter action: start it, follow its events, enforce the time budget.

The implementation is the runner core's (:func:`benchsmith.runtime.run.run_action`), shared
with the corpus's lean ``run.py``; this module names it for the SDK.
"""

from __future__ import annotations

from benchsmith.runtime.run import (
    ActionFiles,
    ActionResult,
    EventTail,
    Outcome,
    Problem,
    Received,
    clip,
    remaining,
    run_action,
)

__all__ = [
    "ActionFiles",
    "ActionResult",
    "EventTail",
    "Outcome",
    "Problem",
    "Received",
    "clip",
    "remaining",
    "run_action",
]
