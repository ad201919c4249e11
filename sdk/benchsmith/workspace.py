"""``benchsmith workspace``: the workspace exactly as the runner gives it to an agent.

``check`` and the runner use the same code: :func:`layout_for` and the runtime's
``make_workspace`` (seed.py output, visible/, stage files, TASK.md; inputs read-only;
nothing private).
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from benchsmith.diagnostics import display_path
from benchsmith.dsl.load import load_task
from benchsmith.dsl.model import TaskSpec
from benchsmith.errors import UsageError
from benchsmith.pythons import resolve_python
from benchsmith.runtime import benchlib


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
    """
    spec = load_task(task_dir)
    require_built(spec)
    if stage is not None and not 1 <= stage <= len(spec.stages):
        raise UsageError(f"--stage must be between 1 and {len(spec.stages)}")
    if dest.exists():
        raise UsageError(f"{display_path(dest)} already exists")
    dest.parent.mkdir(parents=True, exist_ok=True)
    # Absolute: seed.py runs in the task folder, where a relative path means something else.
    with tempfile.TemporaryDirectory(prefix=".benchsmith-ws-", dir=dest.parent.absolute()) as tmp:
        built = Path(tmp) / "ws"
        benchlib.make_workspace(layout_for(spec), built, stage=stage, python=resolve_python(python))
        built.rename(dest)
    return dest
