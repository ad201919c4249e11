"""Fixture generators of task 1: a simulated first quarter of 2025 for one household.

bank.csv and receipts.json must correlate (most receipts belong to exactly one card
purchase), so both come from one simulated quarter. ``ledger`` rebuilds that quarter from a
stream of its own, ``random.Random(f"{seed}/ledger")``, and each [[files]] entry writes its
half. The anchors of task.toml (records without a ``file``) are merged in: a record with a
``transaction_id`` is a bank row, one with a ``receipt_id`` a receipt (currency defaults to
USD). Filler amounts are unique, so the only receipts competing for one bank row are the
ones the anchors place on purpose.
"""

from __future__ import annotations

import datetime as dt
import random
from decimal import Decimal

import benchlib

BANK_HEADER = ["transaction_id", "posted_date", "description", "amount", "currency"]
FIRST, LAST = dt.date(2025, 1, 1), dt.date(2025, 3, 31)
BANK_ROWS, RECEIPTS, UNMATCHED_FILLER = 160, 105, 8
ID_CHARS = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"

# Card shops: bank description ({code} is a per-purchase reference), the merchant printed on
# its receipts (None: never a receipt), dollar range, weight.
SHOPS = [
    ("GREEN LEAF MARKET #0412 PORTLAND OR", "Green Leaf Market", 12, 160, 8),
    ("SAFEWAY #1187 PORTLAND OR", "SAFEWAY", 8, 140, 6),
    ("TRADER JOES #552 PORTLAND OR", "Trader Joe's", 10, 120, 6),
    ("AMAZON FRESH*{code}", "Amazon Fresh", 25, 150, 3),
    ("AMAZON.COM*{code} AMZN.COM/BILL WA", "Amazon.com", 9, 220, 5),
    ("BLUE BOTTLE COFFEE", "Blue Bottle Coffee Co.", 4, 19, 5),
    ("STARBUCKS STORE 09931", "Starbucks", 3, 16, 4),
    ("CHIPOTLE", "Chipotle Mexican Grill", 9, 38, 3),
    ("SHELL OIL 57442109   PORTLAND  OR", "Shell", 25, 75, 5),
    ("UBER *TRIP", "Uber", 8, 46, 3),
    ("CITY PARKING  GARAGE 22", None, 3, 24, 3),
    ("CVS PHARMACY #02817", "CVS Pharmacy", 5, 90, 3),
    ("WALGREENS #3321", "Walgreens", 4, 60, 2),
    ("HOME DEPOT #4417", "Home Depot", 12, 260, 3),
    ("IKEA PORTLAND", "IKEA", 20, 300, 1),
    ("TARGET T-1419", "Target", 10, 180, 3),
    ("AMC THEATRES 8820", "AMC Theatres", 14, 60, 2),
    ("SQ *RIVERSIDE FLORIST", "Riverside Florist", 18, 70, 1),
    ("PAYPAL *ETSY SELLER", "Etsy", 12, 80, 1),
    ("LUCKY LAUNDROMAT", None, 4, 18, 2),
]

# Receipts that never reach the checking account: cash, a trip to Vancouver paid in CAD, a
# credit-card purchase, and a purchase of March 31 that posts in April.
STRAYS = [
    ("Riverside Farmers Market", "USD", "2025-01-11"),
    ("Riverside Farmers Market", "USD", "2025-03-22"),
    ("Saturday Flea Market", "USD", "2025-02-01"),
    ("Granville Island Public Market", "CAD", "2025-02-07"),
    ("Tim Hortons", "CAD", "2025-02-06"),
    ("Japadog", "CAD", "2025-02-08"),
    ("REI Co-op", "USD", "2025-03-15"),
    ("SAFEWAY", "USD", "2025-03-31"),
]


def _day(month: int, day: int) -> str:
    return dt.date(2025, month, day).isoformat()


def _recurring() -> list[tuple[str, str, str]]:
    """(posted_date, description, amount) of the quarter's recurring rows, without receipts."""
    rows = []
    for month, pay_days, pge, autopay, interest in (
        (1, (15, 31), "-142.18", "-612.37", "0.41"),
        (2, (14, 28), "-131.06", "-488.90", "0.38"),
        (3, (14, 31), "-97.54", "-705.12", "0.44"),
    ):
        rows += [(_day(month, d), "ACME CORP PAYROLL PPD ID 4471", "3215.40") for d in pay_days]
        rows += [
            (_day(month, 3), "MONTHLY SERVICE FEE", "-12.00"),
            (_day(month, 5), "NETFLIX.COM", "-15.49"),
            (_day(month, 8), "PG&E WEB ONLINE", pge),
            (_day(month, 12), "COMCAST CABLE COMM", "-89.99"),
            (_day(month, 16), "ONLINE TRANSFER TO SAVINGS XXXX4821", "-500.00"),
            (_day(month, 20), "SPOTIFY USA", "-11.99"),
            (_day(month, 22), "CHASE CREDIT CRD AUTOPAY", autopay),
            (_day(month, 28), "INTEREST PAYMENT", interest),
        ]
    rows.append(("2025-02-20", "ONLINE TRANSFER FROM SAVINGS XXXX4821", "750.00"))
    return rows


