"""tests/verify.py of an export: from the judge's verdict to Harbor's reward files."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from benchsmith.export import harbor_verify as verify
from benchsmith.runtime import benchlib
from tests.conftest import build_file_tree

PASSING = {
    "status": "pass",
    "progress_level": 5,
    "main_checks_passed": 2,
    "main_checks_total": 2,
    "edge_check_passed": True,
    "notes": [],
    "checks": [
        {"name": "totals", "fixture": "main", "level": 3, "passed": True, "note": ""},
        {"name": "rounding", "fixture": "main", "level": 4, "passed": True, "note": ""},
        {"name": "empty", "fixture": "edge", "level": 5, "passed": True, "note": ""},
    ],
}

# A stand-in judge.py: prints its arguments inside a verdict; knows --stage when asked to.
FAKE_JUDGE = """\
import json, sys
if "--help" in sys.argv:
    print("usage: judge.py --workspace WS" + (" [--stage N]" if {stage} else ""))
    sys.exit(0)
verdict = {{"status": "fail", "progress_level": 3, "main_checks_passed": 1,
    "main_checks_total": 2, "edge_check_passed": False, "notes": [" ".join(sys.argv[1:])],
    "checks": []}}
if "--stage" in sys.argv:
    verdict["stage"] = int(sys.argv[sys.argv.index("--stage") + 1])
print(json.dumps(verdict))
"""
COMMAND = ["python3", "judge.py", "--workspace", "{workspace}"]


def test_rewards_are_numbers_only_with_level_over_five() -> None:
    numbers = verify.rewards(PASSING)
    assert numbers["reward"] == 1.0 and numbers["progress_level"] == 5
    assert numbers["strict_pass"] == 1 and numbers["edge_check_passed"] == 1
    assert numbers["check:totals"] == 1 and numbers["check:edge:empty"] == 1
    assert all(isinstance(v, int | float) for v in numbers.values())  # Harbor refuses others
    assert verify.rewards({**PASSING, "status": "fail", "progress_level": 3})["reward"] == 0.6


def test_a_judge_without_a_verdict_scores_zero() -> None:
    verdict = benchlib.refused_verdict("the judge printed nothing (exit 1)").to_dict()
    assert verdict["status"] == "error" and "nothing" in verdict["notes"][0]
    assert verify.rewards(verdict)["reward"] == 0.0
    assert verify.rewards(verdict)["judge_error"] == 1


@pytest.mark.parametrize(
    ("stage", "stages", "per_stage", "judged"),
    [(1, 3, True, "stage 1"), (1, 3, False, "final"), (3, 3, True, "final"), (1, 1, True, "final")],
)
def test_only_an_earlier_step_with_a_per_stage_judge_is_judged_by_stage(
    stage: int, stages: int, per_stage: bool, judged: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(verify, "runtime", lambda: benchlib)  # the export ships it beside
    argv, judged_as = verify.judge_argv("py", COMMAND, Path("/app"), None, stage, stages, per_stage)
    assert ("final" if judged_as is None else f"stage {judged_as}") == judged
    assert ("--stage" in argv) == (judged != "final")
    assert argv[:4] == ["py", "judge.py", "--workspace", "/app"]


def install(tmp_path: Path, stage_option: bool) -> Path:
    """An exported tests/ folder with a stand-in judge."""
    tests = tmp_path / "tests"
    build_file_tree(
        tests,
        {
            "judge/task/judge.py": FAKE_JUDGE.format(stage=stage_option),
            "judge/task/scenario.json": json.dumps({"judge_command": COMMAND}),
        },
    )
    shutil.copy(verify.__file__, tests / "verify.py")
    shutil.copy(benchlib.__file__, tests / "judge" / "benchlib.py")
    return tests


def run_verify(tests: Path, out: Path, stage: int, stages: int) -> dict[str, object]:
    env = {**os.environ, "BENCHSMITH_STAGE": str(stage), "BENCHSMITH_STAGES": str(stages)}
    subprocess.run(
        [sys.executable, str(tests / "verify.py"), "--workspace", str(tests.parent),
         "--out", str(out), "--fixture-cache", str(tests.parent / "no-cache")],
        env=env, check=True, capture_output=True, stdin=subprocess.DEVNULL,
    )  # fmt: skip
    assert (out / "reward.txt").read_text(encoding="utf-8") == "0.6\n"
    assert json.loads((out / "reward.json").read_text(encoding="utf-8"))["progress_level"] == 3
    verdict: dict[str, object] = json.loads((out / "verdict.json").read_text(encoding="utf-8"))
    return verdict


def test_an_earlier_step_uses_judge_stage_once_the_judge_has_it(tmp_path: Path) -> None:
    verdict = run_verify(install(tmp_path, stage_option=True), tmp_path / "out", 1, 2)
    assert verdict["judged_as"] == "stage 1" and "stage_note" not in verdict
    assert "--stage 1" in str(verdict["notes"])


def test_until_then_the_final_judge_stands_in_and_says_so(tmp_path: Path) -> None:
    verdict = run_verify(install(tmp_path, stage_option=False), tmp_path / "out", 1, 2)
    assert verdict["judged_as"] == "final" and "per-stage" in str(verdict["stage_note"])
    assert "--stage" not in str(verdict["notes"])


def test_the_last_step_is_the_final_verdict(tmp_path: Path) -> None:
    verdict = run_verify(install(tmp_path, stage_option=True), tmp_path / "out", 2, 2)
    assert verdict["judged_as"] == "final" and "stage_note" not in verdict
    assert "--fixture-cache" in str(verdict["notes"])  # a private, writable cache copy
