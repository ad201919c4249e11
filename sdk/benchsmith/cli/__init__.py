"""The ``benchsmith`` command line: a thin typer layer over the library API.

This is the one place that prints user errors and chooses exit codes: 0 success, 1 findings
or failed expectations, 2 usage errors, 3 the environment failed (a file system that is
read-only or full, a task locked by another process), 4 an internal error (a bug: its
traceback only with ``--debug``), 130 and 143 interrupted by SIGINT or SIGTERM. Library code
raises :class:`~benchsmith.errors.BenchsmithError`.

Every command is a plain function that calls the library function of the same name
(``benchsmith build`` calls :func:`benchsmith.build`) and prints the result. The functions
live in five modules, each listing its commands: :mod:`.authoring` (new, build, lint, rules,
vocab, workspace), :mod:`.checking` (check, lock), :mod:`.auditing` (audit),
:mod:`.running` (run, report) and :mod:`.exporting` (the ``export`` sub-app). This module
registers all of them the same way, wrapped in the error guard (the authoring commands in
:func:`._common.guard_authoring`, which also turns signals and file-system failures into exit
codes); the command modules never import it.
"""

import sys
from typing import Annotated

import typer

from benchsmith._version import __version__
from benchsmith.cli import auditing, authoring, checking, exporting, running
from benchsmith.cli._common import DEBUG, guard, guard_authoring, guard_runner
from benchsmith.signals import restore_defaults

__all__ = ["app", "main"]

app = typer.Typer(
    name="benchsmith",
    help="Author, validate and run hermetic benchmark tasks for coding agents.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"benchsmith {__version__}")
        raise typer.Exit()


AUTHORING = frozenset(c.__name__ for c in authoring.COMMANDS)


@app.callback()
def root(
    ctx: typer.Context,
    version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="Show the version.")
    ] = False,
    debug: Annotated[
        bool, typer.Option("--debug", help="Show the traceback of internal errors (bugs).")
    ] = False,
) -> None:
    """Author, validate and run hermetic benchmark tasks for coding agents."""
    DEBUG["on"] = debug
    if ctx.invoked_subcommand not in AUTHORING:
        restore_defaults()  # check, run, ...: Python's own signal handling


for _command in authoring.COMMANDS:
    app.command()(guard_authoring(_command))
for _command in checking.COMMANDS + auditing.COMMANDS:
    app.command()(guard(_command))
for _command in running.COMMANDS:
    app.command()(guard_runner(_command))
app.add_typer(exporting.EXPORT, name="export")


def main() -> None:
    """Entry point of the ``benchsmith`` console script and of ``python -m benchsmith``."""
    try:
        app()
    except KeyboardInterrupt:
        typer.echo("interrupted", err=True)
        sys.exit(130)
