# generated from task.toml by benchsmith -- edit only the authored region
"""Judge of task 28: Permit Intake and Status Pipeline.

Usage: python judge.py --workspace WS [--stage N] [--python EXE] [--fixture-cache DIR]

Runs the candidate's commands on a clean main fixture and on the edge fixture, then prints
exactly one JSON verdict (spec section 6). The workspace is only read. With --stage N (a
1-based number or a stage id) it judges the state after stage N with the checks that apply
by then; without it, the final (scored) verdict.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.dont_write_bytecode = True  # keep __pycache__ out of the task and corpus folders

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import benchlib

TASK = {
    "id": 28,
    "slug": "permit-pipeline",
    "stages": ["initial", "ordinance", "corrections", "status"],
    "editable": ["permitflow/", "workspace/", "output/"],
    "commands": [
        {
            "run": "python -m permitflow import inputs workspace/permits.db",
            "argv": ["python", "-m", "permitflow", "import", "inputs", "workspace/permits.db"],
            "cwd": ".",
            "stdin": None,
            "stage": "initial",
            "timeout": 60.0,
        },
        {
            "run": "python -m permitflow validate workspace/permits.db --output output",
            "argv": [
                "python",
                "-m",
                "permitflow",
                "validate",
                "workspace/permits.db",
                "--output",
                "output",
            ],
            "cwd": ".",
            "stdin": None,
            "stage": "initial",
            "timeout": 60.0,
        },
        {
            "run": "python -m permitflow status workspace/permits.db --output output",
            "argv": [
                "python",
                "-m",
                "permitflow",
                "status",
                "workspace/permits.db",
                "--output",
                "output",
            ],
            "cwd": ".",
            "stdin": None,
            "stage": "status",
            "timeout": 60.0,
        },
    ],
    "outputs": [
        {"path": "workspace/permits.db", "format": "sqlite", "header": [], "stage": "initial"},
        {
            "path": "output/applications.csv",
            "format": "csv",
            "header": [
                "application_id",
                "revision",
                "source",
                "submitted",
                "permit_type",
                "parcel_id",
                "owner_name",
                "valuation",
                "fee_paid",
                "documents",
                "closed_on",
            ],
            "stage": "initial",
        },
        {
            "path": "output/validation_issues.csv",
            "format": "csv",
            "header": ["application_id", "code", "detail"],
            "stage": "initial",
        },
        {
            "path": "output/fees.csv",
            "format": "csv",
            "header": ["application_id", "permit_type", "valuation", "fee", "fee_paid", "fee_due"],
            "stage": "initial",
        },
        {
            "path": "output/ordinance_impacts.csv",
            "format": "csv",
            "header": ["application_id", "field", "before", "after"],
            "stage": "ordinance",
        },
        {
            "path": "output/merges.csv",
            "format": "csv",
            "header": ["survivor_id", "merged_id"],
            "stage": "corrections",
        },
        {
            "path": "output/status.csv",
            "format": "csv",
            "header": ["application_id", "status", "issues", "fee_due"],
            "stage": "status",
        },
        {"path": "output/letters/", "format": "directory", "header": [], "stage": "status"},
    ],
    "expect": [
        {
            "name": "revisions#1",
            "file": "output/applications.csv",
            "level": 3,
            "where": {"application_id": 12001},
            "equals": {"revision": "2", "valuation": "9000.00", "documents": "ATT-A12001-1"},
        },
        {
            "name": "revisions#2",
            "file": "output/validation_issues.csv",
            "level": 4,
            "where": {"application_id": 12001, "code": "document_missing"},
            "equals": {"detail": "structural_calc"},
        },
        {
            "name": "revisions#3",
            "file": "output/applications.csv",
            "level": 3,
            "where": {"application_id": 9101},
            "equals": {
                "revision": "3",
                "source": "portal",
                "valuation": "3500.00",
                "fee_paid": "49.35",
            },
        },
        {
            "name": "revisions#4",
            "file": "output/applications.csv",
            "level": 3,
            "where": {"application_id": 9117},
            "equals": {
                "revision": "3",
                "source": "counter",
                "valuation": "9000.00",
                "fee_paid": "179.75",
            },
        },
        {
            "name": "revisions#5",
            "file": "output/applications.csv",
            "level": 3,
            "where": {"application_id": 9118},
            "equals": {
                "revision": "3",
                "source": "portal",
                "valuation": "12000.00",
                "fee_paid": "82.20",
            },
        },
        {
            "name": "formats#1",
            "file": "output/applications.csv",
            "level": 3,
            "where": {"application_id": 9102},
            "equals": {"submitted": "2025-02-07", "valuation": "12340.00", "source": "counter"},
        },
        {
            "name": "formats#2",
            "file": "output/fees.csv",
            "level": 4,
            "where": {"application_id": 9102},
            "equals": {"fee": "205.64", "fee_due": "0.00"},
        },
        {
            "name": "formats#3",
            "file": "output/applications.csv",
            "level": 3,
            "where": {"application_id": 12002},
            "equals": {"valuation": "4150.50", "fee_paid": "60.00", "parcel_id": "rb-0012a"},
        },
        {
            "name": "formats#4",
            "file": "output/fees.csv",
            "level": 4,
            "where": {"application_id": 12002},
            "equals": {"fee": "80.00", "fee_due": "20.00"},
        },
        {
            "name": "formats#5",
            "file": "output/applications.csv",
            "level": 3,
            "where": {"application_id": 9103},
            "equals": {"owner_name": "O'Brien & Daughters", "closed_on": "2025-03-20"},
        },
        {
            "name": "formats#6",
            "file": "output/validation_issues.csv",
            "level": 4,
            "where": {"application_id": 9103},
            "absent": True,
        },
        {
            "name": "fee-rounding#1",
            "file": "output/fees.csv",
            "level": 4,
            "where": {"application_id": 9104},
            "equals": {"fee": "142.71", "fee_due": "0.01"},
        },
        {
            "name": "fee-rounding#2",
            "file": "output/validation_issues.csv",
            "level": 4,
            "where": {"application_id": 9104, "code": "fee_unpaid"},
            "equals": {"detail": "0.01"},
        },
        {
            "name": "fee-rounding#3",
            "file": "output/fees.csv",
            "level": 4,
            "where": {"application_id": 12003},
            "equals": {"fee": "275.29", "fee_due": "0.00"},
        },
        {
            "name": "fee-rounding#4",
            "file": "output/validation_issues.csv",
            "level": 4,
            "where": {"application_id": 12003},
            "absent": True,
        },
        {
            "name": "fee-rounding#5",
            "file": "output/fees.csv",
            "level": 4,
            "where": {"application_id": 12004},
            "equals": {"fee": "45.00", "fee_paid": "0.00", "fee_due": "45.00"},
        },
        {
            "name": "fee-due#1",
            "file": "output/fees.csv",
            "level": 4,
            "where": {"application_id": 12005},
            "equals": {"fee": "665.00", "fee_paid": "665.00", "fee_due": "0.00"},
        },
        {
            "name": "fee-due#2",
            "file": "output/fees.csv",
            "level": 4,
            "where": {"application_id": 12006},
            "equals": {"fee": "665.00", "fee_paid": "700.00", "fee_due": "0.00"},
        },
        {
            "name": "fee-due#3",
            "file": "output/validation_issues.csv",
            "level": 4,
            "where": {"application_id": 12006},
            "absent": True,
        },
        {
            "name": "fee-due#4",
            "file": "output/fees.csv",
            "level": 4,
            "where": {"application_id": 12007},
            "equals": {"fee": "60.00", "fee_paid": "0.00", "fee_due": "60.00"},
        },
        {
            "name": "fee-due#5",
            "file": "output/validation_issues.csv",
            "level": 4,
            "where": {"application_id": 12007},
            "count": 1,
        },
        {
            "name": "owner-names#1",
            "file": "output/validation_issues.csv",
            "level": 3,
            "where": {"application_id": 12008, "code": "owner_mismatch"},
            "absent": True,
        },
        {
            "name": "owner-names#2",
            "file": "output/validation_issues.csv",
            "level": 3,
            "where": {"application_id": 9105},
            "absent": True,
        },
        {
            "name": "owner-names#3",
            "file": "output/validation_issues.csv",
            "level": 3,
            "where": {"application_id": 12009, "code": "owner_mismatch"},
            "absent": True,
        },
        {
            "name": "owner-names#4",
            "file": "output/applications.csv",
            "level": 3,
            "where": {"application_id": 12009},
            "equals": {"owner_name": "  maria\tgonzalez "},
        },
        {
            "name": "owner-names#5",
            "file": "output/validation_issues.csv",
            "level": 3,
            "where": {"application_id": 12010, "code": "owner_mismatch"},
            "equals": {"detail": "Maria Gonzalez"},
        },
        {
            "name": "owner-names#6",
            "file": "output/validation_issues.csv",
            "level": 3,
            "where": {"application_id": 12011, "code": "owner_mismatch"},
            "equals": {"detail": "Harbor View Holdings LLC"},
        },
        {
            "name": "parcel-ids#1",
            "file": "output/validation_issues.csv",
            "level": 3,
            "where": {"application_id": 9106},
            "absent": True,
        },
        {
            "name": "parcel-ids#2",
            "file": "output/validation_issues.csv",
            "level": 3,
            "where": {"application_id": 12012},
            "absent": True,
        },
        {
            "name": "parcel-ids#3",
            "file": "output/validation_issues.csv",
            "level": 3,
            "where": {"application_id": 9107},
            "absent": True,
        },
        {
            "name": "parcel-ids#4",
            "file": "output/applications.csv",
            "level": 3,
            "where": {"application_id": 9106},
            "equals": {"parcel_id": "LOT 12 BLK 7"},
        },
        {
            "name": "parcel-ids#5",
            "file": "output/validation_issues.csv",
            "level": 3,
            "where": {"application_id": 12013, "code": "parcel_not_found"},
            "equals": {"detail": "P-999104"},
        },
        {
            "name": "parcel-ids#6",
            "file": "output/validation_issues.csv",
            "level": 3,
            "where": {"application_id": 12013, "code": "owner_mismatch"},
            "absent": True,
        },
        {
            "name": "parcel-ids#7",
            "file": "output/validation_issues.csv",
            "level": 3,
            "where": {"application_id": 12013, "code": "zoning_incompatible"},
            "absent": True,
        },
        {
            "name": "parcel-ids#8",
            "file": "output/validation_issues.csv",
            "level": 3,
            "where": {"application_id": 9108, "code": "parcel_not_found"},
            "equals": {"detail": "0042/0070"},
        },
        {
            "name": "parcel-ids#9",
            "file": "output/validation_issues.csv",
            "level": 3,
            "where": {"application_id": 9108},
            "count": 1,
        },
        {
            "name": "zoning#1",
            "file": "output/validation_issues.csv",
            "level": 3,
            "where": {"application_id": 12014, "code": "zoning_incompatible"},
            "equals": {"detail": "C1"},
        },
        {
            "name": "zoning#2",
            "file": "output/validation_issues.csv",
            "level": 3,
            "where": {"application_id": 9109},
            "count": 1,
        },
        {
            "name": "zoning#3",
            "file": "output/validation_issues.csv",
            "level": 3,
            "where": {"application_id": 9109, "code": "zoning_incompatible"},
            "equals": {"detail": "R1"},
        },
        {
            "name": "documents#1",
            "file": "output/validation_issues.csv",
            "level": 4,
            "where": {"application_id": 12015, "code": "document_expired"},
            "absent": True,
        },
        {
            "name": "documents#2",
            "file": "output/validation_issues.csv",
            "level": 4,
            "where": {"application_id": 12016, "code": "document_expired"},
            "equals": {"detail": "contractor_license"},
        },
        {
            "name": "documents#3",
            "file": "output/validation_issues.csv",
            "level": 4,
            "where": {"application_id": 9110, "code": "document_missing"},
            "equals": {"detail": "survey"},
        },
        {
            "name": "documents#4",
            "file": "output/validation_issues.csv",
            "level": 4,
            "where": {"application_id": 9110},
            "count": 1,
        },
        {
            "name": "documents#5",
            "file": "output/applications.csv",
            "level": 3,
            "where": {"application_id": 9110},
            "equals": {"documents": "ATT-404404;ATT-A9110-1;ATT-A9110-2;ATT-A9110-3"},
        },
        {
            "name": "documents#6",
            "file": "output/applications.csv",
            "level": 3,
            "where": {"application_id": 12017},
            "equals": {"documents": "ATT-A12017-1;ATT-A12017-2"},
        },
        {
            "name": "documents#7",
            "file": "output/validation_issues.csv",
            "level": 4,
            "where": {"application_id": 9111, "code": "document_missing"},
            "equals": {"detail": "sign_drawing"},
        },
        {
            "name": "documents#8",
            "file": "output/validation_issues.csv",
            "level": 4,
            "where": {"application_id": 12018, "code": "document_expired"},
            "equals": {"detail": "structural_calc"},
        },
        {
            "name": "parse-errors#1",
            "file": "output/validation_issues.csv",
            "level": 3,
            "where": {"application_id": 9112},
            "count": 1,
        },
        {
            "name": "parse-errors#2",
            "file": "output/validation_issues.csv",
            "level": 3,
            "where": {"application_id": 9112, "code": "parse_error"},
            "equals": {"detail": "submitted"},
        },
        {
            "name": "parse-errors#3",
            "file": "output/applications.csv",
            "level": 3,
            "where": {"application_id": 9112},
            "equals": {"submitted": "", "valuation": "15000.00"},
        },
        {
            "name": "parse-errors#4",
            "file": "output/fees.csv",
            "level": 3,
            "where": {"application_id": 9112},
            "absent": True,
        },
        {
            "name": "parse-errors#5",
            "file": "output/validation_issues.csv",
            "level": 3,
            "where": {"application_id": 12019},
            "count": 1,
        },
        {
            "name": "parse-errors#6",
            "file": "output/validation_issues.csv",
            "level": 3,
            "where": {"application_id": 12019, "code": "parse_error"},
            "equals": {"detail": "valuation"},
        },
        {
            "name": "parse-errors#7",
            "file": "output/validation_issues.csv",
            "level": 3,
            "where": {"application_id": 9113, "code": "parse_error"},
            "equals": {"detail": "valuation"},
        },
        {
            "name": "parse-errors#8",
            "file": "output/validation_issues.csv",
            "level": 3,
            "where": {"application_id": 12030, "code": "parse_error"},
            "count": 2,
        },
        {
            "name": "parse-errors#9",
            "file": "output/validation_issues.csv",
            "level": 3,
            "where": {"application_id": 12030, "detail": "owner_name"},
            "count": 1,
        },
        {
            "name": "parse-errors#10",
            "file": "output/validation_issues.csv",
            "level": 3,
            "where": {"application_id": 12031, "code": "parse_error", "detail": "closed_on"},
            "count": 1,
        },
        {
            "name": "parse-errors#11",
            "file": "output/validation_issues.csv",
            "level": 3,
            "where": {"application_id": 9114, "code": "parse_error", "detail": "fee_paid"},
            "count": 1,
        },
        {
            "name": "parse-errors#12",
            "file": "output/validation_issues.csv",
            "level": 3,
            "where": {"application_id": 9114},
            "count": 1,
        },
        {
            "name": "parse-errors#13",
            "file": "output/validation_issues.csv",
            "level": 3,
            "where": {"application_id": 12032, "code": "parse_error", "detail": "permit_type"},
            "count": 1,
        },
        {
            "name": "parse-errors#14",
            "file": "output/validation_issues.csv",
            "level": 3,
            "where": {"application_id": 9119, "code": "parse_error", "detail": "submitted"},
            "count": 1,
        },
        {
            "name": "parse-errors#15",
            "file": "output/validation_issues.csv",
            "level": 3,
            "where": {"application_id": 12044, "code": "parse_error", "detail": "submitted"},
            "count": 1,
        },
        {
            "name": "parse-errors#16",
            "file": "output/validation_issues.csv",
            "level": 3,
            "where": {"application_id": 12045, "code": "parse_error", "detail": "valuation"},
            "count": 1,
        },
        {
            "name": "parse-errors#17",
            "file": "output/validation_issues.csv",
            "level": 3,
            "where": {"application_id": 12046, "code": "parse_error", "detail": "fee_paid"},
            "count": 1,
        },
        {
            "name": "parse-errors#18",
            "file": "output/validation_issues.csv",
            "level": 4,
            "where": {"application_id": 12047},
            "count": 1,
        },
        {
            "name": "parse-errors#19",
            "file": "output/fees.csv",
            "level": 4,
            "where": {"application_id": 12047},
            "equals": {"fee_paid": "0.00", "fee_due": "60.00"},
        },
        {
            "name": "ordinance#1",
            "file": "output/ordinance_impacts.csv",
            "level": 4,
            "stage": "ordinance",
            "where": {"application_id": 12033},
            "absent": True,
        },
        {
            "name": "ordinance#2",
            "file": "output/fees.csv",
            "level": 4,
            "where": {"application_id": 12033},
            "equals": {"fee": "100.00", "fee_due": "0.00"},
        },
        {
            "name": "ordinance#3",
            "file": "output/ordinance_impacts.csv",
            "level": 4,
            "stage": "ordinance",
            "where": {"application_id": 12034, "field": "fee"},
            "equals": {"before": "100.00", "after": "112.00"},
        },
        {
            "name": "ordinance#4",
            "file": "output/fees.csv",
            "level": 4,
            "stage": "ordinance",
            "where": {"application_id": 12034},
            "equals": {"fee": "112.00", "fee_due": "12.00"},
        },
        {
            "name": "ordinance#5",
            "file": "output/ordinance_impacts.csv",
            "level": 4,
            "stage": "ordinance",
            "where": {"application_id": 9115},
            "count": 1,
        },
        {
            "name": "ordinance#6",
            "file": "output/ordinance_impacts.csv",
            "level": 4,
            "stage": "ordinance",
            "where": {"application_id": 9115, "field": "documents"},
            "equals": {"before": "site_plan", "after": ""},
        },
        {
            "name": "ordinance#7",
            "file": "output/validation_issues.csv",
            "level": 4,
            "stage": "ordinance",
            "where": {"application_id": 9115},
            "absent": True,
        },
        {
            "name": "ordinance#8",
            "file": "output/validation_issues.csv",
            "level": 4,
            "until": "initial",
            "where": {"application_id": 9115, "code": "document_missing"},
            "equals": {"detail": "site_plan"},
        },
        {
            "name": "ordinance#9",
            "file": "output/ordinance_impacts.csv",
            "level": 4,
            "stage": "ordinance",
            "where": {"application_id": 9116, "field": "fee"},
            "equals": {"before": "45.00", "after": "60.00"},
        },
        {
            "name": "ordinance#10",
            "file": "output/ordinance_impacts.csv",
            "level": 4,
            "stage": "ordinance",
            "where": {"application_id": 12035},
            "absent": True,
        },
        {
            "name": "ordinance#11",
            "file": "output/ordinance_impacts.csv",
            "level": 4,
            "stage": "ordinance",
            "where": {"application_id": 12036, "field": "fee"},
            "equals": {"before": "308.00", "after": "318.00"},
        },
        {
            "name": "ordinance#12",
            "file": "output/ordinance_impacts.csv",
            "level": 4,
            "stage": "ordinance",
            "where": {"application_id": 12037},
            "absent": True,
        },
        {
            "name": "ordinance#13",
            "file": "output/ordinance_impacts.csv",
            "level": 4,
            "stage": "ordinance",
            "where": {"application_id": 12002, "field": "documents"},
            "equals": {
                "before": "contractor_license;electrical_plan",
                "after": "contractor_license;electrical_plan;structural_calc",
            },
        },
        {
            "name": "ordinance#14",
            "file": "output/validation_issues.csv",
            "level": 4,
            "stage": "ordinance",
            "where": {"application_id": 12002, "code": "document_missing"},
            "equals": {"detail": "structural_calc"},
        },
        {
            "name": "ordinance#15",
            "file": "output/ordinance_impacts.csv",
            "level": 4,
            "stage": "ordinance",
            "where": {"application_id": 12019},
            "absent": True,
        },
        {
            "name": "corrections#1",
            "file": "output/validation_issues.csv",
            "level": 4,
            "until": "ordinance",
            "where": {"application_id": 12040, "code": "owner_mismatch"},
            "equals": {"detail": "Maria Gonzalez"},
        },
        {
            "name": "corrections#2",
            "file": "output/applications.csv",
            "level": 4,
            "stage": "corrections",
            "where": {"application_id": 12040},
            "equals": {"revision": "2", "owner_name": "Maria Gonzalez"},
        },
        {
            "name": "corrections#3",
            "file": "output/validation_issues.csv",
            "level": 4,
            "stage": "corrections",
            "where": {"application_id": 12040, "code": "owner_mismatch"},
            "absent": True,
        },
        {
            "name": "corrections#4",
            "file": "output/applications.csv",
            "level": 4,
            "stage": "corrections",
            "where": {"application_id": 12041},
            "equals": {"revision": "2", "owner_name": "Kofi Mensa"},
        },
        {
            "name": "corrections#5",
            "file": "output/validation_issues.csv",
            "level": 4,
            "stage": "corrections",
            "where": {"application_id": 12041, "code": "owner_mismatch"},
            "equals": {"detail": "Kofi Mensah"},
        },
        {
            "name": "corrections#6",
            "file": "output/applications.csv",
            "level": 4,
            "stage": "corrections",
            "where": {"application_id": 99999},
            "absent": True,
        },
        {
            "name": "corrections#7",
            "file": "output/applications.csv",
            "level": 4,
            "stage": "corrections",
            "where": {"application_id": 12042},
            "equals": {"revision": "2", "owner_name": "Ana Lima"},
        },
        {
            "name": "corrections#8",
            "file": "output/validation_issues.csv",
            "level": 4,
            "stage": "corrections",
            "where": {"application_id": 12042},
            "absent": True,
        },
        {
            "name": "corrections#9",
            "file": "output/fees.csv",
            "level": 4,
            "stage": "corrections",
            "where": {"application_id": 12042},
            "equals": {"fee": "560.00", "fee_due": "0.00"},
        },
        {
            "name": "corrections#10",
            "file": "output/applications.csv",
            "level": 4,
            "stage": "corrections",
            "where": {"application_id": 12043},
            "equals": {"revision": "3", "owner_name": "Chloé Martin"},
        },
        {
            "name": "corrections#11",
            "file": "output/validation_issues.csv",
            "level": 4,
            "stage": "corrections",
            "where": {"application_id": 12043},
            "absent": True,
        },
        {
            "name": "duplicates#1",
            "file": "output/merges.csv",
            "level": 4,
            "stage": "corrections",
            "where": {"merged_id": 12020},
            "equals": {"survivor_id": "9120"},
        },
        {
            "name": "duplicates#2",
            "file": "output/applications.csv",
            "level": 4,
            "stage": "corrections",
            "where": {"application_id": 12020},
            "absent": True,
        },
        {
            "name": "duplicates#3",
            "file": "output/applications.csv",
            "level": 4,
            "stage": "corrections",
            "where": {"application_id": 9120},
            "equals": {
                "documents": "ATT-A12020-1;ATT-A9120-1",
                "fee_paid": "172.00",
                "revision": "1",
            },
        },
        {
            "name": "duplicates#4",
            "file": "output/validation_issues.csv",
            "level": 4,
            "stage": "corrections",
            "where": {"application_id": 9120},
            "absent": True,
        },
        {
            "name": "duplicates#5",
            "file": "output/validation_issues.csv",
            "level": 4,
            "until": "ordinance",
            "where": {"application_id": 9120, "code": "document_missing"},
            "equals": {"detail": "structural_calc"},
        },
        {
            "name": "duplicates#6",
            "file": "output/merges.csv",
            "level": 4,
            "stage": "corrections",
            "where": {"survivor_id": 9121},
            "count": 2,
        },
        {
            "name": "duplicates#7",
            "file": "output/merges.csv",
            "level": 4,
            "stage": "corrections",
            "where": {"merged_id": 12022},
            "equals": {"survivor_id": "9121"},
        },
        {
            "name": "duplicates#8",
            "file": "output/applications.csv",
            "level": 4,
            "stage": "corrections",
            "where": {"application_id": 9121},
            "equals": {"documents": "ATT-A12021-1;ATT-A12022-1;ATT-A9121-1", "fee_paid": "50.00"},
        },
        {
            "name": "duplicates#9",
            "file": "output/fees.csv",
            "level": 4,
            "stage": "corrections",
            "where": {"application_id": 9121},
            "equals": {"fee": "125.50", "fee_due": "75.50"},
        },
        {
            "name": "duplicates#10",
            "file": "output/validation_issues.csv",
            "level": 4,
            "stage": "corrections",
            "where": {"application_id": 12023, "code": "unresolved_duplicate"},
            "equals": {"detail": "12024"},
        },
        {
            "name": "duplicates#11",
            "file": "output/validation_issues.csv",
            "level": 4,
            "stage": "corrections",
            "where": {"application_id": 12024, "code": "unresolved_duplicate"},
            "equals": {"detail": "12023"},
        },
        {
            "name": "duplicates#12",
            "file": "output/validation_issues.csv",
            "level": 4,
            "stage": "corrections",
            "where": {"application_id": 9122, "code": "unresolved_duplicate"},
            "equals": {"detail": "12025"},
        },
        {
            "name": "duplicates#13",
            "file": "output/merges.csv",
            "level": 4,
            "stage": "corrections",
            "where": {"survivor_id": 9122},
            "absent": True,
        },
        {
            "name": "duplicates#14",
            "file": "output/applications.csv",
            "level": 4,
            "stage": "corrections",
            "where": {"application_id": 9123},
            "equals": {"owner_name": "Wen Zhou", "fee_paid": "80.00", "revision": "1"},
        },
        {
            "name": "duplicates#15",
            "file": "output/applications.csv",
            "level": 4,
            "stage": "corrections",
            "where": {"application_id": 9124},
            "equals": {"owner_name": "Tom Becker", "revision": "2", "fee_paid": "60.00"},
        },
        {
            "name": "duplicates#16",
            "file": "output/validation_issues.csv",
            "level": 4,
            "stage": "corrections",
            "where": {"application_id": 9124},
            "absent": True,
        },
        {
            "name": "status#1",
            "file": "output/status.csv",
            "level": 4,
            "stage": "status",
            "where": {
                "application_id": 12005,
                "status": "approved",
                "issues": "",
                "fee_due": "0.00",
            },
            "count": 1,
        },
        {
            "name": "status#2",
            "file": "output/status.csv",
            "level": 4,
            "stage": "status",
            "where": {
                "application_id": 12007,
                "status": "approved",
                "issues": "fee_unpaid",
                "fee_due": "60.00",
            },
            "count": 1,
        },
        {
            "name": "status#3",
            "file": "output/status.csv",
            "level": 4,
            "stage": "status",
            "where": {
                "application_id": 12001,
                "status": "needs_information",
                "issues": "document_missing;fee_unpaid",
                "fee_due": "20.75",
            },
            "count": 1,
        },
        {
            "name": "status#4",
            "file": "output/status.csv",
            "level": 4,
            "stage": "status",
            "where": {
                "application_id": 12013,
                "status": "manual_review",
                "issues": "fee_unpaid;parcel_not_found",
                "fee_due": "10.00",
            },
            "count": 1,
        },
        {
            "name": "status#5",
            "file": "output/status.csv",
            "level": 4,
            "stage": "status",
            "where": {
                "application_id": 12030,
                "status": "manual_review",
                "issues": "parse_error",
                "fee_due": "",
            },
            "count": 1,
        },
        {
            "name": "status#6",
            "file": "output/status.csv",
            "level": 4,
            "stage": "status",
            "where": {
                "application_id": 12023,
                "status": "manual_review",
                "issues": "fee_unpaid;unresolved_duplicate",
                "fee_due": "15.00",
            },
            "count": 1,
        },
        {
            "name": "status#7",
            "file": "output/status.csv",
            "level": 4,
            "stage": "status",
            "where": {"application_id": 12020},
            "absent": True,
        },
        {
            "name": "status#8",
            "file": "output/letters/12007.txt",
            "level": 4,
            "stage": "status",
            "contains": ["\nOutstanding issues: none\n\nFee due: USD 60.00\n"],
        },
        {
            "name": "status#9",
            "file": "output/letters/12001.txt",
            "level": 4,
            "stage": "status",
            "contains": [
                "Notice for application 12001\n",
                "Outstanding issues:\n- Missing document: structural_calc\n\nFee due: USD 20.75\n",
            ],
        },
        {
            "name": "status#10",
            "file": "output/letters/12030.txt",
            "level": 4,
            "stage": "status",
            "contains": [
                "- Unreadable field: owner_name\n- Unreadable field: parcel_id\n",
                "Fee due: to be determined\n",
            ],
        },
        {
            "name": "status#11",
            "file": "output/letters/12014.txt",
            "level": 4,
            "stage": "status",
            "contains": ["- Permit type pool is not allowed in zone C1\n"],
        },
        {
            "name": "status#12",
            "file": "output/letters/12014.txt",
            "level": 4,
            "stage": "status",
            "not_contains": ["fee_unpaid"],
        },
        {
            "name": "status#13",
            "file": "output/letters/12023.txt",
            "level": 4,
            "stage": "status",
            "contains": ["- Possible duplicate of application 12024\n"],
        },
        {
            "name": "status#14",
            "file": "output/letters/12020.txt",
            "level": 4,
            "stage": "status",
            "absent": True,
        },
    ],
    "edge_expect": [
        {
            "name": "edge#1",
            "file": "output/validation_issues.csv",
            "level": 4,
            "where": {"application_id": 31002, "code": "parcel_not_found"},
            "equals": {"detail": "eb.2291.14"},
        },
        {
            "name": "edge#2",
            "file": "output/validation_issues.csv",
            "level": 4,
            "where": {"application_id": 31002, "code": "owner_mismatch"},
            "absent": True,
        },
        {
            "name": "edge#3",
            "file": "output/validation_issues.csv",
            "level": 4,
            "where": {"application_id": 9301, "code": "parcel_not_found"},
            "equals": {"detail": "EAST-QUARRY/7 (NEW)"},
        },
        {
            "name": "edge#4",
            "file": "output/status.csv",
            "level": 4,
            "stage": "status",
            "where": {"application_id": 31002},
            "equals": {"status": "manual_review"},
        },
        {
            "name": "edge#5",
            "file": "output/status.csv",
            "level": 4,
            "stage": "status",
            "where": {"application_id": 9301},
            "equals": {"status": "manual_review", "issues": "parcel_not_found", "fee_due": "0.00"},
        },
        {
            "name": "edge#6",
            "file": "output/letters/31002.txt",
            "level": 4,
            "stage": "status",
            "contains": [
                "Parcel: eb.2291.14\n",
                "- Parcel eb.2291.14 is not in the parcel registry\n",
            ],
        },
    ],
    "edge_include_visible": False,
    "services": [],
}

judge = benchlib.Judge(TASK)

# region authored: benchsmith keeps these lines when it rebuilds judge.py
# Expected values: the anchors of task.toml, and an independent small calculation of every
# output from the pristine inputs of the judged stage (the `Truth` below, computed once per
# fixture with run.derived). Level-3 checks compare only stage-1 behaviour that no later stage
# changes: the normalized rows and the registry and parse issues of the applications the
# correction batch does not name. Level-4 checks compare every row of every output.
import datetime as dt
import json
import re
import unicodedata
import xml.etree.ElementTree as ET
from decimal import ROUND_HALF_UP, Decimal

APPS = "output/applications.csv"
ISSUES = "output/validation_issues.csv"
FEES = "output/fees.csv"
IMPACTS = "output/ordinance_impacts.csv"
MERGES = "output/merges.csv"
STATUS = "output/status.csv"
DB = "workspace/permits.db"
BATCH = "inputs/correction_batch"
REGISTRY_CODES = {"parse_error", "parcel_not_found", "owner_mismatch", "zoning_incompatible"}
REVIEW = REGISTRY_CODES | {"unresolved_duplicate"}
TEXT_AMOUNT = re.compile(r"\d+(?:\.\d\d?)?|\d{1,3}(?:,\d\d\d)+(?:\.\d\d?)?")
TWO = Decimal("0.01")
FIELDS = ("submitted", "permit_type", "parcel_id", "owner_name", "valuation", "fee_paid",
          "closed_on")  # fmt: skip


def amount(value: object) -> str | None:
    """Two-decimal text of an amount (JSON number or amount text), None when unreadable."""
    if isinstance(value, str):
        return (
            str(Decimal(value.replace(",", "")).quantize(TWO))
            if TEXT_AMOUNT.fullmatch(value)
            else None
        )
    if type(value) in (int, Decimal) and value >= 0 and Decimal(value) % TWO == 0:  # type: ignore[operator]
        return str(Decimal(value).quantize(TWO))
    return None


def date(value: object, form: str) -> str | None:
    """ISO text of a date in its system's exact form, None when unreadable."""
    digits = {"%Y-%m-%d": r"\d{4}-\d\d-\d\d", "%d.%m.%Y": r"\d\d\.\d\d\.\d{4}"}[form]
    if not isinstance(value, str) or not re.fullmatch(digits, value):
        return None
    try:
        return dt.datetime.strptime(value, form).date().isoformat()
    except ValueError:
        return None


