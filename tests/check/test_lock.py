"""``benchsmith lock``: seed hashes recorded, the files section kept, errors explained."""

from __future__ import annotations

import json
from pathlib import Path

from benchsmith.lockfile import fixture_hashes, lock_tasks
from benchsmith.runtime import benchlib
from tests.check.conftest import CopyExample, invoke


def _lock(task: Path) -> dict[str, dict[str, str]]:
    data: dict[str, dict[str, str]] = json.loads((task / "benchsmith.lock").read_text("utf-8"))
    return data


def test_lock_records_both_fixtures_and_keeps_the_files_section(
    example: CopyExample, python: str
) -> None:
    task = example("02-pantry-ledger")
    before = _lock(task)
    (task / "benchsmith.lock").write_text(
        json.dumps({"files": before["files"], "seed": {"main": "stale"}}, indent=2), "utf-8"
    )
    [result] = lock_tasks([task], python=python)
    after = _lock(task)
    assert after["files"] == before["files"]
    assert set(after["seed"]) == {"main", "edge"}
    assert after["seed"] == before["seed"]  # the committed example lock is current
    assert result.changed and result.previous == {"main": "stale"}


def test_the_recorded_hash_is_the_tree_hash_of_seed_output(
    example: CopyExample, python: str, tmp_path: Path
) -> None:
    task = example("01-grade-summary")
    out = tmp_path / "seeded"
    benchlib.run_seed(
        benchlib.Layout(task, ("initial",), ("solution/", "output/")),
        out,
        fixture="edge",
        stage=1,
        python=python,
    )
    assert fixture_hashes(task, python)["edge"] == benchlib.entries_hash(benchlib.tree_entries(out))


def test_an_unchanged_lock_is_not_rewritten(example: CopyExample, python: str) -> None:
    task = example("01-grade-summary")
    lock_file = task / "benchsmith.lock"
    lock_file.write_text(lock_file.read_text("utf-8").replace("\n", "\n  \n", 1), "utf-8")
    text = lock_file.read_text("utf-8")
    result = invoke("lock", task, "--python", python, "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)[0]["changed"] is False
    assert lock_file.read_text("utf-8") == text


def test_lock_text_output_names_each_task(example: CopyExample, python: str) -> None:
    task = example("01-grade-summary")
    result = invoke("lock", task, "--python", python)
    assert result.exit_code == 0
    assert result.stdout.startswith(f"unchanged {task}: edge 001d2fc98e8a, main ")


def test_lock_refuses_an_unbuilt_task(example: CopyExample) -> None:
    task = example("01-grade-summary")
    (task / "seed.py").unlink()
    result = invoke("lock", task)
    assert result.exit_code == 2
    assert "seed.py missing; run benchsmith build" in result.stderr


def test_lock_reports_a_failing_seed(example: CopyExample, python: str) -> None:
    task = example("01-grade-summary")
    seed = task / "seed.py"
    seed.write_text(
        seed.read_text("utf-8").replace(
            "import benchlib\n", "import benchlib\nraise SystemExit('seed broke')\n"
        ),
        "utf-8",
    )
    before = (task / "benchsmith.lock").read_text("utf-8")
    result = invoke("lock", task, "--python", python)
    assert result.exit_code == 1
    assert "seed.py --fixture main failed (exit status 1): seed broke" in result.stderr
    assert (task / "benchsmith.lock").read_text("utf-8") == before
