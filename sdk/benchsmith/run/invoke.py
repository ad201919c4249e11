"""Running one adapter action: start it, follow its events, enforce the time budget.

The adapter runs in its own process group with the workspace as its working directory.
While it runs, its events file is read as it grows; a turn is finished when the adapter
exits 0 after emitting ``idle``. An adapter still running :data:`IDLE_GRACE` seconds after
``idle`` is stopped (and that recorded). A nonzero exit, or an exit without ``idle``, is a
crash; running past the budget is a timeout. Whatever happens, the whole process group is
killed when the action ends (and any process that left the group but still carries the
action's token in its environment), and malformed event lines become problems, never
exceptions.
"""

from __future__ import annotations

import os
import stat
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from benchsmith.run import protocol
from benchsmith.run.adapters import ActionEnv, Adapter
from benchsmith.runtime import benchlib

IDLE_GRACE = 10.0
MAX_PROBLEMS = 200
POLL_FIRST = 0.002
POLL_MAX = 0.025

Outcome = Literal["idle", "timeout", "crash"]


@dataclass(frozen=True, slots=True)
class Received:
    """One valid event line, stamped when the runner read it.

    Attributes:
        line: 1-based line number in the action's events file.
        t: Seconds since the run started.
        event: The event object.
    """

    line: int
    t: float
    event: dict[str, Any]


@dataclass(frozen=True, slots=True)
class Problem:
    """A malformed events line or an adapter misbehaviour, recorded as a diagnostic.

    Attributes:
        line: 1-based line number (0 when not about a line).
        code: Short stable code (see :class:`benchsmith.run.protocol.LineProblem`, ``lingered``).
        message: What is wrong.
        text: The offending text (clipped), if any.
    """

    line: int
    code: str
    message: str
    text: str = ""


@dataclass
class ActionResult:
    """What one action did.

    Attributes:
        action: ``message`` or ``compact``.
        stage: The stage it belongs to.
        outcome: ``idle`` (turn finished), ``timeout`` or ``crash``.
        detail: Human explanation of a non-idle outcome.
        exit_code: The adapter's exit status (``None`` when killed or never started).
        started: Seconds since the run started.
        seconds: Wall time of the action.
        events: Valid events in order.
        problems: Malformed lines and misbehaviours.
    """

    action: str
    stage: int
    outcome: Outcome
    detail: str
    exit_code: int | None
    started: float
    seconds: float
    events: list[Received] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)

    def has(self, kind: str) -> bool:
        """Whether the adapter emitted an event of type ``kind``."""
        return any(r.event["type"] == kind for r in self.events)


class EventTail:
    """Reads an events file incrementally, validating complete lines."""

    def __init__(self, path: Path, origin: float) -> None:
        self.path, self.origin = path, origin
        self.offset, self.buffer, self.lines = 0, b"", 0
        self.not_regular = False
        self.idle = False
        self.events: list[Received] = []
        self.problems: list[Problem] = []

    def poll(self, *, final: bool = False) -> None:
        """Consume what was appended since the last call (and a last unterminated line)."""
        chunk = self.read_new()
        self.offset += len(chunk)
        self.buffer += chunk
        *complete, self.buffer = self.buffer.split(b"\n")
        if final and self.buffer:
            complete.append(self.buffer)
            self.buffer = b""
        for raw in complete:
            self.take(raw)

    def read_new(self) -> bytes:
        """Bytes appended since the last read; never blocks, even if a FIFO replaced the file."""
        try:
            fd = os.open(self.path, os.O_RDONLY | os.O_NONBLOCK)
        except OSError:
            return b""
        try:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                if not self.not_regular:
                    self.not_regular = True
                    self.problem(Problem(0, "event-file", "the events file is not a regular file"))
                return b""
            os.lseek(fd, self.offset, os.SEEK_SET)
            return b"".join(iter(lambda: os.read(fd, 1 << 20), b""))
        finally:
            os.close(fd)

    def take(self, raw: bytes) -> None:
        """Validate one line and keep it as an event or a problem."""
        self.lines += 1
        if not raw.strip():
            return
        parsed = protocol.parse_event(raw.strip())
        if isinstance(parsed, protocol.LineProblem):
            self.problem(Problem(self.lines, parsed.code, parsed.message, clip(raw)))
        else:
            self.events.append(Received(self.lines, time.monotonic() - self.origin, parsed))
            self.idle = self.idle or parsed["type"] == "idle"

    def problem(self, problem: Problem) -> None:
        """Record a problem, up to :data:`MAX_PROBLEMS` per action."""
        if len(self.problems) < MAX_PROBLEMS:
            self.problems.append(problem)
        elif len(self.problems) == MAX_PROBLEMS:
            self.problems.append(Problem(0, "too-many", "further problems were not recorded"))


