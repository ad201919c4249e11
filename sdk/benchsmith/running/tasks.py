"""What the runner needs to know about a task, as plain picklable data.

:func:`task_info` reads the task's scenario.json (and the services its judge.py declares)
through the runner core's :func:`benchsmith.runtime.run.load_scenario`, exactly as the
corpus's lean ``run.py`` does: stages, messages, ``inject`` folders, compactions, timeout and
editable paths never come from task.toml. It runs once, in the parent process; workers
receive a :class:`TaskInfo` and never parse task files themselves.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from benchsmith.errors import UsageError
from benchsmith.judging import read_judge_command
from benchsmith.running.data import TaskInfo
from benchsmith.runtime.run import ScenarioError, load_scenario, stage_judging

DIGESTED = ("scenario.json", "judge.py", "seed.py", "TASK.md")


def task_info(task_dir: Path, python: str | None = None) -> TaskInfo:
    """Load what the runner needs from a built task folder.

    With ``python`` (the interpreter judges run with), it also asks the judge whether it
    judges per stage (``judge.py --help`` lists ``--stage``); without, runs judge only the
    final state.

    Raises:
        JudgeCommandError: When scenario.json gives no usable judge_command.
        UsageError: When scenario.json is missing or malformed, or seed.py, judge.py or
            TASK.md is missing (the task was not built).
    """
    read_judge_command(task_dir)  # the judge contract's own check and message first
    try:
        scenario = load_scenario(task_dir)
    except ScenarioError as exc:
        raise UsageError(f"{exc}; run benchsmith build") from exc
    judging = "unsupported" if python is None else stage_judging(scenario, python)
    return TaskInfo(scenario, task_digest(scenario.task_dir), judging)


def task_digest(task_dir: Path) -> str:
    """SHA-256 over the files that define what an agent sees and how it is judged."""
    digest = hashlib.sha256()
    for name in DIGESTED:
        path = task_dir / name
        digest.update(name.encode() + b"\0")
        digest.update(path.read_bytes() if path.is_file() else b"")
    return digest.hexdigest()
