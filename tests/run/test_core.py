"""The runner core (runtime/run.py): one lifecycle behind the lean run.py and benchsmith run."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from benchsmith.pythons import resolve_python
from benchsmith.running.data import RunOutcome
from benchsmith.running.metrics import usage_columns
from benchsmith.running.tasks import task_info
from benchsmith.runtime import run as core
from tests.run.conftest import EXAMPLES, MULTI, SERVICE, SINGLE, batch

REPLAY_LIKE = Path(__file__).with_name("replay_like.py")


def replay_like(*roots: Path) -> str:
    """The ``--agent`` value of the replay-like adapter playing the tasks under ``roots``."""
    return f"command:{sys.executable} {REPLAY_LIKE} {' '.join(str(r) for r in roots)}"


def lean(root: Path, *args: str | Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    """Run ``root/run.py`` with Python 3.12 alone (``-I``: no benchsmith, no site-packages)."""
    argv = [resolve_python(None), "-I", str(root / "run.py"), *map(str, args)]
    return subprocess.run(argv, capture_output=True, text=True, cwd=cwd, timeout=600, check=False)


def verdicts_of_lean(runs: Path) -> dict[str, tuple[str, int, list[str], list[str]]]:
    """Per task: verdict status, level, stage outcomes and compaction statuses (run.py)."""
    found = {}
    for record_file in sorted(runs.glob("*/run.json")):
        record = json.loads(record_file.read_text(encoding="utf-8"))
        verdict = record["verdict"]
        found[record["task"]["dir"]] = (
            verdict["status"], verdict["progress_level"],
            [s["outcome"] for s in record["stages"]],
            [c["status"] for c in record["compactions"]],
        )  # fmt: skip
    return found


def sdk_summary(outcome: RunOutcome) -> tuple[str, int, list[str], list[str]]:
    """What :func:`verdicts_of_lean` reads, from an SDK outcome."""
    verdict = outcome.verdict
    assert verdict is not None
    stages = [s.result.outcome if s.result else "not_reached" for s in outcome.stages]
    return verdict.status, verdict.progress_level, stages, [c.status for c in outcome.compactions]


def test_usage_keys_are_the_metrics_of_usage_events() -> None:
    columns = {c.key: ("number" if c.type is float else "int", c.required) for c in usage_columns()}
    assert dict(core.USAGE_KEYS) == columns


def test_lean_run_py_and_benchsmith_run_agree_on_the_examples(tmp_path: Path) -> None:
    agent = replay_like(EXAMPLES)
    runs = tmp_path / "lean"
    done = lean(EXAMPLES, "--agent", agent, "--all", "--runs", runs, "--unsealed", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "corpus: 3/3 strict passes" in done.stdout
    from_lean = verdicts_of_lean(tmp_path / "lean")
    result = batch(tmp_path / "sdk", [SINGLE, MULTI, SERVICE], agent, arm="like")
    from_sdk = {o.plan.task.dirname: sdk_summary(o) for o in result.outcomes}
    assert from_lean == from_sdk
    assert from_sdk[MULTI.name] == ("pass", 5, ["idle", "idle", "idle"], ["completed"])


def test_the_runner_reads_scenario_json_not_task_toml(tmp_path: Path) -> None:
    task = Path(shutil.copytree(MULTI, tmp_path / "corpus" / MULTI.name))
    for name in ("benchlib.py", "run.py"):
        shutil.copy(EXAMPLES / name, tmp_path / "corpus" / name)
    (task / "task.toml").unlink()
    scenario = json.loads((task / "scenario.json").read_text(encoding="utf-8"))
    scenario["stages"][1]["message"] = "Only scenario.json says this."
    (task / "scenario.json").write_text(json.dumps(scenario), encoding="utf-8")
    assert not (task / "stages" / "returns").exists()  # seed.py --stage 2 --only writes it
    info = task_info(task)
    assert [s.inject for s in info.stages] == ["visible/", "stages/returns/", "stages/reorder/"]
    (outcome,) = batch(tmp_path / "runs", [task], replay_like(MULTI.parent), arm="x").outcomes
    messages = [e.event["text"] for e in outcome.timeline if e.event["type"] == "user_message"]
    assert messages[1] == "Only scenario.json says this."
    assert outcome.verdict is not None and outcome.verdict.progress_level == 5


def test_services_come_from_the_judges_task_data(tmp_path: Path) -> None:
    judge = tmp_path / "judge.py"
    judge.write_text(
        "import sys\nTASK = {'services': [{'name': 'api', 'run': 'python s.py', "
        "'url_file': 'inputs/url.txt'}]}\nraise SystemExit('never run')\n",
        encoding="utf-8",
    )
    assert core.judge_services(judge) == (core.Service("api", "python s.py", "inputs/url.txt"),)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((), "the following arguments are required: --agent"),
        (("--agent", "replay", "--all"), "expected command:<shell command>"),
        (("--agent", "command:true"), "name tasks with --task or pass --all"),
        (("--agent", "command:true", "--task", "99-nothing"), "no such task"),
        (("--agent", "command:true", "--all", "--timeout", "-1"), "--timeout must be"),
    ],
)
def test_lean_usage_errors_exit_2(args: tuple[str, ...], message: str, tmp_path: Path) -> None:
    done = lean(EXAMPLES, *args, cwd=tmp_path)
    assert done.returncode == 2 and message in done.stderr, done.stderr
    assert not (tmp_path / "runs").exists()


@pytest.mark.parametrize(
    ("runs", "code", "message"),
    [
        ("a-file", 2, "--runs {runs}: not a folder"),
        ("a-file/runs", 3, "--runs {runs}: cannot write there: Not a directory"),
        ("/sys/benchsmith-runs", 3, "--runs {runs}: cannot write there: "),
        ("/proc/self/benchsmith-runs", 3, "--runs {runs}: cannot write there: "),
    ],
)
def test_lean_runs_folder_errors_are_located_and_exit_like_benchsmith_run(
    runs: str, code: int, message: str, tmp_path: Path
) -> None:
    """A runs folder that is a file, under a file, or on a read-only file system: the
    exit status ``benchsmith run`` gives (2 usage, 3 file system), the path, no traceback,
    and no agent started."""
    (tmp_path / "a-file").write_text("not a folder\n", encoding="utf-8")
    target = runs if runs.startswith("/") else str(tmp_path / runs)
    done = lean(EXAMPLES, "--agent", "command:true", "--all", "--runs", target, cwd=tmp_path)
    assert done.returncode == code, done.stderr
    assert message.format(runs=target) in done.stderr
    assert "Traceback" not in done.stderr and not done.stdout
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a-file"]
