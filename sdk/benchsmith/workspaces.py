"""``benchsmith workspace``: the workspace exactly as the runner gives it to an agent.

``check`` and the runner use the same code: :func:`layout_for` and the runtime's
``make_workspace`` (seed.py output, visible/, stage files, TASK.md; inputs read-only;
nothing private).
"""

from __future__ import annotations

import contextlib
import errno
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

from benchsmith.diagnostics import display_path
from benchsmith.dsl.load import load_task
from benchsmith.dsl.model import TaskSpec
from benchsmith.errors import BenchsmithError, FileSystemError, UsageError
from benchsmith.pythons import resolve_python
from benchsmith.runtime import benchlib
from benchsmith.seeds import SeedError


class ServiceError(BenchsmithError):
    """Raised when a task's fixture service does not start (names it, its command, its exit
    status and the last lines of its stderr)."""


def layout_for(spec: TaskSpec) -> benchlib.Layout:
    """The runtime layout of a task."""
    return benchlib.Layout(
        task_dir=spec.task_dir.resolve(),
        stages=tuple(s.id for s in spec.stages),
        editable=spec.editable,
        edge_include_visible=spec.edge.include_visible if spec.edge else True,
    )


def require_built(spec: TaskSpec) -> None:
    """Raise UsageError unless the task's seed.py and TASK.md were generated."""
    missing = [n for n in ("seed.py", "TASK.md") if not (spec.task_dir / n).is_file()]
    if missing:
        raise UsageError(
            f"{display_path(spec.task_dir)}: {', '.join(missing)} missing; run benchsmith build"
        )


def create_workspace(
    task_dir: Path, dest: Path, *, stage: int | None = 1, python: str | None = None
) -> Path:
    """Materialize a task's workspace at ``dest`` (which must not exist).

    Args:
        task_dir: The task folder.
        dest: The folder to create.
        stage: Stage to materialize (1-based); ``None`` for the final workspace.
        python: Interpreter for seed.py (default: Python 3.12 when present).

    Returns:
        ``dest``.

    Raises:
        UsageError: When ``dest`` exists, the stage is out of range or the task is unbuilt.
        FileSystemError: When ``dest`` cannot be written (nothing is left behind).
        SeedError: When seed.py fails.
    """
    spec = load_task(task_dir)
    require_built(spec)
    if stage is not None and not 1 <= stage <= len(spec.stages):
        raise UsageError(f"--stage must be between 1 and {len(spec.stages)}")
    if dest.exists() or dest.is_symlink():
        raise UsageError(f"{display_path(dest)} already exists")
    interpreter = resolve_python(python)
    try:
        dest.parent.mkdir(parents=True, exist_ok=True)
        # Absolute: seed.py runs in the task folder, where a relative path means another.
        parent = dest.parent.absolute()
        with tempfile.TemporaryDirectory(prefix=".benchsmith-ws-", dir=parent) as tmp:
            built = Path(tmp) / "ws"
            benchlib.make_workspace(layout_for(spec), built, stage=stage, python=interpreter)
            built.rename(dest)
    except OSError as exc:
        raise FileSystemError.from_os_error(exc) from exc
    except RuntimeError as exc:  # the runtime's report of a failing seed.py
        raise _seed_failure(task_dir, dest, str(exc)) from exc
    return dest


def _seed_failure(task_dir: Path, dest: Path, reason: str) -> BenchsmithError:
    """A failing seed.py: the environment's fault (exit 3) when the disk is full or
    read-only, else the task's (exit 1)."""
    for code in (errno.ENOSPC, errno.EROFS, errno.EDQUOT, errno.EACCES):
        if f"[Errno {code}]" in reason:
            return FileSystemError.from_os_error(OSError(code, os.strerror(code)), dest.parent)
    return SeedError(f"{display_path(task_dir)}: {reason}")


@contextlib.contextmanager
def serve_workspace(
    task_dir: Path, workspace: Path, *, python: str | None = None
) -> Iterator[list[benchlib.ServiceHandle]]:
    """Start the task's services in ``workspace`` and write their URL files exactly as the
    runner does for an agent (then inputs read-only again); stop them when the context ends.

    Raises:
        ServiceError: When a service does not start (the ones started are stopped).
    """
    from benchsmith.runtime.run import judge_services, serve

    spec = load_task(task_dir)
    interpreter = resolve_python(python)
    services = judge_services(spec.task_dir / "judge.py")
    with contextlib.ExitStack() as stack:
        handles = []
        for service in services:
            try:
                handle = serve(service.declared(), workspace.absolute(), interpreter)
                handles.append(stack.enter_context(handle))
            except RuntimeError as exc:
                raise ServiceError(str(exc)) from None
        if services:
            benchlib.protect_inputs(layout_for(spec), workspace)
        yield handles
