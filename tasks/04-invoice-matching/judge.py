# generated from task.toml by benchsmith -- edit only the authored region
"""Judge of task 4: Invoice and Payment Matching.

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
    "id": 4,
    "slug": "invoice-matching",
    "stages": ["initial"],
    "editable": ["solution/", "output/"],
    "commands": [
        {
            "run": "python -m solution.invoice_match inputs --output output",
            "argv": ["python", "-m", "solution.invoice_match", "inputs", "--output", "output"],
            "cwd": ".",
            "stdin": None,
            "stage": "initial",
            "timeout": 20.0,
        }
    ],
    "outputs": [
        {
            "path": "output/invoice_status.csv",
            "format": "csv",
            "header": [
                "invoice_id",
                "customer_id",
                "currency",
                "due_date",
                "amount",
                "applied",
                "balance",
                "status",
            ],
            "stage": "initial",
        },
        {
            "path": "output/applications.csv",
            "format": "csv",
            "header": ["source_id", "source_type", "invoice_id", "amount"],
            "stage": "initial",
        },
        {
            "path": "output/exceptions.csv",
            "format": "csv",
            "header": ["source_id", "source_type", "customer_id", "currency", "amount", "reason"],
            "stage": "initial",
        },
    ],
    "expect": [
        {
            "name": "split-payment#1",
            "file": "output/applications.csv",
            "level": 4,
            "where": {"source_id": "PAY-60112", "invoice_id": "INV-10105"},
            "equals": {"amount": "1200.00"},
        },
        {
            "name": "split-payment#2",
            "file": "output/applications.csv",
            "level": 4,
            "where": {"source_id": "PAY-60112", "invoice_id": "INV-10208"},
            "equals": {"amount": "800.00"},
        },
        {
            "name": "split-payment#3",
            "file": "output/applications.csv",
            "level": 4,
            "where": {"source_id": "PAY-60112", "invoice_id": "INV-10131"},
            "equals": {"amount": "100.00"},
        },
        {
            "name": "split-payment#4",
            "file": "output/invoice_status.csv",
            "level": 4,
            "where": {"invoice_id": "INV-10131"},
            "equals": {"applied": "100.00", "balance": "400.00", "status": "partial"},
        },
        {
            "name": "installments#1",
            "file": "output/invoice_status.csv",
            "level": 4,
            "where": {"invoice_id": "INV-10088"},
            "equals": {"applied": "1000.00", "balance": "0.00", "status": "paid"},
        },
        {
            "name": "installments#2",
            "file": "output/applications.csv",
            "level": 4,
            "where": {"source_id": "PAY-60233"},
            "equals": {"invoice_id": "INV-10088", "amount": "333.34"},
        },
        {
            "name": "installments#3",
            "file": "output/applications.csv",
            "level": 4,
            "where": {"source_id": "PAY-60310"},
            "equals": {"invoice_id": "INV-10310", "amount": "640.00"},
        },
        {
            "name": "credit-plus-cash#1",
            "file": "output/applications.csv",
            "level": 4,
            "where": {"source_id": "CR-3007"},
            "equals": {"source_type": "credit", "invoice_id": "INV-10072", "amount": "150.00"},
        },
        {
            "name": "credit-plus-cash#2",
            "file": "output/applications.csv",
            "level": 4,
            "where": {"source_id": "PAY-60201", "invoice_id": "INV-10072"},
            "equals": {"amount": "250.00"},
        },
        {
            "name": "credit-plus-cash#3",
            "file": "output/invoice_status.csv",
            "level": 4,
            "where": {"invoice_id": "INV-10190"},
            "equals": {"applied": "950.00", "balance": "0.00", "status": "paid"},
        },
        {
            "name": "credit-plus-cash#4",
            "file": "output/exceptions.csv",
            "level": 4,
            "where": {"source_id": "CR-3007"},
            "absent": True,
        },
        {
            "name": "memo-precedence#1",
            "file": "output/applications.csv",
            "level": 4,
            "where": {"source_id": "PAY-60288"},
            "equals": {"invoice_id": "INV-10342", "amount": "450.00"},
        },
        {
            "name": "memo-precedence#2",
            "file": "output/invoice_status.csv",
            "level": 4,
            "where": {"invoice_id": "INV-10095"},
            "equals": {"applied": "0.00", "balance": "700.00", "status": "open"},
        },
        {
            "name": "overpayment#1",
            "file": "output/exceptions.csv",
            "level": 4,
            "where": {"source_id": "PAY-60255"},
            "equals": {
                "source_type": "payment",
                "customer_id": "C1052",
                "currency": "USD",
                "amount": "150.00",
                "reason": "unapplied",
            },
        },
        {
            "name": "overpayment#2",
            "file": "output/invoice_status.csv",
            "level": 4,
            "where": {"invoice_id": "INV-10160"},
            "equals": {"applied": "980.00", "balance": "0.00", "status": "paid"},
        },
        {
            "name": "overpayment#3",
            "file": "output/applications.csv",
            "level": 4,
            "where": {"source_id": "PAY-60255", "invoice_id": "INV-10266"},
            "equals": {"amount": "520.00"},
        },
        {
            "name": "memo-other-customer#1",
            "file": "output/applications.csv",
            "level": 4,
            "where": {"source_id": "PAY-60177"},
            "equals": {"invoice_id": "INV-10120", "amount": "300.00"},
        },
        {
            "name": "memo-other-customer#2",
            "file": "output/invoice_status.csv",
            "level": 4,
            "where": {"invoice_id": "INV-10250"},
            "equals": {"applied": "0.00", "status": "open"},
        },
        {
            "name": "memo-not-exact#1",
            "file": "output/applications.csv",
            "level": 4,
            "where": {"source_id": "PAY-60219", "invoice_id": "INV-10140"},
            "equals": {"amount": "260.00"},
        },
        {
            "name": "memo-not-exact#2",
            "file": "output/invoice_status.csv",
            "level": 4,
            "where": {"invoice_id": "INV-10275"},
            "equals": {"applied": "150.00", "balance": "260.00", "status": "partial"},
        },
        {
            "name": "memo-typo#1",
            "file": "output/applications.csv",
            "level": 4,
            "where": {"source_id": "PAY-60284", "invoice_id": "INV-10126"},
            "equals": {"amount": "380.00"},
        },
        {
            "name": "memo-typo#2",
            "file": "output/invoice_status.csv",
            "level": 4,
            "where": {"invoice_id": "INV-10297"},
            "equals": {"applied": "140.00", "balance": "380.00", "status": "partial"},
        },
        {
            "name": "currency#1",
            "file": "output/applications.csv",
            "level": 4,
            "where": {"source_id": "PAY-60237"},
            "equals": {"invoice_id": "INV-10240", "amount": "880.00"},
        },
        {
            "name": "currency#2",
            "file": "output/invoice_status.csv",
            "level": 4,
            "where": {"invoice_id": "INV-10101"},
            "equals": {"applied": "0.00", "balance": "1500.00", "status": "open"},
        },
        {
            "name": "due-date-tie#1",
            "file": "output/applications.csv",
            "level": 4,
            "where": {"source_id": "PAY-60190"},
            "equals": {"invoice_id": "INV-10198", "amount": "600.00"},
        },
        {
            "name": "due-date-tie#2",
            "file": "output/invoice_status.csv",
            "level": 4,
            "where": {"invoice_id": "INV-10230"},
            "equals": {"status": "open"},
        },
        {
            "name": "memo-two-invoices#1",
            "file": "output/applications.csv",
            "level": 4,
            "where": {"source_id": "PAY-60246", "invoice_id": "INV-10245"},
            "equals": {"amount": "700.00"},
        },
        {
            "name": "memo-two-invoices#2",
            "file": "output/applications.csv",
            "level": 4,
            "where": {"source_id": "PAY-60246", "invoice_id": "INV-10177"},
            "equals": {"amount": "300.00"},
        },
        {
            "name": "memo-two-invoices#3",
            "file": "output/invoice_status.csv",
            "level": 4,
            "where": {"invoice_id": "INV-10060"},
            "equals": {"balance": "350.00", "status": "open"},
        },
        {
            "name": "rounded-up#1",
            "file": "output/exceptions.csv",
            "level": 4,
            "where": {"source_id": "PAY-60199"},
            "equals": {"amount": "0.40", "reason": "unapplied"},
        },
        {
            "name": "rounded-up#2",
            "file": "output/invoice_status.csv",
            "level": 4,
            "where": {"invoice_id": "INV-10183"},
            "equals": {"balance": "0.00", "status": "paid"},
        },
        {
            "name": "bank-fee#1",
            "file": "output/applications.csv",
            "level": 4,
            "where": {"source_id": "PAY-60262", "invoice_id": "INV-10110"},
            "equals": {"amount": "0.75"},
        },
        {
            "name": "bank-fee#2",
            "file": "output/invoice_status.csv",
            "level": 4,
            "where": {"invoice_id": "INV-10215"},
            "equals": {"applied": "300.00", "status": "paid"},
        },
        {
            "name": "bank-fee#3",
            "file": "output/exceptions.csv",
            "level": 4,
            "where": {"source_id": "PAY-60262"},
            "absent": True,
        },
        {
            "name": "unknown-customer#1",
            "file": "output/exceptions.csv",
            "level": 4,
            "where": {"source_id": "PAY-60150"},
            "equals": {"customer_id": "C1099", "amount": "275.00", "reason": "unapplied"},
        },
        {
            "name": "unknown-customer#2",
            "file": "output/applications.csv",
            "level": 4,
            "where": {"source_id": "PAY-60150"},
            "absent": True,
        },
        {
            "name": "credit-unknown-invoice#1",
            "file": "output/exceptions.csv",
            "level": 4,
            "where": {"source_id": "CR-3012"},
            "equals": {
                "source_type": "credit",
                "customer_id": "C1023",
                "amount": "85.50",
                "reason": "unknown-invoice",
            },
        },
        {
            "name": "credit-unknown-invoice#2",
            "file": "output/exceptions.csv",
            "level": 4,
            "where": {"source_id": "CR-3015"},
            "equals": {"amount": "40.00", "reason": "unknown-invoice"},
        },
        {
            "name": "credit-unknown-invoice#3",
            "file": "output/applications.csv",
            "level": 4,
            "where": {"source_id": "CR-3015"},
            "absent": True,
        },
        {
            "name": "credit-unknown-invoice#4",
            "file": "output/exceptions.csv",
            "level": 4,
            "where": {"source_id": "CR-3019"},
            "equals": {"currency": "EUR", "amount": "60.00", "reason": "unknown-invoice"},
        },
        {
            "name": "credit-exceeds-invoice#1",
            "file": "output/applications.csv",
            "level": 4,
            "where": {"source_id": "CR-3021"},
            "equals": {"invoice_id": "INV-10150", "amount": "180.00"},
        },
        {
            "name": "credit-exceeds-invoice#2",
            "file": "output/exceptions.csv",
            "level": 4,
            "where": {"source_id": "CR-3021"},
            "equals": {"amount": "20.00", "reason": "unapplied"},
        },
        {
            "name": "credit-exceeds-invoice#3",
            "file": "output/invoice_status.csv",
            "level": 4,
            "where": {"invoice_id": "INV-10290"},
            "equals": {"status": "open"},
        },
        {
            "name": "date-order#1",
            "file": "output/applications.csv",
            "level": 4,
            "where": {"source_id": "PAY-60321", "invoice_id": "INV-10206"},
            "equals": {"amount": "100.00"},
        },
        {
            "name": "date-order#2",
            "file": "output/applications.csv",
            "level": 4,
            "where": {"source_id": "PAY-60065"},
            "equals": {"invoice_id": "INV-10206", "amount": "400.00"},
        },
        {
            "name": "date-order#3",
            "file": "output/exceptions.csv",
            "level": 4,
            "where": {"source_id": "PAY-60065"},
            "equals": {"amount": "100.00", "reason": "unapplied"},
        },
        {
            "name": "date-order#4",
            "file": "output/exceptions.csv",
            "level": 4,
            "where": {"source_id": "PAY-60321"},
            "absent": True,
        },
        {
            "name": "same-day-credit#1",
            "file": "output/applications.csv",
            "level": 4,
            "where": {"source_id": "CR-3009"},
            "equals": {"invoice_id": "INV-10130", "amount": "200.00"},
        },
        {
            "name": "same-day-credit#2",
            "file": "output/applications.csv",
            "level": 4,
            "where": {"source_id": "PAY-60226", "invoice_id": "INV-10260"},
            "equals": {"amount": "200.00"},
        },
        {
            "name": "same-day-credit#3",
            "file": "output/invoice_status.csv",
            "level": 4,
            "where": {"invoice_id": "INV-10260"},
            "equals": {"balance": "100.00", "status": "partial"},
        },
        {
            "name": "credit-after-payment#1",
            "file": "output/applications.csv",
            "level": 4,
            "where": {"source_id": "PAY-60207"},
            "equals": {"invoice_id": "INV-10175"},
        },
        {
            "name": "credit-after-payment#2",
            "file": "output/applications.csv",
            "level": 4,
            "where": {"source_id": "CR-3017"},
            "equals": {"invoice_id": "INV-10280", "amount": "250.00"},
        },
    ],
    "edge_expect": [
        {
            "name": "edge#1",
            "file": "output/applications.csv",
            "level": 4,
            "where": {"source_id": "PAY-70002", "invoice_id": "INV-30011"},
            "absent": True,
        },
        {
            "name": "edge#2",
            "file": "output/applications.csv",
            "level": 4,
            "where": {"source_id": "PAY-70002", "invoice_id": "INV-30013"},
            "equals": {"amount": "200.00"},
        },
        {
            "name": "edge#3",
            "file": "output/applications.csv",
            "level": 4,
            "where": {"source_id": "PAY-70002", "invoice_id": "INV-30012"},
            "equals": {"amount": "300.00"},
        },
        {
            "name": "edge#4",
            "file": "output/exceptions.csv",
            "level": 4,
            "where": {"source_id": "PAY-70002"},
            "equals": {"amount": "150.00", "reason": "unapplied"},
        },
        {
            "name": "edge#5",
            "file": "output/invoice_status.csv",
            "level": 4,
            "where": {"invoice_id": "INV-30011"},
            "equals": {"applied": "500.00", "balance": "0.00", "status": "paid"},
        },
    ],
    "edge_include_visible": True,
    "services": [],
}

judge = benchlib.Judge(TASK)

# region authored: benchsmith keeps these lines when it rebuilds judge.py
import re
import xml.etree.ElementTree as ET
from decimal import Decimal

STATUS = "output/invoice_status.csv"
APPLICATIONS = "output/applications.csv"
EXCEPTIONS = "output/exceptions.csv"
TOKEN = re.compile(r"[A-Za-z0-9-]+")


def cents(value: object) -> int:
    """A money amount (text, JSON number) as integer cents; the inputs have <= 2 decimals."""
    number = Decimal(str(value).strip()) * 100
    assert number == number.to_integral_value(), f"not a cent amount: {value!r}"
    return int(number)


def text(amount: int) -> str:
    return f"{amount // 100}.{amount % 100:02d}"


def amount_of(row: dict[str, str], field: str, where: str) -> int:
    """A candidate's money field as integer cents (fails unless a number of whole cents)."""
    value = benchlib.as_decimal(row.get(field))
    ok = value is not None and value * 100 == (value * 100).to_integral_value()
    benchlib.expect(ok, f"{where}: {field} {row.get(field)!r} is not an amount in cents")
    return int(value * 100)


