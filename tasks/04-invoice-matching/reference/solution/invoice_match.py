"""Apply credits and payments to open invoices (reference solution).

python -m solution.invoice_match INPUTS --output DIR
"""

from __future__ import annotations

import argparse
import csv
import json
import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path

STATUS_HEADER = [
    "invoice_id",
    "customer_id",
    "currency",
    "due_date",
    "amount",
    "applied",
    "balance",
    "status",
]
APPLICATION_HEADER = ["source_id", "source_type", "invoice_id", "amount"]
EXCEPTION_HEADER = ["source_id", "source_type", "customer_id", "currency", "amount", "reason"]
TOKEN = re.compile(r"[A-Za-z0-9-]+")
ZERO = Decimal("0")


def money(value: Decimal) -> str:
    return f"{value:.2f}"


@dataclass(eq=False)
class Invoice:
    id: str
    customer: str
    currency: str
    due: str
    amount: Decimal
    row: dict[str, str]
    applied: Decimal = ZERO

    @property
    def balance(self) -> Decimal:
        return self.amount - self.applied


@dataclass
class Source:
    id: str
    kind: str  # "credit" or "payment"
    customer: str
    currency: str
    date: str
    amount: Decimal
    invoice_id: str | None = None  # invoice-specific credits
    memo: str = ""


def read_invoices(path: Path) -> list[Invoice]:
    with open(path, newline="", encoding="utf-8") as stream:
        return [
            Invoice(
                r["invoice_id"],
                r["customer_id"],
                r["currency"],
                r["due_date"],
                Decimal(r["amount"]),
                r,
            )
            for r in csv.DictReader(stream)
        ]


def read_payments(path: Path) -> list[Source]:
    payments = []
    for node in ET.parse(path).getroot().iter("payment"):
        amount = node.find("amount")
        assert amount is not None
        payments.append(
            Source(
                id=node.findtext("payment_id"),
                kind="payment",
                customer=node.findtext("customer_id"),
                currency=amount.get("currency"),
                date=node.findtext("date"),
                amount=Decimal(amount.text),
                memo=node.findtext("memo") or "",
            )
        )
    return payments


def read_credits(path: Path) -> list[Source]:
    with open(path, encoding="utf-8") as stream:
        data = json.load(stream, parse_float=Decimal, parse_int=Decimal)
    return [
        Source(
            c["credit_id"],
            "credit",
            c["customer_id"],
            c["currency"],
            c["date"],
            Decimal(c["amount"]),
            c.get("invoice_id"),
        )
        for c in data["credits"]
    ]


class Matcher:
    def __init__(self, invoices: list[Invoice]) -> None:
        self.invoices = invoices
        self.by_id = {i.id: i for i in invoices}
        self.applications: list[dict[str, str]] = []
        self.exceptions: list[dict[str, str]] = []

    def apply(self, source: Source, targets: list[Invoice]) -> Decimal:
        """Settle ``targets`` in order; return what is left of the source."""
        left = source.amount
        for invoice in targets:
            step = min(left, invoice.balance)  # zero for a closed invoice
            if step > 0:
                invoice.applied += step
                left -= step
                self.applications.append(
                    {
                        "source_id": source.id,
                        "source_type": source.kind,
                        "invoice_id": invoice.id,
                        "amount": money(step),
                    }
                )
        return left

    def leftover(self, source: Source, amount: Decimal, reason: str) -> None:
        if amount > 0:
            self.exceptions.append({"source_id": source.id, "source_type": source.kind,
                                    "customer_id": source.customer, "currency": source.currency,
                                    "amount": money(amount), "reason": reason})  # fmt: skip

    def invoice_credit(self, credit: Source) -> None:
        invoice = self.by_id.get(credit.invoice_id)
        if (
            invoice is None
            or invoice.customer != credit.customer
            or invoice.currency != credit.currency
        ):
            self.leftover(credit, credit.amount, "unknown-invoice")
            return
        self.leftover(credit, self.apply(credit, [invoice]), "unapplied")

    def general(self, source: Source) -> None:
        own = [
            i
            for i in self.invoices
            if i.customer == source.customer and i.currency == source.currency
        ]
        own.sort(key=lambda i: (i.due, i.id))
        # Invoices the memo names first (a closed one gets nothing), then the oldest due.
        named = [self.by_id[t] for t in TOKEN.findall(source.memo) if self.by_id.get(t) in own]
        targets = list(dict.fromkeys(named + own))
        self.leftover(source, self.apply(source, targets), "unapplied")


def write_csv(path: Path, header: list[str], rows: list[dict[str, str]]) -> None:
    with open(path, "w", newline="", encoding="utf-8") as stream:
        writer = csv.DictWriter(stream, header, lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("inputs", type=Path)
    parser.add_argument("--output", type=Path, required=True)
    args = parser.parse_args()

    invoices = read_invoices(args.inputs / "invoices.csv")
    payments = read_payments(args.inputs / "payments.xml")
    credits = read_credits(args.inputs / "credits.json")
    matcher = Matcher(invoices)

    specific = sorted((c for c in credits if c.invoice_id), key=lambda c: (c.date, c.id))
    for credit in specific:
        matcher.invoice_credit(credit)
    general = [c for c in credits if not c.invoice_id] + payments
    for source in sorted(general, key=lambda s: (s.date, s.id)):
        matcher.general(source)

    statuses = []
    for invoice in invoices:
        if invoice.balance == 0:
            status = "paid"
        elif invoice.applied == 0:
            status = "open"
        else:
            status = "partial"
        statuses.append({"invoice_id": invoice.id, "customer_id": invoice.customer,
                         "currency": invoice.currency, "due_date": invoice.due,
                         "amount": money(invoice.amount), "applied": money(invoice.applied),
                         "balance": money(invoice.balance), "status": status})  # fmt: skip

    args.output.mkdir(parents=True, exist_ok=True)
    write_csv(args.output / "invoice_status.csv", STATUS_HEADER, statuses)
    write_csv(args.output / "applications.csv", APPLICATION_HEADER, matcher.applications)
    write_csv(args.output / "exceptions.csv", EXCEPTION_HEADER, matcher.exceptions)


if __name__ == "__main__":
    main()
