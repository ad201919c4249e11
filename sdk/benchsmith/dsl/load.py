"""Reading task.toml into a :class:`~benchsmith.dsl.model.TaskSpec`.

Loading is pure: it reads one file and writes nothing. Every problem becomes one located
diagnostic; :func:`load_task` raises them together as a :class:`~benchsmith.errors.TaskSpecError`,
:func:`read_task` returns them for the linter.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from benchsmith.corpus import TASK_FILE, task_source
from benchsmith.diagnostics import Diagnostic, display_path, sort_diagnostics
from benchsmith.dsl import semantics
from benchsmith.dsl.locate import DocPath, locate_toml, toml_error_position
from benchsmith.dsl.model import TaskSpec
from benchsmith.dsl.validate import validate
from benchsmith.errors import TaskSpecError

__all__ = ["TASK_FILE", "load_task", "read_task", "read_task_text", "task_file"]


def task_file(path: Path) -> Path:
    """Return the task.toml for ``path`` (a task folder or the file itself), resolved.

    Raises:
        TaskNotFoundError: When no task.toml exists there.
    """
    return task_source(path)


def parse_toml(text: str, shown: str) -> tuple[dict[str, Any] | None, list[Diagnostic]]:
    """Parse TOML text; on a syntax error return ``None`` and one located BS101 diagnostic."""
    try:
        return tomllib.loads(text), []
    except tomllib.TOMLDecodeError as exc:
        line, col = toml_error_position(exc, text)
        reason = str(exc).split(" (at ")[0]
        return None, [Diagnostic(shown, line, col, "BS101", f"TOML syntax error: {reason}")]


def read_task_text(text: str, source: Path) -> tuple[TaskSpec | None, list[Diagnostic]]:
    """Validate task.toml ``text`` (read from ``source``) and build the model.

    Returns:
        The model (``None`` when any error was found) and every diagnostic.
    """
    shown = display_path(source)
    document, found = parse_toml(text, shown)
    if document is None:
        return None, found
    positions: Mapping[DocPath, tuple[int, int]] = locate_toml(text)
    found = validate(document, "task", path=shown, positions=positions, code="BS102")
    if found:
        return None, sort_diagnostics(found)
    spec, found = semantics.build(document, source, positions)
    return spec, sort_diagnostics(found)


def read_task(path: Path) -> tuple[TaskSpec | None, list[Diagnostic]]:
    """Read and validate a task without raising on task.toml mistakes (for the linter).

    Raises:
        TaskNotFoundError: When ``path`` holds no task.toml.
    """
    source = task_file(path)
    try:
        text = source.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        message = f"task.toml is not valid UTF-8 (byte {exc.start})"
        return None, [Diagnostic(display_path(source), 1, 1, "BS101", message)]
    return read_task_text(text, source)


def load_task(path: Path | str) -> TaskSpec:
    """Load a task folder (or its task.toml) into a frozen :class:`TaskSpec`.

    Raises:
        TaskNotFoundError: When ``path`` holds no task.toml.
        TaskSpecError: When task.toml has syntax, schema or consistency errors; the error
            carries one located diagnostic per problem.
    """
    spec, found = read_task(Path(path))
    if spec is None:
        shown = display_path(task_file(Path(path)))
        raise TaskSpecError(f"{shown}: {len(found)} problem(s)", found)
    return spec
