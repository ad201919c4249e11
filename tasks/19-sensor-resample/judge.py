# generated from task.toml by benchsmith -- edit only the authored region
"""Judge of task 19: Sensor Resampling and Gap Report.

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
    "id": 19,
    "slug": "sensor-resample",
    "stages": ["initial"],
    "editable": ["solution/", "output/"],
    "commands": [
        {
            "run": "python -m solution.sensor_resample inputs/readings.csv.gz inputs/sensors.json --output output",
            "argv": [
                "python",
                "-m",
                "solution.sensor_resample",
                "inputs/readings.csv.gz",
                "inputs/sensors.json",
                "--output",
                "output",
            ],
            "cwd": ".",
            "stdin": None,
            "stage": "initial",
            "timeout": 60.0,
        }
    ],
    "outputs": [
        {
            "path": "output/resampled.csv.gz",
            "format": "csv",
            "header": ["bucket_start", "sensor_id", "kind", "count", "min", "max", "mean", "delta"],
            "stage": "initial",
        },
        {
            "path": "output/resets.csv",
            "format": "csv",
            "header": ["sensor_id", "timestamp", "previous_value", "value"],
            "stage": "initial",
        },
        {
            "path": "output/gaps.csv",
            "format": "csv",
            "header": ["sensor_id", "gap_start", "gap_end", "gap_seconds"],
            "stage": "initial",
        },
    ],
    "expect": [
        {
            "name": "gap-threshold#1",
            "file": "output/gaps.csv",
            "level": 4,
            "where": {"sensor_id": "press-hw-loop", "gap_start": "2026-03-12T11:15:10.000Z"},
            "equals": {"gap_end": "2026-03-12T11:30:10.001Z", "gap_seconds": "900.001"},
        },
        {
            "name": "gap-threshold#2",
            "file": "output/gaps.csv",
            "level": 4,
            "where": {"sensor_id": "press-hw-loop", "gap_start": "2026-03-12T11:00:10.000Z"},
            "count": 0,
        },
        {
            "name": "counter-reset#1",
            "file": "output/resets.csv",
            "level": 4,
            "where": {"sensor_id": "elec-chiller-kwh", "timestamp": "2026-03-01T00:06:30.000Z"},
            "equals": {"previous_value": "1521.125", "value": "2.500"},
        },
        {
            "name": "counter-reset#2",
            "file": "output/resets.csv",
            "level": 4,
            "where": {"sensor_id": "elec-chiller-kwh", "timestamp": "2026-03-01T00:03:20.000Z"},
            "count": 0,
        },
        {
            "name": "counter-gap#1",
            "file": "output/gaps.csv",
            "level": 4,
            "where": {"sensor_id": "water-hot-m3", "gap_start": "2026-03-01T00:02:00.000Z"},
            "equals": {"gap_end": "2026-03-01T00:21:30.000Z", "gap_seconds": "1170.000"},
        },
        {
            "name": "counter-gap#2",
            "file": "output/resets.csv",
            "level": 4,
            "where": {"sensor_id": "water-hot-m3", "timestamp": "2026-03-01T00:23:10.000Z"},
            "equals": {"previous_value": "881.000", "value": "880.990"},
        },
    ],
    "edge_expect": [
        {
            "name": "edge#1",
            "file": "output/resampled.csv.gz",
            "level": 4,
            "where": {"bucket_start": "2026-03-02T10:05:00Z"},
            "count": 0,
        },
        {
            "name": "edge#2",
            "file": "output/gaps.csv",
            "level": 4,
            "where": {"sensor_id": "room-101-temp"},
            "equals": {
                "gap_start": "2026-03-02T10:02:10.000Z",
                "gap_end": "2026-03-02T10:18:40.000Z",
                "gap_seconds": "990.000",
            },
        },
        {
            "name": "edge#3",
            "file": "output/resampled.csv.gz",
            "level": 4,
            "where": {"bucket_start": "2026-03-02T10:10:00Z", "sensor_id": "gas-boiler-m3"},
            "equals": {"count": "1", "delta": "0.700"},
        },
    ],
    "edge_include_visible": True,
    "services": [],
}

judge = benchlib.Judge(TASK)


# region authored: benchsmith keeps these lines when it rebuilds judge.py
@judge.check(level=3)
def core_transformation(run: benchlib.Run) -> None:
    """TODO: the core transformation is substantially correct."""
    benchlib.expect(False, "TODO: write the level-3 checks of this task")


@judge.check(level=4)
def stated_rules(run: benchlib.Run) -> None:
    """TODO: every stated business rule holds on the main fixture."""
    benchlib.expect(False, "TODO: write the level-4 checks of this task")


@judge.edge
def edge_rule(run: benchlib.Run) -> None:
    """TODO: the edge rule holds on the edge fixture."""
    benchlib.expect(False, "TODO: write the edge check of this task")


# endregion authored

if __name__ == "__main__":
    sys.exit(judge.main())