def clip(raw: bytes, limit: int = 500) -> str:
    """The start of an offending line, decoded leniently."""
    return raw[:limit].decode("utf-8", errors="replace")


@dataclass(frozen=True, slots=True)
class ActionFiles:
    """Where one action's message, events and output streams live."""

    message: Path | None
    events: Path
    stdout: Path
    stderr: Path


def run_action(
    adapter: Adapter, env: ActionEnv, files: ActionFiles, *, origin: float
) -> ActionResult:
    """Run one action to its end; never raises for the adapter's misbehaviour.

    Args:
        adapter: The adapter to start.
        env: What the action tells the adapter (its ``timeout`` is the budget left).
        files: The action's files (the events file is created empty).
        origin: ``time.monotonic()`` at the start of the run, for event stamps.
    """
    files.events.write_bytes(b"")
    started = time.monotonic()
    tail = EventTail(files.events, origin)
    base = ActionResult(env.action, env.stage, "crash", "", None, started - origin, 0.0)
    token = benchlib.run_token()
    variables = benchlib.clean_env({**adapter.env(env), benchlib.RUN_TOKEN_VARIABLE: token})
    with open(files.stdout, "wb") as out, open(files.stderr, "wb") as err:
        try:
            process = subprocess.Popen(
                list(adapter.argv), cwd=env.workspace, stdin=subprocess.DEVNULL, stdout=out,
                stderr=err, env=variables, start_new_session=True,
            )  # fmt: skip
        except OSError as exc:
            base.detail = f"adapter could not start: {exc}"
            return base
        try:
            outcome, detail = _follow(process, tail, started + env.timeout)
        finally:
            benchlib.kill_group(process)
            process.wait()
            benchlib.sweep(token)  # children that left the group (setsid, double fork)
    tail.poll(final=True)
    base.outcome, base.detail = _settle(outcome, detail, process.returncode, tail)
    base.exit_code = None if outcome == "timeout" or detail == "lingered" else process.returncode
    if detail == "lingered":
        tail.problems.append(
            Problem(0, "lingered", f"adapter still running {IDLE_GRACE:g} s after idle; stopped")
        )
    base.seconds = time.monotonic() - started
    base.events, base.problems = tail.events, tail.problems
    return base


def _follow(process: subprocess.Popen[bytes], tail: EventTail, deadline: float) -> tuple[str, str]:
    """Wait for the adapter to exit, time out, or linger after idle; read events meanwhile."""
    delay, idle_since = POLL_FIRST, 0.0
    while True:
        if process.poll() is not None:
            return "exited", ""
        tail.poll()
        now = time.monotonic()
        if now >= deadline:
            return "timeout", ""
        if tail.idle and not idle_since:
            idle_since = now
        if idle_since and now - idle_since >= IDLE_GRACE:
            return "exited", "lingered"
        time.sleep(min(delay, max(deadline - now, 0.0)))
        delay = min(delay * 2, POLL_MAX)


def _settle(how: str, detail: str, returncode: int | None, tail: EventTail) -> tuple[Outcome, str]:
    """Classify the end of an action."""
    if how == "timeout":
        return "timeout", "the agent's time budget ran out"
    if detail == "lingered":
        return "idle", ""
    if returncode != 0:
        return "crash", f"adapter exited with status {returncode}{_error_hint(tail)}"
    if not tail.idle:
        return "crash", "adapter exited without an idle event"
    return "idle", ""


def _error_hint(tail: EventTail) -> str:
    errors = [r.event["message"] for r in tail.events if r.event["type"] == "error"]
    return f": {errors[-1][:200]}" if errors else ""


def remaining(budget: float, spent: float) -> float:
    """Seconds of the agent budget left (never negative)."""
    return max(budget - spent, 0.0)
