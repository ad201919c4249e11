# generated from task.toml by benchsmith -- do not edit
"""Write the fixture of task 29: Legacy Budgeting CLI Repair.

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
    "stages": ["initial", "splits", "export"],
    "files": [
        {
            "path": "workspace/budget.db",
            "format": None,
            "compressed": False,
            "rows": None,
            "header": [],
            "columns": [],
            "records": [],
            "anchors": [],
            "sort_by": [],
            "wrap": None,
            "generator": "budget_database",
            "stage": "initial",
            "writes": ["workspace/budget.db"],
        },
        {
            "path": "inputs/statements",
            "format": None,
            "compressed": False,
            "rows": None,
            "header": [],
            "columns": [],
            "records": [],
            "anchors": [],
            "sort_by": [],
            "wrap": None,
            "generator": "statements",
            "stage": "initial",
            "writes": ["inputs/accounts.json", "inputs/statements"],
        },
        {
            "path": "inputs/splits.csv",
            "format": None,
            "compressed": False,
            "rows": None,
            "header": [],
            "columns": [],
            "records": [],
            "anchors": [],
            "sort_by": [],
            "wrap": None,
            "generator": "splits_csv",
            "stage": "splits",
            "writes": ["inputs/splits.csv"],
        },
    ],
    "edge_files": [
        {
            "path": "workspace/budget.db",
            "format": None,
            "compressed": False,
            "rows": None,
            "header": [],
            "columns": [],
            "records": [],
            "anchors": [],
            "sort_by": [],
            "wrap": None,
            "generator": "budget_database",
            "stage": "initial",
            "writes": ["workspace/budget.db"],
        },
        {
            "path": "inputs/statements",
            "format": None,
            "compressed": False,
            "rows": None,
            "header": [],
            "columns": [],
            "records": [],
            "anchors": [],
            "sort_by": [],
            "wrap": None,
            "generator": "statements",
            "stage": "initial",
            "writes": ["inputs/accounts.json", "inputs/statements"],
        },
        {
            "path": "inputs/splits.csv",
            "format": None,
            "compressed": False,
            "rows": None,
            "header": [],
            "columns": [],
            "records": [],
            "anchors": [],
            "sort_by": [],
            "wrap": None,
            "generator": "splits_csv",
            "stage": "initial",
            "writes": ["inputs/splits.csv"],
        },
    ],
    "anchors": {},
}

if __name__ == "__main__":
    sys.exit(benchlib.seed_main(TASK, HERE))