def text(value: object) -> str | None:
    return value if isinstance(value, str) and value != "" else None


def normalize(raw: dict, source: str, form: str) -> dict:
    app = {
        "application_id": int(raw["id"]), "revision": int(raw["revision"]), "source": source,
        "submitted": date(raw["submitted"], form), "permit_type": text(raw["permit_type"]),
        "parcel_id": text(raw["parcel_id"]), "owner_name": text(raw["owner_name"]),
        "valuation": amount(raw["valuation"]),
        "fee_paid": "0.00" if raw["fee_paid"] is None else amount(raw["fee_paid"]),
        "closed_on": "" if raw["closed_on"] is None else date(raw["closed_on"], form),
        "documents": sorted(set(raw["documents"])),
    }  # fmt: skip
    app["bad"] = [f for f in FIELDS if app[f] is None]
    return app


def intake(source: benchlib.Files) -> list[dict]:
    records = []
    for path in sorted(source.path("inputs/applications/portal").glob("*.json")):
        for item in json.loads(path.read_text("utf-8"), parse_float=Decimal)["applications"]:
            records.append(normalize({
                "id": item["application_id"], "revision": item["revision"],
                "submitted": item.get("submitted"), "permit_type": item.get("permit", {}).get("type"),
                "parcel_id": item.get("site", {}).get("parcel_id"),
                "owner_name": item.get("owner", {}).get("name"),
                "valuation": item.get("project", {}).get("valuation"),
                "fee_paid": item.get("payment", {}).get("amount"),
                "closed_on": item.get("closed_on"), "documents": item.get("documents", []),
            }, "portal", "%Y-%m-%d"))  # fmt: skip
    for path in sorted(source.path("inputs/applications/counter").glob("*.xml")):
        for item in ET.parse(path).getroot().findall("application"):
            records.append(normalize({
                "id": item.get("id"), "revision": item.get("revision"),
                "submitted": item.findtext("received"), "permit_type": item.findtext("permit_type"),
                "parcel_id": item.findtext("parcel"), "owner_name": item.findtext("owner"),
                "valuation": item.findtext("valuation"), "fee_paid": item.findtext("fee_paid"),
                "closed_on": item.findtext("closed"),
                "documents": [a.get("ref") for a in item.findall("attachments/attachment")],
            }, "counter", "%d.%m.%Y"))  # fmt: skip
    return records


