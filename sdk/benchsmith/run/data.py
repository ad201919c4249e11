"""The runner's plain data: tasks, run plans and what a run recorded.

Everything here is picklable (workers of ``-j N`` receive plans and return outcomes) and
imports only the standard library, the runtime and the judging contract (whose
:class:`~benchsmith.judging.Verdict` a run records), so a worker starts quickly.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from benchsmith.judging import Verdict
from benchsmith.run.invoke import ActionResult
from benchsmith.runtime import benchlib

Kind = Literal["primary", "diagnostic"]
EndReason = Literal[
    "completed", "timeout", "adapter_crash", "setup_error", "runner_error", "interrupted"
]
ArchiveMode = Literal["full", "editable", "none"]
JUDGED_REASONS = ("completed", "timeout", "adapter_crash")


@dataclass(frozen=True, slots=True)
class StageInfo:
    """One stage: its id, user message and whether a compaction follows it."""

    id: str
    message: str
    compact_after: bool


@dataclass(frozen=True, slots=True)
class ServiceInfo:
    """A loopback fixture service kept running during the agent run."""

    name: str
    run: str
    url_file: str


@dataclass(frozen=True, slots=True)
class TaskInfo:
    """A task as the runner sees it.

    Attributes:
        dirname: ``NN-slug``; the task's key in run records.
        id: Task number.
        slug: Task slug.
        pressure: Pressure class (N, L, M, H).
        timeout_seconds: The scenario's agent time limit.
        stages: Stages in order.
        services: Fixture services.
        judge_command: scenario.json's judge command (``{workspace}`` placeholder), as
            validated by :func:`benchsmith.judging.read_judge_command`.
        digest: SHA-256 over scenario.json, judge.py, seed.py and TASK.md: runs with
            different digests ran different versions of the task.
        layout: The runtime layout (task folder, stage ids, editable paths).
    """

    dirname: str
    id: int
    slug: str
    pressure: str
    timeout_seconds: float
    stages: tuple[StageInfo, ...]
    services: tuple[ServiceInfo, ...]
    judge_command: tuple[str, ...]
    digest: str
    layout: benchlib.Layout

    @property
    def task_dir(self) -> Path:
        """The task folder."""
        return self.layout.task_dir

    @property
    def editable(self) -> tuple[str, ...]:
        """Workspace paths the agent may write."""
        return self.layout.editable


@dataclass(frozen=True, slots=True)
class RunPlan:
    """One run to execute: a task, an adapter, an arm and a repeat number.

    Attributes:
        run_id: Unique id; also the name of the run's artifact folder.
        arm: The harness variant this run belongs to.
        kind: ``primary`` (counted in aggregates) or ``diagnostic`` (reported apart).
        repeat: 1-based repeat number within (arm, task, kind).
        task: The task.
        adapter: The ``--agent`` value.
        python: Interpreter for seed.py, services and the judge.
        timeout_seconds: The agent time budget.
        timeout_overridden: Whether ``--timeout`` replaced the scenario's limit.
        run_dir: Folder receiving the run's artifacts.
        archive: How much of the final workspace to archive.
        judge_timeout: Seconds the judge may take.
        judge_cache: Fixture cache shared by the judgings of one invocation, if any.
        workspace_cache: This task's folder of seeded workspaces and stage files shared by
            the runs of one invocation, if any (see :mod:`benchsmith.run.workspaces`).
        sealed: Whether candidates run in the sandbox (false with ``--unsealed``; issue 9).
    """

    run_id: str
    arm: str
    kind: Kind
    repeat: int
    task: TaskInfo
    adapter: str
    python: str
    timeout_seconds: float
    timeout_overridden: bool
    run_dir: Path
    archive: ArchiveMode = "full"
    judge_timeout: float = 1800.0
    judge_cache: Path | None = None
    workspace_cache: Path | None = None
    sealed: bool = True


@dataclass(frozen=True, slots=True)
class Entry:
    """One line of a run's timeline: an adapter event or a runner lifecycle event.

    Attributes:
        seq: 1-based position in the run.
        t: Seconds since the run started.
        stage: The stage it belongs to (0 before the first stage).
        action: ``message``, ``compact`` or ``runner``.
        action_no: 1-based number of the adapter action (0 for runner events).
        source: ``adapter`` or ``runner``.
        event: The event object (``type`` plus fields).
    """

    seq: int
    t: float
    stage: int
    action: str
    action_no: int
    source: str
    event: dict[str, Any]


@dataclass(frozen=True, slots=True)
class DiagnosticEntry:
    """A malformed event line or a recorded misbehaviour of the adapter or the run."""

    stage: int
    action: str
    action_no: int
    line: int
    code: str
    message: str
    text: str = ""


@dataclass(frozen=True, slots=True)
class StageRecord:
    """What happened at one stage.

    Attributes:
        number: 1-based stage number.
        stage_id: Stage id.
        compact_after: Whether a compaction was scheduled after it.
        inject_seconds: Time spent injecting its files (0 for stage 1).
        result: Its ``message`` action, or ``None`` when the run ended before it.
    """

    number: int
    stage_id: str
    compact_after: bool
    inject_seconds: float
    result: ActionResult | None


@dataclass(frozen=True, slots=True)
class CompactionRecord:
    """One compaction: requested by the runner, or reported by the agent on its own.

    Attributes:
        number: 1-based number within the run.
        after_stage: The stage answered before it.
        trigger: ``requested`` or ``natural``.
        status: ``completed`` or ``failed``.
        started: Seconds since the run started (requested compactions).
        seconds: Duration of the compact action (requested compactions).
        detail: Why it failed, or what the adapter said.
    """

    number: int
    after_stage: int
    trigger: str
    status: str
    started: float | None
    seconds: float | None
    detail: str


@dataclass
class Times:
    """Wall times of a run, in seconds.

    Attributes:
        setup: Workspace materialization and service start.
        agent: Sum of the adapter actions (message and compact): the measured agent time.
        inject: Stage injections between actions.
        lifecycle: From the start of the run to the agent's stop and teardown.
        judge: The judge, run after the agent stopped (never part of agent time).
        record: Archiving and writing the run's artifacts.
    """

    setup: float = 0.0
    agent: float = 0.0
    inject: float = 0.0
    lifecycle: float = 0.0
    judge: float = 0.0
    record: float = 0.0


@dataclass
class RunOutcome:
    """Everything one run recorded (what the records store and run.json holds)."""

    plan: RunPlan
    started_at: str
    end_reason: EndReason = "completed"
    end_detail: str = ""
    times: Times = field(default_factory=Times)
    stages: list[StageRecord] = field(default_factory=list)
    compactions: list[CompactionRecord] = field(default_factory=list)
    timeline: list[Entry] = field(default_factory=list)
    diagnostics: list[DiagnosticEntry] = field(default_factory=list)
    verdict: Verdict | None = None
    artifacts: dict[str, str] = field(default_factory=dict)

    @property
    def run_id(self) -> str:
        """The run's id."""
        return self.plan.run_id
