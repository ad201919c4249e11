"""Import a CSV file of contacts into a migrated CRM database, and report what it did.

python -m crm.import_contacts workspace/crm.db inputs/new_contacts.csv output/import_report.json
"""

from __future__ import annotations

import csv
import json
import sqlite3
import sys
from pathlib import Path

from crm.db import clean, connect, normalize_email, normalize_phone


def add_method(conn: sqlite3.Connection, cid: int, kind: str, raw: str, normalized: str) -> None:
    (has,) = conn.execute(
        "SELECT COUNT(*) FROM contact_methods WHERE contact_id = ? AND kind = ?", (cid, kind)
    ).fetchone()
    conn.execute(
        "INSERT INTO contact_methods VALUES (?, ?, ?, ?, ?)",
        (cid, kind, clean(raw), normalized, 0 if has else 1),
    )


def update(conn: sqlite3.Connection, cid: int, row: dict[str, str], phone: str) -> None:
    name, note = clean(row.get("name")), clean(row.get("notes"))
    if name:
        conn.execute("UPDATE contacts SET display_name = ? WHERE id = ?", (name, cid))
    if phone:
        known = conn.execute(
            "SELECT 1 FROM contact_methods WHERE contact_id = ? AND kind = 'phone'"
            " AND normalized_value = ?",
            (cid, phone),
        ).fetchone()
        if not known:
            add_method(conn, cid, "phone", row.get("phone", ""), phone)
    if note:
        (notes,) = conn.execute("SELECT notes FROM contacts WHERE id = ?", (cid,)).fetchone()
        lines = notes.split("\n") if notes else []
        if note not in lines:
            lines.append(note)
            conn.execute("UPDATE contacts SET notes = ? WHERE id = ?", ("\n".join(lines), cid))


def insert(conn: sqlite3.Connection, row: dict[str, str], email: str, phone: str) -> int:
    (top,) = conn.execute("SELECT COALESCE(MAX(id), 0) FROM contacts").fetchone()
    cid = top + 1
    conn.execute(
        "INSERT INTO contacts VALUES (?, ?, ?)",
        (cid, clean(row.get("name")), clean(row.get("notes"))),
    )
    if email:
        add_method(conn, cid, "email", row.get("email", ""), email)
    if phone:
        add_method(conn, cid, "phone", row.get("phone", ""), phone)
    return cid


def run(database: str, csv_path: str, report_path: str) -> None:
    conn = connect(database)
    try:
        with open(csv_path, encoding="utf-8", newline="") as handle:
            rows = list(csv.DictReader(handle))
        existing = {cid for (cid,) in conn.execute("SELECT id FROM contacts")}
        inserted: list[int] = []
        updated: set[int] = set()
        skipped: list[int] = []
        conn.execute("BEGIN IMMEDIATE")
        try:
            for number, row in enumerate(rows, start=1):
                email = normalize_email(row.get("email"))
                phone = normalize_phone(row.get("phone"))
                if not email and not phone:
                    skipped.append(number)
                    continue
                (match,) = conn.execute(  # no email method has an empty normalized value
                    "SELECT MIN(contact_id) FROM contact_methods"
                    " WHERE kind = 'email' AND normalized_value = ?",
                    (email,),
                ).fetchone()
                if match is None:
                    inserted.append(insert(conn, row, email, phone))
                else:
                    update(conn, match, row, phone)
                    if match in existing:
                        updated.add(match)
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
    finally:
        conn.close()
    report = {"inserted": inserted, "updated": sorted(updated), "skipped": skipped}
    out = Path(report_path)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(report) + "\n", encoding="utf-8")


def main(argv: list[str]) -> int:
    database, csv_path, report_path = argv  # DATABASE CSV REPORT
    run(database, csv_path, report_path)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
