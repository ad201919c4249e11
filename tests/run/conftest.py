"""Fixtures of the runner tests: example tasks, batches run once per module, the CLI."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import Result
from typer.testing import CliRunner

from benchsmith.cli import app
from benchsmith.running.batch import BatchOptions, BatchResult, run_batch

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = REPO / "examples"
SINGLE = EXAMPLES / "01-grade-summary"
MULTI = EXAMPLES / "02-pantry-ledger"
SERVICE = EXAMPLES / "03-catalog-crawl"


def batch(runs: Path, tasks: list[Path], adapter: str, **options: object) -> BatchResult:
    """Run ``tasks`` through ``adapter`` into ``runs`` (library API, no CLI).

    ``command:`` adapters written by :func:`write_adapter` live in the test's temporary
    folder and talk to it, which a sealed agent cannot see: those lifecycle tests run agents
    unsealed unless told otherwise (test_sealed_agents.py proves the seal; built-ins run sealed).
    """
    if adapter.startswith("command:"):
        options.setdefault("unsealed", True)
    return run_batch(tasks, BatchOptions(adapter=adapter, runs_dir=runs, **options))  # type: ignore[arg-type]


def invoke(*args: object) -> Result:
    """Run the benchsmith CLI in-process."""
    return CliRunner().invoke(app, [str(a) for a in args], catch_exceptions=False)


def write_adapter(folder: Path, name: str, body: str) -> str:
    """Write a Python adapter script; return the ``--agent`` value that runs it."""
    script = folder / name
    script.write_text(body, encoding="utf-8")
    return f"command:{sys.executable} {script}"


@pytest.fixture(scope="module")
def replay_runs(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, BatchResult]:
    """Both examples played once by the replay adapter (shared by a test module)."""
    runs = tmp_path_factory.mktemp("replay") / "runs"
    return runs, batch(runs, [SINGLE, MULTI], "replay")


@pytest.fixture
def cli() -> Callable[..., Result]:
    """The CLI runner."""
    return invoke


@pytest.fixture
def quiet_env(monkeypatch: pytest.MonkeyPatch) -> None:
    """Keep the developer's BENCHSMITH_* variables out of the adapters' environment."""
    for name in list(os.environ):
        if name.startswith("BENCHSMITH_"):
            monkeypatch.delenv(name)
