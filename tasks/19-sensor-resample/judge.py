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
        {"path": "output/resampled.csv.gz", "format": "csv", "header": [], "stage": "initial"},
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
import csv
import datetime as dt
import hashlib
import io
import itertools
from decimal import ROUND_HALF_UP, Decimal

# JUDGE NOTES. The main fixture has 1.2 million readings; recomputing the truth from them in
# every judging would cost more than the candidate's run. So `truth` below (an independent
# Decimal/datetime calculation, never the reference's code) judges the edge fixture in full,
# and judged the main fixture once at authoring time: MAIN holds the row counts and SHA-256
# digests (first 16 hex digits) of its outputs, which the main checks compare in one pass
# over each candidate file. The digests hold while benchsmith.lock holds (the seed is locked);
# after a fixture change, recompute them with `main_digests` (see the task's commit log).
RESAMPLED = "output/resampled.csv.gz"
RESETS = "output/resets.csv"
GAPS = "output/gaps.csv"
HEADER = ["bucket_start", "sensor_id", "kind", "count", "min", "max", "mean", "delta"]
MAIN = {
    "rows": 240572,
    "keys": "db5b3fdd39918a17",
    "gauge": "2ba071335f491172",
    "counter": "f93d78de9cdd44d1",
    "resets": (52, "41e5d9a99647b882"),
    "gaps": (358, "206a4b76b6069a95"),
}
# Expected resampled rows of the anchors' buckets (task.toml), written by hand from their
# records: (bucket_start, sensor_id) -> (count, min, max, mean, delta); None: no row.
ANCHOR_ROWS: dict[tuple[str, str], tuple[str, str, str, str, str] | None] = {
    ("2026-03-05T10:00:00Z", "room-204-temp"): ("2", "21.500", "21.750", "21.625", ""),
    ("2026-03-05T10:05:00Z", "room-204-temp"): ("2", "22.250", "22.500", "22.375", ""),
    ("2026-03-07T14:20:00Z", "co2-open-office"): ("3", "812.000", "830.500", "822.542", ""),
    ("2026-03-09T08:15:00Z", "room-310-temp"): ("2", "19.000", "19.001", "19.001", ""),
    ("2026-03-03T05:30:00Z", "outdoor-temp"): ("2", "-2.689", "-2.688", "-2.689", ""),
    ("2026-03-03T05:35:00Z", "outdoor-temp"): ("3", "-0.001", "0.000", "0.000", ""),
    ("2026-03-03T05:40:00Z", "outdoor-temp"): ("2", "-0.002", "0.001", "-0.001", ""),
    ("2026-03-12T11:00:00Z", "press-hw-loop"): ("1", "201.500", "201.500", "201.500", ""),
    ("2026-03-12T11:05:00Z", "press-hw-loop"): None,
    ("2026-03-12T11:10:00Z", "press-hw-loop"): None,
    ("2026-03-12T11:15:00Z", "press-hw-loop"): ("1", "202.000", "202.000", "202.000", ""),
    ("2026-03-12T11:30:00Z", "press-hw-loop"): ("2", "203.000", "203.250", "203.125", ""),
    ("2026-03-01T00:00:00Z", "elec-chiller-kwh"): ("4", "", "", "", "0.750"),
    ("2026-03-01T00:05:00Z", "elec-chiller-kwh"): ("4", "", "", "", "0.625"),
    ("2026-03-01T00:00:00Z", "water-hot-m3"): ("2", "", "", "", "0.250"),
    ("2026-03-01T00:05:00Z", "water-hot-m3"): None,
    ("2026-03-01T00:20:00Z", "water-hot-m3"): ("3", "", "", "", "0.760"),
}
MILLI = Decimal("0.001")


def text(value: Decimal) -> str:
    """Three decimals, no negative zero."""
    return f"{value.quantize(MILLI, ROUND_HALF_UP) + 0:.3f}"


