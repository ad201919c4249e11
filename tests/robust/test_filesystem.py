"""Read-only and full file systems, and new's folder rules: exit codes, nothing half-written."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import EXAMPLES
from tests.robust.system import fill, leftovers, read_only, small_tmpfs, tree

Invoke = Callable[..., Any]


def corpus_at(root: Path, changed: bool = True) -> Path:
    """A copy of the first example task and its corpus files under ``root/examples``."""
    corpus = root / "examples"
    corpus.mkdir(parents=True)
    for shared in ("benchlib.py", "tasks.json"):
        shutil.copy2(EXAMPLES / shared, corpus / shared)
    task = Path(shutil.copytree(EXAMPLES / "01-grade-summary", corpus / "01-grade-summary"))
    if changed:  # so that a build has files to write
        toml = task / "task.toml"
        toml.write_text(toml.read_text(encoding="utf-8").replace("Grade", "Graded"), "utf-8")
    return task


def assert_failed_cleanly(result: Any, code: str = "BS001") -> None:
    assert result.exit_code == 3, result.output
    assert f" {code} " in result.output and "Traceback" not in result.output


@pytest.mark.parametrize("command", ["build", "new", "workspace", "vocab"])
def test_a_read_only_file_system(cli: Invoke, tmp_path: Path, command: str) -> None:
    task = corpus_at(tmp_path)
    corpus = task.parent
    before = tree(corpus)
    with read_only(corpus):
        if command == "build":
            result = cli("build", task)
        elif command == "new":
            result = cli("new", "fresh-task", "--id", "9", "--pressure", "N", "--dir", corpus)
        elif command == "workspace":
            result = cli("workspace", task, corpus / "ws")
        else:
            result = cli("vocab", "words", "--provider", "word", "--count", "3", "--task", task)
        assert_failed_cleanly(result)
        assert "read-only" in result.output
    assert tree(corpus) == before


@pytest.mark.parametrize("command", ["build", "new"])
def test_a_full_disk_leaves_no_staging_file(cli: Invoke, tmp_path: Path, command: str) -> None:
    with small_tmpfs(tmp_path / "disk") as disk:
        task = corpus_at(disk)
        corpus = task.parent
        before = tree(corpus)
        fill(disk)
        if command == "build":
            result = cli("build", task)
        else:
            result = cli("new", "fresh-task", "--id", "9", "--pressure", "N", "--dir", corpus)
        assert_failed_cleanly(result)
        assert "No space left on device" in result.output
        assert tree(corpus) == before
        assert leftovers(disk) == []
        (disk / "filler").unlink()
        assert cli("build", task).exit_code == 0  # the next command works


def test_new_needs_an_existing_folder_unless_parents(cli: Invoke, tmp_path: Path) -> None:
    deep = tmp_path / "no" / "such" / "corpus"
    missing = cli("new", "fresh-task", "--id", "9", "--pressure", "N", "--dir", deep)
    assert missing.exit_code == 2 and "--parents" in missing.output
    assert not (tmp_path / "no").exists()
    made = cli("new", "fresh-task", "--id", "9", "--pressure", "N", "--dir", deep, "--parents")
    assert made.exit_code == 0, made.output
    assert (deep / "09-fresh-task" / "task.toml").is_file()


def test_new_refuses_a_file_as_its_folder(cli: Invoke, tmp_path: Path) -> None:
    file = tmp_path / "corpus"
    file.write_text("not a folder\n", encoding="utf-8")
    result = cli("new", "fresh-task", "--id", "9", "--pressure", "N", "--dir", file)
    assert result.exit_code == 2 and "is not a folder" in result.output
    assert "Traceback" not in result.output


def test_new_and_build_remove_what_killed_runs_left(cli: Invoke, tmp_path: Path) -> None:
    task = corpus_at(tmp_path)
    corpus = task.parent
    stale = corpus / ".benchsmith-new-k9x1"  # a new killed half-way through rendering
    (stale / "09-fresh-task").mkdir(parents=True)
    (stale / "09-fresh-task" / "task.toml").write_text("id = 9\n", encoding="utf-8")
    (task / ".seed.py.benchsmith-new-123-abcd").write_text("half", encoding="utf-8")
    (corpus / ".tasks.json.benchsmith-new").write_text("old name", encoding="utf-8")
    (task / "judge.py").rename(task / ".judge.py.benchsmith-old")  # an old build's backup
    result = cli("new", "fresh-task", "--id", "9", "--pressure", "N", "--dir", corpus)
    assert result.exit_code == 0, result.output
    assert leftovers(corpus) == [  # new cleans the corpus root it writes; build the task
        "01-grade-summary/.judge.py.benchsmith-old",
        "01-grade-summary/.seed.py.benchsmith-new-123-abcd",
    ]
    assert cli("build", task).exit_code == 0
    assert leftovers(corpus) == []
    assert (task / "judge.py").is_file()  # the old backup was restored, not deleted
    assert cli("build", "--check", task, corpus / "09-fresh-task").exit_code == 0
