"""The judge contract in the SDK: the judge's command, and the verdict held to the schema.

One contract is read by every reader of a verdict -- ``check``, ``audit``, ``benchsmith
run``, the bundle's ``run.py`` and the Harbor verifier: the runtime's
(:func:`benchlib.judge_argv`, :func:`benchlib.judge_once`, :func:`benchlib.hold_verdict`,
stdlib only, shipped with every corpus). This module adds what only the SDK has:

* the command is scenario.json's ``judge_command`` (:func:`read_judge_command`, validated by
  :func:`judge_command_problem`, the same function lint's BS303 uses), run from the task
  folder with ``{workspace}`` replaced, a leading ``python`` replaced by the chosen
  interpreter and ``--python EXE`` (plus the :class:`JudgeCall` options) appended;
* the judge runs in its own session with a timeout; its whole process group is killed when it
  ends, and every process still carrying the run's environment token is swept, so children
  that left the group die too; standard output is read through a pipe, at most
  :data:`STDOUT_LIMIT` bytes (more is an error), standard error is kept as a tail for messages;
* standard output must be UTF-8 holding exactly one JSON object (spec section 6), valid
  against ``schemas/judge-result.schema.json`` (validated here with jsonschema, on top of the
  runtime's structural check, which is never more lenient) and the progress-level invariants:

  - ``status`` is ``"pass"`` iff the level is 5;
  - level 5 iff every main check and the edge check pass; level 4 iff every main check passes
    and the edge fails;
  - ``main_checks_passed <= main_checks_total`` and ``main_checks_total >= 1``;
  - a level above 2 needs at least one passed (so executed) main check, and no main check may
    have passed below level 2, where checks never run;
  - the optional per-check details agree with the counts;

  and the judge must exit 0 after printing it. Anything else -- a debug line before the
  verdict, two objects, ``NaN``, a timeout, a crash, a status ``"error"`` -- yields an
  ``error`` :class:`Verdict` whose ``problems`` say why, never an exception.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from benchsmith import resources
from benchsmith.diagnostics import display_path
from benchsmith.errors import BenchsmithError
from benchsmith.runtime import benchlib

if TYPE_CHECKING:
    from jsonschema import Draft202012Validator

    from benchsmith.dsl.model import TaskSpec

SCENARIO_FILE = "scenario.json"
WORKSPACE_PLACEHOLDER = benchlib.WORKSPACE_PLACEHOLDER
STDOUT_LIMIT = benchlib.VERDICT_STDOUT_LIMIT
NOTE_LIMIT = benchlib.NOTE_LIMIT
JUDGE_MARGIN = 30.0
SERVICE_START = 15.0

Status = Literal["pass", "fail", "error"]


class JudgeCommandError(BenchsmithError):
    """Raised when a task's scenario.json gives no usable ``judge_command``."""


# --- the command ---------------------------------------------------------------------------


def judge_command_problem(scenario: object) -> str:
    """Why the parsed scenario.json ``scenario`` gives no usable judge command ("" if it does).

    A usable ``judge_command`` is a non-empty list of strings of which one passes
    ``{workspace}`` (the candidate workspace), as ``schemas/scenario.schema.json`` says.
    """
    if not isinstance(scenario, dict):
        return "scenario.json is not a JSON object"
    if "judge_command" not in scenario:
        return "judge_command is missing"
    command = scenario["judge_command"]
    if not isinstance(command, list) or not command:
        return f"judge_command must be a non-empty list of strings, not {clip(repr(command), 80)}"
    if not all(isinstance(a, str) for a in command):
        return f"judge_command holds an argument that is not a string: {clip(repr(command), 80)}"
    if not any(WORKSPACE_PLACEHOLDER in a for a in command):
        return (
            f"judge_command does not pass {WORKSPACE_PLACEHOLDER} (the candidate workspace): "
            f"{clip(repr(command), 120)}"
        )
    return ""


def read_judge_command(task_dir: Path) -> tuple[str, ...]:
    """The validated ``judge_command`` of the task's scenario.json.

    Raises:
        JudgeCommandError: When scenario.json cannot be read, is not JSON, or its
            ``judge_command`` is unusable (see :func:`judge_command_problem`).
    """
    path = task_dir / SCENARIO_FILE
    try:
        scenario = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise JudgeCommandError(f"{display_path(path)}: cannot be read: {exc}") from exc
    except RecursionError:
        raise JudgeCommandError(
            f"{display_path(path)}: cannot be read: nested too deeply"
        ) from None
    problem = judge_command_problem(scenario)
    if problem:
        raise JudgeCommandError(f"{display_path(path)}: {problem}")
    return tuple(scenario["judge_command"])


def judge_timeout(spec: TaskSpec) -> float:
    """The longest a sound judge may take: every command twice (main and edge), plus slack."""
    commands = sum(c.timeout for c in spec.commands)
    return 2 * (commands + SERVICE_START * len(spec.services)) + JUDGE_MARGIN


