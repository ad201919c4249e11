"""One task, one identity: ``.``, a relative and an absolute path behave the same everywhere."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from pathlib import Path

import pytest

from benchsmith.corpus import resolve_task, task_folder

Invoke = Callable[..., object]


def tree(root: Path) -> dict[str, str]:
    """Relative path -> SHA-256 of every file under ``root``."""
    return {
        p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }


def spellings(task_dir: Path) -> list[tuple[Path, str]]:
    """(working directory, task argument) pairs that all name ``task_dir``."""
    return [
        (task_dir, "."),
        (task_dir, "task.toml"),
        (task_dir.parent, task_dir.name),
        (task_dir.parent.parent, f"{task_dir.parent.name}/{task_dir.name}/../{task_dir.name}"),
        (Path("/"), str(task_dir)),
    ]


@pytest.mark.parametrize("index", range(5))
def test_task_folder_resolves_every_spelling(
    example_copy: Callable[[str], Path], monkeypatch: pytest.MonkeyPatch, index: int
) -> None:
    task_dir = example_copy("01-grade-summary")
    cwd, argument = spellings(task_dir)[index]
    monkeypatch.chdir(cwd)
    assert task_folder(argument) == task_dir.resolve()
    assert resolve_task(argument) == task_dir.resolve()


@pytest.mark.parametrize("index", range(5))
def test_build_writes_corpus_files_beside_the_task_never_into_it(
    example_copy: Callable[[str], Path], cli: Invoke, monkeypatch: pytest.MonkeyPatch, index: int
) -> None:
    task_dir = example_copy("01-grade-summary")
    (task_dir.parent / "tasks.json").unlink()
    before = tree(task_dir)
    cwd, argument = spellings(task_dir)[index]
    monkeypatch.chdir(cwd)
    result = cli("build", argument)
    assert result.exit_code == 0, result.output  # type: ignore[attr-defined]
    assert tree(task_dir) == before
    index_file = json.loads((task_dir.parent / "tasks.json").read_text(encoding="utf-8"))
    assert [t["path"] for t in index_file["tasks"]] == ["01-grade-summary"]


@pytest.mark.parametrize("index", range(5))
def test_lint_sees_the_folder_name_whatever_the_spelling(
    example_copy: Callable[[str], Path], cli: Invoke, monkeypatch: pytest.MonkeyPatch, index: int
) -> None:
    task_dir = example_copy("01-grade-summary")
    assert cli("build", str(task_dir)).exit_code == 0  # type: ignore[attr-defined]
    cwd, argument = spellings(task_dir)[index]
    monkeypatch.chdir(cwd)
    result = cli("lint", argument)
    assert "BS105" not in result.output  # type: ignore[attr-defined]
    assert result.exit_code == 0, result.output  # type: ignore[attr-defined]


def test_the_lock_verdict_does_not_depend_on_the_spelling(
    example_copy: Callable[[str], Path], cli: Invoke, monkeypatch: pytest.MonkeyPatch
) -> None:
    task_dir = example_copy("01-grade-summary")
    verdicts = []
    for cwd, argument in spellings(task_dir):
        monkeypatch.chdir(cwd)
        assert cli("build", argument).exit_code == 0  # type: ignore[attr-defined]
        verdicts.append(cli("build", "--check", argument).exit_code)  # type: ignore[attr-defined]
        verdicts.append(cli("build", "--check", str(task_dir)).exit_code)  # type: ignore[attr-defined]
    assert verdicts == [0] * len(verdicts)


# Every command that takes tasks, with the extra arguments it needs after the task.
TASK_COMMANDS = {
    "build": [],
    "lock": [],
    "check": ["--control", "empty", "--unsealed"],
    "audit": [],
    "run": ["--agent", "nop", "--unsealed"],
    "workspace": ["DEST"],
}


@pytest.mark.parametrize("command", sorted(TASK_COMMANDS))
def test_a_path_that_is_no_task_is_a_usage_error_for_every_command(
    cli: Invoke, tmp_path: Path, command: str
) -> None:
    extra = [str(tmp_path / "dest") if a == "DEST" else a for a in TASK_COMMANDS[command]]
    result = cli(command, str(tmp_path / "no-such-task"), *extra)
    assert result.exit_code == 2, result.output  # type: ignore[attr-defined]
    assert "not a task folder" in result.output  # type: ignore[attr-defined]
    assert "Traceback" not in result.output  # type: ignore[attr-defined]


@pytest.mark.parametrize("command", sorted(TASK_COMMANDS))
def test_a_corpus_root_named_as_a_task_says_how_to_name_its_tasks(
    example_copy: Callable[[str], Path],
    cli: Invoke,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    command: str,
) -> None:
    task_dir = example_copy("01-grade-summary")
    before = tree(task_dir.parent)
    monkeypatch.chdir(task_dir)
    extra = [str(tmp_path / "dest") if a == "DEST" else a for a in TASK_COMMANDS[command]]
    result = cli(command, "..", *extra)
    assert result.exit_code == 2, result.output  # type: ignore[attr-defined]
    assert "..: a corpus root, not a task" in result.output  # type: ignore[attr-defined]
    assert "e.g. ../01-grade-summary" in result.output  # type: ignore[attr-defined]
    assert "--all --corpus .." in result.output  # type: ignore[attr-defined]
    assert tree(task_dir.parent) == before


def test_lock_and_check_name_the_task_the_same_whatever_the_spelling(
    example_copy: Callable[[str], Path], cli: Invoke, monkeypatch: pytest.MonkeyPatch
) -> None:
    task_dir = example_copy("01-grade-summary")
    before = tree(task_dir)
    reports = []
    for cwd, argument in spellings(task_dir):
        monkeypatch.chdir(cwd)
        locked = cli("lock", argument)
        assert locked.exit_code == 0, locked.output  # type: ignore[attr-defined]
        assert locked.output.startswith("unchanged ")  # type: ignore[attr-defined]
        checked = cli("check", argument, "--control", "empty", "--unsealed", "--json")
        assert checked.exit_code == 0, checked.output  # type: ignore[attr-defined]
        [task] = json.loads(checked.stdout)["tasks"]  # type: ignore[attr-defined]
        reports.append((task["id"], task["slug"], Path(cwd, task["task"]).resolve()))
    assert reports == [(1, "grade-summary", task_dir.resolve())] * len(reports)
    assert tree(task_dir) == before
