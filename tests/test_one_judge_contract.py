"""check, run and lint hold a judge to one contract: the same refusals, in the same words."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import Result
from typer.testing import CliRunner

from benchsmith.cli import app
from benchsmith.pythons import default_python
from benchsmith.running.records import DB_NAME

MAIN_BLOCK = 'if __name__ == "__main__":\n    sys.exit(judge.main())\n'
DEBUG_LINE = "debug: judging"
NOT_JSON = f"the judge's stdout holds text that is not JSON: '{DEBUG_LINE}"
NO_WORKSPACE = (
    "judge_command does not pass {workspace} (the candidate workspace): ['python', 'judge.py']"
)


def invoke(*args: object) -> Result:
    """Run the benchsmith CLI in-process."""
    return CliRunner().invoke(app, [str(a) for a in args], catch_exceptions=False)


@pytest.fixture
def chatty_task(example_copy: Callable[[str], Path]) -> Path:
    """An example task whose judge prints a debug line before its (sound) verdict."""
    task = example_copy("01-grade-summary")
    judge = task / "judge.py"
    text = judge.read_text(encoding="utf-8")
    assert MAIN_BLOCK in text
    chatty = f'if __name__ == "__main__":\n    print({DEBUG_LINE!r})\n    sys.exit(judge.main())\n'
    judge.write_text(text.replace(MAIN_BLOCK, chatty), encoding="utf-8")
    return task


@pytest.fixture
def blind_task(example_copy: Callable[[str], Path]) -> Path:
    """An example task whose scenario.json never passes the workspace to the judge."""
    task = example_copy("01-grade-summary")
    scenario_path = task / "scenario.json"
    scenario = json.loads(scenario_path.read_text(encoding="utf-8"))
    scenario["judge_command"] = ["python", "judge.py"]
    scenario_path.write_text(json.dumps(scenario, indent=2) + "\n", encoding="utf-8")
    return task


def test_check_refuses_a_judge_that_prints_a_debug_line(chatty_task: Path) -> None:
    result = invoke("check", chatty_task, "--control", "reference", "--python", default_python())
    assert result.exit_code == 1
    assert f"all 3 runs: {NOT_JSON}" in result.output


def test_run_records_a_debug_line_before_the_verdict_as_an_error(
    chatty_task: Path, tmp_path: Path
) -> None:
    runs = tmp_path / "runs"
    # --force: the judge is edited by hand on purpose, which run otherwise refuses (BS504)
    result = invoke("run", chatty_task, "--agent", "replay", "--runs", runs, "--json",
                    "--archive", "none", "--force")  # fmt: skip
    assert result.exit_code == 1, result.output
    (record,) = json.loads(result.stdout)
    assert (record["status"], record["progress_level"]) == ("error", 0)
    with sqlite3.connect(runs / DB_NAME) as conn:
        (notes,) = conn.execute("SELECT notes FROM verdicts").fetchone()
    assert json.loads(notes)[0].startswith(NOT_JSON)


def test_check_refuses_a_judge_command_without_the_workspace(blind_task: Path) -> None:
    result = invoke("check", blind_task, "--control", "empty")
    assert result.exit_code == 1
    assert f"scenario.json: {NO_WORKSPACE}" in result.output


def test_run_refuses_a_judge_command_without_the_workspace(
    blind_task: Path, tmp_path: Path
) -> None:
    result = invoke("run", blind_task, "--agent", "replay", "--runs", tmp_path / "runs", "--force")
    assert result.exit_code == 1
    assert f"scenario.json: {NO_WORKSPACE}" in result.output
    assert not (tmp_path / "runs").exists()  # refused before any agent ran


def test_lint_flags_a_judge_command_without_the_workspace_in_the_same_words(
    blind_task: Path,
) -> None:
    result = invoke("lint", blind_task, "--format", "json")
    found = [d for d in json.loads(result.stdout) if d["code"] == "BS303"]
    assert [d["message"] for d in found] == [NO_WORKSPACE]
    assert found[0]["path"].endswith("scenario.json") and found[0]["line"] > 1
