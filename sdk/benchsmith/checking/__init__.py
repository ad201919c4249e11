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
    from benchsmith.checking.battery import CheckOptions, ProgressEvent, check_tasks
    from benchsmith.checking.present import html_page, table_text
    from benchsmith.checking.results import CheckReport, ControlResult, TaskReport
    from benchsmith.lockfile import LockResult, lock_tasks

_EXPORTS = {
    "CheckOptions": "benchsmith.checking.battery",
    "ProgressEvent": "benchsmith.checking.battery",
    "check_tasks": "benchsmith.checking.battery",
    "html_page": "benchsmith.checking.present",
    "table_text": "benchsmith.checking.present",
    "CheckReport": "benchsmith.checking.results",
    "ControlResult": "benchsmith.checking.results",
    "TaskReport": "benchsmith.checking.results",
    "LockResult": "benchsmith.lockfile",
    "lock_tasks": "benchsmith.lockfile",
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
        raise AttributeError(f"module 'benchsmith.checking' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)
