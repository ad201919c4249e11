# generated from task.toml by benchsmith -- do not edit
"""Write the fixture of task 3: Mailbox Thread Cleanup.

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
    "stages": ["initial", "archive"],
    "files": [
        {
            "path": "inputs/current.mbox",
            "format": None,
            "compressed": False,
            "rows": None,
            "header": [],
            "columns": [],
            "records": [],
            "anchors": [],
            "sort_by": [],
            "wrap": None,
            "generator": "mailbox_current",
            "stage": "initial",
            "writes": ["inputs/current.mbox"],
        },
        {
            "path": "inputs/archive.mbox",
            "format": None,
            "compressed": False,
            "rows": None,
            "header": [],
            "columns": [],
            "records": [],
            "anchors": [],
            "sort_by": [],
            "wrap": None,
            "generator": "mailbox_archive",
            "stage": "archive",
            "writes": ["inputs/archive.mbox"],
        },
    ],
    "edge_files": [
        {
            "path": "inputs/current.mbox",
            "format": None,
            "compressed": False,
            "rows": None,
            "header": [],
            "columns": [],
            "records": [],
            "anchors": [],
            "sort_by": [],
            "wrap": None,
            "generator": "mailbox_edge",
            "stage": "initial",
            "writes": ["inputs/current.mbox", "inputs/archive.mbox"],
        }
    ],
    "anchors": {},
}

if __name__ == "__main__":
    sys.exit(benchlib.seed_main(TASK, HERE))
