"""The lock file ``benchsmith.lock``: what the last build generated and seed.py last produced.

The lock is a small JSON file committed with each task. ``files`` maps each generated file to
``{"owned": sha}``, the SHA-256 of the part benchsmith owns (for judge.py, everything but the
authored region), so a rebuild can tell generator output from hand edits; Python files also
record ``"rendered"``, the hash of the unformatted render and the formatter, so an up-to-date
file needs no ruff call to be proven up to date. ``seed`` maps each fixture to the tree hash
recorded by ``benchsmith lock`` (:func:`lock_tasks`) and verified by ``benchsmith check``.
"""

from __future__ import annotations

import hashlib
import json
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchsmith.check.seeds import FIXTURES, seed_entries
from benchsmith.diagnostics import display_path
from benchsmith.dsl.load import load_task
from benchsmith.generate.write import write_all
from benchsmith.runtime import benchlib
from benchsmith.workspace import require_built

LOCK_FILE = "benchsmith.lock"


def sha256_text(text: str) -> str:
    """SHA-256 of UTF-8 text."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def read_lock(task_dir: Path) -> dict[str, Any]:
    """Return the task's lock, or an empty one when absent or unreadable."""
    path = task_dir / LOCK_FILE
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {"files": {}, "seed": {}}
    if not isinstance(data, dict):
        return {"files": {}, "seed": {}}
    data.setdefault("files", {})
    data.setdefault("seed", {})
    return data


def file_entry(lock: dict[str, Any], name: str) -> dict[str, str]:
    """The lock's record of one generated file (empty when unrecorded)."""
    entry = lock["files"].get(name)
    if isinstance(entry, str):  # the first lock format stored the owned hash alone
        return {"owned": entry}
    return dict(entry) if isinstance(entry, dict) else {}


def lock_text(files: dict[str, Any], seed: dict[str, str]) -> str:
    """Serialize a lock deterministically."""
    payload = {"files": dict(sorted(files.items())), "seed": dict(sorted(seed.items()))}
    return json.dumps(payload, indent=2, sort_keys=True) + "\n"


@dataclass(frozen=True, slots=True)
class LockResult:
    """What ``benchsmith lock`` recorded for one task.

    Attributes:
        task: The task folder, as shown.
        hashes: Fixture name (``main``, ``edge``) -> tree hash now recorded.
        previous: The hashes recorded before.
    """

    task: str
    hashes: dict[str, str]
    previous: dict[str, str]

    @property
    def changed(self) -> bool:
        """Whether the lock file changed."""
        return any(self.previous.get(k) != v for k, v in self.hashes.items())

    def to_dict(self) -> dict[str, object]:
        """A JSON-ready mapping."""
        return {"task": self.task, "seed": self.hashes, "changed": self.changed}


def fixture_hashes(task_dir: Path, python: str) -> dict[str, str]:
    """The tree hash of each seed.py fixture, from one run under :data:`PLAIN`.

    Raises:
        SeedError: When seed.py fails.
    """
    with tempfile.TemporaryDirectory(prefix="benchsmith-lock-") as tmp:
        return {
            fixture: benchlib.entries_hash(
                seed_entries(task_dir, Path(tmp) / fixture, fixture=fixture, python=python)
            )
            for fixture in FIXTURES
        }


def lock_tasks(task_dirs: Sequence[Path], *, python: str) -> list[LockResult]:
    """Record seed.py's tree hashes in each task's benchsmith.lock (``seed`` section).

    The ``files`` section is kept exactly as it is; a lock whose hashes did not change is
    not rewritten.

    Raises:
        TaskSpecError: When a task.toml is invalid.
        UsageError: When a task was never built.
        SeedError: When seed.py fails (no lock is written then).
    """
    results, writes = [], {}
    for task_dir in task_dirs:
        require_built(load_task(task_dir))
        lock = read_lock(task_dir)
        hashes = fixture_hashes(task_dir, python)
        previous = {k: v for k, v in lock["seed"].items() if isinstance(v, str)}
        result = LockResult(display_path(task_dir), hashes, previous)
        if result.changed or not (task_dir / LOCK_FILE).is_file():
            writes[task_dir / LOCK_FILE] = lock_text(lock["files"], {**lock["seed"], **hashes})
        results.append(result)
    write_all(writes)
    return results
