"""Fixture generator of task 4: four months of receivables of a small wholesaler.

One simulated ledger gives all three inputs (invoices.csv, payments.xml, credits.json), so
payments and credits correlate with the invoices they pay. The anchors of task.toml (records
without a ``file``) are merged in: a record with ``issued_date`` is an invoice, one with
``payment_id`` a payment, one with ``credit_id`` a credit (``invoice_id`` "" is null). Anchor
customers are left to their anchors; filler customers get invoices and a realistic mix of
payments (in full, installments, two invoices at once, partial, unpaid, net of a credit).

The edge rule (a memo naming an invoice that is already closed) belongs to the edge fixture
alone: after drawing the filler, ``_settle`` replays the allocation rules of TASK.md and a
filler memo that would name a closed invoice loses its invoice tokens, until none does.
"""

from __future__ import annotations

import datetime as dt
import random
import re
from decimal import Decimal
from xml.sax.saxutils import escape, quoteattr

import benchlib

INVOICE_HEADER = ["invoice_id", "customer_id", "issued_date", "due_date", "amount", "currency"]
INVOICES = 120
FIRST_ISSUE, LAST_ISSUE = dt.date(2024, 11, 1), dt.date(2025, 2, 28)
LAST_RECEIPT = dt.date(2025, 3, 31)
ACCOUNTS = ["USD-OPERATING", "USD-LOCKBOX", "EUR-OPERATING"]
TERMS = [15, 30, 30, 30, 45, 60]
BEHAVIOURS = ["full", "installments", "together", "partial", "unpaid", "net-of-credit"]
BEHAVIOUR_WEIGHTS = [56, 9, 10, 8, 12, 5]
GENERIC_MEMOS = [
    "ACH PAYMENT",
    "Thank you",
    "",
    None,
    "Wire transfer",
    "Remittance {n}",
    "Acct {c}",
]
INVOICE_MEMOS = ["{i}", "{i}", "Invoice {i}", "Inv. {i}", "{i} - thank you", "Payment for {i}"]
PAIR_MEMOS = ["{a} {b}", "{a}, {b}", "{a}/{b}", "Invoices {a} & {b}"]
REBATE_REASONS = ["Volume rebate", "Loyalty credit", "Freight refund"]
RETURN_REASONS = ["Returned goods", "Damaged in transit", "Short shipment", "Price adjustment"]
TOKEN = re.compile(r"[A-Za-z0-9-]+")
CENT = Decimal("0.01")


def _date(text: str) -> dt.date:
    return dt.date.fromisoformat(text)


def _cents(rng: random.Random, low: int, high: int) -> Decimal:
    return Decimal(rng.randint(low * 100, high * 100)).scaleb(-2)


def _plain(amount: Decimal, rng: random.Random) -> str:
    """Amount text as a customer's bank writes it: usually two decimals, sometimes fewer."""
    text = f"{amount:.2f}"
    if rng.random() < 0.2:
        text = text.rstrip("0").rstrip(".")
    return text


