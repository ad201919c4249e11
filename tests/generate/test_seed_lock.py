"""build --check and lint find missing or outdated seed hashes without running seed.py."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from benchsmith.building import build
from benchsmith.errors import StaleError
from benchsmith.linting import lint_paths
from tests.conftest import MINIMAL_TASK, lock

VOCAB = {"name": "words", "values": ["alpha", "beta"]}
WITH_VOCAB = MINIMAL_TASK.replace(
    "columns.value = { int = [1, 9] }",
    'columns.value = { int = [1, 9] }\ncolumns.word = { vocab = "words" }',
)


def seed_findings(task: Path) -> tuple[list[str], list[str]]:
    """BS505 findings of build --check and of lint, as 'file:line'."""
    try:
        build([task], check=True)
        checked = []
    except StaleError as exc:
        checked = [f"{Path(d.path).name}:{d.line}" for d in exc.diagnostics if d.code == "BS505"]
    linted = [f"{Path(d.path).name}:{d.line}" for d in lint_paths([task]) if d.code == "BS505"]
    return checked, linted


@pytest.fixture
def locked_task(make_task: Callable[..., Path]) -> Path:
    task = make_task(WITH_VOCAB, files={"vocab/words.json": json.dumps(VOCAB)})
    build([task])
    return task


def test_a_task_never_locked_is_reported(locked_task: Path) -> None:
    checked, linted = seed_findings(locked_task)
    assert checked == linted == ["benchsmith.lock:18"]
    lock(locked_task)
    assert seed_findings(locked_task) == ([], [])


@pytest.mark.parametrize(
    "change",
    ["rows", "anchor", "fixtures", "vocab"],
)
def test_a_change_of_the_seed_inputs_is_reported(locked_task: Path, change: str) -> None:
    lock(locked_task)
    toml = locked_task / "task.toml"
    if change == "rows":
        toml.write_text(WITH_VOCAB.replace("rows = 5", "rows = 6"), encoding="utf-8")
    elif change == "anchor":
        anchor = '\n[[anchors]]\nname = "x"\nfile = "inputs/data.csv"\n'
        anchor += 'record = { key = "K9", value = 3, word = "alpha" }\n'
        toml.write_text(
            WITH_VOCAB.split("[edge]")[0] + anchor + "\n[edge]" + WITH_VOCAB.split("[edge]")[1],
            encoding="utf-8",
        )
    elif change == "fixtures":
        (locked_task / "fixtures.py").write_text("def unused(ctx):\n    pass\n", encoding="utf-8")
    else:
        changed = {**VOCAB, "values": ["alpha", "gamma"]}
        (locked_task / "vocab" / "words.json").write_text(json.dumps(changed), encoding="utf-8")
    build([locked_task])
    checked, linted = seed_findings(locked_task)
    assert checked == linted == ["benchsmith.lock:18"]
    lock(locked_task)
    assert seed_findings(locked_task) == ([], [])


def test_text_that_does_not_reach_the_seed_needs_no_lock(locked_task: Path) -> None:
    lock(locked_task)
    toml = locked_task / "task.toml"
    text = WITH_VOCAB.replace("Sum the values", "Add up the values")
    toml.write_text(text.replace("Tiny Task", "Tiny Renamed Task"), encoding="utf-8")
    (locked_task / "reference").mkdir()
    (locked_task / "reference" / "main.py").write_text("x = 1\n", encoding="utf-8")
    build([locked_task])
    assert seed_findings(locked_task) == ([], [])
