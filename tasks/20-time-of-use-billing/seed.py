# generated from task.toml by benchsmith -- do not edit
"""Write the fixture of task 20: Time-of-Use Energy Billing.

Usage: python seed.py --out DIR [--fixture main|edge] [--stage N|final] [--only]

Every filler stream is random.Random(f"{SEED}/{path}") with SEED = 20260831 + 20;
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
    "id": 20,
    "seed": 20260851,
    "stages": ["initial", "correction", "explanations"],
    "files": [
        {
            "path": "inputs/customers.csv",
            "format": None,
            "compressed": False,
            "rows": None,
            "header": [],
            "columns": [],
            "records": [],
            "anchors": [],
            "sort_by": [],
            "wrap": None,
            "generator": "meter_data",
            "stage": "initial",
            "writes": ["inputs/customers.csv", "inputs/readings.csv"],
        }
    ],
    "edge_files": [
        {
            "path": "inputs/customers.csv",
            "format": None,
            "compressed": False,
            "rows": None,
            "header": [],
            "columns": [],
            "records": [],
            "anchors": [],
            "sort_by": [],
            "wrap": None,
            "generator": "meter_data",
            "stage": "initial",
            "writes": ["inputs/customers.csv", "inputs/readings.csv"],
        }
    ],
    "anchors": {
        "dst-demand": [
            {
                "table": "customer",
                "customer_id": "C102",
                "name": "Baumann Kältetechnik",
                "timezone": "Europe/Berlin",
                "tariff_id": "BIZ-DE",
            },
            {
                "table": "reading",
                "customer_id": "C102",
                "interval_start": "2025-10-27T05:45:00Z",
                "utc_offset": "+01:00",
                "kwh": "4.100",
                "kw": "75.00",
                "status": "actual",
            },
            {
                "table": "reading",
                "customer_id": "C102",
                "interval_start": "2025-10-28T18:45:00Z",
                "utc_offset": "+01:00",
                "kwh": "3.600",
                "kw": "50.00",
                "status": "actual",
            },
            {
                "table": "reading",
                "customer_id": "C102",
                "interval_start": "2025-10-03T08:00:00Z",
                "utc_offset": "+02:00",
                "kwh": "5.000",
                "kw": "80.00",
                "status": "actual",
            },
            {
                "table": "reading",
                "customer_id": "C102",
                "interval_start": "2025-10-04T10:00:00Z",
                "utc_offset": "+02:00",
                "kwh": "4.500",
                "kw": "72.00",
                "status": "estimated",
            },
        ],
        "demand-tie": [
            {
                "table": "customer",
                "customer_id": "C106",
                "name": "Isar Metallbau",
                "timezone": "Europe/Berlin",
                "tariff_id": "BIZ-DE",
            },
            {
                "table": "reading",
                "customer_id": "C106",
                "interval_start": "2025-10-22T12:30:00Z",
                "utc_offset": "+02:00",
                "kwh": "8.000",
                "kw": "33.25",
                "status": "actual",
            },
            {
                "table": "reading",
                "customer_id": "C106",
                "interval_start": "2025-10-08T08:00:00Z",
                "utc_offset": "+02:00",
                "kwh": "7.900",
                "kw": "33.25",
                "status": "actual",
            },
            {
                "table": "reading",
                "customer_id": "C106",
                "interval_start": "2025-10-08T18:00:00Z",
                "utc_offset": "+02:00",
                "kwh": "6.500",
                "kw": "40.00",
                "status": "actual",
            },
        ],
        "ie-holiday": [
            {
                "table": "customer",
                "customer_id": "C112",
                "name": "Kilbride Dairy",
                "timezone": "Europe/Dublin",
                "tariff_id": "BIZ-IE",
            },
            {
                "table": "reading",
                "customer_id": "C112",
                "interval_start": "2025-10-27T12:00:00Z",
                "utc_offset": "+00:00",
                "kwh": "4.000",
                "kw": "70.00",
                "status": "actual",
            },
            {
                "table": "reading",
                "customer_id": "C112",
                "interval_start": "2025-10-28T09:00:00Z",
                "utc_offset": "+00:00",
                "kwh": "6.250",
                "kw": "52.75",
                "status": "actual",
            },
        ],
        "ie-window": [
            {
                "table": "customer",
                "customer_id": "C113",
                "name": "Moran Brewing Co",
                "timezone": "Europe/Dublin",
                "tariff_id": "BIZ-IE",
            },
            {
                "table": "reading",
                "customer_id": "C113",
                "interval_start": "2025-10-14T18:00:00Z",
                "utc_offset": "+01:00",
                "kwh": "5.100",
                "kw": "66.00",
                "status": "actual",
            },
            {
                "table": "reading",
                "customer_id": "C113",
                "interval_start": "2025-10-16T06:45:00Z",
                "utc_offset": "+01:00",
                "kwh": "4.900",
                "kw": "64.00",
                "status": "actual",
            },
            {
                "table": "reading",
                "customer_id": "C113",
                "interval_start": "2025-10-15T07:00:00Z",
                "utc_offset": "+01:00",
                "kwh": "0.975",
                "kw": "58.25",
                "status": "actual",
            },
        ],
        "local-month": [
            {
                "table": "customer",
                "customer_id": "C101",
                "name": "Alster Druckerei",
                "timezone": "Europe/Berlin",
                "tariff_id": "BIZ-DE",
            },
            {
                "table": "customer",
                "customer_id": "C111",
                "name": "Fennelly Motors",
                "timezone": "Europe/Dublin",
                "tariff_id": "BIZ-IE",
            },
        ],
        "moved-out": [
            {
                "table": "customer",
                "customer_id": "C104",
                "name": "Spree Wäscherei",
                "timezone": "Europe/Berlin",
                "tariff_id": "BIZ-DE",
                "moved": "out",
            }
        ],
        "moved-in": [
            {
                "table": "customer",
                "customer_id": "C109",
                "name": "Lausitz Textil",
                "timezone": "Europe/Berlin",
                "tariff_id": "BIZ-DE",
                "moved": "in",
            }
        ],
    },
}

if __name__ == "__main__":
    sys.exit(benchlib.seed_main(TASK, HERE))
