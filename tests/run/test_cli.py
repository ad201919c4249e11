"""`benchsmith run` and `benchsmith report` through the CLI."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import Result

from tests.run.conftest import SINGLE


@pytest.mark.parametrize("command", ["run", "report"])
def test_commands_are_documented(cli: Callable[..., Result], command: str) -> None:
    result = cli(command, "--help")
    assert result.exit_code == 0
    assert "--runs" in result.output and "--json" in result.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ([], "--agent is required"),
        (["--agent", "claude"], "expected replay, nop or command:<shell command>"),
        (["--agent", "command:  "], "needs a shell command"),
        (["--agent", "nop", "--arm", "a b"], "--arm 'a b'"),
        (["--agent", "nop", "--archive", "some"], "--archive must be one of"),
    ],
)
def test_usage_errors_exit_2(
    cli: Callable[..., Result], tmp_path: Path, args: list[str], message: str
) -> None:
    result = cli("run", SINGLE, "--runs", tmp_path / "runs", *args)
    assert result.exit_code == 2
    assert message in result.output
    assert not (tmp_path / "runs").exists()


def test_run_then_report(cli: Callable[..., Result], tmp_path: Path) -> None:
    runs = tmp_path / "runs"
    result = cli("run", SINGLE, "--agent", "replay", "--runs", runs, "--json")
    assert result.exit_code == 0, result.output
    (record,) = json.loads(result.output)
    assert (record["run_id"], record["status"], record["progress_level"]) == (
        "replay--01-grade-summary--r001", "pass", 5
    )  # fmt: skip
    text = cli("run", SINGLE, "--agent", "nop", "--runs", runs, "--archive", "none")
    assert text.exit_code == 0
    assert "nop--01-grade-summary--r001" in text.output
    assert "recorded 1 run(s)" in text.output
    report = cli("report", "--runs", runs, "--arms", "replay", "nop")
    assert report.exit_code == 0, report.output
    assert "0 of 1 matched (task, repeat) pairs" in report.output
