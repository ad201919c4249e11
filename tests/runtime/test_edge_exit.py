"""The edge run must complete as the main run must: a command that fails there fails the edge,
unless an edge expectation declares the last command's exit status (``exit_code``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from benchsmith.pythons import default_python
from benchsmith.runtime import benchlib
from tests.runtime.seeds import SEED_ARGS

# seed.py writes the fixture's name where the candidate can read it
SEED = (
    SEED_ARGS
    + """\
inputs = pathlib.Path(args.out, "inputs")
inputs.mkdir(parents=True, exist_ok=True)
(inputs / "fixture.txt").write_text(args.fixture or "main")
"""
)

# writes its output on both fixtures, then exits with EDGE_STATUS on the edge one
CANDIDATE = """\
import pathlib, sys
fixture = pathlib.Path("inputs/fixture.txt").read_text()
pathlib.Path("output").mkdir(exist_ok=True)
pathlib.Path("output/out.txt").write_text("done")
sys.exit(EDGE_STATUS if fixture == "edge" else 0)
"""


def _judge(tmp_path: Path, status: int, edge_expect: list[dict[str, Any]]) -> dict[str, Any]:
    task_dir, workspace = tmp_path / "task", tmp_path / "ws"
    task_dir.mkdir()
    (task_dir / "seed.py").write_text(SEED, "utf-8")
    (workspace / "solution").mkdir(parents=True)
    source = CANDIDATE.replace("EDGE_STATUS", str(status))
    (workspace / "solution" / "go.py").write_text(source, "utf-8")
    command = {"run": "python -m solution.go", "argv": ["python", "-m", "solution.go"]}
    command |= {"cwd": ".", "stdin": None, "timeout": 20.0}
    task = {"stages": ["initial"], "editable": ["solution/", "output/"], "outputs": []}
    task |= {"commands": [command], "edge_expect": edge_expect}
    judge = benchlib.Judge(task, task_dir)

    @judge.check(level=3)
    def core(run: benchlib.Run) -> None:
        benchlib.expect_equal(run.files.text("output/out.txt"), "done", "output/out.txt")

    @judge.edge
    def edge_output(run: benchlib.Run) -> None:
        benchlib.expect_equal(run.files.text("output/out.txt"), "done", "output/out.txt")

    return judge.evaluate(workspace, python=default_python())


def test_a_command_that_fails_on_the_edge_fixture_fails_the_edge(tmp_path: Path) -> None:
    verdict = _judge(tmp_path, 3, [])
    assert verdict["progress_level"] == 4
    assert not verdict["edge_check_passed"]
    assert "edge: python -m solution.go: exit status 3" in verdict["notes"]


def test_the_same_candidate_exiting_0_passes_the_edge(tmp_path: Path) -> None:
    verdict = _judge(tmp_path, 0, [])
    assert verdict["progress_level"] == 5, verdict["notes"]


@pytest.mark.parametrize(("declared", "level"), [(3, 5), (2, 4)])
def test_a_declared_exit_status_is_the_expectations_to_judge(
    tmp_path: Path, declared: int, level: int
) -> None:
    expect = [{"name": "edge#1", "file": None, "level": 5, "exit_code": declared}]
    verdict = _judge(tmp_path, 3, expect)
    assert verdict["progress_level"] == level, verdict["notes"]
    if level == 4:
        assert any("edge#1" in note for note in verdict["notes"])
