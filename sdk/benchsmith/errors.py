"""The user-error family.

Every mistake a user can make (bad ``task.toml``, unknown task, conflicting hand edits) is
raised as a :class:`BenchsmithError` carrying :class:`~benchsmith.diagnostics.Diagnostic`
records. The library never prints; ``benchsmith.cli`` is the single place that turns these
into messages and exit codes. Anything that is not a ``BenchsmithError`` is a bug in
benchsmith and keeps its traceback.
"""

from __future__ import annotations

import errno
import os
from collections.abc import Iterable
from pathlib import Path

from benchsmith.diagnostics import Diagnostic, display_path


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
    """Raised when a task argument names no task directory (or no ``task.toml``): a usage
    error (exit code 2), whichever command was given it."""

    exit_code = 2


class BuildError(BenchsmithError):
    """Raised when generated code fails to render, parse or format."""


class ConflictError(BenchsmithError):
    """Raised when a build would overwrite lines an author wrote by hand."""


class StaleError(BenchsmithError):
    """Raised by ``build --check`` when generated files differ from what task.toml produces."""


class UsageError(BenchsmithError):
    """Raised when arguments are inconsistent (exit code 2)."""

    exit_code = 2


class FileSystemError(BenchsmithError):
    """Raised when a file or folder cannot be read or written: a read-only file system, a
    full disk, missing permissions (exit code 3: the environment failed, not the task)."""

    exit_code = 3

    @classmethod
    def from_os_error(
        cls, exc: OSError, path: Path | str | None = None, action: str = "write or read"
    ) -> FileSystemError:
        """The error for ``exc``, located at ``path`` (default: the file the OS names)."""
        where = path if path is not None else exc.filename
        shown = display_path(os.fsdecode(where)) if where is not None else "."
        reason = exc.strerror or str(exc) or type(exc).__name__
        hint = _HINTS.get(exc.errno or 0, "")
        message = f"cannot {action} {shown}: {reason}{hint}"
        return cls(message, [Diagnostic(shown, 1, 1, "BS001", f"{reason}{hint}")])


_HINTS = {
    errno.EROFS: " (the file system is read-only)",
    errno.ENOSPC: " (free some space; nothing was changed)",
    errno.EDQUOT: " (disk quota exceeded; nothing was changed)",
    errno.EACCES: " (check the folder's permissions)",
    errno.EPERM: " (check the folder's permissions)",
}


class LockedError(BenchsmithError):
    """Raised when another process keeps a task (or corpus) locked for too long (exit 3)."""

    exit_code = 3
