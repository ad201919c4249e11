"""The intake database."""

import sqlite3

SCHEMA = """
CREATE TABLE IF NOT EXISTS applications (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    source_id TEXT UNIQUE,
    revision INTEGER,
    source TEXT,
    submitted TEXT,
    permit_type TEXT,
    parcel_id TEXT,
    owner_name TEXT,
    valuation REAL,
    fee_paid REAL,
    closed_on TEXT
);
CREATE TABLE IF NOT EXISTS documents (
    application INTEGER REFERENCES applications(id),
    attachment_id TEXT
);
"""


def connect(path):
    """Open (and create) the database at ``path``."""
    conn = sqlite3.connect(path)
    conn.row_factory = sqlite3.Row
    conn.executescript(SCHEMA)
    return conn


def insert_application(conn, app):
    """Store one application record and its document references.

    A record whose source ID is already stored is ignored.
    """
    cur = conn.execute(
        "INSERT OR IGNORE INTO applications (source_id, revision, source, submitted,"
        " permit_type, parcel_id, owner_name, valuation, fee_paid, closed_on)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            app["application_id"],
            app["revision"],
            app["source"],
            app["submitted"],
            app["permit_type"],
            app["parcel_id"],
            app["owner_name"],
            app["valuation"],
            app["fee_paid"],
            app["closed_on"],
        ),
    )
    if cur.rowcount:
        conn.executemany(
            "INSERT INTO documents VALUES (?, ?)",
            [(cur.lastrowid, ref) for ref in app["documents"]],
        )


def applications(conn):
    """Every stored application, in the order it was imported."""
    return [dict(row) for row in conn.execute("SELECT * FROM applications ORDER BY id")]
