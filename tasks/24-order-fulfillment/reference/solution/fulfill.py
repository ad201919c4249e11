"""Reference solution of task 24 (all three stages), standard library only.

Usage: python -m solution.fulfill inputs --output output

Orders are allocated one at a time in processing order. For each order every candidate
(each open line: one warehouse or nothing) is enumerated with itertools.product, and the
best is the smallest key (-complete lines, -units, warehouses, cost, warehouse tuple): when a
full allocation exists it is always the best, so the key also encodes the full-first rule.
"""

from __future__ import annotations

import argparse
import csv
import json
from decimal import Decimal
from itertools import product
from pathlib import Path

RANK = {"urgent": 0, "high": 1, "normal": 2}
MAX_WAREHOUSES = 3
NOTHING = ("", 0)


def read_csv(path: Path) -> list[dict[str, str]]:
    with open(path, newline="", encoding="utf-8") as stream:
        return list(csv.DictReader(stream))


def write_csv(path: Path, header: list[str], rows: list[list]) -> None:
    with open(path, "w", newline="", encoding="utf-8") as stream:
        writer = csv.writer(stream, lineterminator="\n")
        writer.writerow(header)
        writer.writerows(rows)


class Book:
    """The order book, stock and rates of one inputs folder."""

    def __init__(self, folder: Path) -> None:
        self.orders = json.loads((folder / "orders.json").read_text(encoding="utf-8"))["orders"]
        self.stock = {(r["warehouse"], r["sku"]): int(r["on_hand"]) for r in read_csv(folder / "inventory.csv")}
        self.rates = {
            (r["warehouse"], r["zone"]): (Decimal(r["base_cost"]), Decimal(r["per_unit_cost"]))
            for r in read_csv(folder / "shipping_cost.csv")
        }
        self.warehouses = sorted({w for w, _ in self.rates})
        self.shipped = {(r["order_id"], int(r["line_no"])): r for r in read_csv(folder / "shipped_lines.csv")}
        self.open = {
            o["order_id"]: [l for l in o["lines"] if (o["order_id"], l["line_no"]) not in self.shipped]
            for o in self.orders
        }

    def sequence(self, urgent: set[str]) -> list[dict]:
        def key(order: dict) -> tuple:
            priority = "urgent" if order["order_id"] in urgent else order["priority"]
            return (RANK[priority], order["due_date"], order["order_id"])

        return sorted(self.orders, key=key)

    def choose(self, order: dict, fixed: dict[int, tuple], stock: dict) -> list[tuple]:
        """The best allocation of the order's open lines (fixed lines pinned): (warehouse, units)."""
        lines = self.open[order["order_id"]]
        choices = []
        for line in lines:
            if line["line_no"] in fixed:
                choices.append([fixed[line["line_no"]]])
                continue
            have = [(w, stock.get((w, line["sku"]), 0)) for w in self.warehouses]
            choices.append([NOTHING] + [(w, min(n, line["quantity"])) for w, n in have if n > 0])
        best, best_key = None, None
        for combo in product(*choices):
            used = sorted({w for w, units in combo if units})
            if len(used) > MAX_WAREHOUSES:
                continue
            complete = sum(units == line["quantity"] for (_, units), line in zip(combo, lines))
            cost = sum(self.rates[w, order["zone"]][0] for w in used)
            cost += sum(self.rates[w, order["zone"]][1] * units for w, units in combo if units)
            key = (-complete, -sum(units for _, units in combo), len(used), cost, [w for w, _ in combo])
            if best_key is None or key < best_key:
                best, best_key = combo, key
        if not order["allow_partial"] and -best_key[0] < len(lines):
            return [NOTHING] * len(lines)
        return list(best)

    def plan(self, urgent: set[str], banned: str | None) -> dict[tuple, tuple]:
        """Allocate every order from scratch; ``banned`` gives no stock."""
        stock = {k: n for k, n in self.stock.items() if k[0] != banned}
        result: dict[tuple, tuple] = {}
        for order in self.sequence(urgent):
            picked = self.choose(order, {}, stock)
            for line, (w, units) in zip(self.open[order["order_id"]], picked):
                if units:
                    stock[w, line["sku"]] -= units
                    result[order["order_id"], line["line_no"]] = (w, units)
        return result

    def repair(self, base: dict[tuple, tuple], outage: str) -> dict[tuple, tuple]:
        """The outage plan: release the outage warehouse's reservations, re-allocate those orders."""
        result = {k: v for k, v in base.items() if v[0] != outage}
        stock = {k: n for k, n in self.stock.items() if k[0] != outage}
        for (oid, line_no), (w, units) in result.items():
            stock[w, self.sku(oid, line_no)] -= units
        for order in self.sequence(set()):
            oid = order["order_id"]
            if not any(base.get((oid, l["line_no"]), NOTHING)[0] == outage for l in self.open[oid]):
                continue
            fixed = {n: result.pop((o, n)) for o, n in list(result) if o == oid}
            for n, (w, units) in fixed.items():
                stock[w, self.sku(oid, n)] += units
            for line, (w, units) in zip(self.open[oid], self.choose(order, fixed, stock)):
                if units:
                    stock[w, line["sku"]] -= units
                    result[oid, line["line_no"]] = (w, units)
        return result

    def sku(self, oid: str, line_no: int) -> str:
        return next(l["sku"] for l in self.open[oid] if l["line_no"] == line_no)


