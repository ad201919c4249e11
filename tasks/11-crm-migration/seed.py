# generated from task.toml by benchsmith -- do not edit
"""Write the fixture of task 11: SQLite CRM Migration.

Usage: python seed.py --out DIR [--fixture main|edge] [--stage N|final] [--only]

Every filler stream is random.Random(f"{SEED}/{path}") with SEED = 20260831 + 11;
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
    "id": 11,
    "seed": 20260842,
    "stages": ["initial", "import"],
    "files": [
        {
            "path": "workspace/crm.db",
            "format": None,
            "compressed": False,
            "rows": None,
            "header": [],
            "columns": [],
            "records": [],
            "anchors": [],
            "sort_by": [],
            "wrap": None,
            "generator": "crm_database",
            "stage": "initial",
            "writes": ["workspace/crm.db"],
        },
        {
            "path": "inputs/new_contacts.csv",
            "format": None,
            "compressed": False,
            "rows": None,
            "header": [],
            "columns": [],
            "records": [],
            "anchors": [],
            "sort_by": [],
            "wrap": None,
            "generator": "new_contacts",
            "stage": "import",
            "writes": ["inputs/new_contacts.csv"],
        },
    ],
    "edge_files": [
        {
            "path": "workspace/crm.db",
            "format": None,
            "compressed": False,
            "rows": None,
            "header": [],
            "columns": [],
            "records": [],
            "anchors": [],
            "sort_by": [],
            "wrap": None,
            "generator": "crm_database",
            "stage": "initial",
            "writes": ["workspace/crm.db"],
        },
        {
            "path": "inputs/new_contacts.csv",
            "format": None,
            "compressed": False,
            "rows": None,
            "header": [],
            "columns": [],
            "records": [],
            "anchors": [],
            "sort_by": [],
            "wrap": None,
            "generator": "new_contacts",
            "stage": "initial",
            "writes": ["inputs/new_contacts.csv"],
        },
    ],
    "anchors": {},
}

if __name__ == "__main__":
    sys.exit(benchlib.seed_main(TASK, HERE))
