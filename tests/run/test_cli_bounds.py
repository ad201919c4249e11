"""Bounds and path mistakes of `run` and `report`: refused at once, exit 2, no traceback."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import Result

from tests.run.conftest import SINGLE


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--repeat", "99999999999999999999"], "--repeat 99999999999999999999: at most 1000"),
        (["--repeat", "1001"], "at most 1000 runs per task"),
        (["-j", "99999999999"], "-j 99999999999: at most 256"),
    ],
)
def test_absurd_numbers_are_refused_at_once(
    cli: Callable[..., Result], tmp_path: Path, args: list[str], message: str
) -> None:
    started = time.monotonic()
    result = cli("run", SINGLE, "--agent", "nop", "--runs", tmp_path / "runs", *args)
    assert result.exit_code == 2, result.output
    assert message in result.output and "Traceback" not in result.output
    assert time.monotonic() - started < 10
    assert not (tmp_path / "runs").exists()


@pytest.mark.parametrize("runs", [None, "runs", "sub/runs"])
def test_a_runs_folder_inside_the_task_is_refused(
    cli: Callable[..., Result],
    example_copy: Callable[[str], Path],
    monkeypatch: pytest.MonkeyPatch,
    runs: str | None,
) -> None:
    task = example_copy("01-grade-summary")
    before = sorted(p.relative_to(task) for p in task.rglob("*"))
    monkeypatch.chdir(task)  # `benchsmith run .` from inside the task folder
    result = cli("run", ".", "--agent", "nop", *(["--runs", runs] if runs else []))
    assert result.exit_code == 2, result.output
    assert "is inside the task folder" in result.output and "--runs ../../runs" in result.output
    assert sorted(p.relative_to(task) for p in task.rglob("*")) == before


@pytest.mark.parametrize("command", ["run", "report"])
def test_runs_that_is_a_file(cli: Callable[..., Result], tmp_path: Path, command: str) -> None:
    runs = tmp_path / "runs"
    runs.write_text("not a folder\n", encoding="utf-8")
    extra = [SINGLE, "--agent", "nop"] if command == "run" else []
    result = cli(command, *extra, "--runs", runs)
    assert result.exit_code == 2, result.output
    assert "not a folder" in result.output and "Traceback" not in result.output
    assert runs.read_text(encoding="utf-8") == "not a folder\n"


@pytest.mark.parametrize(
    ("target", "message"),
    [("missing/dir/x.html", "no folder"), (".", "is a folder")],
)
def test_report_html_paths(
    cli: Callable[..., Result], tmp_path: Path, target: str, message: str
) -> None:
    runs = tmp_path / "runs"
    assert cli("run", SINGLE, "--agent", "nop", "--runs", runs, "--archive", "none").exit_code == 0
    result = cli("report", "--runs", runs, "--html", tmp_path / target)
    assert result.exit_code == 2, result.output
    assert message in result.output and "Traceback" not in result.output
    page = tmp_path / "page.html"
    assert cli("report", "--runs", runs, "--html", page).exit_code == 0
    assert page.read_text(encoding="utf-8").startswith("<!")
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


def test_run_refuses_a_hand_edited_task_unless_forced(
    cli: Callable[..., Result], tmp_path: Path
) -> None:
    import shutil

    task = Path(shutil.copytree(SINGLE, tmp_path / "01-grade-summary"))
    scenario = task / "scenario.json"
    scenario.write_text(
        scenario.read_text(encoding="utf-8").replace(
            '"judge_command": [', '"judge_command": ["env", '
        ),
        encoding="utf-8",
    )
    runs = tmp_path / "runs"
    refused = cli("run", task, "--agent", "nop", "--runs", runs, "--archive", "none")
    assert refused.exit_code == 1, refused.output
    assert "BS504" in refused.output and "--force" in refused.output
    assert not runs.exists()
    forced = cli("run", task, "--agent", "nop", "--runs", runs, "--archive", "none", "--force")
    assert forced.exit_code in (0, 1), forced.output
    assert "BS504" not in forced.output and runs.is_dir()
