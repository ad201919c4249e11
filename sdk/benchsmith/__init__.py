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

Several functions share their name with the subpackage implementing them (``check``,
``lint``, ``run``, ``workspace``, ``vocab``). Python binds a submodule to its package's
attribute when the submodule is imported, which would replace ``benchsmith.check`` the
function with ``benchsmith.check`` the package; this package refuses that rebinding, so the
top-level names always stay the functions. Import submodules with ``from`` (``from
benchsmith.check.battery import check_tasks``), not as ``import benchsmith.check.battery``
followed by attribute access.
"""

from __future__ import annotations

import importlib
import sys
import types
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
    from benchsmith.check.battery import ProgressEvent
    from benchsmith.check.results import CheckReport, ControlResult, TaskReport
    from benchsmith.check.seeds import SeedError
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
    from benchsmith.lint.registry import Rule
    from benchsmith.lockfile import LockResult
    from benchsmith.run.batch import BatchResult
    from benchsmith.run.data import RunOutcome, RunPlan
    from benchsmith.run.records import RecordsError
    from benchsmith.run.report import Report

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
    "ProgressEvent": "benchsmith.check.battery",
    "CheckReport": "benchsmith.check.results",
    "ControlResult": "benchsmith.check.results",
    "TaskReport": "benchsmith.check.results",
    "SeedError": "benchsmith.check.seeds",
    "TaskSpec": "benchsmith.dsl.model",
    "Rule": "benchsmith.lint.registry",
    "LockResult": "benchsmith.lockfile",
    "BatchResult": "benchsmith.run.batch",
    "RunOutcome": "benchsmith.run.data",
    "RunPlan": "benchsmith.run.data",
    "RecordsError": "benchsmith.run.records",
    "Report": "benchsmith.run.report",
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


class _Package(types.ModuleType):
    """The ``benchsmith`` module: its library functions are never replaced by submodules."""

    def __setattr__(self, name: str, value: object) -> None:
        if name in FUNCTIONS and isinstance(value, types.ModuleType):
            return  # the import system binding a same-named submodule; sys.modules has it
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package