def truth(source: benchlib.Files) -> dict[str, list[list[str]]]:
    """TASK.md's three outputs recomputed from the pristine inputs (Decimal, datetime)."""
    kinds = {s["sensor_id"]: s["kind"] for s in source.json("inputs/sensors.json")["sensors"]}
    readings = csv.DictReader(io.StringIO(source.text("inputs/readings.csv.gz"), newline=""))
    history: dict[str, list[tuple[dt.datetime, str, Decimal]]] = {}
    for r in readings:
        if r["status"] != "BAD":
            at = dt.datetime.strptime(r["timestamp"], "%Y-%m-%dT%H:%M:%S.%fZ")
            history.setdefault(r["sensor_id"], []).append((at, r["timestamp"], Decimal(r["value"])))
    buckets: dict[tuple[str, str], list[Decimal]] = {}
    deltas: dict[tuple[str, str], Decimal] = {}
    resets, gaps = [], []
    for sensor, good in history.items():
        good.sort()
        for i, (at, stamp, value) in enumerate(good):
            start = at.replace(minute=at.minute - at.minute % 5, second=0, microsecond=0)
            key = (start.strftime("%Y-%m-%dT%H:%M:00Z"), sensor)
            buckets.setdefault(key, []).append(value)
            deltas.setdefault(key, Decimal(0))
            if i == 0:
                continue
            before, before_stamp, before_value = good[i - 1]
            seconds = Decimal((at - before) // dt.timedelta(milliseconds=1)) / 1000
            if seconds > 900:
                gaps.append([sensor, before_stamp, stamp, text(seconds)])
            if kinds[sensor] == "gauge":
                continue
            if value >= before_value:
                deltas[key] += value - before_value
            else:
                resets.append([sensor, stamp, text(before_value), text(value)])
    rows = []
    for (bucket, sensor), values in sorted(buckets.items()):
        row = [bucket, sensor, kinds[sensor], str(len(values))]
        if kinds[sensor] == "gauge":
            average = sum(values, Decimal(0)) / len(values)
            row += [text(min(values)), text(max(values)), text(average), ""]
        else:
            row += ["", "", "", text(deltas[(bucket, sensor)])]
        rows.append(row)
    return {RESAMPLED: rows, RESETS: sorted(resets), GAPS: sorted(gaps)}


def digest(rows: list[list[str]]) -> str:
    found = hashlib.sha256()
    for row in rows:
        found.update(("\x1f".join(row) + "\n").encode())
    return found.hexdigest()[:16]


def main_digests(outputs: dict[str, list[list[str]]]) -> dict[str, object]:
    """MAIN's values for the given outputs' data rows (headers excluded)."""
    rows = outputs[RESAMPLED]
    return {
        "rows": len(rows),
        "keys": digest([r[:4] for r in rows]),
        "gauge": digest([r for r in rows if r[2] == "gauge"]),
        "counter": digest([r for r in rows if r[2] == "counter"]),
        "resets": (len(outputs[RESETS]), digest(outputs[RESETS])),
        "gaps": (len(outputs[GAPS]), digest(outputs[GAPS])),
    }


def data(run: benchlib.Run, rel: str) -> list[list[str]]:
    """The candidate's data rows of an edge output."""
    if rel not in run.memo:
        run.memo[rel] = run.files.csv_rows(rel)[1:]
    return run.memo[rel]


BUCKET_MINUTES = {f"{m:02d}" for m in range(0, 60, 5)}
ANCHOR_BUCKETS = {bucket for bucket, _ in ANCHOR_ROWS}


class Resampled:
    """One pass over the candidate's resampled.csv.gz: order, digests, the anchors' rows."""

    def __init__(self, run: benchlib.Run) -> None:
        rows = run.files.csv_rows(RESAMPLED)
        self.header, rows = rows[0], rows[1:]
        self.count = len(rows)
        self.problem = ""
        self.anchors: dict[tuple[str, str], tuple[str, ...]] = {}
        keys, gauge, counter = hashlib.sha256(), hashlib.sha256(), hashlib.sha256()
        before = ("", "")
        for number, row in enumerate(rows, start=2):
            key = (row[0], row[1])
            if not self.problem and (
                row[0][14:16] not in BUCKET_MINUTES or row[0][16:] != ":00Z" or key <= before
            ):
                self.problem = f"row {number}: {key} is off the five-minute grid or out of order"
            before = key
            line = "\x1f".join(row) + "\n"
            keys.update(("\x1f".join(row[:4]) + "\n").encode())
            (gauge if row[2] == "gauge" else counter).update(line.encode())
            if row[0] in ANCHOR_BUCKETS and key in ANCHOR_ROWS:
                self.anchors[key] = tuple(row[3:])
        self.keys = keys.hexdigest()[:16]
        self.gauge = gauge.hexdigest()[:16]
        self.counter = counter.hexdigest()[:16]


def resampled(run: benchlib.Run) -> Resampled:
    if "resampled" not in run.memo:
        run.memo["resampled"] = Resampled(run)
    return run.memo["resampled"]


@judge.check(level=3)
def resampled_is_gzip(run: benchlib.Run) -> None:
    """resampled.csv.gz is really gzip-compressed and has the stated header."""
    with run.files.path(RESAMPLED).open("rb") as raw:
        benchlib.expect(raw.read(2) == b"\x1f\x8b", f"{RESAMPLED}: not gzip-compressed")
    benchlib.expect_equal(resampled(run).header, HEADER, f"{RESAMPLED} header")


@judge.check(level=3)
def bucket_rows(run: benchlib.Run) -> None:
    """One row per bucket and sensor with a good reading, its kind and count, in order."""
    found = resampled(run)
    benchlib.expect(not found.problem, f"{RESAMPLED}: {found.problem}")
    benchlib.expect_equal(found.count, MAIN["rows"], f"{RESAMPLED} rows")
    benchlib.expect_equal(found.keys, MAIN["keys"], "digest of bucket_start,sensor_id,kind,count")


@judge.check(level=3)
def gauge_aggregates(run: benchlib.Run) -> None:
    """Gauge rows: exact min, max and mean (half up, three decimals), delta empty."""
    benchlib.expect_equal(resampled(run).gauge, MAIN["gauge"], "digest of the gauge rows")


@judge.check(level=4)
def anchor_buckets(run: benchlib.Run) -> None:
    """The anchors' buckets have their hand-computed rows (or no row)."""
    found = resampled(run).anchors
    wrong = [
        f"{key}: {found.get(key)} != {want}"
        for key, want in ANCHOR_ROWS.items()
        if found.get(key) != want
    ]
    benchlib.expect(not wrong, f"anchor buckets wrong: {wrong[:3]}")


@judge.check(level=4)
def counter_deltas(run: benchlib.Run) -> None:
    """Counter rows: deltas of consecutive good readings in the later reading's bucket."""
    benchlib.expect_equal(resampled(run).counter, MAIN["counter"], "digest of the counter rows")


def listed(run: benchlib.Run, rel: str, want: tuple[int, str]) -> None:
    """A small main output's data rows have MAIN's (count, digest). At most one row more
    than the true count is read: a longer file is wrong whatever follows (a hostile
    candidate writes 650,000 rows here). Reading the file directly is safe because the
    level-2 gate already parsed all of it through ``run.files`` (size limit, regular file,
    UTF-8, CSV shape and header)."""
    with run.files.path(rel).open(encoding="utf-8", newline="") as stream:
        rows = list(itertools.islice(csv.reader(stream), 1, want[0] + 2))
    what = f"{rel.removeprefix('output/')} (rows, digest)"
    benchlib.expect(len(rows) <= want[0], f"{what}: expected {want[0]} rows, got more")
    benchlib.expect_equal((len(rows), digest(rows)), want, what)


@judge.check(level=4)
def resets_listed(run: benchlib.Run) -> None:
    """resets.csv: every decrease of a counter, sorted by sensor_id, then timestamp."""
    listed(run, RESETS, MAIN["resets"])


@judge.check(level=4)
def gaps_listed(run: benchlib.Run) -> None:
    """gaps.csv: every gap of more than 900 s, sorted by sensor_id, then gap_start."""
    listed(run, GAPS, MAIN["gaps"])


@judge.edge
def edge_outputs(run: benchlib.Run) -> None:
    """Edge: every output equals the recomputed truth (BAD-only buckets have no row)."""
    for rel, want in truth(run.source).items():
        got = data(run, rel)
        benchlib.expect_equal(got, want, rel)


# endregion authored

if __name__ == "__main__":
    sys.exit(judge.main())
