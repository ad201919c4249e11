"""The witness-stage1 control and its lint: the stage boundary of a task with several stages."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from benchsmith import api
from benchsmith.check.results import ControlResult
from tests.check.conftest import CopyExample, invoke

CONTROL = "witness-stage1"


def _result(task: Path, python: str) -> ControlResult:
    report = api.check(task, corpus=task.parent, controls=[CONTROL], python=python, jobs=1)
    return report.tasks[0].result(CONTROL)


def test_the_stopped_reference_scores_5_at_stage_1_and_below_5_final(
    example: CopyExample, python: str
) -> None:
    result = _result(example("02-pantry-ledger"), python)
    assert result.passed, result.reason
    assert result.observed == "5 at stage 1, 1 final"  # the stage-2/3 outputs are missing
    assert result.expected == "5 at stage 1, ≤ 4 final"
    assert result.level == 5


def test_a_witness_that_does_every_stage_fails(example: CopyExample, python: str) -> None:
    task = example("02-pantry-ledger")
    (task / "witnesses" / "stage1.patch").unlink()
    shutil.copytree(task / "reference", task / "witnesses" / "stage1")  # the whole reference
    result = _result(task, python)
    assert not result.passed
    assert result.observed == "5 at stage 1, 5 final"
    assert result.reason == "level 5 on the final verdict, expected below 5"


def test_a_witness_that_breaks_stage_1_fails(example: CopyExample, python: str) -> None:
    task = example("02-pantry-ledger")
    (task / "witnesses" / "stage1.patch").unlink()
    (task / "witnesses" / "stage1" / "solution").mkdir(parents=True)
    (task / "witnesses" / "stage1" / "solution" / "stock.py").write_text(
        "raise SystemExit(1)\n", encoding="utf-8"
    )
    result = _result(task, python)
    assert not result.passed
    assert result.reason.startswith("level ") and "at stage 1, expected 5" in result.reason


def test_a_missing_witness_fails_with_the_fix_and_lint_warns(
    example: CopyExample, python: str
) -> None:
    task = example("02-pantry-ledger")
    (task / "witnesses" / "stage1.patch").unlink()
    result = _result(task, python)
    assert not result.passed and result.observed == "not run"
    assert "witnesses/stage1/ (or witnesses/stage1.patch) is missing" in result.reason
    assert "unified diff against reference/" in result.reason
    lint = invoke("lint", task, "--format", "json", "--strict")
    assert lint.exit_code == 1
    found = [f for f in json.loads(lint.stdout) if f["code"] == "BS902"]
    assert len(found) == 1 and "witnesses/stage1.patch is missing" in found[0]["message"]


def test_a_single_stage_task_is_not_applicable(example: CopyExample, python: str) -> None:
    task = example("01-grade-summary")
    result = _result(task, python)
    assert result.passed and result.observed == "not applicable"
    lint = invoke("lint", task, "--format", "json")
    assert not [f for f in json.loads(lint.stdout) if f["code"] == "BS902"]
