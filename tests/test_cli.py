"""The command line: help everywhere, documentation, exit codes, errors without tracebacks."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import pytest
import typer

import benchsmith
from benchsmith.cli import app
from benchsmith.linting.registry import RULES
from tests.conftest import MINIMAL_TASK, REPO, lock

README = (REPO / "README.md").read_text(encoding="utf-8")


COMMANDS = {
    "new", "build", "lint", "rules", "vocab", "workspace", "check", "lock", "run", "report",
    "export harbor", "export standalone", "audit",
}  # fmt: skip


def leaves(group: Any, prefix: str = "") -> dict[str, Any]:
    """Every command of ``group`` by its full name (``export harbor``), sub-groups included."""
    found: dict[str, Any] = {}
    for name, command in group.commands.items():
        found[f"{prefix}{name}"] = command
        if hasattr(command, "commands"):
            found.update(leaves(command, f"{prefix}{name} "))
    return found


def commands() -> dict[str, Any]:
    """The commands (not the groups) of the benchsmith app, by full name."""
    every = leaves(typer.main.get_command(app))
    return {k: v for k, v in every.items() if not hasattr(v, "commands")}


def undescribed(cli_app: typer.Typer) -> list[str]:
    """Commands and parameters (arguments and options) of ``cli_app`` without help text."""
    group: Any = typer.main.get_command(cli_app)
    missing = []
    for name, command in {"(root)": group, **leaves(group)}.items():
        if not (command.help or "").strip():
            missing.append(name)
        for param in command.params:
            if param.name != "help" and not (getattr(param, "help", None) or "").strip():
                missing.append(f"{name} {param.name}")
    return missing


def test_every_command_and_parameter_has_help() -> None:
    assert set(commands()) == COMMANDS
    assert undescribed(app) == []


def test_a_missing_help_text_is_noticed() -> None:
    bare = typer.Typer()

    @bare.command()
    def documented(flag: Annotated[bool, typer.Option(help="Described.")] = False) -> None:
        """Documented."""

    @bare.command()
    def silent(path: str, count: int = 1) -> None:
        pass

    assert undescribed(bare) == ["(root)", "silent", "silent path", "silent count"]


def test_every_command_is_a_library_function() -> None:
    assert {name.replace(" ", "_") for name in commands()} == set(benchsmith.FUNCTIONS)


def test_every_command_is_documented_in_the_readme() -> None:
    for name in commands():
        top = name.split()[0]
        assert re.search(rf"^### benchsmith {top}$", README, re.MULTILINE), name


def test_every_rule_code_is_documented() -> None:
    for code, rule in RULES.items():
        assert f"| {code} | {rule.summary} |" in README, code


def test_help_runs_for_every_command(cli: Callable[..., Any]) -> None:
    for name in commands():
        result = cli(*name.split(), "--help")
        assert result.exit_code == 0
        assert "Usage:" in result.output


def test_build_check_and_lint_exit_codes(
    cli: Callable[..., Any], make_task: Callable[..., Path]
) -> None:
    task = make_task()
    assert cli("build", task).exit_code == 0
    unlocked = cli("build", task, "--check")
    assert unlocked.exit_code == 1 and "BS505" in unlocked.output
    lock(task)
    assert cli("build", task, "--check").exit_code == 0
    assert cli("lint", task).exit_code == 0  # warnings only
    assert cli("lint", task, "--strict").exit_code == 1
    (task / "TASK.md").write_text("edited\n", encoding="utf-8")
    stale = cli("build", task, "--check")
    assert stale.exit_code == 1
    assert "TASK.md" in stale.output and "BS504" in stale.output  # edited by hand
    assert cli("lint", task, "--format", "yaml").exit_code == 2


def test_bad_task_gets_located_errors_without_traceback(
    cli: Callable[..., Any], make_task: Callable[..., Path]
) -> None:
    task = make_task(MINIMAL_TASK.replace("rows = 5", "rows = 'x'"))
    result = cli("build", task)
    assert result.exit_code == 1
    assert "Traceback" not in result.output
    assert re.search(r"task\.toml:13:1: BS102 files\[0\]\.rows: expected an integer", result.output)
    assert not (task / "seed.py").exists()


def test_lint_json(cli: Callable[..., Any], make_task: Callable[..., Path]) -> None:
    task = make_task(MINIMAL_TASK.replace('pressure = "N"', 'pressure = "N"\ntimeout_seconds = 5'))
    cli("build", task)
    result = cli("lint", task, "--format", "json", "--select", "BS2")
    assert result.exit_code == 1
    [finding] = json.loads(result.output)
    assert finding["code"] == "BS201"
    assert finding["line"] == 5 and finding["severity"] == "error"


def test_unknown_task_is_a_clear_error(cli: Callable[..., Any], tmp_path: Path) -> None:
    result = cli("build", tmp_path / "nope")
    assert result.exit_code == 2  # a usage error (README, Exit codes)
    assert "not a task folder" in result.output


def test_version(cli: Callable[..., Any]) -> None:
    assert re.match(r"benchsmith \d+\.\d+\.\d+", cli("--version").output)


@pytest.mark.parametrize("pressure", ["N", "H"])
def test_new_scaffolds_a_task_that_builds_and_lints(
    cli: Callable[..., Any], tmp_path: Path, pressure: str
) -> None:
    result = cli("new", "shiny-task", "--id", "12", "--pressure", pressure, "--dir", tmp_path)
    assert result.exit_code == 0, result.output
    task = tmp_path / "12-shiny-task"
    assert (task / "seed.py").is_file() and (task / "judge.py").is_file()
    assert (task / "task.toml").read_text(encoding="utf-8").startswith("#:schema ")
    lint = cli("lint", task, "--format", "json")
    assert lint.exit_code == 0, lint.output
    codes = {f["code"] for f in json.loads(lint.output)}
    assert codes == {"BS901", "BS902"}
    witnesses = {(Path(f["path"]).name, f["code"]) for f in json.loads(lint.output)}
    for name in ("level3.patch", "level4.patch"):  # placeholders, not diffs yet
        assert {(name, "BS901"), (name, "BS902")} <= witnesses
    assert cli("build", task, "--check").exit_code == 0
    again = cli("new", "shiny-task", "--id", "12", "--pressure", pressure, "--dir", tmp_path)
    assert again.exit_code == 2 and "already exists" in again.output
    clash = cli("new", "other-task", "--id", "12", "--pressure", pressure, "--dir", tmp_path)
    assert clash.exit_code == 2 and "already used" in clash.output
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "12-shiny-task",
        "benchlib.py",
        "run.py",
        "tasks.json",
    ]


def test_new_rejects_a_bad_slug_and_writes_nothing(cli: Callable[..., Any], tmp_path: Path) -> None:
    result = cli("new", "Bad Slug", "--id", "3", "--pressure", "N", "--dir", tmp_path)
    assert result.exit_code == 2
    assert "slug" in result.output
    assert list(tmp_path.iterdir()) == []


def test_lint_names_a_task_by_id_or_slug_as_build_does(
    cli: Callable[..., Any], make_task: Callable[..., Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    task = make_task(dirname="07-tiny-task")
    tasks = task.parent.parent / "tasks"
    task.parent.rename(tasks)  # the default corpus, tasks/, under the working directory
    monkeypatch.chdir(tasks.parent)
    assert cli("build", "07").exit_code == 0
    by_path = cli("lint", "tasks/07-tiny-task", "--format", "json")
    for name in ("07", "7", "tiny-task"):
        by_name = cli("lint", name, "--format", "json")
        assert by_name.exit_code == by_path.exit_code, by_name.output
        assert json.loads(by_name.output) == json.loads(by_path.output)
    missing = cli("lint", "99")
    assert missing.exit_code == 2 and "99: no such task folder or corpus root" in missing.output
