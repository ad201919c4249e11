"""The task data a generated judge.py embeds (``TASK = {...}``), read and rewritten.

The audit judges with exactly what the judge holds: it reads the ``TASK`` literal to run
commands as the judge would, and writes copies of judge.py with one expected value changed
to prove each expectation load-bearing.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

from benchsmith.errors import BenchsmithError


class EmbeddedTaskError(BenchsmithError):
    """Raised when judge.py holds no readable ``TASK = {...}`` literal."""


def _task_node(text: str, shown: str) -> ast.Assign:
    try:
        tree = ast.parse(text, shown)
    except SyntaxError as exc:
        raise EmbeddedTaskError(f"{shown}: does not parse: {exc}") from exc
    for node in tree.body:
        if isinstance(node, ast.Assign) and [ast.unparse(t) for t in node.targets] == ["TASK"]:
            return node
    raise EmbeddedTaskError(f"{shown}: no TASK = {{...}} literal; run benchsmith build")


def read_task_data(judge: Path) -> dict[str, Any]:
    """The ``TASK`` mapping of ``judge`` (a judge.py).

    Raises:
        EmbeddedTaskError: When the file does not parse or holds no ``TASK`` literal.
        OSError: When it cannot be read.
    """
    text = judge.read_text(encoding="utf-8")
    node = _task_node(text, judge.name)
    try:
        value = ast.literal_eval(node.value)
    except ValueError as exc:
        raise EmbeddedTaskError(f"{judge.name}: TASK is not a literal: {exc}") from exc
    if not isinstance(value, dict):
        raise EmbeddedTaskError(f"{judge.name}: TASK is not a mapping")
    return value


def with_task_data(text: str, data: dict[str, Any]) -> str:
    """judge.py ``text`` with its ``TASK`` literal replaced by ``data``.

    Raises:
        EmbeddedTaskError: When the text holds no ``TASK`` literal.
    """
    node = _task_node(text, "judge.py")
    lines = text.splitlines(keepends=True)
    end = node.end_lineno or node.lineno
    return "".join([*lines[: node.lineno - 1], f"TASK = {data!r}\n", *lines[end:]])
