# generated from task.toml by benchsmith -- edit only the authored region
"""Judge of task 1: Household Expense Reconciliation.

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
    "id": 1,
    "slug": "expense-reconciliation",
    "stages": ["initial"],
    "editable": ["solution/", "output/"],
    "commands": [
        {
            "run": "python -m solution.reconcile --bank inputs/bank.csv --receipts inputs/receipts.json --categories inputs/categories.csv --output output",
            "argv": [
                "python",
                "-m",
                "solution.reconcile",
                "--bank",
                "inputs/bank.csv",
                "--receipts",
                "inputs/receipts.json",
                "--categories",
                "inputs/categories.csv",
                "--output",
                "output",
            ],
            "cwd": ".",
            "stdin": None,
            "stage": "initial",
            "timeout": 10.0,
        }
    ],
    "outputs": [
        {
            "path": "output/reconciliation.csv",
            "format": "csv",
            "header": [
                "transaction_id",
                "posted_date",
                "description",
                "amount",
                "currency",
                "category",
                "matched_receipt_id",
                "status",
            ],
            "stage": "initial",
        },
        {"path": "output/monthly_summary.json", "format": "json", "header": [], "stage": "initial"},
        {
            "path": "output/unmatched_receipts.csv",
            "format": "csv",
            "header": ["receipt_id", "merchant", "paid_date", "total", "currency"],
            "stage": "initial",
        },
    ],
    "expect": [
        {
            "name": "refund-in-category#1",
            "file": "output/reconciliation.csv",
            "level": 4,
            "where": {"transaction_id": "TXK4Q9W2MA"},
            "equals": {"matched_receipt_id": "R26115", "status": "matched"},
        },
        {
            "name": "refund-in-category#2",
            "file": "output/reconciliation.csv",
            "level": 4,
            "where": {"transaction_id": "TXV7E2K5HN"},
            "equals": {"category": "Groceries", "matched_receipt_id": "", "status": "credit"},
        },
        {
            "name": "refund-in-category#3",
            "file": "output/unmatched_receipts.csv",
            "level": 4,
            "where": {"receipt_id": "R27904"},
            "count": 1,
        },
        {
            "name": "refund-without-category#1",
            "file": "output/reconciliation.csv",
            "level": 4,
            "where": {"transaction_id": "TXP8D3N6RB"},
            "equals": {"category": "Refund", "status": "credit"},
        },
        {
            "name": "refund-without-category#2",
            "file": "output/monthly_summary.json",
            "level": 4,
            "path": "2025-03.Refund",
            "equals": "41.99",
        },
        {
            "name": "transfer#1",
            "file": "output/reconciliation.csv",
            "level": 4,
            "where": {"transaction_id": "TXW2H7C9LD"},
            "equals": {"category": "Transfer", "matched_receipt_id": "", "status": "transfer"},
        },
        {
            "name": "adjacent-same-value#1",
            "file": "output/reconciliation.csv",
            "level": 4,
            "where": {"transaction_id": "TXB9V4X2NC"},
            "equals": {"matched_receipt_id": "R47310"},
        },
        {
            "name": "adjacent-same-value#2",
            "file": "output/reconciliation.csv",
            "level": 4,
            "where": {"transaction_id": "TXF6R3T8JE"},
            "equals": {"matched_receipt_id": "R40562"},
        },
        {
            "name": "one-receipt-two-coffees#1",
            "file": "output/reconciliation.csv",
            "level": 4,
            "where": {"transaction_id": "TXM3K8P5QF"},
            "equals": {"matched_receipt_id": "R22871", "status": "matched"},
        },
        {
            "name": "one-receipt-two-coffees#2",
            "file": "output/reconciliation.csv",
            "level": 4,
            "where": {"transaction_id": "TXZ5N2J7WG"},
            "equals": {"matched_receipt_id": "", "status": "unmatched"},
        },
        {
            "name": "cash-receipt#1",
            "file": "output/reconciliation.csv",
            "level": 4,
            "where": {"transaction_id": "TXH7C4L9SP"},
            "equals": {"category": "Transport", "matched_receipt_id": "", "status": "unmatched"},
        },
        {
            "name": "cash-receipt#2",
            "file": "output/unmatched_receipts.csv",
            "level": 4,
            "where": {"receipt_id": "R35094"},
            "equals": {
                "merchant": "Riverside Farmers Market",
                "paid_date": "2025-02-15",
                "total": "18.00",
                "currency": "USD",
            },
        },
        {
            "name": "merchant-punctuation#1",
            "file": "output/reconciliation.csv",
            "level": 4,
            "where": {"transaction_id": "TXD2W8F5HT"},
            "equals": {"matched_receipt_id": "R19027"},
        },
        {
            "name": "merchant-punctuation#2",
            "file": "output/reconciliation.csv",
            "level": 4,
            "where": {"transaction_id": "TXR6G3M9KU"},
            "equals": {"category": "Dining", "matched_receipt_id": "R36641"},
        },
        {
            "name": "unicode-forms#1",
            "file": "output/reconciliation.csv",
            "level": 4,
            "where": {"transaction_id": "TXJ9Q2V6NY"},
            "equals": {"category": "Shopping", "matched_receipt_id": "R51388"},
        },
        {
            "name": "unicode-forms#2",
            "file": "output/reconciliation.csv",
            "level": 4,
            "where": {"transaction_id": "TXS4B7K2XZ"},
            "equals": {"category": "Transport", "matched_receipt_id": "R17755"},
        },
        {
            "name": "unicode-forms#3",
            "file": "output/reconciliation.csv",
            "level": 4,
            "where": {"transaction_id": "TXE8H5R3WA"},
            "equals": {"category": "Dining", "matched_receipt_id": "R39120"},
        },
        {
            "name": "first-pattern-wins#1",
            "file": "output/reconciliation.csv",
            "level": 4,
            "where": {"transaction_id": "TXN3F8D2LB"},
            "equals": {"category": "Groceries"},
        },
        {
            "name": "date-window#1",
            "file": "output/reconciliation.csv",
            "level": 4,
            "where": {"transaction_id": "TXU7L4C8PG"},
            "equals": {"matched_receipt_id": "R15530"},
        },
        {
            "name": "date-window#2",
            "file": "output/reconciliation.csv",
            "level": 4,
            "where": {"transaction_id": "TXA5T9H3MJ"},
            "equals": {"matched_receipt_id": "", "status": "unmatched"},
        },
        {
            "name": "date-window#3",
            "file": "output/unmatched_receipts.csv",
            "level": 4,
            "where": {"receipt_id": "R58409"},
            "count": 1,
        },
        {
            "name": "duplicate-scan#1",
            "file": "output/reconciliation.csv",
            "level": 4,
            "where": {"transaction_id": "TXC8M2W6RD"},
            "equals": {"matched_receipt_id": "R33016"},
        },
        {
            "name": "duplicate-scan#2",
            "file": "output/unmatched_receipts.csv",
            "level": 4,
            "where": {"receipt_id": "R33207"},
            "count": 1,
        },
        {
            "name": "currency#1",
            "file": "output/reconciliation.csv",
            "level": 4,
            "where": {"transaction_id": "TXG3P7N4KE"},
            "equals": {"matched_receipt_id": "R30951"},
        },
        {
            "name": "currency#2",
            "file": "output/unmatched_receipts.csv",
            "level": 4,
            "where": {"receipt_id": "R30288"},
            "equals": {"currency": "CAD"},
        },
        {
            "name": "sharp-s#1",
            "file": "output/reconciliation.csv",
            "level": 4,
            "where": {"transaction_id": "TXQ5W8E3RF"},
            "equals": {"matched_receipt_id": "R38254", "status": "matched"},
        },
        {
            "name": "ampersand-gap#1",
            "file": "output/reconciliation.csv",
            "level": 4,
            "where": {"transaction_id": "TXY3C6V9BM"},
            "equals": {"matched_receipt_id": "R56017", "status": "matched"},
        },
        {
            "name": "spaces-kept#1",
            "file": "output/reconciliation.csv",
            "level": 4,
            "where": {"transaction_id": "TXL2N7D4WC"},
            "equals": {"matched_receipt_id": "", "status": "unmatched"},
        },
        {
            "name": "spaces-kept#2",
            "file": "output/unmatched_receipts.csv",
            "level": 4,
            "where": {"receipt_id": "R22409"},
            "count": 1,
        },
        {
            "name": "micro-deposits#1",
            "file": "output/reconciliation.csv",
            "level": 4,
            "where": {"transaction_id": "TXK7M3B8QE"},
            "equals": {"category": "Refund", "status": "credit"},
        },
        {
            "name": "micro-deposits#2",
            "file": "output/reconciliation.csv",
            "level": 4,
            "where": {"transaction_id": "TXW6P2J5LA"},
            "equals": {
                "category": "Uncategorized",
                "matched_receipt_id": "",
                "status": "unmatched",
            },
        },
        {
            "name": "returned-in-full#1",
            "file": "output/reconciliation.csv",
            "level": 4,
            "where": {"transaction_id": "TXC3J9T5HY"},
            "equals": {"category": "Clothing", "matched_receipt_id": "", "status": "credit"},
        },
        {
            "name": "returned-in-full#2",
            "file": "output/monthly_summary.json",
            "level": 4,
            "path": "2025-03.Clothing",
            "equals": "0.00",
        },
    ],
    "edge_expect": [
        {
            "name": "edge#1",
            "file": "output/reconciliation.csv",
            "level": 4,
            "where": {"transaction_id": "TXEDGE0001"},
            "equals": {"matched_receipt_id": "R10002", "status": "matched"},
        },
        {
            "name": "edge#2",
            "file": "output/unmatched_receipts.csv",
            "level": 4,
            "where": {"receipt_id": "R10001"},
            "count": 1,
        },
    ],
    "edge_include_visible": True,
    "services": [],
}

judge = benchlib.Judge(TASK)

# region authored: benchsmith keeps these lines when it rebuilds judge.py
import csv
import datetime
import io
import json
import unicodedata
from dataclasses import dataclass
from decimal import Decimal

RECONCILIATION = "output/reconciliation.csv"
SUMMARY = "output/monthly_summary.json"
UNMATCHED = "output/unmatched_receipts.csv"
BANK_FIELDS = ("transaction_id", "posted_date", "description", "amount", "currency")


def text_norm(text: str) -> str:
    return " ".join(unicodedata.normalize("NFKC", text).casefold().split())


def merchant_norm(text: str) -> str:
    return " ".join("".join(c for c in text_norm(text) if c.isalnum() or c.isspace()).split())


def can_match(row: dict[str, str], receipt: dict[str, object]) -> bool:
    """Requirement 4 without the Transfer condition (callers check the category)."""
    days = datetime.date.fromisoformat(row["posted_date"]) - datetime.date.fromisoformat(
        str(receipt["paid_date"])
    )
    bank, shop = merchant_norm(row["description"]), merchant_norm(str(receipt["merchant"]))
    return (
        Decimal(row["amount"]) < 0
        and row["currency"] == receipt["currency"]
        and receipt["total"] == -Decimal(row["amount"])
        and abs(days.days) <= 2
        and (shop in bank or bank in shop)
    )


@dataclass
class Truth:
    rows: list[dict[str, str]]  # the expected reconciliation.csv
    summary: dict[str, dict[str, str]]  # the expected monthly_summary.json
    unmatched: list[dict[str, str]]  # the expected unmatched_receipts.csv


_TRUTHS: dict[str, Truth] = {}


def truth(run: benchlib.Run) -> Truth:
    """TASK.md's reconciliation, recomputed from the pristine inputs."""
    if str(run.root) in _TRUTHS:
        return _TRUTHS[str(run.root)]
    rules = [
        (text_norm(r["pattern"]), r["category"]) for r in run.source.csv("inputs/categories.csv")
    ]
    receipts = run.source.json("inputs/receipts.json")  # totals parse as Decimal
    taken: set[str] = set()
    rows, totals = [], {}
    for bank in run.source.csv("inputs/bank.csv"):
        amount = Decimal(bank["amount"])
        description = text_norm(bank["description"])
        fallback = "Uncategorized" if amount < 0 else "Refund"
        category = next((c for p, c in rules if p in description), fallback)
        receipt_id, status = "", "credit"
        if category == "Transfer":
            status = "transfer"
        elif amount < 0:
            posted = datetime.date.fromisoformat(bank["posted_date"])
            candidates = [
                (abs((posted - datetime.date.fromisoformat(r["paid_date"])).days), r["receipt_id"])
                for r in receipts
                if r["receipt_id"] not in taken and can_match(bank, r)
            ]
            if candidates:
                receipt_id = min(candidates)[1]
                taken.add(receipt_id)
            status = "matched" if receipt_id else "unmatched"
        if category != "Transfer":
            month = totals.setdefault(bank["posted_date"][:7], {})
            month[category] = month.get(category, Decimal("0.00")) + amount
        rows.append(
            {**bank, "category": category, "matched_receipt_id": receipt_id, "status": status}
        )
    summary = {m: {c: f"{t:.2f}" for c, t in cats.items()} for m, cats in totals.items()}
    unmatched = [
        {k: str(r[k]) for k in ("receipt_id", "merchant", "paid_date", "total", "currency")}
        for r in receipts
        if r["receipt_id"] not in taken
    ]
    _TRUTHS[str(run.root)] = Truth(rows, summary, unmatched)
    return _TRUTHS[str(run.root)]


