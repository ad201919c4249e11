"""Classifying one mutant: run it, compare what it writes with the reference, judge it.

The mutant's commands run on pristine copies of the edge and then the main fixture, exactly
as the judge runs a candidate (:func:`benchlib.produce`, the task's fixture cache). Identical
outputs on both fixtures make it *equivalent* without a judge run. Otherwise the judge
scores a workspace holding the mutant: below 5 it is *killed*; at 5 it *survived*, unless its
outputs differ only in form (then it is an equivalent the judge accepts).

Everything here runs in worker processes: :class:`MutantContext` is plain, picklable data.
"""

from __future__ import annotations

import shutil
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchsmith.audit.mutants import Mutant
from benchsmith.audit.outputs import Observation, observe
from benchsmith.audit.results import MutantResult
from benchsmith.check.patches import PatchError
from benchsmith.judging import JudgeCall, run_judge
from benchsmith.runtime import benchlib

# Candidate commands run in one fixed environment, so equal programs write equal bytes.
AUDIT_ENV = {"TZ": "UTC", "LC_ALL": "C", "PYTHONHASHSEED": "0"}
FIXTURES = ("main", "edge")
# A mutant runs on the edge fixture first: it is small by design (spec section 1.3), and a
# mutant whose edge outputs already differ needs no run on the main fixture before the
# judge (task 13: 0.3 s against 8 s).
CLASSIFY_ORDER = ("edge", "main")


@dataclass(frozen=True, slots=True)
class MutantContext:
    """What every mutant of one task shares.

    Attributes:
        task_dir: The task folder.
        task: The task data judge.py embeds.
        python: Interpreter for commands and the judge.
        cache: The fixture cache (``main/`` and ``edge/`` materialized).
        tree: The reference's editable files, as a candidate workspace.
        scratch: Folder for per-mutant work.
        judge: How to judge a mutant (``--time-scale`` included).
        time_scale: Multiplies command timeouts in mutant runs.
        reference: The reference's observation per fixture.
    """

    task_dir: Path
    task: dict[str, Any]
    python: str
    cache: Path
    tree: Path
    scratch: Path
    judge: JudgeCall
    time_scale: float
    reference: dict[str, Observation]


def run_fixture(
    context: MutantContext,
    workspace: Path,
    fixture: str,
    scratch: Path,
    env: dict[str, str] | None = None,
) -> tuple[Observation, float]:
    """Run ``workspace``'s commands on ``fixture``; its observation and the seconds it took."""
    judge = benchlib.Judge(context.task, context.task_dir)
    started = time.monotonic()
    run = benchlib.produce(
        judge, workspace, fixture, tmp=scratch, python=context.python, cache=context.cache,
        time_scale=context.time_scale, env=env or AUDIT_ENV,
    )  # fmt: skip
    seconds = time.monotonic() - started
    observation = observe(run, context.task)
    benchlib.remove_path(scratch)
    return observation, seconds


def classify(context: MutantContext, mutant: Mutant) -> MutantResult:
    """Decide the fate of ``mutant`` (never raises for the mutant's own failures)."""
    started = time.monotonic()
    work = Path(tempfile.mkdtemp(prefix="mutant-", dir=context.scratch))
    try:
        tree = work / "ws"
        shutil.copytree(context.tree, tree, symlinks=True)
        try:
            mutant.install(tree)
        except PatchError as exc:
            return MutantResult(mutant, "error", reason=exc.message)
        result = _classify(context, mutant, tree, work)
    finally:
        benchlib.remove_path(work)
    return _timed(result, time.monotonic() - started)


def _timed(result: MutantResult, seconds: float) -> MutantResult:
    return MutantResult(
        result.mutant, result.fate, result.level, result.reason, result.form_only,
        result.why, seconds,
    )  # fmt: skip


def _classify(context: MutantContext, mutant: Mutant, tree: Path, work: Path) -> MutantResult:
    seen: dict[str, Observation] = {}
    for fixture in CLASSIFY_ORDER:
        seen[fixture], _ = run_fixture(context, tree, fixture, work / f"run-{fixture}")
        if seen[fixture].meaning != context.reference[fixture].meaning:
            break
    if len(seen) == len(FIXTURES) and all(
        seen[f].exact == context.reference[f].exact for f in FIXTURES
    ):
        return MutantResult(mutant, "equivalent", reason="identical outputs on main and edge")
    form_only = len(seen) == len(FIXTURES) and all(
        seen[f].meaning == context.reference[f].meaning for f in FIXTURES
    )
    return _judged(context, mutant, tree, seen, form_only)


def _judged(
    context: MutantContext,
    mutant: Mutant,
    tree: Path,
    seen: dict[str, Observation],
    form_only: bool,
) -> MutantResult:
    verdict = run_judge(context.judge, tree)
    level = verdict.progress_level
    if verdict.problems:
        problem = "; ".join(verdict.problems)
        return MutantResult(mutant, "error", None, f"the judge failed: {problem}", form_only)
    if level < 5:
        note = verdict.notes[0] if verdict.notes else ""
        return MutantResult(mutant, "killed", level, note, form_only)
    differing = [f"{f}: {', '.join(seen[f].differences(context.reference[f]))}" for f in seen]
    differing = [d for d in differing if not d.endswith(": ")]
    if form_only:
        reason = "outputs differ only in form and the judge accepts them (" + "; ".join(differing)
        return MutantResult(mutant, "equivalent", level, reason + ")", True)
    return MutantResult(mutant, "survived", level, "outputs differ: " + "; ".join(differing))
