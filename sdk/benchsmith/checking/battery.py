"""Running the battery: every control of every task, tasks in a process pool.

Per task, the set-up runs once -- the final workspace (exactly as the runner makes it) and the
fixture cache every judge run reuses -- then the controls run on a small thread pool, slow
ones (those waiting for a timeout) first, so a task takes little more than its longest
control. Tasks run in parallel in a process pool (``jobs``). Progress is reported through a
callback; the library itself never prints.
"""

from __future__ import annotations

import multiprocessing
import os
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchsmith.checking.controls import CONTROLS, Control, TaskSetup
from benchsmith.checking.results import CheckReport, ControlResult, TaskReport
from benchsmith.diagnostics import display_path
from benchsmith.dsl.load import load_task
from benchsmith.dsl.model import TaskSpec
from benchsmith.errors import BenchsmithError, UsageError
from benchsmith.judging import JudgeCall, judge_timeout, read_judge_command
from benchsmith.lockfile import read_lock
from benchsmith.runtime import benchlib
from benchsmith.sealing import decide
from benchsmith.workspaces import layout_for, require_built

CONTROL_THREADS = 3


class CheckSetupError(BenchsmithError):
    """Raised when a task cannot be checked at all (no judge.py)."""


@dataclass(frozen=True, slots=True)
class CheckOptions:
    """How to run the battery.

    Attributes:
        python: Interpreter for seed.py, judges and candidates.
        jobs: Tasks checked in parallel (processes).
        controls: Names of the controls to run (empty: all of them).
        threads: Controls of one task run in parallel (threads).
        unsealed: Run candidates without the sandbox (``--unsealed``); the controls that
            attack the host (escape, poison, forge) are then skipped.
    """

    python: str
    jobs: int = 1
    controls: tuple[str, ...] = ()
    threads: int = CONTROL_THREADS
    unsealed: bool = False


@dataclass(frozen=True, slots=True)
class ProgressEvent:
    """One finished control, for progress bars.

    Attributes:
        task: The task folder, as shown.
        control: The control's name.
        passed: Whether it met its expectation.
    """

    task: str
    control: str
    passed: bool


ProgressCallback = Callable[[ProgressEvent], None]


def selected_controls(names: Sequence[str]) -> list[Control]:
    """The controls named (all of them when ``names`` is empty), in battery order.

    Raises:
        UsageError: When a name is not a control.
    """
    unknown = sorted(set(names) - CONTROLS.keys())
    if unknown:
        raise UsageError(
            f"unknown control(s) {', '.join(unknown)}; choose from {', '.join(CONTROLS)}"
        )
    return [c for c in CONTROLS.values() if not names or c.name in names]


def prepare(task_dirs: Sequence[Path]) -> list[TaskSpec]:
    """Load every task and make sure it can be checked, before any control runs.

    Raises:
        TaskSpecError: When a task.toml is invalid.
        UsageError: When a task was never built.
        CheckSetupError: When judge.py is missing.
        JudgeCommandError: When scenario.json gives no usable judge_command.
    """
    specs = []
    for task_dir in task_dirs:
        spec = load_task(task_dir)
        require_built(spec)
        if not (spec.task_dir / "judge.py").is_file():
            raise CheckSetupError(
                f"{display_path(spec.task_dir)}: judge.py missing; run benchsmith build"
            )
        read_judge_command(spec.task_dir)
        specs.append(spec)
    return specs


def check_tasks(
    task_dirs: Sequence[Path], options: CheckOptions, progress: ProgressCallback | None = None
) -> CheckReport:
    """Run the battery over ``task_dirs``.

    Args:
        task_dirs: Task folders.
        options: Interpreter, parallelism and the controls to run.
        progress: Called once per finished control (from a helper thread when ``jobs > 1``).

    Returns:
        The report; ``report.ok`` says whether every expectation was met.

    Raises:
        BenchsmithError: When a task cannot be checked at all (see :func:`prepare`), or a control
            name is unknown.
        SandboxUnavailableError: When candidates cannot be sealed and ``options.unsealed`` is
            false.
    """
    selected_controls(options.controls)
    sealing = decide(options.unsealed)
    specs = prepare(task_dirs)
    jobs = max(1, min(options.jobs, len(specs)))
    started = time.monotonic()
    paths = [s.task_dir for s in specs]
    if jobs == 1:
        reports = [check_task(p, options, progress) for p in paths]
    else:
        reports = _in_pool(paths, options, jobs, progress)
    seconds = time.monotonic() - started
    return CheckReport(
        tuple(reports), options.python, jobs, seconds, sealing.sealed, sealing.reason
    )


def check_task(
    task_dir: Path, options: CheckOptions, progress: ProgressCallback | None = None
) -> TaskReport:
    """Run the selected controls of one task; set-up failures become the report's error."""
    started = time.monotonic()
    spec = load_task(task_dir)
    shown = display_path(task_dir)
    tmp = Path(tempfile.mkdtemp(prefix="benchsmith-check-"))
    try:
        setup = _setup(spec, tmp, options.python, options.unsealed)
        results = _run_controls(
            setup, selected_controls(options.controls), options.threads, shown, progress
        )
        error = ""
    except (OSError, RuntimeError, ValueError, BenchsmithError) as exc:  # seed.py failed, ...
        results, error = [], f"set-up failed: {type(exc).__name__}: {exc}"
    finally:
        benchlib.remove_path(tmp)
    return TaskReport(shown, spec.id, spec.slug, tuple(results), time.monotonic() - started, error)