class Books:
    """TASK.md's allocation recomputed from the pristine inputs, in integer cents."""

    def __init__(self, source: benchlib.Files) -> None:
        self.invoices = source.csv("inputs/invoices.csv")
        self.invoice = {r["invoice_id"]: r for r in self.invoices}
        self.sources: dict[tuple[str, str], dict] = {}
        for node in ET.fromstring(source.text("inputs/payments.xml")).iter("payment"):
            amount = node.find("amount")
            self.sources["payment", node.findtext("payment_id").strip()] = {
                "customer": node.findtext("customer_id").strip(),
                "currency": amount.get("currency").strip(),
                "date": node.findtext("date").strip(),
                "cents": cents(amount.text),
                "memo": node.findtext("memo") or "",
                "invoice": None,
            }
        for credit in source.json("inputs/credits.json")["credits"]:
            self.sources["credit", credit["credit_id"]] = {
                "customer": credit["customer_id"],
                "currency": credit["currency"],
                "date": credit["date"],
                "cents": cents(credit["amount"]),
                "memo": "",
                "invoice": credit["invoice_id"],
            }
        self.applications: list[dict[str, str]] = []
        self.exceptions: list[dict[str, str]] = []
        self.balance = {r["invoice_id"]: cents(r["amount"]) for r in self.invoices}
        self.settle()

    def settle(self) -> None:
        specific = [k for k, s in self.sources.items() if s["invoice"] is not None]
        others = [k for k, s in self.sources.items() if s["invoice"] is None]
        specific.sort(key=lambda k: (self.sources[k]["date"], k[1]))
        others.sort(key=lambda k: (self.sources[k]["date"], k[1]))
        for key in specific:
            source = self.sources[key]
            target = self.invoice.get(source["invoice"])
            if target is None or (target["customer_id"], target["currency"]) != (
                source["customer"],
                source["currency"],
            ):
                self.leftover(key, source["cents"], "unknown-invoice")
            else:
                self.leftover(key, self.pay(key, [source["invoice"]]), "unapplied")
        for key in others:
            source = self.sources[key]
            mine = [
                r["invoice_id"]
                for r in sorted(self.invoices, key=lambda r: (r["due_date"], r["invoice_id"]))
                if (r["customer_id"], r["currency"]) == (source["customer"], source["currency"])
            ]
            named = [t for t in TOKEN.findall(source["memo"]) if t in mine and self.balance[t]]
            order = list(dict.fromkeys(named + mine))
            self.leftover(key, self.pay(key, order), "unapplied")

    def pay(self, key: tuple[str, str], order: list[str]) -> int:
        left = self.sources[key]["cents"]
        for invoice_id in order:
            step = min(left, self.balance[invoice_id])
            if step > 0:
                self.balance[invoice_id] -= step
                left -= step
                self.applications.append(
                    {
                        "source_id": key[1],
                        "source_type": key[0],
                        "invoice_id": invoice_id,
                        "amount": text(step),
                    }
                )
        return left

    def leftover(self, key: tuple[str, str], left: int, reason: str) -> None:
        if left:
            source = self.sources[key]
            self.exceptions.append(
                {
                    "source_id": key[1],
                    "source_type": key[0],
                    "customer_id": source["customer"],
                    "currency": source["currency"],
                    "amount": text(left),
                    "reason": reason,
                }
            )

    def status(self) -> list[dict[str, str]]:
        rows = []
        for r in self.invoices:
            total, left = cents(r["amount"]), self.balance[r["invoice_id"]]
            state = "paid" if left == 0 else "open" if left == total else "partial"
            rows.append(
                {
                    "invoice_id": r["invoice_id"],
                    "customer_id": r["customer_id"],
                    "currency": r["currency"],
                    "due_date": r["due_date"],
                    "amount": text(total),
                    "applied": text(total - left),
                    "balance": text(left),
                    "status": state,
                }
            )
        return rows


