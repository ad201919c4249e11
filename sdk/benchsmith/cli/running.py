"""Runner commands: ``run`` and ``report``.

Each command calls the library function of the same name and prints its result.
"""

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, cast

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
from benchsmith.diagnostics import display_path
from benchsmith.errors import UsageError

if TYPE_CHECKING:
    from benchsmith.running.batch import BatchResult
    from benchsmith.running.data import ArchiveMode, RunOutcome, RunPlan

RunsOpt = Annotated[Path, typer.Option("--runs", help="Folder holding runs.db and run folders.")]
FAILED_REASONS = ("setup_error", "runner_error")


def run(
    tasks: TasksArg = None,
    agent: Annotated[
        str,
        typer.Option(
            "--agent", help="Adapter: replay, nop or 'command:<shell command>' (see README)."
        ),
    ] = "",
    arm: Annotated[
        str | None, typer.Option(help="Arm (harness variant) name; default: adapter kind.")
    ] = None,
    repeat: Annotated[int, typer.Option(min=1, help="Runs per task.")] = 1,
    runs: RunsOpt = Path("runs"),
    jobs: Annotated[int, typer.Option("-j", "--jobs", min=1, help="Runs at once.")] = 1,
    timeout: Annotated[
        float | None,
        typer.Option(
            min=0.1,
            help="Testing/diagnostic override of every scenario's timeout_seconds "
            "(recorded with each run).",
        ),
    ] = None,
    diagnostic: Annotated[
        bool,
        typer.Option("--diagnostic", help="Record as diagnostic reruns, outside aggregates."),
    ] = False,
    archive: Annotated[
        str, typer.Option(help="Archive the final workspace: full, editable or none.")
    ] = "full",
    all_tasks: AllOpt = False,
    corpus: CorpusOpt = Path("tasks"),
    python: PythonOpt = None,
    as_json: JsonOpt = False,
    unsealed: UnsealedOpt = False,
    network: Annotated[
        str,
        typer.Option(
            help="Network of sealed agents: host (model APIs; the default) or none (loopback)."
        ),
    ] = "host",
    pass_env: Annotated[
        list[str] | None,
        typer.Option(
            "--pass-env",
            metavar="NAME",
            help="Pass this variable (a credential) into sealed agents; repeatable.",
        ),
    ] = None,
    agent_bind: Annotated[
        list[str] | None,
        typer.Option(
            "--agent-bind",
            metavar="PATH",
            help="Show this host file or folder read-only to sealed agents; repeatable.",
        ),
    ] = None,
    force: Annotated[
        bool,
        typer.Option(
            "--force", help="Run tasks whose generated files are stale or edited (BS501/BS504)."
        ),
    ] = False,
) -> None:
    """Run tasks through an agent adapter, judge them, and record every run.

    Agents run sealed under bubblewrap and see only the system folders, /opt, the task's
    interpreter, the adapter's program and script, --agent-bind paths and their workspace
    (read-only but for its editable paths); HOME is fresh.
    """
    from benchsmith.runtime.run import Interrupted, interruptible

    if not agent:
        raise UsageError("--agent is required: replay, nop or command:<shell command>")
    if network not in ("host", "none"):
        raise UsageError("--network must be host or none")
    try:
        with _Progress() as progress, interruptible():
            result = benchsmith.run(
                tasks or (), agent=agent, arm=arm, repeat=repeat, runs=runs, jobs=jobs,
                timeout=timeout, diagnostic=diagnostic, archive=cast("ArchiveMode", archive),
                all_tasks=all_tasks, corpus=corpus, python=python, unsealed=unsealed,
                network=network, pass_env=tuple(pass_env or ()),
                agent_bind=tuple(agent_bind or ()), force=force,
                on_start=progress.start, on_finish=progress.advance,
            )  # fmt: skip
    except Interrupted as stop:
        typer.echo(f"interrupted by signal {stop.signum}; unfinished runs recorded", err=True)
        raise typer.Exit(128 + stop.signum) from None
    if as_json:
        emit_json([_outcome_json(o) for o in result.outcomes])
    else:
        _print_outcomes(result)
    failed = [o for o in result.outcomes if _infrastructure_failure(o)]
    raise typer.Exit(1 if failed else 0)


