"""Shared fixtures: inline task trees, the CLI runner, copies of the example tasks."""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Callable, Mapping
from pathlib import Path

import pytest
from hypothesis import settings
from typer.testing import CliRunner

from benchsmith.cli import app

# No per-example deadline: these machines are shared and noisy, and a slow example is not a
# failure (performance is measured in bench/). HYPOTHESIS_PROFILE=thorough: ten times the
# examples (tests/dsl/test_fuzz.py: 12,000 documents).
settings.register_profile("benchsmith", deadline=None)
settings.register_profile("thorough", parent=settings.get_profile("benchsmith"), max_examples=1000)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "benchsmith"))

REPO = Path(__file__).resolve().parent.parent
EXAMPLES = REPO / "examples"

MINIMAL_TASK = """\
id = 7
slug = "tiny-task"
title = "Tiny Task"
pressure = "N"
command = "python -m solution.main inputs/data.csv --output output"
prose = "Sum the values of inputs/data.csv."

[[outputs]]
path = "output/total.json"

[[files]]
path = "inputs/data.csv"
rows = 5
columns.key = { seq = "K{:03d}" }
columns.value = { int = [1, 9] }

[edge]
rule = "An empty file totals 0."
"""


def build_file_tree(root: Path, files: Mapping[str, str | bytes]) -> Path:
    """Create ``files`` (relative path -> content) under ``root``; return ``root``."""
    for rel, content in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
    return root


def lock(task_dir: Path) -> Path:
    """Record the task's seed hashes (``benchsmith lock``) with this interpreter."""
    from benchsmith.lockfile import lock_tasks

    lock_tasks([task_dir], python=sys.executable)
    return task_dir


@pytest.fixture
def cli() -> Callable[..., object]:
    """Invoke the benchsmith CLI in-process; returns the click Result."""
    runner = CliRunner()

    def invoke(*args: str) -> object:
        return runner.invoke(app, [str(a) for a in args], catch_exceptions=False)

    return invoke


@pytest.fixture
def make_task(tmp_path: Path) -> Callable[..., Path]:
    """Write a task folder ``corpus/NN-slug`` from task.toml text and extra files."""

    def make(
        toml: str = MINIMAL_TASK,
        dirname: str = "07-tiny-task",
        files: Mapping[str, str | bytes] | None = None,
    ) -> Path:
        task_dir = tmp_path / "corpus" / dirname
        return build_file_tree(task_dir, {"task.toml": toml, **(files or {})})

    return make


@pytest.fixture
def example_copy(tmp_path: Path) -> Callable[[str], Path]:
    """Copy an example task (and its corpus files) into a temporary corpus."""

    def copy(name: str) -> Path:
        corpus = tmp_path / "examples"
        corpus.mkdir(exist_ok=True)
        for shared in ("benchlib.py", "run.py", "tasks.json"):
            shutil.copy2(EXAMPLES / shared, corpus / shared)
        return Path(shutil.copytree(EXAMPLES / name, corpus / name))

    return copy
