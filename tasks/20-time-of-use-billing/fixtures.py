"""Fixtures of task 20: one month of 15-minute meter readings of small business customers.

inputs/customers.csv and inputs/readings.csv come from one generator. The anchor records of
task.toml are rows of two tables, told apart by their ``table`` key: ``customer`` (the
columns of customers.csv) and ``reading`` (a row of readings.csv that replaces the seeded
reading of that customer at that instant).

Main fixture: 13 customers, nine in Europe/Berlin on tariff BIZ-DE (C101..C109) and four in
Europe/Dublin on BIZ-IE (C111..C114). Every customer's meter sends one row per 15-minute
interval, from 2025-09-30T20:00Z to 2025-11-01T01:45Z (a few local hours of September and
November on both sides of the period), except a customer who moved out (readings end with
local 2025-10-12) or moved in (readings start with local 2025-10-16). Daytime load on
working days, a lower base load at night, on weekends and on holidays. Non-anchor customers
get a few demand spikes outside the demand window (nights and weekends) that exceed their
daytime maximum; anchor customers' seeded demand is capped at 30.00 kW so that their anchor
readings decide the maximum. The main fixture has no negative kWh (the edge fixture's case).

Edge fixture: two customers with two days and one day of readings; one interval of C901 is
a meter correction with negative kWh and the largest kW of the demand window.
"""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from typing import Any
from zoneinfo import ZoneInfo

import benchlib

CUSTOMER_HEADER = ["customer_id", "name", "timezone", "tariff_id"]
READING_HEADER = ["customer_id", "interval_start", "utc_offset", "kwh", "kw", "status"]
START = datetime(2025, 9, 30, 20, 0, tzinfo=UTC)
END = datetime(2025, 11, 1, 2, 0, tzinfo=UTC)  # exclusive
STEP = timedelta(minutes=15)
HOLIDAYS = {"BIZ-DE": {"2025-10-03", "2025-10-31"}, "BIZ-IE": {"2025-10-27"}}
ZONES = {"BIZ-DE": "Europe/Berlin", "BIZ-IE": "Europe/Dublin"}
NAMES = {
    "BIZ-DE": [
        "Alster Druckerei", "Baumann Kältetechnik", "Elbe Bäckerei", "Gartenbau Roth",
        "Isar Metallbau", "Lausitz Textil", "Neckar Glas", "Pfalz Sägewerk", "Ruhr Kaffeerösterei",
        "Spree Wäscherei", "Weserkopie",
    ],
    "BIZ-IE": [
        "Dockside Joinery", "Fennelly Motors", "Harbour Print Ltd", "Kilbride Dairy",
        "Moran Brewing Co", "O'Dwyer Foods", "Quay Street Laundry",
    ],
}  # fmt: skip


