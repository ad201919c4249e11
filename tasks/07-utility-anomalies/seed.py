# generated from task.toml by benchsmith -- do not edit
"""Write the fixture of task 7: Utility Consumption Anomaly Report.

Usage: python seed.py --out DIR [--fixture main|edge] [--stage N|final] [--only]

Every filler stream is random.Random(f"{SEED}/{path}") with SEED = 20260831 + 7;
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
    "id": 7,
    "seed": 20260838,
    "stages": ["initial"],
    "files": [
        {
            "path": "inputs/monthly_usage.csv",
            "format": None,
            "compressed": False,
            "rows": None,
            "header": [],
            "columns": [],
            "records": [],
            "anchors": [],
            "sort_by": [],
            "wrap": None,
            "generator": "monthly_usage",
            "stage": "initial",
            "writes": ["inputs/monthly_usage.csv"],
        }
    ],
    "edge_files": [],
    "anchors": {
        "threshold-boundary": [
            {
                "meter_id": "MTR-1207",
                "first_month": "2023-01",
                "readings": "396 403 399 405 401 397 402 398 404 400 395 401 403 399 397 402 400 404 398 398 400 402 399 401 400 500 300 401 399 400",
            }
        ],
        "half-up": [
            {
                "meter_id": "MTR-1348",
                "first_month": "2023-01",
                "readings": "161 158 163 159 162 157 160 164 159 158 160 162 159 161 160 233 161 159 162 158 160 163 157 161 160 162 159 158 161 160",
            }
        ],
        "mad-branch": [
            {
                "meter_id": "MTR-1422",
                "first_month": "2023-01",
                "readings": "140 110 170 95 100 160 120 180 90 150 200 250 130 175 105 160 95 185 120 150 100 170 140 115 165 90 155 125 180 110",
            }
        ],
        "gap-across-new-year": [
            {
                "meter_id": "MTR-1530",
                "first_month": "2023-01",
                "readings": "302 298 305 297 301 299 303 296 300 304 298 _ _ 390 301 297 303 299 300 302 298 304 296 301 299 303 297 300 302 298",
            }
        ],
        "meter-replacement": [
            {
                "meter_id": "MTR-1188",
                "first_month": "2023-01",
                "readings": "522 518 525 517 521 519 523 516 520 524 518 522 519 521 517 523 520 518",
            },
            {
                "meter_id": "MTR-1189",
                "first_month": "2024-07",
                "readings": "515 520 512 518 516 980 760 519 514 521 517 516",
            },
        ],
        "level-shift": [
            {
                "meter_id": "MTR-1735",
                "first_month": "2023-01",
                "readings": "252 248 255 247 251 249 253 246 250 254 248 252 249 251 247 253 250 248 252 249 498 503 501 497 502 499 504 496 500 503",
            }
        ],
        "net-exporter": [
            {
                "meter_id": "MTR-1804",
                "first_month": "2023-01",
                "readings": "-402 -396 -410 -399 -405 -393 -401 -408 -397 -404 -400 -395 -409 -398 -403 -406 150 -399 -402 -397 -405 -401 -396 -404 -470 -399 -403 -398 -401 -407",
            }
        ],
        "net-zero-home": [
            {
                "meter_id": "MTR-1466",
                "first_month": "2023-01",
                "readings": "-30 -12 -5 5 14 28 95 10 12 -3 7 -9 4 -6 -20 -8 0 1 9 22 60 3 -7 11 -2 6 -10 8 -4 2",
            }
        ],
        "escaped-label": [
            {
                "meter_id": "R&D<LAB>-7",
                "first_month": "2023-01",
                "readings": "805 792 811 798 803 796 809 801 794 807 799 802 806 795 810 800 797 804 793 808 801 2650 798 805 796 803 800 807 794 802",
            }
        ],
        "rounded-tie": [
            {
                "meter_id": "CMR-2002",
                "first_month": "2023-01",
                "readings": "24998 25005 24993 25007 25001 24996 25004 24992 25006 24999 25003 24995 25008 24997 25002 24994 25005 24999 25001 24996 24990 25010 25000 25005 24995 25000 37501 24998 25006 25001",
            },
            {
                "meter_id": "CMR-2001",
                "first_month": "2023-01",
                "readings": "25004 24996 25008 24993 25001 24997 25006 24999 25003 24994 25007 24998 25002 24995 25005 24991 25009 24997 25000 25003 24990 25010 25000 25005 24995 25000 37499 25002 24997 25004",
            },
        ],
    },
}

if __name__ == "__main__":
    sys.exit(benchlib.seed_main(TASK, HERE))
