"""One adapter action: idle, crash, timeout with its process group killed, garbage lines."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from benchsmith.running.adapters import ActionEnv, resolve_adapter
from benchsmith.running.invoke import ActionFiles, ActionResult, run_action
from benchsmith.runtime import run as core

IDLE = """printf '{"type":"idle"}\\n' >> "$BENCHSMITH_EVENTS"\n"""


def alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie awaiting its reaper counts as dead)."""
    stat = Path(f"/proc/{pid}/stat")
    try:
        state = stat.read_text().rsplit(") ", 1)[1][:1]
    except (OSError, IndexError):
        return False
    return state not in ("Z", "X")


def act(tmp_path: Path, script: str, *, timeout: float = 20.0) -> ActionResult:
    workspace = tmp_path / "ws"
    workspace.mkdir(exist_ok=True)
    (tmp_path / "state").mkdir(exist_ok=True)
    files = ActionFiles(
        tmp_path / "m.txt", tmp_path / "e.jsonl", tmp_path / "o.txt", tmp_path / "r.txt"
    )
    files.message.write_text("hi", encoding="utf-8")  # type: ignore[union-attr]
    env = ActionEnv(
        action="message", stage=1, stage_id="initial", stages=1, workspace=workspace,
        events=files.events, state_dir=tmp_path / "state", editable=("solution/",),
        timeout=timeout, message_file=files.message,
    )  # fmt: skip
    return run_action(resolve_adapter(f"command:{script}"), env, files, origin=time.monotonic())


def test_idle_after_exit_zero(tmp_path: Path) -> None:
    script = """printf '{"type":"assistant","text":"ok"}\\n' >> "$BENCHSMITH_EVENTS"\n""" + IDLE
    result = act(tmp_path, script)
    assert (result.outcome, result.exit_code, result.detail) == ("idle", 0, "")
    assert [r.event["type"] for r in result.events] == ["assistant", "idle"]


def test_adapter_sees_protocol_variables(tmp_path: Path) -> None:
    script = (
        'test "$BENCHSMITH_ACTION" = message && test "$(cat "$BENCHSMITH_MESSAGE_FILE")" = hi'
        ' && test "$PWD" = "$BENCHSMITH_WORKSPACE" && test "$BENCHSMITH_STAGE" = 1'
        ' && test "$BENCHSMITH_EDITABLE" = \'["solution/"]\' && test -z "$BENCHSMITH_REFERENCE"'
        " || exit 3\n" + IDLE
    )
    assert act(tmp_path, script).outcome == "idle"


def test_exit_without_idle_is_a_crash(tmp_path: Path) -> None:
    result = act(tmp_path, "true")
    assert result.outcome == "crash"
    assert "without an idle event" in result.detail


def test_nonzero_exit_is_a_crash_even_after_idle(tmp_path: Path) -> None:
    script = (
        IDLE
        + """printf '{"type":"error","message":"quota"}\\n' >> "$BENCHSMITH_EVENTS"
exit 4"""
    )
    result = act(tmp_path, script)
    assert (result.outcome, result.exit_code) == ("crash", 4)
    assert result.detail == "adapter exited with status 4: quota"


def test_hanging_adapter_times_out_and_its_group_dies(tmp_path: Path) -> None:
    pids = tmp_path / "pids"
    script = f"sleep 300 & echo $! > {pids}; sleep 300 & echo $! >> {pids}; wait"
    started = time.monotonic()
    result = act(tmp_path, script, timeout=0.5)
    assert result.outcome == "timeout"
    assert result.exit_code is None
    assert time.monotonic() - started < 10
    children = [int(p) for p in pids.read_text().split()]
    deadline = time.monotonic() + 5
    while any(alive(p) for p in children) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(alive(p) for p in children)


def test_garbage_lines_become_problems_not_exceptions(tmp_path: Path) -> None:
    script = (
        'printf \'garbage\\n{"type":"usage"}\\n\\n\\377\\376\\n\' >> "$BENCHSMITH_EVENTS"\n'
        'printf \'{"type":"mystery"}\\n{"type":"idle"}\' >> "$BENCHSMITH_EVENTS"\n'
    )
    result = act(tmp_path, script)
    assert result.outcome == "idle"  # the last line has no newline: still read at exit
    codes = [(p.line, p.code) for p in result.problems]
    assert codes == [(1, "event-json"), (2, "event-field"), (4, "event-encoding"),
                     (5, "event-type")]  # fmt: skip
    assert result.problems[0].text == "garbage"


def test_problems_are_capped(tmp_path: Path) -> None:
    result = act(tmp_path, 'yes junk | head -n 5000 >> "$BENCHSMITH_EVENTS"\n' + IDLE)
    assert len(result.problems) == core.MAX_PROBLEMS + 1
    assert result.problems[-1].code == "too-many"


def test_adapter_lingering_after_idle_is_stopped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(core, "IDLE_GRACE", 0.3)
    result = act(tmp_path, IDLE + "sleep 300")
    assert result.outcome == "idle"
    assert [p.code for p in result.problems] == ["lingered"]
    assert result.seconds < 10


def test_unstartable_adapter_is_a_crash(tmp_path: Path) -> None:
    result = act(tmp_path, "exec /nonexistent/agent")
    assert result.outcome == "crash"
    assert result.exit_code == 127


def test_children_that_leave_the_group_are_swept(tmp_path: Path) -> None:
    pid_file = tmp_path / "escaped"
    script = f"setsid sh -c 'echo $$ > {pid_file}; exec sleep 300' &\nsleep 0.5\n" + IDLE
    assert act(tmp_path, script).outcome == "idle"
    pid = int(pid_file.read_text())
    assert Path(f"/proc/{pid}/stat").read_text().split()[5] != str(os.getpgid(0))
    deadline = time.monotonic() + 5
    while alive(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not alive(pid)


def test_events_file_replaced_by_a_fifo_does_not_block(tmp_path: Path) -> None:
    script = 'rm -f "$BENCHSMITH_EVENTS"; mkfifo "$BENCHSMITH_EVENTS"; sleep 0.2'
    result = act(tmp_path, script, timeout=10)
    assert result.outcome == "crash"  # it never said idle
    assert [p.code for p in result.problems] == ["event-file"]