def _offset(moment: datetime, zone: ZoneInfo) -> str:
    minutes = int(moment.astimezone(zone).utcoffset().total_seconds() // 60)
    sign = "+" if minutes >= 0 else "-"
    return f"{sign}{abs(minutes) // 60:02d}:{abs(minutes) % 60:02d}"


def _stamp(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def _rows(ctx: benchlib.SeedContext, table: str) -> list[dict[str, Any]]:
    return [
        {k: v for k, v in record.items() if k != "table"}
        for name in sorted(ctx.anchors)
        for record in ctx.anchor(name)
        if record["table"] == table
    ]


def _load(rng: random.Random, profile: dict, local: datetime, tariff: str) -> Decimal:
    """Average kW of one interval: base load plus daytime load on working days."""
    working = local.weekday() < 5 and local.date().isoformat() not in HOLIDAYS[tariff]
    hour = local.hour + local.minute / 60
    kw = profile["base"] * (0.8 + 0.4 * rng.random())
    if working and profile["open"] <= hour < profile["close"]:
        kw += profile["day"] * (0.7 + 0.3 * rng.random())
    elif not working and 9 <= hour < 16:
        kw += profile["day"] * 0.25 * rng.random()
    return Decimal(f"{kw:.2f}")


def _customer_rows(
    rng: random.Random, customer: dict, anchored: bool, window: tuple[datetime, datetime]
) -> list[dict[str, Any]]:
    zone = ZoneInfo(customer["timezone"])
    tariff = customer["tariff_id"]
    profile = {
        "base": rng.uniform(1.5, 6.0),
        "day": rng.uniform(8.0, 22.0) if anchored else rng.uniform(10.0, 30.0),
        "open": rng.choice([6.5, 7.0, 7.5, 8.0]),
        "close": rng.choice([17.0, 18.0, 19.0, 20.5]),
    }
    rows = []
    moment = window[0]
    while moment < window[1]:
        local = moment.astimezone(zone)
        average = _load(rng, profile, local, tariff)
        kwh = (average / 4).quantize(Decimal("0.001"))
        kw = (average * Decimal(f"{1 + 0.25 * rng.random():.3f}")).quantize(Decimal("0.01"))
        if anchored:
            kw = min(kw, Decimal("30.00"))
        rows.append({
            "customer_id": customer["customer_id"],
            "interval_start": _stamp(moment),
            "utc_offset": _offset(moment, zone),
            "kwh": str(kwh),
            "kw": str(kw),
            "status": "estimated" if rng.random() < 0.02 else "actual",
        })  # fmt: skip
        moment += STEP
    if not anchored:
        peak = max(Decimal(r["kw"]) for r in rows)
        quiet = [
            i
            for i, r in enumerate(rows)
            if datetime.fromisoformat(r["interval_start"]).astimezone(zone).hour in (1, 2, 3, 23)
            or datetime.fromisoformat(r["interval_start"]).astimezone(zone).weekday() >= 5
        ]
        for i in rng.sample(quiet, 3):
            spike = peak * Decimal(f"{rng.uniform(1.15, 1.5):.3f}")
            rows[i]["kw"] = str(spike.quantize(Decimal("0.01")))
            rows[i]["kwh"] = str((spike / 5).quantize(Decimal("0.001")))
    return rows


def meter_data(ctx: benchlib.SeedContext) -> None:
    """inputs/customers.csv (sorted by name) and inputs/readings.csv (by instant, customer)."""
    if ctx.fixture == "edge":
        _edge(ctx)
        return
    rng = random.Random(f"{ctx.seed}/meter_data")
    customers = {r["customer_id"]: r for r in _rows(ctx, "customer")}
    overrides = {(r["customer_id"], r["interval_start"]): r for r in _rows(ctx, "reading")}
    anchored = {customer for customer, _ in overrides}
    taken = {c["name"] for c in customers.values()}
    names = {t: [n for n in NAMES[t] if n not in taken] for t in sorted(NAMES)}
    for tariff in sorted(names):
        rng.shuffle(names[tariff])
    for number in [*range(101, 110), *range(111, 115)]:  # C110 closed its account
        customer_id = f"C{number}"
        if customer_id not in customers:
            tariff = "BIZ-DE" if number <= 110 else "BIZ-IE"
            customers[customer_id] = {
                "customer_id": customer_id,
                "name": names[tariff].pop(),
                "timezone": ZONES[tariff],
                "tariff_id": tariff,
            }
    readings = []
    for customer_id in sorted(customers):
        customer = customers[customer_id]
        zone = ZoneInfo(customer["timezone"])
        window = (START, END)
        if customer.get("moved") == "out":
            window = (START, datetime(2025, 10, 13, tzinfo=zone).astimezone(UTC))
        elif customer.get("moved") == "in":
            window = (datetime(2025, 10, 16, tzinfo=zone).astimezone(UTC), END)
        rows = _customer_rows(rng, customer, customer_id in anchored, window)
        for row in rows:
            override = overrides.pop((customer_id, row["interval_start"]), None)
            if override is not None:
                if override["utc_offset"] != row["utc_offset"]:
                    raise ValueError(f"anchor offset of {customer_id} {row['interval_start']}")
                row.update(override)
        readings += rows
    if overrides:
        raise ValueError(f"anchor readings outside the meter window: {sorted(overrides)}")
    for customer in customers.values():
        customer.pop("moved", None)
    by_name = sorted(customers.values(), key=lambda c: c["name"])
    ctx.write_csv("inputs/customers.csv", CUSTOMER_HEADER, by_name)
    readings.sort(key=lambda r: (r["interval_start"], r["customer_id"]))
    ctx.write_csv("inputs/readings.csv", READING_HEADER, readings)


def _edge(ctx: benchlib.SeedContext) -> None:
    customers = [
        {"customer_id": "C901", "name": "Glenview Cold Store", "timezone": "Europe/Dublin",
         "tariff_id": "BIZ-IE"},
        {"customer_id": "C902", "name": "Weser Copy Shop", "timezone": "Europe/Berlin",
         "tariff_id": "BIZ-DE"},
    ]  # fmt: skip
    rows = []
    spans = [
        ("C901", datetime(2025, 10, 5, 23, 0, tzinfo=UTC), 192, ZoneInfo("Europe/Dublin")),
        ("C902", datetime(2025, 9, 30, 21, 45, tzinfo=UTC), 97, ZoneInfo("Europe/Berlin")),
    ]
    for customer_id, first, count, zone in spans:
        for i in range(count):
            moment = first + i * STEP
            kwh = Decimal("0.500") + Decimal("0.125") * (i % 9)
            rows.append({
                "customer_id": customer_id,
                "interval_start": _stamp(moment),
                "utc_offset": _offset(moment, zone),
                "kwh": str(kwh),
                "kw": str((kwh * 4 + Decimal("0.35")).quantize(Decimal("0.01"))),
                "status": "actual",
            })  # fmt: skip
    for row in rows:
        if row["customer_id"] == "C901" and row["interval_start"] == "2025-10-07T09:00:00Z":
            row.update({"kwh": "-0.850", "kw": "46.20", "status": "correction"})
    rows.sort(key=lambda r: (r["interval_start"], r["customer_id"]))
    ctx.write_csv("inputs/customers.csv", CUSTOMER_HEADER, customers)
    ctx.write_csv("inputs/readings.csv", READING_HEADER, rows)
