"""Fixtures of task 23: a quarter's purchase orders, goods receipts and supplier invoices.

The anchor records of task.toml are rows of five tables, told apart by their ``table`` key:
``item`` (inputs/items.csv), ``po`` (a line of inputs/purchase_orders.csv), ``receipt`` (a
record of inputs/receipts.json), ``invoice`` (an invoice header of inputs/invoices.xml:
freight and tax) and ``invoice_line`` (a line of that invoice). The generator fills in what
the anchors leave out: the item of a receipt or invoice line (its PO line's item), and the
dates. Anchor suppliers (SUP-21 .. SUP-26) and POs (PO-9xxxx) have no filler, so every anchor
value can be computed by hand.

The seeded filler: 40 items, 12 suppliers (SUP-01 .. SUP-12), 70 purchase orders of one to
five lines (line numbers 10, 20, ...). Each filler line is fully received and invoiced
(most), received in part and invoiced for that part, received in part and not invoiced yet,
over-invoiced beyond the quantity tolerance, invoiced at a price beyond (or within) the price
tolerance, or not touched at all. Receipts come in cases or eaches, in one to three records;
a PO's lines are invoiced on one or two invoices, in cases or eaches. Every unit price per
each (PO and invoice, and the quantity-weighted average of a line's invoice lines) is exact
at four decimals: a case price in cents is drawn so that it divides by the case size.
"""

from __future__ import annotations

import itertools
import random
from decimal import Decimal
from typing import Any
from xml.sax.saxutils import quoteattr

import benchlib

SUPPLIERS = [f"SUP-{n:02d}" for n in range(1, 13)]
CASE_SIZES = [6, 10, 12, 20, 24, 25, 48]
NOUNS = [
    "nitrile gloves", "shipping labels", "pallet wrap", "box cutter blades", "zip ties",
    "packing tape", "bubble mailers", "corrugated boxes", "safety glasses", "hand sanitizer",
    "paper towels", "trash liners", "floor cleaner", "ear plugs", "marker pens",
    "AA batteries", "light tubes", "work gloves", "hi-vis vests", "dust masks",
]  # fmt: skip
ADJECTIVES = ["large", "small", "blue", "heavy-duty", "recycled", "premium", "clear", "black"]
ITEM_HEADER = ["item_id", "description", "each_per_case"]
PO_HEADER = [
    "po_id",
    "po_line",
    "supplier_id",
    "item_id",
    "ordered_qty",
    "uom",
    "unit_price",
    "order_date",
]
TEN_THOUSANDTH = Decimal("0.0001")


def _rows(ctx: benchlib.SeedContext, table: str) -> list[dict[str, Any]]:
    """Anchor rows of one table, in anchor-name order, without the ``table`` key."""
    return [
        {k: v for k, v in record.items() if k != "table"}
        for name in sorted(ctx.anchors)
        for record in ctx.anchor(name)
        if record["table"] == table
    ]


def _price(units: int, places: int = 4) -> str:
    """A price given in ten-thousandths, written with ``places`` decimals."""
    return str((Decimal(units) * TEN_THOUSANDTH).quantize(Decimal(1).scaleb(-places)))


def _day(rng: random.Random, month: int, low: int, high: int) -> str:
    return f"2025-{month:02d}-{rng.randint(low, high):02d}"


def _split(rng: random.Random, total: int, parts: int) -> list[int]:
    """``total`` split into ``parts`` positive integers (fewer when it is too small)."""
    parts = max(1, min(parts, total))
    cuts = sorted(rng.sample(range(1, total), parts - 1)) if parts > 1 else []
    bounds = [0, *cuts, total]
    return [b - a for a, b in itertools.pairwise(bounds)]


