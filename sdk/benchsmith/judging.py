"""The judge contract, once: build the judge's command, run it, read and hold its verdict.

``check``, ``run`` (and later ``audit`` and ``export``) judge a workspace through this module
only, so a judge is held to one rule everywhere:

* the command is scenario.json's ``judge_command`` (:func:`read_judge_command`, validated by
  :func:`judge_command_problem`, the same function lint's BS303 uses), run from the task
  folder with ``{workspace}`` replaced, a leading ``python`` replaced by the chosen
  interpreter and ``--python EXE`` (plus ``--fixture-cache DIR``) appended;
* the judge runs in its own session with a timeout; its whole process group is killed when it
  ends, and every process still carrying the run's environment token is swept, so children
  that left the group die too; standard output is read through a pipe, at most
  :data:`STDOUT_LIMIT` bytes (more is an error), standard error is kept as a tail for messages;
* standard output must hold exactly one JSON object (spec section 6), valid against
  ``schemas/judge-result.schema.json`` and the progress-level invariants:

  - ``status`` is ``"pass"`` iff the level is 5;
  - level 5 iff every main check and the edge check pass; level 4 iff every main check passes
    and the edge fails;
  - ``main_checks_passed <= main_checks_total`` and ``main_checks_total >= 1``;
  - a level above 2 needs at least one passed (so executed) main check, and no main check may
    have passed below level 2, where checks never run;
  - the optional per-check details agree with the counts;

  and the judge must exit 0 after printing it. Anything else -- a debug line before the
  verdict, two objects, a timeout, a crash, a status ``"error"`` -- yields an ``error``
  :class:`Verdict` whose ``problems`` say why, never an exception.
"""

from __future__ import annotations

import json
import os
import selectors
import subprocess
import sys
import time
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from benchsmith import resources
from benchsmith.diagnostics import display_path
from benchsmith.errors import BenchsmithError
from benchsmith.runtime import benchlib
from benchsmith.runtime.run import printable, unsealed_judging

if TYPE_CHECKING:
    from jsonschema import Draft202012Validator

SCENARIO_FILE = "scenario.json"
WORKSPACE_PLACEHOLDER = "{workspace}"
STDOUT_LIMIT = 16 << 20
STDERR_KEEP = 64 << 10
STDERR_TAIL = 400
NOTE_LIMIT = 300
ERROR_NOTE_LIMIT = 500
EXIT_GRACE = 1.0
_POLL = 0.1
_CHUNK = 64 << 10

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
        """The judge's command line for ``workspace``."""
        argv = [a.replace(WORKSPACE_PLACEHOLDER, str(workspace)) for a in self.command]
        extra = ["--python", self.python]
        if self.cache is not None:
            extra += ["--fixture-cache", str(self.cache)]
        if self.time_scale != 1.0:
            extra += ["--time-scale", repr(self.time_scale)]
        if self.unsealed:
            extra.append("--unsealed")
        if self.stage is not None:
            extra += ["--stage", str(self.stage)]
        if self.keep_runs is not None:
            extra += ["--keep-runs", str(self.keep_runs)]
        if self.replay_runs is not None:
            extra += ["--replay-runs", str(self.replay_runs)]
        if not self.ladder:
            extra.append("--no-ladder")
        return benchlib.resolve_argv(argv, self.python) + extra


# --- the verdict ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Verdict:
    """The judge's result (spec section 6), with how it was obtained.

    A verdict with ``problems`` is an ``error`` verdict (level 0, the problems as notes): the
    judge broke the contract, whatever it printed.

    Attributes:
        status: ``pass``, ``fail`` or ``error``.
        progress_level: 0 to 5.
        main_checks_passed: Main checks passed.
        main_checks_total: Main checks declared.
        edge_check_passed: Whether the edge check passed.
        notes: The judge's notes (an error verdict's: its problems, clipped).
        raw: The object the judge printed when it was schema-valid (kept even when refused).
        exit_code: The judge's exit status (``None`` when it was killed or did not start).
        seconds: Wall time of the judge process.
        problems: Why the judging broke the contract (empty when the verdict is sound).
    """

    status: Status
    progress_level: int
    main_checks_passed: int
    main_checks_total: int
    edge_check_passed: bool
    notes: tuple[str, ...]
    raw: dict[str, Any] | None
    exit_code: int | None
    seconds: float
    problems: tuple[str, ...] = ()

    @property
    def strict_pass(self) -> bool:
        """Level 5 with status pass: the only strict pass."""
        return self.status == "pass" and self.progress_level == 5

    @property
    def stage(self) -> int | None:
        """The stage the verdict judged (``judge.py --stage``; ``None``: the final verdict)."""
        return None if self.raw is None else self.raw.get("stage")

    @property
    def claimed_level(self) -> int | None:
        """The level the judge printed, even when refused (``None``: no schema-valid object)."""
        return None if self.raw is None else int(self.raw["progress_level"])

    @property
    def claimed_notes(self) -> tuple[str, ...]:
        """The notes the judge printed, even when refused (empty: no schema-valid object)."""
        return () if self.raw is None else tuple(printable(n) for n in self.raw["notes"])

    def refused(self, *problems: str) -> Verdict:
        """This judging as an error verdict, with ``problems`` added to its own."""
        return error_verdict(
            *self.problems, *problems, raw=self.raw, exit_code=self.exit_code, seconds=self.seconds
        )


