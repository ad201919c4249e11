# generated from task.toml by benchsmith -- do not edit
"""Write the fixture of task 13: Cross-Service Incident Timeline.

Usage: python seed.py --out DIR [--fixture main|edge] [--stage N|final] [--only]

Every filler stream is random.Random(f"{SEED}/{path}") with SEED = 20260831 + 13;
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
    "id": 13,
    "seed": 20260844,
    "stages": ["initial", "db-batch", "clock-offsets", "monitor"],
    "files": [
        {
            "path": "inputs/logs",
            "format": None,
            "compressed": False,
            "rows": None,
            "header": [],
            "columns": [],
            "records": [],
            "anchors": [],
            "sort_by": [],
            "wrap": None,
            "generator": "incident_logs",
            "stage": "initial",
            "writes": ["inputs/logs"],
        },
        {
            "path": "inputs/logs/db-extra.log.gz",
            "format": None,
            "compressed": False,
            "rows": None,
            "header": [],
            "columns": [],
            "records": [],
            "anchors": [],
            "sort_by": [],
            "wrap": None,
            "generator": "db_extra",
            "stage": "db-batch",
            "writes": ["inputs/logs/db-extra.log.gz"],
        },
        {
            "path": "inputs/monitor_replay.log",
            "format": None,
            "compressed": False,
            "rows": None,
            "header": [],
            "columns": [],
            "records": [],
            "anchors": [],
            "sort_by": [],
            "wrap": None,
            "generator": "monitor_replay",
            "stage": "monitor",
            "writes": ["inputs/monitor_replay.log"],
        },
    ],
    "edge_files": [],
    "anchors": {
        "schema-drop": [
            {
                "target": "orders",
                "release": "2025.04.17.3",
                "column": "customer_status",
                "operation": "ALTER TABLE customers DROP COLUMN customer_status",
                "deploy_start": "2025-04-17T14:04:10.250Z",
                "schema_at": "2025-04-17T14:04:31.500Z",
                "schema_logged": "2025-04-17T14:04:33.350Z",
                "applied_at": "2025-04-17T14:04:32.100Z",
                "applied_logged": "2025-04-17 14:04:31.800 UTC",
                "done_at": "2025-04-17T14:04:58.000Z",
            }
        ],
        "first-failure": [
            {
                "request_id": "7d3e9a41c2b8",
                "instance": "gw-a",
                "method": "POST",
                "path": "/api/checkout",
                "error_at": "2025-04-17T14:04:33.100Z",
                "error_logged": "2025-04-17 16:04:28,900+0200",
                "response_at": "2025-04-17T14:04:33.160Z",
                "response_logged": "17/Apr/2025:14:04:33.160 +0000",
            }
        ],
        "hotfix": [
            {
                "target": "orders",
                "release": "2025.04.17.4",
                "operation": "ALTER TABLE customers ADD COLUMN customer_status text",
                "deploy_start": "2025-04-17T14:17:31.000Z",
                "schema_at": "2025-04-17T14:17:50.000Z",
                "done_at": "2025-04-17T14:18:20.000Z",
                "failures_until": "2025-04-17T14:17:57.000Z",
            }
        ],
        "upstream-timeouts": [
            {
                "request_id": "c6a20f4e8b93",
                "instance": "gw-b",
                "path": "/api/search?q=rug+lamp",
                "response_at": "2025-04-17T14:02:47.310Z",
            },
            {
                "request_id": "a41f0c9e2d17",
                "instance": "gw-b",
                "path": "/api/search?q=lamp+rug",
                "response_at": "2025-04-17T14:12:05.400Z",
                "response_logged": "17/Apr/2025:16:12:05.400 +0200",
            },
            {
                "request_id": "0b8e55f1c3a2",
                "instance": "gw-a",
                "path": "/api/search?q=sofa+vase",
                "response_at": "2025-04-17T14:19:41.210Z",
            },
            {
                "request_id": "e9c2d4707f15",
                "instance": "gw-b",
                "path": "/api/search?q=mug+shelf",
                "response_at": "2025-04-17T14:26:13.900Z",
            },
            {
                "request_id": "5f13b0ae98c4",
                "instance": "gw-a",
                "path": "/api/search?q=desk+lamp",
                "response_at": "2025-04-17T14:29:59.600Z",
                "aborted_at": "2025-04-17T14:30:00.300Z",
            },
        ],
        "window-edges": [
            {
                "kind": "db",
                "true_at": "2025-04-17T14:00:00.150Z",
                "level": "FATAL",
                "code": "CONNECTION_LOST",
                "text": "terminating connection due to administrator command",
            },
            {
                "kind": "db",
                "true_at": "2025-04-17T14:30:00.100Z",
                "level": "ERROR",
                "code": "DEADLOCK_DETECTED",
                "text": "deadlock detected; transaction retried",
            },
            {
                "kind": "db",
                "true_at": "2025-04-17T14:00:00.000Z",
                "level": "ERROR",
                "code": "STATEMENT_TIMEOUT",
                "text": "canceling statement due to statement timeout",
            },
            {
                "kind": "db",
                "true_at": "2025-04-17T14:30:00.000Z",
                "level": "ERROR",
                "code": "STATEMENT_TIMEOUT",
                "text": "canceling statement due to statement timeout",
            },
            {
                "kind": "health",
                "target": "orders",
                "true_at": "2025-04-17T13:59:59.050Z",
                "logged": "2025-04-17T14:00:00.900Z",
            },
            {
                "kind": "health",
                "target": "orders",
                "true_at": "2025-04-17T14:29:59.050Z",
                "logged": "2025-04-17T14:30:00.900Z",
            },
        ],
        "legacy-decoy": [
            {
                "request_id": "b7e14c0a9d25",
                "instance": "gw-a",
                "path": "/api/invoices/INV-40321",
                "error_at": "2025-04-17T14:02:05.420Z",
                "response_at": "2025-04-17T14:02:05.480Z",
            }
        ],
        "monitor-edges": [
            {
                "kind": "failure",
                "request_id": "e40b9d2c7a16",
                "instance": "gw-b",
                "method": "GET",
                "path": "/api/orders/O-551904",
                "error_at": "2025-04-17T14:06:01.500Z",
                "response_at": "2025-04-17T14:06:01.570Z",
            },
            {"kind": "background", "error_at": "2025-04-17T14:05:41.000Z"},
        ],
    },
}

if __name__ == "__main__":
    sys.exit(benchlib.seed_main(TASK, HERE))
