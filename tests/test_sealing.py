"""Sealing as the SDK and the judges decide it: refusal, ``--unsealed`` and its records."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
from pathlib import Path
from typing import Any

import pytest

from benchsmith import sealing
from benchsmith.pythons import default_python
from benchsmith.runtime import benchlib
from benchsmith.workspaces import create_workspace
from tests.check.conftest import copy_example
from tests.check.conftest import invoke as check
from tests.run.conftest import SINGLE
from tests.run.conftest import invoke as cli

MISSING = "bubblewrap (bwrap) is not on PATH; install bubblewrap: apt-get install bubblewrap"


@pytest.fixture
def no_sandbox(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make this process believe bubblewrap cannot run."""
    monkeypatch.setattr(benchlib, "sandbox_status", lambda *_: (False, MISSING))


def test_sealing_is_refused_without_a_sandbox_unless_unsealed(no_sandbox: None) -> None:
    with pytest.raises(sealing.SandboxUnavailableError) as caught:
        sealing.decide(unsealed=False)
    assert caught.value.exit_code == 2
    assert MISSING in caught.value.message and "--unsealed" in caught.value.message
    decided = sealing.decide(unsealed=True)
    assert not decided.sealed and decided.note == f"unsealed: --unsealed was given ({MISSING})"


def test_check_exits_2_with_the_cause_and_the_fix(no_sandbox: None) -> None:
    result = check("check", SINGLE, "--control", "empty")
    assert result.exit_code == 2
    assert "apt-get install bubblewrap" in result.output and "--unsealed" in result.output


def test_check_unsealed_is_recorded_and_skips_the_host_attacks(
    no_sandbox: None, tmp_path: Path
) -> None:
    html = tmp_path / "report.html"
    args = ["--control", "empty", "--control", "escape", "--control", "poison"]
    result = check("check", SINGLE, *args, "--control", "forge", "--unsealed", "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["sealed"] is False and MISSING in report["unsealed_reason"]
    (task,) = report["tasks"]
    observed = {c["control"]: c["observed"] for c in task["controls"]}
    assert observed == {"empty": "0", "escape": "skipped", "poison": "skipped", "forge": "skipped"}
    text = check("check", SINGLE, "--control", "escape", "--unsealed", "--html", html)
    assert "UNSEALED: candidates ran without the sandbox" in text.stdout
    assert "UNSEALED:" in html.read_text("utf-8")


def test_run_refuses_without_a_sandbox_and_records_unsealed(
    no_sandbox: None, tmp_path: Path
) -> None:
    runs = tmp_path / "runs"
    refused = cli("run", SINGLE, "--agent", "nop", "--runs", runs)
    assert refused.exit_code == 2 and "apt-get install bubblewrap" in refused.output
    done = cli("run", SINGLE, "--agent", "nop", "--runs", runs, "--unsealed", "--json")
    assert done.exit_code == 0, done.output
    (outcome,) = json.loads(done.stdout)
    record = json.loads((Path(outcome["folder"]) / "run.json").read_text("utf-8"))
    assert record["sealed"] is False
    with sqlite3.connect(runs / "runs.db") as conn:
        assert conn.execute("SELECT sealed FROM runs").fetchall() == [(0,)]


def _judge(task: Path, workspace: Path, *flags: str, **env: str) -> dict[str, Any]:
    python = default_python()
    done = subprocess.run(
        [python, "judge.py", "--workspace", str(workspace), "--python", python, *flags],
        cwd=task, capture_output=True, text=True, timeout=300, check=False,
        env={**os.environ, **env},
    )  # fmt: skip
    (line,) = done.stdout.splitlines()
    verdict: dict[str, Any] = json.loads(line)
    return verdict


def test_a_judge_says_when_it_ran_unsealed(tmp_path: Path) -> None:
    task = copy_example(tmp_path / "corpus", "01-grade-summary")
    workspace = create_workspace(task, tmp_path / "ws", stage=None, python=default_python())
    asked = _judge(task, workspace, "--unsealed")
    assert asked["notes"][0] == "unsealed: --unsealed was given"
    fallback = _judge(task, workspace, PATH=str(tmp_path / "no-bwrap-here"))
    assert fallback["notes"][0] == f"unsealed: {MISSING}"
    assert asked["progress_level"] == fallback["progress_level"] == 0
    if benchlib.sandbox_status()[0]:
        sealed = _judge(task, workspace)
        assert not any(n.startswith("unsealed:") for n in sealed["notes"])


def _pretend_unsealable(tmp_path: Path) -> Path:
    """A copy of example 01 whose judge believes its sandbox cannot start."""
    task = copy_example(tmp_path / "corpus", "01-grade-summary")
    judge = task / "judge.py"
    judge.write_text(
        judge.read_text("utf-8").replace(
            "import benchlib\n",
            "import benchlib\n\nbenchlib.sandbox_status = lambda *_: (False, 'pretend')\n",
        ),
        "utf-8",
    )
    return task


def test_a_judge_that_runs_unsealed_against_check_s_will_fails_the_control(
    tmp_path: Path,
) -> None:
    if not benchlib.sandbox_status()[0]:
        pytest.skip(f"the sandbox cannot run here: {benchlib.sandbox_status()[1]}")
    task = _pretend_unsealable(tmp_path)
    result = check("check", task, "--control", "empty", "--json")
    (control,) = json.loads(result.stdout)["tasks"][0]["controls"]
    assert result.exit_code == 1
    assert (
        "the judge ran the candidates unsealed although sealing was required (unsealed: pretend)"
        in control["reason"]
    )


@pytest.mark.parametrize("front_end", ["benchsmith run", "run.py"])
def test_a_run_whose_judge_could_not_seal_is_an_error_not_a_verdict(
    front_end: str, tmp_path: Path
) -> None:
    """Issue 26: sealing is verified, never assumed. A judge whose sandbox probe fails falls
    back to unsealed candidates; a sealed run refuses its verdict instead of recording it."""
    if not benchlib.sandbox_status()[0]:
        pytest.skip(f"the sandbox cannot run here: {benchlib.sandbox_status()[1]}")
    task = _pretend_unsealable(tmp_path)
    runs = tmp_path / "runs"
    if front_end == "run.py":
        for name in ("run.py", "tasks.json"):
            shutil.copy2(SINGLE.parent / name, task.parent / name)
        done = subprocess.run(
            [default_python(), "-I", "run.py", "--agent", "command:true", "--task",
             task.name, "--runs", str(runs)],
            cwd=task.parent, capture_output=True, text=True, timeout=600, check=False,
        )  # fmt: skip
        assert done.returncode == 1, done.stdout + done.stderr
    else:
        from tests.run.conftest import batch

        batch(runs, [task], "nop", unsealed=False)
    (record_path,) = runs.glob("*/run.json")
    record = json.loads(record_path.read_text("utf-8"))
    assert record["verdict"]["status"] == "error"
    problem = "the judge ran the candidates unsealed although sealing was required"
    assert problem in json.dumps(record["verdict"])
