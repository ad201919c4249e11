"""Exporting every transaction as CSV or JSON, in one stable order."""

from __future__ import annotations

import csv
import json
import sqlite3
from pathlib import Path

from budgetdesk.splits import parts_by_transaction

HEADER = ["source_account", "source_id", "part", "posted_on", "description", "category", "amount"]


def records(conn: sqlite3.Connection) -> list[dict]:
    parts = parts_by_transaction(conn)
    rows = conn.execute(
        "SELECT id, source_account, source_id, posted_on, description, category, amount"
        " FROM transactions ORDER BY posted_on, source_account, source_id"
    )
    out = []
    for tid, account, source_id, posted_on, description, category, amount in rows.fetchall():
        out.append(
            {
                "source_account": account,
                "source_id": source_id,
                "posted_on": posted_on,
                "description": description,
                "category": category,
                "amount": amount,
                "splits": [
                    {"part": n, "category": c, "amount": a}
                    for n, (c, a) in enumerate(parts.get(tid, []), start=1)
                ],
            }
        )
    return out


def write_export(conn: sqlite3.Connection, fmt: str, path: Path) -> None:
    data = records(conn)
    path.parent.mkdir(parents=True, exist_ok=True)
    if fmt == "json":
        text = json.dumps({"transactions": data}, indent=2, ensure_ascii=False) + "\n"
        path.write_text(text, encoding="utf-8")
        return
    with path.open("w", encoding="utf-8", newline="") as stream:
        writer = csv.writer(stream, lineterminator="\n")
        writer.writerow(HEADER)
        for t in data:
            head = [t["source_account"], t["source_id"]]
            for s in t["splits"] or [{"part": 0, "category": t["category"], "amount": t["amount"]}]:
                writer.writerow(
                    [*head, s["part"], t["posted_on"], t["description"], s["category"], s["amount"]]
                )
