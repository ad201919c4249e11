# generated from task.toml by benchsmith -- edit only the authored region
"""Judge of task 24: Multi-Warehouse Order Fulfillment.

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
    "id": 24,
    "slug": "order-fulfillment",
    "stages": ["initial", "outage", "expedite"],
    "editable": ["solution/", "output/"],
    "commands": [
        {
            "run": "python -m solution.fulfill inputs --output output",
            "argv": ["python", "-m", "solution.fulfill", "inputs", "--output", "output"],
            "cwd": ".",
            "stdin": None,
            "stage": "initial",
            "timeout": 60.0,
        }
    ],
    "outputs": [
        {
            "path": "output/allocations.csv",
            "format": "csv",
            "header": ["order_id", "line_no", "sku", "warehouse", "quantity", "status"],
            "stage": "initial",
        },
        {
            "path": "output/backorders.csv",
            "format": "csv",
            "header": ["order_id", "line_no", "sku", "ordered", "reserved", "backordered"],
            "stage": "initial",
        },
        {
            "path": "output/inventory_after.csv",
            "format": "csv",
            "header": ["warehouse", "sku", "on_hand", "reserved", "available"],
            "stage": "initial",
        },
        {
            "path": "output/allocation_changes.csv",
            "format": "csv",
            "header": [
                "order_id",
                "line_no",
                "sku",
                "old_warehouse",
                "old_quantity",
                "new_warehouse",
                "new_quantity",
            ],
            "stage": "outage",
        },
    ],
    "expect": [
        {
            "name": "priority-order#1",
            "file": "output/allocations.csv",
            "level": 4,
            "where": {"order_id": "SO-20103", "line_no": "1"},
            "equals": {"warehouse": "EWR", "quantity": "6", "status": "reserved"},
        },
        {
            "name": "priority-order#2",
            "file": "output/allocations.csv",
            "level": 4,
            "where": {"order_id": "SO-20105", "line_no": "1"},
            "equals": {"warehouse": "EWR", "quantity": "4"},
        },
        {
            "name": "priority-order#3",
            "file": "output/backorders.csv",
            "level": 4,
            "where": {"order_id": "SO-20102", "line_no": "1"},
            "equals": {"reserved": "0", "backordered": "6"},
        },
        {
            "name": "due-date-order#1",
            "file": "output/allocations.csv",
            "level": 4,
            "where": {"order_id": "SO-20202", "line_no": "1"},
            "equals": {"warehouse": "SLC", "quantity": "5"},
        },
        {
            "name": "due-date-order#2",
            "file": "output/allocations.csv",
            "level": 4,
            "where": {"order_id": "SO-20201"},
            "absent": True,
        },
        {
            "name": "id-order#1",
            "file": "output/allocations.csv",
            "level": 4,
            "where": {"order_id": "SO-20301", "line_no": "1"},
            "equals": {"warehouse": "ONT", "quantity": "3"},
        },
        {
            "name": "id-order#2",
            "file": "output/backorders.csv",
            "level": 4,
            "where": {"order_id": "SO-20302", "line_no": "1"},
            "equals": {"backordered": "3"},
        },
        {
            "name": "fewer-warehouses#1",
            "file": "output/allocations.csv",
            "level": 4,
            "where": {"order_id": "SO-20401", "line_no": "1"},
            "equals": {"warehouse": "ONT", "quantity": "20"},
        },
        {
            "name": "fewer-warehouses#2",
            "file": "output/allocations.csv",
            "level": 4,
            "where": {"order_id": "SO-20401", "line_no": "2"},
            "equals": {"warehouse": "ONT"},
        },
        {
            "name": "per-unit-cost#1",
            "file": "output/allocations.csv",
            "level": 4,
            "where": {"order_id": "SO-20501", "line_no": "1"},
            "equals": {"warehouse": "SLC", "quantity": "10"},
        },
        {
            "name": "per-unit-cost#2",
            "file": "output/allocations.csv",
            "level": 4,
            "where": {"order_id": "SO-20502", "line_no": "1"},
            "equals": {"warehouse": "EWR", "quantity": "2"},
        },
        {
            "name": "tuple-line-order#1",
            "file": "output/allocations.csv",
            "level": 4,
            "where": {"order_id": "SO-20601", "line_no": "1"},
            "equals": {"warehouse": "ONT"},
        },
        {
            "name": "tuple-line-order#2",
            "file": "output/allocations.csv",
            "level": 4,
            "where": {"order_id": "SO-20601", "line_no": "2"},
            "equals": {"warehouse": "ONT"},
        },
        {
            "name": "tuple-line-order#3",
            "file": "output/allocations.csv",
            "level": 4,
            "where": {"order_id": "SO-20601", "line_no": "3"},
            "equals": {"warehouse": "SLC"},
        },
        {
            "name": "decimal-tie#1",
            "file": "output/allocations.csv",
            "level": 4,
            "where": {"order_id": "SO-20701", "line_no": "1"},
            "equals": {"warehouse": "EWR", "quantity": "6"},
        },
        {
            "name": "no-split#1",
            "file": "output/allocations.csv",
            "level": 4,
            "where": {"order_id": "SO-20801", "line_no": "1"},
            "equals": {"warehouse": "EWR", "quantity": "4"},
        },
        {
            "name": "no-split#2",
            "file": "output/backorders.csv",
            "level": 4,
            "where": {"order_id": "SO-20801", "line_no": "1"},
            "equals": {"reserved": "4", "backordered": "2"},
        },
        {
            "name": "no-split#3",
            "file": "output/backorders.csv",
            "level": 4,
            "where": {"order_id": "SO-20802", "line_no": "1"},
            "equals": {"reserved": "0", "backordered": "6"},
        },
        {
            "name": "no-split#4",
            "file": "output/allocations.csv",
            "level": 4,
            "where": {"order_id": "SO-20802"},
            "absent": True,
        },
        {
            "name": "partial-units-first#1",
            "file": "output/allocations.csv",
            "level": 4,
            "where": {"order_id": "SO-20901", "line_no": "1"},
            "equals": {"warehouse": "EWR", "quantity": "6"},
        },
        {
            "name": "partial-units-first#2",
            "file": "output/allocations.csv",
            "level": 4,
            "where": {"order_id": "SO-20901", "line_no": "2"},
            "equals": {"warehouse": "ONT", "quantity": "3"},
        },
        {
            "name": "partial-fewer-warehouses#1",
            "file": "output/allocations.csv",
            "level": 4,
            "where": {"order_id": "SO-20902", "line_no": "1"},
            "equals": {"warehouse": "EWR", "quantity": "5"},
        },
        {
            "name": "partial-cost#1",
            "file": "output/allocations.csv",
            "level": 4,
            "where": {"order_id": "SO-20903", "line_no": "1"},
            "equals": {"warehouse": "ONT", "quantity": "5"},
        },
        {
            "name": "partial-cost#2",
            "file": "output/allocations.csv",
            "level": 4,
            "where": {"order_id": "SO-20904", "line_no": "1"},
            "equals": {"warehouse": "ONT", "quantity": "4"},
        },
        {
            "name": "shipped-not-counted#1",
            "file": "output/allocations.csv",
            "level": 4,
            "where": {"order_id": "SO-21001", "line_no": "1"},
            "equals": {"warehouse": "MEM", "quantity": "2", "status": "shipped"},
        },
        {
            "name": "shipped-not-counted#2",
            "file": "output/allocations.csv",
            "level": 4,
            "where": {"order_id": "SO-21001", "line_no": "4"},
            "equals": {"warehouse": "SLC", "quantity": "2", "status": "reserved"},
        },
        {
            "name": "shipped-not-counted#3",
            "file": "output/allocations.csv",
            "level": 4,
            "where": {"order_id": "SO-21002", "line_no": "1"},
            "equals": {"warehouse": "SLC", "status": "shipped"},
        },
        {
            "name": "shipped-not-counted#4",
            "file": "output/allocations.csv",
            "level": 4,
            "where": {"order_id": "SO-21002", "line_no": "2"},
            "equals": {"warehouse": "ONT", "quantity": "4"},
        },
        {
            "name": "stock-after-shipping#1",
            "file": "output/allocations.csv",
            "level": 4,
            "where": {"order_id": "SO-21003", "line_no": "1"},
            "equals": {"warehouse": "EWR", "quantity": "5"},
        },
        {
            "name": "stock-after-shipping#2",
            "file": "output/inventory_after.csv",
            "level": 4,
            "where": {"warehouse": "EWR", "sku": "SKU-5107"},
            "equals": {"reserved": "5", "available": "0"},
        },
        {
            "name": "three-warehouses#1",
            "file": "output/backorders.csv",
            "level": 4,
            "where": {"order_id": "SO-21101"},
            "count": 4,
        },
        {
            "name": "three-warehouses#2",
            "file": "output/allocations.csv",
            "level": 4,
            "where": {"order_id": "SO-21101"},
            "absent": True,
        },
        {
            "name": "three-warehouses#3",
            "file": "output/allocations.csv",
            "level": 4,
            "where": {"order_id": "SO-21102", "line_no": "1"},
            "equals": {"warehouse": "EWR", "quantity": "2"},
        },
        {
            "name": "three-warehouses#4",
            "file": "output/allocation_changes.csv",
            "level": 4,
            "stage": "outage",
            "where": {"order_id": "SO-21102"},
            "absent": True,
        },
        {
            "name": "complete-lines-first#1",
            "file": "output/allocations.csv",
            "level": 4,
            "where": {"order_id": "SO-21201", "line_no": "3"},
            "equals": {"warehouse": "ONT", "quantity": "1"},
        },
        {
            "name": "complete-lines-first#2",
            "file": "output/backorders.csv",
            "level": 4,
            "where": {"order_id": "SO-21201", "line_no": "1"},
            "equals": {"reserved": "0", "backordered": "10"},
        },
        {
            "name": "complete-lines-first#3",
            "file": "output/allocations.csv",
            "level": 4,
            "where": {"order_id": "SO-21202"},
            "absent": True,
        },
        {
            "name": "complete-lines-first#4",
            "file": "output/allocation_changes.csv",
            "level": 4,
            "stage": "outage",
            "where": {"order_id": "SO-21201"},
            "absent": True,
        },
        {
            "name": "empty-slot-first#1",
            "file": "output/allocations.csv",
            "level": 4,
            "until": "initial",
            "where": {"order_id": "SO-21302", "line_no": "1"},
            "equals": {"warehouse": "EWR", "quantity": "2"},
        },
        {
            "name": "empty-slot-first#2",
            "file": "output/allocation_changes.csv",
            "level": 4,
            "stage": "outage",
            "until": "outage",
            "where": {"order_id": "SO-21301", "line_no": "2"},
            "equals": {
                "old_warehouse": "MEM",
                "old_quantity": "2",
                "new_warehouse": "",
                "new_quantity": "0",
            },
        },
        {
            "name": "empty-slot-first#3",
            "file": "output/allocations.csv",
            "level": 4,
            "stage": "expedite",
            "where": {"order_id": "SO-21301", "line_no": "1"},
            "equals": {"warehouse": "EWR", "quantity": "2"},
        },
        {
            "name": "empty-slot-first#4",
            "file": "output/allocation_changes.csv",
            "level": 4,
            "stage": "expedite",
            "where": {"order_id": "SO-21301", "line_no": "1"},
            "equals": {
                "old_warehouse": "",
                "old_quantity": "0",
                "new_warehouse": "EWR",
                "new_quantity": "2",
            },
        },
        {
            "name": "kept-not-moved#1",
            "file": "output/backorders.csv",
            "level": 4,
            "stage": "outage",
            "where": {"order_id": "SO-22101"},
            "count": 2,
        },
        {
            "name": "kept-not-moved#2",
            "file": "output/allocations.csv",
            "level": 4,
            "stage": "outage",
            "until": "outage",
            "where": {"order_id": "SO-22102", "line_no": "1"},
            "equals": {"warehouse": "EWR", "quantity": "3"},
        },
        {
            "name": "kept-not-moved#3",
            "file": "output/allocations.csv",
            "level": 4,
            "stage": "outage",
            "where": {"order_id": "SO-22102", "line_no": "2"},
            "equals": {"warehouse": "SLC", "quantity": "3"},
        },
        {
            "name": "kept-not-moved#4",
            "file": "output/allocations.csv",
            "level": 4,
            "stage": "expedite",
            "where": {"order_id": "SO-22102", "line_no": "1"},
            "equals": {"warehouse": "SLC", "quantity": "3"},
        },
        {
            "name": "kept-not-moved#5",
            "file": "output/allocation_changes.csv",
            "level": 4,
            "stage": "expedite",
            "where": {"order_id": "SO-22102", "line_no": "1"},
            "equals": {
                "old_warehouse": "EWR",
                "old_quantity": "3",
                "new_warehouse": "SLC",
                "new_quantity": "3",
            },
        },
        {
            "name": "kept-count#1",
            "file": "output/allocations.csv",
            "level": 4,
            "stage": "outage",
            "where": {"order_id": "SO-22201", "line_no": "2"},
            "equals": {"warehouse": "EWR", "quantity": "8"},
        },
        {
            "name": "kept-count#2",
            "file": "output/allocation_changes.csv",
            "level": 4,
            "stage": "expedite",
            "where": {"order_id": "SO-22201"},
            "absent": True,
        },
        {
            "name": "slot-freed#1",
            "file": "output/backorders.csv",
            "level": 4,
            "until": "initial",
            "where": {"order_id": "SO-22301", "line_no": "4"},
            "equals": {"reserved": "0", "backordered": "2"},
        },
        {
            "name": "slot-freed#2",
            "file": "output/allocations.csv",
            "level": 4,
            "stage": "outage",
            "where": {"order_id": "SO-22301", "line_no": "4"},
            "equals": {"warehouse": "ONT", "quantity": "2"},
        },
        {
            "name": "slot-freed#3",
            "file": "output/allocation_changes.csv",
            "level": 4,
            "stage": "expedite",
            "where": {"order_id": "SO-22301"},
            "absent": True,
        },
        {
            "name": "outage-sequence#1",
            "file": "output/allocations.csv",
            "level": 4,
            "stage": "outage",
            "until": "outage",
            "where": {"order_id": "SO-22402", "line_no": "1"},
            "equals": {"warehouse": "SLC", "quantity": "2"},
        },
        {
            "name": "outage-sequence#2",
            "file": "output/allocations.csv",
            "level": 4,
            "stage": "outage",
            "until": "outage",
            "where": {"order_id": "SO-22401"},
            "absent": True,
        },
        {
            "name": "outage-sequence#3",
            "file": "output/allocation_changes.csv",
            "level": 4,
            "stage": "expedite",
            "where": {"order_id": "SO-22401", "line_no": "1"},
            "equals": {
                "old_warehouse": "",
                "old_quantity": "0",
                "new_warehouse": "SLC",
                "new_quantity": "2",
            },
        },
        {
            "name": "outage-sequence#4",
            "file": "output/allocation_changes.csv",
            "level": 4,
            "stage": "expedite",
            "where": {"order_id": "SO-22402", "line_no": "1"},
            "equals": {
                "old_warehouse": "SLC",
                "old_quantity": "2",
                "new_warehouse": "",
                "new_quantity": "0",
            },
        },
        {
            "name": "unaffected-kept#1",
            "file": "output/allocations.csv",
            "level": 4,
            "stage": "outage",
            "until": "outage",
            "where": {"order_id": "SO-22501"},
            "absent": True,
        },
        {
            "name": "unaffected-kept#2",
            "file": "output/allocations.csv",
            "level": 4,
            "stage": "expedite",
            "where": {"order_id": "SO-22501", "line_no": "1"},
            "equals": {"warehouse": "EWR", "quantity": "4"},
        },
        {
            "name": "unaffected-kept#3",
            "file": "output/allocation_changes.csv",
            "level": 4,
            "stage": "expedite",
            "where": {"order_id": "SO-22501", "line_no": "1"},
            "equals": {
                "old_warehouse": "",
                "old_quantity": "0",
                "new_warehouse": "EWR",
                "new_quantity": "4",
            },
        },
        {
            "name": "expedite-urgent#1",
            "file": "output/allocations.csv",
            "level": 4,
            "until": "outage",
            "where": {"order_id": "SO-23101", "line_no": "1"},
            "equals": {"warehouse": "ONT", "quantity": "5"},
        },
        {
            "name": "expedite-urgent#2",
            "file": "output/allocations.csv",
            "level": 4,
            "stage": "expedite",
            "where": {"order_id": "SO-23102", "line_no": "1"},
            "equals": {"warehouse": "ONT", "quantity": "5"},
        },
        {
            "name": "expedite-urgent#3",
            "file": "output/allocations.csv",
            "level": 4,
            "stage": "expedite",
            "where": {"order_id": "SO-23101"},
            "absent": True,
        },
        {
            "name": "expedite-urgent#4",
            "file": "output/allocations.csv",
            "level": 4,
            "where": {"order_id": "SO-23104", "line_no": "1"},
            "equals": {"warehouse": "SLC", "quantity": "3"},
        },
        {
            "name": "expedite-urgent#5",
            "file": "output/allocations.csv",
            "level": 4,
            "where": {"order_id": "SO-23105"},
            "absent": True,
        },
    ],
    "edge_expect": [
        {
            "name": "edge#1",
            "file": "output/allocations.csv",
            "level": 4,
            "where": {"order_id": "SO-70001"},
            "absent": True,
        },
        {
            "name": "edge#2",
            "file": "output/backorders.csv",
            "level": 4,
            "where": {"order_id": "SO-70001", "line_no": "1"},
            "equals": {"ordered": "3", "reserved": "0", "backordered": "3"},
        },
        {
            "name": "edge#3",
            "file": "output/backorders.csv",
            "level": 4,
            "where": {"order_id": "SO-70001"},
            "count": 3,
        },
        {
            "name": "edge#4",
            "file": "output/allocations.csv",
            "level": 4,
            "where": {"order_id": "SO-70002", "line_no": "2"},
            "equals": {"warehouse": "SLC", "quantity": "5", "status": "reserved"},
        },
    ],
    "edge_include_visible": True,
    "services": [],
}

judge = benchlib.Judge(TASK)

# region authored: benchsmith keeps these lines when it rebuilds judge.py
import itertools
from decimal import Decimal

PRIORITIES = ("urgent", "high", "normal")
MOST_WAREHOUSES = 3
BOM = b"\xef\xbb\xbf"
CSV_OUTPUTS = ["allocations", "backorders", "inventory_after", "allocation_changes"]


class Truth:
    """The plans TASK.md defines for one pristine fixture, recomputed independently: the
    original plan, then the outage plan and the expedite plan when their files exist.
    Plans map (order_id, line_no) to (warehouse, units) for every line that ships units."""

    def __init__(self, source: benchlib.Files) -> None:
        self.orders = {o["order_id"]: o for o in source.json("inputs/orders.json")["orders"]}
        self.shipped = {
            (r["order_id"], int(r["line_no"])): r for r in source.csv("inputs/shipped_lines.csv")
        }
        self.on_hand = {
            (r["warehouse"], r["sku"]): int(r["on_hand"])
            for r in source.csv("inputs/inventory.csv")
        }
        self.rates = {
            (r["warehouse"], r["zone"]): (Decimal(r["base_cost"]), Decimal(r["per_unit_cost"]))
            for r in source.csv("inputs/shipping_cost.csv")
        }
        self.warehouses = sorted({w for w, _ in self.rates})
        self.outage = None
        if source.exists("inputs/warehouse_outage.json"):
            self.outage = source.json("inputs/warehouse_outage.json")["warehouse"]
        self.plans = [self.fresh_plan(set(), None)]
        if self.outage is not None:
            self.plans.append(self.outage_plan(self.plans[0]))
            if source.exists("inputs/expedite.csv"):
                listed = {r["order_id"] for r in source.csv("inputs/expedite.csv")}
                self.plans.append(self.fresh_plan(listed, self.outage))

    def open_lines(self, oid: str) -> list[dict]:
        return [l for l in self.orders[oid]["lines"] if (oid, l["line_no"]) not in self.shipped]

    def line(self, oid: str, line_no: int) -> dict:
        return next(l for l in self.orders[oid]["lines"] if l["line_no"] == line_no)

    def processing_order(self, expedited: set[str]) -> list[str]:
        def rank(oid: str) -> tuple:
            order = self.orders[oid]
            priority = "urgent" if oid in expedited else order["priority"]
            return PRIORITIES.index(priority), order["due_date"], oid

        return sorted(self.orders, key=rank)

    def cost(self, zone: str, assignment: dict) -> Decimal:
        total = Decimal(0)
        for warehouse in sorted({w for w, _ in assignment.values()}):
            total += self.rates[warehouse, zone][0]
        for warehouse, units in assignment.values():
            total += self.rates[warehouse, zone][1] * units
        return total

    def allocate(self, oid: str, pinned: dict, stock: dict) -> dict:
        """The chosen allocation of one order (pinned lines kept), as {line_no: (w, units)}."""
        order, lines = self.orders[oid], self.open_lines(oid)
        free = [l for l in lines if l["line_no"] not in pinned]

        def warehouses_of(assignment: dict) -> tuple:
            return tuple(assignment[l["line_no"]][0] if l["line_no"] in assignment else ""
                         for l in lines)  # fmt: skip

        full = []
        if all(pinned[l["line_no"]][1] == l["quantity"] for l in lines if l["line_no"] in pinned):
            options = [
                [w for w in self.warehouses if stock.get((w, l["sku"]), 0) >= l["quantity"]]
                for l in free
            ]
            for picks in itertools.product(*options):
                assignment = dict(pinned)
                for l, w in zip(free, picks):
                    assignment[l["line_no"]] = (w, l["quantity"])
                used = len({w for w, _ in assignment.values()})
                if used <= MOST_WAREHOUSES:
                    rank = (used, self.cost(order["zone"], assignment), warehouses_of(assignment))
                    full.append((rank, assignment))
        if full:
            return min(full, key=lambda c: c[0])[1]
        if not order["allow_partial"]:
            return {}
        partial = []
        options = [[None] + [w for w in self.warehouses if stock.get((w, l["sku"]), 0) > 0]
                   for l in free]  # fmt: skip
        for picks in itertools.product(*options):
            assignment = dict(pinned)
            for l, w in zip(free, picks):
                if w is not None:
                    assignment[l["line_no"]] = (w, min(l["quantity"], stock[w, l["sku"]]))
            used = len({w for w, _ in assignment.values()})
            if used > MOST_WAREHOUSES:
                continue
            done = sum(assignment[l["line_no"]][1] == l["quantity"]
                       for l in lines if l["line_no"] in assignment)  # fmt: skip
            units = sum(u for _, u in assignment.values())
            rank = (-done, -units, used, self.cost(order["zone"], assignment))
            partial.append((rank + (warehouses_of(assignment),), assignment))
        return min(partial, key=lambda c: c[0])[1]

    def take(self, plan: dict, stock: dict, oid: str, assignment: dict) -> None:
        for line_no, (warehouse, units) in assignment.items():
            stock[warehouse, self.line(oid, line_no)["sku"]] -= units
            plan[oid, line_no] = (warehouse, units)

    def fresh_plan(self, expedited: set[str], closed: str | None) -> dict:
        """Every open line allocated from on_hand (the closed warehouse gives nothing)."""
        stock = {k: v for k, v in self.on_hand.items() if k[0] != closed}
        plan: dict = {}
        for oid in self.processing_order(expedited):
            self.take(plan, stock, oid, self.allocate(oid, {}, stock))
        return plan

    def outage_plan(self, original: dict) -> dict:
        """Release the outage warehouse's reservations; allocate those orders again."""
        plan = {k: v for k, v in original.items() if v[0] != self.outage}
        stock = {k: v for k, v in self.on_hand.items() if k[0] != self.outage}
        for (oid, line_no), (warehouse, units) in plan.items():
            stock[warehouse, self.line(oid, line_no)["sku"]] -= units
        hit = {oid for (oid, _), (w, _) in original.items() if w == self.outage}
        for oid in self.processing_order(set()):
            if oid not in hit:
                continue
            kept = {n: plan.pop((o, n)) for (o, n) in list(plan) if o == oid}
            for line_no, (warehouse, units) in kept.items():
                stock[warehouse, self.line(oid, line_no)["sku"]] += units
            self.take(plan, stock, oid, self.allocate(oid, kept, stock))
        return plan

    def backorders(self, plan: dict) -> list[dict[str, str]]:
        rows = []
        for oid in sorted(self.orders):
            for l in self.open_lines(oid):
                got = plan.get((oid, l["line_no"]), ("", 0))[1]
                if got < l["quantity"]:
                    rows.append({"order_id": oid, "line_no": str(l["line_no"]), "sku": l["sku"],
                                 "ordered": str(l["quantity"]), "reserved": str(got),
                                 "backordered": str(l["quantity"] - got)})  # fmt: skip
        return rows

    def changes(self, before: dict, after: dict) -> list[dict[str, str]]:
        rows = []
        for oid in sorted(self.orders):
            for l in self.open_lines(oid):
                old = before.get((oid, l["line_no"]), ("", 0))
                new = after.get((oid, l["line_no"]), ("", 0))
                if old != new:
                    rows.append({"order_id": oid, "line_no": str(l["line_no"]), "sku": l["sku"],
                                 "old_warehouse": old[0], "old_quantity": str(old[1]),
                                 "new_warehouse": new[0], "new_quantity": str(new[1])})  # fmt: skip
        return rows