class Filler:
    """The seeded purchase orders with their receipts and invoices."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.items: list[dict[str, Any]] = []
        self.lines: list[dict[str, Any]] = []
        self.receipts: list[dict[str, Any]] = []
        self.invoices: list[dict[str, Any]] = []
        self.receipt_number = 50001
        self.invoice_number = 30001

    def make_items(self) -> None:
        names = [f"{a} {n}" for n in NOUNS for a in ADJECTIVES]
        self.rng.shuffle(names)
        for number in range(101, 141):
            size = self.rng.choice(CASE_SIZES)
            self.items.append(
                {"item_id": f"IT-{number}", "description": names.pop(), "each_per_case": size}
            )

    def receipt(self, line: dict[str, Any], quantity: int, uom: str) -> None:
        self.receipts.append({
            "receipt_id": f"GR-{self.receipt_number}",
            "po_id": line["po_id"],
            "po_line": line["po_line"],
            "item_id": line["item_id"],
            "quantity": quantity,
            "uom": uom,
            "received_on": _day(self.rng, 10, 1, 28),
        })  # fmt: skip
        self.receipt_number += self.rng.choice([1, 1, 1, 2])

    def receive(self, line: dict[str, Any], size: int, eaches: int) -> None:
        """Receipt records for ``eaches`` units: cases where they divide, else eaches."""
        for part in _split(self.rng, eaches, self.rng.choice([1, 1, 2, 3])):
            if line["uom"] == "CASE" and part % size == 0 and self.rng.random() < 0.8:
                self.receipt(line, part // size, "CASE")
            else:
                self.receipt(line, part, "EACH")

    def purchase_order(self, number: int) -> None:
        rng = self.rng
        po_id = f"PO-{number}"
        supplier = rng.choice(SUPPLIERS)
        order_date = _day(rng, 9, 1, 30)
        chosen = rng.sample(self.items, rng.randint(1, 5))
        billed: list[list[dict[str, Any]]] = [[], []]
        invoices = rng.choice([1, 1, 2])
        for index, item in enumerate(chosen):
            size = item["each_per_case"]
            line = {"po_id": po_id, "po_line": 10 * (index + 1), "supplier_id": supplier,
                    "item_id": item["item_id"], "order_date": order_date}  # fmt: skip
            if rng.random() < 0.6:
                cases = rng.randint(5, 60)
                cents = rng.choice([c for c in range(800, 12001) if (100 * c) % size == 0])
                each_units = 100 * cents // size
                line.update(ordered_qty=cases, uom="CASE", unit_price=f"{cents / 100:.2f}")
                ordered = cases * size
            else:
                ordered = rng.randint(50, 900)
                each_units = rng.randint(1500, 90000)
                if rng.random() < 0.3:
                    each_units -= each_units % 100
                line.update(ordered_qty=ordered, uom="EACH", unit_price=_price(each_units))
            self.lines.append(line)
            case = rng.choices(
                ["full", "near", "partial", "open", "over", "price", "price_ok", "idle"],
                weights=[45, 10, 10, 10, 8, 7, 5, 5],
            )[0]
            received = ordered
            if case in ("partial", "open"):
                received = rng.randint(ordered // 4, 3 * ordered // 4)
            elif case == "idle":
                received = 0
            if received:
                self.receive(line, size, received)
            if case in ("open", "idle"):
                continue
            invoiced = received
            tolerance = ordered * 2 // 100
            if case == "near" and tolerance:
                invoiced += rng.choice([-1, 1]) * rng.randint(1, tolerance)
            elif case == "over":
                invoiced += tolerance + rng.randint(2, max(3, ordered // 10))
            price = each_units
            if case == "price":
                price += each_units * rng.randint(2, 9) // 100 + 1
            elif case == "price_ok":
                price += rng.choice([-1, 1]) * (each_units // 200)
            parts = _split(rng, invoiced, invoices) if invoices == 2 else [invoiced]
            for slot, part in enumerate(parts):
                case_ok = line["uom"] == "CASE" and price == each_units and part % size == 0
                if case_ok and rng.random() < 0.85:
                    bill = {
                        "quantity": part // size,
                        "uom": "CASE",
                        "unit_price": line["unit_price"],
                    }
                else:
                    bill = {"quantity": part, "uom": "EACH", "unit_price": _price(price)}
                billed[slot].append(
                    {"po_line": line["po_line"], "item_id": item["item_id"], **bill}
                )
        for lines in billed:
            if not lines:
                continue
            freight = rng.choice([0, 0, rng.randint(500, 9000)])
            tax = rng.choice([0, rng.randint(100, 6000)])
            self.invoices.append({
                "invoice_id": f"INV-{self.invoice_number}",
                "supplier_id": supplier,
                "po_id": po_id,
                "invoice_date": _day(rng, 10, 3, 31),
                "freight": f"{freight / 100:.2f}",
                "tax": f"{tax / 100:.2f}",
                "lines": [{"line_no": n + 1, **bill} for n, bill in enumerate(lines)],
            })  # fmt: skip
            self.invoice_number += rng.choice([1, 2, 3])


def _invoice_xml(invoices: list[dict[str, Any]]) -> str:
    out = ['<?xml version="1.0" encoding="UTF-8"?>', "<invoices>"]
    for inv in invoices:
        out.append(
            f"  <invoice id={quoteattr(inv['invoice_id'])} supplier={quoteattr(inv['supplier_id'])}"
            f" po={quoteattr(inv['po_id'])} date={quoteattr(inv['invoice_date'])}>"
        )
        for line in inv["lines"]:
            out.append(
                f'    <line no="{line["line_no"]}" po_line="{line["po_line"]}"'
                f" item={quoteattr(line['item_id'])}>"
            )
            out.append(
                f"      <quantity uom={quoteattr(line['uom'])}>{line['quantity']}</quantity>"
            )
            out.append(f"      <unit_price>{line['unit_price']}</unit_price>")
            out.append("    </line>")
        out.append(f"    <freight>{inv['freight']}</freight>")
        out.append(f"    <tax>{inv['tax']}</tax>")
        out.append("  </invoice>")
    out.append("</invoices>")
    return "\n".join(out) + "\n"


def procurement(ctx: benchlib.SeedContext) -> None:
    """items.csv, purchase_orders.csv, receipts.json and invoices.xml, anchors included."""
    rng = random.Random(f"{ctx.seed}/procurement")
    filler = Filler(rng)
    filler.make_items()
    for number in range(70001, 70071):
        filler.purchase_order(number)
    items = filler.items + _rows(ctx, "item")
    lines = filler.lines + [{"order_date": "2025-09-12", **r} for r in _rows(ctx, "po")]
    item_of = {(r["po_id"], r["po_line"]): r["item_id"] for r in lines}
    receipts = filler.receipts + [
        {
            "receipt_id": r["receipt_id"],
            "po_id": r["po_id"],
            "po_line": r["po_line"],
            "item_id": item_of[(r["po_id"], r["po_line"])],
            "quantity": r["quantity"],
            "uom": r["uom"],
            "received_on": r.get("received_on", "2025-10-06"),
        }
        for r in _rows(ctx, "receipt")
    ]
    invoices = list(filler.invoices)
    anchored_lines = _rows(ctx, "invoice_line")
    for header in _rows(ctx, "invoice"):
        own = [r for r in anchored_lines if r["invoice_id"] == header["invoice_id"]]
        invoices.append({
            "invoice_date": "2025-10-14",
            **header,
            "lines": [
                {
                    "line_no": r["line_no"],
                    "po_line": r["po_line"],
                    "item_id": item_of[(header["po_id"], r["po_line"])],
                    "quantity": r["quantity"],
                    "uom": r["uom"],
                    "unit_price": r["unit_price"],
                }
                for r in sorted(own, key=lambda r: r["line_no"])
            ],
        })  # fmt: skip
    rng.shuffle(lines)
    ctx.write_csv("inputs/items.csv", ITEM_HEADER, sorted(items, key=lambda r: r["description"]))
    ctx.write_csv("inputs/purchase_orders.csv", PO_HEADER, lines)
    ctx.write_json(
        "inputs/receipts.json", {"receipts": sorted(receipts, key=lambda r: r["receipt_id"])}
    )
    ctx.write_text(
        "inputs/invoices.xml", _invoice_xml(sorted(invoices, key=lambda r: r["invoice_id"]))
    )
