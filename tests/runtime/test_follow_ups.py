"""Levels 1-2 gate on the first stage's commands and outputs (the core workflow); those a
later stage introduces are level-4 follow-up checks, so a solution that stopped after stage
1 can reach level 3 (spec section 6: "follow-up requirements are missing") but never 4."""

from __future__ import annotations

import ast
import shutil
from pathlib import Path
from typing import Any

from benchsmith.judging import contract_problems, detail_problems, schema_problems
from benchsmith.pythons import default_python
from benchsmith.runtime import benchlib
from benchsmith.workspace import create_workspace

ROOT = Path(__file__).resolve().parents[2]
CRM = ROOT / "tasks" / "11-crm-migration"

SEED = """\
import argparse, pathlib
parser = argparse.ArgumentParser()
for flag in ("--out", "--fixture", "--stage"):
    parser.add_argument(flag)
parser.add_argument("--only", action="store_true")
pathlib.Path(parser.parse_args().out, "inputs").mkdir(parents=True, exist_ok=True)
"""

WRITE = (
    "import pathlib, sys\n"
    "out = pathlib.Path('out')\n"
    "out.mkdir(exist_ok=True)\n"
    "(out / (sys.argv[1] + '.json')).write_text('{\"ok\": true}', 'utf-8')\n"
)


def _command(module: str, stage: str) -> dict[str, Any]:
    argv = ["python", "-m", f"solution.{module}", module]
    return {"run": " ".join(argv), "argv": argv, "cwd": ".", "stdin": None, "timeout": 20.0} | {
        "stage": stage
    }


def _output(name: str, stage: str) -> dict[str, Any]:
    return {"path": f"out/{name}.json", "format": "json", "header": [], "stage": stage}


def _staged_judge(tmp_path: Path, modules: dict[str, str]) -> tuple[benchlib.Judge, Path]:
    """A two-stage judge: stage 1 runs ``solution.core`` (output out/core.json), stage 2
    adds ``solution.extra`` (out/extra.json); one level-3 and one level-4 check on the core
    output. ``modules`` maps module names to the workspace's sources."""
    task_dir, workspace = tmp_path / "task", tmp_path / "ws"
    task_dir.mkdir(parents=True)
    (task_dir / "seed.py").write_text(SEED, "utf-8")
    (workspace / "solution").mkdir(parents=True)
    for name, source in modules.items():
        (workspace / "solution" / f"{name}.py").write_text(source, "utf-8")
    task = {
        "stages": ["initial", "more"],
        "editable": ["solution/", "out/"],
        "commands": [_command("core", "initial"), _command("extra", "more")],
        "outputs": [_output("core", "initial"), _output("extra", "more")],
    }
    judge = benchlib.Judge(task, task_dir)

    @judge.check(level=3)
    def core_written(run: benchlib.Run) -> None:
        benchlib.expect_equal(run.json("out/core.json"), {"ok": True}, "out/core.json")

    @judge.check(level=4)
    def core_again(run: benchlib.Run) -> None:
        benchlib.expect(run.files.exists("out/core.json"), "out/core.json")

    return judge, workspace


def _valid(verdict: dict[str, Any]) -> dict[str, Any]:
    body = {k: v for k, v in verdict.items() if k != "stage"}
    assert schema_problems(verdict) + contract_problems(body) + detail_problems(body) == []
    return verdict


def _follow_ups(verdict: dict[str, Any]) -> dict[str, bool]:
    return {c["name"]: c["passed"] for c in verdict["checks"] if c["name"].startswith("follow")}


def test_a_solution_that_stopped_after_stage_1_scores_3(tmp_path: Path) -> None:
    judge, workspace = _staged_judge(tmp_path, {"core": WRITE})
    verdict = _valid(judge.evaluate(workspace, python=default_python()))
    assert verdict["progress_level"] == 3
    assert (verdict["main_checks_passed"], verdict["main_checks_total"]) == (2, 4)
    assert _follow_ups(verdict) == {
        "follow-up: python -m solution.extra extra": False,
        "follow-up: out/extra.json": False,
    }
    [command, output] = [c for c in verdict["checks"] if not c["passed"]]
    assert command["level"] == output["level"] == 4
    assert "solution/extra.py" in command["note"] or "solution.extra" in command["note"]
    assert "out/extra.json" in output["note"]
    assert not any(note.startswith(("level 1", "level 2")) for note in verdict["notes"])


