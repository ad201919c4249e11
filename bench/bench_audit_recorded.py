"""Benchmark: CI's corpus audit from the recorded full audits, against the old sample.

``make audit`` audits the corpus with ``--recorded --sample 3``: each task's fates come from
its audit.lock and 3 recorded mutants per task run again. Until the records, it ran
``--sample 10``: every authored mutant and 10 generated ones per task, stratified by
operator. This runs both commands as CI does (strict, ``-j 2``), alternating, ``--runs``
times each, and prints the median wall and CPU seconds (of the command and its children)
and their ratio. Every run must pass; one that does not makes the script exit 1.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import REPO
from benchsmith.pythons import default_python

BENCHSMITH = REPO / ".venv" / "bin" / "benchsmith"
MODES = {
    "sampled (old CI)": ("--sample", "10"),
    "recorded (CI now)": ("--recorded", "--sample", "3"),
}


def timed(argv: list[str]) -> tuple[float, float, int]:
    """Wall seconds, CPU seconds (the command and every child) and exit status of ``argv``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.monotonic()
    done = subprocess.run(argv, cwd=REPO, capture_output=True, check=False)
    wall = time.monotonic() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if done.returncode:
        sys.stderr.write(done.stdout.decode(errors="replace")[-2000:])
    return wall, cpu, done.returncode


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark; exit 1 when an audit fails."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="runs of each mode (default 3)")
    parser.add_argument("tasks", nargs="*", help="tasks to audit (default: --all)")
    args = parser.parse_args(argv)
    chosen = args.tasks or ["--all"]
    base = [str(BENCHSMITH), "audit", *chosen, "--strict", "-j", "2"]
    base += ["--python", default_python()]
    samples: dict[str, list[tuple[float, float]]] = {mode: [] for mode in MODES}
    failed = 0
    for run in range(1, args.runs + 1):
        for mode, extra in MODES.items():
            wall, cpu, code = timed([*base, *extra])
            failed += code != 0
            samples[mode].append((wall, cpu))
            state = "passed" if code == 0 else f"FAILED (exit {code})"
            print(f"run {run} {mode:18}: {wall:7.1f} s wall {cpu:7.1f} s CPU  {state}", flush=True)
    medians = {
        mode: (statistics.median(w for w, _ in s), statistics.median(c for _, c in s))
        for mode, s in samples.items()
    }
    print()
    for mode, (wall, cpu) in medians.items():
        print(f"{mode:18}: median {wall:7.1f} s wall {cpu:7.1f} s CPU")
    (old_wall, old_cpu), (new_wall, new_cpu) = medians.values()
    print(f"ratio recorded/sampled: wall {new_wall / old_wall:.2f}, CPU {new_cpu / old_cpu:.2f}")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
