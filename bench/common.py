"""Shared helpers of the benchmarks: timing medians and a synthetic 30-task corpus."""

from __future__ import annotations

import re
import shutil
import statistics
import time
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
EXAMPLES = REPO / "examples"


def median_seconds(action: Callable[[], object], runs: int) -> tuple[float, list[float]]:
    """Run ``action`` ``runs`` times; return the median and every sample (seconds)."""
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        action()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples), samples


def synthetic_corpus(root: Path, count: int = 30) -> list[Path]:
    """Copy the example tasks into ``root`` as ``count`` tasks with distinct ids and slugs."""
    sources = sorted(p for p in EXAMPLES.iterdir() if (p / "task.toml").is_file())
    tasks = []
    for number in range(1, count + 1):
        source = sources[number % len(sources)]
        slug = f"{source.name[3:]}-{number}"
        dest = root / f"{number:02d}-{slug}"
        shutil.copytree(source, dest)
        text = (dest / "task.toml").read_text(encoding="utf-8")
        text = re.sub(r"^id = \d+$", f"id = {number}", text, count=1, flags=re.MULTILINE)
        text = re.sub(r'^slug = ".*"$', f'slug = "{slug}"', text, count=1, flags=re.MULTILINE)
        (dest / "task.toml").write_text(text, encoding="utf-8")
        tasks.append(dest)
    return tasks
