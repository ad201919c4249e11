"""The validation battery: controls, witnesses, determinism, isolation, hostile candidates.

Public API (imported lazily, so the CLI starts fast):

* :func:`check_tasks` with :class:`CheckOptions` returns a :class:`CheckReport`;
* :func:`lock_tasks` records seed.py's tree hashes in each task's benchsmith.lock;
* :func:`table_text` and :func:`html_page` render a report.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from sdk.check.battery import CheckOptions, ProgressEvent, check_tasks
    from sdk.check.render import html_page, table_text
    from sdk.check.report import CheckReport, ControlResult, TaskReport
    from sdk.check.seeds import LockResult, lock_tasks

_EXPORTS = {
    "CheckOptions": "sdk.check.battery",
    "ProgressEvent": "sdk.check.battery",
    "check_tasks": "sdk.check.battery",
    "html_page": "sdk.check.render",
    "table_text": "sdk.check.render",
    "CheckReport": "sdk.check.report",
    "ControlResult": "sdk.check.report",
    "TaskReport": "sdk.check.report",
    "LockResult": "sdk.check.seeds",
    "lock_tasks": "sdk.check.seeds",
}

__all__ = [
    "CheckOptions",
    "CheckReport",
    "ControlResult",
    "LockResult",
    "ProgressEvent",
    "TaskReport",
    "check_tasks",
    "html_page",
    "lock_tasks",
    "table_text",
]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'sdk.check' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)
