"""The runner's plain data: tasks, run plans and what a run recorded.

Everything here is picklable (workers of ``-j N`` receive plans and return outcomes). What a
run records is the runner core's (:mod:`benchsmith.runtime.run`, shared with the corpus's
lean ``run.py``): :class:`RunOutcome` is its :class:`~benchsmith.runtime.run.RunState` plus
the plan that produced it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from benchsmith.runtime import benchlib
from benchsmith.runtime.run import (
    JUDGED_REASONS,
    CompactionRecord,
    DiagnosticEntry,
    EndReason,
    Entry,
    RunState,
    Scenario,
    Service,
    Stage,
    StageJudging,
    StageRecord,
    StageVerdict,
    Times,
)

__all__ = [
    "JUDGED_REASONS",
    "ArchiveMode",
    "CompactionRecord",
    "DiagnosticEntry",
    "EndReason",
    "Entry",
    "Kind",
    "RunOutcome",
    "RunPlan",
    "StageJudging",
    "StageRecord",
    "StageVerdict",
    "TaskInfo",
    "Times",
]

Kind = Literal["primary", "diagnostic"]
ArchiveMode = Literal["full", "editable", "none"]


@dataclass(frozen=True, slots=True)
class TaskInfo:
    """A task as the runner sees it: its scenario.json (and judge's services), versioned.

    Attributes:
        scenario: What the runner core reads of the task folder (``load_scenario``).
        digest: SHA-256 over scenario.json, judge.py, seed.py and TASK.md (``task_digest``
            of the records).
        stage_judging: Whether its runs judge each stage (``on`` when it has several stages
            and its judge accepts ``--stage``; see :func:`benchsmith.runtime.run.stage_judging`).
    """

    scenario: Scenario
    digest: str
    stage_judging: StageJudging = "unsupported"

    @property
    def dirname(self) -> str:
        """``NN-slug``; the task's key in run records."""
        return self.scenario.dirname

    @property
    def id(self) -> int:
        """Task number."""
        return self.scenario.id

    @property
    def slug(self) -> str:
        """Task slug."""
        return self.scenario.slug

    @property
    def pressure(self) -> str:
        """Pressure class (N, L, M, H)."""
        return self.scenario.pressure

    @property
    def timeout_seconds(self) -> float:
        """The scenario's agent time limit."""
        return self.scenario.timeout_seconds

    @property
    def stages(self) -> tuple[Stage, ...]:
        """Stages in order."""
        return self.scenario.stages

    @property
    def services(self) -> tuple[Service, ...]:
        """Fixture services."""
        return self.scenario.services

    @property
    def judge_command(self) -> tuple[str, ...]:
        """scenario.json's judge command (``{workspace}`` placeholder)."""
        return self.scenario.judge_command

    @property
    def layout(self) -> benchlib.Layout:
        """The runtime layout (task folder, stage ids and inject folders, editable paths)."""
        return self.scenario.layout

    @property
    def task_dir(self) -> Path:
        """The task folder."""
        return self.scenario.task_dir

    @property
    def editable(self) -> tuple[str, ...]:
        """Workspace paths the agent may write."""
        return self.scenario.editable


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
            the runs of one invocation, if any (see :mod:`benchsmith.running.workspaces`).
        sealed: Whether candidates and the agent's actions run in the sandbox (false with
            ``--unsealed``; issue 9).
        network: Whether sealed agents share the host network (``--network host``, the
            default: harnesses call model APIs) or only see a private loopback (``none``).
        pass_env: Variables passed into the sealed agent's environment (``--pass-env``).
        agent_binds: Host paths shown read-only to the sealed agent (``--agent-bind``).
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
    network: bool = True
    pass_env: tuple[str, ...] = ()
    agent_binds: tuple[benchlib.Bind, ...] = ()


@dataclass
class RunOutcome(RunState):
    """Everything one run recorded (what the records store and run.json holds), with its plan."""

    plan: RunPlan = field(kw_only=True)

    @property
    def run_id(self) -> str:
        """The run's id."""
        return self.plan.run_id
