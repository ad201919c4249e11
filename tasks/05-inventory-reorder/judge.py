# generated from task.toml by benchsmith -- edit only the authored region
"""Judge of task 5: Inventory Reorder and Transfer Plan.

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
    "id": 5,
    "slug": "inventory-reorder",
    "stages": ["initial", "transfers"],
    "editable": ["solution/", "output/"],
    "commands": [
        {
            "run": "python -m solution.reorder inputs --as-of 2025-06-01 --output output",
            "argv": [
                "python",
                "-m",
                "solution.reorder",
                "inputs",
                "--as-of",
                "2025-06-01",
                "--output",
                "output",
            ],
            "cwd": ".",
            "stdin": None,
            "stage": "initial",
            "timeout": 30.0,
        }
    ],
    "outputs": [
        {
            "path": "output/reorder.csv",
            "format": "csv",
            "header": [
                "sku",
                "warehouse",
                "forecast_daily",
                "target_stock",
                "on_hand",
                "inbound_qty",
                "order_qty",
            ],
            "stage": "initial",
        },
        {"path": "output/supplier_orders.json", "format": "json", "header": [], "stage": "initial"},
        {
            "path": "output/transfers.csv",
            "format": "csv",
            "header": ["sku", "from_warehouse", "to_warehouse", "quantity", "cost_per_unit"],
            "stage": "transfers",
        },
    ],
    "expect": [
        {
            "name": "forecast-window#1",
            "file": "output/reorder.csv",
            "level": 3,
            "where": {"sku": "SKU-1007", "warehouse": "ATL"},
            "equals": {"forecast_daily": "0.0000", "target_stock": "0.0000"},
        },
        {
            "name": "forecast-window#2",
            "file": "output/reorder.csv",
            "level": 4,
            "where": {"sku": "SKU-1007", "warehouse": "CHI"},
            "equals": {"forecast_daily": "2.5000", "target_stock": "22.5000"},
        },
        {
            "name": "forecast-window#3",
            "file": "output/reorder.csv",
            "level": 3,
            "where": {"sku": "SKU-1007", "warehouse": "DAL"},
            "equals": {"forecast_daily": "2.0000", "order_qty": "0"},
        },
        {
            "name": "exact-target#1",
            "file": "output/reorder.csv",
            "level": 4,
            "where": {"sku": "SKU-1013", "warehouse": "CHI"},
            "equals": {"target_stock": "10.0000", "inbound_qty": "10", "order_qty": "0"},
        },
        {
            "name": "exact-target#2",
            "file": "output/transfers.csv",
            "level": 4,
            "stage": "transfers",
            "where": {"sku": "SKU-1013"},
            "equals": {"from_warehouse": "ATL", "to_warehouse": "DAL", "quantity": "5"},
        },
        {
            "name": "open-po-boundary#1",
            "file": "output/reorder.csv",
            "level": 4,
            "where": {"sku": "SKU-1022", "warehouse": "DAL"},
            "equals": {"inbound_qty": "24", "order_qty": "24"},
        },
        {
            "name": "two-donors#1",
            "file": "output/transfers.csv",
            "level": 4,
            "stage": "transfers",
            "where": {"sku": "SKU-1031", "from_warehouse": "ATL"},
            "equals": {"to_warehouse": "DAL", "quantity": "14", "cost_per_unit": "0.85"},
        },
        {
            "name": "two-donors#2",
            "file": "output/transfers.csv",
            "level": 4,
            "stage": "transfers",
            "where": {"sku": "SKU-1031", "from_warehouse": "CHI"},
            "equals": {"to_warehouse": "DAL", "quantity": "50"},
        },
        {
            "name": "two-donors#3",
            "file": "output/reorder.csv",
            "level": 4,
            "stage": "transfers",
            "where": {"sku": "SKU-1031", "warehouse": "DAL"},
            "equals": {"order_qty": "16"},
        },
        {
            "name": "no-overshoot#1",
            "file": "output/transfers.csv",
            "level": 4,
            "stage": "transfers",
            "where": {"sku": "SKU-1044"},
            "equals": {
                "from_warehouse": "ATL",
                "to_warehouse": "CHI",
                "quantity": "8",
                "cost_per_unit": "1.10",
            },
        },
        {
            "name": "no-overshoot#2",
            "file": "output/reorder.csv",
            "level": 4,
            "stage": "transfers",
            "where": {"sku": "SKU-1044", "warehouse": "CHI"},
            "equals": {"order_qty": "5"},
        },
        {
            "name": "minimum-top-up#1",
            "file": "output/reorder.csv",
            "level": 4,
            "where": {"sku": "SKU-1052", "warehouse": "ATL"},
            "equals": {"order_qty": "40"},
        },
        {
            "name": "minimum-top-up#2",
            "file": "output/reorder.csv",
            "level": 4,
            "where": {"sku": "SKU-1060", "warehouse": "ATL"},
            "equals": {"order_qty": "24"},
        },
        {
            "name": "minimum-top-up#3",
            "file": "output/reorder.csv",
            "level": 4,
            "where": {"sku": "SKU-1066", "warehouse": "ATL"},
            "equals": {"order_qty": "32"},
        },
        {
            "name": "minimum-top-up#4",
            "file": "output/reorder.csv",
            "level": 4,
            "where": {"sku": "SKU-1060", "warehouse": "CHI"},
            "equals": {"order_qty": "72"},
        },
        {
            "name": "minimum-top-up#5",
            "file": "output/supplier_orders.json",
            "level": 4,
            "stage": "transfers",
            "path": "orders.12.total_cases",
            "equals": 12,
        },
        {
            "name": "minimum-top-up#6",
            "file": "output/supplier_orders.json",
            "level": 4,
            "stage": "transfers",
            "path": "orders.12.lines.2.cases",
            "equals": 4,
        },
        {
            "name": "blackouts#1",
            "file": "output/supplier_orders.json",
            "level": 4,
            "stage": "transfers",
            "path": "orders.0.supplier_id",
            "equals": "S01",
        },
        {
            "name": "blackouts#2",
            "file": "output/supplier_orders.json",
            "level": 4,
            "stage": "transfers",
            "path": "orders.0.arrival_date",
            "equals": "2025-06-07",
        },
        {
            "name": "blackouts#3",
            "file": "output/supplier_orders.json",
            "level": 4,
            "stage": "transfers",
            "path": "orders.7.supplier_id",
            "equals": "S03",
        },
        {
            "name": "blackouts#4",
            "file": "output/supplier_orders.json",
            "level": 4,
            "stage": "transfers",
            "path": "orders.7.arrival_date",
            "equals": "2025-06-13",
        },
        {
            "name": "blackouts#5",
            "file": "output/supplier_orders.json",
            "level": 4,
            "stage": "transfers",
            "path": "orders.11.warehouse",
            "equals": "DAL",
        },
        {
            "name": "blackouts#6",
            "file": "output/supplier_orders.json",
            "level": 4,
            "stage": "transfers",
            "path": "orders.11.arrival_date",
            "equals": "2025-06-11",
        },
        {
            "name": "blackouts#7",
            "file": "output/supplier_orders.json",
            "level": 4,
            "stage": "transfers",
            "path": "orders.16.supplier_id",
            "equals": "S06",
        },
        {
            "name": "blackouts#8",
            "file": "output/supplier_orders.json",
            "level": 4,
            "stage": "transfers",
            "path": "orders.16.arrival_date",
            "equals": "2025-06-15",
        },
    ],
    "edge_expect": [
        {
            "name": "edge#1",
            "file": "output/reorder.csv",
            "level": 4,
            "where": {"sku": "SKU-2002", "warehouse": "CHI"},
            "equals": {"forecast_daily": "0.0000", "target_stock": "0.0000", "order_qty": "0"},
        },
        {
            "name": "edge#2",
            "file": "output/reorder.csv",
            "level": 4,
            "where": {"sku": "SKU-2002"},
            "count": 3,
        },
        {
            "name": "edge#3",
            "file": "output/reorder.csv",
            "level": 4,
            "where": {"sku": "SKU-2001", "warehouse": "CHI"},
            "equals": {"order_qty": "24"},
        },
        {
            "name": "edge#4",
            "file": "output/transfers.csv",
            "level": 4,
            "stage": "transfers",
            "where": {"sku": "SKU-2002"},
            "absent": True,
        },
    ],
    "edge_include_visible": True,
    "services": [],
}

judge = benchlib.Judge(TASK)

# region authored: benchsmith keeps these lines when it rebuilds judge.py
import datetime as dt
from decimal import Decimal
from fractions import Fraction

REORDER = "output/reorder.csv"
ORDERS = "output/supplier_orders.json"
TRANSFERS = "output/transfers.csv"
AS_OF = dt.date(2025, 6, 1)
Pair = tuple[str, str]


def four(value: Fraction) -> str:
    """A non-negative fraction with four decimals, half up."""
    scaled = value * 10000
    whole = scaled.numerator // scaled.denominator
    if scaled - whole >= Fraction(1, 2):
        whole += 1
    return f"{whole // 10000}.{whole % 10000:04d}"


class Plan:
    """TASK.md and the stage-2 message recomputed from the pristine inputs, in fractions."""

    def __init__(self, source: benchlib.Files, *, stage2: bool = True) -> None:
        """``stage2=False``: stage 1's plan, the stage-2 inputs ignored (the edge fixture
        holds them at every stage)."""
        self.products = {r["sku"]: r for r in source.csv("inputs/products.csv")}
        self.suppliers = {
            s["supplier_id"]: s for s in source.json("inputs/suppliers.json")["suppliers"]
        }
        stock = source.csv("inputs/stock.csv")
        self.pairs: list[Pair] = sorted((r["sku"], r["warehouse"]) for r in stock)
        self.on_hand = {(r["sku"], r["warehouse"]): int(r["on_hand"]) for r in stock}
        total = dict.fromkeys(self.pairs, 0)
        for row in source.csv("inputs/demand.csv"):
            if 1 <= (AS_OF - dt.date.fromisoformat(row["date"])).days <= 28:
                total[row["sku"], row["warehouse"]] += int(row["quantity"])
        self.forecast = {p: Fraction(total[p], 28) for p in self.pairs}
        self.target = {
            p: self.forecast[p] * (self.lead(p[0]) + self.safety(p[0])) for p in self.pairs
        }
        self.inbound = dict.fromkeys(self.pairs, 0)
        for row in source.csv("inputs/open_pos.csv"):
            key = (row["sku"], row["warehouse"])
            due = dt.date.fromisoformat(row["expected_date"])
            if (due - AS_OF).days <= self.lead(row["sku"]):
                self.inbound[key] += int(row["quantity"])
        self.position = {p: self.on_hand[p] + self.inbound[p] for p in self.pairs}
        self.lanes: dict[tuple[str, str], str] = {}
        if stage2 and source.exists("inputs/transfer_costs.csv"):
            for row in source.csv("inputs/transfer_costs.csv"):
                self.lanes[row["from_warehouse"], row["to_warehouse"]] = row["cost_per_unit"]
        constraints = (
            source.json("inputs/constraints.json")
            if stage2 and source.exists("inputs/constraints.json")
            else {}
        )
        self.blackouts = constraints.get("supplier_blackouts", [])
        self.transfers = self.plan_transfers()
        self.orders = self.plan_orders()

    def lead(self, sku: str) -> int:
        return int(self.suppliers[self.products[sku]["supplier_id"]]["lead_days"])

    def safety(self, sku: str) -> int:
        return int(self.products[sku]["safety_days"])

    def plan_transfers(self) -> list[tuple[str, str, str, int, str]]:
        made = []
        sent = dict.fromkeys(self.pairs, 0)
        for sku, to in self.pairs:
            need = max(0, self.target[sku, to] - self.position[sku, to]).__floor__()
            donors = sorted(
                (Decimal(cost), frm)
                for (frm, dest), cost in self.lanes.items()
                if dest == to and frm != to and (sku, frm) in self.position
            )
            for _, frm in donors:
                if need == 0:
                    break
                donor = (sku, frm)
                room = (self.position[donor] - self.forecast[donor] * self.safety(sku)).__floor__()
                quantity = min(need, room, self.on_hand[donor] - sent[donor])
                if quantity > 0:
                    sent[donor] += quantity
                    need -= quantity
                    self.position[donor] -= quantity
                    self.position[sku, to] += quantity
                    made.append((sku, frm, to, quantity, self.lanes[frm, to]))
        return sorted(made, key=lambda t: (t[0], t[2], t[1]))

    def arrival(self, supplier_id: str) -> str:
        day = AS_OF + dt.timedelta(days=int(self.suppliers[supplier_id]["lead_days"]))
        windows = sorted(
            (b["first_day"], b["last_day"])
            for b in self.blackouts
            if b["supplier_id"] == supplier_id
        )
        for first, last in windows:  # sorted by start: one pass finds the first free day
            if first <= day.isoformat() <= last:
                day = dt.date.fromisoformat(last) + dt.timedelta(days=1)
        return day.isoformat()

    def plan_orders(self) -> list[dict]:
        self.quantity = dict.fromkeys(self.pairs, 0)
        groups: dict[tuple[str, str], list[str]] = {}
        for sku, warehouse in self.pairs:
            pack = int(self.products[sku]["case_pack"])
            short = self.target[sku, warehouse] - self.position[sku, warehouse]
            if short > 0:
                self.quantity[sku, warehouse] = -(-short.__ceil__() // pack) * pack
                groups.setdefault((self.products[sku]["supplier_id"], warehouse), []).append(sku)
        orders = []
        for (supplier_id, warehouse), skus in sorted(groups.items()):
            minimum = int(self.suppliers[supplier_id]["min_order_cases"])
            packs = {sku: int(self.products[sku]["case_pack"]) for sku in skus}

            def cases() -> int:
                return sum(self.quantity[s, warehouse] // packs[s] for s in skus)  # noqa: B023

            while cases() < minimum:
                uncovered = {
                    s: self.target[s, warehouse]
                    - self.position[s, warehouse]
                    - self.quantity[s, warehouse]
                    for s in skus
                }
                best = max(skus, key=lambda s: (uncovered[s], [-ord(c) for c in s]))
                self.quantity[best, warehouse] += packs[best]
            lines = [
                {
                    "sku": s,
                    "cases": self.quantity[s, warehouse] // packs[s],
                    "quantity": self.quantity[s, warehouse],
                }
                for s in sorted(skus)
            ]
            orders.append(
                {
                    "supplier_id": supplier_id,
                    "warehouse": warehouse,
                    "arrival_date": self.arrival(supplier_id),
                    "total_cases": cases(),
                    "lines": lines,
                }
            )
        return orders

    def rows(self) -> list[dict[str, str]]:
        return [
            {
                "sku": sku,
                "warehouse": warehouse,
                "forecast_daily": four(self.forecast[sku, warehouse]),
                "target_stock": four(self.target[sku, warehouse]),
                "on_hand": str(self.on_hand[sku, warehouse]),
                "inbound_qty": str(self.inbound[sku, warehouse]),
                "order_qty": str(self.quantity[sku, warehouse]),
            }
            for sku, warehouse in self.pairs
        ]


def plan(run: benchlib.Run) -> Plan:
    if "plan" not in run.memo:
        run.memo["plan"] = Plan(run.source)
    return run.memo["plan"]


def integer(value: object, what: str) -> int:
    """A JSON output's whole number: a JSON integer, never text, a float or a boolean
    (TASK.md: every other number of the outputs is a plain integer)."""
    ok = isinstance(value, int) and not isinstance(value, bool)
    benchlib.expect(ok, f"{what}: {value!r} is not a JSON integer")
    return int(value)  # type: ignore[arg-type]


def csv_integer(text: str, what: str) -> int:
    """A CSV field's whole number written plainly: ``0`` or digits without a sign, a leading
    zero, spaces or a fraction."""
    ok = text == "0" or (text[:1] in "123456789" and text.isascii() and text.isdigit())
    benchlib.expect(ok, f"{what}: {text!r} is not a plain integer")
    return int(text)


def columns(run: benchlib.Run, *names: str) -> list[tuple[str, ...]]:
    return [tuple(row[n] for n in names) for row in run.csv(REORDER)]


def expected_columns(run: benchlib.Run, *names: str) -> list[tuple[str, ...]]:
    return [tuple(row[n] for n in names) for row in plan(run).rows()]


def compare_columns(run: benchlib.Run, *names: str) -> None:
    got, want = (
        columns(run, "sku", "warehouse", *names),
        expected_columns(run, "sku", "warehouse", *names),
    )
    benchlib.expect_equal(len(got), len(want), "reorder.csv row count")
    for have, wanted in zip(got, want, strict=True):
        benchlib.expect_equal(have, wanted, f"reorder.csv row {wanted[:2]} ({', '.join(names)})")


def candidate_orders(run: benchlib.Run) -> list[dict]:
    document = run.json(ORDERS)
    benchlib.expect(isinstance(document, dict), "supplier_orders.json is not an object")
    benchlib.expect_equal(document.get("as_of"), AS_OF.isoformat(), "as_of")
    orders = document.get("orders")
    benchlib.expect(isinstance(orders, list), "supplier_orders.json has no orders list")
    benchlib.expect(all(isinstance(o, dict) for o in orders), "every order is an object")
    return orders


ORDER_KEYS = ["arrival_date", "lines", "supplier_id", "total_cases", "warehouse"]


def order_view(order: dict, what: str) -> dict:
    benchlib.expect_equal(sorted(order), ORDER_KEYS, f"{what}: keys")
    lines = order.get("lines")
    benchlib.expect(
        isinstance(lines, list) and all(isinstance(x, dict) for x in lines), f"{what}: lines"
    )
    for line in lines:
        benchlib.expect_equal(sorted(line), ["cases", "quantity", "sku"], f"{what}: keys of a line")
    return {
        "supplier_id": order.get("supplier_id"),
        "warehouse": order.get("warehouse"),
        "total_cases": integer(order.get("total_cases"), f"{what} total_cases"),
        "lines": [
            (
                line.get("sku"),
                integer(line.get("cases"), f"{what} cases"),
                integer(line.get("quantity"), f"{what} quantity"),
            )
            for line in lines
        ],
    }


@judge.check(level=3)
def forecast_windows(run: benchlib.Run) -> None:
    """Every SKU/warehouse in order; the mean of the last 28 complete days; on_hand copied."""
    compare_columns(run, "forecast_daily", "on_hand")


@judge.check(level=3)
def purchase_plan_generated(run: benchlib.Run) -> None:
    """supplier_orders.json lists orders of the right suppliers and warehouses, in order."""
    got = [(o.get("supplier_id"), o.get("warehouse")) for o in candidate_orders(run)]
    want = [(o["supplier_id"], o["warehouse"]) for o in plan(run).orders]
    benchlib.expect_equal(got, want, "(supplier_id, warehouse) of the orders")


@judge.check(level=4)
def target_and_open_po(run: benchlib.Run) -> None:
    """Exact targets (lead + safety days) and open POs due by the lead-date boundary."""
    compare_columns(run, "target_stock", "inbound_qty")


@judge.check(level=4)
def order_quantities(run: benchlib.Run) -> None:
    """order_qty of every SKU/warehouse: whole units, case packs, minimum top-ups."""
    compare_columns(run, "order_qty")


@judge.check(level=4)
def case_packs_and_minimums(run: benchlib.Run) -> None:
    """Every order's lines (sku, cases, quantity) and its total_cases recomputed."""
    got = candidate_orders(run)
    want = plan(run).orders
    benchlib.expect_equal(sorted(run.json(ORDERS)), ["as_of", "orders"], "top-level keys")
    benchlib.expect_equal(len(got), len(want), "number of orders")
    for have, wanted in zip(got, want, strict=True):
        what = f"order {wanted['supplier_id']}/{wanted['warehouse']}"
        view = order_view(have, what)
        expected = {k: wanted[k] for k in ("supplier_id", "warehouse", "total_cases")}
        expected["lines"] = [(x["sku"], x["cases"], x["quantity"]) for x in wanted["lines"]]
        benchlib.expect_equal(view, expected, what)


