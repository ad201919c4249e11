"""Where a run's workspace and stage files come from: seeded once per invocation, then copied.

The implementation is the runner core's :class:`benchsmith.runtime.run.WorkspaceSource`:
with a cache folder shared by the runs of one ``benchsmith run`` invocation (``-j N``
workers too), each task's stage-1 workspace and later stage files are materialized once and
copied for every run.
"""

from __future__ import annotations

from benchsmith.runtime.run import WorkspaceSource, copyable
from benchsmith.runtime.run import remove_tree as remove_cache

__all__ = ["WorkspaceSource", "copyable", "remove_cache"]
