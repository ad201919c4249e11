# generated from task.toml by benchsmith -- edit only the authored region
"""Judge of task 23: Procurement Three-Way Match.

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
    "id": 23,
    "slug": "three-way-match",
    "stages": ["initial", "corrections", "credits"],
    "editable": ["solution/", "output/"],
    "commands": [
        {
            "run": "python -m solution.three_way_match inputs --output output",
            "argv": ["python", "-m", "solution.three_way_match", "inputs", "--output", "output"],
            "cwd": ".",
            "stdin": None,
            "stage": "initial",
            "timeout": 60.0,
        }
    ],
    "outputs": [
        {
            "path": "output/line_matches.csv",
            "format": "csv",
            "header": [
                "po_id",
                "po_line",
                "supplier_id",
                "item_id",
                "ordered_qty",
                "received_qty",
                "invoiced_qty",
                "po_unit_price",
                "invoice_unit_price",
                "qty_variance",
                "price_variance",
                "status",
                "gross_amount",
                "payable_amount",
            ],
            "stage": "initial",
        },
        {
            "path": "output/exceptions.csv",
            "format": "csv",
            "header": ["po_id", "po_line", "supplier_id", "exception", "variance"],
            "stage": "initial",
        },
        {
            "path": "output/supplier_summary.json",
            "format": "json",
            "header": [],
            "stage": "initial",
        },
    ],
    "expect": [
        {
            "name": "quantity-tolerance#1",
            "file": "output/line_matches.csv",
            "level": 4,
            "where": {"po_id": "PO-90001", "po_line": "10"},
            "equals": {
                "invoiced_qty": "588",
                "qty_variance": "12",
                "status": "matched",
                "payable_amount": "882.00",
            },
        },
        {
            "name": "quantity-tolerance#2",
            "file": "output/line_matches.csv",
            "level": 4,
            "where": {"po_id": "PO-90001", "po_line": "20", "status": "quantity_variance"},
            "equals": {"qty_variance": "13", "gross_amount": "880.50", "payable_amount": "0.00"},
        },
        {
            "name": "quantity-tolerance#3",
            "file": "output/line_matches.csv",
            "level": 4,
            "where": {"po_id": "PO-90001", "po_line": "30"},
            "equals": {"status": "matched"},
        },
        {
            "name": "quantity-tolerance#4",
            "file": "output/line_matches.csv",
            "level": 4,
            "where": {"po_id": "PO-90001", "po_line": "40"},
            "equals": {"qty_variance": "12", "status": "matched"},
        },
        {
            "name": "quantity-tolerance#5",
            "file": "output/line_matches.csv",
            "level": 4,
            "where": {"po_id": "PO-90001", "po_line": "50", "status": "quantity_variance"},
            "equals": {"qty_variance": "13"},
        },
        {
            "name": "quantity-tolerance#6",
            "file": "output/line_matches.csv",
            "level": 4,
            "where": {"po_id": "PO-90001", "po_line": "60"},
            "equals": {"status": "matched"},
        },
        {
            "name": "quantity-tolerance#7",
            "file": "output/line_matches.csv",
            "level": 4,
            "where": {"po_id": "PO-90001", "po_line": "70", "status": "quantity_variance"},
            "equals": {"qty_variance": "3"},
        },
        {
            "name": "quantity-tolerance#8",
            "file": "output/line_matches.csv",
            "level": 4,
            "where": {"po_id": "PO-90001", "po_line": "80"},
            "equals": {"qty_variance": "20", "status": "matched"},
        },
        {
            "name": "quantity-tolerance#9",
            "file": "output/line_matches.csv",
            "level": 4,
            "where": {"po_id": "PO-90001", "po_line": "90"},
            "equals": {"qty_variance": "20", "status": "matched"},
        },
        {
            "name": "quantity-tolerance#10",
            "file": "output/line_matches.csv",
            "level": 4,
            "where": {"po_id": "PO-90001", "po_line": "100"},
            "equals": {
                "ordered_qty": "240",
                "po_unit_price": "1.5000",
                "qty_variance": "4",
                "status": "matched",
            },
        },
        {
            "name": "quantity-tolerance#11",
            "file": "output/exceptions.csv",
            "level": 4,
            "where": {"po_id": "PO-90001", "po_line": "50", "exception": "quantity_variance"},
            "equals": {"variance": "13"},
        },
        {
            "name": "price-tolerance#1",
            "file": "output/line_matches.csv",
            "level": 4,
            "where": {"po_id": "PO-90002", "po_line": "10"},
            "equals": {
                "invoice_unit_price": "2.5250",
                "price_variance": "0.0250",
                "status": "matched",
            },
        },
        {
            "name": "price-tolerance#2",
            "file": "output/line_matches.csv",
            "level": 4,
            "where": {"po_id": "PO-90002", "po_line": "20", "status": "price_variance"},
            "equals": {"price_variance": "0.0251", "payable_amount": "0.00"},
        },
        {
            "name": "price-tolerance#3",
            "file": "output/line_matches.csv",
            "level": 4,
            "where": {"po_id": "PO-90002", "po_line": "30"},
            "equals": {"price_variance": "0.0250", "status": "matched"},
        },
        {
            "name": "price-tolerance#4",
            "file": "output/line_matches.csv",
            "level": 4,
            "where": {"po_id": "PO-90002", "po_line": "40", "status": "price_variance"},
            "equals": {"price_variance": "0.0251"},
        },
        {
            "name": "price-tolerance#5",
            "file": "output/line_matches.csv",
            "level": 4,
            "where": {"po_id": "PO-90002", "po_line": "50"},
            "equals": {"status": "matched"},
        },
        {
            "name": "price-tolerance#6",
            "file": "output/line_matches.csv",
            "level": 4,
            "where": {"po_id": "PO-90002", "po_line": "60"},
            "equals": {"status": "matched"},
        },
        {
            "name": "price-tolerance#7",
            "file": "output/line_matches.csv",
            "level": 4,
            "where": {"po_id": "PO-90002", "po_line": "70"},
            "equals": {"ordered_qty": "120", "po_unit_price": "2.5000", "status": "matched"},
        },
        {
            "name": "price-tolerance#8",
            "file": "output/line_matches.csv",
            "level": 4,
            "where": {"po_id": "PO-90002", "po_line": "80"},
            "equals": {
                "received_qty": "120",
                "invoiced_qty": "120",
                "invoice_unit_price": "2.5250",
                "status": "matched",
                "gross_amount": "303.00",
            },
        },
        {
            "name": "price-tolerance#9",
            "file": "output/line_matches.csv",
            "level": 4,
            "where": {"po_id": "PO-90002", "po_line": "90", "status": "price_variance"},
            "equals": {"invoice_unit_price": "2.5300"},
        },
        {
            "name": "price-tolerance#10",
            "file": "output/line_matches.csv",
            "level": 4,
            "where": {"po_id": "PO-90002", "po_line": "100"},
            "equals": {
                "invoiced_qty": "400",
                "invoice_unit_price": "2.5250",
                "status": "matched",
                "gross_amount": "1010.00",
            },
        },
        {
            "name": "price-tolerance#11",
            "file": "output/line_matches.csv",
            "level": 4,
            "where": {"po_id": "PO-90002", "po_line": "110"},
            "equals": {
                "invoice_unit_price": "2.4825",
                "price_variance": "0.0175",
                "status": "matched",
            },
        },
        {
            "name": "price-tolerance#12",
            "file": "output/line_matches.csv",
            "level": 4,
            "where": {
                "po_id": "PO-90002",
                "po_line": "120",
                "status": "quantity_and_price_variance",
            },
            "equals": {"qty_variance": "10", "price_variance": "0.1000"},
        },
        {
            "name": "price-tolerance#13",
            "file": "output/exceptions.csv",
            "level": 4,
            "where": {"po_id": "PO-90002", "po_line": "120"},
            "count": 2,
        },
        {
            "name": "price-tolerance#14",
            "file": "output/exceptions.csv",
            "level": 4,
            "where": {"po_id": "PO-90002", "po_line": "40", "exception": "price_variance"},
            "equals": {"variance": "0.0251"},
        },
        {
            "name": "conversions#1",
            "file": "output/line_matches.csv",
            "level": 4,
            "where": {"po_id": "PO-90003", "po_line": "10"},
            "equals": {
                "ordered_qty": "420",
                "received_qty": "420",
                "invoiced_qty": "420",
                "po_unit_price": "2.2500",
                "status": "matched",
                "gross_amount": "945.00",
            },
        },
        {
            "name": "conversions#2",
            "file": "output/line_matches.csv",
            "level": 4,
            "where": {"po_id": "PO-90003", "po_line": "20"},
            "equals": {
                "ordered_qty": "240",
                "received_qty": "240",
                "invoiced_qty": "240",
                "invoice_unit_price": "1.2000",
                "gross_amount": "288.00",
            },
        },
        {
            "name": "conversions#3",
            "file": "output/line_matches.csv",
            "level": 4,
            "where": {"po_id": "PO-90003", "po_line": "30"},
            "equals": {
                "received_qty": "100",
                "invoiced_qty": "102",
                "invoice_unit_price": "0.8150",
                "price_variance": "0.0025",
                "status": "matched",
                "gross_amount": "83.13",
            },
        },
        {
            "name": "rounding#1",
            "file": "output/line_matches.csv",
            "level": 4,
            "where": {"po_id": "PO-90004", "po_line": "10"},
            "equals": {
                "invoice_unit_price": "0.1225",
                "price_variance": "0.0000",
                "gross_amount": "1.23",
                "payable_amount": "1.23",
            },
        },
        {
            "name": "rounding#2",
            "file": "output/line_matches.csv",
            "level": 4,
            "where": {"po_id": "PO-90004", "po_line": "40"},
            "equals": {"gross_amount": "2.46", "payable_amount": "2.46"},
        },
        {
            "name": "rounding#3",
            "file": "output/supplier_summary.json",
            "level": 4,
            "path": "suppliers",
            "where": {"supplier_id": "SUP-24"},
            "equals": {
                "gross_amount": "6.15",
                "payable_amount": "6.15",
                "freight": "52.50",
                "tax": "13.33",
            },
        },
        {
            "name": "corrections#1",
            "file": "output/line_matches.csv",
            "level": 4,
            "until": "initial",
            "where": {"po_id": "PO-90005", "po_line": "10", "status": "quantity_variance"},
            "equals": {"received_qty": "1000"},
        },
        {
            "name": "corrections#2",
            "file": "output/line_matches.csv",
            "level": 4,
            "until": "initial",
            "where": {"po_id": "PO-90005", "po_line": "50"},
            "equals": {"received_qty": "100", "status": "matched"},
        },
        {
            "name": "corrections#3",
            "file": "output/line_matches.csv",
            "level": 4,
            "stage": "corrections",
            "where": {"po_id": "PO-90005", "po_line": "10"},
            "equals": {"received_qty": "500", "status": "matched", "payable_amount": "750.00"},
        },
        {
            "name": "corrections#4",
            "file": "output/line_matches.csv",
            "level": 4,
            "stage": "corrections",
            "where": {"po_id": "PO-90005", "po_line": "20"},
            "equals": {"received_qty": "300", "status": "matched"},
        },
        {
            "name": "corrections#5",
            "file": "output/line_matches.csv",
            "level": 4,
            "stage": "corrections",
            "where": {"po_id": "PO-90005", "po_line": "30"},
            "equals": {"received_qty": "200", "status": "matched"},
        },
        {
            "name": "corrections#6",
            "file": "output/line_matches.csv",
            "level": 4,
            "stage": "corrections",
            "where": {"po_id": "PO-90005", "po_line": "40"},
            "equals": {"received_qty": "480", "status": "matched"},
        },
        {
            "name": "corrections#7",
            "file": "output/line_matches.csv",
            "level": 4,
            "stage": "corrections",
            "where": {"po_id": "PO-90005", "po_line": "50", "status": "quantity_variance"},
            "equals": {"received_qty": "90", "qty_variance": "10", "payable_amount": "0.00"},
        },
        {
            "name": "corrections#8",
            "file": "output/supplier_summary.json",
            "level": 4,
            "stage": "corrections",
            "path": "suppliers",
            "where": {"supplier_id": "SUP-25"},
            "equals": {"matched_lines": 4, "held_lines": 1, "payable_amount": "2700.00"},
        },
        {
            "name": "statuses-and-credits#1",
            "file": "output/line_matches.csv",
            "level": 4,
            "where": {"po_id": "PO-90006", "po_line": "10", "status": "not_invoiced"},
            "equals": {
                "ordered_qty": "600",
                "received_qty": "200",
                "invoiced_qty": "0",
                "invoice_unit_price": "",
                "qty_variance": "200",
                "price_variance": "",
                "gross_amount": "0.00",
                "payable_amount": "0.00",
            },
        },
        {
            "name": "statuses-and-credits#2",
            "file": "output/line_matches.csv",
            "level": 4,
            "where": {"po_id": "PO-90006", "po_line": "20", "status": "quantity_variance"},
            "equals": {"received_qty": "0", "gross_amount": "800.00", "payable_amount": "0.00"},
        },
        {
            "name": "statuses-and-credits#3",
            "file": "output/line_matches.csv",
            "level": 4,
            "where": {"po_id": "PO-90006", "po_line": "30", "status": "not_invoiced"},
            "equals": {"received_qty": "0", "invoiced_qty": "0"},
        },
        {
            "name": "statuses-and-credits#4",
            "file": "output/exceptions.csv",
            "level": 4,
            "where": {"po_id": "PO-90006", "po_line": "10"},
            "absent": True,
        },
        {
            "name": "statuses-and-credits#5",
            "file": "output/supplier_summary.json",
            "level": 4,
            "path": "suppliers",
            "where": {"supplier_id": "SUP-26"},
            "equals": {
                "lines": 5,
                "matched_lines": 2,
                "held_lines": 1,
                "not_invoiced_lines": 2,
                "gross_amount": "1900.00",
                "payable_amount": "1100.00",
                "freight": "10.00",
                "tax": "40.00",
            },
        },
        {
            "name": "statuses-and-credits#6",
            "file": "output/supplier_summary.json",
            "level": 4,
            "stage": "credits",
            "path": "suppliers",
            "where": {"supplier_id": "SUP-26"},
            "equals": {
                "credit_applied": "165.00",
                "unapplied_credit": "30.00",
                "final_payable": "985.00",
            },
        },
        {
            "name": "statuses-and-credits#7",
            "file": "output/supplier_summary.json",
            "level": 4,
            "stage": "credits",
            "path": "suppliers",
            "where": {"supplier_id": "SUP-24"},
            "equals": {
                "credit_applied": "1.00",
                "unapplied_credit": "12.00",
                "final_payable": "70.98",
            },
        },
    ],
    "edge_expect": [],
    "edge_include_visible": True,
    "services": [],
}

judge = benchlib.Judge(TASK)

# region authored: benchsmith keeps these lines when it rebuilds judge.py
import xml.etree.ElementTree as ET
from fractions import Fraction

LINE_COLUMNS = ["po_id", "po_line", "supplier_id", "item_id", "ordered_qty", "received_qty",
                "invoiced_qty", "po_unit_price", "invoice_unit_price", "qty_variance",
                "price_variance", "status", "gross_amount", "payable_amount"]  # fmt: skip
QUANTITIES = ["ordered_qty", "received_qty", "invoiced_qty"]
BASE_KEYS = ["supplier_id", "lines", "matched_lines", "held_lines", "not_invoiced_lines",
             "gross_amount", "payable_amount", "freight", "tax"]  # fmt: skip
CREDIT_KEYS = ["credit_applied", "unapplied_credit", "final_payable"]
CORRECTIONS = "inputs/receipt_corrections.json"
CREDITS = "inputs/credit_notes.xml"


def half_up(value: Fraction, places: int) -> str:
    """A non-negative exact value rounded half up to ``places`` decimals, as text."""
    scale = 10**places
    units = (value * scale + Fraction(1, 2)).__floor__()
    return f"{units // scale}.{units % scale:0{places}d}"


def exact(text: str) -> Fraction:
    return Fraction(text.strip())


class Truth:
    """The judge's own three-way match of one fixture, from its pristine inputs (TASK.md)."""

    def __init__(self, source: benchlib.Files) -> None:
        self.size = {r["item_id"]: int(r["each_per_case"]) for r in source.csv("inputs/items.csv")}
        self.lines: dict[tuple[str, int], dict] = {}
        for row in source.csv("inputs/purchase_orders.csv"):
            price = exact(row["unit_price"])
            if row["uom"] == "CASE":
                price /= self.size[row["item_id"]]
            self.lines[(row["po_id"], int(row["po_line"]))] = {
                "po_id": row["po_id"],
                "po_line": int(row["po_line"]),
                "supplier_id": row["supplier_id"],
                "item_id": row["item_id"],
                "ordered": self.eaches(row["item_id"], row["ordered_qty"], row["uom"]),
                "price": price,
                "received": 0,
                "invoiced": 0,
                "extension": Fraction(0),
                "gross": Fraction(0),
                "billed": False,
            }
        receipts = {r["receipt_id"]: r for r in source.json("inputs/receipts.json")["receipts"]}
        self.touched: set[tuple[str, int]] = set()
        if source.exists(CORRECTIONS):
            for fix in source.json(CORRECTIONS)["corrections"]:
                old = receipts.pop(fix["receipt_id"])
                self.touched.add((old["po_id"], int(old["po_line"])))
                if fix["action"] == "replace":
                    new = fix["receipt"]
                    receipts[fix["receipt_id"]] = new
                    self.touched.add((new["po_id"], int(new["po_line"])))
        for r in receipts.values():
            line = self.lines[(r["po_id"], int(r["po_line"]))]
            line["received"] += self.eaches(line["item_id"], r["quantity"], r["uom"])
        self.invoices = []
        root = ET.fromstring(source.text("inputs/invoices.xml"))
        for node in root.findall("invoice"):
            invoice = {
                "id": node.get("id"),
                "supplier": node.get("supplier"),
                "freight": exact(node.findtext("freight")),
                "tax": exact(node.findtext("tax")),
                "lines": {},
            }
            for item in node.findall("line"):
                line = self.lines[(node.get("po"), int(item.get("po_line")))]
                qty = item.find("quantity")
                extension = int(qty.text) * exact(item.findtext("unit_price"))
                amount = Fraction(half_up(extension, 2))
                line["billed"] = True
                line["invoiced"] += self.eaches(line["item_id"], qty.text, qty.get("uom"))
                line["extension"] += extension
                line["gross"] += amount
                invoice["lines"][int(item.get("no"))] = (line, amount)
            self.invoices.append(invoice)
        for line in self.lines.values():
            self.decide(line)
        self.credits = self.apply_credits(source) if source.exists(CREDITS) else None

    def eaches(self, item_id: str, quantity: object, uom: str) -> int:
        count = int(str(quantity))
        return count * self.size[item_id] if uom == "CASE" else count

    def decide(self, line: dict) -> None:
        line["qty_variance"] = abs(line["received"] - line["invoiced"])
        line["failed"] = []
        if not line["billed"]:
            line["status"] = "not_invoiced"
            return
        line["invoice_price"] = line["extension"] / line["invoiced"]
        line["price_variance"] = abs(line["invoice_price"] - line["price"])
        if line["qty_variance"] > Fraction(2, 100) * line["ordered"]:
            line["failed"].append("quantity_variance")
        if line["price_variance"] > Fraction(1, 100) * line["price"]:
            line["failed"].append("price_variance")
        line["status"] = {
            0: "matched",
            2: "quantity_and_price_variance",
        }.get(len(line["failed"])) or line["failed"][0]

    @staticmethod
    def payable(line: dict) -> Fraction:
        return line["gross"] if line["status"] == "matched" else Fraction(0)

    def apply_credits(self, source: benchlib.Files) -> dict[str, dict[str, Fraction]]:
        remaining = {}
        for invoice in self.invoices:
            for no, (line, amount) in invoice["lines"].items():
                remaining[(invoice["id"], no)] = amount if line["status"] == "matched" else 0
        totals: dict[str, dict[str, Fraction]] = {}
        root = ET.fromstring(source.text(CREDITS))
        for note in root.findall("credit_note"):
            own = totals.setdefault(
                note.get("supplier"), {"applied": Fraction(0), "left": Fraction(0)}
            )
            for credit in note.findall("header_credit"):
                own["left"] += exact(credit.text)
            for credit in note.findall("line_credit"):
                key = (credit.get("invoice"), int(credit.get("line")))
                amount = exact(credit.text)
                used = min(amount, remaining[key])
                remaining[key] -= used
                own["applied"] += used
                own["left"] += amount - used
        return totals

    def line_rows(self) -> list[dict]:
        rows = []
        for key in sorted(self.lines):
            line = self.lines[key]
            billed = line["billed"]
            rows.append({
                "po_id": line["po_id"],
                "po_line": str(line["po_line"]),
                "supplier_id": line["supplier_id"],
                "item_id": line["item_id"],
                "ordered_qty": str(line["ordered"]),
                "received_qty": str(line["received"]),
                "invoiced_qty": str(line["invoiced"]),
                "po_unit_price": half_up(line["price"], 4),
                "invoice_unit_price": half_up(line["invoice_price"], 4) if billed else "",
                "qty_variance": str(line["qty_variance"]),
                "price_variance": half_up(line["price_variance"], 4) if billed else "",
                "status": line["status"],
                "gross_amount": half_up(line["gross"], 2),
                "payable_amount": half_up(self.payable(line), 2),
            })  # fmt: skip
        return rows

    def exception_rows(self) -> list[dict]:
        rows = []
        for key in sorted(self.lines):
            line = self.lines[key]
            for name in sorted(line["failed"]):
                variance = (
                    str(line["qty_variance"])
                    if name == "quantity_variance"
                    else half_up(line["price_variance"], 4)
                )
                rows.append({
                    "po_id": line["po_id"],
                    "po_line": str(line["po_line"]),
                    "supplier_id": line["supplier_id"],
                    "exception": name,
                    "variance": variance,
                })  # fmt: skip
        return rows

    def suppliers(self) -> list[dict]:
        table: dict[str, dict] = {}
        for line in self.lines.values():
            entry = table.setdefault(line["supplier_id"], {
                "lines": 0, "matched_lines": 0, "held_lines": 0, "not_invoiced_lines": 0,
                "gross": Fraction(0), "payable": Fraction(0), "freight": Fraction(0),
                "tax": Fraction(0),
            })  # fmt: skip
            entry["lines"] += 1
            kind = {"matched": "matched_lines", "not_invoiced": "not_invoiced_lines"}
            entry[kind.get(line["status"], "held_lines")] += 1
            entry["gross"] += line["gross"]
            entry["payable"] += self.payable(line)
        for invoice in self.invoices:
            table[invoice["supplier"]]["freight"] += invoice["freight"]
            table[invoice["supplier"]]["tax"] += invoice["tax"]
        result = []
        for supplier in sorted(table):
            entry = table[supplier]
            item = {
                "supplier_id": supplier,
                **{
                    k: entry[k]
                    for k in ("lines", "matched_lines", "held_lines", "not_invoiced_lines")
                },
                "gross_amount": half_up(entry["gross"], 2),
                "payable_amount": half_up(entry["payable"], 2),
                "freight": half_up(entry["freight"], 2),
                "tax": half_up(entry["tax"], 2),
            }
            if self.credits is not None:
                own = self.credits.get(supplier, {"applied": Fraction(0), "left": Fraction(0)})
                final = entry["payable"] - own["applied"] + entry["freight"] + entry["tax"]
                item["credit_applied"] = half_up(own["applied"], 2)
                item["unapplied_credit"] = half_up(own["left"], 2)
                item["final_payable"] = half_up(final, 2)
            result.append(item)
        return result


