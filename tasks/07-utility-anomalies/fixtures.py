"""Fixture generator of task 7: 30 months of campus electricity meter readings.

``monthly_usage`` writes inputs/monthly_usage.csv. The anchor meters of task.toml (records
without a ``file``: ``meter_id``, ``first_month`` and ``readings``, one value per calendar
month, ``_`` for a missing month) are written as given. Filler meters get a base load, a
yearly season (heating or cooling), noise, an occasional spike or drop, missing months, and
some were installed or removed during the period.

The edge rule (a zero MAD) belongs to the edge fixture alone: no baseline of the main fixture
has a MAD of zero (the generator redraws a filler meter's noise until none has).
"""

from __future__ import annotations

import math
import random
from fractions import Fraction
from statistics import median

import benchlib

HEADER = ["meter_id", "month", "kwh"]
MONTHS = [f"{2023 + i // 12}-{i % 12 + 1:02d}" for i in range(30)]  # 2023-01 .. 2025-06
METERS = 50
LABELS = ["Shop 3 (bakery)", "APT 12B", "Pump house", "Garage, level 2", "Laundry room"]
LATE = 14  # readings appended at the end of the file


def _zero_mad(values: list[int | None]) -> bool:
    """Whether some baseline of six consecutive readings has a MAD of zero."""
    readings = [Fraction(v) for v in values if v is not None]
    for end in range(6, len(readings)):
        window = readings[end - 6 : end]
        center = median(window)
        if median(abs(v - center) for v in window) == 0:
            return True
    return False


def _filler_meter(rng: random.Random, noisy: bool) -> list[int | None]:
    """One filler meter's 30 months (None: no reading)."""
    base = rng.randint(180, 1500)
    amplitude = rng.uniform(0.03, 0.11)
    peak = rng.choice([0, 6])  # January (heating) or July (cooling)
    spread = rng.uniform(0.07, 0.12) if noisy else rng.uniform(0.015, 0.035)
    first, last = 0, 29
    shape = rng.random()
    if shape < 0.12:
        first = rng.randint(4, 14)  # installed during the period
    elif shape < 0.2:
        last = rng.randint(15, 25)  # removed during the period
    while True:
        values: list[int | None] = []
        for month in range(30):
            season = 1 + amplitude * math.cos(2 * math.pi * (month - peak) / 12)
            values.append(round(base * season * (1 + rng.gauss(0, spread))))
        if rng.random() < 0.55:  # one event after the meter's first year
            at = rng.randint(first + 8, last)
            factor = rng.uniform(1.35, 2.6) if rng.random() < 0.65 else rng.uniform(0.15, 0.6)
            values[at] = round(values[at] * factor)
        for month in range(first + 1, last):
            if rng.random() < 0.025:
                values[month] = None
                if rng.random() < 0.3 and month + 1 < last:
                    values[month + 1] = None
        values = [None if not first <= m <= last else v for m, v in enumerate(values)]
        if not _zero_mad(values):
            return values


def _anchor_meter(record: dict) -> list[int | None]:
    start = MONTHS.index(record["first_month"])
    values: list[int | None] = [None] * 30
    for offset, text in enumerate(record["readings"].split()):
        values[start + offset] = None if text == "_" else int(text)
    if _zero_mad(values):
        raise RuntimeError(f"anchor meter {record['meter_id']} has a baseline with MAD 0")
    return values


def monthly_usage(ctx: benchlib.SeedContext) -> None:
    """inputs/monthly_usage.csv: month by month in route order, late readings at the end."""
    rng = ctx.rng
    meters: dict[str, list[int | None]] = {}
    for name in ctx.anchors:  # declaration order
        for record in ctx.anchor(name):
            meters[record["meter_id"]] = _anchor_meter(record)
    labels = list(LABELS)
    filler = METERS - len(meters) - len(labels)
    numbers = rng.sample([n for n in range(1001, 1999) if f"MTR-{n}" not in meters], filler)
    labels += [f"MTR-{n}" for n in numbers]
    for index, label in enumerate(labels):
        meters[label] = _filler_meter(rng, noisy=index % 9 == 4)
    route = list(meters)
    rng.shuffle(route)
    rows = [
        {"meter_id": meter, "month": month, "kwh": meters[meter][index]}
        for index, month in enumerate(MONTHS)
        for meter in route
        if meters[meter][index] is not None
    ]
    late = sorted(rng.sample(range(len(rows)), LATE))
    rows = [r for i, r in enumerate(rows) if i not in late] + [rows[i] for i in late]
    ctx.write_csv(ctx.path, HEADER, rows)
