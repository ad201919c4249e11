# generated from task.toml by benchsmith -- edit only the authored region
"""Judge of task 20: Time-of-Use Energy Billing.

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
    "id": 20,
    "slug": "time-of-use-billing",
    "stages": ["initial", "correction", "explanations"],
    "editable": ["solution/", "output/"],
    "commands": [
        {
            "run": "python -m solution.energy_bill inputs --period 2025-10 --output output",
            "argv": [
                "python",
                "-m",
                "solution.energy_bill",
                "inputs",
                "--period",
                "2025-10",
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
            "path": "output/bills.csv",
            "format": "csv",
            "header": [
                "customer_id",
                "name",
                "tariff_id",
                "intervals",
                "kwh",
                "energy_charge",
                "demand_kw",
                "demand_interval_start",
                "demand_charge",
                "subtotal",
                "tax",
                "total",
            ],
            "stage": "initial",
        },
        {
            "path": "output/bill_detail.csv",
            "format": "csv",
            "header": [
                "customer_id",
                "line",
                "band",
                "rate_id",
                "intervals",
                "quantity",
                "unit_price",
                "amount",
            ],
            "stage": "initial",
        },
        {
            "path": "output/adjustments.csv",
            "format": "csv",
            "header": ["customer_id", "old_total", "corrected_total", "delta"],
            "stage": "correction",
        },
        {
            "path": "output/explanations/",
            "format": "directory",
            "header": [],
            "stage": "explanations",
        },
    ],
    "expect": [
        {
            "name": "dst-demand#1",
            "file": "output/bills.csv",
            "level": 4,
            "where": {"customer_id": "C102"},
            "equals": {
                "demand_kw": "50.00",
                "demand_interval_start": "2025-10-28T18:45:00Z",
                "demand_charge": "605.00",
            },
        },
        {
            "name": "demand-tie#1",
            "file": "output/bills.csv",
            "level": 4,
            "where": {"customer_id": "C106"},
            "equals": {
                "demand_kw": "33.25",
                "demand_interval_start": "2025-10-08T08:00:00Z",
                "demand_charge": "402.33",
            },
        },
        {
            "name": "ie-holiday#1",
            "file": "output/bills.csv",
            "level": 4,
            "where": {"customer_id": "C112"},
            "equals": {"demand_kw": "52.75", "demand_interval_start": "2025-10-28T09:00:00Z"},
        },
        {
            "name": "ie-window#1",
            "file": "output/bills.csv",
            "level": 4,
            "where": {"customer_id": "C113"},
            "equals": {
                "demand_kw": "58.25",
                "demand_interval_start": "2025-10-15T07:00:00Z",
                "demand_charge": "565.03",
            },
        },
        {
            "name": "local-month#1",
            "file": "output/bills.csv",
            "level": 3,
            "where": {"customer_id": "C101"},
            "equals": {"intervals": "2980"},
        },
        {
            "name": "local-month#2",
            "file": "output/bills.csv",
            "level": 3,
            "where": {"customer_id": "C111"},
            "equals": {"intervals": "2980"},
        },
        {
            "name": "moved-out#1",
            "file": "output/bills.csv",
            "level": 3,
            "where": {"customer_id": "C104"},
            "equals": {"intervals": "1152"},
        },
        {
            "name": "moved-out#2",
            "file": "output/adjustments.csv",
            "level": 4,
            "stage": "correction",
            "where": {"customer_id": "C104"},
            "absent": True,
        },
        {
            "name": "moved-in#1",
            "file": "output/bills.csv",
            "level": 3,
            "where": {"customer_id": "C109"},
            "equals": {"intervals": "1540"},
        },
        {
            "name": "moved-in#2",
            "file": "output/bill_detail.csv",
            "level": 4,
            "until": "initial",
            "where": {"customer_id": "C109", "rate_id": "DE-NT-25"},
            "count": 1,
        },
        {
            "name": "moved-in#3",
            "file": "output/bill_detail.csv",
            "level": 4,
            "stage": "correction",
            "where": {"customer_id": "C109", "rate_id": "DE-NT-25"},
            "count": 0,
        },
        {
            "name": "moved-in#4",
            "file": "output/bill_detail.csv",
            "level": 4,
            "stage": "correction",
            "where": {"customer_id": "C109", "rate_id": "DE-NT-25C"},
            "count": 1,
        },
    ],
    "edge_expect": [
        {
            "name": "edge#1",
            "file": "output/bills.csv",
            "level": 4,
            "where": {"customer_id": "C901"},
            "equals": {
                "intervals": "192",
                "kwh": "189.400",
                "demand_kw": "6.35",
                "demand_interval_start": "2025-10-06T07:45:00Z",
                "demand_charge": "61.60",
            },
        },
        {
            "name": "edge#2",
            "file": "output/bill_detail.csv",
            "level": 4,
            "where": {"customer_id": "C901", "line": "energy", "band": "shoulder"},
            "equals": {"intervals": "104", "quantity": "102.900", "amount": "27.20"},
        },
    ],
    "edge_include_visible": True,
    "services": [],
}

judge = benchlib.Judge(TASK)

# region authored: benchsmith keeps these lines when it rebuilds judge.py
import datetime as dt
from fractions import Fraction
from zoneinfo import ZoneInfo

PERIOD = (2025, 10)  # the command's --period
BILL_COLUMNS = ["customer_id", "name", "tariff_id", "intervals", "kwh", "energy_charge",
                "demand_kw", "demand_interval_start", "demand_charge", "subtotal", "tax",
                "total"]  # fmt: skip


def cents(value: Fraction) -> int:
    """An exact amount in EUR rounded to integer cents, halves away from zero."""
    hundredths = abs(value) * 100
    whole = (hundredths + Fraction(1, 2)).__floor__()
    return whole if value >= 0 else -whole


def eur(amount_cents: int) -> str:
    sign = "-" if amount_cents < 0 else ""
    return f"{sign}{abs(amount_cents) // 100}.{abs(amount_cents) % 100:02d}"


def fixed(units: int, places: int) -> str:
    sign = "-" if units < 0 else ""
    scale = 10**places
    return f"{sign}{abs(units) // scale}.{abs(units) % scale:0{places}d}"


def units(text: str, places: int) -> int:
    """Exact decimal text (at most ``places`` decimals) as an integer of 10**-places units."""
    negative = text.startswith("-")
    whole, _, part = text.lstrip("+-").partition(".")
    assert len(part) <= places and (whole + part).isdigit(), text
    value = int(whole or "0") * 10**places + int(part.ljust(places, "0") or "0")
    return -value if negative else value


def hhmm(text: str) -> int:
    hours, minutes = text.split(":")
    return int(hours) * 60 + int(minutes)


class Plan:
    """One tariff as the judge reads it (TASK.md rules), the correction applied or not."""

    def __init__(self, spec: dict, correction: dict | None) -> None:
        self.spec = spec
        self.holidays = set(spec["holidays"])
        rates = [dict(r) for r in spec["energy_rates"]]
        if correction is not None and correction["tariff_id"] == spec["tariff_id"]:
            for r in rates:
                if r["rate_id"] == correction["replaces_rate_id"]:
                    rates.append({
                        **correction["new_rate"],
                        "valid_from": correction["valid_from"],
                        "valid_until": r["valid_until"],
                    })  # fmt: skip
                    r["valid_until"] = correction["valid_from"]
                    break
        self.rates = rates
        self.entries = {
            kind: [(hhmm(at), band) for at, band in entries]
            for kind, entries in spec["schedule"].items()
        }
        window = spec["demand"]["window"]
        self.window = (hhmm(window["start"]), hhmm(window["end"]))

    def kind(self, day: dt.date) -> str:
        if day.isoformat() in self.holidays:
            return "holiday"
        return "weekday" if day.isoweekday() <= 5 else "weekend"

    def band(self, local: dt.datetime) -> str:
        minute = local.hour * 60 + local.minute
        return [band for at, band in self.entries[self.kind(local.date())] if at <= minute][-1]

    def rate(self, band: str, day: dt.date) -> dict:
        text = day.isoformat()
        valid = [
            r
            for r in self.rates
            if r["band"] == band
            and r["valid_from"] <= text
            and (r["valid_until"] is None or text < r["valid_until"])
        ]
        assert len(valid) == 1, (band, text, valid)
        return valid[0]

    def qualifies(self, local: dt.datetime) -> bool:
        window = self.spec["demand"]["window"]
        minute = local.hour * 60 + local.minute
        return self.kind(local.date()) == "weekday" and hhmm(window["start"]) <= minute < hhmm(
            window["end"]
        )


def compute(source: benchlib.Files, corrected: bool) -> dict:
    """Bills (rows as text), detail lines and explanation facts of one fixture."""
    tariffs = source.json("inputs/tariffs.json")["tariffs"]
    correction = source.json("inputs/tariff_correction.json") if corrected else None
    plans = {t["tariff_id"]: Plan(t, correction) for t in tariffs}
    customers = {c["customer_id"]: c for c in source.csv("inputs/customers.csv")}
    zones = {cid: ZoneInfo(c["timezone"]) for cid, c in customers.items()}
    lines: dict[str, dict[tuple[str, str], list[int]]] = {cid: {} for cid in customers}
    demand: dict[str, tuple[int, dt.datetime, str]] = {}
    for r in source.csv("inputs/readings.csv"):
        cid = r["customer_id"]
        instant = dt.datetime.fromisoformat(r["interval_start"])
        local = instant.astimezone(zones[cid])
        if (local.year, local.month) != PERIOD:
            continue
        plan = plans[customers[cid]["tariff_id"]]
        band = plan.band(local)
        rate = plan.rate(band, local.date())
        kwh = units(r["kwh"], 3)
        acc = lines[cid].setdefault((band, rate["rate_id"]), [0, 0])
        acc[0] += 1
        acc[1] += kwh
        kw = units(r["kw"], 2)
        if kwh >= 0 and plan.qualifies(local):
            best = demand.get(cid)
            if best is None or (-kw, instant) < (-best[0], best[1]):
                demand[cid] = (kw, instant, r["interval_start"])
    bills, detail, explain = [], [], {}
    for cid in sorted(customers):
        plan = plans[customers[cid]["tariff_id"]]
        prices = {r["rate_id"]: r["eur_per_kwh"] for r in plan.rates}
        energy_lines = []
        for (band, rate_id), (count, kwh) in sorted(lines[cid].items()):
            amount = cents(Fraction(kwh, 1000) * Fraction(prices[rate_id]))
            energy_lines.append((band, rate_id, count, kwh, amount))
        kw, _, start = demand[cid]
        spec = plan.spec
        demand_charge = cents(Fraction(kw, 100) * Fraction(spec["demand"]["eur_per_kw"]))
        energy = sum(line[4] for line in energy_lines)
        subtotal = energy + demand_charge
        tax = cents(Fraction(subtotal, 100) * Fraction(spec["tax"]["rate"]))
        total = subtotal + tax
        bills.append({
            "customer_id": cid,
            "name": customers[cid]["name"],
            "tariff_id": customers[cid]["tariff_id"],
            "intervals": str(sum(line[2] for line in energy_lines)),
            "kwh": fixed(sum(line[3] for line in energy_lines), 3),
            "energy_charge": eur(energy),
            "demand_kw": fixed(kw, 2),
            "demand_interval_start": start,
            "demand_charge": eur(demand_charge),
            "subtotal": eur(subtotal),
            "tax": eur(tax),
            "total": eur(total),
        })  # fmt: skip
        for band, rate_id, count, kwh, amount in energy_lines:
            detail.append({
                "customer_id": cid, "line": "energy", "band": band, "rate_id": rate_id,
                "intervals": str(count), "quantity": fixed(kwh, 3),
                "unit_price": prices[rate_id], "amount": eur(amount),
            })  # fmt: skip
        detail.append({
            "customer_id": cid, "line": "demand", "band": "",
            "rate_id": spec["demand"]["rate_id"], "intervals": "", "quantity": fixed(kw, 2),
            "unit_price": spec["demand"]["eur_per_kw"], "amount": eur(demand_charge),
        })  # fmt: skip
        detail.append({
            "customer_id": cid, "line": "tax", "band": "", "rate_id": spec["tax"]["tax_id"],
            "intervals": "", "quantity": eur(subtotal), "unit_price": spec["tax"]["rate"],
            "amount": eur(tax),
        })  # fmt: skip
        explain[cid] = {
            "head": [f"customer: {cid}", f"tariff: {plan.spec['tariff_id']}", "period: 2025-10"],
            "bands": [
                f"band {b} {r}: {n} intervals, {fixed(k, 3)} kWh, {eur(a)}"
                for b, r, n, k, a in energy_lines
            ],
            "demand": f"demand {spec['demand']['rate_id']}: {fixed(kw, 2)} kW at {start}, "
            f"{eur(demand_charge)}",
            "subtotal": f"subtotal: {eur(subtotal)}",
            "tax": f"tax {spec['tax']['tax_id']}: {eur(tax)}",
            "total_cents": total,
        }
    return {"bills": bills, "detail": detail, "explain": explain}


def truth(source: benchlib.Files) -> dict:
    """Plain data: the expected outputs of the judged stage."""
    corrected = source.exists("inputs/tariff_correction.json")
    now = compute(source, corrected)
    before = compute(source, False) if corrected else now
    adjustments = []
    for old, new in zip(before["bills"], now["bills"], strict=True):
        if old["total"] != new["total"]:
            delta = units(new["total"], 2) - units(old["total"], 2)
            adjustments.append({
                "customer_id": new["customer_id"], "old_total": old["total"],
                "corrected_total": new["total"], "delta": eur(delta),
            })  # fmt: skip
    explanations = {}
    for old, new in zip(before["bills"], now["bills"], strict=True):
        facts = now["explain"][new["customer_id"]]
        prior = units(old["total"], 2)
        explanations[new["customer_id"]] = [
            *facts["head"],
            *facts["bands"],
            facts["demand"],
            facts["subtotal"],
            facts["tax"],
            f"total: {new['total']}",
            f"prior total: {old['total']}",
            f"correction delta: {eur(facts['total_cents'] - prior)}",
        ]
    return {
        "bills": now["bills"],
        "detail": now["detail"],
        "adjustments": adjustments,
        "explanations": explanations,
    }


def expected(run: benchlib.Run) -> dict:
    return run.derived("truth", truth)


def rows(run: benchlib.Run, path: str) -> list[dict]:
    key = f"rows:{path}"
    if key not in run.memo:
        run.memo[key] = run.csv(path)
    return run.memo[key]


def bills_by_customer(run: benchlib.Run) -> dict[str, dict]:
    found = rows(run, "output/bills.csv")
    by_id = {r["customer_id"]: r for r in found}
    benchlib.expect(len(by_id) == len(found), "bills.csv lists a customer twice")
    return by_id


def compare_bills(run: benchlib.Run, columns: list[str], what: str) -> None:
    want = {r["customer_id"]: r for r in expected(run)["bills"]}
    got = bills_by_customer(run)
    benchlib.expect_equal(sorted(got), sorted(want), "customers of bills.csv")
    for cid in sorted(want):
        benchlib.expect_equal(
            {c: got[cid][c] for c in columns},
            {c: want[cid][c] for c in columns},
            f"{what} of {cid}",
        )


def detail_lines(rows_: list[dict], kind: str) -> list[list[str]]:
    return sorted(
        [r["customer_id"], r["band"], r["rate_id"], r["intervals"], r["quantity"],
         r["unit_price"], r["amount"]]
        for r in rows_
        if r["line"] == kind
    )  # fmt: skip


@judge.check(level=3)
def every_customer_billed(run: benchlib.Run) -> None:
    got = sorted(r["customer_id"] for r in rows(run, "output/bills.csv"))
    benchlib.expect_equal(
        got, [r["customer_id"] for r in expected(run)["bills"]], "bills.csv customers"
    )


@judge.check(level=3)
def period_intervals_and_energy(run: benchlib.Run) -> None:
    """Interval counts and kWh of the local month (no tariff involved: every stage)."""
    compare_bills(run, ["intervals", "kwh"], "intervals and kWh")


@judge.check(level=4)
def energy_lines_by_band_and_rate(run: benchlib.Run) -> None:
    """Local bands across the DST change, holidays, effective dates, line amounts."""
    want = detail_lines(expected(run)["detail"], "energy")
    got = detail_lines(rows(run, "output/bill_detail.csv"), "energy")
    for cid in sorted({line[0] for line in want}):
        benchlib.expect_equal(
            [line for line in got if line[0] == cid],
            [line for line in want if line[0] == cid],
            f"energy lines (customer, band, rate, intervals, kWh, price, amount) of {cid}",
        )
    benchlib.expect_equal(got, want, "energy lines of bill_detail.csv")


@judge.check(level=4)
def demand_maximum(run: benchlib.Run) -> None:
    compare_bills(run, ["demand_kw", "demand_interval_start", "demand_charge"], "demand")
    benchlib.expect_equal(
        detail_lines(rows(run, "output/bill_detail.csv"), "demand"),
        detail_lines(expected(run)["detail"], "demand"),
        "demand lines of bill_detail.csv",
    )


@judge.check(level=4)
def charges_tax_and_totals(run: benchlib.Run) -> None:
    compare_bills(run, ["energy_charge", "subtotal", "tax", "total"], "charges")
    benchlib.expect_equal(
        detail_lines(rows(run, "output/bill_detail.csv"), "tax"),
        detail_lines(expected(run)["detail"], "tax"),
        "tax lines of bill_detail.csv",
    )


@judge.check(level=4)
def bills_exact(run: benchlib.Run) -> None:
    benchlib.expect_equal(rows(run, "output/bills.csv"), expected(run)["bills"], "bills.csv")


@judge.check(level=4)
def bill_detail_exact(run: benchlib.Run) -> None:
    benchlib.expect_equal(
        rows(run, "output/bill_detail.csv"), expected(run)["detail"], "bill_detail.csv"
    )


@judge.check(level=4, stage="correction")
def adjustments_exact(run: benchlib.Run) -> None:
    benchlib.expect_equal(
        run.csv("output/adjustments.csv"), expected(run)["adjustments"], "adjustments.csv"
    )


def explanation_lines(run: benchlib.Run, cid: str) -> list[str]:
    text = run.text(f"output/explanations/{cid}.txt")
    benchlib.expect("\r" not in text, f"explanations/{cid}.txt: lines must end with \\n only")
    lines = [line.rstrip() for line in text.splitlines()]
    while lines and not lines[-1]:
        lines.pop()
    return lines


@judge.check(level=4, stage="explanations")
def explanations_exact(run: benchlib.Run) -> None:
    for cid, want in sorted(expected(run)["explanations"].items()):
        benchlib.expect_equal(explanation_lines(run, cid), want, f"explanations/{cid}.txt")


def amount_after(line: str, sep: str = ", ") -> int:
    return units(line.rsplit(sep, 1)[-1].rsplit(": ", 1)[-1], 2)


@judge.check(level=4, stage="explanations")
def explanations_reconcile(run: benchlib.Run) -> None:
    """Each explanation's own numbers add up, and to the candidate's bills.csv."""
    bills = bills_by_customer(run)
    for cid in sorted(expected(run)["explanations"]):
        lines = explanation_lines(run, cid)
        bands = [line for line in lines if line.startswith("band ")]
        facts = {line.split(":")[0].split(" ")[0]: line for line in lines if ": " in line}
        benchlib.expect(
            all(k in facts for k in ("demand", "subtotal", "tax", "total", "prior", "correction")),
            f"explanations/{cid}.txt lacks a demand, subtotal, tax or total line",
        )
        subtotal = amount_after(facts["subtotal"])
        benchlib.expect_equal(
            sum(amount_after(b) for b in bands) + amount_after(facts["demand"]),
            subtotal,
            f"explanations/{cid}.txt: band and demand amounts against its subtotal (cents)",
        )
        total = amount_after(facts["total"])
        benchlib.expect_equal(
            subtotal + amount_after(facts["tax"]), total, f"explanations/{cid}.txt: total"
        )
        benchlib.expect_equal(
            amount_after(facts["prior"]) + amount_after(facts["correction"]),
            total,
            f"explanations/{cid}.txt: prior total + correction delta",
        )
        benchlib.expect_equal(
            total, units(bills[cid]["total"], 2), f"explanations/{cid}.txt total vs bills.csv"
        )
        counts = sum(int(b.split(": ")[1].split(" ")[0]) for b in bands)
        benchlib.expect_equal(
            str(counts), bills[cid]["intervals"], f"explanations/{cid}.txt interval counts"
        )


@judge.edge
def edge_matches_truth(run: benchlib.Run) -> None:
    want = truth(run.source)
    benchlib.expect_equal(rows(run, "output/bills.csv"), want["bills"], "bills.csv")
    benchlib.expect_equal(rows(run, "output/bill_detail.csv"), want["detail"], "bill_detail.csv")


# endregion authored

if __name__ == "__main__":
    sys.exit(judge.main())
