"""One run: workspace, services, stages, compactions, stop, judge, artifacts.

:func:`execute_run` is the whole of spec section 5 for one (task, arm, repeat):

1. materialize a fresh workspace in a private temporary folder (seed.py, visible/, TASK.md;
   inputs read-only, editable paths writable; nothing private -- a copy of the one seeded
   per invocation when the plan names a workspace cache), start the task's loopback
   services and write their URL files;
2. send each stage's message through the adapter and wait for the turn to finish (an early
   ``done`` is recorded and ignored while stages remain); after a stage with
   ``compact_after`` request one compaction; inject the next stage's files;
3. enforce the agent time budget over the sum of the adapter actions (runner overhead such
   as injections never eats into it); a timeout or crash ends the run with its reason;
4. stop the agent (each action's process group is killed when the action ends), tear the
   services down, then judge outside the measured agent time;
5. write the artifacts (events, transcript, judge output, archived workspace, run.json).

It never raises for anything an adapter, a judge or a task does: failures are recorded as
the run's ``end_reason`` and diagnostics. Only an interrupt propagates.
"""

from __future__ import annotations

import contextlib
import datetime as _dt
import shlex
import shutil
import stat
import tempfile
import time
import traceback
from pathlib import Path
from typing import Any

from benchsmith.judging import JudgeCall, run_judge
from benchsmith.run import artifacts
from benchsmith.run.adapters import ActionEnv, resolve_adapter
from benchsmith.run.archive import write_archive
from benchsmith.run.data import (
    JUDGED_REASONS,
    CompactionRecord,
    DiagnosticEntry,
    EndReason,
    Entry,
    RunOutcome,
    RunPlan,
    StageRecord,
)
from benchsmith.run.invoke import ActionFiles, ActionResult, remaining, run_action
from benchsmith.run.workspaces import WorkspaceSource
from benchsmith.runtime import benchlib


class SetupFailed(Exception):
    """Raised inside a run when the workspace or a service cannot be prepared."""


def utc_now() -> str:
    """The current UTC time, ISO 8601 to the second (run metadata, never fixture data)."""
    return _dt.datetime.now(_dt.UTC).replace(microsecond=0).isoformat().replace("+00:00", "Z")


def execute_run(plan: RunPlan) -> RunOutcome:
    """Execute one planned run and write its artifacts under ``plan.run_dir``.

    Returns:
        The outcome; failures of the agent, the task or the judge are recorded in it.
    """
    with tempfile.TemporaryDirectory(prefix="benchsmith-", ignore_cleanup_errors=True) as tmp:
        run = _Run(plan, Path(tmp))
        try:
            run.execute()
        finally:
            benchlib.make_writable(Path(tmp))
    return run.outcome


