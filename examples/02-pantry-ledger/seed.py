# generated from task.toml by benchsmith -- do not edit
"""Write the fixture of task 2: Pantry Stock Ledger.

Usage: python seed.py --out DIR [--fixture main|edge] [--stage N|final] [--only]

Every filler stream is random.Random(f"{SEED}/{path}") with SEED = 20260831 + 2;
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
    "id": 2,
    "seed": 20260833,
    "stages": ["initial", "returns", "reorder"],
    "files": [
        {
            "path": "inputs/movements.csv",
            "format": "csv",
            "compressed": False,
            "rows": 150,
            "header": ["date", "item", "qty"],
            "columns": [
                {"name": "date", "kind": "date", "date": ["2025-03-01", "2025-03-31"]},
                {
                    "name": "item",
                    "kind": "choice",
                    "choice": [
                        "Beans",
                        "Flour",
                        "Lentils",
                        "Oats",
                        "Pasta",
                        "Rice",
                        "Sugar",
                        "Tea",
                    ],
                },
                {"name": "qty", "kind": "int", "int": [-6, 12]},
            ],
            "records": [],
            "anchors": [
                {
                    "name": "honey",
                    "at": None,
                    "records": [{"date": "2025-03-15", "item": "Honey", "qty": 3}],
                },
                {
                    "name": "at-threshold",
                    "at": None,
                    "records": [{"date": "2025-03-20", "item": "Salt", "qty": 5}],
                },
            ],
            "sort_by": ["date"],
            "wrap": None,
            "generator": None,
            "stage": "initial",
            "writes": [],
        },
        {
            "path": "inputs/returns.csv",
            "format": "csv",
            "compressed": False,
            "rows": 12,
            "header": ["date", "item", "qty"],
            "columns": [
                {"name": "date", "kind": "date", "date": ["2025-04-01", "2025-04-07"]},
                {"name": "item", "kind": "choice", "choice": ["Beans", "Flour", "Oats", "Rice"]},
                {"name": "qty", "kind": "int", "int": [1, 4]},
            ],
            "records": [],
            "anchors": [
                {
                    "name": "unknown-return",
                    "at": None,
                    "records": [
                        {"date": "2025-04-03", "item": "Saffron", "qty": 2},
                        {"date": "2025-04-06", "item": "Anise", "qty": 1},
                    ],
                }
            ],
            "sort_by": ["date"],
            "wrap": None,
            "generator": None,
            "stage": "returns",
            "writes": [],
        },
    ],
    "edge_files": [
        {
            "path": "inputs/movements.csv",
            "format": "csv",
            "compressed": False,
            "rows": None,
            "header": ["date", "item", "qty"],
            "columns": [],
            "records": [
                {"date": "2025-03-01", "item": "Tea", "qty": 5},
                {"date": "2025-03-02", "item": "Tea", "qty": -5},
                {"date": "2025-03-02", "item": "Rice", "qty": 4},
            ],
            "anchors": [],
            "sort_by": [],
            "wrap": None,
            "generator": None,
            "stage": "initial",
            "writes": [],
        },
        {
            "path": "inputs/returns.csv",
            "format": "csv",
            "compressed": False,
            "rows": None,
            "header": ["date", "item", "qty"],
            "columns": [],
            "records": [{"date": "2025-04-01", "item": "Rice", "qty": 1}],
            "anchors": [],
            "sort_by": [],
            "wrap": None,
            "generator": None,
            "stage": "initial",
            "writes": [],
        },
    ],
    "anchors": {
        "unknown-return": [
            {"date": "2025-04-03", "item": "Saffron", "qty": 2},
            {"date": "2025-04-06", "item": "Anise", "qty": 1},
        ],
        "honey": [{"date": "2025-03-15", "item": "Honey", "qty": 3}],
        "at-threshold": [{"date": "2025-03-20", "item": "Salt", "qty": 5}],
    },
}

if __name__ == "__main__":
    sys.exit(benchlib.seed_main(TASK, HERE))
