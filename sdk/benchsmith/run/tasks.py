"""What the runner needs to know about a task, as plain picklable data.

:func:`task_info` reads task.toml (through :func:`benchsmith.dsl.load.load_task`) and the judge
command of scenario.json once, in the parent process; workers receive a :class:`TaskInfo`
and never parse task files themselves.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from benchsmith.diagnostics import display_path
from benchsmith.dsl.load import load_task
from benchsmith.errors import UsageError
from benchsmith.judging import read_judge_command
from benchsmith.run.data import ServiceInfo, StageInfo, TaskInfo
from benchsmith.workspace import layout_for, require_built

DIGESTED = ("scenario.json", "judge.py", "seed.py", "TASK.md")


def task_info(task_dir: Path) -> TaskInfo:
    """Load what the runner needs from a built task folder.

    Raises:
        TaskNotFoundError: When ``task_dir`` holds no task.toml.
        TaskSpecError: When task.toml is invalid.
        UsageError: When the task was not built (seed.py, TASK.md, judge.py missing).
        JudgeCommandError: When scenario.json gives no usable judge_command.
    """
    spec = load_task(task_dir)
    require_built(spec)
    if not (spec.task_dir / "judge.py").is_file():
        raise UsageError(f"{display_path(spec.task_dir)}: judge.py missing; run benchsmith build")
    return TaskInfo(
        dirname=spec.dirname,
        id=spec.id,
        slug=spec.slug,
        pressure=spec.pressure,
        timeout_seconds=float(spec.timeout_seconds),
        stages=tuple(StageInfo(s.id, s.message, s.compact_after) for s in spec.stages),
        services=tuple(ServiceInfo(s.name, s.run, s.url_file) for s in spec.services),
        judge_command=read_judge_command(spec.task_dir),
        digest=task_digest(spec.task_dir),
        layout=layout_for(spec),
    )


def task_digest(task_dir: Path) -> str:
    """SHA-256 over the files that define what an agent sees and how it is judged."""
    digest = hashlib.sha256()
    for name in DIGESTED:
        path = task_dir / name
        digest.update(name.encode() + b"\0")
        digest.update(path.read_bytes() if path.is_file() else b"")
    return digest.hexdigest()
