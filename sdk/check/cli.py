"""CLI commands of the validation battery (``check``, ``lock``)."""

from __future__ import annotations

import typer


def register(app: typer.Typer) -> None:
    """Add this package's commands to the benchsmith app."""