class _Run:
    """The state of one run while it executes."""

    def __init__(self, plan: RunPlan, session: Path) -> None:
        self.plan, self.task = plan, plan.task
        self.adapter = resolve_adapter(plan.adapter)
        self.origin = time.monotonic()
        self.outcome = RunOutcome(plan, started_at=utc_now())
        self.workspace = session / "workspace"
        self.io, self.state = session / "io", session / "state"
        self.scratch = session / "scratch"
        self.action_no = 0
        self.source = WorkspaceSource(plan.task.layout, plan.python, plan.workspace_cache)

    # -- timeline ---------------------------------------------------------------------------

    def now(self) -> float:
        """Seconds since the run started."""
        return time.monotonic() - self.origin

    def note(self, kind: str, stage: int, **fields: Any) -> None:
        """Append a runner lifecycle event to the timeline."""
        event = {"type": kind, **fields}
        seq = len(self.outcome.timeline) + 1
        self.outcome.timeline.append(Entry(seq, self.now(), stage, "runner", 0, "runner", event))

    def end(self, reason: EndReason, detail: str) -> None:
        """Record why the run ended early (the first reason wins)."""
        if self.outcome.end_reason == "completed":
            self.outcome.end_reason, self.outcome.end_detail = reason, detail

    # -- the run ----------------------------------------------------------------------------

    def execute(self) -> None:
        """Run every step, recording instead of raising."""
        self.plan.run_dir.mkdir(parents=True, exist_ok=True)
        try:
            with contextlib.ExitStack() as services:
                if self.setup(services):
                    self.converse()
                    self.stop_agent()
            if self.task.services:
                self.note("services_stopped", len(self.task.stages))
            self.outcome.times.lifecycle = self.now()
            if self.outcome.end_reason in JUDGED_REASONS:
                self.judge()
        except Exception as exc:  # a bug in the runner: record it, keep the batch going
            self.end("runner_error", _describe(exc))
            self.outcome.times.lifecycle = self.outcome.times.lifecycle or self.now()
        self.record()

    def setup(self, services: contextlib.ExitStack) -> bool:
        """Materialize the workspace and start the services; False (recorded) on failure."""
        for folder in (self.io, self.state, self.scratch):
            folder.mkdir()
        try:
            self.source.make(self.workspace)
            self.guard_private()
            self.start_services(services)
        except Exception as exc:  # seed.py, copies and services fail in many ways; record any
            self.end("setup_error", f"setup failed: {_describe(exc)}")
            return False
        finally:
            self.outcome.times.setup = self.now()
        self.note("workspace_ready", 1, seconds=round(self.outcome.times.setup, 6))
        return True

    def guard_private(self) -> None:
        """Refuse a workspace holding a private file of the task at its root."""
        leaked = [n for n in benchlib.PRIVATE_NAMES if (self.workspace / n).exists()]
        if leaked:
            raise SetupFailed(f"private files in the workspace: {', '.join(leaked)}")

    def start_services(self, services: contextlib.ExitStack) -> None:
        """Start each fixture service and write its URL file (read-only) into the workspace."""
        for service in self.task.services:
            argv = benchlib.resolve_argv(shlex.split(service.run), self.plan.python)
            handle = services.enter_context(benchlib.start_service(argv, cwd=self.workspace))
            target = self.workspace / service.url_file
            benchlib.ensure_parent(target)
            target.parent.chmod(target.parent.stat().st_mode | 0o700)
            if target.exists():
                target.chmod(0o644)
            target.write_text(handle.url + "\n", encoding="utf-8")
            self.note("service_started", 1, name=service.name, url=handle.url)
        if self.task.services:
            benchlib.protect_inputs(self.task.layout, self.workspace)

    def converse(self) -> None:
        """Drive the stages in order until the last one is answered or the run ends."""
        stages = self.task.stages
        for number, stage in enumerate(stages, 1):
            inject_seconds = 0.0
            if number > 1:
                if stages[number - 2].compact_after and not self.compact(number - 1):
                    break
                try:
                    inject_seconds = self.inject(number)
                except SetupFailed as exc:
                    self.end("setup_error", str(exc))
                    break
            self.note("user_message", number, stage_id=stage.id, text=stage.message)
            result = self.act("message", number, stage.message)
            self.outcome.stages.append(
                StageRecord(number, stage.id, stage.compact_after, inject_seconds, result)
            )
            if not self.finished(result):
                break
        reached = len(self.outcome.stages)
        for number, stage in enumerate(stages[reached:], reached + 1):
            self.outcome.stages.append(StageRecord(number, stage.id, stage.compact_after, 0, None))

    def finished(self, result: ActionResult) -> bool:
        """Whether the turn finished; otherwise end the run with the reason."""
        if result.outcome == "timeout":
            self.end("timeout", f"timed out during {result.action} at stage {result.stage}")
        elif result.outcome == "crash":
            self.end("adapter_crash", f"stage {result.stage} {result.action}: {result.detail}")
        return result.outcome == "idle"

    def inject(self, number: int) -> float:
        """Add stage ``number``'s files to the workspace; return the seconds it took."""
        started = time.monotonic()
        try:
            self.source.inject(self.workspace, number)
        except Exception as exc:  # the same open set of failures as setup
            raise SetupFailed(f"stage {number} injection failed: {_describe(exc)}") from exc
        seconds = time.monotonic() - started
        self.outcome.times.inject += seconds
        self.note("stage_injected", number, seconds=round(seconds, 6))
        return seconds

    def compact(self, after: int) -> bool:
        """Request one compaction after stage ``after``; False when the run must end."""
        self.note("compaction_requested", after)
        result = self.act("compact", after, None)
        reported = [r.event for r in result.events if r.event["type"] == "compaction"]
        status, detail = _compaction_status(result, reported)
        number = len(self.outcome.compactions) + 1
        self.outcome.compactions.append(
            CompactionRecord(
                number, after, "requested", status, result.started, result.seconds, detail
            )
        )
        self.note("compaction_" + status, after, detail=detail)
        return self.finished(result)

    def act(self, action: str, stage: int, message: str | None) -> ActionResult:
        """Run one adapter action and absorb its events into the timeline."""
        self.action_no += 1
        files = self.action_files(action, stage)
        if message is not None and files.message is not None:
            files.message.write_text(message, encoding="utf-8")
        budget = remaining(self.plan.timeout_seconds, self.outcome.times.agent)
        env = self.action_env(action, stage, files, budget)
        result = run_action(self.adapter, env, files, origin=self.origin)
        self.outcome.times.agent += result.seconds
        self.absorb(result)
        return result

    def action_files(self, action: str, stage: int) -> ActionFiles:
        """The files of the next action, in the private io folder."""
        stem = self.io / f"{self.action_no:02d}-{action}-s{stage}"
        message = Path(f"{stem}.message.txt") if action == "message" else None
        return ActionFiles(
            message, Path(f"{stem}.jsonl"), Path(f"{stem}.stdout"), Path(f"{stem}.stderr")
        )

    def action_env(self, action: str, stage: int, files: ActionFiles, budget: float) -> ActionEnv:
        """What the adapter is told about the action."""
        reference = self.task.task_dir / "reference"
        return ActionEnv(
            action=action,
            stage=stage,
            stage_id=self.task.stages[stage - 1].id,
            stages=len(self.task.stages),
            workspace=self.workspace,
            events=files.events,
            state_dir=self.state,
            editable=self.task.editable,
            timeout=budget,
            message_file=files.message,
            reference=reference if self.adapter.kind == "replay" else None,
        )

    def absorb(self, result: ActionResult) -> None:
        """Add an action's events and problems to the run."""
        timeline = self.outcome.timeline
        for received in result.events:
            timeline.append(
                Entry(
                    len(timeline) + 1, received.t, result.stage, result.action,
                    self.action_no, "adapter", received.event,
                )
            )  # fmt: skip
            if received.event["type"] == "compaction" and result.action == "message":
                self.natural_compaction(result.stage, received.event)
        self.outcome.diagnostics.extend(
            DiagnosticEntry(
                result.stage, result.action, self.action_no, p.line, p.code, p.message, p.text
            )
            for p in result.problems
        )

    def natural_compaction(self, stage: int, event: dict[str, Any]) -> None:
        """Record a compaction the agent performed on its own during a stage."""
        number = len(self.outcome.compactions) + 1
        detail = str(event.get("detail", ""))
        self.outcome.compactions.append(
            CompactionRecord(number, stage, "natural", event["status"], None, None, detail)
        )

    def stop_agent(self) -> None:
        """Mark the agent stopped: every action's process group was killed when it ended."""
        reached = [s.number for s in self.outcome.stages if s.result is not None]
        self.note("agent_stopped", reached[-1] if reached else 1)

    def judge(self) -> None:
        """Judge the final workspace (after the agent stopped and services went down)."""
        last = len(self.task.stages)
        self.note("judge_started", last)
        call = JudgeCall(
            self.task.task_dir, self.task.judge_command, self.plan.python,
            self.plan.judge_timeout, self.plan.judge_cache, unsealed=not self.plan.sealed,
        )  # fmt: skip
        verdict = run_judge(call, self.workspace, output=self.plan.run_dir / "judge.stdout")
        self.outcome.verdict = verdict
        self.outcome.times.judge = verdict.seconds
        self.note("judge_finished", last, status=verdict.status, level=verdict.progress_level)

    def record(self) -> None:
        """Write the artifacts: action files, events, transcript, archive, run.json."""
        started = time.monotonic()
        run_dir = self.plan.run_dir
        run_dir.mkdir(parents=True, exist_ok=True)
        if self.io.is_dir():
            _copy_regular_files(self.io, run_dir / "actions")
        self.archive(run_dir)
        self.outcome.artifacts.update(artifacts.write_artifacts(self.outcome, run_dir))
        self.outcome.times.record = time.monotonic() - started
        artifacts.write_record(self.outcome, run_dir)

    def archive(self, run_dir: Path) -> None:
        """Archive the final workspace as the plan asks."""
        if self.plan.archive == "none" or not self.workspace.is_dir():
            return
        paths = self.task.editable if self.plan.archive == "editable" else None
        skipped = write_archive(self.workspace, run_dir / "workspace.tar.gz", paths)
        self.outcome.artifacts["workspace"] = "workspace.tar.gz"
        for rel in skipped:
            self.outcome.diagnostics.append(
                DiagnosticEntry(0, "runner", 0, 0, "archive", f"unreadable, not archived: {rel}")
            )


def _copy_regular_files(src: Path, dest: Path) -> None:
    """Copy the regular files directly in ``src`` (an adapter could leave a FIFO there)."""
    dest.mkdir(parents=True, exist_ok=True)
    for path in sorted(src.iterdir()):
        if stat.S_ISREG(path.lstat().st_mode):
            shutil.copyfile(path, dest / path.name)


def _compaction_status(result: ActionResult, reported: list[dict[str, Any]]) -> tuple[str, str]:
    """Completed only when the adapter reported a completed compaction and went idle."""
    if result.outcome != "idle":
        return "failed", result.detail
    if not reported:
        return "failed", "the adapter reported no compaction event"
    last = reported[-1]
    return last["status"], str(last.get("detail", ""))


def _describe(exc: BaseException) -> str:
    if isinstance(exc, SetupFailed | RuntimeError | OSError):
        return f"{type(exc).__name__}: {exc}"[:2000]
    tail = "".join(traceback.format_exception(exc)[-3:])
    return tail[-2000:]
