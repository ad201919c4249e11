"""One run of ``benchsmith run``: the runner core's lifecycle plus the SDK's records.

The lifecycle (spec section 5: workspace, services, stages, compactions, the time budget,
stop, judge) is :class:`benchsmith.runtime.run.Lifecycle`, the same code the corpus's lean
``run.py`` runs. This front end adds what the SDK records: the judge held to the contract
of :mod:`benchsmith.judging` (JSON Schema included), the archived final workspace, the
transcript and ``run.json`` (``schemas/run-record.schema.json``); :mod:`benchsmith.running.batch`
then stores the outcome in runs.db.

:func:`execute_run` never raises for anything an adapter, a judge or a task does: failures
are recorded as the run's ``end_reason`` and diagnostics. Only an interrupt propagates.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

from benchsmith.judging import JudgeCall, Verdict, run_judge
from benchsmith.resources import package_dir
from benchsmith.running import artifacts
from benchsmith.running.adapters import resolve_adapter
from benchsmith.running.data import RunOutcome, RunPlan
from benchsmith.runtime import benchlib
from benchsmith.runtime.run import (
    WORKSPACE_ARCHIVE,
    AgentSeal,
    Lifecycle,
    RunConfig,
    WorkspaceSource,
    archive_workspace,
    utc_now,
)

__all__ = ["execute_run", "utc_now"]


def execute_run(plan: RunPlan) -> RunOutcome:
    """Execute one planned run and write its artifacts under ``plan.run_dir``.

    Returns:
        The outcome; failures of the agent, the task or the judge are recorded in it.
    """
    outcome = RunOutcome(plan=plan, started_at=utc_now())
    config = RunConfig(
        scenario=plan.task.scenario,
        adapter=resolve_adapter(plan.adapter),
        python=plan.python,
        timeout_seconds=plan.timeout_seconds,
        run_dir=plan.run_dir,
        judge=_Judge(plan),
        workspaces=WorkspaceSource(plan.task.layout, plan.python, plan.workspace_cache),
        record=_Recorder(outcome).record,
        seal=agent_seal(plan) if plan.sealed else None,
        stage_judging=plan.task.stage_judging,
    )
    Lifecycle.execute(config, outcome)
    artifacts.write_record(outcome, plan.run_dir)
    return outcome


def agent_seal(plan: RunPlan) -> AgentSeal:
    """How the plan's adapter actions are sealed: the allowlisted view of
    :class:`~benchsmith.runtime.run.AgentSeal` with the task's interpreter and the
    ``--agent-bind`` paths; a built-in adapter also sees its interpreter and package, and
    ``replay`` the task's reference and judge.py (whose ``TASK`` data names the commands it
    runs), read-only."""
    binds: list[benchlib.Bind] = list(plan.agent_binds)
    if resolve_adapter(plan.adapter).kind != "command":
        package = package_dir().parent
        binds += benchlib.interpreter(sys.executable).binds()
        binds += [benchlib.Bind(Path(sys.prefix).resolve()), benchlib.Bind(package)]
        reference = plan.task.task_dir / "reference"
        if plan.adapter == "replay" and reference.is_dir():
            binds.append(benchlib.Bind(reference.resolve()))
            if (plan.task.task_dir / "judge.py").is_file():
                binds.append(benchlib.Bind((plan.task.task_dir / "judge.py").resolve()))
    return AgentSeal(
        binds=tuple(binds), python=plan.python, network=plan.network, pass_env=plan.pass_env
    )


@dataclass(frozen=True)
class _Judge:
    """The SDK's judge call: :func:`benchsmith.judging.run_judge`, as ``check`` judges."""

    plan: RunPlan

    def __call__(self, workspace: Path, output: Path, stage: int | None = None) -> Verdict:
        plan = self.plan
        call = JudgeCall(
            plan.task.task_dir, plan.task.judge_command, plan.python, plan.judge_timeout,
            plan.judge_cache, unsealed=not plan.sealed, stage=stage,
        )  # fmt: skip
        return run_judge(call, workspace, output=output)


@dataclass(frozen=True)
class _Recorder:
    """The SDK's record step: the archive, events.jsonl and the transcript."""

    outcome: RunOutcome

    def record(self, lifecycle: Lifecycle) -> None:
        run_dir = self.outcome.plan.run_dir
        self.archive(lifecycle.workspace, run_dir)
        self.outcome.artifacts.update(artifacts.write_artifacts(self.outcome, run_dir))

    def archive(self, workspace: Path, run_dir: Path) -> None:
        """Archive the final workspace as the plan asks."""
        plan = self.outcome.plan
        if plan.archive == "none" or not workspace.is_dir():
            return
        paths = plan.task.editable if plan.archive == "editable" else None
        self.outcome.diagnostics += archive_workspace(workspace, run_dir, paths)
        self.outcome.artifacts["workspace"] = WORKSPACE_ARCHIVE
