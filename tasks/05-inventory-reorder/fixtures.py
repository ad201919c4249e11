"""Fixture generator of task 5: 80 SKUs stocked in three warehouses, 56 days of sales.

One generator writes the five stage-1 inputs (products, suppliers, stock, demand, open
purchase orders) so they agree on the SKUs. The anchors of task.toml (records without a
``file``) each pin one SKU in one warehouse: its product fields, on-hand stock, the demand
totals of the last 28 complete days (``recent``), of the 28 days before (``older``) and of
the as-of day itself (``today``, an incomplete day), and its open purchase orders (``pos``,
``"QTY@YYYY-MM-DD"``). Every anchor SKU names all three warehouses, so no filler touches it.
Supplier S05 supplies anchor SKUs only. The stage-2 files are static (stages/transfers/).
"""

from __future__ import annotations

import datetime as dt
import random

import benchlib

AS_OF = dt.date(2025, 6, 1)
DAYS = 56
WINDOW = 28
WAREHOUSES = ["ATL", "CHI", "DAL"]
SKUS = 80
SUPPLIERS = [
    {"supplier_id": "S01", "name": "Northwind Packaging", "lead_days": 5, "min_order_cases": 8},
    {"supplier_id": "S02", "name": "Bluegate Foods", "lead_days": 7, "min_order_cases": 6},
    {"supplier_id": "S03", "name": "Cedar Tools", "lead_days": 7, "min_order_cases": 10},
    {"supplier_id": "S04", "name": "Delta Home", "lead_days": 10, "min_order_cases": 5},
    {"supplier_id": "S05", "name": "Evergreen Paper", "lead_days": 12, "min_order_cases": 12},
    {"supplier_id": "S06", "name": "Foxglove Garden", "lead_days": 14, "min_order_cases": 4},
]
FILLER_SUPPLIERS = ["S01", "S02", "S03", "S04", "S06"]
ADJECTIVES = ["Compact", "Heavy-duty", "Classic", "Eco", "Premium", "Mini", "Large", "Steel"]
NOUNS = [
    "storage bin",
    "shelf bracket",
    "garden hose",
    "paper towel pack",
    "tool box",
    "coffee filter",
    "extension cord",
    "plant pot",
    "packing tape",
    "work glove",
    "LED bulb",
    "door hinge",
]
RATES = [0, 0.3, 1, 2, 4, 7, 12]
RATE_WEIGHTS = [1, 2, 4, 5, 4, 2, 1]


def _spread(rng: random.Random, total: int, days: list[dt.date]) -> list[tuple[dt.date, int]]:
    """``total`` units over some of ``days`` as sales lines (a day may have two lines)."""
    if total <= 0:
        return []
    active = sorted(rng.sample(days, min(len(days), max(1, min(total, rng.randint(12, 24))))))
    counts = dict.fromkeys(active, 1)
    for _ in range(total - len(active)):
        counts[rng.choice(active)] += 1
    lines = []
    for day in active:
        quantity = counts[day]
        if quantity >= 2 and rng.random() < 0.25:
            first = rng.randint(1, quantity - 1)
            lines += [(day, first), (day, quantity - first)]
        else:
            lines.append((day, quantity))
    return lines


def _days(start: int, count: int) -> list[dt.date]:
    return [AS_OF - dt.timedelta(days=start + i) for i in range(count)]


def inventory(ctx: benchlib.SeedContext) -> None:
    rng = ctx.rng
    anchors: list[dict] = []
    for name in ctx.anchors:  # declaration order
        anchors += ctx.anchor(name)
    recent_days, older_days = _days(1, WINDOW), _days(WINDOW + 1, WINDOW)
    products: dict[str, dict] = {}
    cells: dict[tuple[str, str], dict] = {}
    for record in anchors:
        products.setdefault(
            record["sku"],
            {
                "sku": record["sku"],
                "supplier_id": record["supplier_id"],
                "case_pack": record["case_pack"],
                "safety_days": record["safety_days"],
            },
        )
        cells[record["sku"], record["warehouse"]] = record
    filler = [f"SKU-{1001 + i}" for i in range(SKUS + 20)]
    filler = [sku for sku in filler if sku not in products][: SKUS - len(products)]
    for sku in filler:
        products[sku] = {
            "sku": sku,
            "supplier_id": rng.choice(FILLER_SUPPLIERS),
            "case_pack": rng.choice([1, 4, 6, 10, 12, 24]),
            "safety_days": rng.choice([3, 4, 5, 7, 10]),
        }
        for warehouse in WAREHOUSES:
            rate = rng.choices(RATES, RATE_WEIGHTS)[0]
            recent = sum(max(0, round(rng.gauss(rate, rate * 0.6))) for _ in range(WINDOW))
            older = sum(max(0, round(rng.gauss(rate, rate * 0.6))) for _ in range(WINDOW))
            pos = []
            if rng.random() < 0.35:
                for _ in range(rng.randint(1, 2)):
                    day = AS_OF + dt.timedelta(days=rng.randint(-3, 20))
                    pos.append(f"{products[sku]['case_pack'] * rng.randint(1, 6)}@{day}")
            cells[sku, warehouse] = {
                "on_hand": rng.randint(0, int(rate * 40) + 3),
                "recent": recent,
                "older": older,
                "today": rng.randint(1, 6) if rate and rng.random() < 0.3 else 0,
                "pos": ";".join(pos),
            }
    for sku, product in products.items():
        product["name"] = f"{rng.choice(ADJECTIVES)} {rng.choice(NOUNS)} {sku[-4:]}"
    skus = sorted(products)
    ctx.write_csv(
        "inputs/products.csv",
        ["sku", "name", "supplier_id", "case_pack", "safety_days"],
        [products[sku] for sku in skus],
    )
    ctx.write_json("inputs/suppliers.json", {"suppliers": SUPPLIERS})
    stock = [
        {"sku": sku, "warehouse": w, "on_hand": cells[sku, w]["on_hand"]}
        for sku in skus
        for w in WAREHOUSES
    ]
    ctx.write_csv("inputs/stock.csv", ["sku", "warehouse", "on_hand"], stock)
    demand = []
    orders = []
    for sku in skus:
        for warehouse in WAREHOUSES:
            cell = cells[sku, warehouse]
            lines = _spread(rng, cell["recent"], recent_days)
            lines += _spread(rng, cell["older"], older_days)
            lines += _spread(rng, cell["today"], [AS_OF])
            demand += [(day, sku, warehouse, q) for day, q in lines]
            for text in filter(None, str(cell.get("pos", "")).split(";")):
                quantity, _, day = text.partition("@")
                orders.append((day, sku, warehouse, int(quantity)))
    rng.shuffle(demand)
    demand.sort(key=lambda line: line[0])
    ctx.write_csv(
        "inputs/demand.csv",
        ["date", "sku", "warehouse", "quantity"],
        [{"date": d.isoformat(), "sku": s, "warehouse": w, "quantity": q} for d, s, w, q in demand],
    )
    rng.shuffle(orders)
    ctx.write_csv(
        "inputs/open_pos.csv",
        ["po_id", "sku", "warehouse", "quantity", "expected_date"],
        [
            {
                "po_id": f"PO-{50001 + i}",
                "sku": s,
                "warehouse": w,
                "quantity": q,
                "expected_date": d,
            }
            for i, (d, s, w, q) in enumerate(orders)
        ],
    )