def error_verdict(
    *problems: str,
    raw: dict[str, Any] | None = None,
    exit_code: int | None = None,
    seconds: float = 0.0,
) -> Verdict:
    """The verdict recorded when the judge could not judge, or broke the contract."""
    notes = tuple(clip(p, ERROR_NOTE_LIMIT) for p in problems)
    return Verdict("error", 0, 0, 0, False, notes, raw, exit_code, seconds, problems)


def clip(text: str, limit: int = NOTE_LIMIT) -> str:
    """Collapse whitespace and shorten ``text`` to ``limit`` characters."""
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def parse_verdict(stdout: str) -> tuple[dict[str, Any] | None, str]:
    """Return the one JSON object ``stdout`` holds, or ``None`` and why it holds no such thing."""
    text = stdout.strip()
    if not text:
        return None, "the judge printed nothing on stdout"
    values, rest = _decode_all(text)
    if rest:
        return None, f"the judge's stdout holds text that is not JSON: {clip(rest, 80)!r}"
    if len(values) != 1:
        return None, f"the judge printed {len(values)} JSON values; exactly one object is required"
    if not isinstance(values[0], dict):
        return None, f"the judge printed a JSON {type(values[0]).__name__}, not an object"
    return values[0], ""


def _decode_all(text: str) -> tuple[list[Any], str]:
    """Decode consecutive JSON values; return them and the undecodable remainder."""
    decoder = json.JSONDecoder()
    values: list[Any] = []
    position = 0
    while position < len(text):
        if text[position].isspace():
            position += 1
            continue
        try:
            value, position = decoder.raw_decode(text, position)
        except ValueError:
            return values, text[position:]
        values.append(value)
    return values, ""


def verdict_problems(verdict: dict[str, Any]) -> list[str]:
    """Every way ``verdict`` breaks the schema or the contract (empty when it is sound)."""
    schema_errors = schema_problems(verdict)
    if schema_errors:
        return schema_errors
    if verdict["status"] == "error":
        notes = verdict["notes"]
        return [f"the judge reported an error: {notes[0] if notes else 'no note'}"]
    return contract_problems(verdict) + detail_problems(verdict)


@cache
def _validator() -> Draft202012Validator:
    from jsonschema import Draft202012Validator

    return Draft202012Validator(resources.schema("judge-result"))


def schema_problems(verdict: dict[str, Any]) -> list[str]:
    """Where ``verdict`` breaks ``schemas/judge-result.schema.json``."""
    problems = []
    for error in sorted(_validator().iter_errors(verdict), key=lambda e: list(e.path)):
        where = "/".join(str(p) for p in error.path) or "the verdict"
        problems.append(f"schema: {where}: {clip(error.message, 120)}")
    return problems


def contract_problems(verdict: dict[str, Any]) -> list[str]:
    """Where a schema-valid verdict breaks the progress-level invariants."""
    level, status = verdict["progress_level"], verdict["status"]
    passed, total = verdict["main_checks_passed"], verdict["main_checks_total"]
    edge = verdict["edge_check_passed"]
    counts = f"level {level}, {passed}/{total} main checks, edge {'passed' if edge else 'failed'}"
    all_main = total >= 1 and passed == total
    rules = [
        (total >= 1, "main_checks_total is 0: a judge needs at least one main check"),
        (passed <= total, f"main_checks_passed {passed} exceeds main_checks_total {total}"),
        ((status == "pass") == (level == 5), f"status {status!r} at level {level}"),
        ((level == 5) == (all_main and edge), f"level 5 iff all main and edge pass ({counts})"),
        (
            (level == 4) == (all_main and not edge),
            f"level 4 iff all main checks pass and the edge fails ({counts})",
        ),
        (level < 3 or passed >= 1, f"level {level} with no passed main check (nothing verified)"),
        (level >= 2 or passed == 0, f"{passed} main check(s) passed below level 2"),
    ]
    return [f"contract: {message}" for ok, message in rules if not ok]


