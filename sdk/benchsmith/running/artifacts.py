"""A run's files: run.json (the published run record), events.jsonl and the transcript.

The parts both runners record (stages, compactions, diagnostics, verdicts, events) are
serialized by the runner core's functions (:mod:`benchsmith.runtime.run`), which the
bundle's ``run.py`` uses too, so the two kinds of record cannot drift.

``run.json`` follows ``schemas/run-record.schema.json``; each line of ``events.jsonl`` is one
timeline entry (``$defs/timelineEntry``): an adapter event or a runner lifecycle event with
its stage, action and time.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from benchsmith._version import __version__
from benchsmith.running.data import (
    Entry,
    RunOutcome,
)
from benchsmith.running.metrics import final_response_tokens, tool_totals, usage_record
from benchsmith.runtime.run import (
    TRANSCRIPTS,
    agent_settings,
    compaction_json,
    diagnostic_json,
    entry_json,
    stage_json,
    stage_records,
    verdict_json,
    write_json,
)

RECORD_SCHEMA = "benchsmith.run-record/v1"


def adapter_events(outcome: RunOutcome) -> list[dict[str, Any]]:
    """The adapter's events of a run, in order."""
    return [e.event for e in outcome.timeline if e.source == "adapter"]


def build_record(outcome: RunOutcome) -> dict[str, Any]:
    """The run record (run.json) of ``outcome``."""
    plan, task = outcome.plan, outcome.plan.task
    events = adapter_events(outcome)
    return {
        "schema": RECORD_SCHEMA,
        "run_id": plan.run_id,
        "arm": plan.arm,
        "kind": plan.kind,
        "repeat": plan.repeat,
        "task": {
            "dir": task.dirname,
            "id": task.id,
            "slug": task.slug,
            "pressure": task.pressure,
            "stages": len(task.stages),
            "digest": task.digest,
        },
        "adapter": plan.adapter,
        "python": plan.python,
        "benchsmith_version": __version__,
        "started_at": outcome.started_at,
        "timeout_seconds": plan.timeout_seconds,
        "timeout_overridden": plan.timeout_overridden,
        "sealed": plan.sealed,  # issue 9: candidates ran in the sandbox (false: --unsealed)
        "agent_binds": [b.inside for b in plan.agent_binds],
        "end_reason": outcome.end_reason,
        "end_detail": outcome.end_detail,
        "times": _times(outcome),
        "stages": [stage_json(s) for s in outcome.stages],
        "compactions": [compaction_json(c) for c in outcome.compactions],
        "usage": usage_record(events),
        "tools": dict(zip(("calls", "result_bytes"), tool_totals(events), strict=True)),
        "final_response_tokens": final_response_tokens(events),
        "settings": agent_settings(events),
        "diagnostics": [diagnostic_json(d) for d in outcome.diagnostics],
        "verdict": verdict_json(outcome.verdict),
        **stage_records(outcome, outcome.plan.task.stage_judging),
        "artifacts": dict(sorted(outcome.artifacts.items())),
    }


def _times(outcome: RunOutcome) -> dict[str, float]:
    times = outcome.times
    return {
        "setup_seconds": round(times.setup, 6),
        "agent_seconds": round(times.agent, 6),
        "inject_seconds": round(times.inject, 6),
        "lifecycle_seconds": round(times.lifecycle, 6),
        "judge_seconds": round(times.judge, 6),
        "stage_judge_seconds": round(times.stage_judge, 6),
        "record_seconds": round(times.record, 6),
    }


def write_artifacts(outcome: RunOutcome, run_dir: Path) -> dict[str, str]:
    """Write events.jsonl and transcript.md; return the artifact map (name -> relative path)."""
    lines = (json.dumps(entry_json(e), ensure_ascii=False) + "\n" for e in outcome.timeline)
    (run_dir / "events.jsonl").write_text("".join(lines), encoding="utf-8")
    (run_dir / "transcript.md").write_text(render_transcript(outcome), encoding="utf-8")
    found = {"events": "events.jsonl", "transcript": "transcript.md", "record": "run.json"}
    for name, rel in (("actions", "actions"), ("judge_stdout", "judge.stdout")):
        if (run_dir / rel).exists():
            found[name] = rel
    if any((run_dir / "actions" / TRANSCRIPTS).glob("*")):
        found["transcripts"] = f"actions/{TRANSCRIPTS}"
    if any(run_dir.glob("judge-stage*.stdout")):
        found["stage_judge_stdout"] = "judge-stage*.stdout"
    return found


def write_record(outcome: RunOutcome, run_dir: Path) -> None:
    """Write run.json atomically: a reader (or a full disk) never sees half a record."""
    write_json(run_dir / "run.json", build_record(outcome))


def render_transcript(outcome: RunOutcome) -> str:
    """The run as readable Markdown: user messages, assistant turns, tools, lifecycle."""
    plan = outcome.plan
    lines = [
        f"# {plan.run_id}",
        "",
        f"task {plan.task.dirname} · arm {plan.arm} · adapter `{plan.adapter}` · "
        f"{plan.kind} repeat {plan.repeat}",
        "",
    ]
    stage = -1
    for entry in outcome.timeline:
        if entry.stage != stage and entry.stage > 0:
            stage = entry.stage
            lines += ["", f"## Stage {stage}", ""]
        lines.append(_transcript_line(entry))
    verdict = outcome.verdict
    ended = f"ended: {outcome.end_reason}" + (
        f" ({outcome.end_detail})" if outcome.end_detail else ""
    )
    lines += ["", "---", "", ended]
    if verdict is not None:
        lines.append(f"verdict: {verdict.status}, level {verdict.progress_level}")
    return "\n".join(lines) + "\n"


def _transcript_line(entry: Entry) -> str:
    event = entry.event
    kind = event["type"]
    stamp = f"`{entry.t:8.2f}s`"
    if kind == "user_message":
        return f"{stamp} **user:** {event['text']}"
    if kind == "assistant":
        return f"{stamp} **assistant:** {event['text']}"
    if kind == "tool_call":
        return f"{stamp} tool `{event['name']}` -> {event['result_bytes']} bytes"
    if kind == "usage":
        return (
            f"{stamp} usage {event['kind']} {event['model']}: in {event['input_tokens']}, "
            f"out {event['output_tokens']}"
        )
    extra = {k: v for k, v in event.items() if k not in ("type", "text")}
    suffix = f" {json.dumps(extra, ensure_ascii=False)}" if extra else ""
    return f"{stamp} _{entry.source}: {kind}_{suffix}"
