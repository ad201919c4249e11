# generated from task.toml by benchsmith -- do not edit
"""Write the fixture of task 19: Sensor Resampling and Gap Report.

Usage: python seed.py --out DIR [--fixture main|edge] [--stage N|final] [--only]

Every filler stream is random.Random(f"{SEED}/{path}") with SEED = 20260831 + 19;
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
    "id": 19,
    "seed": 20260850,
    "stages": ["initial"],
    "files": [
        {
            "path": "inputs/readings.csv.gz",
            "format": None,
            "compressed": False,
            "rows": None,
            "header": [],
            "columns": [],
            "records": [],
            "anchors": [],
            "sort_by": [],
            "wrap": None,
            "generator": "sensor_readings",
            "stage": "initial",
            "writes": ["inputs/readings.csv.gz"],
        }
    ],
    "edge_files": [
        {
            "path": "inputs/readings.csv.gz",
            "format": "csv",
            "compressed": True,
            "rows": None,
            "header": ["timestamp", "sensor_id", "value", "status"],
            "columns": [],
            "records": [
                {
                    "timestamp": "2026-03-02T10:00:30.000Z",
                    "sensor_id": "room-101-temp",
                    "value": "20.000",
                    "status": "OK",
                },
                {
                    "timestamp": "2026-03-02T10:01:00.000Z",
                    "sensor_id": "gas-boiler-m3",
                    "value": "500.000",
                    "status": "OK",
                },
                {
                    "timestamp": "2026-03-02T10:02:10.000Z",
                    "sensor_id": "room-101-temp",
                    "value": "20.500",
                    "status": "OK",
                },
                {
                    "timestamp": "2026-03-02T10:04:00.000Z",
                    "sensor_id": "gas-boiler-m3",
                    "value": "500.200",
                    "status": "OK",
                },
                {
                    "timestamp": "2026-03-02T10:06:00.000Z",
                    "sensor_id": "room-101-temp",
                    "value": "85.000",
                    "status": "BAD",
                },
                {
                    "timestamp": "2026-03-02T10:07:00.000Z",
                    "sensor_id": "gas-boiler-m3",
                    "value": "0.000",
                    "status": "BAD",
                },
                {
                    "timestamp": "2026-03-02T10:08:30.000Z",
                    "sensor_id": "room-101-temp",
                    "value": "",
                    "status": "BAD",
                },
                {
                    "timestamp": "2026-03-02T10:09:00.000Z",
                    "sensor_id": "gas-boiler-m3",
                    "value": "0.000",
                    "status": "BAD",
                },
                {
                    "timestamp": "2026-03-02T10:13:00.000Z",
                    "sensor_id": "gas-boiler-m3",
                    "value": "500.900",
                    "status": "OK",
                },
                {
                    "timestamp": "2026-03-02T10:18:40.000Z",
                    "sensor_id": "room-101-temp",
                    "value": "21.000",
                    "status": "OK",
                },
                {
                    "timestamp": "2026-03-02T10:19:50.000Z",
                    "sensor_id": "room-101-temp",
                    "value": "21.250",
                    "status": "OK",
                },
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
        "bucket-boundary": [
            {
                "timestamp": "2026-03-05T10:01:10.000Z",
                "sensor_id": "room-204-temp",
                "value": "21.500",
                "status": "OK",
            },
            {
                "timestamp": "2026-03-05T10:04:59.999Z",
                "sensor_id": "room-204-temp",
                "value": "21.750",
                "status": "OK",
            },
            {
                "timestamp": "2026-03-05T10:05:00.000Z",
                "sensor_id": "room-204-temp",
                "value": "22.500",
                "status": "OK",
            },
            {
                "timestamp": "2026-03-05T10:08:20.000Z",
                "sensor_id": "room-204-temp",
                "value": "22.250",
                "status": "OK",
            },
        ],
        "bad-excluded": [
            {
                "timestamp": "2026-03-07T14:20:05.500Z",
                "sensor_id": "co2-open-office",
                "value": "812.000",
                "status": "OK",
            },
            {
                "timestamp": "2026-03-07T14:21:06.250Z",
                "sensor_id": "co2-open-office",
                "value": "9999.000",
                "status": "BAD",
            },
            {
                "timestamp": "2026-03-07T14:22:07.000Z",
                "sensor_id": "co2-open-office",
                "value": "",
                "status": "BAD",
            },
            {
                "timestamp": "2026-03-07T14:23:08.750Z",
                "sensor_id": "co2-open-office",
                "value": "830.500",
                "status": "OK",
            },
            {
                "timestamp": "2026-03-07T14:24:09.000Z",
                "sensor_id": "co2-open-office",
                "value": "825.125",
                "status": "EST",
            },
        ],
        "mean-half-up": [
            {
                "timestamp": "2026-03-09T08:15:30.000Z",
                "sensor_id": "room-310-temp",
                "value": "19.000",
                "status": "OK",
            },
            {
                "timestamp": "2026-03-09T08:17:30.000Z",
                "sensor_id": "room-310-temp",
                "value": "19.001",
                "status": "OK",
            },
        ],
        "negative-means": [
            {
                "timestamp": "2026-03-03T05:30:40.000Z",
                "sensor_id": "outdoor-temp",
                "value": "-2.688",
                "status": "OK",
            },
            {
                "timestamp": "2026-03-03T05:32:40.000Z",
                "sensor_id": "outdoor-temp",
                "value": "-2.689",
                "status": "OK",
            },
            {
                "timestamp": "2026-03-03T05:35:40.000Z",
                "sensor_id": "outdoor-temp",
                "value": "-0.001",
                "status": "OK",
            },
            {
                "timestamp": "2026-03-03T05:36:40.000Z",
                "sensor_id": "outdoor-temp",
                "value": "0.000",
                "status": "OK",
            },
            {
                "timestamp": "2026-03-03T05:38:40.000Z",
                "sensor_id": "outdoor-temp",
                "value": "0.000",
                "status": "EST",
            },
            {
                "timestamp": "2026-03-03T05:40:40.000Z",
                "sensor_id": "outdoor-temp",
                "value": "-0.002",
                "status": "OK",
            },
            {
                "timestamp": "2026-03-03T05:41:40.000Z",
                "sensor_id": "outdoor-temp",
                "value": "0.001",
                "status": "OK",
            },
        ],
        "gap-threshold": [
            {
                "timestamp": "2026-03-12T11:00:10.000Z",
                "sensor_id": "press-hw-loop",
                "value": "201.500",
                "status": "OK",
            },
            {
                "timestamp": "2026-03-12T11:15:10.000Z",
                "sensor_id": "press-hw-loop",
                "value": "202.000",
                "status": "OK",
            },
            {
                "timestamp": "2026-03-12T11:30:10.001Z",
                "sensor_id": "press-hw-loop",
                "value": "203.250",
                "status": "OK",
            },
            {
                "timestamp": "2026-03-12T11:33:00.000Z",
                "sensor_id": "press-hw-loop",
                "value": "203.000",
                "status": "OK",
            },
        ],
        "counter-reset": [
            {
                "timestamp": "2026-03-01T00:00:20.000Z",
                "sensor_id": "elec-chiller-kwh",
                "value": "1520.250",
                "status": "OK",
            },
            {
                "timestamp": "2026-03-01T00:01:20.000Z",
                "sensor_id": "elec-chiller-kwh",
                "value": "1520.750",
                "status": "OK",
            },
            {
                "timestamp": "2026-03-01T00:02:20.000Z",
                "sensor_id": "elec-chiller-kwh",
                "value": "0.000",
                "status": "BAD",
            },
            {
                "timestamp": "2026-03-01T00:03:20.000Z",
                "sensor_id": "elec-chiller-kwh",
                "value": "1521.000",
                "status": "OK",
            },
            {
                "timestamp": "2026-03-01T00:04:59.999Z",
                "sensor_id": "elec-chiller-kwh",
                "value": "1521.000",
                "status": "OK",
            },
            {
                "timestamp": "2026-03-01T00:05:00.000Z",
                "sensor_id": "elec-chiller-kwh",
                "value": "1521.125",
                "status": "OK",
            },
            {
                "timestamp": "2026-03-01T00:06:30.000Z",
                "sensor_id": "elec-chiller-kwh",
                "value": "2.500",
                "status": "OK",
            },
            {
                "timestamp": "2026-03-01T00:08:00.000Z",
                "sensor_id": "elec-chiller-kwh",
                "value": "2.875",
                "status": "EST",
            },
            {
                "timestamp": "2026-03-01T00:09:40.000Z",
                "sensor_id": "elec-chiller-kwh",
                "value": "3.000",
                "status": "OK",
            },
        ],
        "counter-gap": [
            {
                "timestamp": "2026-03-01T00:00:45.000Z",
                "sensor_id": "water-hot-m3",
                "value": "880.100",
                "status": "OK",
            },
            {
                "timestamp": "2026-03-01T00:02:00.000Z",
                "sensor_id": "water-hot-m3",
                "value": "880.350",
                "status": "OK",
            },
            {
                "timestamp": "2026-03-01T00:21:30.000Z",
                "sensor_id": "water-hot-m3",
                "value": "881.000",
                "status": "OK",
            },
            {
                "timestamp": "2026-03-01T00:23:10.000Z",
                "sensor_id": "water-hot-m3",
                "value": "880.990",
                "status": "OK",
            },
            {
                "timestamp": "2026-03-01T00:24:50.000Z",
                "sensor_id": "water-hot-m3",
                "value": "881.100",
                "status": "OK",
            },
        ],
    },
}

if __name__ == "__main__":
    sys.exit(benchlib.seed_main(TASK, HERE))
