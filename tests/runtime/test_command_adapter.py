"""``command:`` adapters resolved on the host: programs, scripts, shims and what they bind."""

from __future__ import annotations

import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from benchsmith.cli import app
from benchsmith.runtime import benchlib
from benchsmith.runtime.run import agent_binds, command_adapter


def _argv(spec: str, cwd: Path) -> list[str]:
    adapter = command_adapter(spec, cwd)
    assert adapter.argv[:2] == ("/bin/sh", "-c")
    return shlex.split(adapter.argv[2])


def test_a_relative_script_resolves_from_the_callers_folder_and_is_bound(tmp_path: Path) -> None:
    (tmp_path / "my adapter.py").write_text("pass\n", encoding="utf-8")
    adapter = command_adapter("command:python3 'my adapter.py' --turns 3", tmp_path)
    words = shlex.split(adapter.argv[2])
    assert words[0].startswith("/") and words[1:] == [
        str(tmp_path / "my adapter.py"),
        "--turns",
        "3",
    ]
    assert benchlib.Bind(tmp_path / "my adapter.py") in adapter.binds


def test_a_program_outside_the_system_folders_is_bound_at_its_path(tmp_path: Path) -> None:
    tool = tmp_path / "bin" / "agent-cli"
    tool.parent.mkdir()
    tool.write_text("#!/bin/sh\nexit 0\n", encoding="utf-8")
    tool.chmod(0o755)
    adapter = command_adapter("command:bin/agent-cli -p TASK.md", tmp_path)
    assert shlex.split(adapter.argv[2]) == [str(tool), "-p", "TASK.md"]
    assert adapter.binds == (benchlib.Bind(tool, str(tool)),)


def test_a_system_program_needs_no_bind(tmp_path: Path) -> None:
    adapter = command_adapter("command:true", tmp_path)
    assert adapter.argv == ("/bin/sh", "-c", "true") and adapter.binds == ()
    adapter = command_adapter("command:env FOO=1", tmp_path)
    assert shlex.split(adapter.argv[2])[0] in ("/usr/bin/env", "/bin/env")
    assert adapter.binds == ()


def test_a_shim_becomes_the_real_interpreter(tmp_path: Path) -> None:
    real = benchlib.interpreter(sys.executable)
    shim = tmp_path / "python3"
    shim.write_text(f'#!/bin/sh\nexec {shlex.quote(real.executable)} "$@"\n', encoding="utf-8")
    shim.chmod(0o755)
    assert _argv("command:./python3 -c pass", tmp_path) == [real.executable, "-c", "pass"]


@pytest.mark.parametrize(
    "command", ["cd adapters && python3 run.py", "python3 a.py | tee log", "FOO=1 python3 a.py"]
)
def test_a_compound_command_runs_as_written(command: str, tmp_path: Path) -> None:
    adapter = command_adapter(f"command:{command}", tmp_path)
    assert adapter.argv == ("/bin/sh", "-c", command) and adapter.binds == ()


@pytest.mark.parametrize("program", ["no-such-agent-cli", "./missing.sh", "./"])
def test_a_program_that_cannot_start_is_refused_before_any_run(
    program: str, tmp_path: Path
) -> None:
    with pytest.raises(ValueError, match="is not an executable file"):
        command_adapter(f"command:{program} --flag", tmp_path)


def test_agent_binds_are_absolute_and_must_exist(tmp_path: Path) -> None:
    (tmp_path / "tools").mkdir()
    assert agent_binds(["tools"], tmp_path) == (
        benchlib.Bind(tmp_path / "tools", str(tmp_path / "tools")),
    )
    with pytest.raises(ValueError, match="--agent-bind nothing: no such file or folder"):
        agent_binds(["nothing"], tmp_path)


@pytest.mark.parametrize(
    ("extra", "said"),
    [
        (["--agent", "command:no-such-agent-cli"], "'no-such-agent-cli' is not an executable file"),
        (["--agent", "command:true", "--agent-bind", "no/such/dir"], "no such file or folder"),
    ],
)
def test_the_lean_runner_refuses_what_cannot_start(
    extra: list[str], said: str, tmp_path: Path
) -> None:
    run_py = Path(__file__).resolve().parents[2] / "examples" / "run.py"
    done = subprocess.run(
        [sys.executable, "-I", str(run_py), *extra, "--all", "--runs", str(tmp_path / "runs")],
        cwd=tmp_path, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 2 and said in done.stderr, done.stderr
    assert not (tmp_path / "runs").exists()


@pytest.mark.parametrize(
    ("extra", "said"),
    [
        (["--agent", "command:no-such-agent-cli"], "is not an executable file on PATH"),
        (["--agent", "nop", "--agent-bind", "no/such/dir"], "no such file or folder"),
    ],
)
def test_benchsmith_run_refuses_what_cannot_start(
    extra: list[str], said: str, tmp_path: Path
) -> None:
    single = Path(__file__).resolve().parents[2] / "examples" / "01-grade-summary"
    result = CliRunner().invoke(app, ["run", str(single), *extra, "--runs", str(tmp_path / "r")])
    assert result.exit_code == 2 and said in result.output, result.output
    assert not (tmp_path / "r").exists()