def owner_key(name: str) -> str:
    return " ".join(unicodedata.normalize("NFC", name).casefold().split())


def compute_fee(row: dict, valuation: str) -> Decimal:
    raw = Decimal(row["base_fee"]) + Decimal(row["per_1000"]) * Decimal(valuation) / Decimal(1000)
    return max(raw.quantize(TWO, rounding=ROUND_HALF_UP), Decimal(row["minimum_fee"]))


def groups_of(links: list[dict]) -> list[list[int]]:
    """Connected components of the links, each sorted, by their lowest ID."""
    neighbours: dict[int, set[int]] = {}
    for link in links:
        a, b = link["application_id"], link["duplicate_of"]
        neighbours.setdefault(a, set()).add(b)
        neighbours.setdefault(b, set()).add(a)
    seen: set[int] = set()
    out = []
    for start in sorted(neighbours):
        if start in seen:
            continue
        group, todo = set(), [start]
        while todo:
            node = todo.pop()
            if node not in group:
                group.add(node)
                todo.extend(neighbours[node])
        seen |= group
        out.append(sorted(group))
    return out


class Truth:
    """Every expected output of the judged stage, from its pristine inputs."""

    def __init__(self, source: benchlib.Files) -> None:
        apps: dict[int, dict] = {}
        for rec in intake(source):
            if (
                rec["application_id"] not in apps
                or rec["revision"] > apps[rec["application_id"]]["revision"]
            ):
                apps[rec["application_id"]] = rec
        self.batch_ids: set[int] = set()
        self.merges: list[list[str]] = []
        unresolved: dict[int, str] = {}
        if source.exists(f"{BATCH}/owner_corrections.csv"):
            for row in source.csv(f"{BATCH}/owner_corrections.csv"):
                app_id, revision = int(row["application_id"]), int(row["revision"])
                self.batch_ids.add(app_id)
                if app_id in apps and revision > apps[app_id]["revision"]:
                    apps[app_id].update(owner_name=row["owner_name"], revision=revision)
                    apps[app_id]["bad"] = [f for f in apps[app_id]["bad"] if f != "owner_name"]
            links = source.json(f"{BATCH}/duplicate_links.json")["links"]
            for group in groups_of(links):
                self.batch_ids.update(group)
                if len({(apps[i]["parcel_id"], apps[i]["permit_type"]) for i in group}) > 1:
                    for i in group:
                        unresolved[i] = ";".join(str(j) for j in group if j != i)
                    continue
                keep = apps[group[0]]
                for other in group[1:]:
                    gone = apps.pop(other)
                    keep["documents"] = sorted(set(keep["documents"] + gone["documents"]))
                    keep["fee_paid"] = str(Decimal(keep["fee_paid"]) + Decimal(gone["fee_paid"]))
                    self.merges.append([str(group[0]), str(other)])
        self.merges.sort(key=lambda r: (int(r[0]), int(r[1])))
        self.ids = sorted(apps)
        self.apps = apps
        self.check_all(source, unresolved)

    def check_all(self, source: benchlib.Files, unresolved: dict[int, str]) -> None:
        parcels = {r["parcel_id"]: r for r in source.csv("inputs/registry/parcels.csv")}
        owners = {r["owner_id"]: r["name"] for r in source.csv("inputs/registry/owners.csv")}
        zones = source.json("inputs/rules/zoning.json")["zones"]
        base_fees = {r["permit_type"]: r for r in source.csv("inputs/rules/fees.csv")}
        base_docs: dict[str, set[str]] = {}
        for r in source.csv("inputs/rules/documents.csv"):
            base_docs.setdefault(r["permit_type"], set()).add(r["doc_type"])
        attachments = {r["attachment_id"]: r for r in source.csv("inputs/attachments.csv")}
        new_fees, new_docs, effective = base_fees, base_docs, None
        if source.exists("inputs/ordinance_update.json"):
            update = source.json("inputs/ordinance_update.json")
            effective = update["effective_date"]
            new_fees = {**base_fees, **{r["permit_type"]: r for r in update["fees"]}}
            new_docs = {**base_docs, **{k: set(v) for k, v in update["documents"].items()}}
        self.issues: dict[int, list[list[str]]] = {}
        self.fees: dict[int, list[str]] = {}
        self.impacts: list[list[str]] = []
        for app_id in self.ids:
            app = self.apps[app_id]
            found: list[list[str]] = []
            self.issues[app_id] = found
            if app["bad"]:
                found += [["parse_error", f] for f in app["bad"]]
                found.sort()
                continue
            parcel = parcels.get(app["parcel_id"])
            if parcel is None:
                found.append(["parcel_not_found", app["parcel_id"]])
            else:
                owner = owners[parcel["owner_id"]]
                if owner_key(owner) != owner_key(app["owner_name"]):
                    found.append(["owner_mismatch", owner])
                if app["permit_type"] not in zones[parcel["zone"]]:
                    found.append(["zoning_incompatible", parcel["zone"]])
            amended = effective is not None and (
                app["closed_on"] == "" or app["closed_on"] >= effective
            )
            fees, docs = (new_fees, new_docs) if amended else (base_fees, base_docs)
            for doc_type in sorted(docs.get(app["permit_type"], set())):
                ends = [attachments[a]["expires_on"] for a in app["documents"]
                        if a in attachments and attachments[a]["doc_type"] == doc_type]  # fmt: skip
                if not ends:
                    found.append(["document_missing", doc_type])
                elif all(e != "" and e < app["submitted"] for e in ends):
                    found.append(["document_expired", doc_type])
            fee = compute_fee(fees[app["permit_type"]], app["valuation"])
            due = max(fee - Decimal(app["fee_paid"]), Decimal(0)).quantize(TWO)
            if due > 0:
                found.append(["fee_unpaid", str(due)])
            if app_id in unresolved:
                found.append(["unresolved_duplicate", unresolved[app_id]])
            found.sort()
            self.fees[app_id] = [
                app["permit_type"],
                app["valuation"],
                str(fee),
                app["fee_paid"],
                str(due),
            ]
            if amended:
                old = sorted(base_docs.get(app["permit_type"], set()))
                new = sorted(new_docs.get(app["permit_type"], set()))
                if old != new:
                    self.impacts.append([str(app_id), "documents", ";".join(old), ";".join(new)])
                before = compute_fee(base_fees[app["permit_type"]], app["valuation"])
                if before != fee:
                    self.impacts.append([str(app_id), "fee", str(before), str(fee)])

    def app_row(self, app_id: int) -> list[str]:
        a = self.apps[app_id]
        cells = [str(app_id), str(a["revision"]), a["source"]]
        cells += [a[f] or "" for f in FIELDS[:-1]] + [
            ";".join(a["documents"]),
            a["closed_on"] or "",
        ]
        return cells

    def issue_rows(self, app_id: int) -> list[list[str]]:
        return [[str(app_id), *issue] for issue in self.issues[app_id]]

    def fee_row(self, app_id: int) -> list[str]:
        return [str(app_id), *self.fees[app_id]]

    def status_row(self, app_id: int) -> list[str]:
        codes = sorted({code for code, _ in self.issues[app_id]})
        if REVIEW & set(codes):
            status = "manual_review"
        elif {"document_missing", "document_expired"} & set(codes):
            status = "needs_information"
        else:
            status = "approved"
        due = self.fees[app_id][4] if app_id in self.fees else ""
        return [str(app_id), status, ";".join(codes), due]

    def letter(self, app_id: int) -> str:
        a = self.apps[app_id]
        permit = a["permit_type"] or ""
        words = {
            "parse_error": "Unreadable field: {}", "parcel_not_found": "Parcel {} is not in the parcel registry",
            "owner_mismatch": "Owner does not match the registered owner of the parcel",
            "zoning_incompatible": f"Permit type {permit} is not allowed in zone {{}}",
            "document_missing": "Missing document: {}", "document_expired": "Expired document: {}",
            "unresolved_duplicate": "Possible duplicate of application {}",
        }  # fmt: skip
        listed = [f"- {words[c].format(d)}" for c, d in self.issues[app_id] if c != "fee_unpaid"]
        issues = ["Outstanding issues:", *listed] if listed else ["Outstanding issues: none"]
        fee = f"USD {self.fees[app_id][4]}" if app_id in self.fees else "to be determined"
        lines = ["Eastbrook Permit Office", f"Notice for application {app_id}", "",
                 f"Permit type: {permit}", f"Parcel: {a['parcel_id'] or ''}",
                 f"Status: {self.status_row(app_id)[1]}", "", *issues, "", f"Fee due: {fee}"]  # fmt: skip
        return "\n".join(lines) + "\n"


