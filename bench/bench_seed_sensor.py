"""Benchmark: corpus task 19's seed.py (1.2 million gzip CSV rows from an authored generator).

Side by side with a hand-written stdlib writer of the same bytes (the floor): the same draws
in the same order, one straight function writing the gzip file, no benchlib. Target:
seed.py <= 1.3x the floor (the seed's machinery must add little to the generator itself).
Both run as subprocesses with the corpus interpreter, alternating; the outputs are checked to
be identical (decompressed SHA-256). CPU seconds are shown beside the wall-clock times, since
on a shared machine the wall clock mostly measures the neighbours.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchsmith.pythons import default_python
from benchsmith.runtime.benchlib import file_digest

TASK = Path(__file__).resolve().parent.parent / "tasks" / "19-sensor-resample"

# The floor: task 19's fixture written by one plain function (see fixtures.py for the why).
FLOOR = """\
import datetime as dt, gzip, itertools, random, sys, tomllib
task, out = sys.argv[1], sys.argv[2]
spec = tomllib.load(open(task + "/task.toml", "rb"))
src = open(task + "/fixtures.py", encoding="utf-8").read()
table = src[src.index("SENSORS = ["):src.index("]\\n", src.index("SENSORS = [")) + 2]
names = {}
exec(table, names)
rng = random.Random("20260850/inputs/readings.csv.gz")
rnd = rng.random
start = dt.datetime(2026, 3, 1, tzinfo=dt.UTC)
days = [(start + dt.timedelta(days=d)).strftime("%Y-%m-%dT") for d in range(40)]
frac = [f"{n:03d}" for n in range(1000)]
clock = [f"{h:02d}:{m:02d}:{s:02d}." for h in range(24) for m in range(60) for s in range(60)]
windows = {}
order = ["bucket-boundary", "bad-excluded", "mean-half-up", "negative-means", "gap-threshold",
         "counter-reset", "counter-gap"]
anchors = {a["name"]: a["records"] for a in spec["anchors"]}
for name in order:
    recs = anchors[name]
    ms = [int((dt.datetime.fromisoformat(r["timestamp"]) - start) / dt.timedelta(milliseconds=1))
          for r in recs]
    good = [r["value"] for r in recs if r["status"] != "BAD"][-1]
    whole, _, part = good.partition(".")
    last = (abs(int(whole)) * 1000 + int(part)) * (-1 if good.startswith("-") else 1)
    lines = [f"{r['timestamp']},{r['sensor_id']},{r['value']},{r['status']}\\n" for r in recs]
    windows.setdefault(recs[0]["sensor_id"], []).append(
        (min(ms) // 300000 * 300000, (max(ms) // 300000 + 1) * 300000, lines, last))
def text(v):
    return f"{v // 1000}.{frac[v % 1000]}" if v >= 0 else f"-{-v // 1000}.{frac[-v % 1000]}"
every = []
for sensor, kind, low, high, step in names["SENSORS"]:
    wins = sorted(windows.get(sensor, []))
    anchored = [line for w in wins for line in w[2]]
    n = 40000 - len(anchored)
    steps = [50000 + int(rnd() * 20001) for _ in range(n + 400)]
    for k in rng.sample(range(n + 400), 12):
        steps[k] += 960000 + int(rnd() * 9840000)
    for k in rng.sample(range(n + 400), 12):
        steps[k] += 300000 + int(rnd() * 480000)
    times = list(itertools.accumulate(steps, initial=int(rnd() * 60000)))
    for first, end, _, _ in wins:
        times = [t for t in times if not first <= t < end]
    times = times[:n]
    if kind == "counter":
        value = wins[-1][3] if wins else int(rnd() * 9000000)
        top, cut = step + step // 8, step // 8
        rises = [d if (d := int(rnd() * top) - cut) > 0 else 0 for _ in range(n)]
        values = list(itertools.accumulate(rises, initial=value))[1:]
        for k in sorted(rng.sample(range(100, n), 5)):
            before = values[k - 1]
            if rnd() < 0.5 or before < 1000:
                drop = int(rnd() * 5000)
            else:
                drop = before - 1 - int(rnd() * 500)
            shift = drop - values[k]
            values[k:] = [v + shift for v in values[k:]]
    else:
        values = list(itertools.accumulate(
            [int(rnd() * (2 * step + 1)) - step for _ in range(n)],
            initial=low + int(rnd() * (high - low))))[1:]
        if min(values) < low or max(values) > high:
            span = high - low
            values = [low + (x if x <= span else 2 * span - x)
                      for x in ((v - low) % (2 * span) for v in values)]
    texts = [text(v) for v in values]
    status = ["OK"] * n
    for k in rng.sample(range(n), n // 100):
        status[k] = "EST"
    bad = ["", "0.000", "0.000", "99999999.999"] if kind == "counter" else [
        "", "-999.900", "9999.000", "0.000"]
    for k in sorted(rng.sample(range(1, n - 1), n // 80)):
        if (status[k - 1] != "BAD" and times[k - 1] // 300000 == times[k] // 300000
                and times[k + 1] - times[k - 1] < 840000):
            status[k], texts[k] = "BAD", bad[int(rnd() * 4)]
    every += anchored
    every += [f"{days[t // 86400000]}{clock[t // 1000 % 86400]}{frac[t % 1000]}Z,"
              f"{sensor},{x},{s}\\n" for t, x, s in zip(times, texts, status)]
every.sort()
with open(out, "wb") as raw:
    gz = gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0, compresslevel=6)
    gz.write(b"timestamp,sensor_id,value,status\\n")
    gz.write("".join(every).encode())
    gz.close()
"""


def timed(argv: list[str], cwd: Path) -> tuple[float, float]:
    """Wall-clock and CPU seconds (user + system) of one subprocess."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(argv, cwd=cwd, check=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    python = default_python()
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "floor.py").write_text(FLOOR, encoding="utf-8")
        seed_out, floor_out = Path(tmp) / "seeded", Path(tmp) / "floor.csv.gz"
        seed_argv = [python, "seed.py", "--out", str(seed_out)]
        floor_argv = [python, str(Path(tmp) / "floor.py"), str(TASK), str(floor_out)]
        seeded: list[tuple[float, float]] = []
        floor: list[tuple[float, float]] = []
        for _ in range(args.runs):
            seeded.append(timed(seed_argv, TASK))
            floor.append(timed(floor_argv, Path(tmp)))
        produced = seed_out / "inputs" / "readings.csv.gz"
        same = file_digest(produced) == file_digest(floor_out)
        size = produced.stat().st_size
    print(f"python={python} rows=1200000 runs={args.runs} compressed={size / 1e6:.1f} MB")
    for name, samples in (("seed.py", seeded), ("hand-written floor", floor)):
        wall = statistics.median(s[0] for s in samples)
        cpu = statistics.median(s[1] for s in samples)
        print(f"{name:20}  median wall {wall:.2f} s  cpu {cpu:.2f} s  samples {samples}")
    wall_ratio = statistics.median(s[0] for s in seeded) / statistics.median(s[0] for s in floor)
    cpu_ratio = statistics.median(s[1] for s in seeded) / statistics.median(s[1] for s in floor)
    print(f"ratio seed.py/floor: wall {wall_ratio:.2f}x, cpu {cpu_ratio:.2f}x (target <= 1.3x)")
    print(f"identical bytes: {same}")
    if not same:
        sys.exit("seed.py and the floor wrote different bytes")


if __name__ == "__main__":
    main()