def truth(run: benchlib.Run) -> Truth:
    return run.derived("plans", Truth)


def integer(text: str, what: str) -> int:
    """A plain decimal integer (``3``; never ``3.0``, ``03`` or `` 3``)."""
    benchlib.expect(
        text.isdigit() and text == str(int(text)), f"{what}: {text!r} is not a plain integer"
    )
    return int(text)


def candidate(run: benchlib.Run) -> tuple[list[tuple], dict]:
    """The candidate's allocations.csv: shipped rows as tuples, reservations as a plan."""
    if "plan" not in run.memo:
        shipped, plan = [], {}
        for row in run.csv("output/allocations.csv"):
            key = (row["order_id"], integer(row["line_no"], "allocations.csv line_no"))
            quantity = integer(row["quantity"], "allocations.csv quantity")
            benchlib.expect(row["status"] in ("shipped", "reserved"), f"status {row['status']!r}")
            if row["status"] == "shipped":
                shipped.append((*key, row["sku"], row["warehouse"], quantity))
            else:
                benchlib.expect(key not in plan, f"two reserved rows for {key}")
                plan[key] = (row["warehouse"], quantity, row["sku"])
        run.memo["plan"] = (shipped, plan)
    return run.memo["plan"]


def reserved(run: benchlib.Run) -> dict:
    """The candidate's reservations as {(order_id, line_no): (warehouse, units)}."""
    return {k: v[:2] for k, v in candidate(run)[1].items()}