def books(run: benchlib.Run) -> Books:
    if "books" not in run.memo:
        run.memo["books"] = Books(run.source)
    return run.memo["books"]


@judge.check(level=3)
def invoices_listed(run: benchlib.Run) -> None:
    """One status row per invoice, in invoices.csv order, with the invoice's own fields."""
    fields = ("invoice_id", "customer_id", "currency", "due_date")
    got = [(*(r[f] for f in fields), benchlib.as_decimal(r["amount"])) for r in run.csv(STATUS)]
    want = [(*(r[f] for f in fields), Decimal(r["amount"])) for r in books(run).invoices]
    benchlib.expect_equal(got, want, "invoice_status rows")


@judge.check(level=3)
def money_conserved(run: benchlib.Run) -> None:
    """Every application is allowed (same customer and currency, above zero); each source's
    applications plus its exception add up to the source; no invoice is overpaid; the status
    rows agree with the applications."""
    truth = books(run)
    applied: dict[str, int] = {}
    used: dict[tuple[str, str], int] = {}
    for number, row in enumerate(run.csv(APPLICATIONS), start=2):
        where = f"{APPLICATIONS} row {number}"
        key = (row["source_type"], row["source_id"])
        source, invoice = truth.sources.get(key), truth.invoice.get(row["invoice_id"])
        benchlib.expect(source is not None, f"{where}: unknown source {key}")
        benchlib.expect(invoice is not None, f"{where}: unknown invoice {row['invoice_id']}")
        benchlib.expect(
            (invoice["customer_id"], invoice["currency"])
            == (source["customer"], source["currency"]),
            f"{where}: {key[1]} cannot settle {row['invoice_id']} (customer or currency)",
        )
        amount = amount_of(row, "amount", where)
        benchlib.expect(amount > 0, f"{where}: amount must be above zero")
        applied[row["invoice_id"]] = applied.get(row["invoice_id"], 0) + amount
        used[key] = used.get(key, 0) + amount
    for number, row in enumerate(run.csv(EXCEPTIONS), start=2):
        key = (row["source_type"], row["source_id"])
        benchlib.expect(key in truth.sources, f"{EXCEPTIONS} row {number}: unknown source {key}")
        used[key] = used.get(key, 0) + amount_of(row, "amount", f"{EXCEPTIONS} row {number}")
    for key, source in truth.sources.items():
        benchlib.expect_equal(
            used.get(key, 0), source["cents"], f"cents applied or left of {key[1]}"
        )
    for row in run.csv(STATUS):
        invoice = truth.invoice.get(row["invoice_id"])
        benchlib.expect(invoice is not None, f"{STATUS}: unknown invoice {row['invoice_id']}")
        total = cents(invoice["amount"])
        paid = applied.get(row["invoice_id"], 0)
        benchlib.expect(
            paid <= total, f"{row['invoice_id']}: {text(paid)} applied to {text(total)}"
        )
        got = (amount_of(row, "applied", STATUS), amount_of(row, "balance", STATUS))
        benchlib.expect_equal(got, (paid, total - paid), f"{row['invoice_id']} applied, balance")


