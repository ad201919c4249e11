"""Resample sensor readings into five-minute UTC buckets; list counter resets and gaps.

Usage: python -m solution.sensor_resample READINGS.csv.gz SENSORS.json --output DIR

The readings are read once, line by line; per sensor only its last good reading is kept,
per bucket and sensor a few integers. Values are handled as integers of thousandths (every
good value has exactly three decimals), so sums and means are exact.
"""

from __future__ import annotations

import argparse
import csv
import datetime as dt
import gzip
import json
from collections.abc import Iterator
from pathlib import Path

GAP_MS = 15 * 60 * 1000
HEADER = ["bucket_start", "sensor_id", "kind", "count", "min", "max", "mean", "delta"]


def number(thousandths: int) -> str:
    """A value in thousandths as text with exactly three decimals (never ``-0.000``)."""
    sign = "-" if thousandths < 0 else ""
    whole, fraction = divmod(abs(thousandths), 1000)
    return f"{sign}{whole}.{fraction:03d}"


def mean(total: int, count: int) -> int:
    """total / count rounded to an integer, halves away from zero."""
    rounded = (2 * abs(total) + count) // (2 * count)
    return -rounded if total < 0 else rounded


def minute_of(prefix: str) -> tuple[int, str]:
    """Epoch milliseconds and bucket start of a ``YYYY-MM-DDTHH:MM`` minute."""
    at = dt.datetime.fromisoformat(prefix + "+00:00")
    bucket = prefix[:15] + ("0:00Z" if prefix[15] < "5" else "5:00Z")
    return int(at.timestamp()) * 1000, bucket


def bucket_rows(bucket: str, found: dict[str, list[int]], kinds: dict[str, str]) -> list:
    """The finished rows of one bucket, sorted by sensor."""
    rows = []
    for sensor in sorted(found):
        row = found[sensor]
        if kinds[sensor] == "counter":
            rows.append([bucket, sensor, "counter", str(row[0]), "", "", "", number(row[1])])
        else:
            n, low, high, total = row
            rows.append(
                [bucket, sensor, "gauge", str(n), number(low), number(high),
                 number(mean(total, n)), ""]
            )  # fmt: skip
    return rows


def chunks(path: Path) -> Iterator[list[str]]:
    """The data lines of the gzip CSV file, a few megabytes at a time (header skipped; the
    file ends with a line break)."""
    with gzip.open(path, "rb") as raw:
        rest = raw.readline()[:0]
        while block := raw.read(1 << 22):
            block = rest + block
            cut = block.rfind(b"\n") + 1
            rest = block[cut:]
            yield block[:cut].decode("utf-8").splitlines()


def resample(path: Path, kinds: dict[str, str]) -> tuple[list, list, list]:
    """Read the readings once (they are in time order, so each bucket is finished when the
    next one starts); return the resampled rows, the resets and the gaps."""
    rows: list[list[str]] = []
    resets, gaps = [], []
    is_counter = {sensor: kind == "counter" for sensor, kind in kinds.items()}
    # Per sensor: the instant (epoch ms) and timestamp of its last good reading, and its value.
    state: dict[str, list] = {}
    prefix, bucket, minute = "", "", 0
    found: dict[str, list[int]] = {}
    for lines in chunks(path):
        for line in lines:
            stamp, sensor, value, status = line.split(",")
            if status == "BAD":
                continue
            if stamp[:16] != prefix:
                prefix = stamp[:16]
                minute, start = minute_of(prefix)
                if start != bucket:
                    rows += bucket_rows(bucket, found, kinds)
                    bucket, found = start, {}
            at = minute + int(stamp[17:19] + stamp[20:23])
            reading = int(value.replace(".", ""))
            last = state.get(sensor)
            if last is None:  # the sensor's first good reading: no gap, no delta
                state[sensor] = [at, stamp, reading]
                earlier = None
            else:
                if at - last[0] > GAP_MS:
                    gaps.append((sensor, last[1], stamp, number(at - last[0])))
                earlier = last[2]
                last[0], last[1], last[2] = at, stamp, reading
            row = found.get(sensor)
            if is_counter[sensor]:
                if row is None:
                    row = found[sensor] = [0, 0]
                row[0] += 1
                if earlier is not None:
                    if reading >= earlier:
                        row[1] += reading - earlier
                    else:
                        resets.append((sensor, stamp, number(earlier), number(reading)))
            elif row is None:
                found[sensor] = [1, reading, reading, reading]
            else:
                row[0] += 1
                if reading < row[1]:
                    row[1] = reading
                if reading > row[2]:
                    row[2] = reading
                row[3] += reading
    rows += bucket_rows(bucket, found, kinds)
    return rows, sorted(resets), sorted(gaps)


def write(path: Path, header: list[str], rows: list, compress: bool = False) -> None:
    opener = gzip.open if compress else open
    with opener(path, "wt", encoding="utf-8", newline="") as out:
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(header)
        writer.writerows(rows)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Resample sensor readings.")
    parser.add_argument("readings", type=Path)
    parser.add_argument("sensors", type=Path)
    parser.add_argument("--output", type=Path, required=True)
    args = parser.parse_args(argv)
    sensors = json.loads(args.sensors.read_text(encoding="utf-8"))["sensors"]
    rows, resets, gaps = resample(args.readings, {s["sensor_id"]: s["kind"] for s in sensors})
    args.output.mkdir(parents=True, exist_ok=True)
    write(args.output / "resampled.csv.gz", HEADER, rows, compress=True)
    write(args.output / "resets.csv", ["sensor_id", "timestamp", "previous_value", "value"], resets)
    write(args.output / "gaps.csv", ["sensor_id", "gap_start", "gap_end", "gap_seconds"], gaps)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