def first_difference(got: dict, want: dict) -> str:
    for key in sorted(set(got) | set(want)):
        if got.get(key) != want.get(key):
            return f"{key[0]} line {key[1]}: expected {want.get(key) or 'nothing'}, got {got.get(key) or 'nothing'}"
    return ""


@judge.check(level=3)
def shipped_rows_preserved(run: benchlib.Run) -> None:
    facts = truth(run)
    want = sorted((o, n, facts.line(o, n)["sku"], r["warehouse"], int(r["quantity"]))
                  for (o, n), r in facts.shipped.items())  # fmt: skip
    benchlib.expect_equal(sorted(candidate(run)[0]), want, "shipped rows of allocations.csv")


@judge.check(level=3)
def reservations_are_legal(run: benchlib.Run) -> None:
    facts, plan = truth(run), candidate(run)[1]
    taken: dict[tuple, int] = {}
    used: dict[str, set] = {}
    for (oid, line_no), (warehouse, units, sku) in sorted(plan.items()):
        lines = facts.open_lines(oid) if oid in facts.orders else []
        line = next((l for l in lines if l["line_no"] == line_no), None)
        benchlib.expect(line is not None, f"{oid} line {line_no} is not an open order line")
        benchlib.expect(sku == line["sku"], f"{oid} line {line_no}: sku {sku!r}")
        benchlib.expect(1 <= units <= line["quantity"], f"{oid} line {line_no}: {units} units")
        taken[warehouse, sku] = taken.get((warehouse, sku), 0) + units
        used.setdefault(oid, set()).add(warehouse)
    for (warehouse, sku), units in sorted(taken.items()):
        have = facts.on_hand.get((warehouse, sku), 0)
        benchlib.expect(
            units <= have, f"{units} units of {sku} reserved at {warehouse}, {have} on hand"
        )
    for oid, warehouses in sorted(used.items()):
        benchlib.expect(len(warehouses) <= MOST_WAREHOUSES, f"{oid} uses {sorted(warehouses)}")
        if not facts.orders[oid]["allow_partial"]:
            short = [l["line_no"] for l in facts.open_lines(oid)
                     if plan.get((oid, l["line_no"]), ("", 0))[1] != l["quantity"]]  # fmt: skip
            benchlib.expect(not short, f"{oid} (allow_partial false) is partly allocated")