def write_outputs(book: Book, plan: dict, previous: dict | None, out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    rows = []
    for order in book.orders:
        for line in order["lines"]:
            key = (order["order_id"], line["line_no"])
            if key in book.shipped:
                shipped = book.shipped[key]
                rows.append([*key, line["sku"], shipped["warehouse"], int(shipped["quantity"]), "shipped"])
            elif key in plan:
                rows.append([*key, line["sku"], *plan[key], "reserved"])
    write_csv(out / "allocations.csv", ["order_id", "line_no", "sku", "warehouse", "quantity", "status"], sorted(rows))
    backorders = []
    for order in book.orders:
        for line in book.open[order["order_id"]]:
            got = plan.get((order["order_id"], line["line_no"]), NOTHING)[1]
            if got < line["quantity"]:
                backorders.append([order["order_id"], line["line_no"], line["sku"], line["quantity"], got, line["quantity"] - got])
    write_csv(out / "backorders.csv", ["order_id", "line_no", "sku", "ordered", "reserved", "backordered"], sorted(backorders))
    reserved: dict[tuple, int] = {}
    for (oid, line_no), (w, units) in plan.items():
        key = (w, book.sku(oid, line_no))
        reserved[key] = reserved.get(key, 0) + units
    inventory = [[w, sku, n, reserved.get((w, sku), 0), n - reserved.get((w, sku), 0)] for (w, sku), n in book.stock.items()]
    write_csv(out / "inventory_after.csv", ["warehouse", "sku", "on_hand", "reserved", "available"], sorted(inventory))
    if previous is not None:
        changes = []
        for order in book.orders:
            for line in book.open[order["order_id"]]:
                key = (order["order_id"], line["line_no"])
                old, new = previous.get(key, NOTHING), plan.get(key, NOTHING)
                if old != new:
                    changes.append([*key, line["sku"], *old, *new])
        header = ["order_id", "line_no", "sku", "old_warehouse", "old_quantity", "new_warehouse", "new_quantity"]
        write_csv(out / "allocation_changes.csv", header, sorted(changes))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("inputs", type=Path)
    parser.add_argument("--output", type=Path, required=True)
    args = parser.parse_args()
    book = Book(args.inputs)
    plan = book.plan(set(), None)
    previous = None
    outage_path = args.inputs / "warehouse_outage.json"
    if outage_path.is_file():
        outage = json.loads(outage_path.read_text(encoding="utf-8"))["warehouse"]
        plan, previous = book.repair(plan, outage), plan
        expedite_path = args.inputs / "expedite.csv"
        if expedite_path.is_file():
            urgent = {r["order_id"] for r in read_csv(expedite_path)}
            plan, previous = book.plan(urgent, outage), plan
    write_outputs(book, plan, previous, args.output)


if __name__ == "__main__":
    main()
