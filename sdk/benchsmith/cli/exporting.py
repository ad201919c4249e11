"""Export commands: ``benchsmith export harbor`` and ``benchsmith export standalone``.

``EXPORT`` is the ``export`` sub-app; :mod:`benchsmith.cli` adds it to the app like the other
command modules' commands, wrapped in the same error guard.
"""

from pathlib import Path
from typing import Annotated

import typer

import benchsmith
from benchsmith.cli._common import AllOpt, CorpusOpt, JsonOpt, PythonOpt, TasksArg, emit_json, guard

OutOpt = Annotated[
    Path,
    typer.Option("--out", "-o", help="Output folder; OUT/NN-slug is replaced for each task."),
]
ForceOpt = Annotated[
    bool,
    typer.Option(
        "--force", help="Export tasks that fail the pre-export gate (recorded in task.toml)."
    ),
]
OFFLINE_ENV = "benchsmith_sandbox:BubblewrapEnvironment"


def harbor(
    out: OutOpt,
    tasks: TasksArg = None,
    all_tasks: AllOpt = False,
    corpus: CorpusOpt = Path("tasks"),
    force: ForceOpt = False,
    python: PythonOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Write each task as a Harbor task folder (the harbor init --task layout, schema 1.4).

    OUT/NN-slug holds task.toml (timeouts from the pressure class; pressure, stages
    and compactions under metadata), instruction.md, steps/<stage>/ for staged tasks
    (instruction.md, and workdir/ with the files the stage adds), environment/ (the
    agent's image: the stage-1 workspace, inputs read-only, on python:3.12-slim pinned by
    digest), solution/ (solve.sh installs the reference) and tests/ (test.sh runs the
    task's judge and writes reward.json: reward = progress level / 5).
    OUT/benchsmith_sandbox.py is a Harbor environment for machines without Docker.

    A task is refused unless --force when its generated files are stale (build --check),
    lint finds errors, its fixture lock is missing or it has no reference/. The full proof
    stays benchsmith check.

    Run an export: harbor run -p OUT/NN-slug -a oracle (Docker);
    harbor run -p OUT -e daytona -a claude-code -m MODEL (Daytona, or -e modal);
    without Docker: PYTHONPATH=OUT harbor run -p OUT/NN-slug -a oracle
    --env benchsmith_sandbox:BubblewrapEnvironment.
    """
    from benchsmith.diagnostics import display_path

    result = benchsmith.export_harbor(
        tasks or (), out, all_tasks=all_tasks, corpus=corpus, force=force, python=python
    )
    if as_json:
        payload = {
            "out": display_path(result.out),
            "sandbox": display_path(result.sandbox),
            "environment": OFFLINE_ENV,
            "tasks": [
                {
                    "source": display_path(t.source),
                    "dest": display_path(t.dest),
                    "files": t.files,
                    "problems": list(t.problems),
                }
                for t in result.tasks
            ],
        }
        emit_json(payload)
        return
    for task in result.tasks:
        typer.echo(f"exported {display_path(task.source)} -> {display_path(task.dest)}")
        for problem in task.problems:
            typer.echo(
                f"warning: {display_path(task.source)}: exported with --force: {problem}", err=True
            )
    typer.echo(f"{len(result.tasks)} task(s) exported to {display_path(result.out)}")
    typer.echo(
        f"offline (no Docker): PYTHONPATH={display_path(result.out)} harbor run -p "
        f"{display_path(result.out)}/NN-slug -a oracle --env {OFFLINE_ENV}"
    )


def standalone(
    out: Annotated[
        Path,
        typer.Option(
            "--out", "-o", help="Output folder; OUT/benchmarks/python-realworld-30 is replaced."
        ),
    ],
    tasks: TasksArg = None,
    all_tasks: AllOpt = False,
    corpus: CorpusOpt = Path("tasks"),
    force: ForceOpt = False,
    allow_partial: Annotated[
        bool,
        typer.Option(
            "--allow-partial",
            help="Write the bundle although the tasks are not the spec's ids 1 to 30.",
        ),
    ] = False,
    python: PythonOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Write the corpus as the spec's standalone bundle (section 3), runnable by Python 3.12.

    OUT/benchmarks/python-realworld-30 holds README.md (how to run, levels, metrics, the
    task table), tasks.json, benchlib.py, run.py (the lean runner) and tasks/NN-slug/ with
    TASK.md, scenario.json, seed.py, judge.py, visible/, stages/<stage>/ (generated stage
    files included) and edge/; no task.toml, lock, reference, witnesses or mutants.
    Run it: python3.12 OUT/benchmarks/python-realworld-30/run.py --agent 'command:...' --all.

    A task is refused unless --force when its generated files are stale, lint finds
    errors or its fixture lock is missing. A set of tasks that is not the spec's ids 1 to
    30 is refused unless --allow-partial (the missing ids are named, and the bundle's
    README lists them).
    """
    from benchsmith.diagnostics import display_path

    result = benchsmith.export_standalone(
        tasks or (), out, all_tasks=all_tasks, corpus=corpus, force=force, python=python,
        allow_partial=allow_partial,
    )  # fmt: skip
    if as_json:
        emit_json(
            {
                "out": display_path(result.out),
                "bundle": display_path(result.bundle),
                "tasks": [display_path(t) for t in result.tasks],
                "problems": {k: v for k, v in result.problems.items() if v},
            }
        )
        return
    for name, problems in sorted(result.problems.items()):
        for problem in problems:
            typer.echo(f"warning: {name}: exported with --force: {problem}", err=True)
    typer.echo(f"{len(result.tasks)} task(s) exported to {display_path(result.bundle)}")
    typer.echo(
        f"run: python3.12 {display_path(result.bundle / 'run.py')} --agent 'command:...' --all"
    )


EXPORT = typer.Typer(
    name="export",
    help="Export tasks to other formats (Harbor tasks, the standalone bundle).",
    no_args_is_help=True,
    add_completion=False,
)
EXPORT.command("harbor")(guard(harbor))
EXPORT.command("standalone")(guard(standalone))
