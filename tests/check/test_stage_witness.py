"""The stage ladder: the witness-stageK controls, their lint, and the judge's laddered verdict."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from benchsmith import api, patches
from benchsmith.checking import controls
from benchsmith.checking.results import ControlResult
from benchsmith.judging import JudgeCall, read_judge_command, run_judge
from benchsmith.runtime import benchlib
from tests.check.conftest import CopyExample, invoke

STAGED = "02-pantry-ledger"  # three stages: initial, returns, reorder


def _result(task: Path, python: str, stage: int = 1) -> ControlResult:
    name = f"witness-stage{stage}"
    report = api.check(task, corpus=task.parent, controls=[name], python=python, jobs=1)
    return report.tasks[0].result(name)


def _stopped_after(task: Path, stage: int) -> Path:
    """A copy of the reference with witnesses/stageN.patch applied."""

    workspace = task.parent / f"stopped-after-{stage}"
    shutil.copytree(task / "reference", workspace)
    patches.apply_patch(workspace, task / "witnesses" / f"stage{stage}.patch")
    return workspace


def _verdict(
    task: Path, workspace: Path, python: str, stage: int | None = None, *, ladder: bool = True
) -> dict:
    command = read_judge_command(task)
    call = JudgeCall(task, command, python, timeout=300, stage=stage, ladder=ladder)
    verdict = run_judge(call, workspace)
    assert not verdict.problems, verdict.problems  # the one contract accepts it
    assert verdict.raw is not None
    return verdict.raw


def test_every_stage_witness_scores_5_at_its_stage_and_3_final(
    example: CopyExample, python: str
) -> None:
    task = example(STAGED)
    for stage in (1, 2):
        result = _result(task, python, stage)
        assert result.passed, result.reason
        assert result.observed == f"5 at stage {stage}, 3 final"
        assert result.expected == f"5 at stage {stage}, 3 final"
        assert result.level == 5
    last = _result(task, python, 3)
    assert last.passed and last.observed == "not applicable"
    assert last.notes == ("stage 3 is the last",)


def test_the_laddered_verdict_reports_stage_1_passes_and_the_missing_rest(
    example: CopyExample, python: str
) -> None:
    task = example(STAGED)
    verdict = _verdict(task, _stopped_after(task, 1), python)
    assert verdict["progress_level"] == 3 and verdict["status"] == "fail"
    assert verdict["notes"][0] == benchlib.LADDER_NOTE
    main = [c for c in verdict["checks"] if c["fixture"] == "main"]
    assert len(main) == verdict["main_checks_total"]
    after_stage1 = [c for c in main if c["note"] == "after stage 1"]
    not_reached = [c for c in main if c["note"] == benchlib.NOT_REACHED]
    assert after_stage1 and all(c["passed"] for c in after_stage1)
    assert not_reached and not any(c["passed"] for c in not_reached)
    assert len(after_stage1) + len(not_reached) == len(main)
    assert verdict["main_checks_passed"] == len(after_stage1)


def test_the_audit_judges_without_the_ladder(example: CopyExample, python: str) -> None:
    task = example(STAGED)
    verdict = _verdict(task, _stopped_after(task, 1), python, ladder=False)
    assert verdict["progress_level"] == 1  # the stage-2/3 outputs are missing
    assert benchlib.LADDER_NOTE not in verdict["notes"]


def test_no_ladder_when_stage_1_is_not_complete(example: CopyExample, python: str) -> None:
    task = example(STAGED)
    workspace = _stopped_after(task, 1)
    stock = workspace / "solution" / "stock.py"  # stage 1 wrong: every quantity doubled
    stock.write_text(
        stock.read_text(encoding="utf-8").replace('int(row["qty"])', '2 * int(row["qty"])'),
        encoding="utf-8",
    )
    assert _verdict(task, workspace, python, stage=1)["progress_level"] < 5
    verdict = _verdict(task, workspace, python)
    assert verdict["progress_level"] < 3
    assert benchlib.LADDER_NOTE not in verdict["notes"]


def test_no_ladder_when_a_stage_1_command_fails_on_the_final_data(
    example: CopyExample, python: str
) -> None:
    """Stage 1 complete on its own data, but its command crashes once a later stage's
    input is there: stage 1 is not kept, so no ladder (nor a second judging)."""
    task = example(STAGED)
    workspace = _stopped_after(task, 1)
    stock = workspace / "solution" / "stock.py"
    stock.write_text(
        stock.read_text(encoding="utf-8").replace(
            "    args.output.mkdir(",
            '    returns = args.inputs / "returns.csv"  # the edge has one return, main more\n'
            "    if returns.is_file() and len(returns.read_text().splitlines()) > 2:\n"
            '        raise SystemExit("so many returns are not supported")\n'
            "    args.output.mkdir(",
            1,
        ),
        encoding="utf-8",
    )
    assert _verdict(task, workspace, python, stage=1)["progress_level"] == 5
    verdict = _verdict(task, workspace, python)
    assert verdict["progress_level"] == 1
    assert benchlib.LADDER_NOTE not in verdict["notes"]


def test_a_judged_stage_and_an_empty_workspace_are_not_laddered(
    example: CopyExample, python: str, tmp_path: Path
) -> None:
    task = example(STAGED)
    at_stage1 = _verdict(task, _stopped_after(task, 1), python, stage=1)
    assert at_stage1["progress_level"] == 5 and at_stage1["stage"] == 1
    empty = tmp_path / "empty"
    empty.mkdir()
    verdict = _verdict(task, empty, python)
    assert verdict["progress_level"] == 0
    assert benchlib.LADDER_NOTE not in verdict["notes"]


def test_a_witness_that_does_every_stage_fails(example: CopyExample, python: str) -> None:
    task = example(STAGED)
    (task / "witnesses" / "stage1.patch").unlink()
    shutil.copytree(task / "reference", task / "witnesses" / "stage1")  # the whole reference
    result = _result(task, python)
    assert not result.passed
    assert result.observed == "5 at stage 1, 5 final"
    assert result.reason == "level 5 on the final verdict, expected 3"


def test_a_witness_that_breaks_stage_1_fails(example: CopyExample, python: str) -> None:
    task = example(STAGED)
    (task / "witnesses" / "stage1.patch").unlink()
    (task / "witnesses" / "stage1" / "solution").mkdir(parents=True)
    (task / "witnesses" / "stage1" / "solution" / "stock.py").write_text(
        "raise SystemExit(1)\n", encoding="utf-8"
    )
    result = _result(task, python)
    assert not result.passed
    assert "at stage 1, expected 5" in result.reason
    assert "on the final verdict, expected 3" in result.reason  # no ladder without stage 1


def test_a_missing_witness_fails_with_the_fix_and_lint_warns(
    example: CopyExample, python: str
) -> None:
    task = example(STAGED)
    (task / "witnesses" / "stage2.patch").unlink()
    result = _result(task, python, 2)
    assert not result.passed and result.observed == "not run"
    assert "witnesses/stage2/ (or witnesses/stage2.patch) is missing" in result.reason
    assert "leaves out what stages 3+ add" in result.reason
    lint = invoke("lint", task, "--format", "json", "--strict")
    assert lint.exit_code == 1
    found = [f for f in json.loads(lint.stdout) if f["code"] == "BS902"]
    assert len(found) == 1 and "witnesses/stage2.patch is missing" in found[0]["message"]
    assert "exactly 3 final" in found[0]["message"]


def test_a_single_stage_task_is_not_applicable(example: CopyExample, python: str) -> None:
    task = example("01-grade-summary")
    for stage in range(1, controls.MAX_STAGES):
        result = _result(task, python, stage)
        assert result.passed and result.observed == "not applicable"
        assert result.notes == ("a single-stage task",)
    lint = invoke("lint", task, "--format", "json")
    assert not [f for f in json.loads(lint.stdout) if f["code"] == "BS902"]
