"""Benchmark: build time per task, excluding the one batched ruff call per build.

Target (issue 2): <= 50 ms per task. Prints the median over several runs of a 30-task
synthetic corpus built from the examples, split into load + render + compare (per task)
and the single ruff format call (per build).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path
from unittest import mock

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import median_seconds, synthetic_corpus
from sdk import build as build_module
from sdk.render import format as format_module


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--tasks", type=int, default=30)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        tasks = synthetic_corpus(Path(tmp), args.tasks)
        build_module.build(tasks)  # first build writes everything
        ruff_times: list[float] = []
        real_format = format_module.format_sources

        def timed_format(sources: dict[str, str]) -> dict[str, str]:
            import time

            start = time.perf_counter()
            result = real_format(sources)
            ruff_times.append(time.perf_counter() - start)
            return result

        with mock.patch.object(build_module, "format_sources", timed_format):
            total, samples = median_seconds(
                lambda: build_module.build(tasks, check=True), args.runs
            )
        ruff = sorted(ruff_times)[len(ruff_times) // 2]
        per_task = (total - ruff) / len(tasks)
        print(f"tasks={len(tasks)} runs={args.runs}")
        print(f"build --check, whole corpus: median {total * 1000:.0f} ms")
        print(f"  one batched ruff call:    median {ruff * 1000:.0f} ms")
        print(f"  per task excluding ruff:  {per_task * 1000:.1f} ms (target <= 50 ms)")
        print("samples (ms): " + ", ".join(f"{s * 1000:.0f}" for s in samples))


if __name__ == "__main__":
    main()
