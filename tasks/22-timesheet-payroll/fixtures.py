"""Fixtures of task 22: one week of time-clock punches at a cross-dock warehouse near Chicago.

The anchor records of task.toml are rows of two tables, told apart by their ``table`` key:
``employee`` (the columns of inputs/employees.csv) and ``punch`` (record_id, employee_id,
punch, timestamp; the device is drawn here). An anchor employee's week is exactly its anchor
punches, so every anchor value can be computed by hand.

The seeded filler gives every other id of E001..E060 a regular week: a day, swing, night or
(union) long pattern on four to six days of the pay week Sunday 2025-11-02 .. Saturday
2025-11-08, a few minutes early or late, some with an explicit break; some also work a day
or swing shift on Saturday 2025-11-01 or a day shift on Sunday 2025-11-09 (outside the pay
week). No filler shift starts before 06:00 on 2025-11-02, so none crosses the end of
daylight saving time (that is the edge fixture's case), and filler never produces an
exception. Filler record ids grow in upload order from P10001 with small gaps (the ids are
shared with other sites), skipping the anchors' ids; about one record in twenty-five is
uploaded one to three days late.
"""

from __future__ import annotations

import random
from datetime import date, datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import benchlib

ZONE = ZoneInfo("America/Chicago")
EMPLOYEES = 60
WEEK = [date(2025, 11, 2) + timedelta(days=d) for d in range(7)]
BEFORE, AFTER = date(2025, 11, 1), date(2025, 11, 9)
# (start, length) in minutes after local midnight; a night shift ends the next morning
PATTERNS = {"day": (360, 510), "swing": (840, 510), "night": (1320, 510), "long": (360, 630)}
DEVICES = ["DOCK-NORTH", "DOCK-SOUTH", "BREAKROOM", "OFFICE"]
FIRST = [
    "Ada", "Bilal", "Chloe", "Darius", "Esme", "Felix", "Gloria", "Hamid", "Iris", "Jorge",
    "Keiko", "Leon", "Maya", "Nikolai", "Odette", "Pavel", "Quentin", "Rania", "Stefan", "Tia",
    "Umar", "Vera", "Wendell", "Xenia", "Yara", "Zane", "Amelie", "Bruno", "Celine", "Dmitri",
    "Elsa", "Farid",
]  # fmt: skip
LAST = [
    "Abbott", "Barros", "Castillo", "Dubois", "Eriksen", "Fischer", "Gallo", "Horvat",
    "Ibarra", "Jansen", "Kowalski", "Laine", "Moreau", "Novak", "Ortiz", "Pereira", "Quist",
    "Romero", "Sato", "Tanaka", "Urban", "Varga", "Weber", "Yilmaz", "Zeller", "Antonelli",
    "Brooks", "Carver", "Donnelly", "Ekwueme", "Fontaine", "Garber",
]  # fmt: skip

EMPLOYEE_HEADER = ["employee_id", "name", "group", "hourly_rate"]
PUNCH_HEADER = ["record_id", "employee_id", "punch", "timestamp", "device"]


def _stamp(day: date, minutes: int) -> datetime:
    """The site's local time ``minutes`` after midnight of ``day`` (no DST change here)."""
    return datetime.combine(day, time(), ZONE) + timedelta(minutes=minutes)


def _rows(ctx: benchlib.SeedContext, table: str) -> list[dict[str, Any]]:
    """Anchor rows of one table, in anchor-name order, without the ``table`` key."""
    return [
        {k: v for k, v in record.items() if k != "table"}
        for name in sorted(ctx.anchors)
        for record in ctx.anchor(name)
        if record["table"] == table
    ]


def _filler_week(rng: random.Random, employee: str, group: str) -> list[dict[str, Any]]:
    """The punches of one filler employee: (employee, punch, local datetime) rows."""
    pattern = rng.choice(
        ["day", "day", "swing", "night"] + (["long", "long"] if group == "U" else [])
    )
    start, length = PATTERNS[pattern]
    count = rng.choice([4, 5, 5, 5, 6])
    first = rng.randint(0, 7 - count)
    days = WEEK[first : first + count]
    if pattern in ("day", "swing") and rng.random() < 0.3:
        days = [BEFORE, *days]
    if pattern == "day" and rng.random() < 0.3:
        days = [*days, AFTER]
    punches = []
    for day in days:
        begin = _stamp(day, start + rng.randint(-9, 3))
        end = _stamp(day, start + length + rng.randint(-4, 8))
        punches.append((employee, "IN", begin))
        if rng.random() < 0.45:
            pause = begin + timedelta(minutes=rng.randint(200, 280))
            punches.append((employee, "BREAK_START", pause))
            punches.append((employee, "BREAK_END", pause + timedelta(minutes=rng.randint(20, 35))))
        punches.append((employee, "OUT", end))
    return [{"employee_id": e, "punch": p, "moment": m} for e, p, m in punches]


def timesheets(ctx: benchlib.SeedContext) -> None:
    """inputs/employees.csv (sorted by name) and inputs/punches.csv (sorted by record_id)."""
    rng = random.Random(f"{ctx.seed}/timesheets")
    employees = {r["employee_id"]: r for r in _rows(ctx, "employee")}
    names = [f"{first} {last}" for first, last in zip(FIRST, LAST, strict=False)]
    rng.shuffle(names)
    filler = []
    for number in range(1, EMPLOYEES + 1):
        employee = f"E{number:03d}"
        if employee in employees:
            continue
        group = "U" if rng.random() < 0.35 else "N"
        low, high = (2200, 3150) if group == "U" else (1750, 2495)
        employees[employee] = {
            "employee_id": employee,
            "name": names.pop(),
            "group": group,
            "hourly_rate": f"{rng.randint(low, high) / 100:.2f}",
        }
        filler += _filler_week(rng, employee, group)
    anchored = _rows(ctx, "punch")
    taken = {r["record_id"] for r in anchored}
    late = []
    for row in filler:
        delay = rng.randint(1440, 4320) if rng.random() < 0.04 else 0
        late.append((row["moment"] + timedelta(minutes=delay), row["employee_id"], row))
    number = 10001
    records = []
    for _, _, row in sorted(late, key=lambda item: (item[0], item[1])):
        while f"P{number}" in taken:
            number += 1
        records.append({
            "record_id": f"P{number}",
            "employee_id": row["employee_id"],
            "punch": row["punch"],
            "timestamp": row["moment"].isoformat(),
        })  # fmt: skip
        number += rng.choice([1, 1, 2, 3])  # other sites' records take the ids between
    records += anchored
    for record in records:
        record["device"] = rng.choice(DEVICES)
    by_name = sorted(employees.values(), key=lambda e: (e["name"].split()[-1], e["name"]))
    ctx.write_csv("inputs/employees.csv", EMPLOYEE_HEADER, by_name)
    ctx.write_csv("inputs/punches.csv", PUNCH_HEADER, sorted(records, key=lambda r: r["record_id"]))
