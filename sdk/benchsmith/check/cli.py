"""CLI commands of the validation battery (``check``, ``lock``).

The commands are plain functions with typer annotations; :func:`register` wraps them in the
CLI's error guard and adds them to the app (``benchsmith.cli`` calls it at import time, so nothing
heavy is imported here at module level).
"""

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from benchsmith.cli_options import AllOpt, CorpusOpt, JsonOpt, PythonOpt, TasksArg, UnsealedOpt

if TYPE_CHECKING:
    from benchsmith.check.battery import ProgressEvent
    from benchsmith.check.results import CheckReport

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


def register(app: typer.Typer) -> None:
    """Add this package's commands to the benchsmith app."""
    from benchsmith.cli import guard

    app.command("check")(guard(check))
    app.command("lock")(guard(lock))


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
    from benchsmith.check.battery import CheckOptions, check_tasks, default_jobs, selected_controls
    from benchsmith.check.present import html_page, table_text
    from benchsmith.corpus import resolve_tasks
    from benchsmith.pythons import resolve_python

    paths = resolve_tasks(tasks or [], all_tasks=all_tasks, corpus=corpus)
    names = tuple(control or ())
    count = len(selected_controls(names))
    options = CheckOptions(
        resolve_python(python), jobs or default_jobs(len(paths)), names, unsealed=unsealed
    )
    with _Progress(len(paths) * count, count) as report_progress:
        report = check_tasks(paths, options, report_progress)
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
    from benchsmith.corpus import resolve_tasks
    from benchsmith.lock import lock_tasks
    from benchsmith.pythons import resolve_python

    paths = resolve_tasks(tasks or [], all_tasks=all_tasks, corpus=corpus)
    results = lock_tasks(paths, python=resolve_python(python))
    if as_json:
        payload = [r.to_dict() for r in results]
        typer.echo(json.dumps(payload, indent=2, sort_keys=True, ensure_ascii=False))
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

    def __init__(self, total: int, per_task: int) -> None:
        self.total, self.per_task = total, per_task
        self.done: dict[str, list[bool]] = {}
        self.bar: Any = None
        self.task_id: Any = None

    def __enter__(self) -> Callable[["ProgressEvent"], None]:
        if sys.stderr.isatty():
            from rich.console import Console
            from rich.progress import Progress

            # No refresh thread: check forks its worker processes, which wants one thread.
            self.bar = Progress(console=Console(stderr=True), transient=True, auto_refresh=False)
            self.bar.start()
            self.task_id = self.bar.add_task("checking", total=self.total)
        return self.advance

    def __exit__(self, *exc: object) -> None:
        if self.bar is not None:
            self.bar.stop()

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