class _Ledger:
    """Invoices, payments and credits under construction, with the ids in use."""

    def __init__(self, rng: random.Random, anchors: list[dict]) -> None:
        self.rng = rng
        self.invoices = [dict(r) for r in anchors if "issued_date" in r]
        self.payments = [dict(r) for r in anchors if "payment_id" in r]
        self.credits = [dict(r) for r in anchors if "credit_id" in r]
        for credit in self.credits:
            credit["invoice_id"] = credit["invoice_id"] or None
        self.anchor_ids = {r["invoice_id"] for r in self.invoices}
        self.anchor_ids |= {r["payment_id"] for r in self.payments}
        self.anchor_ids |= {r["credit_id"] for r in self.credits}
        self.customers = {r["customer_id"] for r in anchors if "customer_id" in r}

    def pay(self, customer: str, currency: str, when: dt.date, amount: Decimal, memo) -> None:  # type: ignore[no-untyped-def]
        when = min(when, LAST_RECEIPT)
        if currency == "EUR":
            account = "EUR-OPERATING"
        else:
            account = "USD-LOCKBOX" if self.rng.random() < 0.3 else "USD-OPERATING"
        self.payments.append({"payment_id": None, "customer_id": customer,
                              "date": when.isoformat(), "amount": amount, "currency": currency,
                              "memo": memo, "account": account})  # fmt: skip

    def credit(self, customer: str, currency: str, invoice: str | None, when: dt.date,
               amount: Decimal, reason: str) -> None:  # fmt: skip
        self.credits.append({"credit_id": None, "customer_id": customer, "invoice_id": invoice,
                             "date": min(when, LAST_RECEIPT).isoformat(), "amount": amount,
                             "currency": currency, "reason": reason})  # fmt: skip

    def generic_memo(self, customer: str) -> str | None:
        memo = self.rng.choice(GENERIC_MEMOS)
        if memo is None:
            return None
        return memo.format(n=self.rng.randint(10000, 99999), c=customer)

    def invoice_memo(self, invoice_id: str) -> str:
        return self.rng.choice(INVOICE_MEMOS).format(i=invoice_id)


def _filler_invoices(ledger: _Ledger) -> list[dict]:
    """Invoices of the filler customers (ids assigned later), by customer."""
    rng = ledger.rng
    pool = [f"C{n}" for n in range(1001, 1100) if f"C{n}" not in ledger.customers]
    count = INVOICES - len(ledger.invoices)
    customers = sorted(rng.sample(pool, 18))
    span = (LAST_ISSUE - FIRST_ISSUE).days
    filler = []
    for index in range(count):
        customer = customers[index % len(customers)]
        currency = "EUR" if customers.index(customer) % 6 == 2 else "USD"
        issued = FIRST_ISSUE + dt.timedelta(days=rng.randint(0, span))
        due = issued + dt.timedelta(days=rng.choice(TERMS))
        filler.append({"invoice_id": None, "customer_id": customer,
                       "issued_date": issued.isoformat(), "due_date": due.isoformat(),
                       "amount": _cents(rng, 120, 9800), "currency": currency})  # fmt: skip
    return filler


def _number(ledger: _Ledger, filler: list[dict]) -> None:
    """Invoice numbers follow the issue date (numbers in between are cash sales)."""
    number = 10000
    for invoice in sorted(filler, key=lambda r: r["issued_date"]):
        number += ledger.rng.randint(1, 4)
        while f"INV-{number}" in ledger.anchor_ids:
            number += 1
        invoice["invoice_id"] = f"INV-{number}"


