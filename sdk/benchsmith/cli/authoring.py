"""Authoring commands: ``new``, ``build``, ``lint``, ``rules``, ``vocab``, ``workspace``.

Each command calls the library function of the same name and prints its result.
"""

from pathlib import Path
from typing import Annotated

import typer

import benchsmith
from benchsmith.cli._common import (
    AllOpt,
    Command,
    CorpusOpt,
    JsonOpt,
    PythonOpt,
    TasksArg,
    emit_json,
)
from benchsmith.diagnostics import display_path, has_errors, render_json, render_text
from benchsmith.errors import UsageError


def new(
    slug: Annotated[str, typer.Argument(help="Task slug: lower-case words joined by hyphens.")],
    task_id: Annotated[int, typer.Option("--id", min=1, max=99, help="Task number.")],
    pressure: Annotated[str, typer.Option(help="Pressure class: N, L, M or H.")],
    parent: Annotated[Path, typer.Option("--dir", help="Corpus root to create it in.")] = Path(
        "tasks"
    ),
    title: Annotated[str, typer.Option(help="Human title (default: from the slug).")] = "",
    parents: Annotated[
        bool, typer.Option("--parents", help="Create PARENT (and its parents) if missing.")
    ] = False,
    as_json: JsonOpt = False,
) -> None:
    """Scaffold PARENT/NN-SLUG from the template, build and lock it."""
    task_dir = benchsmith.new(
        slug, task_id=task_id, pressure=pressure, parent=parent, title=title, parents=parents
    )
    if as_json:
        emit_json({"task": display_path(task_dir)})
        return
    typer.echo(f"created {display_path(task_dir)}")
    typer.echo(f"next: edit {display_path(task_dir / 'task.toml')}, then benchsmith build and lint")


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
    result = benchsmith.build(
        tasks or (), all_tasks=all_tasks, corpus=corpus, check=check, force=force
    )
    if as_json:
        files = [{"path": display_path(f.path), "status": f.status} for f in result.files]
        emit_json({"files": files, "tasks": [t.dirname for t in result.tasks]})
    elif check:
        typer.echo(f"{len(result.tasks)} task(s) up to date")
    else:
        for change in result.changed:
            typer.echo(f"{change.status:8} {display_path(change.path)}")
        typer.echo(f"built {len(result.tasks)} task(s), {len(result.changed)} file(s) changed")


def lint(
    paths: Annotated[
        list[Path] | None,
        typer.Argument(
            help="Task folders (or ids and slugs of tasks/) or corpus roots (default: tasks)."
        ),
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
    if output_format not in ("text", "json"):
        raise UsageError(f"--format must be text or json, not {output_format!r}")
    findings = benchsmith.lint(paths or Path("tasks"), select=select or ())
    if output_format == "json":
        typer.echo(render_json(findings))
    elif findings:
        typer.echo(render_text(findings))
    failing = has_errors(findings) or (strict and bool(findings))
    raise typer.Exit(1 if failing else 0)


def rules(as_json: JsonOpt = False) -> None:
    """List every lint rule code with what it checks."""
    found = benchsmith.rules()
    if as_json:
        emit_json([{"code": r.code, "summary": r.summary} for r in found])
        return
    for rule in found:
        typer.echo(f"{rule.code}  {rule.summary}")


def vocab(
    name: Annotated[str, typer.Argument(help="Vocabulary name (a-z, 0-9, _).")],
    provider: Annotated[str, typer.Option(help="Faker provider method, e.g. company.")],
    count: Annotated[int, typer.Option(min=1, max=100000, help="Distinct values to keep.")],
    task: Annotated[Path, typer.Option(help="Task folder receiving vocab/NAME.json.")] = Path(),
    locale: Annotated[str, typer.Option(help="Faker locale.")] = "en_US",
    seed: Annotated[int | None, typer.Option(help="Faker seed (default: 20260831 + id).")] = None,
) -> None:
    """Freeze a Faker vocabulary into TASK/vocab/NAME.json (seed.py never imports Faker)."""
    path = benchsmith.vocab(task, name, provider=provider, count=count, locale=locale, seed=seed)
    typer.echo(f"wrote {display_path(path)}")


def workspace(
    task: Annotated[str, typer.Argument(help="Task folder, id or slug.")],
    dest: Annotated[Path, typer.Argument(help="Folder to create (must not exist).")],
    stage: Annotated[int, typer.Option(min=1, help="Stage to materialize (1-based).")] = 1,
    final: Annotated[bool, typer.Option("--final", help="Include every stage's files.")] = False,
    corpus: CorpusOpt = Path("tasks"),
    python: PythonOpt = None,
    serve: Annotated[
        bool,
        typer.Option(
            "--serve",
            help="Start the task's services and write their URL files as the runner does; "
            "keep them up until Ctrl-C.",
        ),
    ] = False,
) -> None:
    """Materialize the workspace exactly as the runner gives it to an agent."""
    made = benchsmith.workspace(
        task, dest, stage=None if final else stage, corpus=corpus, python=python
    )
    typer.echo(f"workspace ready: {display_path(made)}")
    if serve:
        _serve(task, made, corpus, python)


def _serve(task: str, made: Path, corpus: Path, python: str | None) -> None:
    """Keep the task's services up in ``made`` until Ctrl-C."""
    import threading

    from benchsmith.corpus import resolve_task
    from benchsmith.signals import Terminated
    from benchsmith.workspaces import serve_workspace

    task_dir = resolve_task(task, corpus)
    try:
        with serve_workspace(task_dir, made, python=python) as handles:
            for handle in handles:
                origins = ", ".join(f"{n} {handle.origin_url(n)}" for n in handle.origins)
                typer.echo(f"service {handle.name}: {origins}")
            if not handles:
                typer.echo("the task declares no services")
                return
            typer.echo("serving; press Ctrl-C to stop", err=False)
            threading.Event().wait()
    except Terminated:
        raise
    except KeyboardInterrupt:
        typer.echo("services stopped")


COMMANDS: tuple[Command, ...] = (new, build, lint, rules, vocab, workspace)