def column(run: benchlib.Run, name: str) -> dict[str, str]:
    """transaction_id -> the candidate's value of ``name`` in reconciliation.csv."""
    return {r["transaction_id"]: r[name] for r in run.csv(RECONCILIATION)}


def wanted(run: benchlib.Run, name: str) -> dict[str, str]:
    return {r["transaction_id"]: r[name] for r in truth(run).rows}


@judge.check(level=3)
def rows_in_bank_order(run: benchlib.Run) -> None:
    """One row per bank row, in bank order, the bank fields copied unchanged."""
    got = [{k: r[k] for k in BANK_FIELDS} for r in run.csv(RECONCILIATION)]
    benchlib.expect_equal(got, run.source.csv("inputs/bank.csv"), "reconciliation bank fields")


@judge.check(level=3)
def debit_categories(run: benchlib.Run) -> None:
    """Every debit's category is its first matching pattern (or Uncategorized)."""
    want = {r["transaction_id"]: r["category"] for r in truth(run).rows if r["amount"][0] == "-"}
    got = {k: v for k, v in column(run, "category").items() if k in want}
    benchlib.expect_equal(got, want, "category of debits")


@judge.check(level=3)
def matches_valid_and_unique(run: benchlib.Run) -> None:
    """Each claimed match is allowed by requirement 4, no receipt is used twice, and at least
    90% of the matches TASK.md implies are made."""
    receipts = {r["receipt_id"]: r for r in run.source.json("inputs/receipts.json")}
    bank = {r["transaction_id"]: r for r in truth(run).rows}
    used: set[str] = set()
    for tid, receipt_id in column(run, "matched_receipt_id").items():
        if not receipt_id:
            continue
        row, receipt = bank.get(tid), receipts.get(receipt_id)
        benchlib.expect(row is not None and receipt is not None, f"{tid}: unknown {receipt_id}")
        benchlib.expect(receipt_id not in used, f"receipt {receipt_id} is used twice")
        used.add(receipt_id)
        allowed = row["category"] != "Transfer" and can_match(row, receipt)
        benchlib.expect(allowed, f"{tid} cannot be matched with {receipt_id}")
    implied = sum(1 for r in truth(run).rows if r["matched_receipt_id"])
    benchlib.expect(len(used) * 10 >= implied * 9, f"{len(used)} matches of {implied} expected")