def test_the_stage_1_verdict_has_no_follow_ups(tmp_path: Path) -> None:
    judge, workspace = _staged_judge(tmp_path, {"core": WRITE})
    verdict = _valid(judge.evaluate(workspace, python=default_python(), stage=1))
    assert (verdict["stage"], verdict["progress_level"]) == (1, 4)
    assert (verdict["main_checks_passed"], verdict["main_checks_total"]) == (2, 2)
    assert _follow_ups(verdict) == {}


def test_follow_ups_that_pass_count_as_passed_main_checks(tmp_path: Path) -> None:
    judge, workspace = _staged_judge(tmp_path, {"core": WRITE, "extra": WRITE})
    verdict = _valid(judge.evaluate(workspace, python=default_python()))
    assert verdict["progress_level"] == 4  # no edge check declared
    assert (verdict["main_checks_passed"], verdict["main_checks_total"]) == (4, 4)
    assert set(_follow_ups(verdict).values()) == {True}


def test_a_failing_or_silent_follow_up_command_is_a_failed_check(tmp_path: Path) -> None:
    crash = "raise SystemExit(3)\n"
    judge, workspace = _staged_judge(tmp_path, {"core": WRITE, "extra": crash})
    verdict = _valid(judge.evaluate(workspace, python=default_python()))
    assert verdict["progress_level"] == 3
    assert "exit status 3" in " ".join(verdict["notes"])
    broken = "def broken(:\n"  # does not even compile: still not a level-1 failure
    judge, workspace = _staged_judge(tmp_path / "broken", {"core": WRITE, "extra": broken})
    verdict = _valid(judge.evaluate(workspace, python=default_python()))
    assert verdict["progress_level"] == 3
    assert verdict["main_checks_passed"] == 2


def test_the_core_workflow_still_gates_levels_1_and_2(tmp_path: Path) -> None:
    judge, workspace = _staged_judge(tmp_path, {"extra": WRITE})
    verdict = _valid(judge.evaluate(workspace, python=default_python()))
    assert verdict["progress_level"] == 0
    assert verdict["notes"][0].startswith("level 1: python -m solution.core core")
    judge, workspace = _staged_judge(tmp_path / "fails", {"core": "raise SystemExit(1)\n"})
    verdict = _valid(judge.evaluate(workspace, python=default_python()))
    assert verdict["progress_level"] == 1
    assert verdict["main_checks_total"] == 4 and verdict["checks"] == []


def _embedded_task(task: Path) -> dict[str, Any]:
    """The TASK literal of a generated judge.py."""
    tree = ast.parse((task / "judge.py").read_text("utf-8"))
    node = next(
        n for n in tree.body if isinstance(n, ast.Assign) and ast.unparse(n.targets[0]) == "TASK"
    )
    value: dict[str, Any] = ast.literal_eval(node.value)
    return value


def _load_judge(task: Path) -> benchlib.Judge:
    """The task's judge.py with its authored checks, as a :class:`benchlib.Judge`."""
    namespace: dict[str, Any] = {"__name__": "judge_under_test", "benchlib": benchlib}
    namespace["__file__"] = str(task / "judge.py")
    source = (task / "judge.py").read_text("utf-8").replace("import benchlib\n", "", 1)
    exec(compile(source, str(task / "judge.py"), "exec"), namespace)
    judge: benchlib.Judge = namespace["judge"]
    judge.task_dir = task
    assert judge.task == _embedded_task(task)
    return judge


def _reference_workspace(task: Path, tmp_path: Path) -> Path:
    workspace = create_workspace(task, tmp_path / "ws", stage=None, python=default_python())
    shutil.copytree(task / "reference", workspace, dirs_exist_ok=True)
    return workspace


def test_task_11_done_only_to_stage_1_scores_3(tmp_path: Path) -> None:
    """The reference without the module of the stage-2 command (``crm.import_contacts``):
    the core migration passes its level-3 checks; the follow-ups and the checks of the
    import fail. The full reference passes its follow-ups."""
    judge = _load_judge(CRM)
    workspace = _reference_workspace(CRM, tmp_path)
    (workspace / "crm" / "import_contacts.py").unlink()
    verdict = _valid(judge.evaluate(workspace, python=default_python()))
    assert verdict["progress_level"] == 3
    command = next(c["run"] for c in judge.task["commands"] if c.get("stage") == "import")
    assert _follow_ups(verdict) == {
        f"follow-up: {command}": False,
        "follow-up: output/import_report.json": False,
    }
    reference = _reference_workspace(CRM, tmp_path / "reference")
    full = _valid(judge.evaluate(reference, python=default_python()))
    assert full["progress_level"] == 5
    assert set(_follow_ups(full).values()) == {True}
    assert full["main_checks_total"] == verdict["main_checks_total"]
