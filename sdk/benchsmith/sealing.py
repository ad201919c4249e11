"""Whether candidates run sealed: the one decision ``check`` and ``run`` share.

Candidate commands (and, later, agents) run under bubblewrap (see the runtime's sandbox
section). Where bubblewrap cannot run, benchsmith refuses unless told ``--unsealed``, and
records that choice in every report and run record.
"""

from __future__ import annotations

from dataclasses import dataclass

from benchsmith.errors import UsageError
from benchsmith.runtime import benchlib

UNSEALED_FLAG = "--unsealed"


class SandboxUnavailableError(UsageError):
    """Raised when bubblewrap cannot seal candidates here and ``--unsealed`` was not given."""


@dataclass(frozen=True, slots=True)
class Sealing:
    """How candidates run.

    Attributes:
        sealed: Under the sandbox.
        reason: Why not, when unsealed (empty when sealed).
    """

    sealed: bool
    reason: str = ""

    @property
    def note(self) -> str:
        """``unsealed: <reason>``, or empty when sealed (the judges' note has this form)."""
        return "" if self.sealed else f"unsealed: {self.reason}"


def decide(unsealed: bool) -> Sealing:
    """Seal candidates, unless ``unsealed`` (then say why, in the sandbox's own words).

    Raises:
        SandboxUnavailableError: When the sandbox cannot run and ``unsealed`` is false: the
            cause and the fix, and that ``--unsealed`` runs candidates unprotected.
    """
    ok, why = benchlib.sandbox_status()
    if unsealed:
        return Sealing(False, f"{UNSEALED_FLAG} was given" + ("" if ok else f" ({why})"))
    if not ok:
        raise SandboxUnavailableError(
            f"cannot seal candidates: {why}. Pass {UNSEALED_FLAG} to run them without the "
            "sandbox (they can then read the task folder and reference, and write anywhere "
            "you can); the reports record it."
        )
    return Sealing(True)