def truth(run: benchlib.Run) -> Truth:
    return run.derived("truth", Truth)


def rows(run: benchlib.Run, path: str) -> list[list[str]]:
    """The data rows of a candidate CSV (its header is checked at level 2)."""
    return run.files.csv_rows(path)[1:]


def exact_rows(run: benchlib.Run, path: str) -> list[list[str]]:
    """The data rows of a CSV output that must be exact: no byte-order mark, LF endings only."""
    data = run.files.bytes(path)
    benchlib.expect(not data.startswith(b"\xef\xbb\xbf"), f"{path}: starts with a byte-order mark")
    benchlib.expect(b"\r" not in data, f"{path}: a carriage return (TASK.md: LF line endings)")
    return rows(run, path)


def first_difference(got: list, want: list, what: str) -> None:
    for index, (g, w) in enumerate(zip(got, want, strict=False)):
        benchlib.expect(g == w, f"{what}: row {index + 2} is {g}, expected {w}")
    benchlib.expect_equal(len(got), len(want), f"{what}: number of rows")


def stable(t: Truth, app_id: str) -> bool:
    """An application the correction batch does not name (its rows are stage-1 behaviour)."""
    return not app_id.isdigit() or int(app_id) not in t.batch_ids


@judge.check(level=3)
def applications_normalized(run: benchlib.Run) -> None:
    """applications.csv: every application the batch does not name, normalized, in ID order."""
    t = truth(run)
    got = [r for r in rows(run, APPS) if not r or stable(t, r[0])]
    want = [t.app_row(i) for i in t.ids if i not in t.batch_ids]
    first_difference(got, want, APPS)


