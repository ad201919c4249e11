"""Benchmark: lint time over a 30-task corpus (target <= 1 s), and over examples + tasks/.

Each run is cold: the parse caches are cleared in-process, and the end-to-end figure runs
the CLI in a fresh process (interpreter start and imports included).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import EXAMPLES, REPO, median_seconds, synthetic_corpus
from benchsmith.building import build
from benchsmith.linting import lint_paths, purity


def cold_lint(paths: list[Path]) -> None:
    for cached in (purity._parse_source, purity._walk, purity._imports_of):
        cached.cache_clear()
    lint_paths(paths)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    cli = [str(Path(sys.executable).parent / "benchsmith"), "lint"]
    with tempfile.TemporaryDirectory() as tmp:
        corpus = Path(tmp)
        build(synthetic_corpus(corpus, 30))
        library, samples = median_seconds(lambda: cold_lint([corpus]), args.runs)
        process, _ = median_seconds(lambda: subprocess.run([*cli, tmp], check=False), args.runs)
    real = [EXAMPLES, REPO / "tasks"]
    repo, _ = median_seconds(lambda: cold_lint(real), args.runs)
    print(f"lint, 30-task corpus, library: median {library * 1000:.0f} ms (target <= 1000 ms)")
    print("  samples (ms): " + ", ".join(f"{s * 1000:.0f}" for s in samples))
    print(f"lint, 30-task corpus, CLI process: median {process * 1000:.0f} ms")
    print(f"lint, examples/ + tasks/, library: median {repo * 1000:.0f} ms")


if __name__ == "__main__":
    main()
