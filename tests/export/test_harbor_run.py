"""The export, proved with Harbor's own tools: its linter, and its orchestrator running trials.

Every trial runs on the offline environment shipped with the export (bubblewrap), with
Harbor's built-in ``oracle`` and ``nop`` agents and a probe agent that reports what an agent
sees at each step. These tests need ``.venv-harbor`` (see conftest.py).
"""

from __future__ import annotations

import hashlib
import json
import subprocess
from pathlib import Path

import pytest

from benchsmith.corpus import corpus_root_tasks
from benchsmith.dsl.load import load_task
from benchsmith.export import export_harbor
from benchsmith.workspaces import create_workspace
from tests.export.conftest import (
    EXAMPLES,
    RUN_TASKS,
    TASKS,
    HarborJob,
    require_harbor,
    run_harbor,
)

pytestmark = pytest.mark.harbor
NAMES = [task.name for task in RUN_TASKS]


@pytest.fixture(scope="session")
def oracle_job(exported: Path, harbor_workdir: Path) -> HarborJob:
    """Harbor's oracle agent (it runs solve.sh) on the four exported tasks."""
    return run_harbor(exported, harbor_workdir, harbor_workdir / "cache", "oracle", "oracle")


@pytest.fixture(scope="session")
def nop_job(exported: Path, harbor_workdir: Path) -> HarborJob:
    """Harbor's nop agent (it does nothing) on the four exported tasks."""
    return run_harbor(exported, harbor_workdir, harbor_workdir / "cache", "nop", "nop")


@pytest.fixture(scope="session")
def probe_job(exported: Path, harbor_workdir: Path) -> HarborJob:
    """The probe agent (tests/export/harbor_probe.py) on the four exported tasks."""
    agent = "tests.export.harbor_probe:ProbeAgent"
    return run_harbor(exported, harbor_workdir, harbor_workdir / "cache", agent, "probe")


@pytest.mark.parametrize("corpus", [TASKS, EXAMPLES], ids=["tasks", "examples"])
def test_harbor_lint_passes_on_every_exported_task(corpus: Path, tmp_path: Path) -> None:
    harbor = require_harbor()
    tasks = corpus_root_tasks(corpus)
    export_harbor(tasks, tmp_path)
    folders = [str(tmp_path / t.name) for t in tasks]
    for rules in ([], ["--select", "ALL"]):
        done = subprocess.run(
            [str(harbor), "lint", "--json", *rules, *folders],
            capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=300, check=False,
        )  # fmt: skip
        assert done.returncode == 0, done.stdout + done.stderr
        assert json.loads(done.stdout) == [], rules


def test_the_oracle_scores_one_on_every_task_and_step(oracle_job: HarborJob) -> None:
    assert oracle_job.rewards == dict.fromkeys(NAMES, 1.0), oracle_job.output[-3000:]
    assert oracle_job.steps["02-pantry-ledger"] == [1.0, 1.0, 1.0]
    assert oracle_job.steps["02-calendar-merge"] == [1.0, 1.0]


def test_the_do_nothing_agent_scores_zero(nop_job: HarborJob) -> None:
    assert nop_job.rewards == dict.fromkeys(NAMES, 0.0), nop_job.output[-3000:]


def test_the_verdict_and_reward_files_carry_the_judge_verdict(oracle_job: HarborJob) -> None:
    verifier = oracle_job.trials["02-pantry-ledger"] / "steps" / "returns" / "verifier"
    verdict = json.loads((verifier / "verdict.json").read_text(encoding="utf-8"))
    reward = json.loads((verifier / "reward.json").read_text(encoding="utf-8"))
    assert verdict["status"] == "pass" and verdict["stage"] == 2 and verdict["stages"] == 3
    # the example's judge accepts --stage, so step 2 of 3 is judged as of its own stage
    assert verdict["judged_as"] == "stage 2" and "stage_note" not in verdict
    assert reward["reward"] == 1.0 and reward["progress_level"] == 5
    assert reward["check:rejected_returns"] == 1
    assert (verifier / "reward.txt").read_text(encoding="utf-8") == "1.0\n"


def _expected_workspace(task_dir: Path, stage: int, tmp: Path) -> dict[str, tuple[str, bool]]:
    """benchsmith's own workspace at ``stage``: path -> (sha256, agent may write)."""
    spec = load_task(task_dir)
    made = create_workspace(task_dir, tmp / f"{task_dir.name}-{stage}", stage=stage)
    files = {}
    for path in sorted(p for p in made.rglob("*") if p.is_file()):
        rel = path.relative_to(made).as_posix()
        editable = any(rel.startswith(e.rstrip("/") + "/") or rel == e for e in spec.editable)
        files[rel] = (hashlib.sha256(path.read_bytes()).hexdigest(), editable)
    return files


@pytest.mark.parametrize("task_dir", RUN_TASKS, ids=NAMES)
def test_each_step_gives_the_agent_benchsmiths_own_workspace(
    task_dir: Path, probe_job: HarborJob, tmp_path: Path
) -> None:
    spec = load_task(task_dir)
    trial = probe_job.trials[task_dir.name]
    for number, stage in enumerate(spec.stages, 1):
        folder = trial / "steps" / stage.id if len(spec.stages) > 1 else trial
        report = json.loads((folder / "agent" / "probe.json").read_text(encoding="utf-8"))
        seen = {rel: (digest, writable) for rel, (digest, writable) in report["files"].items()}
        assert seen == _expected_workspace(task_dir, number, tmp_path), stage.id
        assert report["user"] != 0
        assert report["create_root"] and not report["create_inputs"]
        assert not report["tests"] and not report["solution"]  # no judge, no reference
        assert stage.message.strip() in report["instruction"]
        if number == 1:
            assert "TASK.md" in report["instruction"]
            assert (task_dir / "TASK.md").read_text(encoding="utf-8").strip() in report[
                "instruction"
            ]


def test_harbor_runs_stay_within_the_test_budget(
    oracle_job: HarborJob, nop_job: HarborJob, probe_job: HarborJob
) -> None:
    # Measured on a loaded 2-CPU machine: each job takes 15-40 s (images are built once per
    # session and cached). The bound only catches a run gone wrong, e.g. waiting on timeouts.
    for job in (oracle_job, nop_job, probe_job):
        assert job.seconds < 240, job.seconds
