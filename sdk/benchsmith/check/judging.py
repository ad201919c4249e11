"""Running a task's judge as a subprocess, exactly as the runner does, and reading its verdict.

The command is the scenario's ``judge_command`` (``python judge.py --workspace {workspace}``)
run from the task folder, with ``python`` replaced by the chosen interpreter and
``--python EXE --fixture-cache DIR`` appended so one materialized fixture serves every run.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benchsmith.check.environments import PLAIN, Environment
from benchsmith.check.trees import first_difference
from benchsmith.check.verdicts import clip, parse_verdict, verdict_problems
from benchsmith.runtime import benchlib

SCENARIO_FILE = "scenario.json"
STDERR_TAIL = 400


@dataclass(frozen=True, slots=True)
class JudgeCall:
    """How to invoke one task's judge.

    Attributes:
        task_dir: The task folder (the judge's working directory).
        command: The scenario's ``judge_command``, with its ``{workspace}`` placeholder.
        python: Interpreter for the judge and the candidates.
        cache: The fixture cache folder shared by this task's judge runs.
        timeout: Seconds after which the judge's process group is killed.
        unsealed: Pass ``--unsealed``: candidates run outside the sandbox.
    """

    task_dir: Path
    command: tuple[str, ...]
    python: str
    cache: Path
    timeout: float
    unsealed: bool = False

    def argv(self, workspace: Path) -> list[str]:
        """The judge's command line for ``workspace``."""
        argv = [a.replace("{workspace}", str(workspace)) for a in self.command]
        argv = benchlib.resolve_argv(argv, self.python)
        unsealed = ["--unsealed"] if self.unsealed else []
        return [*argv, "--python", self.python, "--fixture-cache", str(self.cache), *unsealed]


@dataclass(frozen=True, slots=True)
class JudgeOutcome:
    """One judge run, with everything wrong about it.

    Attributes:
        verdict: The parsed verdict (``None`` when there was no usable one).
        problems: Why the run breaks the contract (empty when sound).
        seconds: Wall time of the judge process.
        returncode: The judge's exit status (``None`` when it was killed at the timeout).
    """

    verdict: dict[str, Any] | None
    problems: tuple[str, ...]
    seconds: float
    returncode: int | None
    notes: tuple[str, ...] = field(default=())

    @property
    def level(self) -> int | None:
        """The verdict's progress level, when there is a verdict."""
        return None if self.verdict is None else int(self.verdict["progress_level"])


def read_judge_command(task_dir: Path) -> tuple[str, ...]:
    """The ``judge_command`` of the task's scenario.json.

    Raises:
        OSError: When scenario.json cannot be read.
        ValueError: When it is not JSON or has no list of strings as ``judge_command``.
    """
    scenario = json.loads((task_dir / SCENARIO_FILE).read_text(encoding="utf-8"))
    command = scenario.get("judge_command") if isinstance(scenario, dict) else None
    if not isinstance(command, list) or not all(isinstance(a, str) for a in command):
        raise ValueError(f"{SCENARIO_FILE}: judge_command is not a list of strings")
    if "{workspace}" not in command:
        raise ValueError(f"{SCENARIO_FILE}: judge_command has no {{workspace}} argument")
    return tuple(command)


def run_judge(
    call: JudgeCall,
    workspace: Path,
    env: Environment = PLAIN,
    digests: dict[tuple[int, ...], str] | None = None,
) -> JudgeOutcome:
    """Judge ``workspace`` once; check the verdict and that the workspace did not change.

    ``digests`` caches file digests (by inode and mtime) between the before/after listings
    and across runs, so large read-only inputs are hashed once per task.
    """
    before = benchlib.tree_entries(workspace, digests)
    started = time.monotonic()
    stdout, stderr, code = _execute(call.argv(workspace), call, env)
    seconds = time.monotonic() - started
    changed = first_difference(before, benchlib.tree_entries(workspace, digests))
    verdict, problems = _read(stdout, stderr, code, call.timeout)
    if changed:
        problems.append(f"the judge changed the workspace ({changed})")
    notes = tuple(verdict.get("notes", ())) if verdict else ()
    return JudgeOutcome(verdict, tuple(problems), seconds, code, notes)


def _read(
    stdout: str, stderr: str, code: int | None, timeout: float
) -> tuple[dict[str, Any] | None, list[str]]:
    """The verdict in ``stdout`` (if usable) and the problems of the run."""
    if code is None:
        return None, [f"the judge printed no verdict within {timeout:.0f} s and was killed"]
    verdict, problem = parse_verdict(stdout)
    if verdict is None:
        return None, [f"{problem} (exit status {code}){_tail(stderr)}"]
    problems = verdict_problems(verdict)
    if code != 0 and not problems:
        problems.append(f"the judge exited with status {code} after a sound verdict")
    if any(p.startswith("schema:") for p in problems):
        return None, problems
    return verdict, problems


def _tail(stderr: str) -> str:
    lines = [line for line in stderr.strip().splitlines() if line.strip()]
    return f"; stderr: {clip(lines[-1], STDERR_TAIL)}" if lines else ""


def _execute(argv: list[str], call: JudgeCall, env: Environment) -> tuple[str, str, int | None]:
    """Run the judge in its own session; kill the whole group at the timeout."""
    process = subprocess.Popen(
        argv, cwd=call.task_dir, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, env=env.variables(), umask=env.umask, start_new_session=True,
    )  # fmt: skip
    try:
        out, err = process.communicate(timeout=call.timeout)
        code: int | None = process.returncode
    except subprocess.TimeoutExpired:
        _kill_group(process.pid)
        out, err = _drain(process)
        code = None
    finally:
        _kill_group(process.pid)
    return out.decode("utf-8", "replace"), err.decode("utf-8", "replace"), code


def _drain(process: subprocess.Popen[bytes]) -> tuple[bytes, bytes]:
    try:
        return process.communicate(timeout=10)
    except subprocess.TimeoutExpired:  # a descendant that left the group holds the pipes
        process.kill()
        return b"", b""


def _kill_group(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, signal.SIGKILL)
