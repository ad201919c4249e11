"""Monthly time-of-use bills from 15-minute meter readings (reference solution of task 20).

python -m solution.energy_bill INPUTS --period YYYY-MM --output DIR
"""

from __future__ import annotations

import argparse
import csv
import functools
import json
from datetime import date, datetime, time, timedelta
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

BILLS = ["customer_id", "name", "tariff_id", "intervals", "kwh", "energy_charge", "demand_kw",
         "demand_interval_start", "demand_charge", "subtotal", "tax", "total"]  # fmt: skip
DETAIL = ["customer_id", "line", "band", "rate_id", "intervals", "quantity", "unit_price", "amount"]
ADJUSTMENTS = ["customer_id", "old_total", "corrected_total", "delta"]
CENT = Decimal("0.01")


def read_csv(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))


def write_csv(path: Path, header: list[str], rows: list[dict]) -> None:
    with path.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=header, lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)


def money(value: Decimal) -> Decimal:
    return value.quantize(CENT, rounding=ROUND_HALF_UP)


@functools.cache
def offset_of(text: str) -> timedelta:
    return datetime.strptime(text, "%z").utcoffset()


def local_start(row: dict[str, str]) -> datetime:
    """The interval's local start: its UTC instant plus its own offset (naive)."""
    instant = datetime.fromisoformat(row["interval_start"])
    return (instant + offset_of(row["utc_offset"])).replace(tzinfo=None)


def clock(text: str) -> time:
    return time.fromisoformat(text)


class Tariff:
    def __init__(self, spec: dict) -> None:
        self.id = spec["tariff_id"]
        self.holidays = {date.fromisoformat(d) for d in spec["holidays"]}
        self.schedule = {
            kind: [(clock(at), band) for at, band in entries]
            for kind, entries in spec["schedule"].items()
        }
        self.rates = [dict(rate) for rate in spec["energy_rates"]]
        self.demand = spec["demand"]
        self.window = (clock(self.demand["window"]["start"]), clock(self.demand["window"]["end"]))
        self.tax = spec["tax"]

    def correct(self, correction: dict) -> None:
        """Apply a retroactive rate correction: the new rate replaces the old from valid_from."""
        for rate in list(self.rates):
            if rate["rate_id"] == correction["replaces_rate_id"]:
                self.rates.append({
                    **correction["new_rate"],
                    "valid_from": correction["valid_from"],
                    "valid_until": rate["valid_until"],
                })  # fmt: skip
                rate["valid_until"] = correction["valid_from"]

    def day_type(self, day: date) -> str:
        if day in self.holidays:
            return "holiday"
        return "weekend" if day.weekday() >= 5 else "weekday"

    def band(self, local: datetime) -> str:
        current = None
        for at, band in self.schedule[self.day_type(local.date())]:
            if at <= local.time():
                current = band
        return current

    def rate(self, band: str, day: date) -> dict:
        for rate in self.rates:
            begins = date.fromisoformat(rate["valid_from"])
            ends = rate["valid_until"] and date.fromisoformat(rate["valid_until"])
            if rate["band"] == band and begins <= day and (not ends or day < ends):
                return rate
        raise ValueError(f"no {band} rate of {self.id} on {day}")

    def qualifies(self, local: datetime, kwh: Decimal) -> bool:
        if self.day_type(local.date()) != "weekday" or kwh < 0:
            return False
        return self.window[0] <= local.time() < self.window[1]


def load_tariffs(inputs: Path, corrected: bool) -> dict[str, Tariff]:
    data = json.loads((inputs / "tariffs.json").read_text(encoding="utf-8"))
    tariffs = {spec["tariff_id"]: Tariff(spec) for spec in data["tariffs"]}
    if corrected:
        correction = json.loads((inputs / "tariff_correction.json").read_text(encoding="utf-8"))
        tariffs[correction["tariff_id"]].correct(correction)
    return tariffs


