# generated from task.toml by benchsmith -- do not edit
"""Write the fixture of task 3: Catalog Crawl.

Usage: python seed.py --out DIR [--fixture main|edge] [--stage N|final] [--only]

Every filler stream is random.Random(f"{SEED}/{path}") with SEED = 20260831 + 3;
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
    "id": 3,
    "seed": 20260834,
    "stages": ["initial"],
    "files": [
        {
            "path": "inputs/catalog.csv",
            "format": "csv",
            "compressed": False,
            "rows": 24,
            "header": ["page", "sku", "name", "price"],
            "columns": [
                {"name": "page", "kind": "int", "int": [1, 4]},
                {"name": "sku", "kind": "seq", "seq": "K{:04d}"},
                {
                    "name": "name",
                    "kind": "choice",
                    "choice": ["bolt", "washer", "hinge", "bracket", "spring"],
                },
                {"name": "price", "kind": "decimal", "decimal": ["0.10", "9.99"]},
            ],
            "records": [],
            "anchors": [
                {
                    "name": "last-page",
                    "at": None,
                    "records": [{"page": 5, "sku": "K9001", "name": "gasket", "price": "2.50"}],
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
            "path": "inputs/catalog.csv",
            "format": "csv",
            "compressed": False,
            "rows": None,
            "header": ["page", "sku", "name", "price"],
            "columns": [],
            "records": [
                {"page": 1, "sku": "E1", "name": "nut", "price": "0.20"},
                {"page": 2, "sku": "E2", "name": "pin", "price": "0.30"},
                {"page": 3, "sku": "E3", "name": "cap", "price": "0.40"},
            ],
            "anchors": [],
            "sort_by": [],
            "wrap": None,
            "generator": None,
            "stage": "initial",
            "writes": [],
        }
    ],
    "anchors": {"last-page": [{"page": 5, "sku": "K9001", "name": "gasket", "price": "2.50"}]},
}

if __name__ == "__main__":
    sys.exit(benchlib.seed_main(TASK, HERE))
