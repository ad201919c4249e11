"""The ``benchsmith`` command line: a thin typer layer over the library.

This is the one place that prints user errors and chooses exit codes: 0 success, 1 findings
or failed expectations, 2 usage errors. Library code raises
:class:`~benchsmith.errors.BenchsmithError`.
"""

from __future__ import annotations

import functools
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, ParamSpec, TypeVar

import typer

from benchsmith import __version__
from benchsmith.cli_options import AllOpt, CorpusOpt, JsonOpt, PythonOpt, TasksArg
from benchsmith.diagnostics import Diagnostic, display_path, has_errors, render_json, render_text
from benchsmith.errors import BenchsmithError, UsageError

P = ParamSpec("P")
R = TypeVar("R")

app = typer.Typer(
    name="benchsmith",
    help="Author, validate and run hermetic benchmark tasks for coding agents.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def _print_diagnostics(diagnostics: tuple[Diagnostic, ...] | list[Diagnostic]) -> None:
    if diagnostics:
        typer.echo(render_text(diagnostics), err=True)


def guard(command: Callable[P, R]) -> Callable[P, R]:
    """Turn SdkErrors into a message, located diagnostics and the error's exit code."""

    @functools.wraps(command)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return command(*args, **kwargs)
        except BenchsmithError as exc:
            _print_diagnostics(exc.diagnostics)
            typer.echo(f"error: {exc.message}", err=True)
            raise typer.Exit(exc.exit_code) from None

    return wrapper


def emit_json(payload: Any) -> None:
    typer.echo(json.dumps(payload, indent=2, sort_keys=True, ensure_ascii=False))


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


@app.command()
@guard
def new(
    slug: Annotated[str, typer.Argument(help="Task slug: lower-case words joined by hyphens.")],
    task_id: Annotated[int, typer.Option("--id", min=1, max=99, help="Task number.")],
    pressure: Annotated[str, typer.Option(help="Pressure class: N, L, M or H.")],
    parent: Annotated[Path, typer.Option("--dir", help="Corpus root to create it in.")] = Path(
        "tasks"
    ),
    title: Annotated[str, typer.Option(help="Human title (default: from the slug).")] = "",
    as_json: JsonOpt = False,
) -> None:
    """Scaffold PARENT/NN-SLUG from the template and build it."""
    from benchsmith.scaffold import new_task

    task_dir = new_task(slug, task_id, pressure.upper(), parent, title)
    if as_json:
        emit_json({"task": display_path(task_dir)})
        return
    typer.echo(f"created {display_path(task_dir)}")
    typer.echo(f"next: edit {display_path(task_dir / 'task.toml')}, then benchsmith build and lint")


@app.command()
@guard
def build(
    tasks: TasksArg = None,
    all_tasks: AllOpt = False,
    corpus: CorpusOpt = Path("tasks"),
    check: Annotated[
        bool, typer.Option("--check", help="Write nothing; exit 1 naming stale files.")
    ] = False,
    force: Annotated[
        bool, typer.Option("--force", help="Overwrite hand edits to generated files.")
    ] = False,
    as_json: JsonOpt = False,
) -> None:
    """Generate seed.py, judge.py, TASK.md, scenario.json and tasks.json from task.toml."""
    from benchsmith.build import build as run_build
    from benchsmith.corpus import resolve_tasks

    paths = resolve_tasks(tasks or [], all_tasks=all_tasks, corpus=corpus)
    result = run_build(paths, check=check, force=force)
    if as_json:
        files = [{"path": display_path(f.path), "status": f.status} for f in result.files]
        emit_json({"files": files, "tasks": [t.dirname for t in result.tasks]})
    elif check:
        typer.echo(f"{len(result.tasks)} task(s) up to date")
    else:
        for change in result.changed:
            typer.echo(f"{change.status:8} {display_path(change.path)}")
        typer.echo(f"built {len(result.tasks)} task(s), {len(result.changed)} file(s) changed")


@app.command()
@guard
def lint(
    paths: Annotated[
        list[Path] | None, typer.Argument(help="Task folders or corpus roots (default: tasks).")
    ] = None,
    output_format: Annotated[
        str, typer.Option("--format", help="Output format: text or json.")
    ] = "text",
    strict: Annotated[bool, typer.Option("--strict", help="Warnings fail too.")] = False,
    select: Annotated[
        list[str] | None, typer.Option(help="Only these rule codes (repeatable).")
    ] = None,
) -> None:
    """Check tasks and corpora; print findings as path:line:col: CODE message."""
    from benchsmith.lint import lint_paths

    if output_format not in ("text", "json"):
        raise UsageError(f"--format must be text or json, not {output_format!r}")
    findings = lint_paths(paths or [Path("tasks")], select=frozenset(select or ()))
    if output_format == "json":
        typer.echo(render_json(findings))
    elif findings:
        typer.echo(render_text(findings))
    failing = has_errors(findings) or (strict and bool(findings))
    raise typer.Exit(1 if failing else 0)


@app.command()
@guard
def rules(as_json: JsonOpt = False) -> None:
    """List every lint rule code with what it checks."""
    from benchsmith.lint.registry import RULES

    if as_json:
        emit_json([{"code": r.code, "summary": r.summary} for r in RULES.values()])
        return
    for rule in RULES.values():
        typer.echo(f"{rule.code}  {rule.summary}")


@app.command()
@guard
def vocab(
    name: Annotated[str, typer.Argument(help="Vocabulary name (a-z, 0-9, _).")],
    provider: Annotated[str, typer.Option(help="Faker provider method, e.g. company.")],
    count: Annotated[int, typer.Option(min=1, max=100000, help="Distinct values to keep.")],
    task: Annotated[Path, typer.Option(help="Task folder receiving vocab/NAME.json.")] = Path(),
    locale: Annotated[str, typer.Option(help="Faker locale.")] = "en_US",
    seed: Annotated[int | None, typer.Option(help="Faker seed (default: 20260831 + id).")] = None,
) -> None:
    """Freeze a Faker vocabulary into TASK/vocab/NAME.json (seed.py never imports Faker)."""
    from benchsmith.vocab import freeze_vocabulary

    path = freeze_vocabulary(task, name, provider=provider, count=count, locale=locale, seed=seed)
    typer.echo(f"wrote {display_path(path)}")


@app.command()
@guard
def workspace(
    task: Annotated[str, typer.Argument(help="Task folder, id or slug.")],
    dest: Annotated[Path, typer.Argument(help="Folder to create (must not exist).")],
    stage: Annotated[int, typer.Option(min=1, help="Stage to materialize (1-based).")] = 1,
    final: Annotated[bool, typer.Option("--final", help="Include every stage's files.")] = False,
    corpus: CorpusOpt = Path("tasks"),
    python: PythonOpt = None,
) -> None:
    """Materialize the workspace exactly as the runner gives it to an agent."""
    from benchsmith.corpus import resolve_task
    from benchsmith.workspace import create_workspace

    made = create_workspace(
        resolve_task(task, corpus), dest, stage=None if final else stage, python=python
    )
    typer.echo(f"workspace ready: {display_path(made)}")


def _register_packages() -> None:
    from benchsmith.audit.cli import register as register_audit
    from benchsmith.check.cli import register as register_check
    from benchsmith.run.cli import register as register_run

    register_check(app)
    register_run(app)
    register_audit(app)


_register_packages()


def main() -> None:
    """Entry point of the ``benchsmith`` console script."""
    try:
        app()
    except KeyboardInterrupt:
        typer.echo("interrupted", err=True)
        sys.exit(130)
