# generated from task.toml by benchsmith -- do not edit
"""Write the fixture of task 1: Grade Book Summary.

Usage: python seed.py --out DIR [--fixture main|edge] [--stage N|final] [--only]

Every filler stream is random.Random(f"{SEED}/{path}") with SEED = 20260831 + 1;
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
    "id": 1,
    "seed": 20260832,
    "stages": ["initial"],
    "files": [
        {
            "path": "inputs/scores.csv",
            "format": "csv",
            "compressed": False,
            "rows": 120,
            "header": ["student_id", "course", "score"],
            "columns": [
                {
                    "name": "student_id",
                    "kind": "choice",
                    "choice": [
                        "S01",
                        "S02",
                        "S03",
                        "S04",
                        "S05",
                        "S06",
                        "S07",
                        "S08",
                        "S09",
                        "S10",
                    ],
                },
                {
                    "name": "course",
                    "kind": "choice",
                    "choice": ["Biology", "Chemistry", "History", "Physics"],
                },
                {"name": "score", "kind": "int", "int": [0, 99], "null_rate": 0.08},
            ],
            "records": [],
            "anchors": [
                {
                    "name": "half-up",
                    "at": None,
                    "records": [
                        {"student_id": "S11", "course": "History", "score": 70},
                        {"student_id": "S11", "course": "History", "score": 70},
                        {"student_id": "S11", "course": "Physics", "score": 70},
                        {"student_id": "S11", "course": "Physics", "score": 71},
                    ],
                },
                {
                    "name": "top-tie",
                    "at": None,
                    "records": [
                        {"student_id": "S07", "course": "Chemistry", "score": 100},
                        {"student_id": "S03", "course": "Chemistry", "score": 100},
                    ],
                },
                {
                    "name": "zero-top",
                    "at": None,
                    "records": [{"student_id": "S12", "course": "Latin", "score": 0}],
                },
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
            "path": "inputs/scores.csv",
            "format": "csv",
            "compressed": False,
            "rows": None,
            "header": ["student_id", "course", "score"],
            "columns": [],
            "records": [
                {"student_id": "E1", "course": "Biology", "score": 90},
                {"student_id": "E2", "course": "Biology", "score": ""},
                {"student_id": "E2", "course": "History", "score": ""},
            ],
            "anchors": [],
            "sort_by": [],
            "wrap": None,
            "generator": None,
            "stage": "initial",
            "writes": [],
        }
    ],
    "anchors": {
        "half-up": [
            {"student_id": "S11", "course": "History", "score": 70},
            {"student_id": "S11", "course": "History", "score": 70},
            {"student_id": "S11", "course": "Physics", "score": 70},
            {"student_id": "S11", "course": "Physics", "score": 71},
        ],
        "top-tie": [
            {"student_id": "S07", "course": "Chemistry", "score": 100},
            {"student_id": "S03", "course": "Chemistry", "score": 100},
        ],
        "zero-top": [{"student_id": "S12", "course": "Latin", "score": 0}],
    },
}

if __name__ == "__main__":
    sys.exit(benchlib.seed_main(TASK, HERE))
