"""The check and lock commands: usage errors, text output (help: tests/test_cli.py)."""

from __future__ import annotations

import shutil

from tests.check.conftest import EXAMPLES, CopyExample, invoke


def test_an_unknown_control_is_a_usage_error() -> None:
    result = invoke("check", EXAMPLES / "01-grade-summary", "--control", "bogus")
    assert result.exit_code == 2
    assert "unknown control(s) bogus; choose from empty, nop, null" in result.stderr


def test_no_task_is_an_error() -> None:
    result = invoke("check")
    assert result.exit_code == 2  # a usage error (README, Exit codes)
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


def test_check_text_names_the_judges_failing_check_under_a_failed_control(
    example: CopyExample, python: str
) -> None:
    """Issue 28's papercut: the text report said only 'level 3, expected 4'; the verdict's
    first notes (the failing checks and why) now follow, indented, without --json."""
    task = example("01-grade-summary")
    witnesses = task / "witnesses"
    shutil.copy(witnesses / "level3.patch", witnesses / "level4.patch")  # a rule broken
    result = invoke("check", task, "--control", "witness-level4", "--python", python)
    lines = result.stdout.replace(str(task), task.name).splitlines()
    assert result.exit_code == 1
    failed = lines.index(f"{task.name}: witness-level4: level 3, expected 4")
    assert lines[failed + 1].startswith("    main: half-up#1: output/summary.csv rows where")
