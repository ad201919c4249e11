"""The determinism control: varied environments, the committed lock, the first differing file."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from benchsmith.building import build
from benchsmith.checking import controls
from benchsmith.checking.battery import CheckOptions, check_tasks
from benchsmith.checking.results import ControlResult
from benchsmith.environments import VARIED
from benchsmith.lockfile import lock_tasks
from benchsmith.seeds import Entries
from tests.check.conftest import CopyExample

# Authored generators that break determinism the ways the verifier audit lists.
SET_ORDER = """
def words(ctx):
    names = {f"word-{n}" for n in range(40)}
    ctx.write_text("inputs/words.txt", "\\n".join(name for name in names) + "\\n")
"""
TIME_ZONE = """
import time

def words(ctx):
    ctx.write_text("inputs/words.txt", time.strftime("%H:%M", time.localtime(0)) + "\\n")
"""


def _determinism(task: Path, python: str) -> ControlResult:
    report = check_tasks([task], CheckOptions(python=python, controls=("determinism",)))
    result = report.tasks[0].result("determinism")
    assert result is not None
    return result


def _set_lock_seed(task: Path, seed: dict[str, str]) -> None:
    lock = json.loads((task / "benchsmith.lock").read_text(encoding="utf-8"))
    lock["seed"] = seed
    (task / "benchsmith.lock").write_text(json.dumps(lock, indent=2) + "\n", encoding="utf-8")


def test_the_examples_seed_matches_their_lock(example: CopyExample, python: str) -> None:
    result = _determinism(example("02-pantry-ledger"), python)
    assert result.passed, result.reason
    assert result.observed.startswith("main ")


def test_a_tampered_lock_hash_is_reported(example: CopyExample, python: str) -> None:
    task = example("01-grade-summary")
    lock = json.loads((task / "benchsmith.lock").read_text(encoding="utf-8"))
    _set_lock_seed(task, {**lock["seed"], "main": "0" * 64})
    result = _determinism(task, python)
    assert not result.passed
    assert "benchsmith.lock records 000000000000" in result.reason
    assert "the fixture drifted since it was locked" in result.reason
    assert "edge" not in result.reason  # only the tampered fixture is named


def test_a_missing_lock_entry_says_how_to_fix_it(example: CopyExample, python: str) -> None:
    task = example("01-grade-summary")
    _set_lock_seed(task, {})
    result = _determinism(task, python)
    assert not result.passed
    assert f"benchsmith.lock records no main seed hash; run benchsmith lock {task}" in result.reason
    assert "no edge seed hash" in result.reason


@pytest.mark.parametrize(("generator", "cause"), [(SET_ORDER, "set order"), (TIME_ZONE, "TZ")])
def test_a_non_deterministic_generator_is_caught_and_its_file_named(
    example: CopyExample, python: str, generator: str, cause: str
) -> None:
    task = example("01-grade-summary")
    (task / "fixtures.py").write_text("import benchlib\n" + generator, encoding="utf-8")
    with open(task / "task.toml", "a", encoding="utf-8") as toml:
        toml.write('\n[[files]]\npath = "inputs/words.txt"\ngenerator = "words"\n')
    build([task])
    result = _determinism(task, python)
    assert not result.passed, cause
    assert (
        "seed.py --fixture main is not deterministic: inputs/words.txt: content differs"
        in result.reason
    )


def test_a_generator_that_depends_on_its_environment_is_caught_after_a_fresh_lock(
    example: CopyExample, python: str
) -> None:
    """Locked under the plain environment, the varied run differs from the lock, and the
    plain run then tells "not deterministic" apart from "drifted"."""
    task = example("01-grade-summary")
    (task / "fixtures.py").write_text("import benchlib\n" + TIME_ZONE, encoding="utf-8")
    with open(task / "task.toml", "a", encoding="utf-8") as toml:
        toml.write('\n[[files]]\npath = "inputs/words.txt"\ngenerator = "words"\n')
    build([task])
    lock_tasks([task], python=python)
    result = _determinism(task, python)
    assert not result.passed
    assert "seed.py --fixture main is not deterministic: inputs/words.txt" in result.reason
    assert "drifted" not in result.reason


def test_a_fixture_equal_to_its_lock_is_seeded_once(
    example: CopyExample, python: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    runs: list[tuple[str, str]] = []
    real = controls.seed_entries

    def counted(task_dir: Path, dest: Path, **kwargs: Any) -> Entries:
        runs.append((kwargs["fixture"], kwargs["env"].name))
        return real(task_dir, dest, **kwargs)

    monkeypatch.setattr(controls, "seed_entries", counted)
    result = _determinism(example("02-pantry-ledger"), python)
    assert result.passed, result.reason
    assert runs == [("main", VARIED[1].name), ("edge", VARIED[1].name)]
