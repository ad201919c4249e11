"""Per-stage verdicts: the runner judges each stage's snapshot with ``judge.py --stage N``
after the agent stopped, records the verdicts and the retention of each compaction."""

from __future__ import annotations

import dataclasses
import json
import sqlite3
import subprocess
import sys
import tarfile
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from benchsmith import resources
from benchsmith.running.batch import BatchResult
from benchsmith.running.records import DB_NAME, connect
from benchsmith.runtime.run import load_scenario, retention, stage_judging
from tests.run.conftest import MULTI, SINGLE, batch, invoke, write_adapter


def record(runs: Path, run_id: str) -> dict[str, Any]:
    return json.loads((runs / run_id / "run.json").read_text(encoding="utf-8"))


def test_replay_records_a_verdict_per_stage_and_retention(
    replay_runs: tuple[Path, BatchResult],
) -> None:
    runs, _ = replay_runs
    multi = record(runs, "replay--02-pantry-ledger--r001")
    assert multi["stage_judging"] == "on"
    assert [(s["stage"], s["id"]) for s in multi["stage_verdicts"]] == [
        (1, "initial"), (2, "returns"),
    ]  # fmt: skip
    assert all(s["verdict"]["status"] == "pass" for s in multi["stage_verdicts"])
    first, second = (s["verdict"] for s in multi["stage_verdicts"])
    assert first["main_checks_total"] < second["main_checks_total"]  # stage-2 checks join
    assert multi["verdict"]["status"] == "pass"  # the final verdict stays the scored one
    assert (runs / multi["run_id"] / "judge-stage1.stdout").is_file()
    assert multi["times"]["stage_judge_seconds"] > 0
    assert multi["retention"] == [
        {
            "compaction": 1, "trigger": "requested", "status": "completed", "after_stage": 1,
            "judged_stage": 1, "passed_before": 3, "lost": [], "retained": True, "reason": "",
        }
    ]  # fmt: skip
    validator = Draft202012Validator(resources.schema("run-record"))
    assert not list(validator.iter_errors(multi))
    single = record(runs, "replay--01-grade-summary--r001")
    assert (single["stage_judging"], single["stage_verdicts"], single["retention"]) == (
        "single_stage", [], []
    )  # fmt: skip


def test_stage_verdicts_are_stored_in_the_database(replay_runs: tuple[Path, BatchResult]) -> None:
    runs, _ = replay_runs
    conn = sqlite3.connect(runs / DB_NAME)
    rows = conn.execute(
        "SELECT stage, stage_id, status, progress_level, raw FROM stage_verdicts "
        "WHERE run_id = 'replay--02-pantry-ledger--r001' ORDER BY stage"
    ).fetchall()
    assert [r[:4] for r in rows] == [(1, "initial", "pass", 5), (2, "returns", "pass", 5)]
    assert [json.loads(r[4])["stage"] for r in rows] == [1, 2]
    judging = conn.execute("SELECT task, stage_judging FROM runs ORDER BY task").fetchall()
    assert judging == [("01-grade-summary", "single_stage"), ("02-pantry-ledger", "on")]


FORGET = """
import json, os, shutil
from pathlib import Path
env = os.environ
events, ws = Path(env["BENCHSMITH_EVENTS"]), Path(env["BENCHSMITH_WORKSPACE"])
def emit(**event):
    with open(events, "a") as out:
        out.write(json.dumps(event) + "\\n")
if env["BENCHSMITH_ACTION"] == "compact":
    emit(type="compaction", status="completed")
elif env["BENCHSMITH_STAGE"] == "3":
    (ws / "solution" / "stock.py").write_text("raise SystemExit(3)\\n")
else:
    shutil.copytree(REFERENCE, ws / "solution", dirs_exist_ok=True)
emit(type="idle")
"""


