"""Schema migrations: version 1 to version 2 (split transactions)."""

from __future__ import annotations

import sqlite3

from budgetdesk.db import schema_version

SPLITS_TABLE = """
CREATE TABLE splits (
    transaction_id INTEGER NOT NULL REFERENCES transactions(id),
    part INTEGER NOT NULL,
    category TEXT NOT NULL REFERENCES categories(name),
    amount TEXT NOT NULL,
    PRIMARY KEY (transaction_id, part)
)
"""


def migrate(conn: sqlite3.Connection) -> bool:
    """Upgrade to version 2; False when the database is there already."""
    if schema_version(conn) >= 2:
        return False
    conn.execute(SPLITS_TABLE)
    conn.execute("PRAGMA user_version = 2")
    return True
