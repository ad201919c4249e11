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
from benchsmith.run.batch import BatchOptions, run_batch
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
    result = cli("export", "standalone", "--all", "--corpus", EXAMPLES, "--out", tmp_path / "a")
    assert result.exit_code == 0, result.output
    export_standalone(sorted(EXAMPLES.glob("0*")), tmp_path / "b")
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
    readme = (bundle / "README.md").read_text(encoding="utf-8")
    assert "python3.12 run.py --agent" in readme and "| 02 | [pantry-ledger]" in readme
    again = cli("export", "standalone", "--all", "--corpus", EXAMPLES, "--out", tmp_path / "a")
    assert again.exit_code == 0, again.output
    (tmp_path / "c" / "benchmarks" / "python-realworld-30").mkdir(parents=True)
    refused = cli("export", "standalone", "--all", "--corpus", EXAMPLES, "--out", tmp_path / "c")
    assert refused.exit_code == 2 and "is not a benchsmith export" in refused.output


@pytest.mark.slow
def test_the_bundle_runs_with_python_alone_and_agrees_with_benchsmith_run(tmp_path: Path) -> None:
    corpus = [*sorted(EXAMPLES.glob("0*")), *sorted(TASKS.glob("[0-9]*"))]
    refs = references(tmp_path, corpus)
    adapter = agent(tmp_path, refs)
    lean_levels = {}
    for source in (EXAMPLES, TASKS):
        out = tmp_path / f"bundle-{source.name}"
        export_standalone(sorted(source.glob("[0-9]*")), out)
        bundle = out / "benchmarks" / "python-realworld-30"
        runs = tmp_path / f"lean-{source.name}"
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
