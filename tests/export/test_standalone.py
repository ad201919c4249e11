"""``benchsmith export standalone``: the spec's bundle, runnable by Python 3.12 alone."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from benchsmith.export.standalone import export_standalone
from benchsmith.pythons import resolve_python
from benchsmith.running.batch import BatchOptions, run_batch
from tests.export.conftest import EXAMPLES, TASKS

REPLAY_LIKE = Path(__file__).resolve().parents[1] / "run" / "replay_like.py"
AUTHORING = {"task.toml", "benchsmith.lock", "reference", "witnesses", "mutants"}


def tree_digest(root: Path) -> dict[str, str]:
    """Relative path -> mode and SHA-256 of every file and folder under ``root``."""
    found = {}
    for folder, dirs, files in os.walk(root):
        for name in sorted(dirs + files):
            path = Path(folder, name)
            data = path.read_bytes() if path.is_file() else b""
            mode = oct(path.stat().st_mode & 0o777)
            found[path.relative_to(root).as_posix()] = f"{mode} {hashlib.sha256(data).hexdigest()}"
    return found


def references(tmp: Path, task_dirs: list[Path]) -> Path:
    """Copies of each task's TASK.md and reference/ where a sealed agent can read them."""
    refs = tmp / "refs"
    for task in task_dirs:
        shutil.copytree(task / "reference", refs / task.name / "reference")
        shutil.copy(task / "TASK.md", refs / task.name / "TASK.md")
    shutil.copy(REPLAY_LIKE, tmp / "replay_like.py")
    return refs


def agent(tmp: Path, refs: Path) -> str:
    return f"command:{resolve_python(None)} {tmp / 'replay_like.py'} {refs}"


