"""lint on a task with candidate servers: clean as built, located errors for its steps."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from benchsmith.cli import app
from tests.server_task import build_server_task


@pytest.fixture(scope="module")
def task(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_server_task(tmp_path_factory.mktemp("lint-servers") / "corpus")


def _lint(task: Path) -> tuple[int, str]:
    result = CliRunner().invoke(app, ["lint", str(task)], catch_exceptions=False)
    return result.exit_code, result.output


def test_the_server_task_lints_clean(task: Path) -> None:
    assert _lint(task) == (0, "")


def _edited(task: Path, tmp_path: Path, old: str, new: str) -> tuple[Path, int]:
    """A copy of ``task`` whose task.toml has ``old`` replaced; it and the line of ``new``."""
    import shutil

    copy = tmp_path / "corpus" / task.name
    shutil.copytree(task.parent, copy.parent)
    toml = copy / "task.toml"
    text = toml.read_text(encoding="utf-8")
    assert old in text
    text = text.replace(old, new, 1)
    toml.write_text(text, encoding="utf-8")
    line = next(n for n, t in enumerate(text.splitlines(), 1) if new.splitlines()[0] in t)
    return copy, line


def test_a_missing_body_file_is_located(task: Path, tmp_path: Path) -> None:
    copy, line = _edited(
        task, tmp_path, 'body_file = "inputs/item.json"', 'body_file = "in/x.json"'
    )
    code, output = _lint(copy)
    assert code == 1
    col = 1 + next(t for t in (copy / "task.toml").read_text().splitlines()[line - 1 :]).index(
        "body_file"
    )
    expected = f"task.toml:{line}:{col}: BS104 http body file in/x.json is not part of the main"
    assert expected in output, output


def test_a_stop_of_an_unknown_server_is_located(task: Path, tmp_path: Path) -> None:
    copy, line = _edited(task, tmp_path, 'stop = "api"', 'stop = "web"')
    code, output = _lint(copy)
    assert code == 1
    expected = (
        f"task.toml:{line}:1: BS102 server 'web' is started by no earlier serve step; "
        "stop needs it running"
    )
    assert expected in output, output
