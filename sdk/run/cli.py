"""CLI commands of the runner (``run``, ``report``)."""

from __future__ import annotations

import typer


def register(app: typer.Typer) -> None:
    """Add this package's commands to the benchsmith app."""
