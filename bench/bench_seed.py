"""Benchmark: seed.py throughput on a 1.2-million-row gzip CSV declared in the DSL.

Side by side with a hand-written stdlib writer that produces the same bytes (the floor);
target: seed.py <= 1.3x the floor. Both run as subprocesses with the corpus interpreter,
alternating, and the outputs are checked to be identical (decompressed SHA-256).
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchsmith.building import build
from benchsmith.pythons import default_python
from benchsmith.runtime.benchlib import file_digest

ROWS = 1_200_000
TASK = f"""\
id = 19
slug = "sensor-bench"
title = "Sensor benchmark"
pressure = "N"
command = "python -m solution.main"
prose = "Benchmark fixture."

[[files]]
path = "inputs/readings.csv.gz"
rows = {ROWS}
columns.reading_id = {{ seq = "R{{:07d}}" }}
columns.sensor = {{ choice = ["s01", "s02", "s03", "s04", "s05", "s06", "s07", "s08"] }}
columns.taken_at = {{ datetime = ["2025-01-01T00:00:00Z", "2025-03-31T23:59:59Z"] }}
columns.value = {{ decimal = ["-40.00", "120.00"] }}
columns.status = {{ choice = ["ok", "drift", "fault"], weights = [90, 8, 2] }}

[edge]
rule = "none"
"""

# The floor: the same draws in the same order, written by one straight loop.
FLOOR = """\
import bisect, csv, datetime as dt, gzip, io, itertools, random, sys
out, seed, rows = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
rng = random.Random(f"{seed}/inputs/readings.csv.gz")
sensors = ["s01", "s02", "s03", "s04", "s05", "s06", "s07", "s08"]
start = dt.datetime(2025, 1, 1, tzinfo=dt.timezone.utc)
span = int((dt.datetime(2025, 3, 31, 23, 59, 59, tzinfo=dt.timezone.utc) - start).total_seconds())
cum = list(itertools.accumulate([90, 8, 2])); total = cum[-1]; statuses = ["ok", "drift", "fault"]
randint, choice, uniform, delta = rng.randint, rng.choice, rng.random, dt.timedelta
def money(units):
    sign = "-" if units < 0 else ""
    whole, frac = divmod(abs(units), 100)
    return f"{sign}{whole}.{frac:02d}"
with open(out, "wb") as raw:
    gz = gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0, compresslevel=6)
    text = io.TextIOWrapper(gz, encoding="utf-8", newline="")
    writer = csv.writer(text, lineterminator="\\n")
    writer.writerow(["reading_id", "sensor", "taken_at", "value", "status"])
    writer.writerows(
        [f"R{i + 1:07d}", choice(sensors),
         (start + delta(seconds=randint(0, span))).strftime("%Y-%m-%dT%H:%M:%SZ"),
         money(randint(-4000, 12000)), statuses[bisect.bisect(cum, uniform() * total)]]
        for i in range(rows)
    )
    text.flush(); text.detach(); gz.close()
"""


def timed(argv: list[str], cwd: Path) -> float:
    start = time.perf_counter()
    subprocess.run(argv, cwd=cwd, check=True)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    python = default_python()
    with tempfile.TemporaryDirectory() as tmp:
        task = Path(tmp) / "corpus" / "19-sensor-bench"
        task.mkdir(parents=True)
        (task / "task.toml").write_text(TASK, encoding="utf-8")
        (Path(tmp) / "floor.py").write_text(FLOOR, encoding="utf-8")
        build([task])
        seed_out, floor_out = Path(tmp) / "seeded", Path(tmp) / "floor.csv.gz"
        seed_argv = [python, "seed.py", "--out", str(seed_out)]
        floor_argv = [
            python,
            str(Path(tmp) / "floor.py"),
            str(floor_out),
            str(20260831 + 19),
            str(ROWS),
        ]
        dsl, floor = [], []
        for _ in range(args.runs):
            dsl.append(timed(seed_argv, task))
            floor.append(timed(floor_argv, Path(tmp)))
        produced = seed_out / "inputs" / "readings.csv.gz"
        same = file_digest(produced) == file_digest(floor_out)
        size = produced.stat().st_size
    ratio = statistics.median(dsl) / statistics.median(floor)
    print(f"python={python} rows={ROWS} runs={args.runs} compressed={size / 1e6:.1f} MB")
    for name, samples in (("seed.py (DSL)", dsl), ("hand-written floor", floor)):
        rounded = [round(s, 2) for s in samples]
        print(f"{name:20}  median {statistics.median(samples):.2f} s  samples {rounded}")
    print(f"ratio DSL/floor: {ratio:.2f}x (target <= 1.3x); identical bytes: {same}")
    if not same:
        sys.exit("seed.py and the floor wrote different bytes")


if __name__ == "__main__":
    main()
