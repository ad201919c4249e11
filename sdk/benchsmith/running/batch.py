"""Running many (task, repeat) pairs for one arm and recording each as it finishes.

Rows are reserved (``pending``) before anything starts, in one write transaction, so
repeat numbers stay unique even when several invocations append to the same runs folder.
Runs execute in this process (``jobs == 1``) or in a pool of worker processes; only this
process writes the database. Nothing is retried: a run that fails is recorded as failed,
and ``diagnostic`` runs are numbered and reported apart from the primary aggregate.

Each task is seeded once per invocation: its stage-1 workspace and stage files are built
by the first run that needs them, in a temporary folder removed when the batch ends, and
copied for every run (:mod:`benchsmith.running.workspaces`); its judges likewise share one
fixture cache (``--fixture-cache``) in the invocation's private temporary folder, removed at
the end too (or, after ``kill -9``, by the next invocation's sweep).
"""

from __future__ import annotations

import contextlib
import errno
import multiprocessing
import os
import shutil
import signal
import sqlite3
import tempfile
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field, replace
from pathlib import Path

from benchsmith.diagnostics import Diagnostic, display_path
from benchsmith.errors import BenchsmithError, FileSystemError, UsageError
from benchsmith.pythons import resolve_python
from benchsmith.running import artifacts, records
from benchsmith.running.adapters import Adapter, resolve_adapter
from benchsmith.running.data import ArchiveMode, Kind, RunOutcome, RunPlan, TaskInfo
from benchsmith.running.runner import execute_run, utc_now
from benchsmith.running.tasks import task_info
from benchsmith.running.workspaces import remove_cache
from benchsmith.runtime import benchlib
from benchsmith.runtime.run import Interrupted, agent_binds, private_temp
from benchsmith.sealing import decide

ARCHIVE_MODES: tuple[ArchiveMode, ...] = ("full", "editable", "none")
CACHE_DIR = "judge-cache"
MAX_REPEAT = 1000
"""``--repeat`` at most: runs per task of one invocation (each planned row is reserved)."""
MAX_JOBS = 256
"""``-j`` at most: runs executed at once."""
WORKER_GRACE = 30.0

Started = Callable[[list[RunPlan]], None]
Finished = Callable[[RunOutcome], None]


@dataclass(frozen=True, slots=True)
class BatchOptions:
    """How to run a batch.

    Attributes:
        adapter: The ``--agent`` value.
        arm: Arm name (default: the adapter kind, e.g. ``replay``).
        repeat: Runs per task.
        runs_dir: Folder holding runs.db and one folder per run.
        jobs: Runs executed at once.
        timeout: Agent time budget overriding every scenario's ``timeout_seconds`` (a
            testing and diagnostic override, recorded in each run).
        diagnostic: Record the runs as diagnostic reruns, outside the primary aggregate.
        python: Interpreter for seed.py, services and judges (default: Python 3.12).
        archive: ``full`` workspace, ``editable`` paths only, or ``none``.
        judge_timeout: Seconds each judge may take.
        reuse_workspaces: Seed each task's workspace and stage files once per invocation
            and copy them for every run; ``False`` seeds every run afresh (the baseline
            of ``bench/bench_run.py``).
        unsealed: Run candidates and agents without the sandbox (``--unsealed``; recorded
            in each run).
        network: Sealed agents share the host network (``--network host``); ``False``
            (``--network none``) leaves them a private loopback only.
        pass_env: Variables of this environment passed into sealed agents (``--pass-env``).
        agent_binds: Host paths shown read-only to sealed agents (``--agent-bind``).
    """

    adapter: str
    arm: str | None = None
    repeat: int = 1
    runs_dir: Path = Path("runs")
    jobs: int = 1
    timeout: float | None = None
    diagnostic: bool = False
    python: str | None = None
    archive: ArchiveMode = "full"
    judge_timeout: float = 1800.0
    reuse_workspaces: bool = True
    unsealed: bool = False
    network: bool = True
    pass_env: tuple[str, ...] = ()
    agent_binds: tuple[str, ...] = ()


@dataclass
class BatchResult:
    """What a batch did.

    Attributes:
        runs_dir: The runs folder.
        plans: Every planned run, in start order.
        outcomes: Finished runs, in completion order.
        interrupted: Ids of runs that never finished.
    """

    runs_dir: Path
    plans: list[RunPlan]
    outcomes: list[RunOutcome] = field(default_factory=list)
    interrupted: list[str] = field(default_factory=list)


def check_options(options: BatchOptions) -> Adapter:
    """Validate the options; return the resolved adapter.

    Raises:
        UsageError: On an unknown adapter, a bad arm name or out-of-range numbers.
    """
    adapter = resolve_adapter(options.adapter)
    records.check_arm(options.arm or adapter.kind)
    if options.repeat < 1 or options.jobs < 1:
        raise UsageError("--repeat and -j must be at least 1")
    if options.repeat > MAX_REPEAT:
        raise UsageError(f"--repeat {options.repeat}: at most {MAX_REPEAT} runs per task")
    if options.jobs > MAX_JOBS:
        raise UsageError(f"-j {options.jobs}: at most {MAX_JOBS} runs at once")
    check_runs_dir(options.runs_dir)
    if options.timeout is not None and options.timeout <= 0:
        raise UsageError("--timeout must be positive")
    if options.archive not in ARCHIVE_MODES:
        raise UsageError(f"--archive must be one of {', '.join(ARCHIVE_MODES)}")
    bound_paths(options)
    return adapter


