"""Validation commands: ``check`` and ``lock``.

Each command calls the library function of the same name and prints its result.
"""

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

import benchsmith
from benchsmith.cli._common import (
    AllOpt,
    Command,
    CorpusOpt,
    JsonOpt,
    PythonOpt,
    TasksArg,
    UnsealedOpt,
    emit_json,
)

if TYPE_CHECKING:
    from benchsmith.checking.battery import ProgressEvent
    from benchsmith.checking.results import CheckReport

JobsOpt = Annotated[
    int | None,
    typer.Option(
        "-j", "--jobs", min=1, help="Tasks checked in parallel (default: CPUs, at most tasks)."
    ),
]
HtmlOpt = Annotated[
    Path | None, typer.Option("--html", help="Also write a self-contained HTML report here.")
]
ControlOpt = Annotated[
    list[str] | None,
    typer.Option("--control", help="Run only this control (repeatable; default: all)."),
]


def check(
    tasks: TasksArg = None,
    all_tasks: AllOpt = False,
    corpus: CorpusOpt = Path("tasks"),
    jobs: JobsOpt = None,
    as_json: JsonOpt = False,
    html: HtmlOpt = None,
    python: PythonOpt = None,
    control: ControlOpt = None,
    unsealed: UnsealedOpt = False,
) -> None:
    """Run the validation battery (controls, witnesses, determinism, isolation, hostiles).

    Exit 0 only when every task meets every expectation; 2 when the sandbox cannot run and
    --unsealed was not given.
    """
    from benchsmith.checking.present import html_page, table_text

    with _Progress() as progress:
        report = benchsmith.check(
            tasks or (), all_tasks=all_tasks, corpus=corpus, controls=control or (), jobs=jobs,
            python=python, unsealed=unsealed, on_start=progress.start,
            on_finish=progress.advance,
        )  # fmt: skip
    if html is not None:
        _write_html(html, html_page(report))
    if as_json:
        typer.echo(report_json(report))
    else:
        typer.echo(table_text(report), nl=False)
    raise typer.Exit(0 if report.ok else 1)


def lock(
    tasks: TasksArg = None,
    all_tasks: AllOpt = False,
    corpus: CorpusOpt = Path("tasks"),
    python: PythonOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Record seed.py's tree hashes (main at the final stage, and edge) in benchsmith.lock."""
    results = benchsmith.lock(tasks or (), all_tasks=all_tasks, corpus=corpus, python=python)
    if as_json:
        emit_json([r.to_dict() for r in results])
        return
    for result in results:
        hashes = ", ".join(f"{k} {v[:12]}" for k, v in sorted(result.hashes.items()))
        typer.echo(f"{'updated ' if result.changed else 'unchanged'} {result.task}: {hashes}")


def _write_html(path: Path, page: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(page, encoding="utf-8")
    typer.echo(f"wrote {path}", err=True)


class _Progress:
    """Progress on stderr: a rich bar on a terminal, one line per finished task otherwise."""

    def __init__(self) -> None:
        self.per_task = 0
        self.done: dict[str, list[bool]] = {}
        self.bar: Any = None
        self.task_id: Any = None

    def __enter__(self) -> "_Progress":
        return self

    def __exit__(self, *exc: object) -> None:
        if self.bar is not None:
            self.bar.stop()

    def start(self, task_dirs: list[Path], controls: list[str]) -> None:
        """Size the bar: every control of every task."""
        self.per_task = len(controls)
        if sys.stderr.isatty():
            from rich.console import Console
            from rich.progress import Progress

            # No refresh thread: check forks its worker processes, which wants one thread.
            self.bar = Progress(console=Console(stderr=True), transient=True, auto_refresh=False)
            self.bar.start()
            self.task_id = self.bar.add_task("checking", total=len(task_dirs) * len(controls))

    def advance(self, event: "ProgressEvent") -> None:
        """Record one finished control."""
        results = self.done.setdefault(event.task, [])
        results.append(event.passed)
        if self.bar is not None:
            self.bar.update(self.task_id, advance=1, description=f"{event.task} {event.control}")
            self.bar.refresh()
        elif len(results) == self.per_task:
            failed = results.count(False)
            state = "ok" if not failed else f"{failed} failed"
            typer.echo(f"checked {event.task}: {len(results)} control(s), {state}", err=True)


def report_json(report: "CheckReport") -> str:
    """The JSON text ``check --json`` prints."""
    return json.dumps(report.to_dict(), indent=2, sort_keys=True, ensure_ascii=False)


COMMANDS: tuple[Command, ...] = (check, lock)
