"""Benchmark: exporting the whole corpus to Harbor (target <= 10 s), and its parts.

Each run exports every task of ``tasks/`` into a fresh folder, gate included (build --check,
lint, lock, reference), through the CLI in a fresh process (interpreter start and imports
included) and through the library. The stage files are seed.py runs; the stage-1 workspace
is not materialized here (the image's build stage does it), which is what keeps task 13's
68 MB of logs out of the export. Medians of several runs.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import REPO, median_seconds
from benchsmith.corpus import corpus_root_tasks
from benchsmith.dsl.load import load_task
from benchsmith.export import export_harbor
from benchsmith.export.harbor import gate, stage_files
from benchsmith.pythons import default_python


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    tasks = corpus_root_tasks(REPO / "tasks")
    specs = [load_task(t) for t in tasks]
    python = default_python()
    cli = [str(Path(sys.executable).parent / "benchsmith"), "export", "harbor", "--all"]
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp)
        process, samples = median_seconds(
            lambda: subprocess.run(
                [*cli, "--out", str(out / "cli")], cwd=REPO, check=True, capture_output=True
            ),
            args.runs,
        )
        library, _ = median_seconds(lambda: export_harbor(tasks, out / "lib"), args.runs)
    gated, _ = median_seconds(lambda: gate(specs), args.runs)
    seeded, _ = median_seconds(lambda: stage_files(specs, python), args.runs)
    shown = ", ".join(f"{s:.2f}" for s in samples)
    print(f"runs={args.runs}, {len(tasks)} corpus tasks")
    print(f"export harbor --all, CLI process: median {process:.2f} s ({shown}) (target <= 10 s)")
    print(f"  library export_harbor: median {library:.2f} s")
    print(f"  of which the gate (build --check, lint, lock): median {gated:.2f} s")
    print(f"  of which the stage files (seed.py --only): median {seeded:.2f} s")


if __name__ == "__main__":
    main()
