"""Benchmark: lint time over a 30-task corpus (target <= 1 s), and over examples + tasks/."""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import EXAMPLES, REPO, median_seconds, synthetic_corpus  # noqa: E402
from sdk.build import build  # noqa: E402
from sdk.lint import lint_paths  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        tasks = synthetic_corpus(Path(tmp), 30)
        build(tasks)
        corpus, samples = median_seconds(lambda: lint_paths([Path(tmp)]), args.runs)
    real = [EXAMPLES, REPO / "tasks"]
    repo, _ = median_seconds(lambda: lint_paths(real), args.runs)
    print(f"lint, 30-task synthetic corpus: median {corpus * 1000:.0f} ms (target <= 1000 ms)")
    print("  samples (ms): " + ", ".join(f"{s * 1000:.0f}" for s in samples))
    print(f"lint, examples/ + tasks/:       median {repo * 1000:.0f} ms")


if __name__ == "__main__":
    main()
