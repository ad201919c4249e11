"""Arm parity (spec sections 5.3 and 7.1): agent settings recorded per run and compared
across matched pairs, auxiliary calls by kind, each arm's task order."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.run.conftest import SINGLE, batch, invoke, write_adapter

AGENT = """
import json, os, shutil, sys
from pathlib import Path
env = os.environ
events, ws = Path(env["BENCHSMITH_EVENTS"]), Path(env["BENCHSMITH_WORKSPACE"])
def emit(**event):
    with open(events, "a") as out:
        out.write(json.dumps(event) + "\\n")
emit(type="settings", provider="acme", model=sys.argv[1], reasoning={"effort": "high"})
shutil.copytree(REFERENCE, ws / "solution", dirs_exist_ok=True)
emit(type="usage", model=sys.argv[1], kind="main", input_tokens=10, output_tokens=2)
emit(type="usage", model="small", kind="summarize", input_tokens=3, output_tokens=1, calls=2)
emit(type="usage", model="small", kind="title", input_tokens=1, output_tokens=1)
emit(type="idle")
"""


@pytest.fixture(scope="module")
def two_arms(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Example 01 by arm ``ref`` (model m-1) and arm ``cand`` (model m-2)."""
    folder = tmp_path_factory.mktemp("parity")
    body = AGENT.replace("REFERENCE", repr(str(SINGLE / "reference" / "solution")))
    runs = folder / "runs"
    for arm, model in (("ref", "m-1"), ("cand", "m-2")):
        agent = write_adapter(folder, "agent.py", body) + f" {model}"
        batch(runs, [SINGLE], agent, archive="none", arm=arm)
    return runs


def test_settings_are_recorded_per_run(two_arms: Path) -> None:
    record = json.loads((two_arms / "ref--01-grade-summary--r001" / "run.json").read_text())
    assert record["settings"] == {
        "provider": "acme", "model": "m-1", "reasoning": {"effort": "high"}
    }  # fmt: skip


def test_report_warns_when_a_matched_pair_differs_in_settings(two_arms: Path) -> None:
    done = invoke("report", "--runs", two_arms, "--arms", "ref", "cand")
    assert done.exit_code == 0, done.output
    assert (
        "warning: 1 matched pair(s) ran with a different model (e.g. 01-grade-summary repeat "
        '1: "m-1" vs "m-2")'
    ) in done.output
    assert "different provider" not in done.output and "different reasoning" not in done.output
    data = json.loads(
        invoke("report", "--runs", two_arms, "--arms", "ref", "cand", "--json").output
    )
    assert [w for w in data["comparison"]["warnings"] if "different model" in w]


def test_report_shows_auxiliary_calls_by_kind_and_task_order(two_arms: Path) -> None:
    done = invoke("report", "--runs", two_arms)
    assert "== arm cand: auxiliary calls by kind (totals over scored runs)" in done.output
    assert "== arm ref: task order (primary runs by start time)" in done.output
    assert "1. 01-grade-summary r001" in done.output
    data = json.loads(invoke("report", "--runs", two_arms, "--json").output)
    corpus = {row["arm"]: row for row in data["corpus"]}
    assert corpus["ref"]["aux_by_kind"] == {"summarize": 2, "title": 1}
    assert data["task_order"] == {
        "cand": ["01-grade-summary r001"],
        "ref": ["01-grade-summary r001"],
    }
