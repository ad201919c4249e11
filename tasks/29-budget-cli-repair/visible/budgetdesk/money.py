"""Amounts of money, stored as text with two decimals."""

from __future__ import annotations

from decimal import Decimal


def parse_comma_decimal(text: str) -> Decimal | None:
    """An unsigned amount like 86,40 (None when the cell is empty)."""
    text = text.strip()
    if not text:
        return None
    return Decimal(text.replace(",", "."))


def parse_point_decimal(text: str) -> Decimal:
    """A signed amount like -1,234.56."""
    return Decimal(text.strip().replace(",", ""))


def format_amount(value: Decimal) -> str:
    return f"{value:.2f}"


def to_number(text: str) -> float:
    """A stored amount as a number for the report."""
    return round(float(text), 2)