@judge.check(level=4)
def arrival_dates(run: benchlib.Run) -> None:
    """arrival_date: as_of + lead_days, moved past every blackout of the order's supplier."""
    got = [
        (o.get("supplier_id"), o.get("warehouse"), o.get("arrival_date"))
        for o in candidate_orders(run)
    ]
    want = [(o["supplier_id"], o["warehouse"], o["arrival_date"]) for o in plan(run).orders]
    benchlib.expect_equal(got, want, "arrival dates")


def transfer_rows(run: benchlib.Run) -> list[tuple[str, str, str, int, str]]:
    rows = run.csv(TRANSFERS)
    return [
        (
            r["sku"],
            r["from_warehouse"],
            r["to_warehouse"],
            csv_integer(r["quantity"], "transfer quantity"),
            r["cost_per_unit"],
        )
        for r in rows
    ]


@judge.check(level=4, stage="transfers")
def transfers_exact(run: benchlib.Run) -> None:
    """Every nonzero transfer, in (sku, to, from) order, cost_per_unit copied exactly."""
    benchlib.expect_equal(transfer_rows(run), plan(run).transfers, "transfers.csv rows")


@judge.check(level=4, stage="transfers")
def transfer_conservation_and_donor_safety(run: benchlib.Run) -> None:
    """The candidate's own transfers: listed lanes, sent <= on hand, donors above their floor."""
    want = plan(run)
    fresh = Plan(run.source)  # positions before any transfer
    position = {p: fresh.on_hand[p] + fresh.inbound[p] for p in fresh.pairs}
    sent = dict.fromkeys(fresh.pairs, 0)
    for sku, frm, to, quantity, cost in transfer_rows(run):
        benchlib.expect(
            (frm, to) in want.lanes and (sku, frm) in position and (sku, to) in position,
            f"no lane or no stock row for {sku} {frm}->{to}",
        )
        benchlib.expect(quantity > 0, f"transfer of {quantity} units of {sku}")
        benchlib.expect_equal(cost, want.lanes[frm, to], f"cost_per_unit {frm}->{to}")
        sent[sku, frm] += quantity
        position[sku, frm] -= quantity
        position[sku, to] += quantity
    for pair in fresh.pairs:
        benchlib.expect(sent[pair] <= fresh.on_hand[pair], f"{pair} sends more than it has on hand")
        if sent[pair]:
            floor = fresh.forecast[pair] * fresh.safety(pair[0])
            benchlib.expect(position[pair] >= floor, f"{pair} ends below its safety floor")
    benchlib.expect_equal(sum(position.values()), sum(want.position.values()), "units conserved")


