"""Fixtures of task 24: an order book of 500 orders served from four warehouses.

One generator writes the three stage-1 inputs that must agree (orders.json, inventory.csv,
shipped_lines.csv); shipping_cost.csv is static (visible/), and so is the stage-2 outage
file (stages/outage/). The stage-3 expedite list is generated from the same world.

The anchor records of task.toml carry a ``table`` key:

- ``order``: ``order_id``, ``priority``, ``due_date``, ``zone``, ``allow_partial`` and
  ``lines``, the open and shipped lines as ``"SKU:QTY SKU:QTY ..."`` (line numbers 1, 2, ...);
- ``stock``: ``sku`` and ``on_hand``, its stock as ``"WAREHOUSE:QTY ..."``;
- ``shipped``: ``order_id``, ``line_no``, ``warehouse`` (the whole line shipped);
- ``expedite``: ``order_id`` (stage 3).

Anchor orders use anchor SKUs (SKU-5xxx) only and filler orders filler SKUs only, so the
filler never competes with an anchor. Filler SKUs are stocked sparsely (one to three
warehouses each), so an order has few candidate allocations.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Any

import benchlib

ORDERS = 500
WAREHOUSES = ["EWR", "MEM", "ONT", "SLC"]
PLACE_WEIGHTS = {"EWR": 10, "MEM": 3, "ONT": 10, "SLC": 8}  # MEM is the small warehouse
ZONES = ["northeast", "south", "midwest", "west", "pacific"]
ZONE_WEIGHTS = [30, 25, 22, 20, 3]
PRIORITIES = ["urgent", "high", "normal"]
PRIORITY_WEIGHTS = [8, 22, 70]
FILLER_SKUS = 90
FIRST_DUE = dt.date(2025, 7, 1)
DUE_DAYS = 18
ORDER_HEADER = ["order_id", "customer", "priority", "due_date", "zone", "allow_partial", "lines"]
INVENTORY_HEADER = ["warehouse", "sku", "on_hand"]
SHIPPED_HEADER = ["order_id", "line_no", "warehouse", "quantity"]
EXPEDITE_HEADER = ["order_id", "requested_by"]
REQUESTERS = ["account team", "customer service", "key accounts"]


def _rows(ctx: benchlib.SeedContext, table: str) -> list[dict[str, Any]]:
    """Anchor records of one table, in anchor-name order, without the ``table`` key."""
    return [
        {k: v for k, v in record.items() if k != "table"}
        for name in sorted(ctx.anchors)
        for record in ctx.anchor(name)
        if record["table"] == table
    ]


def _lines(text: str) -> list[dict[str, Any]]:
    pairs = [item.split(":") for item in text.split()]
    return [{"line_no": n, "sku": sku, "quantity": int(q)} for n, (sku, q) in enumerate(pairs, 1)]


def world(ctx: benchlib.SeedContext) -> dict[str, Any]:
    """The whole main fixture: anchors plus the seeded filler."""
    rng = random.Random(f"{ctx.seed}/world")
    orders = []
    for record in _rows(ctx, "order"):
        orders.append({**record, "lines": _lines(record["lines"])})
    stock = {}
    for record in _rows(ctx, "stock"):
        for item in record["on_hand"].split():
            warehouse, quantity = item.split(":")
            stock[warehouse, record["sku"]] = int(quantity)
    shipped = []
    by_id = {o["order_id"]: o for o in orders}
    for record in _rows(ctx, "shipped"):
        line = by_id[record["order_id"]]["lines"][int(record["line_no"]) - 1]
        shipped.append({**record, "quantity": line["quantity"]})
    skus = [f"SKU-{1001 + i}" for i in range(FILLER_SKUS)]
    popularity = [rng.choice([1, 1, 2, 3, 5]) for _ in skus]
    demand = dict.fromkeys(skus, 0)
    filler = [f"SO-{10001 + 7 * i}" for i in range(ORDERS - len(orders))]
    for oid in filler:
        count = rng.choices([1, 2, 3, 4, 5], weights=[30, 30, 20, 13, 7])[0]
        chosen: list[str] = []
        while len(chosen) < count:
            sku = rng.choices(skus, weights=popularity)[0]
            if sku not in chosen:
                chosen.append(sku)
        lines = []
        for n, sku in enumerate(chosen, 1):
            quantity = rng.choice([1, 1, 2, 2, 3, 4, 5, 6, 8, 10, 12, 20])
            demand[sku] += quantity
            lines.append({"line_no": n, "sku": sku, "quantity": quantity})
        order = {
            "order_id": oid,
            "priority": rng.choices(PRIORITIES, weights=PRIORITY_WEIGHTS)[0],
            "due_date": (FIRST_DUE + dt.timedelta(days=rng.randrange(DUE_DAYS))).isoformat(),
            "zone": rng.choices(ZONES, weights=ZONE_WEIGHTS)[0],
            "allow_partial": rng.random() < 0.7,
            "lines": lines,
        }
        orders.append(order)
        roll = rng.random()
        if roll < 0.08:  # some lines left already; rarely the whole order
            gone = lines if roll < 0.012 or count == 1 else rng.sample(lines, rng.randint(1, count - 1))
            for line in sorted(gone, key=lambda l: l["line_no"]):
                shipped.append({"order_id": oid, "line_no": line["line_no"],
                                "warehouse": rng.choice(WAREHOUSES), "quantity": line["quantity"]})  # fmt: skip
    for sku in skus:
        places: list[str] = []
        for _ in range(rng.choices([1, 2, 3], weights=[30, 45, 25])[0]):
            rest = [w for w in WAREHOUSES if w not in places]
            places.append(rng.choices(rest, weights=[PLACE_WEIGHTS[w] for w in rest])[0])
        total = max(4, int(demand[sku] * rng.uniform(0.75, 1.15)))
        shares = [rng.random() + 0.3 for _ in places]
        for place, share in zip(places, shares):
            stock[place, sku] = max(1, round(total * share / sum(shares)))
    for order in orders:
        order["customer"] = f"C{rng.randrange(1000, 10000)}"
    rng.shuffle(orders)
    for name in sorted(ctx.anchors):  # an anchor's orders appear in descending ID order
        ids = {r["order_id"] for r in ctx.anchor(name) if r["table"] == "order"}
        slots = [i for i, o in enumerate(orders) if o["order_id"] in ids]
        mine = sorted((orders[i] for i in slots), key=lambda o: o["order_id"], reverse=True)
        for i, order in zip(slots, mine):
            orders[i] = order
    inventory = [{"warehouse": w, "sku": s, "on_hand": n} for (w, s), n in sorted(stock.items())]
    random.Random(f"{ctx.seed}/inventory-rows").shuffle(inventory)  # in no particular order
    return {
        "orders": [{k: o[k] for k in ORDER_HEADER} for o in orders],
        "inventory": inventory,
        "shipped": sorted(shipped, key=lambda r: (r["order_id"], int(r["line_no"]))),
    }


def order_book(ctx: benchlib.SeedContext) -> None:
    """inputs/orders.json (in no particular order), inventory.csv, shipped_lines.csv."""
    data = world(ctx)
    ctx.write_json("inputs/orders.json", {"orders": data["orders"]})
    ctx.write_csv("inputs/inventory.csv", INVENTORY_HEADER, data["inventory"])
    ctx.write_csv("inputs/shipped_lines.csv", SHIPPED_HEADER, data["shipped"])


def expedite(ctx: benchlib.SeedContext) -> None:
    """inputs/expedite.csv: the anchors' expedited orders and a dozen filler orders."""
    data = world(ctx)
    rng = random.Random(f"{ctx.seed}/expedite")
    shipped = {(r["order_id"], int(r["line_no"])) for r in data["shipped"]}
    pool = sorted(
        o["order_id"]
        for o in data["orders"]
        if o["order_id"].startswith("SO-1")
        and o["priority"] != "urgent"
        and any((o["order_id"], l["line_no"]) not in shipped for l in o["lines"])
    )
    picked = sorted(rng.sample(pool, 12) + [r["order_id"] for r in _rows(ctx, "expedite")])
    rows = [{"order_id": oid, "requested_by": rng.choice(REQUESTERS)} for oid in picked]
    ctx.write_csv(ctx.path, EXPEDITE_HEADER, rows)
