"""Fixture generator of task 19: four weeks of building-sensor readings, 1,200,000 CSV rows.

Thirty sensors (``SENSORS``, the same list as ``visible/inputs/sensors.json``) each report
about once a minute (50-70 s apart, millisecond timestamps) from 2026-03-01T00:00Z, 40,000
rows per sensor, so the file spans about four weeks. Each sensor's readings are generated in
one loop; all lines are then sorted (the fixed-width UTC timestamps sort chronologically),
which interleaves the sensors the way a gateway export does.

Filler rules that matter to the task:

- Outages: a few readings per sensor are followed by 16 minutes to 3 hours of silence (a gap)
  or by 5 to 13 extra minutes (no gap).
- ``EST`` (estimated) readings are good readings; ``BAD`` readings carry nonsense or empty
  values. A filler ``BAD`` reading always has a good reading of its sensor in the same bucket
  before it, and its good neighbours are less than 15 minutes apart, so a bucket never has
  only BAD readings and a BAD reading never hides a gap: those are the edge fixture's cases.
- Counters rise by 0 to 0.4 units a reading (often exactly 0) and now and then restart
  (meter swapped: a small value) or glitch (a value slightly below the previous one).

The anchors of task.toml (records without a ``file``) are hand-written readings. Every
anchor owns whole five-minute buckets of its sensor: filler readings inside them are left
out, so the expected rows of those buckets follow from the records alone. Counter anchors
sit at the start of their sensor's history (nothing before them).
"""

from __future__ import annotations

import datetime as dt
import itertools

import benchlib

PER_SENSOR = 40_000
HEADER = "timestamp,sensor_id,value,status\n"
START = dt.datetime(2026, 3, 1, tzinfo=dt.UTC)
BUCKET = 300_000  # milliseconds
DAYS = [(START + dt.timedelta(days=d)).strftime("%Y-%m-%dT") for d in range(40)]
FRACTION = [f"{n:03d}" for n in range(1000)]
CLOCK = [f"{h:02d}:{m:02d}:{s:02d}." for h in range(24) for m in range(60) for s in range(60)]
ANCHORS = [
    "bucket-boundary",
    "bad-excluded",
    "mean-half-up",
    "negative-means",
    "gap-threshold",
    "counter-reset",
    "counter-gap",
]
# sensor_id, kind, low and high value and largest step (thousandths).
SENSORS = [
    ("outdoor-temp", "gauge", -8000, 15000, 40),
    ("outdoor-hum", "gauge", 35000, 95000, 300),
    ("elec-main-kwh", "counter", 0, 0, 400),
    ("room-101-temp", "gauge", 18000, 25000, 20),
    ("room-204-temp", "gauge", 18000, 25000, 20),
    ("room-310-temp", "gauge", 18000, 25000, 20),
    ("co2-lobby", "gauge", 400000, 1400000, 4000),
    ("co2-meeting-a", "gauge", 400000, 1800000, 6000),
    ("co2-open-office", "gauge", 400000, 1200000, 3000),
    ("hum-lobby", "gauge", 25000, 60000, 150),
    ("hum-open-office", "gauge", 25000, 60000, 150),
    ("ahu1-supply-temp", "gauge", 12000, 20000, 60),
    ("ahu1-return-temp", "gauge", 19000, 27000, 40),
    ("ahu2-supply-temp", "gauge", 12000, 20000, 60),
    ("ahu2-return-temp", "gauge", 19000, 27000, 40),
    ("elec-ahu1-kwh", "counter", 0, 0, 150),
    ("boiler-flow-temp", "gauge", 55000, 80000, 120),
    ("boiler-return-temp", "gauge", 40000, 65000, 120),
    ("gas-boiler-m3", "counter", 0, 0, 60),
    ("heat-hw-loop-kwh", "counter", 0, 0, 300),
    ("press-hw-loop", "gauge", 150000, 250000, 500),
    ("chiller-supply-temp", "gauge", 5000, 9000, 30),
    ("elec-chiller-kwh", "counter", 0, 0, 350),
    ("press-chw-loop", "gauge", 200000, 350000, 500),
    ("water-cooling-tower-m3", "counter", 0, 0, 40),
    ("server-room-temp", "gauge", 19000, 27000, 25),
    ("elec-server-kwh", "counter", 0, 0, 120),
    ("elec-lighting-kwh", "counter", 0, 0, 90),
    ("water-cold-m3", "counter", 0, 0, 25),
    ("water-hot-m3", "counter", 0, 0, 15),
]
BAD_GAUGE = ["", "-999.900", "9999.000", "0.000"]
BAD_COUNTER = ["", "0.000", "0.000", "99999999.999"]


def _ms(stamp: str) -> int:
    """Milliseconds since START of a ``YYYY-MM-DDTHH:MM:SS.mmmZ`` timestamp."""
    return int((dt.datetime.fromisoformat(stamp) - START) / dt.timedelta(milliseconds=1))


def _milli(value: str) -> int:
    whole, _, frac = value.partition(".")
    units = abs(int(whole)) * 1000 + int(frac)
    return -units if value.startswith("-") else units


