"""The user-error family.

Every mistake a user can make (bad ``task.toml``, unknown task, conflicting hand edits) is
raised as an :class:`SdkError` carrying :class:`~benchsmith.diagnostics.Diagnostic` records. The
library never prints; ``benchsmith.cli`` is the single place that turns these into messages and exit
codes. Anything that is not an ``SdkError`` is a bug in benchsmith and keeps its traceback.
"""

from __future__ import annotations

from collections.abc import Iterable

from benchsmith.diagnostics import Diagnostic


class SdkError(Exception):
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


class TaskSpecError(SdkError):
    """Raised when a ``task.toml`` cannot be read, parsed or validated."""


class TaskNotFoundError(SdkError):
    """Raised when a task argument names no task directory (or no ``task.toml``)."""


class BuildError(SdkError):
    """Raised when generated code fails to render, parse or format."""


class ConflictError(SdkError):
    """Raised when a build would overwrite lines an author wrote by hand."""


class StaleError(SdkError):
    """Raised by ``build --check`` when generated files differ from what task.toml produces."""


class UsageError(SdkError):
    """Raised when arguments are inconsistent (exit code 2)."""

    exit_code = 2