def _setup(spec: TaskSpec, tmp: Path, python: str, unsealed: bool = False) -> TaskSetup:
    """The final workspace and the pre-built fixture cache of one task."""
    task_dir = spec.task_dir.resolve()
    layout = layout_for(spec)
    cache, base = tmp / "fixtures", tmp / "base" / "ws"
    with ThreadPoolExecutor(max_workers=3, thread_name_prefix="setup") as pool:
        jobs = [
            pool.submit(benchlib.materialize, layout, cache / f, fixture=f, python=python)
            for f in ("main", "edge")
        ]
        jobs.append(pool.submit(benchlib.make_workspace, layout, base, stage=None, python=python))
        for job in jobs:
            job.result()
    command = read_judge_command(task_dir)
    call = JudgeCall(task_dir, command, python, judge_timeout(spec), cache, unsealed=unsealed)
    seeds = {k: v for k, v in read_lock(task_dir)["seed"].items() if isinstance(v, str)}
    return TaskSetup(spec, call, tmp, base, python, seeds, layout)


def _run_controls(
    setup: TaskSetup,
    controls: list[Control],
    threads: int,
    shown: str,
    progress: ProgressCallback | None,
) -> list[ControlResult]:
    """Run ``controls`` on a thread pool, slow ones first; results in battery order."""
    order = sorted(controls, key=lambda c: not c.slow)
    with ThreadPoolExecutor(max_workers=max(1, threads), thread_name_prefix="control") as pool:
        futures = {c.name: pool.submit(_run_one, c, setup, shown, progress) for c in order}
        return [futures[c.name].result() for c in controls]


def _run_one(
    control: Control, setup: TaskSetup, shown: str, progress: ProgressCallback | None
) -> ControlResult:
    started = time.monotonic()
    try:
        result = control.function(setup)
    except Exception as exc:  # a control must yield a result whatever broke inside it
        reason = f"internal error in the control: {type(exc).__name__}: {exc}"
        result = ControlResult(
            control.name, "-", "error", False, reason=reason, seconds=time.monotonic() - started
        )
    if progress is not None:
        progress(ProgressEvent(shown, control.name, result.passed))
    return result


# --- the process pool ---------------------------------------------------------------------------

_QUEUE: Any = None


def _init_worker(queue: Any) -> None:
    global _QUEUE
    _QUEUE = queue


def _post(event: ProgressEvent) -> None:
    if _QUEUE is not None:
        _QUEUE.put((event.task, event.control, event.passed))


def _pool_task(task_dir: Path, options: CheckOptions) -> TaskReport:
    return check_task(task_dir, options, _post)


def _in_pool(
    paths: list[Path], options: CheckOptions, jobs: int, progress: ProgressCallback | None
) -> list[TaskReport]:
    """Check tasks in ``jobs`` worker processes, relaying their progress events."""
    context = _pool_context()
    queue = context.Queue()
    relay = threading.Thread(target=_relay, args=(queue, progress), daemon=True)
    try:
        with ProcessPoolExecutor(
            jobs, mp_context=context, initializer=_init_worker, initargs=(queue,)
        ) as pool:
            futures: list[Future[TaskReport]] = [pool.submit(_pool_task, p, options) for p in paths]
            relay.start()  # only now: a fork context has created every worker by the first submit
            return [_collect(f, p) for f, p in zip(futures, paths, strict=True)]
    finally:
        queue.put(None)
        if relay.is_alive():
            relay.join()
        queue.close()


def _collect(future: Future[TaskReport], task_dir: Path) -> TaskReport:
    """The report a worker returned, or one carrying the reason the worker died."""
    try:
        return future.result()
    except BrokenProcessPool as exc:
        spec = load_task(task_dir)
        error = f"the worker process checking this task died: {exc}"
        return TaskReport(display_path(task_dir), spec.id, spec.slug, (), 0.0, error)


def _pool_context() -> multiprocessing.context.BaseContext:
    """``fork`` when it is safe (POSIX, one thread): workers then inherit every imported module.

    Importing the task loader costs seconds (jsonschema's format checkers), so a spawned
    worker would spend longer importing than checking a small task. With other threads
    alive, forking could copy a held lock, so ``spawn`` is used instead.
    """
    methods = multiprocessing.get_all_start_methods()
    if "fork" in methods and threading.active_count() == 1:
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context("spawn")


def _relay(queue: Any, progress: ProgressCallback | None) -> None:
    while (item := queue.get()) is not None:
        if progress is not None:
            progress(ProgressEvent(*item))


def default_jobs(task_count: int) -> int:
    """One process per CPU, at most one per task."""
    return max(1, min(os.cpu_count() or 1, task_count))
