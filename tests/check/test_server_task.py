"""check on a task whose candidate program is a server: every control is met, the synthetic
candidates score low with clear notes and none of them hangs."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from tests.check.conftest import invoke
from tests.server_task import build_server_task


@pytest.mark.slow
def test_every_control_is_met_on_a_task_with_serve_steps(tmp_path: Path) -> None:
    task = build_server_task(tmp_path / "corpus")
    started = time.monotonic()
    result = invoke("check", task, "-j", "2", "--json")
    elapsed = time.monotonic() - started
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    [checked] = report["tasks"]
    controls = {c["control"]: c for c in checked["controls"]}
    assert all(c["passed"] for c in controls.values()), controls
    assert controls["reference"]["observed"] == "5 5 5"
    assert controls["empty"]["observed"] == "0"
    assert controls["null"]["observed"] in ("0", "1")
    assert any(
        "server 'api' (python -m solution.server --db output/items.db --port 0) exited with "
        "status 0 before printing 'LISTENING <port>'" in note
        for note in controls["null"]["notes"]
    ), controls["null"]["notes"]
    loop = controls["hostile-loop"]["notes"]
    assert any("did not print 'LISTENING <port>' within" in note for note in loop), loop
    assert (controls["witness-level3"]["observed"], controls["witness-level4"]["observed"]) == (
        "3",
        "4",
    )
    assert elapsed < 240, f"check took {elapsed:.0f} s"
