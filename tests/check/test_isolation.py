"""The isolation control: private names, contents and values never reach the workspace."""

from __future__ import annotations

import gzip
import shutil
from pathlib import Path

from benchsmith.checking.isolation import isolation_problems
from benchsmith.dsl.load import load_task
from benchsmith.linting.task_rules import private_values
from benchsmith.runtime import benchlib
from benchsmith.workspaces import create_workspace
from tests.check.conftest import CopyExample


def _workspace(task: Path, tmp_path: Path, python: str) -> Path:
    ws = create_workspace(task, tmp_path / "ws", stage=None, python=python)
    benchlib.make_writable(ws)
    return ws


def test_the_runner_workspace_is_clean(example: CopyExample, tmp_path: Path, python: str) -> None:
    for name in ("01-grade-summary", "02-pantry-ledger"):
        task = example(name)
        ws = create_workspace(task, tmp_path / name, stage=None, python=python)
        assert isolation_problems(load_task(task), ws) == []


def test_private_names_are_found(example: CopyExample, tmp_path: Path, python: str) -> None:
    task = example("01-grade-summary")
    ws = _workspace(task, tmp_path, python)
    (ws / "solution" / "judge.py").write_text("print('hi')\n", "utf-8")
    (ws / "witnesses").mkdir()
    (ws / "mutants").mkdir()
    assert isolation_problems(load_task(task), ws) == [
        "solution/judge.py: a private file name",
        "witnesses/: a private folder at the workspace root",
        "mutants/: a private folder at the workspace root",
    ]


def test_authored_mutants_never_reach_the_workspace(
    example: CopyExample, tmp_path: Path, python: str
) -> None:
    task = example("01-grade-summary")
    patch = task / "mutants" / "no-sort.patch"
    witness = (task / "witnesses" / "level4.patch").read_text("utf-8")
    patch.write_text("Unscored students are dropped.\n" + witness, "utf-8")
    ws = create_workspace(task, tmp_path / "ws", stage=None, python=python)
    assert not (ws / "mutants").exists()
    assert "mutants" in benchlib.PRIVATE_NAMES
    assert isolation_problems(load_task(task), ws) == []
    shutil.copy(patch, ws / "inputs" / "notes.txt")
    assert isolation_problems(load_task(task), ws) == [
        "inputs/notes.txt: same content as the private mutants/no-sort.patch"
    ]


def test_a_copied_reference_file_is_found_by_content(
    example: CopyExample, tmp_path: Path, python: str
) -> None:
    task = example("01-grade-summary")
    ws = _workspace(task, tmp_path, python)
    shutil.copy(task / "reference" / "solution" / "grades.py", ws / "inputs" / "helper.txt")
    shutil.copy(task / "reference" / "solution" / "__init__.py", ws / "inputs" / "empty.txt")
    problems = isolation_problems(load_task(task), ws)
    assert problems == [
        "inputs/helper.txt: same content as the private reference/solution/grades.py"
    ]


def test_private_values_in_authored_files_are_found_even_compressed(
    example: CopyExample, tmp_path: Path, python: str
) -> None:
    task = example("01-grade-summary")
    toml = task / "task.toml"
    text = toml.read_text("utf-8")
    toml.write_text(
        text.replace('pressure = "N"\n', 'pressure = "N"\nprivate = ["SECRET-TOKEN-42"]\n')
    )
    visible = task / "visible" / "inputs"
    visible.mkdir(parents=True)
    (visible / "notes.txt").write_text("the token is SECRET-TOKEN-42\n", "utf-8")
    (visible / "archive.log.gz").write_bytes(gzip.compress(b"x" * 5_000_000 + b"SECRET-TOKEN-42"))
    ws = _workspace(task, tmp_path, python)
    # Seeded data may carry a truth the agent has to discover: not a leak.
    (ws / "inputs" / "seeded.log").write_text("release SECRET-TOKEN-42 deployed\n", "utf-8")
    problems = isolation_problems(load_task(task), ws)
    assert problems == [
        "inputs/archive.log.gz: contains the private value 'SECRET-TOKEN-42'",
        "inputs/notes.txt: contains the private value 'SECRET-TOKEN-42'",
    ]


def test_expected_values_copied_from_input_records_are_not_leaks(example: CopyExample) -> None:
    spec = load_task(example("02-pantry-ledger"))
    assert private_values(spec) == []  # its only distinctive value, 2025-04-03, is an input date
