"""``benchsmith new``: scaffold a task folder from the cookiecutter template, then build it.

The task is rendered into a temporary folder beside its destination, built there (so a
broken scaffold never lands), then moved into place in one rename and built again to refresh
the corpus index. Nothing is left behind on failure.
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
from pathlib import Path

from cookiecutter.main import cookiecutter

from benchsmith import resources
from benchsmith.build import build
from benchsmith.corpus import corpus_root_tasks
from benchsmith.diagnostics import display_path
from benchsmith.dsl.load import read_task
from benchsmith.dsl.model import PRESSURE
from benchsmith.dsl.toml_text import toml_string
from benchsmith.errors import UsageError
from benchsmith.lock import lock_tasks
from benchsmith.pythons import resolve_python

SLUG_PATTERN = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")
MAX_ID = 99


def _stages_toml(pressure: str) -> str:
    profile = PRESSURE[pressure]
    if profile.min_stages == 1:
        return ""
    blocks = ['\n[[stages]]\nid = "initial"\n']
    for number in range(2, profile.min_stages + 1):
        message = toml_string(f"TODO: the follow-up request of stage {number}, verbatim.")
        blocks.append(f'\n[[stages]]\nid = "stage-{number}"\nmessage = {message}\n')
    return "".join(blocks)


def _check_free(parent: Path, task_id: int, dirname: str) -> None:
    if (parent / dirname).exists():
        raise UsageError(f"{display_path(parent / dirname)} already exists")
    for task_dir in corpus_root_tasks(parent):
        spec, _ = read_task(task_dir)
        if spec is not None and spec.id == task_id:
            raise UsageError(f"task id {task_id} is already used by {display_path(task_dir)}")


def new_task(
    slug: str,
    task_id: int,
    pressure: str,
    parent: Path,
    title: str = "",
    *,
    python: str | None = None,
) -> Path:
    """Scaffold ``parent/NN-slug``, build it and record its seed hashes (``lock``).

    Args:
        slug: Lower-case words joined by hyphens.
        task_id: Task number (1-99).
        pressure: ``N``, ``L``, ``M`` or ``H``.
        parent: The corpus root receiving the task.
        title: Human title (default: the slug in title case).
        python: Interpreter for seed.py (default: Python 3.12 when present).

    Returns:
        The new task folder.

    Raises:
        UsageError: When the folder or the id already exists, or an argument is invalid.
        TaskSpecError: When the arguments make an invalid task.toml (nothing is written).
    """
    if not SLUG_PATTERN.match(slug):
        raise UsageError(f"slug {slug!r} must be lower-case words joined by hyphens")
    if not 1 <= task_id <= MAX_ID:
        raise UsageError(f"task id must be between 1 and {MAX_ID}, not {task_id}")
    if pressure not in PRESSURE:
        raise UsageError(f"pressure must be one of {', '.join(PRESSURE)}, not {pressure!r}")
    dirname = f"{task_id:02d}-{slug}"
    parent.mkdir(parents=True, exist_ok=True)
    _check_free(parent, task_id, dirname)
    schema = resources.data_dir("schemas") / "task.schema.json"
    context = {
        "id": str(task_id),
        "slug": slug,
        "title": title or slug.replace("-", " ").title(),
        "pressure": pressure,
        "dirname": dirname,
        "schema_path": Path(os.path.relpath(schema, parent / dirname)).as_posix(),
        "title_toml": toml_string(title or slug.replace("-", " ").title()),
        "stages_toml": _stages_toml(pressure),
    }
    with tempfile.TemporaryDirectory(prefix=".benchsmith-new-", dir=parent) as tmp:
        template = str(resources.data_dir("templates") / "scaffold")
        cookiecutter(template, no_input=True, extra_context=context, output_dir=tmp)
        build([Path(tmp) / dirname])
        lock_tasks([Path(tmp) / dirname], python=resolve_python(python))
        for name in ("benchlib.py", "tasks.json"):
            (Path(tmp) / name).unlink()
        (Path(tmp) / dirname).rename(parent / dirname)
    try:
        build([parent / dirname])
    except BaseException:
        shutil.rmtree(parent / dirname, ignore_errors=True)
        raise
    return parent / dirname