def truth(source: benchlib.Files) -> dict:
    """Plain data: the expected rows of the judged stage."""
    t = Truth(source)
    return {
        "lines": t.line_rows(),
        "exceptions": t.exception_rows(),
        "suppliers": t.suppliers(),
        "touched": sorted([po, str(no)] for po, no in t.touched),
        "credited": t.credits is not None,
    }


def expected(run: benchlib.Run) -> dict:
    return run.derived("truth", truth)


def rows(run: benchlib.Run, path: str) -> list[dict]:
    key = f"rows:{path}"
    if key not in run.memo:
        run.memo[key] = run.csv(path)
    return run.memo[key]


def lines_by_key(run: benchlib.Run) -> dict[tuple[str, str], dict]:
    found = rows(run, "output/line_matches.csv")
    by_key = {(r["po_id"], r["po_line"]): r for r in found}
    benchlib.expect(len(by_key) == len(found), "line_matches.csv lists a PO line twice")
    return by_key


def compare_lines(run: benchlib.Run, columns: list[str], what: str) -> None:
    want = {(r["po_id"], r["po_line"]): r for r in expected(run)["lines"]}
    got = lines_by_key(run)
    benchlib.expect_equal(sorted(got), sorted(want), "PO lines (po_id, po_line)")
    for key in sorted(want):
        benchlib.expect_equal(
            {c: got[key][c] for c in columns},
            {c: want[key][c] for c in columns},
            f"{what} of PO line {key[0]}/{key[1]}",
        )


