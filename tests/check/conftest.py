"""Fixtures of the battery tests: copies of the example tasks and the CLI."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from benchsmith import resources
from benchsmith.cli import app
from benchsmith.pythons import default_python

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = REPO / "examples"
TASKS = ("01-grade-summary", "02-pantry-ledger")

CopyExample = Callable[[str], Path]


def invoke(*args: str | Path) -> Any:
    """Run the benchsmith CLI in-process; returns the click Result."""
    return CliRunner().invoke(app, [str(a) for a in args], catch_exceptions=False)


def copy_example(root: Path, name: str) -> Path:
    """Copy examples/NAME (and the source runtime benchlib.py) into the corpus folder ``root``."""
    root.mkdir(parents=True, exist_ok=True)
    if not (root / "benchlib.py").exists():  # the source runtime, not a built copy
        shutil.copy2(resources.runtime_source(), root / "benchlib.py")
    dest = root / name
    shutil.copytree(EXAMPLES / name, dest, ignore=shutil.ignore_patterns("__pycache__"))
    return dest


@pytest.fixture
def example(tmp_path: Path) -> CopyExample:
    """Copy an example task into ``tmp_path/corpus``; returns its folder."""
    return lambda name: copy_example(tmp_path / "corpus", name)


@pytest.fixture(scope="session")
def python() -> str:
    """The interpreter the corpus targets (Python 3.12 when the machine has it)."""
    return default_python()


@pytest.fixture(scope="session")
def full_run(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """``check`` over both examples, once per session: exit code, JSON report and HTML page."""
    out = tmp_path_factory.mktemp("check-report")
    html = out / "report.html"
    result = invoke("check", *(EXAMPLES / t for t in TASKS), "-j", "2", "--json", "--html", html)
    return {
        "exit_code": result.exit_code,
        "report": json.loads(result.stdout),
        "html": html.read_text(encoding="utf-8"),
    }
