"""The statement formats of our banks: alpen (Alpenbank) and harbor (Harbor Visa)."""

from __future__ import annotations

import csv
from collections.abc import Callable
from pathlib import Path

from budgetdesk.dates import parse_date
from budgetdesk.models import StatementRow
from budgetdesk.money import parse_comma_decimal, parse_point_decimal
from budgetdesk.text import normalize_description


def read_alpen(path: Path) -> list[StatementRow]:
    """';'-separated, dates DD.MM.YYYY, unsigned debit (Soll) and credit (Haben)."""
    with path.open(encoding="utf-8", errors="replace", newline="") as stream:
        rows = list(csv.DictReader(stream, delimiter=";"))
    out = []
    for row in rows:
        credit = parse_comma_decimal(row["Haben"])
        amount = credit if credit is not None else -parse_comma_decimal(row["Soll"])
        text = f"{row['Empfänger/Auftraggeber']} {row['Verwendungszweck']}"
        out.append(
            StatementRow(
                source_id=row["Referenz"],
                posted_on=parse_date(row["Valuta"], "%d.%m.%Y"),
                description=normalize_description(text),
                amount=amount,
            )
        )
    return out


def read_harbor(path: Path) -> list[StatementRow]:
    """UTF-8, ',', posting date MM/DD/YYYY."""
    with path.open(encoding="utf-8", newline="") as stream:
        rows = list(csv.DictReader(stream))
    return [
        StatementRow(
            source_id=row["Transaction ID"],
            posted_on=parse_date(row["Posting Date"], "%m/%d/%Y"),
            description=normalize_description(row["Description"]),
            amount=parse_point_decimal(row["Amount"]),
        )
        for row in rows
    ]


READERS: dict[str, Callable[[Path], list[StatementRow]]] = {
    "alpen": read_alpen,
    "harbor": read_harbor,
}