@judge.check(level=3)
def monthly_totals_balance(run: benchlib.Run) -> None:
    """Each month's totals add up to that month's non-transfer bank amounts."""
    summary = run.json(SUMMARY)
    benchlib.expect(isinstance(summary, dict), f"{SUMMARY}: not a JSON object")
    got = {}
    for month, categories in summary.items():
        benchlib.expect(isinstance(categories, dict), f"{SUMMARY}: {month} is not an object")
        values = [benchlib.as_decimal(v) for v in categories.values()]
        benchlib.expect(None not in values, f"{SUMMARY}: {month} has a non-numeric total")
        got[month] = sum(values, Decimal(0))
    want = {m: sum(map(Decimal, c.values()), Decimal(0)) for m, c in truth(run).summary.items()}
    benchlib.expect_equal(got, want, "sum of each month's totals")


@judge.check(level=4)
def every_category(run: benchlib.Run) -> None:
    benchlib.expect_equal(column(run, "category"), wanted(run, "category"), "category")


@judge.check(level=4)
def every_match(run: benchlib.Run) -> None:
    benchlib.expect_equal(
        column(run, "matched_receipt_id"), wanted(run, "matched_receipt_id"), "matched_receipt_id"
    )


@judge.check(level=4)
def every_status(run: benchlib.Run) -> None:
    benchlib.expect_equal(column(run, "status"), wanted(run, "status"), "status")