def edge_plan_matches(run: benchlib.Run, want: Plan) -> None:
    """The whole edge plan: the new SKU has zero forecast, no purchase and no transfer."""
    got = [tuple(r.values()) for r in run.csv(REORDER)]
    benchlib.expect_equal(got, [tuple(r.values()) for r in want.rows()], "reorder.csv rows")
    if want.lanes:
        benchlib.expect_equal(transfer_rows(run), want.transfers, "transfers.csv rows")
    orders = [order_view(o, "order") for o in candidate_orders(run)]
    expected = [
        {
            "supplier_id": o["supplier_id"],
            "warehouse": o["warehouse"],
            "total_cases": o["total_cases"],
            "lines": [(x["sku"], x["cases"], x["quantity"]) for x in o["lines"]],
        }
        for o in want.orders
    ]
    benchlib.expect_equal(orders, expected, "supplier orders")


@judge.edge(until="initial")
def new_sku_before_transfers(run: benchlib.Run) -> None:
    """Stage 1 on the edge fixture: its stage-2 inputs (blackouts, lanes) are not read yet."""
    edge_plan_matches(run, Plan(run.source, stage2=False))


@judge.edge(stage="transfers")
def new_sku_without_history(run: benchlib.Run) -> None:
    """The whole edge plan with transfers and blackouts."""
    edge_plan_matches(run, plan(run))


# endregion authored

if __name__ == "__main__":
    sys.exit(judge.main())