def plain(value: object) -> object:
    """A JSON value with its type kept visible (True is not 1, "5" is not 5)."""
    return (type(value).__name__, value)


def suppliers(run: benchlib.Run) -> dict[str, dict]:
    data = run.json("output/supplier_summary.json")
    benchlib.expect(isinstance(data, dict), "supplier_summary.json is not an object")
    listed = data.get("suppliers")
    benchlib.expect(isinstance(listed, list), "supplier_summary.json has no suppliers list")
    benchlib.expect(all(isinstance(s, dict) for s in listed), "a supplier entry is not an object")
    return {str(s.get("supplier_id")): s for s in listed}


def compare_suppliers(run: benchlib.Run, keys: list[str], what: str) -> None:
    got = suppliers(run)
    for want in expected(run)["suppliers"]:
        supplier = want["supplier_id"]
        benchlib.expect(supplier in got, f"supplier {supplier} missing from supplier_summary.json")
        benchlib.expect_equal(
            {k: plain(got[supplier].get(k)) for k in keys},
            {k: plain(want[k]) for k in keys},
            f"{what} of supplier {supplier}",
        )


# Level 3: the core match, true at every stage (so a stage-k solution keeps it finally).
@judge.check(level=3)
def every_po_line_listed(run: benchlib.Run) -> None:
    got = sorted([r["po_id"], r["po_line"]] for r in rows(run, "output/line_matches.csv"))
    want = sorted([r["po_id"], r["po_line"]] for r in expected(run)["lines"])
    benchlib.expect_equal(got, want, "PO lines of line_matches.csv")


