"""Per-stage verdicts: expectations carry the stage that introduces them, and
``judge.py --stage N`` judges the state after stage N with the checks that apply by then."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from benchsmith.dsl.load import read_task

ROOT = Path(__file__).resolve().parents[2]
PANTRY = ROOT / "examples" / "02-pantry-ledger"
CALENDAR = ROOT / "tasks" / "02-calendar-merge"


def _copy(tmp_path: Path, task: Path) -> Path:
    dest = tmp_path / task.name
    shutil.copytree(task, dest)
    return dest


def test_expectations_default_to_the_stage_of_their_output_or_anchor_file() -> None:
    spec, found = read_task(PANTRY)
    assert not found and spec is not None
    stages = {e.name: e.stage for a in spec.anchors for e in a.expect}
    assert stages["honey#1"] == "reorder"  # reads output/reorder.csv (stage reorder)
    assert stages["unknown-return#3"] == "returns"  # its records arrive with returns.csv
    assert stages["at-threshold#2"] == "initial"


def test_task_02_has_a_check_of_its_first_stage_only() -> None:
    spec, found = read_task(CALENDAR)
    assert not found and spec is not None
    [check] = [e for a in spec.anchors for e in a.expect if e.until is not None]
    assert (check.stage, check.until) == ("initial", "initial")
    late = [a for a in spec.anchors if a.name.startswith("late-")]
    assert all(e.stage == "late-changes" for a in late for e in a.expect if e is not check)


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ('stage = "nowhere"', "unknown stage 'nowhere'"),
        ('until = "nowhere"', "unknown stage 'nowhere'"),
        ('stage = "reorder"\nuntil = "returns"', "comes before the check's stage"),
    ],
)
def test_a_bad_stage_is_a_located_error(tmp_path: Path, line: str, message: str) -> None:
    task = _copy(tmp_path, PANTRY)
    toml = task / "task.toml"
    text = toml.read_text(encoding="utf-8")
    marker = (
        '    { file = "output/stock.csv", where = { item = "Salt" }, equals = { on_hand = "5" } },'
    )
    inline = line.replace("\n", ", ")
    toml.write_text(text.replace(marker, marker[:-3] + f", {inline} }},"), encoding="utf-8")
    spec, found = read_task(task)
    assert spec is None
    [diagnostic] = [d for d in found if message in d.message]
    lines = toml.read_text(encoding="utf-8").splitlines()
    want = next(i for i, text in enumerate(lines, 1) if 'on_hand = "5"' in text)
    assert (diagnostic.code, diagnostic.line) == ("BS102", want) and diagnostic.col > 1


def _judge(task: Path, workspace: Path, *stage: str) -> dict:
    argv = [sys.executable, "judge.py", "--workspace", str(workspace), "--unsealed", *stage]
    done = subprocess.run(argv, cwd=task, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def _workspace(tmp_path: Path, stage: int) -> Path:
    ws = tmp_path / f"ws{stage}"
    subprocess.run(
        [sys.executable, "-m", "benchsmith", "workspace", str(PANTRY), str(ws),
         "--stage", str(stage)],
        check=True, capture_output=True,
    )  # fmt: skip
    shutil.copytree(PANTRY / "reference", ws, dirs_exist_ok=True)
    return ws


def test_the_judge_judges_each_stage_with_its_own_checks(tmp_path: Path) -> None:
    first = _workspace(tmp_path, 1)
    early = _judge(PANTRY, first, "--stage", "1")
    assert early["stage"] == 1 and early["progress_level"] == 5
    names = {c["name"] for c in early["checks"]}
    assert "reorder_list" not in names and "honey#1" not in names
    by_name = _judge(PANTRY, first, "--stage", "initial")
    assert by_name["main_checks_total"] == early["main_checks_total"]
    final = _judge(PANTRY, _workspace(tmp_path, 3))
    assert "stage" not in final and final["main_checks_total"] > early["main_checks_total"]


def test_an_unknown_stage_is_a_usage_error(tmp_path: Path) -> None:
    argv = [sys.executable, "judge.py", "--workspace", str(tmp_path), "--stage", "9"]
    done = subprocess.run(argv, cwd=PANTRY, capture_output=True, text=True, check=False)
    assert done.returncode == 2 and "--stage" in done.stderr and not done.stdout


LATE_EDGE = """
@judge.edge(stage="returns", until="returns")
def returns_only_edge(run: benchlib.Run) -> None:
    benchlib.expect(False, "an edge check of stage returns only")


"""


def test_an_edge_check_applies_from_its_stage_until_its_last(tmp_path: Path) -> None:
    shutil.copy2(ROOT / "examples" / "benchlib.py", tmp_path / "benchlib.py")
    task = _copy(tmp_path, PANTRY)
    judge = task / "judge.py"
    text = judge.read_text(encoding="utf-8")
    judge.write_text(text.replace("# endregion authored", LATE_EDGE + "# endregion authored"))
    first = _workspace(tmp_path, 1)
    early = _judge(task, first, "--stage", "1")
    assert early["progress_level"] == 5
    assert "returns_only_edge" not in {c["name"] for c in early["checks"]}
    middle = _judge(task, _workspace(tmp_path, 2), "--stage", "returns")
    assert middle["progress_level"] == 4
    [failing] = [c for c in middle["checks"] if c["name"] == "returns_only_edge"]
    assert not failing["passed"] and "stage returns only" in failing["note"]
    final = _judge(task, _workspace(tmp_path, 3))
    assert final["progress_level"] == 5  # until = "returns": not part of the final verdict