@dataclass(frozen=True, slots=True)
class JudgeCall:
    """How to invoke one task's judge.

    Attributes:
        task_dir: The task folder (the judge's working directory).
        command: The validated ``judge_command`` (see :func:`read_judge_command`).
        python: Interpreter for the judge and the candidate's commands.
        timeout: Seconds after which the judge's process group is killed.
        cache: Fixture cache folder shared by several judgings, if any.
        time_scale: Factor on every candidate command's timeout (``--time-scale``; below 1
            only for controls that prove a kill without waiting out a long timeout).
        unsealed: Pass ``--unsealed``: the judge runs candidates outside the sandbox (only
            when the invocation was told ``--unsealed``; recorded with the result).
        stage: Pass ``--stage N``: judge the state after the 1-based stage ``N`` with the
            checks that apply by then (``None``: the final, scored verdict). The verdict must
            then say ``"stage": N``.
        keep_runs: Pass ``--keep-runs DIR``: the judge keeps what the commands left there
            (:func:`benchlib.load_kept_run` reads it back).
        replay_runs: Pass ``--replay-runs DIR``: the judge judges the runs an earlier
            ``keep_runs`` judging of the same stage left there instead of running the commands.
        ladder: Without it, pass ``--no-ladder``: a staged task's final verdict below 3 is
            not laddered (the audit only tells 5 from below 5, which the ladder never
            changes, and its records keep the levels they were made with).
    """

    task_dir: Path
    command: tuple[str, ...]
    python: str
    timeout: float
    cache: Path | None = None
    time_scale: float = 1.0
    unsealed: bool = False
    stage: int | None = None
    keep_runs: Path | None = None
    replay_runs: Path | None = None
    ladder: bool = True

    def argv(self, workspace: Path) -> list[str]:
        """The judge's command line for ``workspace`` (:func:`benchlib.judge_argv`)."""
        options: list[str] = []
        if self.cache is not None:
            options += ["--fixture-cache", str(self.cache)]
        if self.time_scale != 1.0:
            options += ["--time-scale", repr(self.time_scale)]
        if self.unsealed:
            options.append("--unsealed")
        if self.stage is not None:
            options += [benchlib.STAGE_OPTION, str(self.stage)]
        if self.keep_runs is not None:
            options += ["--keep-runs", str(self.keep_runs)]
        if self.replay_runs is not None:
            options += ["--replay-runs", str(self.replay_runs)]
        if not self.ladder:
            options.append("--no-ladder")
        return benchlib.judge_argv(self.command, workspace, self.python, options)


# --- the verdict ---------------------------------------------------------------------------

Verdict = benchlib.Verdict
Captured = benchlib.Captured
parse_verdict = benchlib.parse_verdict
clip = benchlib.clip_text
error_verdict = benchlib.refused_verdict


def verdict_problems(verdict: Any) -> list[str]:
    """Every way ``verdict`` breaks the schema or the contract (empty when it is sound).

    The runtime's reading (:func:`benchlib.verdict_problems`, the one every reader of a
    verdict uses), with ``schemas/judge-result.schema.json`` validated on top: where the two
    could differ (JSON Schema takes ``5.0`` for an integer) the stricter wins."""
    problems = benchlib.verdict_problems(verdict)
    if problems and problems[0].startswith("schema:"):
        return problems
    extra = [p for p in schema_problems(verdict) if p not in problems]
    return extra + problems if extra else problems


@cache
def _validator() -> Draft202012Validator:
    from jsonschema import Draft202012Validator

    return Draft202012Validator(resources.schema("judge-result"))


def schema_problems(verdict: Any) -> list[str]:
    """Where ``verdict`` breaks ``schemas/judge-result.schema.json`` (jsonschema's reading)."""
    problems = []
    for error in sorted(_validator().iter_errors(verdict), key=lambda e: list(e.path)):
        where = "/".join(str(p) for p in error.path) or "the verdict"
        problems.append(f"schema: {where}: {clip(error.message, 120)}")
    return problems


# --- running the judge ---------------------------------------------------------------------


def run_judge(
    call: JudgeCall,
    workspace: Path,
    *,
    variables: Mapping[str, str] | None = None,
    umask: int = -1,
    output: Path | None = None,
) -> Verdict:
    """Judge ``workspace`` once and return the verdict (an ``error`` verdict when it fails).

    The judge is run and held by the runtime's one launcher (:func:`benchlib.judge_once`);
    the SDK adds the JSON Schema (see :func:`verdict_problems`).

    Args:
        call: The task's judge.
        workspace: The workspace to judge (the judge only reads it).
        variables: The judge's environment (default: this process's, minus Python overrides);
            the run's sweep token is added.
        umask: The umask applied in the judge's process (-1: inherited).
        output: When given, the judge's stdout is written there and the tail of its stderr
            next to it (``.stderr``).

    Returns:
        The verdict; its ``problems`` say how the judging broke the contract.
    """
    if call.cache is not None:
        call.cache.mkdir(parents=True, exist_ok=True)
    verdict = benchlib.judge_once(
        call.argv(workspace), cwd=call.task_dir, timeout=call.timeout, env=variables,
        umask=umask, stage=call.stage, sealed=not call.unsealed, output=output,
    )  # fmt: skip
    if verdict.raw is None or verdict.problems:
        return verdict
    problems = schema_problems(verdict.raw)
    return verdict.refused(*problems) if problems else verdict