def test_the_bundle_follows_the_spec_layout_with_the_same_bytes(
    tmp_path: Path, cli: Callable[..., Any]
) -> None:
    partial = "--allow-partial"  # the examples are not the spec's 30 tasks
    result = cli(
        "export", "standalone", "--all", "--corpus", EXAMPLES, "--out", tmp_path / "a", partial
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    export_standalone(sorted(EXAMPLES.glob("0*")), tmp_path / "b", allow_partial=True)
    bundle = tmp_path / "a" / "benchmarks" / "python-realworld-30"
    assert tree_digest(bundle) == tree_digest(tmp_path / "b" / "benchmarks" / "python-realworld-30")
    assert sorted(p.name for p in bundle.iterdir()) == [
        "README.md", "benchlib.py", "run.py", "tasks", "tasks.json",
    ]  # fmt: skip
    index = json.loads((bundle / "tasks.json").read_text(encoding="utf-8"))
    assert [t["path"] for t in index["tasks"]] == [
        "tasks/01-grade-summary",
        "tasks/02-pantry-ledger",
        "tasks/03-catalog-crawl",
    ]
    ledger = bundle / "tasks" / "02-pantry-ledger"
    assert sorted(p.name for p in ledger.iterdir()) == [
        "TASK.md", "edge", "judge.py", "scenario.json", "seed.py", "stages", "visible",
    ]  # fmt: skip
    scenario = json.loads((ledger / "scenario.json").read_text(encoding="utf-8"))
    for stage in scenario["stages"]:  # every inject folder is real, seed.py's files included
        assert (ledger / stage["inject"]).is_dir(), stage["inject"]
    assert (ledger / "stages" / "returns" / "inputs" / "returns.csv").is_file()
    names = {p.name for p in bundle.rglob("*")}
    assert not names & AUTHORING
    assert not [n for n in names if n.endswith(".patch")]  # witnesses/stage1.patch included
    readme = (bundle / "README.md").read_text(encoding="utf-8")
    assert "python3.12 run.py --agent" in readme and "| 02 | [pantry-ledger]" in readme
    assert "**Partial bundle:** 3 of the spec's 30 tasks; missing ids: 04, 05," in readme
    again = cli(
        "export", "standalone", "--all", "--corpus", EXAMPLES, "--out", tmp_path / "a", partial
    )  # fmt: skip
    assert again.exit_code == 0, again.output
    (tmp_path / "c" / "benchmarks" / "python-realworld-30").mkdir(parents=True)
    refused = cli(
        "export", "standalone", "--all", "--corpus", EXAMPLES, "--out", tmp_path / "c", partial
    )  # fmt: skip
    assert refused.exit_code == 2 and "is not a benchsmith export" in refused.output


def test_a_partial_bundle_is_refused_without_allow_partial(
    tmp_path: Path, cli: Callable[..., Any]
) -> None:
    out = tmp_path / "out"
    refused = cli("export", "standalone", "--all", "--corpus", EXAMPLES, "--out", out)
    assert refused.exit_code == 2
    message = " ".join(refused.output.split())
    assert "python-realworld-30 would hold 3 of the spec's 30 tasks" in message
    assert "missing ids: 04, 05, 06," in message and "28, 29, 30)" in message
    assert "--allow-partial" in message
    assert not out.exists()  # nothing written


# Corpus tasks whose runs use every feature the two runners must agree on: seed-generated stage
# files and visible/ (02), three stages (06), a memory cap (09), SQLite across stages (11); the
# examples add a service. All fifteen tasks take about 9 minutes on a 2-core machine:
# BENCHSMITH_BUNDLE_TASKS=all runs them all (as before a release), or name others: "03,13".
BUNDLE_TASKS = os.environ.get("BENCHSMITH_BUNDLE_TASKS", "02,06,09,11")


def bundle_tasks() -> list[Path]:
    """The corpus tasks the bundle test runs (see BUNDLE_TASKS)."""
    every = sorted(TASKS.glob("[0-9]*"))
    if BUNDLE_TASKS.strip() == "all":
        return every
    wanted = {n.strip().zfill(2) for n in BUNDLE_TASKS.split(",") if n.strip()}
    chosen = [t for t in every if t.name[:2] in wanted]
    assert len(chosen) == len(wanted), f"BENCHSMITH_BUNDLE_TASKS names a missing task: {wanted}"
    return chosen


@pytest.mark.slow
def test_the_bundle_runs_with_python_alone_and_agrees_with_benchsmith_run(tmp_path: Path) -> None:
    examples, tasks = sorted(EXAMPLES.glob("0*")), bundle_tasks()
    corpus = [*examples, *tasks]
    refs = references(tmp_path, corpus)
    adapter = agent(tmp_path, refs)
    lean_levels = {}
    for name, chosen in (("examples", examples), ("tasks", tasks)):
        out = tmp_path / f"bundle-{name}"
        export_standalone(chosen, out, allow_partial=True)
        bundle = out / "benchmarks" / "python-realworld-30"
        runs = tmp_path / f"lean-{name}"
        done = subprocess.run(
            [resolve_python(None), "-I", "run.py", "--agent", adapter, "--all", "--runs", runs,
             "--unsealed"],
            cwd=bundle, capture_output=True, text=True, timeout=1800, check=False,
            env={k: v for k, v in os.environ.items() if not k.startswith("PYTHON")},
        )  # fmt: skip
        assert done.returncode == 0, done.stdout + done.stderr
        for record in runs.glob("*/run.json"):
            data = json.loads(record.read_text(encoding="utf-8"))
            lean_levels[data["task"]["dir"]] = data["verdict"]["progress_level"]
        assert not list(bundle.rglob("__pycache__"))
    options = BatchOptions(adapter=adapter, runs_dir=tmp_path / "sdk", unsealed=True)
    result = run_batch(corpus, options)
    sdk_levels = {
        o.plan.task.dirname: o.verdict.progress_level for o in result.outcomes if o.verdict
    }
    assert lean_levels == sdk_levels
    assert set(sdk_levels) == {t.name for t in corpus}


def test_a_stage_that_adds_no_file_still_has_its_inject_folder(tmp_path: Path) -> None:
    """Issue 28: task 20's third stage is a message only; its scenario.json names
    ``stages/explanations/``, which the bundle lacked."""
    task = TASKS / "20-time-of-use-billing"
    export_standalone([task], tmp_path, allow_partial=True)
    folder = tmp_path / "benchmarks" / "python-realworld-30" / "tasks" / task.name
    scenario = json.loads((folder / "scenario.json").read_text(encoding="utf-8"))
    assert [s["inject"] for s in scenario["stages"]][-1] == "stages/explanations/"
    for stage in scenario["stages"]:
        assert (folder / stage["inject"]).is_dir(), stage["inject"]
    assert list((folder / "stages" / "explanations").iterdir()) == []
