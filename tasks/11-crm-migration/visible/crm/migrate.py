"""Migrate the CRM database to schema version 2 (draft: unfinished, see the TODOs).

python -m crm.migrate workspace/crm.db
"""

import sqlite3
import sys


def main():
    conn = sqlite3.connect(sys.argv[1])
    conn.execute(
        "CREATE TABLE contact_methods (contact_id INTEGER, kind TEXT, value TEXT,"
        " normalized_value TEXT, is_primary INTEGER)"
    )
    for cid, email, phone in conn.execute("SELECT id, email, phone FROM contacts").fetchall():
        if email:
            conn.execute(
                "INSERT INTO contact_methods VALUES (?, 'email', ?, ?, 1)",
                (cid, email, email.lower()),
            )
        if phone:
            conn.execute(
                "INSERT INTO contact_methods VALUES (?, 'phone', ?, ?, 1)",
                (cid, phone, phone.replace("-", "")),
            )
    # TODO: merge the duplicate emails
    # TODO: contacts(id, display_name, notes): drop name/email/phone
    # TODO: PRAGMA user_version
    conn.commit()


if __name__ == "__main__":
    main()
