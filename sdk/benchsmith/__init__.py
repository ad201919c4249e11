"""benchsmith: author, validate and run hermetic benchmark tasks for coding agents.

The package's top level is the library API: one function per command (see
:mod:`benchsmith.api`), the result types they return and the user-error family::

    import benchsmith

    result = benchsmith.build("examples/01-grade-summary")
    findings = benchsmith.lint("examples/01-grade-summary")
    report = benchsmith.check("examples/01-grade-summary", controls=["isolation"])
    assert report.ok

The command line (:mod:`benchsmith.cli`) is a thin layer over these functions; nothing
here imports typer. Everything but the functions is imported on first use, and the
functions import what they need when called, so ``import benchsmith`` is quick.

No subpackage shares a function's name (the battery is ``benchsmith.checking``, the rules
``benchsmith.linting``, the runner ``benchsmith.running``, the audit ``benchsmith.auditing``),
so every submodule imports either way: ``import benchsmith.linting.registry`` as well as
``from benchsmith.checking.battery import check_tasks``.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from benchsmith._version import __version__
from benchsmith.api import (
    PathArg,
    TaskArg,
    Tasks,
    audit,
    build,
    check,
    export_harbor,
    export_standalone,
    lint,
    lock,
    new,
    report,
    rules,
    run,
    vocab,
    workspace,
)

if TYPE_CHECKING:
    from benchsmith.building import BuildResult, FileChange
    from benchsmith.checking.battery import ProgressEvent
    from benchsmith.checking.results import CheckReport, ControlResult, TaskReport
    from benchsmith.diagnostics import Diagnostic, Severity
    from benchsmith.dsl.model import TaskSpec
    from benchsmith.errors import (
        BenchsmithError,
        BuildError,
        ConflictError,
        StaleError,
        TaskNotFoundError,
        TaskSpecError,
        UsageError,
    )
    from benchsmith.linting.registry import Rule
    from benchsmith.lockfile import LockResult
    from benchsmith.running.batch import BatchResult
    from benchsmith.running.data import RunOutcome, RunPlan
    from benchsmith.running.records import RecordsError
    from benchsmith.running.report import Report
    from benchsmith.seeds import SeedError

FUNCTIONS = (
    "audit", "build", "check", "export_harbor", "export_standalone", "lint", "lock", "new",
    "report", "rules", "run", "vocab", "workspace",
)  # fmt: skip
"""The library functions, one per command of the command line."""

_LAZY = {
    "Diagnostic": "benchsmith.diagnostics",
    "Severity": "benchsmith.diagnostics",
    "BenchsmithError": "benchsmith.errors",
    "BuildError": "benchsmith.errors",
    "ConflictError": "benchsmith.errors",
    "StaleError": "benchsmith.errors",
    "TaskNotFoundError": "benchsmith.errors",
    "TaskSpecError": "benchsmith.errors",
    "UsageError": "benchsmith.errors",
    "BuildResult": "benchsmith.building",
    "FileChange": "benchsmith.building",
    "ProgressEvent": "benchsmith.checking.battery",
    "CheckReport": "benchsmith.checking.results",
    "ControlResult": "benchsmith.checking.results",
    "TaskReport": "benchsmith.checking.results",
    "SeedError": "benchsmith.seeds",
    "TaskSpec": "benchsmith.dsl.model",
    "Rule": "benchsmith.linting.registry",
    "LockResult": "benchsmith.lockfile",
    "BatchResult": "benchsmith.running.batch",
    "RunOutcome": "benchsmith.running.data",
    "RunPlan": "benchsmith.running.data",
    "RecordsError": "benchsmith.running.records",
    "Report": "benchsmith.running.report",
}

__all__ = [
    "BatchResult",
    "BenchsmithError",
    "BuildError",
    "BuildResult",
    "CheckReport",
    "ConflictError",
    "ControlResult",
    "Diagnostic",
    "FileChange",
    "LockResult",
    "PathArg",
    "ProgressEvent",
    "RecordsError",
    "Report",
    "Rule",
    "RunOutcome",
    "RunPlan",
    "SeedError",
    "Severity",
    "StaleError",
    "TaskArg",
    "TaskNotFoundError",
    "TaskReport",
    "TaskSpec",
    "TaskSpecError",
    "Tasks",
    "UsageError",
    "__version__",
    "audit",
    "build",
    "check",
    "export_harbor",
    "export_standalone",
    "lint",
    "lock",
    "new",
    "report",
    "rules",
    "run",
    "vocab",
    "workspace",
]


def __getattr__(name: str) -> Any:
    """Import a type or an error class on first use."""
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'benchsmith' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))