@judge.check(level=3)
def quantities_in_eaches(run: benchlib.Run) -> None:
    """Ordered, received and invoiced eaches of the lines no correction touches."""
    touched = {tuple(k) for k in expected(run)["touched"]}
    want = {
        (r["po_id"], r["po_line"]): [r[c] for c in QUANTITIES]
        for r in expected(run)["lines"]
        if (r["po_id"], r["po_line"]) not in touched
    }
    got = {
        (r["po_id"], r["po_line"]): [r[c] for c in QUANTITIES]
        for r in rows(run, "output/line_matches.csv")
        if (r["po_id"], r["po_line"]) not in touched
    }
    benchlib.expect_equal(got, want, "ordered, received and invoiced eaches")


@judge.check(level=3)
def every_supplier_listed(run: benchlib.Run) -> None:
    data = run.json("output/supplier_summary.json")
    listed = data.get("suppliers") if isinstance(data, dict) else None
    benchlib.expect(isinstance(listed, list), "supplier_summary.json has no suppliers list")
    got = [s.get("supplier_id") if isinstance(s, dict) else s for s in listed]
    want = [s["supplier_id"] for s in expected(run)["suppliers"]]
    benchlib.expect_equal(sorted(got, key=str), want, "suppliers of supplier_summary.json")


