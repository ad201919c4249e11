"""The user-error family.

Every mistake a user can make (bad ``task.toml``, unknown task, conflicting hand edits) is
raised as a :class:`BenchsmithError` carrying :class:`~benchsmith.diagnostics.Diagnostic`
records. The library never prints; ``benchsmith.cli`` is the single place that turns these
into messages and exit codes. Anything that is not a ``BenchsmithError`` is a bug in
benchsmith and keeps its traceback.
"""

from __future__ import annotations

from collections.abc import Iterable

from benchsmith.diagnostics import Diagnostic


class BenchsmithError(Exception):
    """Base class of every user-facing benchsmith error.

    Attributes:
        diagnostics: The located findings that explain the error (may be empty when the
            message alone says everything, e.g. a missing directory).
    """

    exit_code = 1

    def __init__(self, message: str, diagnostics: Iterable[Diagnostic] = ()) -> None:
        super().__init__(message)
        self.message = message
        self.diagnostics = tuple(diagnostics)


class TaskSpecError(BenchsmithError):
    """Raised when a ``task.toml`` cannot be read, parsed or validated."""


class TaskNotFoundError(BenchsmithError):
    """Raised when a task argument names no task directory (or no ``task.toml``)."""


class BuildError(BenchsmithError):
    """Raised when generated code fails to render, parse or format."""


class ConflictError(BenchsmithError):
    """Raised when a build would overwrite lines an author wrote by hand."""


class StaleError(BenchsmithError):
    """Raised by ``build --check`` when generated files differ from what task.toml produces."""


class UsageError(BenchsmithError):
    """Raised when arguments are inconsistent (exit code 2)."""

    exit_code = 2