def _filler_activity(ledger: _Ledger, filler: list[dict]) -> None:
    """Payments and credits of the filler customers, one behaviour per invoice."""
    rng = ledger.rng
    by_customer: dict[str, list[dict]] = {}
    for invoice in sorted(filler, key=lambda r: (r["issued_date"], r["invoice_id"])):
        by_customer.setdefault(invoice["customer_id"], []).append(invoice)
    for customer in sorted(by_customer):
        invoices = by_customer[customer]
        skip = set()
        for position, invoice in enumerate(invoices):
            if invoice["invoice_id"] in skip:
                continue
            behaviour = rng.choices(BEHAVIOURS, BEHAVIOUR_WEIGHTS)[0]
            issued, due = _date(invoice["issued_date"]), _date(invoice["due_date"])
            amount, currency, iid = invoice["amount"], invoice["currency"], invoice["invoice_id"]
            paid = max(issued + dt.timedelta(days=3), due + dt.timedelta(days=rng.randint(-20, 15)))
            if behaviour == "full":
                memo = (
                    ledger.invoice_memo(iid)
                    if rng.random() < 0.7
                    else ledger.generic_memo(customer)
                )
                ledger.pay(customer, currency, paid, amount, memo)
            elif behaviour == "installments":
                first = (amount * Decimal(rng.choice([30, 40, 50])) / 100).quantize(CENT)
                ledger.pay(customer, currency, paid, first, ledger.invoice_memo(iid))
                later = paid + dt.timedelta(days=rng.randint(20, 35))
                ledger.pay(customer, currency, later, amount - first, ledger.invoice_memo(iid))
            elif behaviour == "together" and position + 1 < len(invoices):
                other = invoices[position + 1]
                skip.add(other["invoice_id"])
                when = max(paid, _date(other["issued_date"]) + dt.timedelta(days=5))
                memo = rng.choice(PAIR_MEMOS).format(a=iid, b=other["invoice_id"])
                ledger.pay(customer, currency, when, amount + other["amount"], memo)
            elif behaviour == "partial":
                part = (amount * Decimal(rng.randint(25, 80)) / 100).quantize(CENT)
                ledger.pay(customer, currency, paid, part, ledger.invoice_memo(iid))
            elif behaviour == "net-of-credit":
                off = (amount * Decimal(rng.randint(4, 15)) / 100).quantize(CENT)
                credited = issued + dt.timedelta(days=rng.randint(5, 20))
                ledger.credit(customer, currency, iid, credited, off, rng.choice(RETURN_REASONS))
                ledger.pay(customer, currency, paid, amount - off, ledger.invoice_memo(iid))
            # "unpaid", and "together" on a customer's last invoice: nothing received
    customers = sorted(by_customer)
    for customer in rng.sample(customers, 3):
        when = dt.date(2025, 2, 1) + dt.timedelta(days=rng.randint(0, 50))
        currency = by_customer[customer][0]["currency"]
        ledger.credit(
            customer, currency, None, when, _cents(rng, 50, 300), rng.choice(REBATE_REASONS)
        )
    twice = rng.choice([c for c in customers if by_customer[c][0]["currency"] == "USD"])
    last = max((p for p in ledger.payments if p["customer_id"] == twice), key=lambda p: p["date"])
    when = _date(last["date"]) + dt.timedelta(days=rng.randint(1, 6))
    ledger.pay(twice, "USD", when, last["amount"], "ACH PAYMENT")  # a duplicate transfer


def _ids(ledger: _Ledger) -> None:
    """Filler payment ids in file order, filler credit ids in date order (anchors' ids kept)."""
    number = 60000
    for payment in _file_order(ledger.payments):
        if payment["payment_id"] is None:
            number += ledger.rng.randint(1, 3)
            while f"PAY-{number}" in ledger.anchor_ids:
                number += 1
            payment["payment_id"] = f"PAY-{number}"
    number = 3000
    for credit in sorted(ledger.credits, key=lambda r: r["date"]):
        if credit["credit_id"] is None:
            number += 1
            while f"CR-{number}" in ledger.anchor_ids:
                number += 1
            credit["credit_id"] = f"CR-{number}"


def _deposited(payment: dict) -> str:
    """The Friday on or after the day the payment was received."""
    day = _date(payment["date"])
    return (day + dt.timedelta(days=(4 - day.weekday()) % 7)).isoformat()


def _file_order(payments: list[dict]) -> list[dict]:
    """Account, then deposit batch, then the day received (stable: order of receipt)."""
    return sorted(
        payments,
        key=lambda p: (ACCOUNTS.index(p["account"]), _deposited(p), p["date"]),
    )


def _settle(ledger: _Ledger) -> list[str]:
    """Replay TASK.md's allocation; return the payments whose memo names a closed invoice."""
    invoices = {r["invoice_id"]: r for r in ledger.invoices}
    balance = {i: Decimal(r["amount"]) for i, r in invoices.items()}
    offending = []
    for credit in sorted(ledger.credits, key=lambda r: (r["date"], r["credit_id"])):
        target = invoices.get(credit["invoice_id"] or "")
        if (
            credit["invoice_id"]
            and target is not None
            and target["customer_id"] == credit["customer_id"]
        ):
            balance[target["invoice_id"]] -= min(
                Decimal(credit["amount"]), balance[target["invoice_id"]]
            )
    sources = [c for c in ledger.credits if not c["invoice_id"]] + ledger.payments
    for source in sorted(sources, key=lambda r: (r["date"], r.get("payment_id") or r["credit_id"])):
        own = [
            r
            for r in invoices.values()
            if r["customer_id"] == source["customer_id"] and r["currency"] == source["currency"]
        ]
        named = [
            t
            for t in TOKEN.findall(source.get("memo") or "")
            if t in {r["invoice_id"] for r in own}
        ]
        if any(balance[t] == 0 for t in named):
            offending.append(source["payment_id"])
        order = [t for t in dict.fromkeys(named) if balance[t] > 0]
        order += [
            r["invoice_id"] for r in sorted(own, key=lambda r: (r["due_date"], r["invoice_id"]))
        ]
        left = Decimal(source["amount"])
        for invoice_id in dict.fromkeys(order):
            step = min(left, balance[invoice_id])
            balance[invoice_id] -= step
            left -= step
    return offending