def detail_problems(verdict: dict[str, Any]) -> list[str]:
    """Where the optional per-check details disagree with the verdict's counts."""
    checks = verdict.get("checks") or []
    main = [c for c in checks if c["fixture"] == "main"]
    edge = [c for c in checks if c["fixture"] == "edge"]
    problems = []
    if main and len(main) != verdict["main_checks_total"]:
        total = verdict["main_checks_total"]
        problems.append(f"{len(main)} main checks ran, main_checks_total says {total}")
    if main and sum(c["passed"] for c in main) != verdict["main_checks_passed"]:
        problems.append("the passed main checks disagree with main_checks_passed")
    if verdict["edge_check_passed"] and checks and not edge:
        problems.append("edge_check_passed although no edge check ran")
    if edge and all(c["passed"] for c in edge) != verdict["edge_check_passed"]:
        problems.append("the edge checks disagree with edge_check_passed")
    return [f"contract: {p}" for p in problems]


# --- running the judge ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Captured:
    """What one judge process left behind.

    Attributes:
        stdout: Standard output (at most :data:`STDOUT_LIMIT` bytes).
        stderr: The last :data:`STDERR_KEEP` bytes of standard error.
        returncode: Exit status; ``None`` when the judge was killed before it exited.
        timed_out: Whether it was killed at its timeout.
        overflow: Whether it printed more than :data:`STDOUT_LIMIT` bytes and was killed.
    """

    stdout: bytes
    stderr: bytes
    returncode: int | None
    timed_out: bool = False
    overflow: bool = False


