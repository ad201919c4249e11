"""Compatibility: every task of this repository loads and builds unchanged under this DSL."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchsmith.building import build
from benchsmith.corpus import corpus_root_tasks
from benchsmith.dsl.load import read_task
from tests.conftest import REPO

TASKS = [*corpus_root_tasks(REPO / "tasks"), *corpus_root_tasks(REPO / "examples")]


@pytest.mark.parametrize("task", TASKS, ids=[p.name for p in TASKS])
def test_every_committed_task_loads_without_findings(task: Path) -> None:
    spec, found = read_task(task)
    assert spec is not None and found == []


@pytest.mark.parametrize("root", ["tasks", "examples"])
def test_every_committed_task_builds_unchanged(root: Path) -> None:
    build(corpus_root_tasks(REPO / root), check=True)  # raises StaleError naming any change


def test_a_single_expectation_table_says_what_to_write_instead(tmp_path: Path) -> None:
    from tests.conftest import MINIMAL_TASK

    anchor = (
        '[[anchors]]\nname = "pin"\nfile = "inputs/data.csv"\n'
        'record = { key = "K900", value = 3 }\n'
        'expect = { file = "output/total.json", path = "total", equals = 3 }\n'
    )
    task = tmp_path / "07-tiny-task"
    task.mkdir()
    text = MINIMAL_TASK.replace("[edge]", anchor + "\n[edge]")
    (task / "task.toml").write_text(text, encoding="utf-8")
    _, found = read_task(task)
    [finding] = found
    expect_line = next(
        i for i, line in enumerate(text.splitlines(), 1) if line.startswith("expect")
    )
    assert finding.code == "BS102" and finding.line == expect_line
    assert "write expect = [{ ... }], an array of tables" in finding.message
