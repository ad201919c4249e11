# generated from task.toml by benchsmith -- do not edit
"""Write the fixture of task 26: School Meal Allergen and Stock Plan.

Usage: python seed.py --out DIR [--fixture main|edge] [--stage N|final] [--only]

Every filler stream is random.Random(f"{SEED}/{path}") with SEED = 20260831 + 26;
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
    "id": 26,
    "seed": 20260857,
    "stages": ["initial", "substitutions"],
    "files": [
        {
            "path": "inputs/recipes.json",
            "format": None,
            "compressed": False,
            "rows": None,
            "header": [],
            "columns": [],
            "records": [],
            "anchors": [],
            "sort_by": [],
            "wrap": None,
            "generator": "kitchen",
            "stage": "initial",
            "writes": [
                "inputs/ingredients.csv",
                "inputs/recipes.json",
                "inputs/menu.csv",
                "inputs/students.csv",
                "inputs/inventory.csv",
                "inputs/packs.csv",
            ],
        },
        {
            "path": "inputs/substitutions.json",
            "format": None,
            "compressed": False,
            "rows": None,
            "header": [],
            "columns": [],
            "records": [],
            "anchors": [],
            "sort_by": [],
            "wrap": None,
            "generator": "substitutions",
            "stage": "substitutions",
            "writes": ["inputs/substitutions.json"],
        },
    ],
    "edge_files": [
        {
            "path": "inputs/recipes.json",
            "format": None,
            "compressed": False,
            "rows": None,
            "header": [],
            "columns": [],
            "records": [],
            "anchors": [],
            "sort_by": [],
            "wrap": None,
            "generator": "edge_kitchen",
            "stage": "initial",
            "writes": [
                "inputs/ingredients.csv",
                "inputs/recipes.json",
                "inputs/menu.csv",
                "inputs/students.csv",
                "inputs/inventory.csv",
                "inputs/packs.csv",
                "inputs/substitutions.json",
            ],
        }
    ],
    "anchors": {
        "students": [
            {"student_id": "ST901", "grade": 3, "restrictions": "soy"},
            {"student_id": "ST902", "grade": 4, "restrictions": "Sesame "},
            {"student_id": "ST903", "grade": 2, "restrictions": "mustard"},
            {"student_id": "ST904", "grade": 5, "restrictions": "Wheat ; milk"},
        ]
    },
}

if __name__ == "__main__":
    sys.exit(benchlib.seed_main(TASK, HERE))