@judge.check(level=3)
def backorders_match_allocations(run: benchlib.Run) -> None:
    want = truth(run).backorders(reserved(run))
    benchlib.expect_equal(sorted(map(sorted_row, run.csv("output/backorders.csv"))),
                          sorted(map(sorted_row, want)), "backorders.csv rows")  # fmt: skip


@judge.check(level=3)
def inventory_after_matches_allocations(run: benchlib.Run) -> None:
    facts, plan = truth(run), reserved(run)
    taken: dict[tuple, int] = {}
    for (oid, line_no), (warehouse, units) in plan.items():
        key = (warehouse, facts.line(oid, line_no)["sku"])
        taken[key] = taken.get(key, 0) + units
    want = [{"warehouse": w, "sku": s, "on_hand": str(n), "reserved": str(taken.get((w, s), 0)),
             "available": str(n - taken.get((w, s), 0))}
            for (w, s), n in sorted(facts.on_hand.items())]  # fmt: skip
    benchlib.expect_equal(sorted(map(sorted_row, run.csv("output/inventory_after.csv"))),
                          sorted(map(sorted_row, want)), "inventory_after.csv rows")  # fmt: skip


def sorted_row(row: dict) -> tuple:
    return tuple(sorted(row.items()))


@judge.check(level=3)
def stable_orders_as_planned(run: benchlib.Run) -> None:
    """Orders every plan of this stage allocates alike follow the stage-1 rules exactly."""
    facts, plan = truth(run), reserved(run)
    for oid in sorted(facts.orders):
        keys = [(oid, l["line_no"]) for l in facts.open_lines(oid)]
        wanted = {tuple(p.get(k) for k in keys) for p in facts.plans}
        if len(wanted) == 1:
            got = {k: plan[k] for k in keys if k in plan}
            want = {k: facts.plans[0][k] for k in keys if k in facts.plans[0]}
            benchlib.expect(got == want, first_difference(got, want))


