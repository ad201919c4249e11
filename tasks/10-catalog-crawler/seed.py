# generated from task.toml by benchsmith -- do not edit
"""Write the fixture of task 10: Local Supplier Catalog Crawler.

Usage: python seed.py --out DIR [--fixture main|edge] [--stage N|final] [--only]

Every filler stream is random.Random(f"{SEED}/{path}") with SEED = 20260831 + 10;
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
    "id": 10,
    "seed": 20260841,
    "stages": ["initial"],
    "files": [
        {
            "path": "inputs/catalog_site.json",
            "format": None,
            "compressed": False,
            "rows": None,
            "header": [],
            "columns": [],
            "records": [],
            "anchors": [],
            "sort_by": [],
            "wrap": None,
            "generator": "catalog_site",
            "stage": "initial",
            "writes": ["inputs/catalog_site.json"],
        }
    ],
    "edge_files": [
        {
            "path": "inputs/catalog_site.json",
            "format": None,
            "compressed": False,
            "rows": None,
            "header": [],
            "columns": [],
            "records": [],
            "anchors": [],
            "sort_by": [],
            "wrap": None,
            "generator": "edge_catalog",
            "stage": "initial",
            "writes": ["inputs/catalog_site.json"],
        }
    ],
    "anchors": {},
}

if __name__ == "__main__":
    sys.exit(benchlib.seed_main(TASK, HERE))