@judge.check(level=3)
def registry_and_parse_issues(run: benchlib.Run) -> None:
    """The parse, parcel, owner and zoning issues of the applications the batch does not name."""
    t = truth(run)
    got = [
        r for r in rows(run, ISSUES) if len(r) != 3 or (r[1] in REGISTRY_CODES and stable(t, r[0]))
    ]
    want = [
        r for i in t.ids if i not in t.batch_ids for r in t.issue_rows(i) if r[1] in REGISTRY_CODES
    ]
    first_difference(got, want, f"{ISSUES} (parse, parcel, owner and zoning issues)")


def database_rows(run: benchlib.Run) -> list[tuple]:
    conn = run.files.sqlite(DB)
    try:
        columns = {
            r[1]: (str(r[2]).upper(), r[5]) for r in conn.execute("PRAGMA table_info(applications)")
        }
        benchlib.expect(columns.get("application_id") == ("INTEGER", 1),
                        f"{DB}: applications.application_id is not the INTEGER PRIMARY KEY")  # fmt: skip
        benchlib.expect("revision" in columns, f"{DB}: applications has no revision column")
        found = conn.execute("SELECT application_id, revision FROM applications").fetchall()
    except Exception as exc:  # any database error of the candidate fails the check
        raise benchlib.CheckFailed(f"{DB}: unreadable ({type(exc).__name__}: {exc})") from None
    finally:
        conn.close()
    return sorted(found, key=repr)