def bound_paths(options: BatchOptions) -> tuple[benchlib.Bind, ...]:
    """The ``--agent-bind`` paths as read-only binds.

    Raises:
        UsageError: When one does not exist.
    """
    try:
        return agent_binds(options.agent_binds)
    except ValueError as exc:
        raise UsageError(str(exc)) from None


def check_runs_dir(runs_dir: Path) -> None:
    """Refuse a ``--runs`` that exists and is no folder.

    Raises:
        UsageError: When it is a file (or something else that is not a folder).
    """
    if runs_dir.exists() and not runs_dir.is_dir():
        raise UsageError(f"--runs {display_path(runs_dir)}: not a folder")


def run_batch(
    task_dirs: Sequence[Path],
    options: BatchOptions,
    *,
    on_start: Started | None = None,
    on_finish: Finished | None = None,
) -> BatchResult:
    """Run every task ``options.repeat`` times and record each run.

    Args:
        task_dirs: Built task folders.
        options: The batch options.
        on_start: Called once with the planned runs, before the first starts.
        on_finish: Called with each outcome once it is recorded (progress display).

    Raises:
        UsageError: On bad options, or an arm already recorded with another adapter.
        SandboxUnavailableError: When candidates cannot be sealed and ``--unsealed`` was not
            given.
        TaskSpecError: When a task.toml is invalid.
        RecordsError: When the runs database cannot be used.
    """
    adapter = check_options(options)
    arm = options.arm or adapter.kind
    python = resolve_python(options.python)
    tasks = [task_info(d, python) for d in task_dirs]
    invocation = f"{utc_now()}-{os.getpid()}"
    conn = records.open_runs(options.runs_dir, create=True)
    with private_temp() as temp:
        sealed = decide(options.unsealed).sealed  # its probe's folder is swept with temp's
        cache = temp / CACHE_DIR  # in the invocation's folder: swept even after kill -9
        records.reap_stale(conn, options.runs_dir)
        return _run_batch(conn, tasks, options, arm, python, invocation, sealed, cache, temp,
                          on_start, on_finish)  # fmt: skip


def _run_batch(
    conn: sqlite3.Connection,
    tasks: list[TaskInfo],
    options: BatchOptions,
    arm: str,
    python: str,
    invocation: str,
    sealed: bool,
    cache: Path,
    temp: Path,
    on_start: Started | None,
    on_finish: Finished | None,
) -> BatchResult:
    workspaces = Path(tempfile.mkdtemp(prefix="benchsmith-workspaces-", dir=temp)).resolve()
    try:
        plans = reserve(
            conn, tasks, options, arm=arm, python=python, invocation=invocation, sealed=sealed,
            owner=str(temp),
        )  # fmt: skip
        plans = [_with_cache(p, cache) for p in plans]
        if options.reuse_workspaces:
            plans = [replace(p, workspace_cache=workspaces / p.task.dirname) for p in plans]
        result = BatchResult(options.runs_dir, plans)
        if on_start:
            on_start(plans)
        _execute(conn, plans, options.jobs, result, on_finish)
    finally:
        shutil.rmtree(cache, ignore_errors=True)
        remove_cache(workspaces)
        conn.close()
    return result


def reserve(
    conn: sqlite3.Connection,
    tasks: Sequence[TaskInfo],
    options: BatchOptions,
    *,
    arm: str,
    python: str,
    invocation: str,
    sealed: bool = True,
    owner: str = "",
) -> list[RunPlan]:
    """Plan the runs and reserve their rows (repeat-major order: every task once, then again).

    Raises:
        UsageError: When ``arm`` was recorded with a different adapter.
    """
    kind: Kind = "diagnostic" if options.diagnostic else "primary"
    with records.transaction(conn):
        known = records.recorded_adapter(conn, arm)
        if known is not None and known != options.adapter:
            raise UsageError(
                f"arm {arm!r} was recorded with --agent {known!r}; "
                "name this variant with another --arm"
            )
        first = {t.dirname: records.next_repeat(conn, arm, t.dirname, kind) for t in tasks}
        plans = [
            _plan(task, options, arm=arm, kind=kind, repeat=first[task.dirname] + n, python=python)
            for n in range(options.repeat)
            for task in tasks
        ]
        binds, network, pass_env = bound_paths(options), options.network, options.pass_env
        plans = [
            replace(p, sealed=sealed, network=network, pass_env=pass_env, agent_binds=binds)
            for p in plans
        ]
        for plan in plans:
            records.insert_pending(conn, plan, invocation, owner)
    return plans


