"""benchsmith export harbor on the command line."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.export.conftest import EXAMPLES, OFFLINE_ENV

PANTRY = EXAMPLES / "02-pantry-ledger"
GRADES = EXAMPLES / "01-grade-summary"


def test_cli_exports_and_reports(cli: Callable[..., Any], tmp_path: Path) -> None:
    result = cli("export", "harbor", "2", "--corpus", "examples", "--out", tmp_path, "--json")
    assert result.exit_code == 0, result.output
    payload = json.loads(result.output)
    assert payload["environment"] == OFFLINE_ENV
    assert [t["files"] > 0 and not t["problems"] for t in payload["tasks"]] == [True]
    assert (tmp_path / PANTRY.name / "task.toml").is_file()
    assert cli("export", "harbor", "--help").exit_code == 0


def test_cli_refusal_names_the_problems(
    cli: Callable[..., Any], example_copy: Callable[[str], Path], tmp_path: Path
) -> None:
    task = example_copy(GRADES.name)
    (task / "TASK.md").write_text("edited by hand\n", encoding="utf-8")
    result = cli("export", "harbor", task, "--out", tmp_path / "out")
    assert result.exit_code == 1
    assert "not exported" in result.output and "TASK.md" in result.output