@judge.check(level=3)
def database_keeps_source_ids(run: benchlib.Run) -> None:
    """permits.db: the applications the batch does not name, by source ID, with revisions."""
    t = truth(run)
    got = [r for r in database_rows(run) if type(r[0]) is not int or r[0] not in t.batch_ids]
    want = [(i, t.apps[i]["revision"]) for i in t.ids if i not in t.batch_ids]
    benchlib.expect_equal(
        got, sorted(want, key=repr), f"{DB}: applications (application_id, revision)"
    )


@judge.check(level=4)
def database_exact(run: benchlib.Run) -> None:
    t = truth(run)
    want = sorted(((i, t.apps[i]["revision"]) for i in t.ids), key=repr)
    benchlib.expect_equal(
        database_rows(run), want, f"{DB}: applications (application_id, revision)"
    )


@judge.check(level=4)
def applications_exact(run: benchlib.Run) -> None:
    t = truth(run)
    first_difference(exact_rows(run, APPS), [t.app_row(i) for i in t.ids], APPS)


@judge.check(level=4)
def issues_exact(run: benchlib.Run) -> None:
    t = truth(run)
    first_difference(exact_rows(run, ISSUES), [r for i in t.ids for r in t.issue_rows(i)], ISSUES)


@judge.check(level=4)
def fees_exact(run: benchlib.Run) -> None:
    t = truth(run)
    first_difference(exact_rows(run, FEES), [t.fee_row(i) for i in t.ids if i in t.fees], FEES)