def run_judge(
    call: JudgeCall,
    workspace: Path,
    *,
    variables: Mapping[str, str] | None = None,
    umask: int = -1,
    output: Path | None = None,
) -> Verdict:
    """Judge ``workspace`` once and return the verdict (an ``error`` verdict when it fails).

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
    env = dict(benchlib.clean_env() if variables is None else variables)
    started = time.monotonic()
    try:
        captured = capture(
            call.argv(workspace), cwd=call.task_dir, timeout=call.timeout, env=env, umask=umask
        )
    except OSError as exc:
        return error_verdict(
            f"the judge could not start: {exc}", seconds=time.monotonic() - started
        )
    seconds = time.monotonic() - started
    if output is not None:
        output.write_bytes(captured.stdout)
        output.with_suffix(".stderr").write_bytes(captured.stderr)
    verdict = verdict_from(captured, timeout=call.timeout, seconds=seconds)
    if verdict.raw is not None and verdict.raw.get("stage") != call.stage:
        asked = "the final verdict" if call.stage is None else f"stage {call.stage}"
        said = verdict.raw.get("stage")
        return verdict.refused(
            f"contract: the judge was asked for {asked} but judged "
            + ("the final state" if said is None else f"stage {said}")
        )
    problem = "" if call.unsealed else unsealed_judging(verdict.notes)
    return verdict.refused(problem) if problem else verdict


def verdict_from(captured: Captured, *, timeout: float, seconds: float) -> Verdict:
    """Hold what a judge process left to the contract.

    Args:
        captured: The judge's output and how it ended.
        timeout: The timeout it ran under (for the message when it was killed).
        seconds: Its wall time.
    """
    code = captured.returncode
    if captured.overflow:
        limit = f"{STDOUT_LIMIT >> 20} MiB"
        message = f"the judge printed more than {limit} on stdout and was killed"
        return error_verdict(message, seconds=seconds)
    if captured.timed_out or code is None:
        return error_verdict(
            f"the judge printed no verdict within {timeout:.0f} s and was killed", seconds=seconds
        )
    printed, problem = parse_verdict(captured.stdout.decode("utf-8", errors="replace"))
    if printed is None:
        tail = _tail(captured.stderr)
        return error_verdict(
            f"{problem} (exit status {code}){tail}", exit_code=code, seconds=seconds
        )
    problems = verdict_problems(printed)
    if code != 0 and not problems:
        problems.append(f"the judge exited with status {code} after a sound verdict")
    raw = None if any(p.startswith("schema:") for p in problems) else printed
    if problems:
        return error_verdict(*problems, raw=raw, exit_code=code, seconds=seconds)
    return Verdict(
        status=printed["status"],
        progress_level=printed["progress_level"],
        main_checks_passed=printed["main_checks_passed"],
        main_checks_total=printed["main_checks_total"],
        edge_check_passed=printed["edge_check_passed"],
        notes=tuple(printable(n) for n in printed["notes"]),
        raw=printed,
        exit_code=code,
        seconds=seconds,
    )


def _tail(stderr: bytes) -> str:
    text = stderr.decode("utf-8", errors="replace")
    lines = [line for line in text.strip().splitlines() if line.strip()]
    return f"; stderr: {clip(lines[-1], STDERR_TAIL)}" if lines else ""


def capture(
    argv: list[str], *, cwd: Path, timeout: float, env: Mapping[str, str], umask: int = -1
) -> Captured:
    """Run a judge in its own session and collect its output; nothing of it outlives the call.

    The whole process group is killed when the judge ends (or at the timeout, or once it
    printed more than :data:`STDOUT_LIMIT` bytes), then every process carrying this run's
    environment token is swept (children that left the group). The pipes are closed and the
    judge reaped before returning: a batch judges hundreds of workspaces in one process.

    Raises:
        OSError: When the judge cannot be started.
    """
    token = benchlib.run_token()
    variables = {**env, benchlib.RUN_TOKEN_VARIABLE: token}
    deadline = time.monotonic() + timeout
    with subprocess.Popen(
        argv, cwd=cwd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        env=variables, umask=umask, start_new_session=True,
    ) as process:  # fmt: skip
        try:
            stdout, stderr, overflow = _read_pipes(process, deadline)
            exited = not overflow and _await_exit(process, deadline)
        finally:
            benchlib.kill_group(process)  # the judge is not reaped yet: its group id is ours
            process.wait()
            benchlib.sweep(token)
    code = process.returncode if exited else None
    return Captured(stdout, stderr, code, timed_out=not exited and not overflow, overflow=overflow)


def _read_pipes(process: subprocess.Popen[bytes], deadline: float) -> tuple[bytes, bytes, bool]:
    """Read stdout (capped) and stderr (its tail) until both close, the deadline, or overflow.

    A descendant that inherited the pipes may hold them open after the judge exited; reading
    then stops :data:`EXIT_GRACE` seconds after the exit. Returns stdout, the stderr tail and
    whether stdout exceeded :data:`STDOUT_LIMIT`.
    """
    assert process.stdout is not None and process.stderr is not None
    out, err = bytearray(), bytearray()
    with selectors.DefaultSelector() as selector:
        selector.register(process.stdout, selectors.EVENT_READ, out)
        selector.register(process.stderr, selectors.EVENT_READ, err)
        while selector.get_map():
            now = time.monotonic()
            if now >= deadline:
                break
            ready = selector.select(min(deadline - now, _POLL))
            if not ready and _exited(process):
                deadline = min(deadline, now + EXIT_GRACE)
            for key, _ in ready:
                chunk = os.read(key.fd, _CHUNK)
                if not chunk:
                    selector.unregister(key.fileobj)
                    continue
                buffer: bytearray = key.data
                buffer += chunk
                if buffer is err:
                    del err[:-STDERR_KEEP]
                elif len(out) > STDOUT_LIMIT:
                    return bytes(out[:STDOUT_LIMIT]), bytes(err), True
    return bytes(out), bytes(err), False


def _await_exit(process: subprocess.Popen[bytes], deadline: float) -> bool:
    """Wait (without reaping) until the judge exits; False when the deadline comes first."""
    while not _exited(process):
        if time.monotonic() >= deadline:
            return False
        time.sleep(0.01)
    return True


def _exited(process: subprocess.Popen[bytes]) -> bool:
    """Whether the judge exited, leaving it unreaped so its group id cannot be reused yet."""
    if sys.platform != "linux":  # no waitid(WNOWAIT) everywhere: reap (Popen keeps the code)
        return process.poll() is not None
    try:
        found = os.waitid(os.P_PID, process.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
    except ChildProcessError:
        return True
    return found is not None
