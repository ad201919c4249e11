"""A task's set-up: one fixture cache, one base workspace, cheap per-control copies."""

from __future__ import annotations

from pathlib import Path

from benchsmith.checking import candidates
from benchsmith.checking.battery import _setup
from benchsmith.dsl.load import load_task
from benchsmith.judging import judge_timeout
from benchsmith.runtime import benchlib
from tests.check.conftest import EXAMPLES, CopyExample


def test_control_workspaces_share_inputs_and_never_touch_the_base(
    example: CopyExample, tmp_path: Path, python: str
) -> None:
    spec = load_task(example("01-grade-summary"))
    setup = _setup(spec, tmp_path / "battery", python)
    assert sorted(p.name for p in setup.judge.cache.iterdir()) == ["edge", "main"]
    base = benchlib.tree_entries(setup.base)
    workspace = setup.workspace("shadow")
    assert (workspace / "inputs" / "scores.csv").samefile(setup.base / "inputs" / "scores.csv")
    entries = candidates.entry_points(spec)
    candidates.install(workspace, entries, candidates.program("shadow", spec))
    candidates.plant(workspace, entries)
    reference = setup.layered("reference", "reference")
    assert (reference / "solution" / "grades.py").is_file()
    assert benchlib.tree_entries(setup.base) == base
    assert not (setup.base / "solution" / "grades.py").exists()


def test_the_judge_timeout_covers_every_command_twice() -> None:
    spec = load_task(EXAMPLES / "02-pantry-ledger")
    assert judge_timeout(spec) == 2 * 10 + 30