@judge.check(level=4, stage="ordinance")
def impacts_exact(run: benchlib.Run) -> None:
    first_difference(exact_rows(run, IMPACTS), truth(run).impacts, IMPACTS)


@judge.check(level=4, stage="corrections")
def merges_exact(run: benchlib.Run) -> None:
    first_difference(exact_rows(run, MERGES), truth(run).merges, MERGES)


@judge.check(level=4, stage="status")
def status_exact(run: benchlib.Run) -> None:
    t = truth(run)
    first_difference(exact_rows(run, STATUS), [t.status_row(i) for i in t.ids], STATUS)


def letters_of(run: benchlib.Run) -> dict[str, bytes]:
    folder = run.files.path("output/letters")
    benchlib.expect(folder.is_dir(), "output/letters is not a folder")
    names = sorted(p.name for p in folder.iterdir())
    benchlib.expect(len(names) <= 5000, f"output/letters holds {len(names)} entries")
    return {name: run.files.bytes(f"output/letters/{name}") for name in names}


@judge.check(level=4, stage="status")
def letters_exact(run: benchlib.Run) -> None:
    """One letter per application, named by its ID, with exactly STATUS.md's text."""
    t = truth(run)
    got = letters_of(run)
    want = {f"{i}.txt": t.letter(i).encode() for i in t.ids}
    missing, extra = sorted(set(want) - set(got)), sorted(set(got) - set(want))
    benchlib.expect(
        not missing and not extra, f"letters: missing {missing[:3]}, unexpected {extra[:3]}"
    )
    wrong = [name for name in sorted(want) if got[name] != want[name]]
    benchlib.expect(not wrong, f"{len(wrong)} letters differ, e.g. {wrong[:1]}: "
                    f"{got[wrong[0]][:400]!r} instead of {want[wrong[0]][:400]!r}" if wrong else "")  # fmt: skip


