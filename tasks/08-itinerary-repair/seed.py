# generated from task.toml by benchsmith -- do not edit
"""Write the fixture of task 8: Travel Itinerary Repair.

Usage: python seed.py --out DIR [--fixture main|edge] [--stage N|final] [--only]

Every filler stream is random.Random(f"{SEED}/{path}") with SEED = 20260831 + 8;
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
    "id": 8,
    "seed": 20260839,
    "stages": ["initial", "rebook"],
    "files": [
        {
            "path": "inputs/itinerary.json",
            "format": None,
            "compressed": False,
            "rows": None,
            "header": [],
            "columns": [],
            "records": [],
            "anchors": [],
            "sort_by": [],
            "wrap": None,
            "generator": "trip",
            "stage": "initial",
            "writes": [
                "inputs/itinerary.json",
                "inputs/airports.csv",
                "inputs/connection_rules.json",
            ],
        },
        {
            "path": "inputs/updates.json",
            "format": None,
            "compressed": False,
            "rows": None,
            "header": [],
            "columns": [],
            "records": [],
            "anchors": [],
            "sort_by": [],
            "wrap": None,
            "generator": "changes",
            "stage": "rebook",
            "writes": ["inputs/updates.json", "inputs/alternatives.csv"],
        },
    ],
    "edge_files": [
        {
            "path": "inputs/itinerary.json",
            "format": None,
            "compressed": False,
            "rows": None,
            "header": [],
            "columns": [],
            "records": [],
            "anchors": [],
            "sort_by": [],
            "wrap": None,
            "generator": "edge_trip",
            "stage": "initial",
            "writes": [
                "inputs/itinerary.json",
                "inputs/airports.csv",
                "inputs/connection_rules.json",
                "inputs/updates.json",
                "inputs/alternatives.csv",
            ],
        }
    ],
    "anchors": {},
}

if __name__ == "__main__":
    sys.exit(benchlib.seed_main(TASK, HERE))
