"""The intake database: normalized applications, their documents, and the reference data."""

import json
import sqlite3

SCHEMA = """
CREATE TABLE applications (
    application_id INTEGER PRIMARY KEY,
    revision INTEGER NOT NULL,
    source TEXT NOT NULL,
    submitted TEXT NOT NULL,
    permit_type TEXT NOT NULL,
    parcel_id TEXT NOT NULL,
    owner_name TEXT NOT NULL,
    valuation TEXT NOT NULL,
    fee_paid TEXT NOT NULL,
    closed_on TEXT NOT NULL,
    unreadable TEXT NOT NULL
);
CREATE TABLE documents (
    application_id INTEGER NOT NULL REFERENCES applications(application_id),
    attachment_id TEXT NOT NULL,
    PRIMARY KEY (application_id, attachment_id)
);
CREATE TABLE reference_data (name TEXT PRIMARY KEY, body TEXT NOT NULL);
"""
COLUMNS = ["application_id", "revision", "source", "submitted", "permit_type", "parcel_id",
           "owner_name", "valuation", "fee_paid", "closed_on"]  # fmt: skip


def connect(path):
    return sqlite3.connect(path)


def create(path, applications, data):
    """Write a fresh database: ``applications`` (dicts of intake.Record fields) and ``data``."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.unlink(missing_ok=True)
    conn = connect(path)
    with conn:
        conn.executescript(SCHEMA)
        for app in applications:
            row = [str(app[c]) if app[c] is not None else "" for c in COLUMNS[2:]]
            conn.execute(
                "INSERT INTO applications VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [app["application_id"], app["revision"], *row, ",".join(app["unreadable"])],
            )
            conn.executemany(
                "INSERT INTO documents VALUES (?, ?)",
                [(app["application_id"], ref) for ref in app["documents"]],
            )
        for name, body in data.items():
            conn.execute("INSERT INTO reference_data VALUES (?, ?)", (name, json.dumps(body)))
    conn.close()


def applications(conn):
    """Every stored application as a dict, with its documents and unreadable fields."""
    docs = {}
    for app_id, ref in conn.execute("SELECT application_id, attachment_id FROM documents"):
        docs.setdefault(app_id, []).append(ref)
    apps = []
    query = f"SELECT {', '.join(COLUMNS)}, unreadable FROM applications ORDER BY application_id"
    for row in conn.execute(query):
        app = dict(zip(COLUMNS, row, strict=False))
        app["documents"] = sorted(docs.get(app["application_id"], []))
        app["unreadable"] = row[-1].split(",") if row[-1] else []
        apps.append(app)
    return apps


def reference_data(conn):
    return {name: json.loads(body) for name, body in conn.execute("SELECT * FROM reference_data")}
