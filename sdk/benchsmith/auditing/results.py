"""The typed result of ``benchsmith audit``: per mutant, per expectation, per task.

Failures are data: a surviving mutant, an unexercised rule or an expectation that checks
nothing is a result with its fate, never an exception; a task the audit could not run at
all carries an ``error``.

Fates of a mutant:

* ``killed``: its outputs differ from the reference's and the judge scores it below 5;
* ``survived``: its outputs differ and the judge still scores 5 -- a judge gap;
* ``equivalent``: no fixture tells it apart (identical outputs on main and edge), or its
  outputs differ only in form and the judge accepts that form; reported as a rule no
  fixture exercises unless ``[audit] equivalent`` justifies it;
* ``error``: it could not be installed, or the judge gave no valid verdict on it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from benchsmith.auditing.mutants import Mutant
from benchsmith.auditing.sampling import Sample

FATES = ("killed", "survived", "equivalent", "error")


@dataclass(frozen=True, slots=True)
class MutantResult:
    """What became of one mutant.

    Attributes:
        mutant: The mutant.
        fate: One of :data:`FATES`.
        level: The judge's level, when it judged the mutant.
        reason: Why: the judge's first note (killed), what differs (survived), what
            matched (equivalent), or the problem (error).
        form_only: Whether its outputs differ from the reference's only in form (known for
            mutants scoring 5: a killed mutant's outputs are not compared).
        why: The author's justification, for a justified equivalent.
        seconds: Wall time spent on it.
        recorded: Whether the fate comes from the task's ``audit.lock`` instead of a run.
    """

    mutant: Mutant
    fate: str
    level: int | None = None
    reason: str = ""
    form_only: bool = False
    why: str = ""
    seconds: float = 0.0
    recorded: bool = False

    @property
    def justified(self) -> bool:
        """Whether the author justified this (equivalent) mutant."""
        return bool(self.why)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready mapping: the mutant's identity, diff and fate."""
        return {
            **self.mutant.to_dict(),
            "fate": self.fate,
            "level": self.level,
            "reason": self.reason,
            "form_only": self.form_only,
            "justified": self.justified,
            "why": self.why,
            "seconds": round(self.seconds, 3),
            "recorded": self.recorded,
        }


