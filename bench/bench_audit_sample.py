"""Benchmark: a sampled `benchsmith audit` of a corpus task against the full audit.

First a profile of one task (default: tasks/13-incident-timeline, 118 mutants): where a
mutant's time goes -- the task's set-up (fixtures materialized once), one judge run (a fresh
process that runs the commands on both fixtures, then the checks), and one run of the
commands per fixture (what classifying a mutant costs before the judge).

Then ``--runs`` strict audits with ``--sample N`` (default 60, the command's default) and
prints their median wall time, and -- unless ``--full-runs 0`` -- the same for the full
audit, the old behaviour (every mutant). Without full runs, the full audit is estimated from
the sampled runs: each operator's mean mutant time times its number of mutants, over the
workers, plus the measured set-up. Every sampled run must draw the same mutants.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import REPO
from benchsmith.auditing import AuditOptions, AuditReport, audit_tasks
from benchsmith.auditing.classify import run_fixture
from benchsmith.auditing.embedded import read_task_data
from benchsmith.auditing.runner import _context, _prepare
from benchsmith.judging import run_judge
from benchsmith.pythons import default_python
from benchsmith.runtime import benchlib

TASK = REPO / "tasks" / "13-incident-timeline"


def profile(task: Path, python: str) -> float:
    """Print where one mutant's time goes; return the set-up seconds."""
    started = time.monotonic()
    spec = _prepare(task)
    data = read_task_data(spec.task_dir / "judge.py")
    tmp = Path(tempfile.mkdtemp(prefix="bench-audit-"))
    try:
        context = _context(spec, data, python, tmp)
        setup = time.monotonic() - started
        print(f"set-up (fixtures materialized, reference laid out): {setup:6.2f} s")
        judge = []
        for _ in range(2):
            begun = time.monotonic()
            verdict = run_judge(context.judge, context.tree)
            judge.append(time.monotonic() - begun)
        level = verdict.progress_level
        print(f"judge run (level {level}), median of 2:  {statistics.median(judge):6.2f} s")
        for fixture in ("main", "edge"):
            seconds = [
                run_fixture(context, context.tree, fixture, tmp / "run")[1] for _ in range(2)
            ]
            print(f"commands on {fixture:4}, median of 2:     {statistics.median(seconds):6.2f} s")
    finally:
        benchlib.remove_path(tmp)
    return setup


def audit(task: Path, python: str, jobs: int, sample: int | None, seed: int) -> AuditReport:
    """One strict audit (the load-bearing expectations included)."""
    options = AuditOptions(python=python, jobs=jobs, strict=True, sample=sample, seed=seed)
    return audit_tasks([task], options)


def estimate_full(report: AuditReport, jobs: int) -> float:
    """The full audit's wall time, extrapolated per operator from a sampled run."""
    [task] = report.tasks
    assert task.sample is not None
    seconds: dict[str, list[float]] = defaultdict(list)
    for result in task.mutants:
        seconds[result.mutant.operator].append(result.seconds)
    work = sum(statistics.mean(seconds[op]) * total for op, _, total in task.sample.operators)
    sampled_work = sum(r.seconds for r in task.mutants)
    return task.seconds - sampled_work / jobs + work / jobs


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark; exit 1 when a run fails the audit or two samples differ."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("task", nargs="?", type=Path, default=TASK, help="task folder")
    parser.add_argument("--runs", type=int, default=3, help="sampled runs (default 3)")
    parser.add_argument("--full-runs", type=int, default=0, help="full runs (default 0)")
    parser.add_argument("--sample", type=int, default=60, help="sample size (default 60)")
    parser.add_argument("--seed", type=int, default=0, help="sample seed (default 0)")
    parser.add_argument("-j", "--jobs", type=int, default=2, help="worker processes (default 2)")
    args = parser.parse_args(argv)
    python = default_python()
    print(f"python: {python}\ntask: {args.task}")
    profile(args.task, python)
    failures = 0
    sampled: list[float] = []
    estimates: list[float] = []
    draws = set()
    for run in range(1, args.runs + 1):
        report = audit(args.task, python, args.jobs, args.sample, args.seed)
        [task] = report.tasks
        sampled.append(report.seconds)
        estimates.append(estimate_full(report, args.jobs))
        draws.add(tuple(r.mutant.id for r in task.mutants))
        failures += 0 if report.ok else 1
        state = "passed" if report.ok else "AUDIT FAILED"
        print(f"sampled run {run}: {report.seconds:7.2f} s  {task.counts()}  {state}", flush=True)
    full: list[float] = []
    for run in range(1, args.full_runs + 1):
        report = audit(args.task, python, args.jobs, None, args.seed)
        full.append(report.seconds)
        failures += 0 if report.ok else 1
        state = "passed" if report.ok else "AUDIT FAILED"
        print(f"full run {run}:    {report.seconds:7.2f} s  {report.tasks[0].counts()}  {state}")
    assert task.sample is not None
    ran, skipped = len(task.sample.chosen), len(task.sample.skipped)
    print(f"\nsample: {ran} of {ran + skipped} mutants (seed {args.seed}), -j {args.jobs}")
    print(f"same mutants in every sampled run: {len(draws) == 1}")
    median = statistics.median(sampled)
    print(f"sampled audit, median of {len(sampled)}: {median:8.2f} s")
    if full:
        print(f"full audit, median of {len(full)}:    {statistics.median(full):8.2f} s")
        print(f"speed-up: {statistics.median(full) / median:.1f}x")
    else:
        guess = statistics.median(estimates)
        print(f"full audit, estimated from the sample: {guess:8.2f} s ({guess / median:.1f}x)")
    return 0 if failures == 0 and len(draws) == 1 else 1


if __name__ == "__main__":
    sys.exit(main())