@judge.check(level=3)
def most_balances_right(run: benchlib.Run) -> None:
    """At least 90% of the invoices end at the balance TASK.md's rules give."""
    want = {r["invoice_id"]: cents(r["balance"]) for r in books(run).status()}
    got = {r["invoice_id"]: amount_of(r, "balance", STATUS) for r in run.csv(STATUS)}
    right = sum(got.get(k) == v for k, v in want.items())
    benchlib.expect(right * 10 >= len(want) * 9, f"{right} of {len(want)} balances right")


@judge.check(level=4)
def applications_exact(run: benchlib.Run) -> None:
    """Every application, in processing order, amounts with two decimals."""
    benchlib.expect_equal(run.csv(APPLICATIONS), books(run).applications, APPLICATIONS)


@judge.check(level=4)
def invoice_status_exact(run: benchlib.Run) -> None:
    benchlib.expect_equal(run.csv(STATUS), books(run).status(), STATUS)


@judge.check(level=4)
def exceptions_exact(run: benchlib.Run) -> None:
    benchlib.expect_equal(run.csv(EXCEPTIONS), books(run).exceptions, EXCEPTIONS)


@judge.edge
def edge_outputs_exact(run: benchlib.Run) -> None:
    """The edge fixture's three outputs, recomputed from its inputs."""
    truth = books(run)
    benchlib.expect_equal(run.csv(APPLICATIONS), truth.applications, APPLICATIONS)
    benchlib.expect_equal(run.csv(STATUS), truth.status(), STATUS)
    benchlib.expect_equal(run.csv(EXCEPTIONS), truth.exceptions, EXCEPTIONS)


# endregion authored

if __name__ == "__main__":
    sys.exit(judge.main())
