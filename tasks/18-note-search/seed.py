# generated from task.toml by benchsmith -- do not edit
"""Write the fixture of task 18: Research-Note Search and Deduplication.

Usage: python seed.py --out DIR [--fixture main|edge] [--stage N|final] [--only]

Every filler stream is random.Random(f"{SEED}/{path}") with SEED = 20260831 + 18;
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
    "id": 18,
    "seed": 20260849,
    "stages": ["initial", "update"],
    "files": [
        {
            "path": "inputs/notes",
            "format": None,
            "compressed": False,
            "rows": None,
            "header": [],
            "columns": [],
            "records": [],
            "anchors": [],
            "sort_by": [],
            "wrap": None,
            "generator": "notes",
            "stage": "initial",
            "writes": ["inputs/notes", "inputs/stopwords.txt"],
        },
        {
            "path": "inputs/notes-new",
            "format": None,
            "compressed": False,
            "rows": None,
            "header": [],
            "columns": [],
            "records": [],
            "anchors": [],
            "sort_by": [],
            "wrap": None,
            "generator": "updates",
            "stage": "update",
            "writes": ["inputs/notes-new", "inputs/deleted.txt"],
        },
    ],
    "edge_files": [
        {
            "path": "inputs/notes",
            "format": None,
            "compressed": False,
            "rows": None,
            "header": [],
            "columns": [],
            "records": [],
            "anchors": [],
            "sort_by": [],
            "wrap": None,
            "generator": "edge_notes",
            "stage": "initial",
            "writes": [
                "inputs/notes",
                "inputs/stopwords.txt",
                "inputs/notes-new",
                "inputs/deleted.txt",
            ],
        }
    ],
    "anchors": {
        "exact-group": [{}],
        "near-boundary": [{}],
        "near-miss": [{}],
        "token-sets": [{}],
        "chain": [{}],
    },
}

if __name__ == "__main__":
    sys.exit(benchlib.seed_main(TASK, HERE))