@judge.check(level=4)
def summary_exact(run: benchlib.Run) -> None:
    """Per month and category, the total as a two-decimal string; no Transfer."""
    benchlib.expect_equal(run.json(SUMMARY), truth(run).summary, SUMMARY)


@judge.check(level=4)
def unmatched_receipts_exact(run: benchlib.Run) -> None:
    """The receipts no debit took, in receipts.json order."""
    benchlib.expect_equal(run.csv(UNMATCHED), truth(run).unmatched, UNMATCHED)


@judge.check(level=4)
def csv_written_as_stated(run: benchlib.Run) -> None:
    """TASK.md: CSV exactly as csv.writer(stream, lineterminator="\\n") writes it (LF, minimal
    quoting): the text equals its own rows written that way."""
    for path in (RECONCILIATION, UNMATCHED):
        text = run.text(path)
        canonical = io.StringIO()
        csv.writer(canonical, lineterminator="\n").writerows(run.files.csv_rows(path))
        lines = text.split("\n")  # a CRLF line keeps its CR: the note shows it
        want = canonical.getvalue().split("\n")
        benchlib.expect_equal(lines, want, f"{path} lines (LF endings, minimal quoting)")


def unique_pairs(pairs: list[tuple[str, object]]) -> dict[str, object]:
    keys = [k for k, _ in pairs]
    benchlib.expect(len(set(keys)) == len(keys), f"{SUMMARY}: a key appears twice in one object")
    return dict(pairs)


@judge.check(level=4)
def summary_keys_ascending(run: benchlib.Run) -> None:
    """TASK.md: months ascending, and within each month the categories ascending."""
    try:
        summary = json.loads(run.text(SUMMARY), object_pairs_hook=unique_pairs)
    except ValueError as exc:
        raise benchlib.CheckFailed(f"{SUMMARY}: not valid JSON ({exc})") from None
    benchlib.expect(isinstance(summary, dict), f"{SUMMARY}: not a JSON object")
    benchlib.expect_equal(list(summary), sorted(summary), f"{SUMMARY} month order")
    for month, categories in summary.items():
        benchlib.expect(isinstance(categories, dict), f"{SUMMARY}: {month} is not an object")
        benchlib.expect_equal(list(categories), sorted(categories), f"{SUMMARY} {month} order")


# endregion authored

if __name__ == "__main__":
    sys.exit(judge.main())