# Level 4: every stated rule on the main fixture.
@judge.check(level=4)
def received_quantities(run: benchlib.Run) -> None:
    compare_lines(run, QUANTITIES, "quantities")


@judge.check(level=4)
def unit_prices_per_each(run: benchlib.Run) -> None:
    compare_lines(run, ["po_unit_price", "invoice_unit_price"], "prices per each")


@judge.check(level=4)
def variances(run: benchlib.Run) -> None:
    compare_lines(run, ["qty_variance", "price_variance"], "variances")


@judge.check(level=4)
def tolerance_status(run: benchlib.Run) -> None:
    compare_lines(run, ["status"], "status")


@judge.check(level=4)
def line_amounts(run: benchlib.Run) -> None:
    compare_lines(run, ["gross_amount", "payable_amount"], "amounts")


@judge.check(level=4)
def line_identity(run: benchlib.Run) -> None:
    compare_lines(run, ["supplier_id", "item_id"], "supplier and item")


@judge.check(level=4)
def line_order(run: benchlib.Run) -> None:
    got = [[r["po_id"], r["po_line"]] for r in rows(run, "output/line_matches.csv")]
    want = [[r["po_id"], r["po_line"]] for r in expected(run)["lines"]]
    benchlib.expect_equal(got, want, "line_matches.csv row order")


