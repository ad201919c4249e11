"""Reconcile a checking-account export with scanned receipts (reference solution).

python -m solution.reconcile --bank B.csv --receipts R.json --categories C.csv --output DIR
"""

from __future__ import annotations

import argparse
import csv
import json
import unicodedata
from datetime import date
from decimal import Decimal
from pathlib import Path

RECONCILIATION_HEADER = [
    "transaction_id", "posted_date", "description", "amount", "currency",
    "category", "matched_receipt_id", "status",
]  # fmt: skip
RECEIPT_HEADER = ["receipt_id", "merchant", "paid_date", "total", "currency"]


def normalize_text(text: str) -> str:
    """NFKC, casefold, collapse whitespace."""
    return " ".join(unicodedata.normalize("NFKC", text).casefold().split())


def normalize_merchant(text: str) -> str:
    """Text normalization, then drop everything but letters, digits and whitespace."""
    kept = "".join(ch for ch in normalize_text(text) if ch.isalnum() or ch.isspace())
    return " ".join(kept.split())


def read_csv(path: Path) -> list[dict[str, str]]:
    with open(path, newline="", encoding="utf-8") as stream:
        return list(csv.DictReader(stream))


def write_csv(path: Path, header: list[str], rows: list[dict[str, str]]) -> None:
    with open(path, "w", newline="", encoding="utf-8") as stream:
        writer = csv.DictWriter(stream, header, lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)


class Categorizer:
    def __init__(self, rules: list[dict[str, str]]) -> None:
        self.rules = [(normalize_text(r["pattern"]), r["category"]) for r in rules]

    def __call__(self, description: str, amount: Decimal) -> str:
        text = normalize_text(description)
        for pattern, category in self.rules:
            if pattern in text:
                return category
        return "Uncategorized" if amount < 0 else "Refund"


class Receipt:
    def __init__(self, raw: dict) -> None:
        self.raw = raw
        self.id = raw["receipt_id"]
        self.merchant = normalize_merchant(raw["merchant"])
        self.paid = date.fromisoformat(raw["paid_date"])
        self.total = Decimal(raw["total"])
        self.currency = raw["currency"]
        self.used = False


def best_receipt(row: dict[str, str], amount: Decimal, receipts: list[Receipt]) -> Receipt | None:
    posted = date.fromisoformat(row["posted_date"])
    merchant = normalize_merchant(row["description"])
    candidates = []
    for receipt in receipts:
        if receipt.used or receipt.currency != row["currency"] or receipt.total != -amount:
            continue
        gap = abs((posted - receipt.paid).days)
        if gap > 2:
            continue
        if receipt.merchant in merchant or merchant in receipt.merchant:
            candidates.append((gap, receipt.id, receipt))
    if not candidates:
        return None
    return min(candidates, key=lambda c: (c[0], c[1]))[2]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--bank", type=Path, required=True)
    parser.add_argument("--receipts", type=Path, required=True)
    parser.add_argument("--categories", type=Path, required=True)
    parser.add_argument("--output", type=Path, required=True)
    args = parser.parse_args()

    categorize = Categorizer(read_csv(args.categories))
    with open(args.receipts, encoding="utf-8") as stream:
        receipts = [Receipt(r) for r in json.load(stream, parse_float=Decimal)]

    rows, totals = [], {}
    for row in read_csv(args.bank):
        amount = Decimal(row["amount"])
        category = categorize(row["description"], amount)
        matched = ""
        if category == "Transfer":
            status = "transfer"
        elif amount > 0:
            status = "credit"
        else:
            receipt = best_receipt(row, amount, receipts)
            if receipt is not None:
                receipt.used = True
                matched = receipt.id
            status = "matched" if matched else "unmatched"
        rows.append({**row, "category": category, "matched_receipt_id": matched, "status": status})
        if category != "Transfer":
            month = totals.setdefault(row["posted_date"][:7], {})
            month[category] = month.get(category, Decimal("0")) + amount

    args.output.mkdir(parents=True, exist_ok=True)
    write_csv(args.output / "reconciliation.csv", RECONCILIATION_HEADER, rows)
    summary = {
        month: {category: f"{totals[month][category]:.2f}" for category in sorted(totals[month])}
        for month in sorted(totals)
    }
    with open(args.output / "monthly_summary.json", "w", encoding="utf-8") as stream:
        json.dump(summary, stream, indent=2, ensure_ascii=False)
        stream.write("\n")
    leftover = [{**r.raw, "total": f"{r.total:.2f}"} for r in receipts if not r.used]
    write_csv(args.output / "unmatched_receipts.csv", RECEIPT_HEADER, leftover)


if __name__ == "__main__":
    main()
