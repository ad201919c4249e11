"""The typed result of ``benchsmith check``: per control, per task, per run.

Failures are data: a control that misses its expectation is a :class:`ControlResult` with
``passed`` false and a ``reason``; a task whose set-up failed carries an ``error``. The
JSON form (``to_dict``) follows ``schemas/check-report.schema.json``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class ControlResult:
    """One control of one task.

    Attributes:
        control: The control's name (``empty``, ``reference``, ``hostile-loop``, ...).
        expected: The expectation, e.g. ``"0"``, ``"≤ 1"``, ``"5 in 3 runs, same verdict"``.
        observed: What happened, e.g. ``"1"``, ``"5 5 5"``, ``"no verdict"``.
        passed: Whether the expectation was met.
        level: The (first) progress level observed, when a judge ran.
        reason: Why the control failed (empty when it passed).
        notes: The judge's notes and other details.
        seconds: Wall time of the control.
    """

    control: str
    expected: str
    observed: str
    passed: bool
    level: int | None = None
    reason: str = ""
    notes: tuple[str, ...] = ()
    seconds: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready mapping."""
        return {
            "control": self.control,
            "expected": self.expected,
            "observed": self.observed,
            "passed": self.passed,
            "level": self.level,
            "reason": self.reason,
            "notes": list(self.notes),
            "seconds": round(self.seconds, 3),
        }


@dataclass(frozen=True, slots=True)
class TaskReport:
    """Every control of one task.

    Attributes:
        task: The task folder, as shown to the user.
        task_id: The task's id.
        slug: The task's slug.
        controls: Control results in battery order.
        seconds: Wall time of the task's battery.
        error: Why the battery could not run at all (empty when it ran).
    """

    task: str
    task_id: int
    slug: str
    controls: tuple[ControlResult, ...]
    seconds: float
    error: str = ""

    @property
    def ok(self) -> bool:
        """Whether every control met its expectation."""
        return not self.error and all(c.passed for c in self.controls)

    @property
    def failures(self) -> list[ControlResult]:
        """The controls that missed their expectation."""
        return [c for c in self.controls if not c.passed]

    def result(self, control: str) -> ControlResult | None:
        """The result of ``control``, if it ran."""
        return next((c for c in self.controls if c.control == control), None)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready mapping."""
        return {
            "task": self.task,
            "id": self.task_id,
            "slug": self.slug,
            "ok": self.ok,
            "error": self.error,
            "seconds": round(self.seconds, 3),
            "controls": [c.to_dict() for c in self.controls],
        }


@dataclass(frozen=True, slots=True)
class CheckReport:
    """The battery over several tasks.

    Attributes:
        tasks: Task reports in argument order.
        python: The interpreter judges and candidates ran with.
        jobs: Tasks checked in parallel.
        seconds: Wall time of the whole run.
        sealed: Whether candidates ran in the sandbox.
        unsealed_reason: Why not (``--unsealed``, and what the sandbox lacked).
    """

    tasks: tuple[TaskReport, ...]
    python: str
    jobs: int
    seconds: float
    sealed: bool = True
    unsealed_reason: str = ""

    @property
    def ok(self) -> bool:
        """Whether every task met every expectation."""
        return all(t.ok for t in self.tasks)

    @property
    def controls(self) -> list[str]:
        """Every control name that ran, in battery order."""
        names: dict[str, None] = {}
        for task in self.tasks:
            names.update((c.control, None) for c in task.controls)
        return list(names)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready mapping (``schemas/check-report.schema.json``)."""
        failed = sum(len(t.failures) for t in self.tasks)
        return {
            "ok": self.ok,
            "python": self.python,
            "jobs": self.jobs,
            "seconds": round(self.seconds, 3),
            "sealed": self.sealed,
            "unsealed_reason": self.unsealed_reason,
            "controls": self.controls,
            "failed": failed,
            "tasks": [t.to_dict() for t in self.tasks],
        }