@judge.check(level=4)
def exceptions_exact(run: benchlib.Run) -> None:
    benchlib.expect_equal(
        rows(run, "output/exceptions.csv"), expected(run)["exceptions"], "exceptions.csv"
    )


@judge.check(level=4)
def supplier_totals(run: benchlib.Run) -> None:
    compare_suppliers(run, BASE_KEYS, "counts and totals")


@judge.check(level=4)
def supplier_order(run: benchlib.Run) -> None:
    got = [s.get("supplier_id") for s in suppliers(run).values()]
    want = [s["supplier_id"] for s in expected(run)["suppliers"]]
    benchlib.expect_equal(got, want, "suppliers of supplier_summary.json, in order")


@judge.check(level=4)
def supplier_keys(run: benchlib.Run) -> None:
    data = run.json("output/supplier_summary.json")
    benchlib.expect_equal(sorted(data), ["suppliers"], "top-level keys of supplier_summary.json")
    keys = BASE_KEYS + (CREDIT_KEYS if expected(run)["credited"] else [])
    for supplier, entry in sorted(suppliers(run).items()):
        benchlib.expect_equal(sorted(entry), sorted(keys), f"keys of supplier {supplier}")


@judge.check(level=4, stage="credits")
def supplier_credits(run: benchlib.Run) -> None:
    compare_suppliers(run, CREDIT_KEYS, "credits and final payable")


