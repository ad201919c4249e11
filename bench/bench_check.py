"""Benchmark: `benchsmith check` over the example tasks.

Runs the whole battery (every control) several times with -j 1 and with -j 2, alternating,
and prints the median battery wall time per task (target: <= 15 s on a 2-core machine) and
the parallel efficiency of -j 2 over -j 1, t1 / (2 * t2) (target: >= 85 %). Every run must
meet every expectation; a run that does not is reported and makes the script exit 1.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchsmith.check.battery import CheckOptions, check_tasks
from benchsmith.check.results import CheckReport
from benchsmith.pythons import default_python

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
TASKS = [EXAMPLES / "01-grade-summary", EXAMPLES / "02-pantry-ledger"]
TASK_TARGET = 15.0
EFFICIENCY_TARGET = 0.85


def battery(jobs: int, python: str) -> CheckReport:
    """One run of every control over the examples."""
    return check_tasks(TASKS, CheckOptions(python=python, jobs=jobs))


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark; exit 1 when a run fails an expectation or misses a target."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="runs per setting (default 3)")
    args = parser.parse_args(argv)
    python = default_python()
    totals: dict[int, list[float]] = {1: [], 2: []}
    per_task: dict[str, list[float]] = {t.name: [] for t in TASKS}
    failures = 0
    for run in range(1, args.runs + 1):
        for jobs in (1, 2):
            report = battery(jobs, python)
            totals[jobs].append(report.seconds)
            if jobs == 1:
                for task in report.tasks:
                    per_task[Path(task.task).name].append(task.seconds)
            failures += 0 if report.ok else 1
            state = "ok" if report.ok else "EXPECTATIONS FAILED"
            print(f"run {run} -j {jobs}: {report.seconds:6.2f} s  {state}", flush=True)
    return _summary(totals, per_task, failures, python)


def _summary(
    totals: dict[int, list[float]], per_task: dict[str, list[float]], failures: int, python: str
) -> int:
    print(f"\npython: {python}")
    worst = 0.0
    for name, samples in per_task.items():
        median = statistics.median(samples)
        worst = max(worst, median)
        print(f"battery per task, -j 1, median: {name:22} {median:6.2f} s")
    t1, t2 = statistics.median(totals[1]), statistics.median(totals[2])
    efficiency = t1 / (2 * t2)
    print(f"all examples: -j 1 {t1:.2f} s, -j 2 {t2:.2f} s (medians)")
    print(
        f"parallel efficiency t1 / (2 * t2): {efficiency:.0%} (target >= {EFFICIENCY_TARGET:.0%})"
    )
    print(f"slowest task {worst:.2f} s (target <= {TASK_TARGET:.0f} s)")
    met = failures == 0 and worst <= TASK_TARGET and efficiency >= EFFICIENCY_TARGET
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