@judge.check(level=4)
def plan_follows_the_rules(run: benchlib.Run) -> None:
    got, want = reserved(run), truth(run).plans[-1]
    benchlib.expect(got == want, first_difference(got, want))


@judge.check(level=4)
def rows_in_stated_order(run: benchlib.Run) -> None:
    keys = [(r["order_id"], int(r["line_no"])) for r in run.csv("output/allocations.csv")]
    benchlib.expect_equal(keys, sorted(keys), "allocations.csv order (order_id, line_no)")
    want = truth(run).backorders(reserved(run))
    benchlib.expect_equal(run.csv("output/backorders.csv"), want, "backorders.csv")
    keys = [(r["warehouse"], r["sku"]) for r in run.csv("output/inventory_after.csv")]
    benchlib.expect_equal(keys, sorted(keys), "inventory_after.csv order (warehouse, sku)")


@judge.check(level=4)
def no_byte_order_mark(run: benchlib.Run) -> None:
    for name in CSV_OUTPUTS:
        path = f"output/{name}.csv"
        if run.exists(path):
            benchlib.expect(not run.bytes(path).startswith(BOM), f"{path} starts with a BOM")


@judge.check(level=4, stage="outage")
def outage_warehouse_reserves_nothing(run: benchlib.Run) -> None:
    outage = truth(run).outage
    hits = sorted(k for k, (w, _) in reserved(run).items() if w == outage)
    benchlib.expect_equal(hits, [], f"reservations at the outage warehouse {outage}")


@judge.check(level=4, stage="outage")
def allocation_changes_exact(run: benchlib.Run) -> None:
    facts = truth(run)
    want = facts.changes(facts.plans[-2], facts.plans[-1])
    benchlib.expect_equal(run.csv("output/allocation_changes.csv"), want, "allocation_changes.csv")


@judge.edge
def edge_plan_follows_the_rules(run: benchlib.Run) -> None:
    got, want = reserved(run), truth(run).plans[-1]
    benchlib.expect(got == want, first_difference(got, want))
    benchlib.expect_equal(
        run.csv("output/backorders.csv"), truth(run).backorders(want), "backorders.csv"
    )


# endregion authored

if __name__ == "__main__":
    sys.exit(judge.main())