@pytest.fixture(scope="module")
def forget_runs(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """Example 02 by an agent that plays the reference, then breaks the program at stage 3."""
    folder = tmp_path_factory.mktemp("forget")
    body = FORGET.replace("REFERENCE", repr(str(MULTI / "reference" / "solution")))
    agent = write_adapter(folder, "forget.py", body)
    runs = folder / "runs"
    (outcome,) = batch(runs, [MULTI], agent, archive="none", arm="forget").outcomes
    return runs, outcome.run_id


def test_a_check_lost_after_the_compaction_is_reported(forget_runs: tuple[Path, str]) -> None:
    """Every check that passed before the compaction is lost, while the stage verdicts stay
    as they were."""
    runs, run_id = forget_runs
    data = record(runs, run_id)
    assert [s["verdict"]["progress_level"] for s in data["stage_verdicts"]] == [5, 5]
    assert data["verdict"]["progress_level"] < 2
    (kept,) = data["retention"]
    assert (kept["retained"], kept["passed_before"]) == (False, 3)
    assert sorted(kept["lost"]) == ["at-threshold#2", "edge:edge#1", "every_item_once_sorted"]


def test_report_shows_retention(forget_runs: tuple[Path, str], tmp_path: Path) -> None:
    runs, run_id = forget_runs
    text = invoke("report", "--runs", runs)
    assert text.exit_code == 0, text.output
    assert "retained" in text.output and "0/1 (0%)" in text.output
    assert "== retention: compactions after which earlier passing checks failed" in text.output
    assert "every_item_once_sorted" in text.output
    data = json.loads(invoke("report", "--runs", runs, "--json").output)
    (corpus,) = data["corpus"]
    assert (corpus["compactions_told"], corpus["compactions_retained"]) == (1, 0)
    assert corpus["retention_rate"] == 0.0
    (lost,) = data["lost"]
    assert lost["run_id"] == run_id and lost["compactions"][0]["retained"] is False
    page = tmp_path / "report.html"
    assert invoke("report", "--runs", runs, "--html", page).exit_code == 0
    html = page.read_text(encoding="utf-8")
    assert "Retention: compactions after which" in html and "edge:edge#1" in html


def test_report_counts_kept_compactions(replay_runs: tuple[Path, BatchResult]) -> None:
    runs, _ = replay_runs
    data = json.loads(invoke("report", "--runs", runs, "--json").output)
    by_task = {row["key"]: row for row in data["by_task"]}
    assert by_task["02-pantry-ledger"]["retention_rate"] == 1.0
    assert by_task["01-grade-summary"]["compactions_told"] == 0
    assert data["lost"] == []


def test_retention_rules() -> None:
    def verdict(status: str, *checks: tuple[str, bool]) -> dict[str, Any]:
        return {
            "status": status,
            "checks": [{"name": n, "fixture": "main", "level": 4, "passed": p} for n, p in checks],
        }

    stages = [
        {"stage": 1, "verdict": verdict("fail", ("a", True), ("b", False), ("old", True))},
        {"stage": 2, "verdict": verdict("error")},
    ]
    compactions = [
        {"number": 1, "after_stage": 1, "trigger": "requested", "status": "completed"},
        {"number": 2, "after_stage": 2, "trigger": "natural", "status": "completed"},
        {"number": 3, "after_stage": 1, "trigger": "natural", "status": "failed"},
        {"number": 4, "after_stage": 3, "trigger": "natural", "status": "completed"},
    ]
    final = verdict("fail", ("a", False), ("b", True))  # "old" applies until stage 1 only
    first, natural, too_early, after_error = retention(compactions, stages, final)
    assert (first["retained"], first["passed_before"], first["lost"]) == (False, 1, ["a"])
    assert natural["judged_stage"] == 1 and natural["retained"] is False  # during stage 2
    assert (too_early["retained"], too_early["reason"]) == (
        None, "no per-stage verdict before it"
    )  # fmt: skip
    assert (after_error["retained"], after_error["reason"]) == (
        None, "a judge error on either side"
    )  # fmt: skip
    kept = retention(compactions[:1], stages, verdict("pass", ("a", True), ("b", True)))
    assert kept[0]["retained"] is True


def test_a_judge_without_stage_option_is_judged_only_at_the_end(tmp_path: Path) -> None:
    wrapper = tmp_path / "old_judge.py"
    wrapper.write_text("import argparse\nargparse.ArgumentParser().parse_args()\n")
    scenario = load_scenario(MULTI)
    old = dataclasses.replace(
        scenario, judge_command=("python", str(wrapper), "--workspace", "{workspace}")
    )
    assert stage_judging(old, sys.executable) == "unsupported"
    assert stage_judging(scenario, sys.executable) == "on"
    assert stage_judging(load_scenario(SINGLE), sys.executable) == "single_stage"


def test_an_older_database_gains_the_stage_verdicts_table(tmp_path: Path) -> None:
    path = tmp_path / DB_NAME
    connect(path).close()
    conn = sqlite3.connect(path)
    conn.execute("DROP TABLE stage_verdicts")
    conn.commit()
    conn.close()
    reopened = connect(path)
    assert reopened.execute("SELECT count(*) FROM stage_verdicts").fetchone()[0] == 0


def test_the_lean_runner_records_stage_verdicts_and_retention(tmp_path: Path) -> None:
    """The corpus's run.py shares the lifecycle: same per-stage records, a retained column."""
    from benchsmith.export.standalone import export_standalone
    from tests.export.test_standalone import agent, references

    adapter = agent(tmp_path, references(tmp_path, [MULTI]))
    export_standalone([MULTI], tmp_path / "out", allow_partial=True)
    bundle = tmp_path / "out" / "benchmarks" / "python-realworld-30"
    done = subprocess.run(
        [sys.executable, "-I", "run.py", "--agent", adapter, "--task", "02-pantry-ledger",
         "--runs", tmp_path / "runs", "--unsealed"],
        cwd=bundle, capture_output=True, text=True, timeout=900, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    assert "retained" in done.stdout.splitlines()[0]
    (path,) = (tmp_path / "runs").glob("*/run.json")
    data = json.loads(path.read_text(encoding="utf-8"))
    validator = resources.schema_validator("lean-run-record")
    assert not [e.message for e in validator.iter_errors(data)]  # the record has a schema
    assert list(validator.iter_errors({**data, "figures": {}}))  # which can fail
    assert data["stage_judging"] == "on"
    assert [s["verdict"]["status"] for s in data["stage_verdicts"]] == ["pass", "pass"]
    assert [r["retained"] for r in data["retention"]] == [True]
    assert data["settings"] == {"provider": None, "model": None, "reasoning": None}
    assert data["artifacts"] == {"workspace": "workspace.tar.gz"}  # spec 5.8: the final workspace
    with tarfile.open(path.parent / "workspace.tar.gz") as archive:
        names = archive.getnames()
    assert "TASK.md" in names and "solution/stock.py" in names
