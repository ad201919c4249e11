"""The check and lock commands: help, usage errors, text output."""

from __future__ import annotations

import pytest

from tests.check.conftest import EXAMPLES, check_app, invoke


@pytest.mark.parametrize("command", ["check", "lock"])
def test_every_option_has_help(command: str) -> None:
    group = check_app()
    import typer.main

    click_group = typer.main.get_command(group)
    click_command = click_group.commands[command]  # type: ignore[attr-defined]
    assert click_command.help
    for param in click_command.params:
        assert getattr(param, "help", None), f"{command} {param.name} has no help"


def test_an_unknown_control_is_a_usage_error() -> None:
    result = invoke("check", EXAMPLES / "01-grade-summary", "--control", "bogus")
    assert result.exit_code == 2
    assert "unknown control(s) bogus; choose from empty, nop, null" in result.stderr


def test_no_task_is_an_error() -> None:
    result = invoke("check")
    assert result.exit_code == 1
    assert "no task given" in result.stderr


def test_text_output_is_a_table_and_a_summary(python: str) -> None:
    result = invoke(
        "check", EXAMPLES / "01-grade-summary", "--control", "empty", "--control", "isolation",
        "--python", python, "-j", "1",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].split() == ["task", "control", "observed", "expected", "passed"]
    assert lines[2].split() == ["examples/01-grade-summary", "empty", "0", "0", "yes"]
    assert lines[3].split()[:3] == ["examples/01-grade-summary", "isolation", "clean"]
    assert lines[4].startswith("1 task(s), 2 control(s): all expectations met (")
    assert "checked examples/01-grade-summary: 2 control(s), ok" in result.stderr
