"""Benchmark: build time per task, excluding the one batched ruff call per build.

Target (issue 2): <= 50 ms per task. A 30-task synthetic corpus built from the examples is
built cold (every generated file and lock removed, so everything is rendered and formatted)
and checked warm (up to date: the lock proves formatted files current without ruff).
Medians over several runs; the ruff call is timed on its own and subtracted.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from unittest import mock

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import median_seconds, synthetic_corpus
from benchsmith import api
from benchsmith import building as build_module
from benchsmith.generate import format as format_module

GENERATED = ("seed.py", "TASK.md", "scenario.json", "benchsmith.lock")


def timed_formatter(times: list[float]) -> Callable[[dict[str, str]], dict[str, str]]:
    real = format_module.format_sources

    def format_sources(sources: dict[str, str]) -> dict[str, str]:
        start = time.perf_counter()
        try:
            return real(sources)
        finally:
            times.append(time.perf_counter() - start)

    return format_sources


def cold(tasks: list[Path]) -> None:
    for task in tasks:
        for name in GENERATED:
            (task / name).unlink(missing_ok=True)
    build_module.build(tasks)


def report(label: str, totals: list[float], ruff: list[float], count: int) -> None:
    total, formatting = statistics.median(totals), statistics.median(ruff) if ruff else 0.0
    print(f"{label}: median {total * 1000:.0f} ms for {count} tasks")
    print(f"  one batched ruff call: median {formatting * 1000:.0f} ms")
    print(
        f"  per task excluding ruff: {(total - formatting) / count * 1000:.1f} ms (target <= 50 ms)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--tasks", type=int, default=30)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        tasks = synthetic_corpus(Path(tmp), args.tasks)
        build_module.build(tasks, force=True)
        cold_ruff: list[float] = []
        with mock.patch.object(build_module, "format_sources", timed_formatter(cold_ruff)):
            _, cold_totals = median_seconds(lambda: cold(tasks), args.runs)
        api.lock(tasks)  # the cold builds removed the fixture locks build --check requires
        warm_ruff: list[float] = []
        with mock.patch.object(build_module, "format_sources", timed_formatter(warm_ruff)):
            _, warm_totals = median_seconds(
                lambda: build_module.build(tasks, check=True), args.runs
            )
    print(f"runs={args.runs}")
    report("cold build (render + format everything)", cold_totals, cold_ruff, len(tasks))
    report("build --check, up to date", warm_totals, warm_ruff, len(tasks))


if __name__ == "__main__":
    main()
