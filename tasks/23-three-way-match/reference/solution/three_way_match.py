"""Three-way match of POs, goods receipts and invoices (reference solution of task 23).

python -m solution.three_way_match INPUTS --output DIR
"""

from __future__ import annotations

import argparse
import csv
import json
import xml.etree.ElementTree as ET
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

CENT = Decimal("0.01")
PRICE = Decimal("0.0001")
QTY_TOLERANCE = Decimal("0.02")
PRICE_TOLERANCE = Decimal("0.01")
LINES = ["po_id", "po_line", "supplier_id", "item_id", "ordered_qty", "received_qty",
         "invoiced_qty", "po_unit_price", "invoice_unit_price", "qty_variance",
         "price_variance", "status", "gross_amount", "payable_amount"]  # fmt: skip
EXCEPTIONS = ["po_id", "po_line", "supplier_id", "exception", "variance"]


def read_csv(path: Path) -> list[dict[str, str]]:
    with path.open(newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def write_csv(path: Path, header: list[str], rows: list[dict]) -> None:
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, header, lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)


def cents(value: Decimal) -> Decimal:
    return value.quantize(CENT, rounding=ROUND_HALF_UP)


def price_text(value: Decimal) -> str:
    return str(value.quantize(PRICE))


class Match:
    """Every PO line with its receipts and invoice lines, in eaches and prices per each."""

    def __init__(self, inputs: Path) -> None:
        self.inputs = inputs
        self.case_size = {
            row["item_id"]: int(row["each_per_case"]) for row in read_csv(inputs / "items.csv")
        }
        self.lines = {}
        for row in read_csv(inputs / "purchase_orders.csv"):
            key = (row["po_id"], int(row["po_line"]))
            self.lines[key] = {
                "row": row,
                "ordered": self.eaches(row["item_id"], int(row["ordered_qty"]), row["uom"]),
                "price": self.per_each(row["item_id"], Decimal(row["unit_price"]), row["uom"]),
                "received": 0,
                "invoiced": 0,
                "extension": Decimal(0),
                "gross": Decimal(0),
                "billed": False,
            }
        for receipt in self.receipts():
            line = self.lines[(receipt["po_id"], int(receipt["po_line"]))]
            line["received"] += self.eaches(
                receipt["item_id"], int(receipt["quantity"]), receipt["uom"]
            )
        self.invoices = self.read_invoices()
        for invoice in self.invoices:
            for item in invoice["lines"]:
                line = self.lines[(invoice["po_id"], item["po_line"])]
                line["billed"] = True
                line["invoiced"] += item["eaches"]
                line["extension"] += item["extension"]
                line["gross"] += item["amount"]
        for line in self.lines.values():
            self.decide(line)

    def eaches(self, item_id: str, quantity: int, uom: str) -> int:
        return quantity * self.case_size[item_id] if uom == "CASE" else quantity

    def per_each(self, item_id: str, price: Decimal, uom: str) -> Decimal:
        return price / self.case_size[item_id] if uom == "CASE" else price

    def receipts(self) -> list[dict]:
        records = json.loads((self.inputs / "receipts.json").read_text(encoding="utf-8"))
        by_id = {r["receipt_id"]: r for r in records["receipts"]}
        path = self.inputs / "receipt_corrections.json"
        if path.exists():
            corrections = json.loads(path.read_text(encoding="utf-8"))["corrections"]
            for correction in corrections:
                if correction["action"] == "void":
                    del by_id[correction["receipt_id"]]
                else:
                    by_id[correction["receipt_id"]] = correction["receipt"]
        return list(by_id.values())

    def read_invoices(self) -> list[dict]:
        invoices = []
        root = ET.parse(self.inputs / "invoices.xml").getroot()
        for node in root.iter("invoice"):
            lines = []
            for line in node.iter("line"):
                quantity = line.find("quantity")
                count = int(quantity.text)
                extension = count * Decimal(line.find("unit_price").text)
                lines.append({
                    "line_no": int(line.get("no")),
                    "po_line": int(line.get("po_line")),
                    "eaches": self.eaches(line.get("item"), count, quantity.get("uom")),
                    "extension": extension,
                    "amount": cents(extension),
                })  # fmt: skip
            invoices.append({
                "invoice_id": node.get("id"),
                "supplier_id": node.get("supplier"),
                "po_id": node.get("po"),
                "freight": Decimal(node.findtext("freight")),
                "tax": Decimal(node.findtext("tax")),
                "lines": lines,
            })  # fmt: skip
        return invoices

    def decide(self, line: dict) -> None:
        line["qty_variance"] = abs(line["received"] - line["invoiced"])
        if not line["billed"]:
            line["status"] = "not_invoiced"
            line["failed"] = []
            return
        line["invoice_price"] = line["extension"] / line["invoiced"]
        line["price_variance"] = abs(line["invoice_price"] - line["price"])
        failed = []
        if line["qty_variance"] > QTY_TOLERANCE * line["ordered"]:
            failed.append("quantity_variance")
        if line["price_variance"] > PRICE_TOLERANCE * line["price"]:
            failed.append("price_variance")
        line["failed"] = failed
        if not failed:
            line["status"] = "matched"
        elif len(failed) == 2:
            line["status"] = "quantity_and_price_variance"
        else:
            line["status"] = failed[0]

    def payable(self, line: dict) -> Decimal:
        return line["gross"] if line["status"] == "matched" else Decimal(0)

    def line_rows(self) -> list[dict]:
        rows = []
        for key in sorted(self.lines):
            line = self.lines[key]
            row = line["row"]
            billed = line["billed"]
            rows.append({
                "po_id": row["po_id"],
                "po_line": row["po_line"],
                "supplier_id": row["supplier_id"],
                "item_id": row["item_id"],
                "ordered_qty": line["ordered"],
                "received_qty": line["received"],
                "invoiced_qty": line["invoiced"],
                "po_unit_price": price_text(line["price"]),
                "invoice_unit_price": price_text(line["invoice_price"]) if billed else "",
                "qty_variance": line["qty_variance"],
                "price_variance": price_text(line["price_variance"]) if billed else "",
                "status": line["status"],
                "gross_amount": str(cents(line["gross"])),
                "payable_amount": str(cents(self.payable(line))),
            })  # fmt: skip
        return rows

    def exception_rows(self) -> list[dict]:
        rows = []
        for key in sorted(self.lines):
            line = self.lines[key]
            for name in sorted(line["failed"]):
                if name == "quantity_variance":
                    variance = str(line["qty_variance"])
                else:
                    variance = price_text(line["price_variance"])
                rows.append({
                    "po_id": key[0],
                    "po_line": key[1],
                    "supplier_id": line["row"]["supplier_id"],
                    "exception": name,
                    "variance": variance,
                })  # fmt: skip
        return rows

    def credits(self) -> dict[str, dict[str, Decimal]]:
        """Per supplier: line credits applied and credit left unapplied."""
        remaining = {}
        for invoice in self.invoices:
            for item in invoice["lines"]:
                line = self.lines[(invoice["po_id"], item["po_line"])]
                matched = line["status"] == "matched"
                remaining[(invoice["invoice_id"], item["line_no"])] = (
                    item["amount"] if matched else Decimal(0)
                )
        totals: dict[str, dict[str, Decimal]] = {}
        root = ET.parse(self.inputs / "credit_notes.xml").getroot()
        for note in root.iter("credit_note"):
            supplier = totals.setdefault(
                note.get("supplier"), {"applied": Decimal(0), "unapplied": Decimal(0)}
            )
            for credit in note:
                amount = Decimal(credit.text)
                if credit.tag == "header_credit":
                    supplier["unapplied"] += amount
                    continue
                key = (credit.get("invoice"), int(credit.get("line")))
                applied = min(amount, remaining[key])
                remaining[key] -= applied
                supplier["applied"] += applied
                supplier["unapplied"] += amount - applied
        return totals

    def summary(self) -> dict:
        suppliers: dict[str, dict] = {}
        for line in self.lines.values():
            entry = suppliers.setdefault(
                line["row"]["supplier_id"],
                {"lines": 0, "matched_lines": 0, "held_lines": 0, "not_invoiced_lines": 0,
                 "gross": Decimal(0), "payable": Decimal(0), "freight": Decimal(0),
                 "tax": Decimal(0)},
            )  # fmt: skip
            entry["lines"] += 1
            if line["status"] == "matched":
                entry["matched_lines"] += 1
            elif line["status"] == "not_invoiced":
                entry["not_invoiced_lines"] += 1
            else:
                entry["held_lines"] += 1
            entry["gross"] += line["gross"]
            entry["payable"] += self.payable(line)
        for invoice in self.invoices:
            entry = suppliers[invoice["supplier_id"]]
            entry["freight"] += invoice["freight"]
            entry["tax"] += invoice["tax"]
        credited = (self.inputs / "credit_notes.xml").exists()
        credits = self.credits() if credited else {}
        result = []
        for supplier_id in sorted(suppliers):
            entry = suppliers[supplier_id]
            item = {
                "supplier_id": supplier_id,
                "lines": entry["lines"],
                "matched_lines": entry["matched_lines"],
                "held_lines": entry["held_lines"],
                "not_invoiced_lines": entry["not_invoiced_lines"],
                "gross_amount": str(cents(entry["gross"])),
                "payable_amount": str(cents(entry["payable"])),
                "freight": str(cents(entry["freight"])),
                "tax": str(cents(entry["tax"])),
            }
            if credited:
                own = credits.get(supplier_id, {"applied": Decimal(0), "unapplied": Decimal(0)})
                final = entry["payable"] - own["applied"] + entry["freight"] + entry["tax"]
                item["credit_applied"] = str(cents(own["applied"]))
                item["unapplied_credit"] = str(cents(own["unapplied"]))
                item["final_payable"] = str(cents(final))
            result.append(item)
        return {"suppliers": result}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("inputs", type=Path)
    parser.add_argument("--output", required=True, type=Path)
    args = parser.parse_args()
    match = Match(args.inputs)
    args.output.mkdir(parents=True, exist_ok=True)
    write_csv(args.output / "line_matches.csv", LINES, match.line_rows())
    write_csv(args.output / "exceptions.csv", EXCEPTIONS, match.exception_rows())
    summary = json.dumps(match.summary(), indent=2) + "\n"
    (args.output / "supplier_summary.json").write_text(summary, encoding="utf-8")


if __name__ == "__main__":
    main()
