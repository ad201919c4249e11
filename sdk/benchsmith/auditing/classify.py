"""Classifying one mutant: judge it once, and compare what it wrote with the reference.

The judge runs the mutant exactly as it runs any candidate (sealed, on pristine copies of
the main and edge fixtures) and keeps its runs (``--keep-runs``). Below 5 it is *killed*.
At 5 both fixtures ran, and their outputs are compared with the reference's: identical
outputs on both make it *equivalent* (no fixture tells it apart); outputs that differ only
in form (quoting, line endings, key order) make it an equivalent the judge accepts; any
other difference makes it *survived*. One run per fixture, where observing the mutant
before judging it ran the main fixture twice (task 13: 8 s a run).

Everything here runs in worker processes: :class:`MutantContext` is plain, picklable data.
"""

from __future__ import annotations

import shutil
import tempfile
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from benchsmith.auditing.mutants import Mutant
from benchsmith.auditing.outputs import Observation, observe
from benchsmith.auditing.results import MutantResult
from benchsmith.judging import JudgeCall, run_judge
from benchsmith.patches import PatchError
from benchsmith.runtime import benchlib

# Candidate commands run in one fixed environment, so equal programs write equal bytes.
AUDIT_ENV = {"TZ": "UTC", "LC_ALL": "C", "PYTHONHASHSEED": "0"}
FIXTURES = ("main", "edge")


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
    kept = work / "kept"
    call = replace(context.judge, keep_runs=kept)
    verdict = run_judge(call, tree, variables=benchlib.clean_env(AUDIT_ENV))
    level = verdict.progress_level
    if verdict.problems:
        problem = "; ".join(verdict.problems)
        return MutantResult(mutant, "error", None, f"the judge failed: {problem}")
    if level < 5:
        note = verdict.notes[0] if verdict.notes else ""
        return MutantResult(mutant, "killed", level, note)
    seen = {f: _kept(context, kept, f) for f in FIXTURES}
    if all(seen[f].exact == context.reference[f].exact for f in FIXTURES):
        return MutantResult(mutant, "equivalent", level, "identical outputs on main and edge")
    differing = [f"{f}: {', '.join(seen[f].differences(context.reference[f]))}" for f in seen]
    differing = [d for d in differing if not d.endswith(": ")]
    if all(seen[f].meaning == context.reference[f].meaning for f in FIXTURES):
        reason = "outputs differ only in form and the judge accepts them (" + "; ".join(differing)
        return MutantResult(mutant, "equivalent", level, reason + ")", True)
    return MutantResult(mutant, "survived", level, "outputs differ: " + "; ".join(differing))


def _kept(context: MutantContext, kept: Path, fixture: str) -> Observation:
    """The observation of the run the judge kept for ``fixture`` (a level-5 judging ran both)."""
    run = benchlib.load_kept_run(kept, fixture)
    if run is None:
        raise RuntimeError(f"the judge scored 5 but kept no {fixture} run")
    return observe(run, context.task)
