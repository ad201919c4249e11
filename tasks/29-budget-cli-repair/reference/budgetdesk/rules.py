"""Category rules: the first matching rule by ascending priority wins."""

from __future__ import annotations

import sqlite3

from budgetdesk.text import fold

FALLBACK = "Uncategorized"


def load_rules(conn: sqlite3.Connection) -> list[tuple[str, str]]:
    return conn.execute("SELECT pattern, category FROM category_rules ORDER BY priority").fetchall()


def categorize(description: str, rules: list[tuple[str, str]]) -> str:
    folded = fold(description)
    for pattern, category in rules:
        if fold(pattern) in folded:
            return category
    return FALLBACK
