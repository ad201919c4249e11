"""Split transactions: validating a split file and applying its splits (schema version 2)."""

from __future__ import annotations

import csv
import re
import sqlite3
from decimal import Decimal
from pathlib import Path

from budgetdesk.db import schema_version

AMOUNT = re.compile(r"-?(0|[1-9][0-9]*)\.[0-9]{2}")


def read_splits(path: Path) -> dict[tuple[str, str], list[tuple[int, str, str]]]:
    """The file's splits in the order of their first row: key -> [(row, category, amount)]."""
    groups: dict[tuple[str, str], list[tuple[int, str, str]]] = {}
    with path.open(encoding="utf-8", newline="") as stream:
        for number, row in enumerate(csv.DictReader(stream), start=1):
            key = (row["source_account"], row["source_id"])
            groups.setdefault(key, []).append((number, row["category"], row["amount"]))
    return groups


def problem(found: tuple | None, parts: list[tuple[int, str, str]], kinds: dict[str, str]) -> str:
    """The split's error code, or '' when it is valid."""
    if found is None:
        return "unknown_transaction"
    if any(category not in kinds for _, category, _ in parts):
        return "unknown_category"
    if kinds[found[2]] != "spending" or any(kinds[c] != "spending" for _, c, _ in parts):
        return "not_spending"
    total = Decimal(found[1])
    for _, _, amount in parts:
        if not AMOUNT.fullmatch(amount) or Decimal(amount) == 0:
            return "invalid_amount"
        if (Decimal(amount) < 0) != (total < 0):
            return "invalid_amount"
    if sum(Decimal(amount) for _, _, amount in parts) != total:
        return "sum_mismatch"
    return ""


def apply_splits(conn: sqlite3.Connection, path: Path) -> dict:
    kinds = dict(conn.execute("SELECT name, kind FROM categories").fetchall())
    applied, errors = [], []
    for (account, source_id), parts in read_splits(path).items():
        found = conn.execute(
            "SELECT id, amount, category FROM transactions"
            " WHERE source_account = ? AND source_id = ?",
            (account, source_id),
        ).fetchone()
        error = problem(found, parts, kinds)
        if error:
            rows = [number for number, _, _ in parts]
            errors.append(
                {"source_account": account, "source_id": source_id, "rows": rows, "error": error}
            )
            continue
        conn.execute("DELETE FROM splits WHERE transaction_id = ?", (found[0],))
        conn.executemany(
            "INSERT INTO splits VALUES (?, ?, ?, ?)",
            [(found[0], n, category, amount) for n, (_, category, amount) in enumerate(parts, 1)],
        )
        applied.append({"source_account": account, "source_id": source_id, "parts": len(parts)})
    return {"applied": applied, "errors": errors}


def parts_by_transaction(conn: sqlite3.Connection) -> dict[int, list[tuple[str, str]]]:
    """(category, amount) of each split transaction's parts, in part order ({} before v2)."""
    if schema_version(conn) < 2:
        return {}
    out: dict[int, list[tuple[str, str]]] = {}
    rows = conn.execute(
        "SELECT transaction_id, category, amount FROM splits ORDER BY transaction_id, part"
    )
    for tid, category, amount in rows.fetchall():
        out.setdefault(tid, []).append((category, amount))
    return out