def bill(customer: dict, tariff: Tariff, readings: list[dict]) -> dict:
    """One customer's bill: its row of bills.csv and its detail lines."""
    lines: dict[tuple[str, str], dict] = {}
    demand = None
    for row in readings:
        local = row["local"]
        kwh = Decimal(row["kwh"])
        band = tariff.band(local)
        rate = tariff.rate(band, local.date())
        line = lines.setdefault(
            (band, rate["rate_id"]), {"intervals": 0, "kwh": Decimal("0.000"), "rate": rate}
        )
        line["intervals"] += 1
        line["kwh"] += kwh
        kw = Decimal(row["kw"])
        if tariff.qualifies(local, kwh) and (demand is None or kw > demand[0]):
            demand = (kw, row["interval_start"])
    detail = []
    for band, rate_id in sorted(lines):
        line = lines[(band, rate_id)]
        amount = money(line["kwh"] * Decimal(line["rate"]["eur_per_kwh"]))
        line["amount"] = amount
        detail.append({
            "customer_id": customer["customer_id"], "line": "energy", "band": band,
            "rate_id": rate_id, "intervals": line["intervals"], "quantity": line["kwh"],
            "unit_price": line["rate"]["eur_per_kwh"], "amount": amount,
        })  # fmt: skip
    energy = sum((line["amount"] for line in lines.values()), Decimal("0.00"))
    demand_charge = money(demand[0] * Decimal(tariff.demand["eur_per_kw"]))
    subtotal = energy + demand_charge
    tax = money(subtotal * Decimal(tariff.tax["rate"]))
    detail.append({
        "customer_id": customer["customer_id"], "line": "demand", "band": "",
        "rate_id": tariff.demand["rate_id"], "intervals": "", "quantity": demand[0],
        "unit_price": tariff.demand["eur_per_kw"], "amount": demand_charge,
    })  # fmt: skip
    detail.append({
        "customer_id": customer["customer_id"], "line": "tax", "band": "",
        "rate_id": tariff.tax["tax_id"], "intervals": "", "quantity": subtotal,
        "unit_price": tariff.tax["rate"], "amount": tax,
    })  # fmt: skip
    row = {
        "customer_id": customer["customer_id"],
        "name": customer["name"],
        "tariff_id": tariff.id,
        "intervals": len(readings),
        "kwh": sum((Decimal(r["kwh"]) for r in readings), Decimal("0.000")),
        "energy_charge": energy,
        "demand_kw": demand[0],
        "demand_interval_start": demand[1],
        "demand_charge": demand_charge,
        "subtotal": subtotal,
        "tax": tax,
        "total": subtotal + tax,
    }
    return {"row": row, "detail": detail}


def explanation(result: dict, prior: Decimal, period: str) -> str:
    row = result["row"]
    lines = [f"customer: {row['customer_id']}", f"tariff: {row['tariff_id']}", f"period: {period}"]
    for line in result["detail"]:
        if line["line"] == "energy":
            lines.append(
                f"band {line['band']} {line['rate_id']}: {line['intervals']} intervals, "
                f"{line['quantity']} kWh, {line['amount']}"
            )
        elif line["line"] == "demand":
            lines.append(
                f"demand {line['rate_id']}: {line['quantity']} kW at "
                f"{row['demand_interval_start']}, {line['amount']}"
            )
        else:
            lines.append(f"subtotal: {row['subtotal']}")
            lines.append(f"tax {line['rate_id']}: {line['amount']}")
    lines.append(f"total: {row['total']}")
    lines.append(f"prior total: {prior}")
    lines.append(f"correction delta: {row['total'] - prior}")
    return "\n".join(lines) + "\n"


def load_readings(inputs: Path, period: str, customers: list[dict]) -> dict[str, list[dict]]:
    """Each customer's readings of the period (local month), with their local start."""
    year, month = (int(part) for part in period.split("-"))
    by_customer: dict[str, list[dict]] = {c["customer_id"]: [] for c in customers}
    for row in read_csv(inputs / "readings.csv"):
        row["local"] = local_start(row)
        if (row["local"].year, row["local"].month) == (year, month):
            by_customer[row["customer_id"]].append(row)
    return by_customer


def run(inputs: Path, customers: list[dict], readings: dict, corrected: bool) -> list[dict]:
    tariffs = load_tariffs(inputs, corrected)
    return [bill(c, tariffs[c["tariff_id"]], readings[c["customer_id"]]) for c in customers]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("inputs", type=Path)
    parser.add_argument("--period", required=True)
    parser.add_argument("--output", required=True, type=Path)
    args = parser.parse_args()
    customers = sorted(read_csv(args.inputs / "customers.csv"), key=lambda c: c["customer_id"])
    readings = load_readings(args.inputs, args.period, customers)
    corrected = (args.inputs / "tariff_correction.json").exists()
    bills = run(args.inputs, customers, readings, corrected)
    args.output.mkdir(parents=True, exist_ok=True)
    write_csv(args.output / "bills.csv", BILLS, [b["row"] for b in bills])
    write_csv(args.output / "bill_detail.csv", DETAIL, [d for b in bills for d in b["detail"]])
    before = run(args.inputs, customers, readings, False)
    changes = []
    for old, new in zip(before, bills, strict=True):
        if old["row"]["total"] != new["row"]["total"]:
            changes.append({
                "customer_id": new["row"]["customer_id"],
                "old_total": old["row"]["total"],
                "corrected_total": new["row"]["total"],
                "delta": new["row"]["total"] - old["row"]["total"],
            })  # fmt: skip
    write_csv(args.output / "adjustments.csv", ADJUSTMENTS, changes)
    folder = args.output / "explanations"
    folder.mkdir(exist_ok=True)
    for old, new in zip(before, bills, strict=True):
        text = explanation(new, old["row"]["total"], args.period)
        (folder / f"{new['row']['customer_id']}.txt").write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
