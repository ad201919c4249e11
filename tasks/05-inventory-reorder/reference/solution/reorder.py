"""Reorder and transfer plan for three warehouses (reference solution).

python -m solution.reorder INPUTS --as-of YYYY-MM-DD --output DIR
"""

from __future__ import annotations

import argparse
import csv
import datetime as dt
import json
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

WINDOW = 28


def read_csv(path: Path) -> list[dict[str, str]]:
    with path.open(newline="", encoding="utf-8") as stream:
        return list(csv.DictReader(stream))


def four(numerator: int) -> str:
    """numerator / 28 rounded half-up to four decimals."""
    value = (Decimal(numerator) / Decimal(WINDOW)).quantize(Decimal("0.0001"), ROUND_HALF_UP)
    return f"{value:.4f}"


def ceil_div(a: int, b: int) -> int:
    return -(-a // b)


class Plan:
    def __init__(self, inputs: Path, as_of: dt.date) -> None:
        self.as_of = as_of
        self.products = {r["sku"]: r for r in read_csv(inputs / "products.csv")}
        suppliers = json.loads((inputs / "suppliers.json").read_text(encoding="utf-8"))
        self.suppliers = {s["supplier_id"]: s for s in suppliers["suppliers"]}
        self.pairs = sorted((r["sku"], r["warehouse"]) for r in read_csv(inputs / "stock.csv"))
        self.on_hand = {
            (r["sku"], r["warehouse"]): int(r["on_hand"]) for r in read_csv(inputs / "stock.csv")
        }
        first = as_of - dt.timedelta(days=WINDOW)
        self.total = dict.fromkeys(self.pairs, 0)
        for row in read_csv(inputs / "demand.csv"):
            day = dt.date.fromisoformat(row["date"])
            if first <= day < as_of:
                key = (row["sku"], row["warehouse"])
                self.total[key] += int(row["quantity"])
        self.inbound = dict.fromkeys(self.pairs, 0)
        for row in read_csv(inputs / "open_pos.csv"):
            key = (row["sku"], row["warehouse"])
            if dt.date.fromisoformat(row["expected_date"]) <= self.boundary(row["sku"]):
                self.inbound[key] += int(row["quantity"])
        self.position = {k: self.on_hand[k] + self.inbound[k] for k in self.pairs}
        constraints_path = inputs / "constraints.json"
        self.constraints = (
            json.loads(constraints_path.read_text(encoding="utf-8"))
            if constraints_path.exists()
            else {}
        )
        costs_path = inputs / "transfer_costs.csv"
        self.lanes = {}
        if costs_path.exists():
            for row in read_csv(costs_path):
                self.lanes[row["from_warehouse"], row["to_warehouse"]] = row["cost_per_unit"]
        self.transfers: list[dict[str, object]] = []

    def supplier(self, sku: str) -> dict:
        return self.suppliers[self.products[sku]["supplier_id"]]

    def lead(self, sku: str) -> int:
        return int(self.supplier(sku)["lead_days"])

    def safety(self, sku: str) -> int:
        return int(self.products[sku]["safety_days"])

    def boundary(self, sku: str) -> dt.date:
        return self.as_of + dt.timedelta(days=self.lead(sku))

    def target_numerator(self, key: tuple[str, str]) -> int:
        """28 * target stock: the 28-day total times lead_days + safety_days."""
        return self.total[key] * (self.lead(key[0]) + self.safety(key[0]))

    def transfer(self) -> None:
        sent = dict.fromkeys(self.pairs, 0)
        for sku, to in self.pairs:
            recipient = (sku, to)
            # a need of zero or below never moves a unit: the quantity below is not positive
            need = (self.target_numerator(recipient) - WINDOW * self.position[recipient]) // WINDOW
            donors = sorted(
                (Decimal(cost), w) for (w, dest), cost in self.lanes.items() if dest == to
            )
            for _, source in donors:
                donor = (sku, source)
                floor_numerator = self.total[donor] * self.safety(sku)
                room = (WINDOW * self.position[donor] - floor_numerator) // WINDOW
                quantity = min(need, room, self.on_hand[donor] - sent[donor])
                if quantity <= 0:
                    continue
                sent[donor] += quantity
                self.position[donor] -= quantity
                self.position[recipient] += quantity
                need -= quantity
                self.transfers.append(
                    {
                        "sku": sku,
                        "from_warehouse": source,
                        "to_warehouse": to,
                        "quantity": quantity,
                        "cost_per_unit": self.lanes[source, to],
                    }
                )
        self.transfers.sort(key=lambda t: (t["sku"], t["to_warehouse"], t["from_warehouse"]))

    def arrival(self, supplier_id: str) -> dt.date:
        day = self.as_of + dt.timedelta(days=int(self.suppliers[supplier_id]["lead_days"]))
        blackouts = [
            (dt.date.fromisoformat(b["first_day"]), dt.date.fromisoformat(b["last_day"]))
            for b in self.constraints.get("supplier_blackouts", [])
            if b["supplier_id"] == supplier_id
        ]
        moved = True
        while moved:
            moved = False
            for first, last in blackouts:
                if first <= day <= last:
                    day = last + dt.timedelta(days=1)
                    moved = True
        return day

    def purchase(self) -> tuple[dict[tuple[str, str], int], list[dict]]:
        cases: dict[tuple[str, str], int] = {}
        for key in self.pairs:
            short = self.target_numerator(key) - WINDOW * self.position[key]
            units = max(0, ceil_div(short, WINDOW))
            pack = int(self.products[key[0]]["case_pack"])
            cases[key] = ceil_div(units, pack)
        groups: dict[tuple[str, str], list[tuple[str, str]]] = {}
        for key in self.pairs:
            if cases[key] > 0:
                supplier_id = self.products[key[0]]["supplier_id"]
                groups.setdefault((supplier_id, key[1]), []).append(key)
        orders = []
        for (supplier_id, warehouse), keys in sorted(groups.items()):
            minimum = int(self.suppliers[supplier_id]["min_order_cases"])

            def uncovered(key: tuple[str, str]) -> int:
                pack = int(self.products[key[0]]["case_pack"])
                bought = cases[key] * pack
                return self.target_numerator(key) - WINDOW * (self.position[key] + bought)

            while sum(cases[k] for k in keys) < minimum:
                best = min(keys, key=lambda k: (-uncovered(k), k))
                cases[best] += 1
            lines = [
                {
                    "sku": sku,
                    "cases": cases[sku, warehouse],
                    "quantity": cases[sku, warehouse] * int(self.products[sku]["case_pack"]),
                }
                for sku, _ in keys
            ]
            orders.append(
                {
                    "supplier_id": supplier_id,
                    "warehouse": warehouse,
                    "arrival_date": self.arrival(supplier_id).isoformat(),
                    "total_cases": sum(line["cases"] for line in lines),
                    "lines": lines,
                }
            )
        quantities = {k: cases[k] * int(self.products[k[0]]["case_pack"]) for k in self.pairs}
        return quantities, orders


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("inputs", type=Path)
    parser.add_argument("--as-of", required=True, type=dt.date.fromisoformat)
    parser.add_argument("--output", required=True, type=Path)
    args = parser.parse_args(argv)
    plan = Plan(args.inputs, args.as_of)
    plan.transfer()
    quantities, orders = plan.purchase()
    args.output.mkdir(parents=True, exist_ok=True)
    with (args.output / "reorder.csv").open("w", newline="", encoding="utf-8") as stream:
        writer = csv.writer(stream, lineterminator="\n")
        writer.writerow(
            [
                "sku",
                "warehouse",
                "forecast_daily",
                "target_stock",
                "on_hand",
                "inbound_qty",
                "order_qty",
            ]
        )
        for key in plan.pairs:
            writer.writerow(
                [
                    key[0],
                    key[1],
                    four(plan.total[key]),
                    four(plan.target_numerator(key)),
                    plan.on_hand[key],
                    plan.inbound[key],
                    quantities[key],
                ]
            )
    document = {"as_of": args.as_of.isoformat(), "orders": orders}
    (args.output / "supplier_orders.json").write_text(
        json.dumps(document, indent=2) + "\n", encoding="utf-8"
    )
    if (args.inputs / "transfer_costs.csv").exists():
        header = ["sku", "from_warehouse", "to_warehouse", "quantity", "cost_per_unit"]
        with (args.output / "transfers.csv").open("w", newline="", encoding="utf-8") as stream:
            writer = csv.DictWriter(stream, header, lineterminator="\n")
            writer.writeheader()
            writer.writerows(plan.transfers)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