def ledger(ctx: benchlib.SeedContext) -> _Ledger:
    """The whole simulated ledger, from its own stream."""
    anchors = []
    for name in ctx.anchors:  # declaration order
        anchors += ctx.anchor(name)
    book = _Ledger(ctx.stream("ledger"), anchors)
    filler = _filler_invoices(book)
    _number(book, filler)
    book.invoices += filler
    _filler_activity(book, filler)
    _ids(book)
    while True:
        offending = set(_settle(book))
        if not offending:
            break
        for payment in book.payments:
            if payment["payment_id"] in offending:
                if payment["payment_id"] in book.anchor_ids:
                    raise RuntimeError(f"anchor {payment['payment_id']} names a closed invoice")
                payment["memo"] = book.generic_memo(payment["customer_id"])
    return book


def _payments_xml(book: _Ledger, rng: random.Random) -> str:
    lines = ['<?xml version="1.0" encoding="UTF-8"?>', "<remittances>"]
    batch = None
    for payment in _file_order(book.payments):
        key = (payment["account"], _deposited(payment))
        if key != batch:
            if batch is not None:
                lines.append("  </batch>")
            lines.append(f"  <batch account={quoteattr(key[0])} deposited={quoteattr(key[1])}>")
            batch = key
        amount = Decimal(payment["amount"])
        shown = payment["amount"] if isinstance(payment["amount"], str) else _plain(amount, rng)
        lines += [
            "    <payment>",
            f"      <payment_id>{payment['payment_id']}</payment_id>",
            f"      <customer_id>{payment['customer_id']}</customer_id>",
            f"      <date>{payment['date']}</date>",
            f"      <amount currency={quoteattr(payment['currency'])}>{shown}</amount>",
        ]
        memo = payment.get("memo")
        if memo == "":
            lines.append("      <memo/>")
        elif memo is not None:
            lines.append(f"      <memo>{escape(memo)}</memo>")
        lines.append("    </payment>")
    lines += ["  </batch>", "</remittances>", ""]
    return "\n".join(lines)


def _credit_json(credit: dict, rng: random.Random) -> dict:
    amount = credit["amount"]
    if not isinstance(amount, str):
        amount = _plain(Decimal(amount), rng)
    return {"credit_id": credit["credit_id"], "customer_id": credit["customer_id"],
            "invoice_id": credit["invoice_id"], "date": credit["date"],
            "amount": Decimal(amount), "currency": credit["currency"],
            "reason": credit["reason"]}  # fmt: skip


def receivables(ctx: benchlib.SeedContext) -> None:
    """inputs/invoices.csv, inputs/payments.xml and inputs/credits.json."""
    book = ledger(ctx)
    rows = sorted(book.invoices, key=lambda r: (r["issued_date"], r["invoice_id"]))
    ctx.write_csv("inputs/invoices.csv", INVOICE_HEADER,
                  [{**r, "amount": f"{Decimal(r['amount']):.2f}"} for r in rows])  # fmt: skip
    ctx.write_text("inputs/payments.xml", _payments_xml(book, ctx.rng))
    credits = sorted(book.credits, key=lambda r: r["credit_id"])
    ctx.write_json("inputs/credits.json", {"credits": [_credit_json(c, ctx.rng) for c in credits]})
