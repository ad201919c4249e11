"""Option and argument types shared by every command package (one help text each)."""

from pathlib import Path
from typing import Annotated

import typer

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
