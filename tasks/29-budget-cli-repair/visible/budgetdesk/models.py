"""The records budgetdesk passes between its modules."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal


@dataclass(frozen=True)
class Account:
    id: str
    name: str
    dialect: str
    statements: tuple[str, ...]


@dataclass(frozen=True)
class StatementRow:
    """One row of a bank statement, already in budgetdesk's terms."""

    source_id: str
    posted_on: str  # YYYY-MM-DD
    description: str  # normalized
    amount: Decimal  # negative: money leaving the account
