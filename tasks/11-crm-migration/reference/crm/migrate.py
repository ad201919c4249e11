"""Migrate the CRM database from schema version 1 to version 2, in place.

python -m crm.migrate workspace/crm.db
"""

from __future__ import annotations

import sys

from crm.db import clean, connect, normalize_email, normalize_phone, user_version

SCHEMA_V2 = (
    """CREATE TABLE contacts (
    id INTEGER PRIMARY KEY,
    display_name TEXT NOT NULL,
    notes TEXT NOT NULL
)""",
    """CREATE TABLE contact_methods (
    contact_id INTEGER NOT NULL REFERENCES contacts(id),
    kind TEXT NOT NULL,
    value TEXT NOT NULL,
    normalized_value TEXT NOT NULL,
    is_primary INTEGER NOT NULL
)""",
    "CREATE INDEX contact_methods_lookup ON contact_methods (kind, normalized_value)",
)


def plan(rows: list[tuple]) -> tuple[list[tuple], list[tuple]]:
    """The version-2 contacts and methods of the version-1 rows (sorted by ID)."""
    groups: dict[int, list[tuple]] = {}
    kept_by_email: dict[str, int] = {}
    for row in rows:
        cid, _, raw_email, _, _ = row
        email = normalize_email(raw_email)
        owner = kept_by_email.setdefault(email, cid) if email else cid
        if owner == cid:
            groups[cid] = [row]
        else:
            groups[owner].append(row)
    contacts, methods = [], []
    for cid, members in groups.items():
        notes: list[str] = []
        for _, _, _, _, raw_note in members:
            note = clean(raw_note)
            if note and note not in notes:
                notes.append(note)
        _, name, _, _, _ = members[0]
        contacts.append((cid, clean(name), "\n".join(notes)))
        seen: set[tuple[str, str]] = set()
        primary: set[str] = set()
        for _, _, raw_email, raw_phone, _ in members:
            for kind, raw, normalized in (
                ("email", raw_email, normalize_email(raw_email)),
                ("phone", raw_phone, normalize_phone(raw_phone)),
            ):
                if not normalized or (kind, normalized) in seen:
                    continue
                seen.add((kind, normalized))
                is_primary = 0 if kind in primary else 1
                primary.add(kind)
                methods.append((cid, kind, clean(raw), normalized, is_primary))
    return contacts, methods


def migrate(path: str) -> None:
    conn = connect(path)
    try:
        version = user_version(conn)
        if version == 2:
            return
        rows = conn.execute(
            "SELECT id, name, email, phone, notes FROM contacts ORDER BY id"
        ).fetchall()
        contacts, methods = plan(rows)
        conn.execute("BEGIN IMMEDIATE")
        try:
            conn.execute("DROP TABLE contacts")
            for statement in SCHEMA_V2:
                conn.execute(statement)
            conn.executemany("INSERT INTO contacts VALUES (?, ?, ?)", contacts)
            conn.executemany("INSERT INTO contact_methods VALUES (?, ?, ?, ?, ?)", methods)
            conn.execute("PRAGMA user_version = 2")
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
    finally:
        conn.close()


def main(argv: list[str]) -> int:
    (path,) = argv  # python -m crm.migrate DATABASE
    migrate(path)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
