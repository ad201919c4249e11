"""Benchmark: the runner's own overhead per stage with the ``replay`` adapter.

Plays both example tasks (1 and 3 stages) ``--repeats`` times each, serially, and splits
every run's lifecycle into what the agent did (the adapter actions: process start, reference
copy, events) and what the runner added:

* setup     -- workspace materialization (seed.py, visible/, read-only inputs);
* inject    -- stage injections (seed.py --only, stages/<id>/, re-protection);
* record    -- copying action files, events.jsonl, transcript, run.json, workspace archive;
* store     -- the runs.db transaction of the run (parent process);
* floor     -- per action, a do-nothing adapter's time: process start plus event polling,
               the least any adapter costs (reported apart, part of agent time).

Overhead per stage = (setup + inject + record + store) / stages; its share is taken of the
run's wall time without the judge (lifecycle + record + store). Medians over the runs.

Then task 13 (tasks/13-incident-timeline, the costliest seed.py) is run ``--incident-repeats``
times with the ``nop`` adapter both ways in this one process: seeded afresh for every run
(``reuse_workspaces=False``, the old path) and seeded once per invocation and copied per run
(the default). It prints the median per-repeat set-up (workspace) and per-stage injection
times side by side, the first cached run (which seeds) apart, and their ratio.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import EXAMPLES, REPO
from benchsmith.running import batch as batch_module
from benchsmith.running import records
from benchsmith.running.batch import BatchOptions, run_batch
from benchsmith.running.data import RunOutcome

TASKS = (EXAMPLES / "01-grade-summary", EXAMPLES / "02-pantry-ledger")
INCIDENT = REPO / "tasks" / "13-incident-timeline"
IDLE = 'command:printf \'{"type":"idle"}\\n\' >> "$BENCHSMITH_EVENTS"'


def timed_store(samples: dict[str, float]) -> Callable[[Any, RunOutcome], None]:
    """Wrap records.store_outcome to time each run's database transaction."""
    original = records.store_outcome

    def store(conn: Any, outcome: RunOutcome) -> None:
        started = time.perf_counter()
        original(conn, outcome)
        samples[outcome.run_id] = time.perf_counter() - started

    return store


def row(outcome: RunOutcome, store: float) -> dict[str, float]:
    """The figures of one run, in seconds."""
    times = outcome.times
    stages = len(outcome.plan.task.stages)
    overhead = times.setup + times.inject + times.record + store
    wall = times.lifecycle + times.record + store
    return {
        "stages": stages,
        "setup": times.setup,
        "inject_per_stage": times.inject / max(stages - 1, 1),
        "record": times.record,
        "store": store,
        "agent": times.agent,
        "judge": times.judge,
        "overhead_per_stage": overhead / stages,
        "share": overhead / wall,
    }


def median(rows: list[dict[str, float]], key: str) -> float:
    """Median of one figure."""
    return statistics.median(r[key] for r in rows)


def incident_runs(runs: Path, repeats: int, *, reuse: bool) -> list[RunOutcome]:
    """Task 13 played ``repeats`` times by ``nop``, with or without the workspace cache."""
    options = BatchOptions(
        "nop", arm="cached" if reuse else "seeded", repeat=repeats, runs_dir=runs,
        archive="none", reuse_workspaces=reuse,
    )  # fmt: skip
    outcomes = run_batch([INCIDENT], options).outcomes
    failed = [o.end_detail for o in outcomes if o.end_reason not in ("completed", "timeout")]
    if failed:
        raise SystemExit(f"task 13 runs failed: {failed[0]}")
    return sorted(outcomes, key=lambda o: o.plan.repeat)


def inject_per_stage(outcome: RunOutcome) -> float:
    """Mean injection time of the stages after the first."""
    return outcome.times.inject / max(len(outcome.plan.task.stages) - 1, 1)


def report_incident(runs: Path, repeats: int) -> None:
    """Print task 13's per-repeat set-up, seeded every run against seeded once, and the ratio."""
    seeded = incident_runs(runs, repeats, reuse=False)
    cached = incident_runs(runs, repeats, reuse=True)
    first, rest = cached[0], cached[1:] or cached
    print(f"\ntask 13 ({INCIDENT.name}) set-up per repeat, nop adapter, {repeats} repeats each:")
    header = ("", "seeded every run", "copied (repeats 2+)", "first cached run", "ratio")
    print("  ".join(f"{h:>20}" for h in header))
    for label, figure in (
        ("workspace (setup)", lambda o: o.times.setup),
        ("inject per stage", inject_per_stage),
    ):
        before = statistics.median(figure(o) for o in seeded)
        after = statistics.median(figure(o) for o in rest)
        cells = [label, f"{before:.3f} s", f"{after:.3f} s", f"{figure(first):.3f} s"]
        cells.append(f"{before / after:.0f}x" if after else "-")
        print("  ".join(f"{c:>20}" for c in cells))
    samples = ", ".join(f"{o.times.setup:.2f}" for o in seeded)
    print(f"  setup samples, seeded every run: {samples} s")
    samples = ", ".join(f"{o.times.setup:.2f}" for o in cached)
    print(f"  setup samples, cached (first seeds): {samples} s")


def main() -> int:
    """Run the benchmark and print medians."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5, help="runs per task")
    parser.add_argument(
        "--incident-repeats", type=int, default=5, help="task 13 runs per code path (0: skip)"
    )
    args = parser.parse_args()
    stored: dict[str, float] = {}
    batch_module.records.store_outcome = timed_store(stored)  # type: ignore[attr-defined]
    with tempfile.TemporaryDirectory(prefix="bench-run-") as tmp:
        runs = Path(tmp) / "runs"
        result = run_batch(list(TASKS), BatchOptions("replay", repeat=args.repeats, runs_dir=runs))
        floor = run_batch(
            [TASKS[1]], BatchOptions(IDLE, arm="idle", repeat=args.repeats, runs_dir=runs)
        )
    rows = {
        name: [row(o, stored[o.run_id]) for o in result.outcomes if o.plan.task.dirname == name]
        for name in (t.name for t in TASKS)
    }
    levels = {o.verdict.progress_level if o.verdict else None for o in result.outcomes}
    print(f"replay runs: {len(result.outcomes)} (levels {sorted(map(str, levels))})")
    header = ("task", "stages", "setup", "inject/st", "record", "store", "agent", "judge",
              "overhead/stage", "share")  # fmt: skip
    print("  ".join(f"{h:>14}" for h in header))
    for name, group in rows.items():
        keys = ("setup", "inject_per_stage", "record", "store", "agent", "judge",
                "overhead_per_stage")  # fmt: skip
        cells = [name[:14], f"{median(group, 'stages'):.0f}"]
        cells += [f"{1000 * median(group, k):.0f} ms" for k in keys]
        cells.append(f"{100 * median(group, 'share'):.0f}%")
        print("  ".join(f"{c:>14}" for c in cells))
    actions = [s.result.seconds for o in floor.outcomes for s in o.stages if s.result]
    actions += [c.seconds for o in floor.outcomes for c in o.compactions if c.seconds]
    print(f"per-action floor (idle-only shell adapter): {1000 * statistics.median(actions):.0f} ms")
    if args.incident_repeats > 0:
        with tempfile.TemporaryDirectory(prefix="bench-run-") as tmp:
            report_incident(Path(tmp) / "runs", args.incident_repeats)
    return 0


if __name__ == "__main__":
    sys.exit(main())
