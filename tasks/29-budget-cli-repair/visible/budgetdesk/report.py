"""The monthly report: income, spending, transfers and the budget variance."""

from __future__ import annotations

import sqlite3

from budgetdesk.budgets import month_budgets
from budgetdesk.money import to_number


def month_range(month: str) -> tuple[str, str]:
    return f"{month}-01", f"{month}-30"


def monthly_report(conn: sqlite3.Connection, month: str) -> dict:
    first, last = month_range(month)
    rows = conn.execute(
        "SELECT category, amount FROM transactions WHERE posted_on BETWEEN ? AND ?",
        (first, last),
    ).fetchall()
    income = sum(to_number(a) for _, a in rows if to_number(a) > 0)
    spending = -sum(to_number(a) for _, a in rows if to_number(a) < 0)
    transfers = sum(to_number(a) for c, a in rows if c == "Transfer")
    categories = []
    for name, budget in sorted(month_budgets(conn, month).items()):
        actual = -sum(to_number(a) for c, a in rows if c == name)
        categories.append(
            {"category": name, "budget": budget, "actual": actual, "variance": actual - budget}
        )
    return {
        "month": month,
        "income": income,
        "spending": spending,
        "transfers": transfers,
        "categories": categories,
    }