@judge.edge
def absent_parcels_checked(run: benchlib.Run) -> None:
    """Edge: the parse, parcel, owner and zoning issues (whatever the stage's rules)."""
    t = truth(run)
    want = [r for i in t.ids for r in t.issue_rows(i) if r[1] in REGISTRY_CODES]
    benchlib.expect(any(r[1] == "parcel_not_found" for r in want), "edge fixture: no absent parcel")
    got = [r for r in rows(run, ISSUES) if len(r) != 3 or r[1] in REGISTRY_CODES]
    first_difference(got, want, f"edge {ISSUES} (parse, parcel, owner and zoning issues)")
    first_difference(exact_rows(run, APPS), [t.app_row(i) for i in t.ids], f"edge {APPS}")


@judge.edge(stage="ordinance")
def absent_parcels_validated(run: benchlib.Run) -> None:
    """Edge, with the ordinance of its inputs: every issue and fee."""
    t = truth(run)
    first_difference(
        rows(run, ISSUES), [r for i in t.ids for r in t.issue_rows(i)], f"edge {ISSUES}"
    )
    first_difference(
        exact_rows(run, FEES), [t.fee_row(i) for i in t.ids if i in t.fees], f"edge {FEES}"
    )


@judge.edge(stage="status")
def absent_parcels_reviewed(run: benchlib.Run) -> None:
    """Edge: statuses (absent parcels under manual review) and letters."""
    t = truth(run)
    first_difference(exact_rows(run, STATUS), [t.status_row(i) for i in t.ids], f"edge {STATUS}")
    got = letters_of(run)
    benchlib.expect_equal(got, {f"{i}.txt": t.letter(i).encode() for i in t.ids}, "edge letters")


# endregion authored

if __name__ == "__main__":
    sys.exit(judge.main())