# The edge fixture: line credits beyond the remaining payable amount of their invoice line.
@judge.edge
def edge_match(run: benchlib.Run) -> None:
    want = truth(run.source)
    benchlib.expect_equal(rows(run, "output/line_matches.csv"), want["lines"], "line_matches.csv")
    benchlib.expect_equal(rows(run, "output/exceptions.csv"), want["exceptions"], "exceptions.csv")
    got = suppliers(run)
    for entry in want["suppliers"]:
        benchlib.expect(entry["supplier_id"] in got, f"supplier {entry['supplier_id']} missing")
        benchlib.expect_equal(
            {k: plain(got[entry["supplier_id"]].get(k)) for k in BASE_KEYS},
            {k: plain(entry[k]) for k in BASE_KEYS},
            f"totals of supplier {entry['supplier_id']}",
        )


@judge.edge(stage="credits")
def edge_credits_capped(run: benchlib.Run) -> None:
    want = truth(run.source)
    got = suppliers(run)
    for entry in want["suppliers"]:
        benchlib.expect(entry["supplier_id"] in got, f"supplier {entry['supplier_id']} missing")
        benchlib.expect_equal(
            {k: plain(got[entry["supplier_id"]].get(k)) for k in CREDIT_KEYS},
            {k: plain(entry[k]) for k in CREDIT_KEYS},
            f"credits of supplier {entry['supplier_id']}",
        )


# endregion authored

if __name__ == "__main__":
    sys.exit(judge.main())
