"""The runner on full and read-only file systems: the real error, exit 3, no row left pending.

A full disk fails SQLite's own write and rolls the transaction back; the runner then names
that error (never "cannot rollback"). When even marking the unfinished runs fails, the next
``report`` (or ``run``) marks them ``interrupted``, in runs.db and in any run.json alike.
"""

from __future__ import annotations

import json
import os
import sqlite3
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.robust.system import fill, read_only, small_tmpfs
from tests.run.conftest import SINGLE

Invoke = Callable[..., Any]

FLOOD = """\
import os
with open(os.environ["BENCHSMITH_EVENTS"], "a") as events:
    for n in range(400):
        events.write('{"type": "assistant", "text": "%s"}\\n' % ("x" * 1000))
    events.write('{"type": "idle"}\\n')
"""


def rows(runs: Path) -> list[tuple[str, str, str | None]]:
    with sqlite3.connect(runs / "runs.db") as conn:
        return conn.execute(
            "SELECT run_id, status, end_reason FROM runs ORDER BY run_id"
        ).fetchall()


def assert_records_agree(runs: Path) -> None:
    """No row pending; every run.json says what its row says."""
    for run_id, status, reason in rows(runs):
        assert status in ("finished", "interrupted"), (run_id, status)
        record = runs / run_id / "run.json"
        if record.exists():
            assert json.loads(record.read_text(encoding="utf-8"))["end_reason"] == reason
        else:
            assert status == "interrupted", run_id


def assert_clean_failure(result: Any, *words: str) -> None:
    assert result.exit_code == 3, result.output
    assert "Traceback" not in result.output and "cannot rollback" not in result.output
    assert " BS001 " in result.output
    assert any(w in result.output for w in words), result.output


def test_a_full_disk_before_the_runs_start(cli: Invoke, tmp_path: Path) -> None:
    with small_tmpfs(tmp_path / "disk") as disk:
        runs = disk / "runs"
        assert (
            cli("run", SINGLE, "--agent", "nop", "--runs", runs, "--archive", "none").exit_code == 0
        )
        fill(disk)
        result = cli("run", SINGLE, "--agent", "nop", "--runs", runs, "--archive", "none")
        assert_clean_failure(result, "disk is full", "No space left")
        assert_records_agree(runs)
        (disk / "filler").unlink()
        again = cli("run", SINGLE, "--agent", "nop", "--runs", runs, "--archive", "none")
        assert again.exit_code == 0, again.output
        assert [r[1] for r in rows(runs)] == ["finished", "finished"]


def test_a_disk_filling_during_a_run_leaves_no_pending_row(cli: Invoke, tmp_path: Path) -> None:
    agent = tmp_path / "flood.py"
    agent.write_text(FLOOD, encoding="utf-8")
    with small_tmpfs(tmp_path / "disk") as disk:
        runs = disk / "runs"
        assert (
            cli("run", SINGLE, "--agent", "nop", "--runs", runs, "--archive", "none").exit_code == 0
        )
        free = os.statvfs(disk)
        keep = 256 << 10  # room to reserve the row, not to record 400 kB of events
        with open(disk / "filler", "wb") as filler:
            os.posix_fallocate(filler.fileno(), 0, free.f_bavail * free.f_frsize - keep)
        result = cli(
            "run", SINGLE, "--agent", f"command:{sys.executable} {agent}", "--unsealed",
            "--runs", runs, "--archive", "none",
        )  # fmt: skip
        assert_clean_failure(result, "No space left", "disk is full")
        assert not list(runs.rglob(".run-*"))  # no half-written run.json
        (disk / "filler").unlink()
        report = cli("report", "--runs", runs)
        assert report.exit_code == 0, report.output
        assert_records_agree(runs)
        assert sorted(r[1] for r in rows(runs)) == ["finished", "interrupted"]


def test_a_read_only_runs_folder(cli: Invoke, tmp_path: Path) -> None:
    runs = tmp_path / "records" / "runs"
    assert cli("run", SINGLE, "--agent", "nop", "--runs", runs, "--archive", "none").exit_code == 0
    with read_only(tmp_path / "records"):
        result = cli("run", SINGLE, "--agent", "nop", "--runs", runs, "--archive", "none")
        assert_clean_failure(result, "readonly", "read-only")
        fresh = cli("run", SINGLE, "--agent", "nop", "--runs", tmp_path / "records" / "new")
        assert_clean_failure(fresh, "read-only")
        report = cli("report", "--runs", runs)  # reading still works
        assert report.exit_code == 0, report.output
    assert_records_agree(runs)
    assert len(rows(runs)) == 1