def _windows(ctx: benchlib.SeedContext) -> dict[str, list[tuple[int, int, list[str], int]]]:
    """Per sensor: (first ms, end ms, lines, last good value) of each anchor's buckets."""
    windows: dict[str, list[tuple[int, int, list[str], int]]] = {}
    for name in ANCHORS:
        records = ctx.anchor(name)
        times = [_ms(r["timestamp"]) for r in records]
        good = [_milli(r["value"]) for r in records if r["status"] != "BAD"]
        lines = [f"{r['timestamp']},{r['sensor_id']},{r['value']},{r['status']}\n" for r in records]
        first = min(times) // BUCKET * BUCKET
        end = (max(times) // BUCKET + 1) * BUCKET
        windows.setdefault(records[0]["sensor_id"], []).append((first, end, lines, good[-1]))
    return {sensor: sorted(found) for sensor, found in windows.items()}


def _number(units: int) -> str:
    sign = "-" if units < 0 else ""
    whole, frac = divmod(abs(units), 1000)
    return f"{sign}{whole}.{frac:03d}"


def _sensor(
    ctx: benchlib.SeedContext,
    spec: tuple[str, str, int, int, int],
    windows: list[tuple[int, int, list[str], int]],
) -> list[str]:
    """Every line of one sensor: its anchors' lines and filler readings, 40,000 in all.

    Drawn column by column (list comprehensions and ``accumulate``): about twice as fast as
    one loop over the rows, which keeps seed.py within its time budget.
    """
    sensor, kind, low, high, step = spec
    rng = ctx.rng
    rnd = rng.random
    counter = kind == "counter"
    anchored = [line for window in windows for line in window[2]]
    wanted = PER_SENSOR - len(anchored)
    spare = wanted + 400  # filler readings inside an anchor's buckets are dropped
    steps = [50_000 + int(rnd() * 20_001) for _ in range(spare)]
    for k in rng.sample(range(spare), 12):  # outages: gaps
        steps[k] += 960_000 + int(rnd() * 9_840_000)
    for k in rng.sample(range(spare), 12):  # short outages: no gap
        steps[k] += 300_000 + int(rnd() * 480_000)
    times = list(itertools.accumulate(steps, initial=int(rnd() * 60_000)))
    for first, end, _, _ in windows:
        times = [t for t in times if not first <= t < end]
    times = times[:wanted]
    if counter:  # counter anchors open the sensor's history: the filler continues from them
        value = windows[-1][3] if windows else int(rnd() * 9_000_000)
        top = step + step // 8
        rises = [d if (d := int(rnd() * top) - step // 8) > 0 else 0 for _ in range(wanted)]
        values = list(itertools.accumulate(rises, initial=value))[1:]
        for k in sorted(rng.sample(range(100, wanted), 5)):
            before = values[k - 1]
            if rnd() < 0.5 or before < 1000:  # meter swapped
                drop = int(rnd() * 5000)
            else:  # glitch
                drop = before - 1 - int(rnd() * 500)
            shift = drop - values[k]
            values[k:] = [v + shift for v in values[k:]]
    else:
        values = list(
            itertools.accumulate(
                [int(rnd() * (2 * step + 1)) - step for _ in range(wanted)],
                initial=low + int(rnd() * (high - low)),
            )
        )[1:]
        if min(values) < low or max(values) > high:  # fold the walk back into its range
            span, period = high - low, 2 * (high - low)
            values = [
                low + (x if x <= span else period - x) for x in ((v - low) % period for v in values)
            ]
    if low < 0:
        texts = [f"{v // 1000}.{FRACTION[v % 1000]}" if v >= 0 else _number(v) for v in values]
    else:
        texts = [f"{v // 1000}.{FRACTION[v % 1000]}" for v in values]
    statuses = ["OK"] * wanted
    for k in rng.sample(range(wanted), wanted // 100):
        statuses[k] = "EST"
    bad_values = BAD_COUNTER if counter else BAD_GAUGE
    for k in sorted(rng.sample(range(1, wanted - 1), wanted // 80)):
        before, after = times[k - 1], times[k + 1]
        if (
            statuses[k - 1] != "BAD"
            and before // BUCKET == times[k] // BUCKET
            and after - before < 840_000
        ):
            statuses[k], texts[k] = "BAD", bad_values[int(rnd() * 4)]
    suffix = f"Z,{sensor},"
    return anchored + [
        f"{DAYS[t // 86_400_000]}{CLOCK[t // 1000 % 86400]}{FRACTION[t % 1000]}{suffix}{x},{s}\n"
        for t, x, s in zip(times, texts, statuses, strict=True)
    ]


def sensor_readings(ctx: benchlib.SeedContext) -> None:
    """inputs/readings.csv.gz: 30 sensors x 40,000 readings, in time order."""
    windows = _windows(ctx)
    lines: list[str] = []
    for spec in SENSORS:
        lines += _sensor(ctx, spec, windows.get(spec[0], []))
    lines.sort()
    with ctx.open_binary() as out:
        out.write(HEADER.encode())
        for start in range(0, len(lines), 50_000):
            out.write("".join(lines[start : start + 50_000]).encode())
