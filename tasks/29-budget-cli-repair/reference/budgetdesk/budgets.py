"""The budgets of one month."""

from __future__ import annotations

import sqlite3
from decimal import Decimal


def month_budgets(conn: sqlite3.Connection, month: str) -> dict[str, Decimal]:
    rows = conn.execute("SELECT category, amount FROM budgets WHERE month = ?", (month,))
    return {category: Decimal(amount) for category, amount in rows}
