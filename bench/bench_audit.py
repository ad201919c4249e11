"""Benchmark: `benchsmith audit` on a small task.

Audits example 01 (grade summary: 37 mutants, 8 expected values) with -j 2 several times and
prints the median wall time (target: <= 60 s on a 2-core machine), the mutants per second and
where a typical mutant's time goes (its own two fixture runs, then a judge run unless it is
equivalent). Every run must pass the audit; a run that does not makes the script exit 1.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import EXAMPLES
from benchsmith.auditing import AuditOptions, AuditReport, audit_tasks
from benchsmith.pythons import default_python

TASK = EXAMPLES / "01-grade-summary"
TARGET = 60.0


def audit(jobs: int, python: str) -> AuditReport:
    """One strict audit of the small task."""
    return audit_tasks([TASK], AuditOptions(python=python, jobs=jobs, strict=True))


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark; exit 1 when a run fails the audit or the median misses the target."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="runs (default 3)")
    parser.add_argument("-j", "--jobs", type=int, default=2, help="worker processes (default 2)")
    args = parser.parse_args(argv)
    python = default_python()
    seconds, failures = [], 0
    last: AuditReport | None = None
    for run in range(1, args.runs + 1):
        last = audit(args.jobs, python)
        seconds.append(last.seconds)
        failures += 0 if last.ok else 1
        state = "passed" if last.ok else "AUDIT FAILED"
        print(f"run {run} -j {args.jobs}: {last.seconds:6.2f} s  {state}", flush=True)
    assert last is not None
    [task] = last.tasks
    median = statistics.median(seconds)
    judged = [r.seconds for r in task.mutants if r.level is not None]
    unjudged = [r.seconds for r in task.mutants if r.level is None]
    print(f"\npython: {python}")
    print(
        f"{task.task}: {len(task.mutants)} mutants {task.counts()}, "
        f"{len(task.expectations)} expected values"
    )
    if judged:
        print(
            f"per mutant, median: judged {statistics.median(judged):.2f} s, "
            f"equivalent without a judge run {statistics.median(unjudged or [0.0]):.2f} s"
        )
    print(f"mutants per second: {len(task.mutants) / median:.1f}")
    print(f"audit -j {args.jobs}, median of {args.runs}: {median:.2f} s (target <= {TARGET:.0f} s)")
    return 0 if failures == 0 and median <= TARGET else 1


if __name__ == "__main__":
    sys.exit(main())