def _plan(
    task: TaskInfo, options: BatchOptions, *, arm: str, kind: Kind, repeat: int, python: str
) -> RunPlan:
    run_id = records.run_id_for(arm, task.dirname, kind, repeat)
    return RunPlan(
        run_id=run_id,
        arm=arm,
        kind=kind,
        repeat=repeat,
        task=task,
        adapter=options.adapter,
        python=python,
        timeout_seconds=options.timeout or task.timeout_seconds,
        timeout_overridden=options.timeout is not None,
        run_dir=options.runs_dir.resolve() / run_id,
        archive=options.archive,
        judge_timeout=options.judge_timeout,
    )


def _with_cache(plan: RunPlan, cache: Path) -> RunPlan:
    return replace(plan, judge_cache=cache.resolve() / plan.task.dirname)


def _execute(
    conn: sqlite3.Connection,
    plans: list[RunPlan],
    jobs: int,
    result: BatchResult,
    on_finish: Finished | None,
) -> None:
    done: set[str] = set()

    def finish(outcome: RunOutcome) -> None:
        records.store_outcome(conn, outcome)
        done.add(outcome.run_id)
        result.outcomes.append(outcome)
        if on_finish:
            on_finish(outcome)

    try:
        if jobs == 1 or len(plans) == 1:
            for plan in plans:
                finish(execute_run(plan))
        else:
            _execute_pool(plans, jobs, finish)
    except BaseException as exc:
        result.interrupted = [p.run_id for p in plans if p.run_id not in done]
        marked = _mark_interrupted(conn, result.interrupted, exc)
        if isinstance(exc, OSError):  # the runs folder cannot be written: full, read-only
            raise _record_error(exc, result.runs_dir, marked) from exc
        raise


def _record_error(exc: OSError, runs_dir: Path, marked: bool) -> FileSystemError:
    """The user-facing error of a run that could not be recorded in ``runs_dir``."""
    shown = display_path(runs_dir)
    reason = exc.strerror or str(exc) or type(exc).__name__
    hint = {errno.ENOSPC: " (free some space)", errno.EROFS: " (a read-only file system)"}
    fate = (
        "the unfinished runs are marked interrupted"
        if marked
        else "the unfinished runs stay pending until the next run or report marks them interrupted"
    )
    message = f"cannot record runs in {shown}: {reason}{hint.get(exc.errno or 0, '')}; {fate}"
    return FileSystemError(message, [Diagnostic(shown, 1, 1, "BS001", reason)])


def _mark_interrupted(conn: sqlite3.Connection, run_ids: list[str], exc: BaseException) -> bool:
    """Mark the unfinished runs ``interrupted`` with the reason; when even that cannot be
    written (the disk that failed the run is full), the next ``run`` or ``report`` marks
    them, since their invocation is gone by then, and this returns False. The first error is
    the one the caller raises."""
    if isinstance(exc, Interrupted):
        detail = f"interrupted by signal {exc.signum}"
    elif isinstance(exc, KeyboardInterrupt):
        detail = "interrupted by SIGINT"
    elif isinstance(exc, BenchsmithError):
        detail = exc.message
    else:
        detail = f"{type(exc).__name__}: {exc}"
    try:
        records.mark_interrupted(conn, run_ids, detail[:2000])
    except (BenchsmithError, sqlite3.Error):
        return False
    return True


def _execute_pool(plans: list[RunPlan], jobs: int, finish: Finished) -> None:
    context = multiprocessing.get_context("spawn")
    pool = ProcessPoolExecutor(
        max_workers=min(jobs, len(plans)), mp_context=context, initializer=_worker_signals
    )
    try:
        futures: dict[Future[RunOutcome], RunPlan] = {
            pool.submit(execute_run, plan): plan for plan in plans
        }
        for future in as_completed(futures):
            finish(_collect(future, futures[future]))
    except BaseException:
        workers = list(getattr(pool, "_processes", {}).values())
        pool.shutdown(wait=False, cancel_futures=True)
        for worker in workers:  # each tears its run's sandbox down on SIGTERM
            with contextlib.suppress(OSError, ValueError):
                worker.terminate()
        for worker in workers:
            worker.join(WORKER_GRACE)
            if worker.is_alive():
                worker.kill()
        raise
    pool.shutdown(wait=True)


def _worker_signals() -> None:
    """In a worker: SIGTERM and SIGHUP unwind the run (its sandbox and folders go)."""
    for number in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(number, _raise_interrupted)


def _raise_interrupted(signum: int, frame: object) -> None:
    raise Interrupted(signum)


def _collect(future: Future[RunOutcome], plan: RunPlan) -> RunOutcome:
    """The outcome of a worker, or a runner-error outcome when the worker itself died."""
    try:
        return future.result()
    except OSError:  # the worker could not write the runs folder: the batch cannot go on
        raise
    except Exception as exc:  # a dead worker process: record it as this run's failure
        outcome = RunOutcome(
            plan=plan,
            started_at=utc_now(),
            end_reason="runner_error",
            end_detail=f"worker failed: {exc!r}",
        )
        plan.run_dir.mkdir(parents=True, exist_ok=True)
        artifacts.write_record(outcome, plan.run_dir)
        return outcome
