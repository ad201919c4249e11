"""The monthly report: income, spending, transfers and the budget variance."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from decimal import Decimal

from budgetdesk.budgets import month_budgets
from budgetdesk.money import format_amount
from budgetdesk.splits import parts_by_transaction


def month_amounts(conn: sqlite3.Connection, month: str) -> Iterator[tuple[str, Decimal]]:
    """(category, amount) of the month's transactions; a split one gives its parts."""
    parts = parts_by_transaction(conn)
    rows = conn.execute(
        "SELECT id, category, amount FROM transactions WHERE substr(posted_on, 1, 7) = ?",
        (month,),
    )
    for tid, category, amount in rows.fetchall():
        for part_category, part_amount in parts.get(tid, [(category, amount)]):
            yield part_category, Decimal(part_amount)


def monthly_report(conn: sqlite3.Connection, month: str) -> dict:
    kinds = dict(conn.execute("SELECT name, kind FROM categories").fetchall())
    budgets = month_budgets(conn, month)
    income = spending = incoming = outgoing = Decimal(0)
    actual: dict[str, Decimal] = {}
    for category, amount in month_amounts(conn, month):
        kind = kinds[category]
        if kind == "income":
            income += amount
        elif kind == "transfer" and amount > 0:
            incoming += amount
        elif kind == "transfer":
            outgoing -= amount
        else:
            spending -= amount
            actual[category] = actual.get(category, Decimal(0)) - amount
    categories = []
    for name in sorted(set(actual) | set(budgets)):
        budget, spent = budgets.get(name, Decimal(0)), actual.get(name, Decimal(0))
        categories.append(
            {
                "category": name,
                "budget": format_amount(budget),
                "actual": format_amount(spent),
                "variance": format_amount(budget - spent),
            }
        )
    return {
        "month": month,
        "income": format_amount(income),
        "spending": format_amount(spending),
        "transfers": {"in": format_amount(incoming), "out": format_amount(outgoing)},
        "categories": categories,
    }
