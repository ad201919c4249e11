"""What every command module shares: the error guard, JSON output and the common options.

No ``from __future__ import annotations`` in the command modules: typer evaluates the
commands' annotations, and these aliases must be real objects when it does.
"""

import functools
import json
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, ParamSpec, TypeVar

import typer

from benchsmith.diagnostics import render_text
from benchsmith.errors import BenchsmithError

P = ParamSpec("P")
R = TypeVar("R")

Command = Callable[..., None]
"""A command: a plain function whose parameters carry typer annotations."""

TasksArg = Annotated[
    list[str] | None,
    typer.Argument(help="Task folders, task.toml files, ids or slugs (of --corpus tasks)."),
]
AllOpt = Annotated[bool, typer.Option("--all", help="Every task of the corpus.")]
CorpusOpt = Annotated[Path, typer.Option(help="Corpus root for --all, ids and slugs.")]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print a machine-readable JSON result.")]
PythonOpt = Annotated[
    str | None,
    typer.Option(help="Interpreter for seed.py, judges and candidates (default: python3.12)."),
]


def guard(command: Callable[P, R]) -> Callable[P, R]:
    """Turn a BenchsmithError into its message, located diagnostics and exit code."""

    @functools.wraps(command)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return command(*args, **kwargs)
        except BenchsmithError as exc:
            if exc.diagnostics:
                typer.echo(render_text(exc.diagnostics), err=True)
            typer.echo(f"error: {exc.message}", err=True)
            raise typer.Exit(exc.exit_code) from None

    return wrapper


def emit_json(payload: Any) -> None:
    """Print ``payload`` as indented, key-sorted JSON."""
    typer.echo(json.dumps(payload, indent=2, sort_keys=True, ensure_ascii=False))
