# generated from task.toml by benchsmith -- do not edit
"""Write the fixture of task 29: Budget Cli Repair.

Usage: python seed.py --out DIR [--fixture main|edge] [--stage N|final] [--only]

Every filler stream is random.Random(f"{SEED}/{path}") with SEED = 20260831 + 29;
anchor records sit at fixed positions. The output is byte-identical across runs, TZ, locale,
PYTHONHASHSEED, umask and working directory.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.dont_write_bytecode = True  # keep __pycache__ out of the task and corpus folders

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

import benchlib

TASK = {
    "id": 29,
    "seed": 20260860,
    "stages": ["initial", "stage-2", "stage-3"],
    "files": [
        {
            "path": "inputs/records.csv",
            "format": "csv",
            "compressed": False,
            "rows": 40,
            "header": ["record_id", "amount"],
            "columns": [
                {"name": "record_id", "kind": "seq", "seq": "R{:04d}"},
                {"name": "amount", "kind": "decimal", "decimal": ["1.00", "99.99"]},
            ],
            "records": [],
            "anchors": [
                {
                    "name": "first-case",
                    "at": None,
                    "records": [{"record_id": "R9001", "amount": "10.00"}],
                }
            ],
            "sort_by": [],
            "wrap": None,
            "generator": None,
            "stage": "initial",
            "writes": [],
        }
    ],
    "edge_files": [
        {
            "path": "inputs/records.csv",
            "format": "csv",
            "compressed": False,
            "rows": None,
            "header": ["record_id", "amount"],
            "columns": [],
            "records": [{"record_id": "E0001", "amount": "0.00"}],
            "anchors": [],
            "sort_by": [],
            "wrap": None,
            "generator": None,
            "stage": "initial",
            "writes": [],
        }
    ],
    "anchors": {"first-case": [{"record_id": "R9001", "amount": "10.00"}]},
}

if __name__ == "__main__":
    sys.exit(benchlib.seed_main(TASK, HERE))
