# generated from task.toml by benchsmith -- do not edit
"""Write the fixture of task 15: Backup Restore Planner.

Usage: python seed.py --out DIR [--fixture main|edge] [--stage N|final] [--only]

Every filler stream is random.Random(f"{SEED}/{path}") with SEED = 20260831 + 15;
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
    "id": 15,
    "seed": 20260846,
    "stages": ["initial"],
    "files": [
        {
            "path": "inputs",
            "format": None,
            "compressed": False,
            "rows": None,
            "header": [],
            "columns": [],
            "records": [],
            "anchors": [],
            "sort_by": [],
            "wrap": None,
            "generator": "snapshots",
            "stage": "initial",
            "writes": [
                "inputs/snapshots/2025-03-01-full.tar.gz",
                "inputs/snapshots/2025-03-08-incremental.zip",
                "inputs/snapshots/2025-03-15-incremental.tar",
                "inputs/snapshots/README.txt",
                "inputs/restore_request.json",
            ],
        }
    ],
    "edge_files": [
        {
            "path": "inputs",
            "format": None,
            "compressed": False,
            "rows": None,
            "header": [],
            "columns": [],
            "records": [],
            "anchors": [],
            "sort_by": [],
            "wrap": None,
            "generator": "edge_snapshots",
            "stage": "initial",
            "writes": [
                "inputs/snapshots/2025-03-20-full.tar",
                "inputs/snapshots/2025-03-21-incremental.zip",
                "inputs/restore_request.json",
            ],
        }
    ],
    "anchors": {
        "newest-before-cutoff": [
            {
                "snapshot": "full",
                "name": "./projects/harbor-bridge/budget.md",
                "mtime": "2025-02-20T10:14:06Z",
                "kind": "file",
                "text": "Budget harbor-bridge\nphase 1: 48,000 EUR\n",
            },
            {
                "snapshot": "incr1",
                "name": "projects/harbor-bridge/budget.md",
                "mtime": "2025-03-05T15:42:10Z",
                "kind": "file",
                "text": "Budget harbor-bridge\nphase 1: 51,500 EUR\n",
            },
            {
                "snapshot": "incr2",
                "name": "projects/harbor-bridge/budget.md",
                "mtime": "2025-03-11T09:30:00Z",
                "kind": "file",
                "text": "Budget harbor-bridge\nphase 1: 51,500 EUR\nphase 2: 22,000 EUR (approved 2025-03-11)\n",
            },
            {"request": "projects/harbor-bridge/budget.md"},
        ],
        "after-cutoff-fallback": [
            {
                "snapshot": "full",
                "name": "./finance/2025/reports/2025-03-forecast.csv",
                "mtime": "2025-02-26T17:20:44Z",
                "kind": "file",
                "text": "month,amount\n2025-03,41000.00\n",
            },
            {
                "snapshot": "incr1",
                "name": "finance/2025/reports/2025-03-forecast.csv",
                "mtime": "2025-03-06T11:05:30Z",
                "kind": "file",
                "text": "month,amount\n2025-03,43250.00\n2025-04,39800.00\n",
            },
            {
                "snapshot": "incr2",
                "name": "finance/2025/reports/2025-03-forecast.csv",
                "mtime": "2025-03-12T18:07:12Z",
                "kind": "file",
                "text": "month,am",
            },
            {"request": "finance/2025/reports/2025-03-forecast.csv"},
        ],
        "cutoff-boundary": [
            {
                "snapshot": "full",
                "name": "./hr/policies/parking.txt",
                "mtime": "2025-01-14T08:00:00Z",
                "kind": "file",
                "text": "Parking: spaces 1-6 are reserved for visitors.\n",
            },
            {
                "snapshot": "incr2",
                "name": "hr/policies/parking.txt",
                "mtime": "2025-03-12T18:00:00Z",
                "kind": "file",
                "text": "Parking: spaces 1-4 are reserved for visitors, 5-6 for the van.\n",
            },
            {
                "snapshot": "full",
                "name": "./hr/policies/visitors.txt",
                "mtime": "2025-01-20T11:30:00Z",
                "kind": "file",
                "text": "Visitors sign in at the front desk.\n",
            },
            {
                "snapshot": "incr2",
                "name": "hr/policies/visitors.txt",
                "mtime": "2025-03-12T18:00:01Z",
                "kind": "file",
                "text": "Visi",
            },
            {"request": "hr/policies/parking.txt"},
            {"request": "hr/policies/visitors.txt"},
        ],
        "newest-timestamp-not-latest-snapshot": [
            {
                "snapshot": "full",
                "name": "./docs/handbook/chapter-15.md",
                "mtime": "2025-02-27T16:00:00Z",
                "kind": "file",
                "text": "# Chapter 15: Closing the books\n\nRevised February 2025.\n",
            },
            {
                "snapshot": "incr1",
                "name": "docs/handbook/chapter-15.md",
                "mtime": "2025-01-15T09:00:00Z",
                "kind": "file",
                "text": "# Chapter 15: Closing the books\n\nDraft.\n",
            },
            {"request": "docs/handbook/chapter-15.md"},
        ],
        "tie-later-snapshot": [
            {
                "snapshot": "full",
                "name": "./projects/mill-street/permit.md",
                "mtime": "2025-02-11T14:00:00Z",
                "kind": "file",
                "text": "Permit application: submitted.\n",
            },
            {
                "snapshot": "incr1",
                "name": "projects/mill-street/permit.md",
                "mtime": "2025-03-07T10:00:00Z",
                "kind": "file",
                "text": "Permit application: approved with conditions.\n",
            },
            {
                "snapshot": "incr2",
                "name": "projects/mill-street/permit.md",
                "mtime": "2025-03-07T10:00:00Z",
                "kind": "file",
                "text": "Permit application: approved with conditions (signed copy filed).\n",
            },
            {"request": "projects/mill-street/permit.md"},
        ],
        "duplicate-member": [
            {
                "snapshot": "incr2",
                "name": "projects/north-depot/minutes/2025-03-10.md",
                "mtime": "2025-03-10T16:30:00Z",
                "kind": "file",
                "text": "Minutes 2025-03-10 (draft)\n",
            },
            {
                "snapshot": "incr2",
                "name": "projects/north-depot/minutes/2025-03-10.md",
                "mtime": "2025-03-10T16:30:00Z",
                "kind": "file",
                "text": "Minutes 2025-03-10 (final, approved)\n",
                "append": True,
            },
            {"request": "projects/north-depot/minutes/2025-03-10.md"},
        ],
        "dot-slash-member": [
            {
                "snapshot": "full",
                "name": "./docs/handbook/glossary.md",
                "mtime": "2024-11-02T13:45:00Z",
                "kind": "file",
                "text": "# Glossary\n\naccrual: revenue earned, not yet paid\n",
            },
            {"request": "docs/handbook/glossary.md"},
        ],
        "links-are-not-versions": [
            {
                "snapshot": "incr1",
                "name": "docs/handbook/current.md",
                "mtime": "2025-03-04T12:00:00Z",
                "kind": "file",
                "text": "The current handbook edition is 2025.1.\n",
            },
            {
                "snapshot": "incr2",
                "name": "docs/handbook/current.md",
                "mtime": "2025-03-10T08:00:00Z",
                "kind": "symlink",
                "target": "chapter-14.md",
            },
            {
                "snapshot": "full",
                "name": "./scripts/deploy.sh",
                "mtime": "2025-02-03T09:12:00Z",
                "kind": "file",
                "text": "#!/bin/sh\nrsync -a site/ web01:/srv/site/\n",
            },
            {
                "snapshot": "incr1",
                "name": "scripts/deploy.sh",
                "mtime": "2025-03-03T14:00:00Z",
                "kind": "symlink",
                "target": "deploy-v2.sh",
            },
            {
                "snapshot": "full",
                "name": "./finance/2025/q1-summary.xlsx",
                "mtime": "2025-02-28T12:00:00Z",
                "kind": "file",
                "binary": 24000,
            },
            {
                "snapshot": "incr2",
                "name": "finance/2025/q1-summary-final.xlsx",
                "mtime": "2025-03-09T10:00:00Z",
                "kind": "file",
                "binary": 26000,
            },
            {
                "snapshot": "incr2",
                "name": "finance/2025/q1-summary.xlsx",
                "mtime": "2025-03-09T10:00:00Z",
                "kind": "hardlink",
                "target": "finance/2025/q1-summary-final.xlsx",
            },
            {"request": "docs/handbook/current.md"},
            {"request": "scripts/deploy.sh"},
            {"request": "finance/2025/q1-summary.xlsx"},
        ],
        "windows-zip-entries": [
            {
                "snapshot": "full",
                "name": "./finance/2025/bank-export.csv",
                "mtime": "2025-02-28T07:50:00Z",
                "kind": "file",
                "text": "date,amount\n2025-02-27,-120.00\n",
            },
            {
                "snapshot": "incr1",
                "name": "finance/2025/bank-export.csv",
                "mtime": "2025-03-06T08:24:16Z",
                "kind": "file",
                "text": "date,amount\n2025-02-27,-120.00\n2025-03-05,980.50\n",
                "unix": False,
            },
            {
                "snapshot": "incr1",
                "name": "projects/solar-roof/site-photos/",
                "mtime": "2025-03-05T10:00:00Z",
                "kind": "dir",
                "unix": False,
            },
            {"request": "finance/2025/bank-export.csv"},
            {"request": "projects/solar-roof/site-photos"},
        ],
        "missing": [
            {
                "snapshot": "full",
                "name": "./shared/latest-report.csv",
                "mtime": "2025-02-01T08:00:00Z",
                "kind": "symlink",
                "target": "../finance/2025/reports/2025-01-summary.csv",
            },
            {"request": "shared/latest-report.csv"},
            {"request": "hr/contracts/2019/old-contract.pdf"},
        ],
        "after-cutoff-only": [
            {
                "snapshot": "incr2",
                "name": "projects/solar-roof/offer-2025-03-13.md",
                "mtime": "2025-03-13T09:00:00Z",
                "kind": "file",
                "text": "Offer: 24 panels, 9.6 kWp\n",
            },
            {"request": "projects/solar-roof/offer-2025-03-13.md"},
        ],
        "unicode-path": [
            {
                "snapshot": "full",
                "name": "./docs/protokolle/Übergabe März.md",
                "mtime": "2025-02-14T10:00:00Z",
                "kind": "file",
                "text": "Übergabe an das Team Süd: offen\n",
            },
            {
                "snapshot": "incr1",
                "name": "docs/protokolle/Übergabe März.md",
                "mtime": "2025-03-04T10:00:00Z",
                "kind": "file",
                "text": "Übergabe an das Team Süd: erledigt am 4. März\n",
            },
            {"request": "docs/protokolle/Übergabe März.md"},
        ],
        "large-binary": [
            {
                "snapshot": "full",
                "name": "./photos/2025-02-team-day/IMG_0412.jpg",
                "mtime": "2025-02-21T17:03:44Z",
                "kind": "file",
                "binary": 150000,
            },
            {"request": "photos/2025-02-team-day/IMG_0412.jpg"},
        ],
    },
}

if __name__ == "__main__":
    sys.exit(benchlib.seed_main(TASK, HERE))
