"""The budgets of one month."""

from __future__ import annotations

import sqlite3

from budgetdesk.money import to_number


def month_budgets(conn: sqlite3.Connection, month: str) -> dict[str, float]:
    rows = conn.execute("SELECT category, amount FROM budgets").fetchall()
    return {category: to_number(amount) for category, amount in rows}
