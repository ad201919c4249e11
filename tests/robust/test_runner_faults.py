"""Kill `run` and `report` at seeded random points: no row stays pending, nothing is half
written, no process or temporary folder is left once the next command ran.

Each iteration starts the real CLI as a subprocess (its own process group and ``TMPDIR``),
sends it SIGKILL, SIGINT or SIGTERM after a seeded random delay within its typical duration,
then checks:

* a signal it could handle ended it quietly: exit 130 or 143 (or 0 if it had finished), no
  traceback;
* no process it started is left (its group, and anything whose environment or command line
  names its ``TMPDIR``, such as an adapter in its own session or a sandbox);
* once the next ``report`` ran (which marks the runs of dead invocations ``interrupted`` and
  sweeps their temporary folders): runs.db passes SQLite's integrity check, no row is
  ``pending``, every run.json parses and agrees with its row, no temporary record file is
  left, and the ``TMPDIR`` holds no folder of the runner's;
* the next ``run`` works.

``BENCHSMITH_FAULT_ITERATIONS`` and ``BENCHSMITH_FAULT_SEED`` work as in
test_fault_injection.py.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from tests.robust.test_fault_injection import (
    ITERATIONS,
    SEED,
    SIGNALS,
    assert_group_gone,
    assert_quiet,
    await_handlers,
)
from tests.run.conftest import SINGLE

PARALLEL = 2
CLI = [sys.executable, "-m", "benchsmith"]


def argv_of(command: str, runs: Path) -> list[str]:
    if command == "run":
        return [*CLI, "run", str(SINGLE), "--agent", "nop", "--runs", str(runs), "--archive",
                "none"]  # fmt: skip
    return [*CLI, "report", "--runs", str(runs)]


def environment(temp: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("BENCHSMITH_")}
    return {**env, "TMPDIR": str(temp)}


def strays(marker: str) -> list[str]:
    """Processes whose environment or command line names ``marker``."""
    found = []
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit() or int(proc.name) == os.getpid():
            continue
        try:
            text = (proc / "environ").read_bytes() + (proc / "cmdline").read_bytes()
        except OSError:
            continue
        if marker.encode() in text:
            found.append(f"{proc.name}: {(proc / 'cmdline').read_bytes()[:200]!r}")
    return found


def assert_no_strays(marker: str) -> None:
    deadline = time.monotonic() + 10
    while (left := strays(marker)) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not left, left


def run_and_kill(argv: list[str], temp: Path, delay: float, sig: int) -> tuple[int, str]:
    proc = subprocess.Popen(
        argv, env=environment(temp), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True, start_new_session=True,
    )  # fmt: skip
    await_handlers(proc)
    try:
        proc.wait(timeout=delay)
    except subprocess.TimeoutExpired:
        proc.send_signal(sig)
    _, err = proc.communicate(timeout=180)
    assert_group_gone(proc.pid)
    return proc.returncode, err


def assert_consistent(runs: Path, where: str) -> None:
    with sqlite3.connect(runs / "runs.db") as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok", where
        rows = conn.execute("SELECT run_id, status, end_reason FROM runs").fetchall()
    for run_id, status, reason in rows:
        assert status in ("finished", "interrupted"), (where, run_id, status)
        record = runs / run_id / "run.json"
        if record.exists():
            assert json.loads(record.read_text(encoding="utf-8"))["end_reason"] == reason, where
        else:
            assert status == "interrupted", (where, run_id)
    assert not list(runs.rglob(".run-*")), where


def prepared(template: Path, root: Path) -> tuple[Path, Path]:
    """A copy of the runs folder ``template`` and an empty ``TMPDIR`` under ``root``."""
    root.mkdir(parents=True)
    shutil.copytree(template, root / "runs")
    (root / "tmp").mkdir()
    return root / "runs", root / "tmp"


@pytest.mark.slow
@pytest.mark.parametrize("command", ["run", "report"])
def test_killed_runs_and_reports_leave_consistent_records(tmp_path: Path, command: str) -> None:
    template, temp = prepared_template(tmp_path)
    started = time.monotonic()
    done = subprocess.run(argv_of(command, template), env=environment(temp), capture_output=True)
    assert done.returncode == 0, done.stderr
    duration = time.monotonic() - started
    rng = random.Random(f"{SEED}/{command}")
    plans = [(rng.choice(SIGNALS), rng.uniform(0.0, duration)) for _ in range(ITERATIONS)]
    places = [prepared(template, tmp_path / f"it{n}") for n in range(ITERATIONS)]

    def kill(n: int) -> tuple[int, str]:
        sig, delay = plans[n]
        runs, temp = places[n]
        return run_and_kill(argv_of(command, runs), temp, delay, sig)

    with ThreadPoolExecutor(max_workers=PARALLEL) as pool:
        ended = list(pool.map(kill, range(ITERATIONS)))
    worked = False
    for n, (code, err) in enumerate(ended):
        sig, delay = plans[n]
        runs, temp = places[n]
        where = f"iteration {n}: {signal.Signals(sig).name} after {delay:.2f} s"
        assert_quiet(code, err, sig)
        assert_no_strays(str(temp))
        report = subprocess.run(argv_of("report", runs), env=environment(temp), capture_output=True)
        assert report.returncode == 0, (where, report.stderr)
        assert_consistent(runs, where)
        assert sorted(p.name for p in temp.iterdir()) == [], where
        if not worked:  # the next run works after a kill
            again = subprocess.run(argv_of("run", runs), env=environment(temp), capture_output=True)
            assert again.returncode == 0, (where, again.stderr)
            assert_consistent(runs, where)
            worked = True


def prepared_template(tmp_path: Path) -> tuple[Path, Path]:
    """A runs folder holding one finished run, and the ``TMPDIR`` that made it."""
    runs, temp = tmp_path / "template" / "runs", tmp_path / "template" / "tmp"
    temp.mkdir(parents=True)
    made = subprocess.run(argv_of("run", runs), env=environment(temp), capture_output=True)
    assert made.returncode == 0, made.stderr
    return runs, temp
