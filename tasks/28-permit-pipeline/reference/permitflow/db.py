"""The intake database: normalized applications, their documents, and the reference tables."""

import sqlite3

APPLICATIONS = """
CREATE TABLE applications (
    application_id INTEGER PRIMARY KEY,
    revision INTEGER NOT NULL,
    source TEXT NOT NULL,
    submitted TEXT,
    permit_type TEXT,
    parcel_id TEXT,
    owner_name TEXT,
    valuation TEXT,
    fee_paid TEXT,
    closed_on TEXT,
    unreadable TEXT NOT NULL
)
"""
COLUMNS = ["application_id", "revision", "source", "submitted", "permit_type", "parcel_id",
           "owner_name", "valuation", "fee_paid", "closed_on"]  # fmt: skip


def connect(path):
    return sqlite3.connect(path)


def store(conn, name, columns, rows):
    """Create table ``name`` keyed by all its ``columns`` and insert ``rows`` (sequences)."""
    listed = ", ".join(columns)
    conn.execute(f"CREATE TABLE {name} ({listed}, PRIMARY KEY ({listed})) WITHOUT ROWID")
    conn.executemany(f"INSERT INTO {name} VALUES ({', '.join('?' for _ in columns)})", rows)


def table(conn, name):
    """Every row of table ``name`` as a dict."""
    cursor = conn.execute(f"SELECT * FROM {name}")
    names = [d[0] for d in cursor.description]
    return [dict(zip(names, row, strict=True)) for row in cursor]


def create(path, applications, tables):
    """Write a fresh database: the applications and the reference ``tables``."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.unlink(missing_ok=True)
    conn = connect(path)
    with conn:
        conn.execute(APPLICATIONS)
        conn.executemany(
            f"INSERT INTO applications VALUES ({', '.join('?' for _ in COLUMNS)}, ?)",
            [[app[c] for c in COLUMNS] + [",".join(app["unreadable"])] for app in applications],
        )
        store(
            conn,
            "documents",
            ["application_id", "attachment_id"],
            [(app["application_id"], ref) for app in applications for ref in app["documents"]],
        )
        for name, (columns, rows) in tables.items():
            store(conn, name, columns, rows)
    conn.execute("VACUUM")  # the file's bytes depend on its content, not on insertion order
    conn.close()


def applications(conn):
    """Every stored application as a dict, in ID order (the table's key), with its documents
    in ascending order (the documents table's key)."""
    docs = {}
    for row in table(conn, "documents"):
        docs.setdefault(row["application_id"], []).append(row["attachment_id"])
    apps = table(conn, "applications")
    for app in apps:
        app["documents"] = docs.get(app["application_id"], [])
        app["unreadable"] = app["unreadable"].split(",") if app["unreadable"] else []
    return apps
