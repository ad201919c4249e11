"""Opening the CRM database and the rules shared by its tools."""

from __future__ import annotations

import sqlite3


def connect(path: str) -> sqlite3.Connection:
    """Open the database; transactions are explicit."""
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA foreign_keys = ON")
    return conn


def user_version(conn: sqlite3.Connection) -> int:
    (version,) = conn.execute("PRAGMA user_version").fetchone()
    return version


def normalize_email(value: str | None) -> str:
    """Trim, then casefold; '' means no email."""
    return (value or "").strip().casefold()


def normalize_phone(value: str | None) -> str:
    """Digits 0-9 with a leading '+' kept; '' when the text has no digit."""
    text = (value or "").strip()
    digits = "".join(ch for ch in text if ch in "0123456789")
    if not digits:
        return ""
    return "+" + digits if text.startswith("+") else digits


def clean(value: str | None) -> str:
    return (value or "").strip()