@dataclass(frozen=True, slots=True)
class RecordUse:
    """How an audit used the task's ``audit.lock`` (``--recorded``) or wrote it (``--record``).

    Attributes:
        current: Whether a record matching the task's files was found (or was written).
        note: Why there is no current record (empty when there is one).
        replayed: Mutants whose fate was taken from the record without running them.
        verified: Recorded mutants run again to check the record.
        unrecorded: Mutants the record does not know (new or changed), run.
        written: Whether this audit wrote the record.
    """

    current: bool
    note: str = ""
    replayed: int = 0
    verified: tuple[str, ...] = ()
    unrecorded: int = 0
    written: bool = False

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready mapping (the ``record`` entry of a task's report)."""
        return {
            "current": self.current,
            "note": self.note,
            "replayed": self.replayed,
            "verified": list(self.verified),
            "unrecorded": self.unrecorded,
            "written": self.written,
        }


@dataclass(frozen=True, slots=True)
class ExpectationResult:
    """One perturbed expected value and whether the reference then failed its check.

    Attributes:
        name: The check (expectation) name.
        fixture: ``main`` or ``edge``.
        field: Which value was perturbed (``equals.average``, ``count``, ...).
        original: The value the judge holds.
        perturbed: The value put in its place.
        load_bearing: Whether the reference failed the check once perturbed (``None``:
            undecided, the check did not run).
        note: The check's note, or why it was undecided.
    """

    name: str
    fixture: str
    field: str
    original: Any
    perturbed: Any
    load_bearing: bool | None
    note: str = ""

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready mapping."""
        return {
            "name": self.name,
            "fixture": self.fixture,
            "field": self.field,
            "original": self.original,
            "perturbed": self.perturbed,
            "load_bearing": self.load_bearing,
            "note": self.note,
        }


@dataclass(frozen=True, slots=True)
class TaskAudit:
    """The audit of one task.

    Attributes:
        task: The task folder, as shown.
        task_id: Its id.
        slug: Its slug.
        mutants: One result per mutant, in generation order.
        expectations: One result per perturbed expected value.
        findings: Other problems: files not mutated, stale justifications, a reference
            whose outputs change with the environment (fail under ``--strict``).
        duplicates: Generated mutants dropped because an earlier one had the same source.
        seconds: Wall time of the task's audit.
        error: Why the audit could not run at all (empty when it ran).
        sample: Which mutants ran and which a sample left out (``None``: the audit did
            not get as far as making mutants).
        record: How ``audit.lock`` was used or written (``None``: neither was asked).
    """

    task: str
    task_id: int
    slug: str
    mutants: tuple[MutantResult, ...] = ()
    expectations: tuple[ExpectationResult, ...] = ()
    findings: tuple[str, ...] = ()
    duplicates: int = 0
    seconds: float = 0.0
    error: str = ""
    sample: Sample | None = None
    record: RecordUse | None = None

    def by_fate(self, fate: str) -> list[MutantResult]:
        """The results with ``fate``."""
        return [r for r in self.mutants if r.fate == fate]

    @property
    def unjustified(self) -> list[MutantResult]:
        """Equivalent mutants no justification covers."""
        return [r for r in self.by_fate("equivalent") if not r.justified]

    @property
    def idle_expectations(self) -> list[ExpectationResult]:
        """Perturbed values the reference still passed: expectations that check nothing."""
        return [e for e in self.expectations if e.load_bearing is False]

    def failed(self, strict: bool) -> list[str]:
        """Why the task fails the audit (empty when it passes)."""
        reasons = [self.error] if self.error else []
        reasons += [f"survived: {r.mutant.id}" for r in self.by_fate("survived")]
        reasons += [f"error: {r.mutant.id}" for r in self.by_fate("error")]
        reasons += [f"not load-bearing: {e.name} {e.field}" for e in self.idle_expectations]
        if strict:
            reasons += [f"unjustified equivalent: {r.mutant.id}" for r in self.unjustified]
            reasons += [
                f"undecided: {e.name} {e.field}"
                for e in self.expectations
                if e.load_bearing is None
            ]
            reasons += list(self.findings)
        return reasons

    def counts(self) -> dict[str, int]:
        """``total`` and one count per fate, plus ``justified`` equivalents."""
        counts = {"total": len(self.mutants)}
        counts |= {fate: len(self.by_fate(fate)) for fate in FATES}
        counts["justified"] = sum(r.justified for r in self.mutants)
        return counts

    def to_dict(self, strict: bool = False) -> dict[str, Any]:
        """A JSON-ready mapping (the ``--json`` entry of one task)."""
        return {
            "task": self.task,
            "id": self.task_id,
            "slug": self.slug,
            "ok": not self.failed(strict),
            "error": self.error,
            "seconds": round(self.seconds, 3),
            "mutants": self.counts(),
            "survivors": [r.to_dict() for r in self.by_fate("survived")],
            "equivalents": [r.to_dict() for r in self.by_fate("equivalent")],
            "errors": [r.to_dict() for r in self.by_fate("error")],
            "killed": [r.mutant.id for r in self.by_fate("killed")],
            "expectations": [e.to_dict() for e in self.expectations],
            "findings": list(self.findings),
            "duplicates": self.duplicates,
            "sample": None if self.sample is None else self.sample.to_dict(),
            "record": None if self.record is None else self.record.to_dict(),
        }


@dataclass(frozen=True, slots=True)
class AuditReport:
    """The audit of several tasks.

    Attributes:
        tasks: Task audits in argument order.
        python: The interpreter candidates and judges ran with.
        jobs: Worker processes.
        strict: Whether unjustified equivalents and findings fail.
        seconds: Wall time of the whole audit.
    """

    tasks: tuple[TaskAudit, ...]
    python: str
    jobs: int
    strict: bool
    seconds: float

    @property
    def ok(self) -> bool:
        """Whether every task passes the audit."""
        return not any(t.failed(self.strict) for t in self.tasks)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready mapping (what ``--json`` prints)."""
        return {
            "ok": self.ok,
            "python": self.python,
            "jobs": self.jobs,
            "strict": self.strict,
            "seconds": round(self.seconds, 3),
            "tasks": [t.to_dict(self.strict) for t in self.tasks],
        }
