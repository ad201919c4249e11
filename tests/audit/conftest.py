"""Fixtures of the audit tests: example copies and the audit command run in-process."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from benchsmith.auditing.embedded import read_task_data, with_task_data
from benchsmith.cli import app
from benchsmith.pythons import default_python
from tests.check.conftest import copy_example

CopyExample = Callable[[str], Path]


def invoke(*args: str | Path) -> Any:
    """Run the audit command in-process; returns the click Result."""
    argv = ["audit", *(str(a) for a in args), "--python", default_python()]
    return CliRunner().invoke(app, argv, catch_exceptions=False)


def audit_json(*args: str | Path) -> tuple[int, dict[str, Any]]:
    """Exit code and parsed ``--json`` report of one audit run."""
    result = invoke(*args, "--json")
    return result.exit_code, json.loads(result.stdout)


def edit_task_data(task: Path, edit: Callable[[dict[str, Any]], None]) -> None:
    """Change the task data embedded in ``task``'s judge.py."""
    judge = task / "judge.py"
    data = read_task_data(judge)
    edit(data)
    judge.write_text(with_task_data(judge.read_text("utf-8"), data), "utf-8")


def edit_authored(task: Path, old: str, new: str) -> None:
    """Replace ``old`` by ``new`` in the judge's authored region."""
    judge = task / "judge.py"
    text = judge.read_text("utf-8")
    assert old in text
    judge.write_text(text.replace(old, new), "utf-8")


@pytest.fixture
def example(tmp_path: Path) -> CopyExample:
    """Copy an example task into ``tmp_path/corpus``; returns its folder."""
    return lambda name: copy_example(tmp_path / "corpus", name)
