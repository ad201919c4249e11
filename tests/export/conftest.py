"""Fixtures of the export tests: exports made once per session, and Harbor's own venv.

The Harbor tests need ``.venv-harbor`` (``make harbor``: harbor from PyPI, in its own
Python 3.12 venv, never in the SDK's) and bubblewrap. Without them they are skipped, with
the reason; ``make test`` sets ``BENCHSMITH_REQUIRE_HARBOR=1``, which turns a missing
Harbor into a failure, so CI always runs them.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from benchsmith.export import export_harbor

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = REPO / "examples"
TASKS = REPO / "tasks"
HARBOR = Path(os.environ.get("BENCHSMITH_HARBOR", REPO / ".venv-harbor" / "bin" / "harbor"))
OFFLINE_ENV = "benchsmith_sandbox:BubblewrapEnvironment"
# Proven with Harbor's orchestrator: both examples and corpus tasks 01 and 02 (task 13's
# fixtures take ~20 s to seed and 06 adds a minute; `harbor lint` covers every task).
RUN_TASKS = (
    EXAMPLES / "01-grade-summary",
    EXAMPLES / "02-pantry-ledger",
    TASKS / "01-expense-reconciliation",
    TASKS / "02-calendar-merge",
)


def require_harbor() -> Path:
    """The harbor executable, or skip (fail under ``BENCHSMITH_REQUIRE_HARBOR=1``)."""
    missing = []
    if not HARBOR.is_file():
        missing.append(f"{HARBOR} is missing (make harbor installs it)")
    if shutil.which("bwrap") is None:
        missing.append("bubblewrap (bwrap) is not installed")
    if missing:
        reason = "; ".join(missing)
        if os.environ.get("BENCHSMITH_REQUIRE_HARBOR") == "1":
            pytest.fail(f"Harbor tests required but cannot run: {reason}")
        pytest.skip(f"Harbor tests skipped: {reason}")
    return HARBOR


@dataclass(frozen=True)
class HarborJob:
    """One finished ``harbor run``: the reward of each task, per step, and the trial folders."""

    rewards: dict[str, float | None]
    steps: dict[str, list[float | None]]
    trials: dict[str, Path]
    seconds: float
    output: str


def harbor_env(out: Path, cache: Path) -> dict[str, str]:
    """The environment harbor runs in: our modules importable, no network look-ups."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV"))}
    env["PYTHONPATH"] = f"{out}{os.pathsep}{REPO}"
    env["XDG_CACHE_HOME"] = str(cache)
    env["LITELLM_LOCAL_MODEL_COST_MAP"] = "True"  # litellm otherwise fetches a price list
    return env


def _reward(result: dict[str, object] | None) -> float | None:
    rewards = (result or {}).get("rewards") if isinstance(result, dict) else None
    value = rewards.get("reward") if isinstance(rewards, dict) else None
    return float(value) if isinstance(value, int | float) else None


def run_harbor(out: Path, jobs: Path, cache: Path, agent: str, name: str) -> HarborJob:
    """``harbor run -p OUT -a AGENT --env <ours>`` over every task of an export."""
    argv = [
        str(require_harbor()), "run", "-p", str(out), "-a", agent, "--env", OFFLINE_ENV,
        "-o", str(jobs), "--job-name", name, "-n", "4", "-y", "-q",
    ]  # fmt: skip
    started = time.monotonic()
    done = subprocess.run(
        argv, env=harbor_env(out, cache), cwd=jobs.parent, capture_output=True, text=True,
        stdin=subprocess.DEVNULL, timeout=900, check=False,
    )  # fmt: skip
    seconds = time.monotonic() - started
    output = done.stdout + done.stderr
    assert done.returncode == 0, output[-4000:]
    rewards: dict[str, float | None] = {}
    steps: dict[str, list[float | None]] = {}
    trials: dict[str, Path] = {}
    for result_file in sorted((jobs / name).glob("*/result.json")):
        result = json.loads(result_file.read_text(encoding="utf-8"))
        task = result_file.parent.name.split("__")[0]
        assert result.get("exception_info") is None, (task, result["exception_info"])
        rewards[task] = _reward(result.get("verifier_result"))
        steps[task] = [_reward(s.get("verifier_result")) for s in result.get("step_results") or []]
        trials[task] = result_file.parent
    return HarborJob(rewards, steps, trials, seconds, output)


@pytest.fixture(scope="session")
def exported(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The four tasks Harbor runs, exported once."""
    out = tmp_path_factory.mktemp("harbor-export")
    export_harbor(list(RUN_TASKS), out)
    return out


@pytest.fixture(scope="session")
def harbor_workdir(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A folder for Harbor's jobs and the sandbox image cache."""
    yield tmp_path_factory.mktemp("harbor-jobs")