def report(
    runs: RunsOpt = Path("runs"),
    arms: Annotated[
        tuple[str, str] | None,
        typer.Option(
            "--arms", help="Compare two arms: REFERENCE CANDIDATE (matched strict pairs)."
        ),
    ] = None,
    html: Annotated[
        Path | None, typer.Option("--html", help="Also write a self-contained HTML page.")
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """Summarize recorded runs by task, pressure class and corpus; compare two arms."""
    from benchsmith.running.present import render_text, report_json
    from benchsmith.running.report_html import html_pages, run_pages_dir

    if html is not None:
        _check_html(html)
    built = benchsmith.report(runs, arms=arms or ())
    if html is not None:  # the run pages first, in <stem>-runs/ beside it, then the page
        folder = run_pages_dir(html)
        folder.mkdir(exist_ok=True)
        pages = html_pages(built, runs, html, display_path(runs))
        for path, text in pages:
            _write_page(path, text)
        written = {path for path, _ in pages}
        for stale in sorted(folder.glob("*.html")):  # pages of runs the report no longer shows
            if stale not in written:
                stale.unlink(missing_ok=True)
    if as_json:
        emit_json(report_json(built))
    else:
        typer.echo(render_text(built, display_path(runs)), nl=False)
        if html is not None:
            shown = display_path(run_pages_dir(html))
            typer.echo(f"wrote {display_path(html)} (run pages in {shown}/)")


def _check_html(path: Path) -> None:
    """Refuse an ``--html`` path that cannot be a page, before any work is done."""
    if path.is_dir():
        raise UsageError(f"--html {display_path(path)}: is a folder; name the page's file")
    if not path.parent.is_dir():
        raise UsageError(f"--html {display_path(path)}: no folder {display_path(path.parent)}")


def _write_page(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` atomically (a full disk leaves no half page)."""
    import os
    import tempfile

    handle, name = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        os.fchmod(handle, 0o644)
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            stream.write(text)
        Path(name).replace(path)
    except BaseException:
        Path(name).unlink(missing_ok=True)
        raise


class _Progress:
    """A progress bar on stderr, from the moment the runs are planned."""

    def __init__(self) -> None:
        self.bar: Any = None
        self.task_id: Any = None

    def __enter__(self) -> "_Progress":
        return self

    def __exit__(self, *exc: object) -> None:
        if self.bar is not None:
            self.bar.stop()

    def start(self, plans: "list[RunPlan]") -> None:
        """Show the bar, sized to the planned runs."""
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

        columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn())
        self.bar = Progress(*columns, console=Console(stderr=True), transient=True)
        self.bar.start()
        self.task_id = self.bar.add_task("runs", total=len(plans))

    def advance(self, outcome: "RunOutcome") -> None:
        """Count one recorded run."""
        self.bar.update(self.task_id, advance=1, description=outcome.run_id)


def _infrastructure_failure(outcome: "RunOutcome") -> bool:
    verdict_error = outcome.verdict is not None and outcome.verdict.status == "error"
    return outcome.end_reason in FAILED_REASONS or verdict_error


def _outcome_json(outcome: "RunOutcome") -> dict[str, object]:
    verdict = outcome.verdict
    return {
        "run_id": outcome.run_id,
        "task": outcome.plan.task.dirname,
        "arm": outcome.plan.arm,
        "kind": outcome.plan.kind,
        "repeat": outcome.plan.repeat,
        "end_reason": outcome.end_reason,
        "end_detail": outcome.end_detail,
        "status": verdict.status if verdict else None,
        "progress_level": verdict.progress_level if verdict else None,
        "agent_seconds": round(outcome.times.agent, 3),
        "lifecycle_seconds": round(outcome.times.lifecycle, 3),
        "judge_seconds": round(outcome.times.judge, 3),
        "folder": str(outcome.plan.run_dir),
    }


def _print_outcomes(result: "BatchResult") -> None:
    from benchsmith.tables import text_table

    rows = [
        [
            str(o["run_id"]),
            str(o["end_reason"]),
            str(o["status"] or "-"),
            "-" if o["progress_level"] is None else str(o["progress_level"]),
            f"{o['agent_seconds']:.1f}",
            f"{o['judge_seconds']:.1f}",
        ]
        for o in map(_outcome_json, result.outcomes)
    ]
    if rows:
        typer.echo(text_table(["run", "end", "verdict", "level", "agent s", "judge s"], rows))
    details = [o for o in result.outcomes if o.end_detail]
    for outcome in details:
        typer.echo(f"{outcome.run_id}: {outcome.end_detail}", err=True)
    typer.echo(f"recorded {len(result.outcomes)} run(s) in {display_path(result.runs_dir)}")


COMMANDS: tuple[Command, ...] = (run, report)
