"""End to end: the runner drives adapters through the example tasks and records everything."""

from __future__ import annotations

import json
import sqlite3
import tarfile
import textwrap
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from benchsmith import resources
from benchsmith.errors import UsageError
from benchsmith.running.batch import BatchResult
from benchsmith.running.records import DB_NAME
from tests.run.conftest import MULTI, SINGLE, batch, write_adapter


def db(runs: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(runs / DB_NAME)
    conn.row_factory = sqlite3.Row
    return conn


def timeline(conn: sqlite3.Connection, run_id: str) -> list[tuple[str, str, int]]:
    """(action, type, stage) of every timeline entry, in order."""
    rows = conn.execute(
        "SELECT action, type, stage FROM events WHERE run_id = ? ORDER BY seq", (run_id,)
    )
    return [(r["action"], r["type"], r["stage"]) for r in rows]


def test_replay_single_stage_reaches_level_5(replay_runs: tuple[Path, BatchResult]) -> None:
    runs, _ = replay_runs
    conn = db(runs)
    run = conn.execute(
        "SELECT * FROM runs JOIN verdicts USING (run_id) WHERE task = '01-grade-summary'"
    ).fetchone()
    assert (run["status"], run["end_reason"], run["kind"], run["repeat"]) == (
        "finished", "completed", "primary", 1
    )  # fmt: skip
    assert (run["status"], run["progress_level"]) == ("finished", 5)
    assert run["run_id"] == "replay--01-grade-summary--r001"
    assert conn.execute(
        "SELECT count(*) FROM compactions WHERE run_id = ?", (run["run_id"],)
    ).fetchone()[0] == 0  # fmt: skip


def test_replay_multi_stage_compacts_after_stage_1_then_judges(
    replay_runs: tuple[Path, BatchResult],
) -> None:
    runs, _ = replay_runs
    conn = db(runs)
    run_id = "replay--02-pantry-ledger--r001"
    steps = [
        (action, kind, stage)
        for action, kind, stage in timeline(conn, run_id)
        if kind in ("user_message", "idle", "compaction_requested", "compaction", "done",
                    "stage_injected", "agent_stopped", "judge_started", "judge_finished")
    ]  # fmt: skip
    assert steps == [
        ("runner", "user_message", 1), ("message", "done", 1), ("message", "idle", 1),
        ("runner", "compaction_requested", 1), ("compact", "compaction", 1),
        ("compact", "idle", 1), ("runner", "stage_injected", 2),
        ("runner", "user_message", 2), ("message", "done", 2), ("message", "idle", 2),
        ("runner", "stage_injected", 3), ("runner", "user_message", 3),
        ("message", "done", 3), ("message", "idle", 3),
        ("runner", "agent_stopped", 3), ("runner", "judge_started", 3),
        ("runner", "judge_finished", 3),
    ]  # fmt: skip
    compaction = conn.execute("SELECT * FROM compactions WHERE run_id = ?", (run_id,)).fetchone()
    assert (compaction["after_stage"], compaction["trigger"], compaction["status"]) == (
        1, "requested", "completed"
    )  # fmt: skip
    stages = conn.execute(
        "SELECT outcome, done_seen FROM stages WHERE run_id = ? ORDER BY number", (run_id,)
    ).fetchall()
    assert [tuple(s) for s in stages] == [("idle", 1)] * 3  # early "done" never ended the run
    verdict = conn.execute("SELECT * FROM verdicts WHERE run_id = ?", (run_id,)).fetchone()
    assert (verdict["status"], verdict["progress_level"]) == ("pass", 5)


def test_judge_time_is_outside_agent_time(replay_runs: tuple[Path, BatchResult]) -> None:
    _runs, result = replay_runs
    for outcome in result.outcomes:
        times = outcome.times
        assert times.judge > 0 and times.agent > 0
        assert times.agent + times.setup + times.inject <= times.lifecycle + 1e-6
        stopped = [e.t for e in outcome.timeline if e.event["type"] == "agent_stopped"]
        judged = [e.t for e in outcome.timeline if e.event["type"] == "judge_started"]
        assert stopped[0] <= judged[0]
        finished = [e.t for e in outcome.timeline if e.event["type"] == "judge_finished"]
        assert finished[0] - judged[0] == pytest.approx(times.judge, abs=0.2)
        stage_judged = [e.t for e in outcome.timeline if e.event["type"] == "stage_judged"]
        assert all(t >= finished[0] for t in stage_judged)  # after the scored verdict
        assert times.lifecycle <= judged[0] + 1e-6


def test_run_json_follows_the_schema_and_matches_the_database(
    replay_runs: tuple[Path, BatchResult],
) -> None:
    runs, _ = replay_runs
    validator = Draft202012Validator(resources.schema("run-record"))
    conn = db(runs)
    for run_dir in sorted(p for p in runs.iterdir() if (p / "run.json").is_file()):
        record = json.loads((run_dir / "run.json").read_text(encoding="utf-8"))
        assert not list(validator.iter_errors(record))
        usage = conn.execute(
            "SELECT sum(input_tokens), sum(output_tokens), sum(cache_read_tokens), "
            "sum(CASE WHEN kind = 'main' THEN calls END) FROM usage WHERE run_id = ?",
            (record["run_id"],),
        ).fetchone()
        figures = record["usage"]
        assert tuple(usage) == (
            figures["input_tokens"], figures["output_tokens"], figures["cache_read_tokens"],
            figures["main_calls"],
        )  # fmt: skip
        for line in (run_dir / "events.jsonl").read_text(encoding="utf-8").splitlines():
            entry = json.loads(line)
            assert entry["source"] in ("adapter", "runner")
        assert (run_dir / "transcript.md").read_text(encoding="utf-8").startswith("# ")
        assert (run_dir / "judge.stdout").is_file()


def test_final_workspace_is_archived_deterministically(
    replay_runs: tuple[Path, BatchResult],
) -> None:
    runs, _ = replay_runs
    archive = runs / "replay--02-pantry-ledger--r001" / "workspace.tar.gz"
    with tarfile.open(archive) as tar:
        members = {m.name: m for m in tar.getmembers()}
    assert "solution/stock.py" in members and "inputs/policy.json" in members
    assert members["inputs/movements.csv"].mode == 0o444  # read-only input, as the agent saw
    assert {m.mtime for m in members.values()} == {0}
    assert list(members) == sorted(members)


def test_nop_scores_level_0_and_its_compaction_fails(tmp_path: Path) -> None:
    runs = tmp_path / "runs"
    result = batch(runs, [MULTI], "nop", archive="none")
    (outcome,) = result.outcomes
    assert outcome.end_reason == "completed"
    assert outcome.verdict is not None and outcome.verdict.progress_level == 0
    (compaction,) = outcome.compactions
    assert (compaction.status, compaction.detail) == (
        "failed", "the adapter reported no compaction event"
    )  # fmt: skip
    assert not (runs / outcome.run_id / "workspace.tar.gz").exists()


HANG = """\
import os, subprocess, sys
child = subprocess.Popen(["sleep", "300"])
with open(sys.argv[1], "a") as out:
    out.write(f"{child.pid}\\n")
with open(os.environ["BENCHSMITH_EVENTS"], "a") as events:
    events.write('{"type": "assistant", "text": "thinking"}\\n')
child.wait()
"""


def test_hanging_adapter_times_out_and_is_killed(tmp_path: Path) -> None:
    from tests.run.test_invoke import alive

    pids = tmp_path / "pids.txt"
    agent = write_adapter(tmp_path, "hang.py", HANG) + f" {pids}"
    result = batch(tmp_path / "runs", [MULTI], agent, arm="hang", timeout=1.0)
    (outcome,) = result.outcomes
    assert outcome.end_reason == "timeout"
    assert outcome.end_detail == "timed out during message at stage 1"
    assert outcome.plan.timeout_overridden and outcome.plan.timeout_seconds == 1.0
    assert 1.0 <= outcome.times.agent < 5
    assert [s.result.outcome if s.result else None for s in outcome.stages] == [
        "timeout", None, None
    ]  # fmt: skip
    assert outcome.verdict is not None and outcome.verdict.progress_level == 0  # still judged
    (pid,) = [int(p) for p in pids.read_text().split()]
    assert not alive(pid)
    row = db(tmp_path / "runs").execute("SELECT * FROM runs").fetchone()
    assert (row["end_reason"], row["timeout_overridden"], row["timeout_seconds"]) == (
        "timeout", 1, 1.0
    )  # fmt: skip


GARBAGE = """\
import os, sys
with open(os.environ["BENCHSMITH_EVENTS"], "ab") as events:
    events.write(b"\\x00\\xff not an event\\n{\\"type\\": \\"usage\\", \\"model\\": 7}\\n")
    events.write(b'{"type": "tool_call", "name": "bash", "result_bytes": 10}\\n')
    events.write(b'{"type": "idle"}\\n')
"""


def test_garbage_events_are_recorded_as_diagnostics(tmp_path: Path) -> None:
    agent = write_adapter(tmp_path, "garbage.py", GARBAGE)
    result = batch(tmp_path / "runs", [SINGLE], agent, arm="garbage")
    (outcome,) = result.outcomes
    assert outcome.end_reason == "completed"
    conn = db(tmp_path / "runs")
    rows = conn.execute("SELECT line, code FROM diagnostics ORDER BY number").fetchall()
    assert [tuple(r) for r in rows] == [(1, "event-encoding"), (2, "event-field")]
    tools = conn.execute("SELECT count(*), sum(result_bytes) FROM events WHERE type = 'tool_call'")
    assert tuple(tools.fetchone()) == (1, 10)


CRASH = """\
import os, sys
with open(os.environ["BENCHSMITH_EVENTS"], "a") as events:
    events.write('{"type": "error", "message": "invalid API key"}\\n')
sys.exit(2)
"""


def test_crashing_adapter_ends_the_run_with_a_reason(tmp_path: Path) -> None:
    agent = write_adapter(tmp_path, "crash.py", CRASH)
    (outcome,) = batch(tmp_path / "runs", [MULTI], agent, arm="crash").outcomes
    assert outcome.end_reason == "adapter_crash"
    assert outcome.end_detail == "stage 1 message: adapter exited with status 2: invalid API key"
    assert outcome.compactions == []  # no compaction requested after a crashed stage
    assert outcome.verdict is not None


SNAPSHOT = """\
import hashlib, json, os, sys
root = os.getcwd()
files = {}
for folder, dirs, names in os.walk(root):
    for name in names:
        path = os.path.join(folder, name)
        with open(path, "rb") as stream:
            files[os.path.relpath(path, root)] = hashlib.sha256(stream.read()).hexdigest()
env = {k: v for k, v in os.environ.items() if k.startswith("BENCHSMITH_")}
with open(sys.argv[1], "a") as out:
    out.write(json.dumps({"action": env["BENCHSMITH_ACTION"], "stage": env["BENCHSMITH_STAGE"],
                          "cwd": root, "files": files, "env": env}) + "\\n")
with open(env["BENCHSMITH_EVENTS"], "a") as events:
    if env["BENCHSMITH_ACTION"] == "compact":
        events.write('{"type": "compaction", "status": "completed"}\\n')
    events.write('{"type": "idle"}\\n')
"""


def _digests(root: Path) -> dict[str, str]:
    import hashlib

    return {
        p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in root.rglob("*")
        if p.is_file() and "__pycache__" not in p.parts
    }


def _private_digests(task: Path, tmp: Path) -> set[str]:
    """Digests of every private file: task files, reference, witnesses, edge-only inputs."""
    from benchsmith.running.tasks import task_info
    from benchsmith.runtime import benchlib

    private = {
        d
        for rel, d in _digests(task).items()
        if rel.split("/")[0] in benchlib.PRIVATE_NAMES and rel != "TASK.md"
    }
    layout = task_info(task).layout
    edge = benchlib.materialize(layout, tmp / "edge", fixture="edge")
    main = benchlib.materialize(layout, tmp / "main", fixture="main")
    return private | (set(_digests(edge).values()) - set(_digests(main).values()))


def test_agent_never_sees_private_files(tmp_path: Path, quiet_env: None) -> None:
    log = tmp_path / "snapshots.jsonl"
    agent = write_adapter(tmp_path, "snapshot.py", SNAPSHOT) + f" {log}"
    runs = tmp_path / "runs"
    batch(runs, [MULTI], agent, arm="snapshot")
    snapshots = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    assert [(s["action"], s["stage"]) for s in snapshots] == [
        ("message", "1"), ("compact", "1"), ("message", "2"), ("message", "3")
    ]  # fmt: skip
    private = _private_digests(MULTI, tmp_path)
    assert private
    task_dir, runs_dir = str(MULTI.resolve()), str(runs.resolve())
    for snapshot in snapshots:
        assert not private & set(snapshot["files"].values()), snapshot["files"]
        assert not any(n in snapshot["files"] for n in ("judge.py", "seed.py", "task.toml"))
        assert "BENCHSMITH_REFERENCE" not in snapshot["env"]
        for value in [snapshot["cwd"], *snapshot["env"].values()]:
            assert task_dir not in value and runs_dir not in value
    files = [set(s["files"]) for s in snapshots]
    assert "inputs/returns.csv" not in files[0] and "inputs/returns.csv" in files[2]
    assert "inputs/policy.json" not in files[2] and "inputs/policy.json" in files[3]


def test_runs_append_across_invocations_without_retrying(tmp_path: Path) -> None:
    runs = tmp_path / "runs"
    batch(runs, [SINGLE], "nop", archive="none")
    batch(runs, [SINGLE], "nop", archive="none", repeat=2)
    batch(runs, [SINGLE], "nop", archive="none", diagnostic=True)
    rows = db(runs).execute("SELECT run_id, kind, repeat FROM runs ORDER BY run_id").fetchall()
    assert [tuple(r) for r in rows] == [
        ("nop--01-grade-summary--d001", "diagnostic", 1),
        ("nop--01-grade-summary--r001", "primary", 1),
        ("nop--01-grade-summary--r002", "primary", 2),
        ("nop--01-grade-summary--r003", "primary", 3),
    ]


def test_an_arm_keeps_its_adapter(tmp_path: Path) -> None:
    runs = tmp_path / "runs"
    batch(runs, [SINGLE], "nop", arm="candidate", archive="none")
    with pytest.raises(UsageError, match="was recorded with --agent 'nop'"):
        batch(runs, [SINGLE], "replay", arm="candidate")


def test_broken_task_is_a_setup_error_not_a_crash(tmp_path: Path) -> None:
    import shutil

    task = Path(shutil.copytree(SINGLE, tmp_path / "corpus" / SINGLE.name))
    shutil.copy2(SINGLE.parent / "benchlib.py", tmp_path / "corpus" / "benchlib.py")
    seed = task / "seed.py"
    seed.write_text(textwrap.dedent("import sys\nsys.exit('seed broke')\n"), encoding="utf-8")
    (outcome,) = batch(tmp_path / "runs", [task], "replay").outcomes
    assert outcome.end_reason == "setup_error"
    assert "seed broke" in outcome.end_detail
    assert outcome.verdict is None and outcome.timeline == []


@pytest.mark.slow
def test_parallel_runs_record_every_run(tmp_path: Path) -> None:
    runs = tmp_path / "runs"
    result = batch(runs, [SINGLE, MULTI], "replay", jobs=2, repeat=2, archive="none")
    levels = sorted((o.run_id, o.verdict.progress_level if o.verdict else None)
                    for o in result.outcomes)  # fmt: skip
    assert levels == [
        ("replay--01-grade-summary--r001", 5), ("replay--01-grade-summary--r002", 5),
        ("replay--02-pantry-ledger--r001", 5), ("replay--02-pantry-ledger--r002", 5),
    ]  # fmt: skip
    statuses = db(runs).execute("SELECT DISTINCT status FROM runs").fetchall()
    assert [tuple(s) for s in statuses] == [("finished",)]
    assert not (runs / ".judge-cache").exists()


def test_interrupted_batches_mark_unfinished_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from benchsmith.running import batch as batch_module

    real = batch_module.execute_run
    calls: list[str] = []

    def interrupt_second(plan: object) -> object:
        calls.append(str(plan))
        if len(calls) == 2:
            raise KeyboardInterrupt
        return real(plan)  # type: ignore[arg-type]

    monkeypatch.setattr(batch_module, "execute_run", interrupt_second)
    with pytest.raises(KeyboardInterrupt):
        batch(tmp_path / "runs", [SINGLE], "nop", repeat=3, archive="none")
    rows = db(tmp_path / "runs").execute("SELECT repeat, status, end_reason FROM runs")
    assert [tuple(r) for r in rows] == [
        (1, "finished", "completed"), (2, "interrupted", "interrupted"),
        (3, "interrupted", "interrupted"),
    ]  # fmt: skip


SERVICE_TASK = """\
id = 9
slug = "price-lookup"
title = "Price Lookup"
pressure = "N"
command = "python -m solution.main --output output"
prose = "Fetch the prices from the service at the URL in inputs/base_url.txt."

[[outputs]]
path = "output/prices.json"

[[files]]
path = "inputs/items.csv"
rows = 3
columns.item = { seq = "I{:02d}" }

[[services]]
name = "catalog"
run = "python inputs/server.py"
url_file = "inputs/base_url.txt"

[edge]
rule = "Nothing special."
"""

SERVER = """\
import argparse, http.server, json, os
parser = argparse.ArgumentParser()
parser.add_argument("--port", type=int, default=0)
server_port = parser.parse_args().port
class Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        body = json.dumps({"pid": os.getpid()}).encode()
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
    def log_message(self, *args):
        pass
server = http.server.HTTPServer(("127.0.0.1", server_port), Handler)
print(f"LISTENING {server.server_address[1]}", flush=True)
server.serve_forever()
"""

FETCH = """\
import json, os, urllib.request
url = open("inputs/base_url.txt").read().strip()
body = urllib.request.urlopen(url, timeout=10).read().decode()
with open(os.environ["BENCHSMITH_EVENTS"], "a") as events:
    events.write(json.dumps({"type": "assistant", "text": body}) + "\\n")
    events.write(json.dumps({"type": "idle"}) + "\\n")
"""


def test_services_run_during_the_agent_run_and_stop_after(tmp_path: Path) -> None:
    from benchsmith.building import build
    from tests.run.test_invoke import alive

    task = tmp_path / "corpus" / "09-price-lookup"
    (task / "visible" / "inputs").mkdir(parents=True)
    (task / "task.toml").write_text(SERVICE_TASK, encoding="utf-8")
    (task / "visible" / "inputs" / "server.py").write_text(SERVER, encoding="utf-8")
    build([task])
    agent = write_adapter(tmp_path, "fetch.py", FETCH)
    (outcome,) = batch(tmp_path / "runs", [task], agent, arm="fetch").outcomes
    assert outcome.end_reason == "completed", outcome.end_detail
    (started,) = [e.event for e in outcome.timeline if e.event["type"] == "service_started"]
    assert started["url"].startswith("http://127.0.0.1:")
    (answer,) = [e.event["text"] for e in outcome.timeline if e.event["type"] == "assistant"]
    assert not alive(json.loads(answer)["pid"])
    kinds = [e.event["type"] for e in outcome.timeline if e.source == "runner"]
    assert kinds.index("services_stopped") < kinds.index("judge_started")
    with tarfile.open(tmp_path / "runs" / outcome.run_id / "workspace.tar.gz") as tar:
        url_file = tar.getmember("inputs/base_url.txt")
        assert url_file.mode == 0o444
        assert tar.extractfile(url_file).read().decode() == started["url"] + "\n"  # type: ignore[union-attr]
