"""Importing bank statements: new (source_account, source_id) pairs only."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from budgetdesk.dialects import READERS
from budgetdesk.models import Account
from budgetdesk.money import format_amount
from budgetdesk.rules import categorize, load_rules


def import_statements(conn: sqlite3.Connection, accounts: list[Account], folder: Path) -> int:
    """Insert every statement row not seen before; return how many were added."""
    rules = load_rules(conn)
    seen = set(conn.execute("SELECT source_account, source_id FROM transactions").fetchall())
    added = 0
    for account in accounts:
        read = READERS[account.dialect]
        for name in account.statements:
            for row in read(folder / name):
                key = (account.id, row.source_id)
                if key in seen:
                    continue
                seen.add(key)
                conn.execute(
                    "INSERT INTO transactions (source_account, source_id, posted_on,"
                    " description, amount, category) VALUES (?, ?, ?, ?, ?, ?)",
                    (
                        account.id,
                        row.source_id,
                        row.posted_on,
                        row.description,
                        format_amount(row.amount),
                        categorize(row.description, rules),
                    ),
                )
                added += 1
    return added
