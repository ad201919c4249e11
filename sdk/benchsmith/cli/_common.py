"""What every command module shares: the error guard, JSON output and the common options.

No ``from __future__ import annotations`` in the command modules: typer evaluates the
commands' annotations, and these aliases must be real objects when it does.
"""

import contextlib
import functools
import json
import signal
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Annotated, Any, ParamSpec, TypeVar

import click
import typer

from benchsmith.diagnostics import render_text
from benchsmith.errors import BenchsmithError, FileSystemError
from benchsmith.signals import exit_status, interruption, terminate

P = ParamSpec("P")
R = TypeVar("R")
EXIT_INTERNAL = 4
DEBUG = {"on": False}
"""Set by the root ``--debug`` option: internal errors keep their traceback."""

Command = Callable[..., None]
"""A command: a plain function whose parameters carry typer annotations."""

TasksArg = Annotated[
    list[str] | None,
    typer.Argument(help="Task folders, task.toml files, ids or slugs (of --corpus tasks)."),
]
AllOpt = Annotated[bool, typer.Option("--all", help="Every task of the corpus.")]
CorpusOpt = Annotated[Path, typer.Option(help="Corpus root for --all, ids and slugs.")]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print a machine-readable JSON result.")]
UnsealedOpt = Annotated[
    bool,
    typer.Option(
        "--unsealed",
        help="Run candidates without the bubblewrap sandbox where it cannot run "
        "(unsafe: they can read the task and write anywhere you can); recorded in every report.",
    ),
]
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


@contextlib.contextmanager
def _command_signals() -> Iterator[None]:
    """Ctrl-C raises KeyboardInterrupt and SIGTERM :class:`Terminated` while an authoring
    command runs (main thread only), so every cleanup path runs."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    previous_term = signal.signal(signal.SIGTERM, terminate)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous_term)
        signal.signal(signal.SIGINT, previous)


def guard_authoring(command: Callable[P, R]) -> Callable[P, R]:
    """:func:`guard` an authoring command, and never show a traceback for what is not a bug.

    SIGTERM and SIGINT run every cleanup path and exit 143 / 130; an OSError that escaped
    the library (read-only or full file system, permissions) is a located BS001 (exit 3);
    any other exception is a bug: one line and exit 4, its traceback with ``--debug``.
    """

    @functools.wraps(command)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            with _command_signals():
                return command(*args, **kwargs)
        except (
            BenchsmithError,
            typer.Exit,
            typer.Abort,
            click.exceptions.Exit,
            click.ClickException,
            click.Abort,
        ):
            raise
        except KeyboardInterrupt as exc:
            typer.echo("interrupted; nothing half-written was left behind", err=True)
            raise typer.Exit(exit_status(interruption(exc) or signal.SIGINT)) from None
        except OSError as exc:
            raise FileSystemError.from_os_error(exc) from exc
        except Exception as exc:
            signum = interruption(exc)
            if signum is not None:  # a signal Python wrapped (e.g. in __set_name__)
                typer.echo("interrupted; nothing half-written was left behind", err=True)
                raise typer.Exit(exit_status(signum)) from None
            if DEBUG["on"]:
                raise
            typer.echo(
                f"internal error: {type(exc).__name__}: {exc} -- a bug in benchsmith; "
                "rerun with --debug for the traceback and report it",
                err=True,
            )
            raise typer.Exit(EXIT_INTERNAL) from None

    return guard(wrapper)


def guard_runner(command: Callable[P, R]) -> Callable[P, R]:
    """:func:`guard` a runner command (``run``, ``report``), never showing a traceback for
    what is not a bug: an OSError that escaped the library (a read-only or full file system,
    a path that is a file or a folder where the other was expected) is a located BS001
    (exit 3); any other exception is a bug: one line and exit 4, its traceback with
    ``--debug``. Signals keep the meaning the command gives them (``run`` records its
    unfinished runs as interrupted and exits 130 / 143).
    """

    @functools.wraps(command)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return command(*args, **kwargs)
        except (
            BenchsmithError,
            typer.Exit,
            typer.Abort,
            click.exceptions.Exit,
            click.ClickException,
            click.Abort,
        ):
            raise
        except OSError as exc:
            raise FileSystemError.from_os_error(exc) from exc
        except Exception as exc:
            if DEBUG["on"]:
                raise
            typer.echo(
                f"internal error: {type(exc).__name__}: {exc} -- a bug in benchsmith; "
                "rerun with --debug for the traceback and report it",
                err=True,
            )
            raise typer.Exit(EXIT_INTERNAL) from None

    return guard(wrapper)
