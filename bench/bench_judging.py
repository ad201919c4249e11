"""Benchmark: the fixed cost of one sealed judging, against a baseline checkout side by side.

A candidate whose module exits at once (``raise SystemExit(3)``) makes every command fail, so
its judging is mostly the judge's own work: preparing the run folders, the sandbox pods, the
level-1 import probes and the clean-up. ``check`` and ``audit`` judge hundreds of such
candidates (null, hostile and killed mutants), so this is what they pay per judging.

For each task, the judge.py of this checkout and of ``--baseline`` (another checkout, e.g. a
``git worktree`` of main) judge the same candidate with a warm fixture cache, alternately,
``--runs`` times each. Printed: the median wall and CPU seconds (judge plus children) of
each, and the ratio this / baseline.

``--candidate reference`` judges the task's reference solution instead: every check runs and
reads real outputs (SQLite databases included), which is what the judge's reading bounds
cost (issue 26: target <= 5 %).
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import REPO
from benchsmith.dsl.load import load_task
from benchsmith.pythons import default_python


def crash_candidate(task_dir: Path, dest: Path) -> Path:
    """A workspace whose ``python -m`` modules all exit 3 at import (editable folders made)."""
    spec = load_task(task_dir)
    for rel in spec.editable:
        (dest / rel.rstrip("/")).mkdir(parents=True, exist_ok=True)
    for command in spec.commands:
        words = command.run.split()
        if "-m" in words:
            module = words[words.index("-m") + 1].split(".")
            folder = dest.joinpath(*module[:-1])
            folder.mkdir(parents=True, exist_ok=True)
            for depth in range(1, len(module)):
                (dest.joinpath(*module[:depth]) / "__init__.py").touch()
            (folder / f"{module[-1]}.py").write_text("raise SystemExit(3)\n", encoding="utf-8")
    return dest


def reference_candidate(task_dir: Path, dest: Path) -> Path:
    """A workspace holding the task's reference solution (its editable paths)."""
    shutil.copytree(task_dir / "reference", dest)
    return dest


def judge_once(task_dir: Path, workspace: Path, cache: Path, python: str) -> tuple[float, float]:
    """Wall and CPU seconds of one judging (the judge and every process it waited for)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    argv = [python, "judge.py", "--workspace", str(workspace), "--python", python]
    argv += ["--fixture-cache", str(cache)]
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    subprocess.run(argv, cwd=task_dir, capture_output=True, check=False, env=env)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("tasks", nargs="*", default=["18", "13", "01"], help="corpus task ids")
    parser.add_argument("--baseline", type=Path, required=True, help="another checkout's root")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--candidate", choices=("crash", "reference"), default="crash")
    args = parser.parse_args()
    python = default_python()
    for ident in args.tasks:
        name = next((REPO / "tasks").glob(f"{ident.zfill(2)}-*")).name
        with tempfile.TemporaryDirectory(prefix="bench-judging-") as tmp:
            root = Path(tmp)
            if args.candidate == "crash":
                workspace = crash_candidate(REPO / "tasks" / name, root / "ws")
            else:
                workspace = reference_candidate(REPO / "tasks" / name, root / "ws")
            sides = {"this": REPO / "tasks" / name, "baseline": args.baseline / "tasks" / name}
            samples: dict[str, list[tuple[float, float]]] = {side: [] for side in sides}
            for side, task_dir in sides.items():  # warm each side's cache once
                judge_once(task_dir, workspace, root / f"cache-{side}", python)
            for _ in range(args.runs):
                for side, task_dir in sides.items():
                    cache = root / f"cache-{side}"
                    samples[side].append(judge_once(task_dir, workspace, cache, python))
            shutil.rmtree(root, ignore_errors=True)
        medians = {
            side: (statistics.median(w for w, _ in s), statistics.median(c for _, c in s))
            for side, s in samples.items()
        }
        (wall, cpu), (base_wall, base_cpu) = medians["this"], medians["baseline"]
        print(
            f"{name}: this {wall:.2f} s wall {cpu:.2f} s CPU; baseline {base_wall:.2f} s wall "
            f"{base_cpu:.2f} s CPU; ratio {wall / base_wall:.2f} wall {cpu / base_cpu:.2f} CPU "
            f"(median of {args.runs}, alternating)"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
