"""Reading task.toml into a :class:`~benchsmith.dsl.model.TaskSpec`.

Loading is pure: it reads one file and writes nothing. Every problem becomes one located
diagnostic; :func:`load_task` raises them together as a :class:`~benchsmith.errors.TaskSpecError`,
:func:`read_task` returns them for the linter.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from benchsmith.corpus import TASK_FILE, task_source
from benchsmith.diagnostics import Diagnostic, display_path, sort_diagnostics
from benchsmith.dsl import semantics
from benchsmith.dsl.locate import (
    DocPath,
    locate_toml,
    nesting_position,
    position_of,
    toml_error_position,
)
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


MAX_TASK_BYTES = 1024 * 1024
MAX_DEPTH = 32
_LONG_NUMBER = re.compile(r"[0-9_]{4000,}")


def parse_toml(text: str, shown: str) -> tuple[dict[str, Any] | None, list[Diagnostic]]:
    """Parse TOML text; on a syntax error return ``None`` and one located BS101 diagnostic.

    Besides syntax errors, text nested too deeply for the parser and integers too long to
    convert are BS101 errors too, located at the bracket or the number.
    """
    try:
        return tomllib.loads(text), []
    except tomllib.TOMLDecodeError as exc:
        line, col = toml_error_position(exc, text)
        reason = str(exc).split(" (at ")[0]
        return None, [Diagnostic(shown, line, col, "BS101", f"TOML syntax error: {reason}")]
    except RecursionError:
        line, col = nesting_position(text, MAX_DEPTH) or (1, 1)
        message = f"nested more than {MAX_DEPTH} levels deep; task.toml never needs that"
        return None, [Diagnostic(shown, line, col, "BS101", message)]
    except ValueError as exc:  # tomllib converts digits with int(): too many of them
        found = _LONG_NUMBER.search(text)
        offset = found.start() if found else 0
        line, col = text.count("\n", 0, offset) + 1, offset - (text.rfind("\n", 0, offset) + 1) + 1
        return None, [Diagnostic(shown, line, col, "BS101", f"TOML value error: {exc}")]


def too_deep(document: Any, limit: int = MAX_DEPTH) -> DocPath | None:
    """The path of the first value nested deeper than ``limit`` levels, or ``None``."""
    stack: list[tuple[Any, DocPath]] = [(document, ())]
    while stack:
        value, path = stack.pop()
        if len(path) > limit:
            return path
        if isinstance(value, Mapping):
            stack.extend((v, (*path, k)) for k, v in value.items())
        elif isinstance(value, list):
            stack.extend((v, (*path, i)) for i, v in enumerate(value))
    return None


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
    deep = too_deep(document)
    if deep is not None:
        line, col = position_of(dict(positions), deep[: MAX_DEPTH + 1])
        message = f"nested more than {MAX_DEPTH} levels deep; task.toml never needs that"
        return None, [Diagnostic(shown, line, col, "BS102", message)]
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
    shown = display_path(source)
    with open(source, "rb") as stream:
        data = stream.read(MAX_TASK_BYTES + 1)
    if len(data) > MAX_TASK_BYTES:
        message = f"task.toml is larger than {MAX_TASK_BYTES // 1024} KiB; keep data in fixtures"
        return None, [Diagnostic(shown, 1, 1, "BS101", message)]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        col = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        message = f"task.toml is not valid UTF-8 (byte {exc.start})"
        return None, [Diagnostic(shown, line, col, "BS101", message)]
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
