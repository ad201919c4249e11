"""The library API: one function per ``benchsmith`` command, re-exported by ``benchsmith``.

Each function does what the command of the same name does, without printing: ``benchsmith
check`` is :func:`check` plus a table and an exit code. The functions accept friendly
arguments -- a task may be given as its folder, its task.toml, its id or its slug; a path as
a string or any path-like; one task or several -- and choose the same defaults as the
command line (the corpus ``tasks``, the runs folder ``runs``, Python 3.12 when the machine
has one). Errors a user can make raise :class:`~benchsmith.errors.BenchsmithError`.

Nothing heavy is imported until a function runs, so ``import benchsmith`` stays fast.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, TypeAlias

if TYPE_CHECKING:
    from benchsmith.auditing.results import AuditReport
    from benchsmith.auditing.runner import AuditProgress
    from benchsmith.building import BuildResult
    from benchsmith.checking.battery import ProgressEvent
    from benchsmith.checking.results import CheckReport
    from benchsmith.diagnostics import Diagnostic
    from benchsmith.export.harbor import HarborExport
    from benchsmith.export.standalone import StandaloneExport
    from benchsmith.linting.registry import Rule
    from benchsmith.lockfile import LockResult
    from benchsmith.running.batch import BatchResult
    from benchsmith.running.data import ArchiveMode, RunOutcome, RunPlan
    from benchsmith.running.report import Report

__all__ = [
    "DEFAULT_CORPUS",
    "DEFAULT_RUNS",
    "PathArg",
    "TaskArg",
    "Tasks",
    "audit",
    "build",
    "check",
    "export_harbor",
    "export_standalone",
    "lint",
    "lock",
    "new",
    "report",
    "rules",
    "run",
    "vocab",
    "workspace",
]

PathArg: TypeAlias = str | os.PathLike[str]
"""A path, as a string or a path-like object."""

TaskArg: TypeAlias = str | int | os.PathLike[str]
"""A task: its folder, its task.toml, its id (``1`` or ``"01"``) or its slug."""

Tasks: TypeAlias = TaskArg | Iterable[TaskArg]
"""One task or several."""

DEFAULT_CORPUS = Path("tasks")
"""The corpus root that ids, slugs and ``all_tasks`` refer to unless told otherwise."""

DEFAULT_RUNS = Path("runs")
"""The folder holding ``runs.db`` and one folder per run unless told otherwise."""

DEFAULT_AUDIT_SAMPLE = 60
DEFAULT_VERIFY_SAMPLE = 3
"""Recorded mutants ``audit --recorded`` runs again per task unless ``--sample`` says."""
"""Generated mutants :func:`audit` runs per task unless told otherwise (``None``: all)."""


def _task_argument(task: TaskArg) -> str | Path:
    """A task argument as :mod:`benchsmith.corpus` takes it."""
    if isinstance(task, int):
        return str(task)
    return task if isinstance(task, str) else Path(task)


def _task_dirs(tasks: Tasks, *, all_tasks: bool, corpus: PathArg) -> list[Path]:
    """Resolve task arguments to folders (plus the whole corpus with ``all_tasks``)."""
    from benchsmith.corpus import resolve_tasks

    many = [tasks] if isinstance(tasks, str | int | os.PathLike) else list(tasks)
    arguments = [_task_argument(t) for t in many]
    return resolve_tasks(arguments, all_tasks=all_tasks, corpus=Path(corpus))


def _paths(paths: PathArg | Iterable[PathArg]) -> list[Path]:
    """One path or several, as paths."""
    many = [paths] if isinstance(paths, str | os.PathLike) else list(paths)
    return [Path(p) for p in many]


def build(
    tasks: Tasks = (),
    *,
    all_tasks: bool = False,
    corpus: PathArg = DEFAULT_CORPUS,
    check: bool = False,
    force: bool = False,
) -> BuildResult:
    """Generate seed.py, judge.py, TASK.md, scenario.json and the corpus files from task.toml.

    Everything is written at once or nothing is. The authored region of judge.py is kept.

    Args:
        tasks: The tasks to build.
        all_tasks: Also build every task of ``corpus``.
        corpus: The corpus root for ``all_tasks``, ids and slugs.
        check: Write nothing; raise :class:`~benchsmith.errors.StaleError` naming every
            generated file that is missing or out of date.
        force: Overwrite generated files even when they were edited by hand.

    Returns:
        The files considered (``result.changed`` lists those created or updated) and the
        loaded tasks.

    Raises:
        TaskNotFoundError: When a task argument matches nothing, or none was given.
        TaskSpecError: When a task.toml is invalid (nothing is written).
        ConflictError: When a generated file carries hand edits and ``force`` is off.
        StaleError: With ``check``, when a generated file is out of date.
        BuildError: When rendering or formatting fails.
    """
    from benchsmith.building import build as build_tasks

    task_dirs = _task_dirs(tasks, all_tasks=all_tasks, corpus=corpus)
    return build_tasks(task_dirs, check=check, force=force)


def lint(
    paths: PathArg | Iterable[PathArg] = DEFAULT_CORPUS, *, select: Iterable[str] = ()
) -> list[Diagnostic]:
    """Run every lint rule over task folders and corpus roots.

    Args:
        paths: Task folders, task.toml files or corpus roots; an argument that is no path
            may name a task of ``tasks/`` by id or slug, as ``build`` and ``check`` accept.
        select: Only report codes starting with one of these prefixes (all when empty).

    Returns:
        Every finding, sorted by file and position. Findings whose ``severity`` is
        ``error`` fail ``benchsmith lint``; warnings fail it only with ``--strict``.

    Raises:
        UsageError: When a path is neither a task nor a corpus root.
    """
    from benchsmith.linting import lint_paths

    return lint_paths([_lint_target(p) for p in _paths(paths)], select=frozenset(select))


def _lint_target(path: Path) -> Path:
    """``path`` itself, or the task of the default corpus it names (id or slug)."""
    from benchsmith.corpus import resolve_task
    from benchsmith.errors import TaskNotFoundError

    if path.exists() or len(path.parts) != 1:
        return path
    try:
        return resolve_task(str(path), Path(DEFAULT_CORPUS))
    except TaskNotFoundError:
        return path  # lint names what is missing


def check(
    tasks: Tasks = (),
    *,
    all_tasks: bool = False,
    corpus: PathArg = DEFAULT_CORPUS,
    controls: Iterable[str] = (),
    jobs: int | None = None,
    python: str | None = None,
    unsealed: bool = False,
    on_start: Callable[[list[Path], list[str]], None] | None = None,
    on_finish: Callable[[ProgressEvent], None] | None = None,
) -> CheckReport:
    """Run the validation battery: controls, witnesses, determinism, isolation, hostiles.

    Args:
        tasks: The built tasks to check.
        all_tasks: Also check every task of ``corpus``.
        corpus: The corpus root for ``all_tasks``, ids and slugs.
        controls: Names of the controls to run, e.g. ``("isolation",)`` (all when empty).
        jobs: Tasks checked in parallel processes (default: one per CPU, at most one per
            task).
        python: Interpreter for seed.py, judges and candidates (default: Python 3.12 when
            the machine has one, else the current interpreter).
        unsealed: Run candidates without the bubblewrap sandbox when it cannot run here
            (unsafe; recorded in the report). Without it, a machine where the sandbox
            cannot run is a usage error.
        on_start: Called once before the first control runs, with the task folders and
            the names of the controls each one gets (e.g. to size a progress bar).
        on_finish: Called once per finished control (from a helper thread when several
            tasks run in parallel).

    Returns:
        The report; ``report.ok`` says whether every task met every expectation.

    Raises:
        TaskNotFoundError: When a task argument matches nothing, or none was given.
        UsageError: When a control name is unknown, a task was never built or ``python``
            cannot be run.
        BenchsmithError: When a task cannot be checked at all (invalid task.toml, no
            judge.py).
    """
    from benchsmith.checking.battery import (
        CheckOptions,
        check_tasks,
        default_jobs,
        selected_controls,
    )
    from benchsmith.pythons import resolve_python

    task_dirs = _task_dirs(tasks, all_tasks=all_tasks, corpus=corpus)
    names = tuple(controls)
    selected = [c.name for c in selected_controls(names)]
    chosen = jobs if jobs is not None else default_jobs(len(task_dirs))
    options = CheckOptions(resolve_python(python), chosen, names, unsealed=unsealed)
    if on_start is not None:
        on_start(task_dirs, selected)
    return check_tasks(task_dirs, options, on_finish)


def lock(
    tasks: Tasks = (),
    *,
    all_tasks: bool = False,
    corpus: PathArg = DEFAULT_CORPUS,
    python: str | None = None,
) -> list[LockResult]:
    """Record seed.py's tree hashes (main at the final stage, and edge) in benchsmith.lock.

    Args:
        tasks: The built tasks to lock.
        all_tasks: Also lock every task of ``corpus``.
        corpus: The corpus root for ``all_tasks``, ids and slugs.
        python: Interpreter for seed.py (default: Python 3.12 when the machine has one).

    Returns:
        One result per task: the hashes now recorded and whether the lock changed.

    Raises:
        TaskNotFoundError: When a task argument matches nothing, or none was given.
        TaskSpecError: When a task.toml is invalid.
        UsageError: When a task was never built or ``python`` cannot be run.
        SeedError: When seed.py fails (no lock is written then).
    """
    from benchsmith.lockfile import lock_tasks
    from benchsmith.pythons import resolve_python

    task_dirs = _task_dirs(tasks, all_tasks=all_tasks, corpus=corpus)
    return lock_tasks(task_dirs, python=resolve_python(python))


def run(
    tasks: Tasks = (),
    *,
    agent: str,
    arm: str | None = None,
    repeat: int = 1,
    runs: PathArg = DEFAULT_RUNS,
    jobs: int = 1,
    timeout: float | None = None,
    diagnostic: bool = False,
    archive: ArchiveMode = "full",
    all_tasks: bool = False,
    corpus: PathArg = DEFAULT_CORPUS,
    python: str | None = None,
    unsealed: bool = False,
    network: str = "host",
    pass_env: Sequence[str] = (),
    agent_bind: Sequence[str] = (),
    force: bool = False,
    on_start: Callable[[list[RunPlan]], None] | None = None,
    on_finish: Callable[[RunOutcome], None] | None = None,
) -> BatchResult:
    """Run tasks through an agent adapter, judge every run and record it in ``runs``.

    Args:
        tasks: The built tasks to run.
        agent: The adapter: ``replay``, ``nop`` or ``command:<shell command>``.
        arm: Name of the harness variant (default: the adapter kind, e.g. ``replay``).
        repeat: Runs per task.
        runs: Folder holding runs.db and one folder per run (created when missing).
        jobs: Runs executed at once.
        timeout: Agent time budget overriding every scenario's ``timeout_seconds`` (a
            testing and diagnostic override, recorded with each run).
        diagnostic: Record the runs as diagnostic reruns, outside the aggregates.
        archive: Archive the final workspace: ``full``, ``editable`` paths only or ``none``.
        all_tasks: Also run every task of ``corpus``.
        corpus: The corpus root for ``all_tasks``, ids and slugs.
        python: Interpreter for seed.py, services and judges (default: Python 3.12).
        unsealed: Run agents and candidates without the bubblewrap sandbox when it cannot
            run here (unsafe; recorded in every run). Without it, a machine where the sandbox
            cannot run is a usage error.
        network: Network of sealed agents: ``host`` (model APIs) or ``none`` (a loopback).
        pass_env: Variables passed into sealed agents' environment (credentials).
        agent_bind: Host files or folders shown read-only to sealed agents (which see only
            the system folders, ``/opt``, the task's interpreter, the adapter's program and
            script, and their workspace).
        force: Run tasks whose generated files are stale or edited by hand (BS501, BS504)
            as they are; without it such a task is refused before anything runs.
        on_start: Called once with the planned runs, before the first starts.
        on_finish: Called with each outcome once it is recorded.

    Returns:
        The planned runs and their outcomes, in completion order.

    Raises:
        TaskNotFoundError: When a task argument matches nothing, or none was given.
        UsageError: On an unknown adapter, a bad arm name, out-of-range numbers, or an arm
            already recorded with another adapter.
        TaskSpecError: When a task.toml is invalid.
        StaleError: When a task's generated files are stale or edited (without ``force``).
        RecordsError: When the runs database cannot be used.
    """
    from benchsmith.running.batch import BatchOptions, check_options, run_batch

    options = BatchOptions(
        adapter=agent, arm=arm, repeat=repeat, runs_dir=Path(runs), jobs=jobs, timeout=timeout,
        diagnostic=diagnostic, python=python, archive=archive, unsealed=unsealed,
        network=network != "none", pass_env=tuple(pass_env), agent_binds=tuple(agent_bind),
    )  # fmt: skip
    check_options(options)
    task_dirs = _task_dirs(tasks, all_tasks=all_tasks, corpus=corpus)
    _refuse_runs_inside(task_dirs, Path(runs))
    if not force:
        _refuse_stale(task_dirs)
    return run_batch(task_dirs, options, on_start=on_start, on_finish=on_finish)


def _refuse_runs_inside(task_dirs: Sequence[Path], runs: Path) -> None:
    """Refuse a runs folder inside a task folder (``benchsmith run .`` from within a task).

    Raises:
        UsageError: Naming the task folder and what to pass instead.
    """
    from benchsmith.diagnostics import display_path
    from benchsmith.errors import UsageError

    where = runs.resolve()
    for task_dir in task_dirs:
        if where.is_relative_to(task_dir.resolve()):
            raise UsageError(
                f"--runs {display_path(runs)} is inside the task folder "
                f"{display_path(task_dir)}: its records would become part of the task; "
                "pass --runs with a folder outside it (e.g. --runs ../../runs)"
            )


def _refuse_stale(task_dirs: Sequence[Path]) -> None:
    """Refuse tasks whose own generated files differ from what their task.toml gives.

    Raises:
        StaleError: Naming each stale or hand-edited file of the tasks (BS501, BS504); the
            corpus's shared files (tasks.json, run.py) do not stop a run.
    """
    from benchsmith.building import build
    from benchsmith.errors import StaleError

    specified = [d for d in task_dirs if (d / "task.toml").is_file()]
    try:
        build(specified, check=True)
    except StaleError as exc:
        roots = [d.resolve() for d in specified]
        mine = [
            d
            for d in exc.diagnostics
            if any(Path(d.path).resolve().is_relative_to(r) for r in roots)
        ]
        if mine:
            raise StaleError(
                f"{len(mine)} generated file(s) of the tasks to run are stale or edited by "
                "hand; run benchsmith build, or pass --force to run them as they are",
                mine,
            ) from None


def report(runs: PathArg = DEFAULT_RUNS, *, arms: Sequence[str] = ()) -> Report:
    """Summarize the runs recorded in ``runs`` by task, pressure class and corpus.

    Args:
        runs: Folder holding runs.db.
        arms: Two arm names, reference then candidate, to compare them over matched
            strict-pass pairs (none: summarize every arm).

    Returns:
        The report; :mod:`benchsmith.running.present` renders it as text, JSON or HTML.

    Raises:
        RecordsError: When ``runs`` holds no usable runs database.
        UsageError: When ``arms`` is neither empty nor two names, or ``runs`` is a file.
    """
    from benchsmith.diagnostics import display_path
    from benchsmith.errors import UsageError
    from benchsmith.running.records import RecordsWriteError, open_runs, reap_stale
    from benchsmith.running.report import build_report, load_metrics
    from benchsmith.runtime.run import sweep_stale_temp

    if Path(runs).exists() and not Path(runs).is_dir():
        raise UsageError(f"--runs {display_path(Path(runs))}: not a folder")
    conn = open_runs(Path(runs), create=False)
    sweep_stale_temp(Path(tempfile.gettempdir()))  # what killed runs left: workspaces, judges
    try:
        with contextlib.suppress(RecordsWriteError):  # read-only or full: report as recorded
            reap_stale(conn, Path(runs))
        return build_report(load_metrics(conn), list(arms))
    finally:
        conn.close()


def new(
    slug: str,
    *,
    task_id: int,
    pressure: str,
    parent: PathArg = DEFAULT_CORPUS,
    title: str = "",
    parents: bool = False,
) -> Path:
    """Scaffold the task folder ``parent/NN-slug`` from the template, build and lock it.

    Args:
        slug: Lower-case words joined by hyphens.
        task_id: Task number (1-99), unique in ``parent``.
        pressure: Pressure class: ``N``, ``L``, ``M`` or ``H`` (any case).
        parent: The corpus root receiving the task; it must exist unless ``parents``.
        title: Human title (default: the slug in title case).
        parents: Create ``parent`` (and its parents) when missing.

    Returns:
        The new task folder.

    Raises:
        UsageError: When the folder or the id already exists, or an argument is invalid
            (nothing is written).
    """
    from benchsmith.scaffold import new_task

    return new_task(slug, task_id, pressure.upper(), Path(parent), title, parents=parents)


def workspace(
    task: TaskArg,
    dest: PathArg,
    *,
    stage: int | None = 1,
    corpus: PathArg = DEFAULT_CORPUS,
    python: str | None = None,
) -> Path:
    """Materialize a task's workspace exactly as the runner gives it to an agent.

    Args:
        task: The built task.
        dest: The folder to create (must not exist).
        stage: Stage to materialize (1-based); ``None`` for the final workspace, with every
            stage's files.
        corpus: The corpus root for ids and slugs.
        python: Interpreter for seed.py (default: Python 3.12 when the machine has one).

    Returns:
        ``dest``, as a path.

    Raises:
        TaskNotFoundError: When ``task`` matches nothing.
        UsageError: When ``dest`` exists, the stage is out of range or the task is unbuilt.
    """
    from benchsmith.corpus import resolve_task
    from benchsmith.workspaces import create_workspace

    task_dir = resolve_task(_task_argument(task), Path(corpus))
    return create_workspace(task_dir, Path(dest), stage=stage, python=python)


def rules() -> list[Rule]:
    """Every lint rule: its ``BSnnn`` code, what it checks, and its scope.

    Returns:
        The rules, in the order ``benchsmith rules`` lists them.
    """
    from benchsmith.linting import RULES

    return list(RULES.values())


def vocab(
    task: PathArg,
    name: str,
    *,
    provider: str,
    count: int,
    locale: str = "en_US",
    seed: int | None = None,
) -> Path:
    """Freeze a Faker vocabulary into ``task/vocab/NAME.json`` (seed.py never imports Faker).

    Args:
        task: The task folder receiving the vocabulary.
        name: Vocabulary name (a-z, 0-9, _).
        provider: Faker provider method, e.g. ``company``.
        count: Distinct values to keep.
        locale: Faker locale.
        seed: Faker seed (default: the task seed, ``20260831 + id``).

    Returns:
        The written file.

    Raises:
        UsageError: For an invalid name, provider or locale.
        TaskSpecError: When ``task`` holds no valid task.toml.
    """
    from benchsmith.vocabulary import freeze_vocabulary

    return freeze_vocabulary(
        Path(task), name, provider=provider, count=count, locale=locale, seed=seed
    )


def export_harbor(
    tasks: Tasks = (),
    out: PathArg = "harbor",
    *,
    all_tasks: bool = False,
    corpus: PathArg = DEFAULT_CORPUS,
    force: bool = False,
    python: str | None = None,
) -> HarborExport:
    """Write each task as a Harbor task folder under ``out`` (``harbor init --task`` layout).

    Args:
        tasks: The built tasks to export.
        out: Output folder (created); ``out/NN-slug`` is replaced for each task.
        all_tasks: Also export every task of ``corpus``.
        corpus: The corpus root for ``all_tasks``, ids and slugs.
        force: Export tasks that fail the pre-export gate (the problems are recorded).
        python: Interpreter that runs seed.py for the stage files (default: Python 3.12).

    Returns:
        What was written, per task.

    Raises:
        TaskNotFoundError: When a task argument matches nothing, or none was given.
        BenchsmithError: When a task fails the gate without ``force``, or ``out`` cannot be
            written.
    """
    from benchsmith.export.harbor import export_harbor as export

    task_dirs = _task_dirs(tasks, all_tasks=all_tasks, corpus=corpus)
    return export(task_dirs, Path(out), force=force, python=python)


def export_standalone(
    tasks: Tasks = (),
    out: PathArg = "standalone",
    *,
    all_tasks: bool = False,
    corpus: PathArg = DEFAULT_CORPUS,
    force: bool = False,
    python: str | None = None,
    allow_partial: bool = False,
) -> StandaloneExport:
    """Write the tasks as the spec's standalone bundle, ``out/benchmarks/python-realworld-30``.

    The bundle runs with Python 3.12 alone: README.md, tasks.json, benchlib.py, the lean
    runner run.py and ``tasks/NN-slug/`` (TASK.md, scenario.json, seed.py, judge.py, visible/,
    stages/, edge/), and nothing of the authoring side.

    Args:
        tasks: The built tasks to export.
        out: Output folder (created); the bundle folder in it is replaced as a whole.
        all_tasks: Also export every task of ``corpus``.
        corpus: The corpus root for ``all_tasks``, ids and slugs.
        force: Export tasks that fail the pre-export gate.
        python: Interpreter that runs seed.py for the stage files (default: Python 3.12).
        allow_partial: Write the bundle although the tasks are not the spec's ids 1 to 30
            (otherwise refused, naming the missing ids).

    Returns:
        The bundle written and its tasks.

    Raises:
        TaskNotFoundError: When a task argument matches nothing, or none was given.
        BenchsmithError: When a task fails the gate without ``force``, or ``out`` cannot be
            written.
    """
    from benchsmith.export.standalone import export_standalone as export

    task_dirs = _task_dirs(tasks, all_tasks=all_tasks, corpus=corpus)
    return export(task_dirs, Path(out), force=force, python=python, allow_partial=allow_partial)


def audit(
    tasks: Tasks = (),
    *,
    all_tasks: bool = False,
    corpus: PathArg = DEFAULT_CORPUS,
    jobs: int | None = None,
    strict: bool = False,
    operators: Sequence[str] = (),
    expectations: bool = True,
    python: str | None = None,
    on_progress: Callable[[AuditProgress], None] | None = None,
    sample: int | None = DEFAULT_AUDIT_SAMPLE,
    seed: int = 0,
    record: bool = False,
    recorded: bool = False,
) -> AuditReport:
    """Mutation-test each task's judge: mutants of the reference must not score 5.

    Args:
        tasks: The built tasks to audit.
        all_tasks: Also audit every task of ``corpus``.
        corpus: The corpus root for ``all_tasks``, ids and slugs.
        jobs: Worker processes classifying mutants (default: one per CPU).
        strict: Unjustified equivalent mutants, undecided expectations and other findings
            make the report fail too.
        operators: Only mutants of these operators (``authored`` for ``mutants/``); empty:
            all of them.
        expectations: Also prove every expected value of the judge load-bearing.
        python: Interpreter for seed.py, commands and judges (default: Python 3.12).
        on_progress: Called once per finished job (from a helper thread).
        sample: At most this many generated mutants per task (default 60), stratified by
            operator so every operator is represented, authored mutants always included;
            ``None`` runs every mutant (``--full``).
        seed: Chooses the sample: the same seed gives the same mutants.
        record: Write each task's fates to its ``audit.lock`` (needs ``sample=None``,
            every operator and ``expectations``).
        recorded: Take fates from each task's current ``audit.lock``; ``sample`` recorded
            mutants run again to verify it (``None``: all), and every mutant it does not
            know runs. A missing or stale record is a finding, and that task is sampled.

    Returns:
        The report; ``report.ok`` says whether every task passed.

    Raises:
        TaskNotFoundError: When a task argument matches nothing, or none was given.
        TaskSpecError: When a task.toml is invalid.
        UsageError: When ``python`` cannot be run, or the options contradict each other.
    """
    from benchsmith.auditing.runner import AuditOptions, audit_tasks, default_jobs
    from benchsmith.pythons import resolve_python

    task_dirs = _task_dirs(tasks, all_tasks=all_tasks, corpus=corpus)
    options = AuditOptions(
        resolve_python(python), jobs or default_jobs(), strict, tuple(operators), expectations,
        sample, seed, record, recorded,
    )  # fmt: skip
    return audit_tasks(task_dirs, options, on_progress)
