"""The ``benchsmith`` command line: a thin typer layer over the library API.

This is the one place that prints user errors and chooses exit codes: 0 success, 1 findings
or failed expectations, 2 usage errors. Library code raises
:class:`~benchsmith.errors.BenchsmithError`.

Every command is a plain function that calls the library function of the same name
(``benchsmith build`` calls :func:`benchsmith.build`) and prints the result. The functions
live in four modules, each listing its commands: :mod:`.authoring` (new, build, lint, rules,
vocab, workspace), :mod:`.checking` (check, lock), :mod:`.running` (run, report) and
:mod:`.exporting` (the ``export`` sub-app). This module registers all of them the same way,
wrapped in the error guard; the command modules never import it.
"""

import sys
from typing import Annotated

import typer

from benchsmith._version import __version__
from benchsmith.cli import authoring, checking, exporting, running
from benchsmith.cli._common import guard

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


@app.callback()
def root(
    version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="Show the version.")
    ] = False,
) -> None:
    """Author, validate and run hermetic benchmark tasks for coding agents."""


for _command in authoring.COMMANDS + checking.COMMANDS + running.COMMANDS:
    app.command()(guard(_command))
app.add_typer(exporting.EXPORT, name="export")


def main() -> None:
    """Entry point of the ``benchsmith`` console script and of ``python -m benchsmith``."""
    try:
        app()
    except KeyboardInterrupt:
        typer.echo("interrupted", err=True)
        sys.exit(130)
