"""Dates of the bank dialects, as ISO dates."""

from __future__ import annotations

import datetime as dt


def parse_date(text: str, pattern: str) -> str:
    return dt.datetime.strptime(text.strip(), pattern).date().isoformat()
