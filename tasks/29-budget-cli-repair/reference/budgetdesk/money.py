"""Amounts of money: always decimal.Decimal, stored as text with two decimals."""

from __future__ import annotations

from decimal import Decimal


def parse_comma_decimal(text: str) -> Decimal | None:
    """An unsigned amount like 1.234,56 (None when the cell is empty)."""
    if not text:
        return None
    return Decimal(text.replace(".", "").replace(",", "."))


def parse_point_decimal(text: str) -> Decimal:
    """A signed amount like -1,234.56."""
    return Decimal(text.replace(",", ""))


def format_amount(value: Decimal) -> str:
    """Two decimals, '-' when negative, never '-0.00'."""
    return f"{value + 0:.2f}"