def _cents(text: str) -> int:
    return abs(int(Decimal(text).scaleb(2)))


def _money(cents: int) -> Decimal:
    return Decimal(cents).scaleb(-2)


class _Quarter:
    """The bank rows and receipts under construction, with the ids and amounts in use."""

    def __init__(self, rng: random.Random, anchors: list[dict[str, str]]) -> None:
        self.rng = rng
        self.bank = [r for r in anchors if "transaction_id" in r]
        self.receipts = [r for r in anchors if "receipt_id" in r]
        self.ids = {r["transaction_id"] for r in self.bank} | {
            r["receipt_id"] for r in self.receipts
        }
        self.amounts = {_cents(r["amount"]) for r in self.bank}
        self.amounts |= {_cents(r["total"]) for r in self.receipts}

    def new_id(self, make) -> str:  # type: ignore[no-untyped-def]
        while True:
            value = make()
            if value not in self.ids:
                self.ids.add(value)
                return value

    def bank_id(self) -> str:
        return self.new_id(lambda: "TX" + "".join(self.rng.choices(ID_CHARS, k=8)))

    def receipt_id(self) -> str:
        return self.new_id(lambda: f"R{self.rng.randint(10000, 99999)}")

    def amount(self, low: int, high: int) -> int:
        while True:
            cents = self.rng.randint(low * 100, high * 100)
            if cents not in self.amounts:
                self.amounts.add(cents)
                return cents

    def add_bank(self, posted: str, description: str, amount: Decimal | str) -> dict[str, str]:
        row = {"transaction_id": self.bank_id(), "posted_date": posted,
               "description": description, "amount": str(amount), "currency": "USD"}  # fmt: skip
        self.bank.append(row)
        return row

    def add_receipt(self, merchant: str, paid: str, cents: int, currency: str = "USD") -> None:
        self.receipts.append({"receipt_id": self.receipt_id(), "merchant": merchant,
                              "paid_date": paid, "total": str(_money(cents)),
                              "currency": currency})  # fmt: skip


def ledger(ctx: benchlib.SeedContext) -> tuple[list[dict[str, str]], list[dict[str, str]]]:
    """The quarter's bank rows (newest first, as the bank exports them) and receipts (by
    paid_date)."""
    rng = random.Random(f"{ctx.seed}/ledger")
    anchors = []
    for name in ctx.anchors:  # declaration order
        anchors += [{**r, "currency": r.get("currency", "USD")} for r in ctx.anchor(name)]
    quarter = _Quarter(rng, anchors)
    recurring = _recurring()
    quarter.amounts |= {_cents(a) for _, _, a in recurring}
    for posted, description, amount in recurring:
        quarter.add_bank(posted, description, amount)

    purchases = BANK_ROWS - len(quarter.bank) - 2  # two filler refunds follow
    weights = [shop[4] for shop in SHOPS]
    bought = []
    for _ in range(purchases):
        description, merchant, low, high, _w = rng.choices(SHOPS, weights)[0]
        paid = FIRST + dt.timedelta(days=rng.randint(0, (LAST - FIRST).days - 2))
        posted = paid + dt.timedelta(days=rng.choice((0, 1, 1, 2)))
        code = "".join(rng.choices(ID_CHARS, k=5))
        cents = quarter.amount(low, high)
        row = quarter.add_bank(posted.isoformat(), description.format(code=code), -_money(cents))
        bought.append((row, merchant, paid, cents))

    returnable = [
        row for row, _m, paid, _c in bought
        if row["description"].startswith(("AMAZON.COM", "TARGET")) and paid.month < 3
    ]  # fmt: skip
    for row in rng.sample(returnable, 2):
        returned = dt.date.fromisoformat(row["posted_date"]) + dt.timedelta(days=rng.randint(5, 9))
        quarter.add_bank(returned.isoformat(), row["description"] + " REFUND", row["amount"][1:])

    with_receipt = [b for b in bought if b[1] is not None]
    wanted = RECEIPTS - UNMATCHED_FILLER - len(quarter.receipts)
    for _row, merchant, paid, cents in rng.sample(with_receipt, wanted):
        printed = merchant if rng.random() < 0.75 else merchant.upper()
        quarter.add_receipt(printed, paid.isoformat(), cents)
    for merchant, currency, paid in STRAYS:
        quarter.add_receipt(merchant, paid, quarter.amount(6, 90), currency)

    quarter.bank.sort(key=lambda r: r["posted_date"], reverse=True)  # stable: ties keep order
    quarter.receipts.sort(key=lambda r: r["paid_date"])
    return quarter.bank, quarter.receipts


def bank_csv(ctx: benchlib.SeedContext) -> None:
    """inputs/bank.csv: the checking-account export, newest posted_date first."""
    ctx.write_csv(ctx.path, BANK_HEADER, ledger(ctx)[0])


def receipts_json(ctx: benchlib.SeedContext) -> None:
    """inputs/receipts.json: a bare JSON array of receipts; totals are two-decimal numbers."""
    receipts = [{**r, "total": Decimal(r["total"])} for r in ledger(ctx)[1]]
    ctx.write_json(ctx.path, receipts)
