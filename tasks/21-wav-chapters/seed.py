# generated from task.toml by benchsmith -- do not edit
"""Write the fixture of task 21: WAV Interview Cleanup and Chapters.

Usage: python seed.py --out DIR [--fixture main|edge] [--stage N|final] [--only]

Every filler stream is random.Random(f"{SEED}/{path}") with SEED = 20260831 + 21;
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
    "id": 21,
    "seed": 20260852,
    "stages": ["initial", "stereo"],
    "files": [
        {
            "path": "inputs/interview.wav",
            "format": None,
            "compressed": False,
            "rows": None,
            "header": [],
            "columns": [],
            "records": [],
            "anchors": [],
            "sort_by": [],
            "wrap": None,
            "generator": "interview",
            "stage": "initial",
            "writes": ["inputs/interview.wav", "inputs/transcript.csv"],
        },
        {
            "path": "inputs/roundtable.wav",
            "format": None,
            "compressed": False,
            "rows": None,
            "header": [],
            "columns": [],
            "records": [],
            "anchors": [],
            "sort_by": [],
            "wrap": None,
            "generator": "roundtable",
            "stage": "stereo",
            "writes": ["inputs/roundtable.wav", "inputs/roundtable_transcript.csv"],
        },
    ],
    "edge_files": [
        {
            "path": "inputs/interview.wav",
            "format": None,
            "compressed": False,
            "rows": None,
            "header": [],
            "columns": [],
            "records": [],
            "anchors": [],
            "sort_by": [],
            "wrap": None,
            "generator": "edge_recordings",
            "stage": "initial",
            "writes": [
                "inputs/interview.wav",
                "inputs/transcript.csv",
                "inputs/roundtable.wav",
                "inputs/roundtable_transcript.csv",
            ],
        }
    ],
    "anchors": {"interview-cuts": [{}], "roundtable-cuts": [{}]},
}

if __name__ == "__main__":
    sys.exit(benchlib.seed_main(TASK, HERE))
