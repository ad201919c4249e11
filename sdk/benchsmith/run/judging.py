"""Running a task's judge on a final workspace, after the agent stopped.

The judge command comes from scenario.json: ``{workspace}`` is replaced, a leading
``python`` becomes the chosen interpreter, and ``--python EXE`` is appended (plus
``--fixture-cache DIR`` when the invocation shares one). It runs in the task folder, in its
own process group, with a timeout; its last JSON-object line is the verdict. A judge that
crashes, times out or prints something else yields an ``error`` verdict, never an exception.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from benchsmith.run.data import TaskInfo, Verdict
from benchsmith.runtime import benchlib

STDOUT_LIMIT = 16 << 20
_INTS = ("progress_level", "main_checks_passed", "main_checks_total")


def judge_argv(
    task: TaskInfo, workspace: Path, python: str, cache: Path | None, unsealed: bool = False
) -> list[str]:
    """The judge command line for ``workspace`` (``--unsealed`` passed through)."""
    argv = [a.replace("{workspace}", str(workspace)) for a in task.judge_command]
    extra = ["--python", python] + (["--fixture-cache", str(cache)] if cache else [])
    return benchlib.resolve_argv(argv, python) + extra + (["--unsealed"] if unsealed else [])


def run_judge(
    task: TaskInfo,
    workspace: Path,
    *,
    python: str,
    scratch: Path,
    timeout: float,
    cache: Path | None = None,
    output: Path | None = None,
    unsealed: bool = False,
) -> Verdict:
    """Judge ``workspace`` and return the verdict (an ``error`` verdict when it fails).

    Args:
        task: The task.
        workspace: The agent's final workspace (only read).
        python: Interpreter for the judge and the candidate's commands.
        scratch: Folder for the judge's captured output.
        timeout: Seconds before the judge's process group is killed.
        cache: Fixture cache folder (created if missing).
        output: When given, the judge's full stdout is copied there.
        unsealed: Pass ``--unsealed`` to the judge.
    """
    if cache is not None:
        cache.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    argv = judge_argv(task, workspace, python, cache, unsealed)
    result = run_process(argv, cwd=task.task_dir, timeout=timeout, scratch=scratch)
    seconds = time.monotonic() - started
    stdout = scratch / "judge.stdout"
    text = stdout.read_bytes()[:STDOUT_LIMIT].decode("utf-8", errors="replace")
    if output is not None:
        shutil.copyfile(stdout, output)
        shutil.copyfile(scratch / "judge.stderr", output.with_suffix(".stderr"))
    return verdict_from(text, result, seconds)


def run_process(
    argv: list[str], *, cwd: Path, timeout: float, scratch: Path
) -> benchlib.CommandResult:
    """Run the judge in its own process group, output to ``scratch/judge.std{out,err}``.

    Like :func:`benchlib.run_command` (timeout, group kill, sweep of escaped children) but
    with the output files closed afterwards: a batch judges hundreds of workspaces in one
    process and must not leak a descriptor per judging.
    """
    scratch.mkdir(parents=True, exist_ok=True)
    token = benchlib.run_token()
    env = benchlib.clean_env({benchlib.RUN_TOKEN_VARIABLE: token})
    out_path, err_path = scratch / "judge.stdout", scratch / "judge.stderr"
    with open(out_path, "wb") as out, open(err_path, "wb") as err:
        try:
            process = subprocess.Popen(
                argv, cwd=cwd, stdin=subprocess.DEVNULL, stdout=out, stderr=err, env=env,
                start_new_session=True,
            )  # fmt: skip
        except OSError as exc:
            return benchlib.CommandResult(argv, None, False, "", "", out_path, str(exc))
        try:
            process.wait(timeout=timeout)
            timed_out = False
        except subprocess.TimeoutExpired:
            timed_out = True
        finally:
            benchlib.kill_group(process)
            process.wait()
            benchlib.sweep(token)
    stderr = err_path.read_bytes()[: benchlib.CAPTURE_LIMIT].decode("utf-8", errors="replace")
    code = None if timed_out else process.returncode
    return benchlib.CommandResult(argv, code, timed_out, "", stderr, out_path)


def verdict_from(text: str, result: benchlib.CommandResult, seconds: float) -> Verdict:
    """Build the verdict from the judge's stdout, or an error verdict explaining the failure."""
    if result.timed_out or result.error:
        return error_verdict(f"judge {result.describe()}", result.returncode, seconds)
    found = last_json_object(text)
    if found is None:
        reason = f"judge printed no JSON verdict ({result.describe()})"
        return error_verdict(reason, result.returncode, seconds)
    problem = verdict_problem(found)
    if problem:
        return error_verdict(f"judge verdict invalid: {problem}", result.returncode, seconds)
    return Verdict(
        status=found["status"],
        progress_level=found["progress_level"],
        main_checks_passed=found["main_checks_passed"],
        main_checks_total=found["main_checks_total"],
        edge_check_passed=found["edge_check_passed"],
        notes=tuple(found["notes"]),
        raw=found,
        exit_code=result.returncode,
        seconds=seconds,
    )


def last_json_object(text: str) -> dict[str, Any] | None:
    """The last line of ``text`` that parses as a JSON object."""
    for line in reversed(text.splitlines()):
        stripped = line.strip()
        if not stripped.startswith("{"):
            continue
        try:
            value = json.loads(stripped)
        except ValueError:
            continue
        if isinstance(value, dict):
            return value
    return None


def verdict_problem(found: Mapping[str, Any]) -> str:
    """Why a parsed verdict breaks the judge contract (empty string when it is fine)."""
    if found.get("status") not in ("pass", "fail", "error"):
        return f"status {found.get('status')!r}"
    for key in _INTS:
        value = found.get(key)
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            return f"{key} {value!r}"
    if found["progress_level"] > 5:
        return f"progress_level {found['progress_level']}"
    if not isinstance(found.get("edge_check_passed"), bool):
        return "edge_check_passed is not a boolean"
    notes = found.get("notes")
    if not isinstance(notes, list) or not all(isinstance(n, str) for n in notes):
        return "notes is not a list of strings"
    if (found["status"] == "pass") != (found["progress_level"] == 5):
        return "status pass must coincide with progress_level 5"
    return ""


def error_verdict(note: str, exit_code: int | None, seconds: float) -> Verdict:
    """The verdict recorded when the judge could not judge."""
    return Verdict("error", 0, 0, 0, False, (note[:500],), None, exit_code, seconds)
