"""benchsmith.lock: what the last build generated and what seed.py last produced.

The lock is a small JSON file committed with each task. ``files`` maps each generated file to
``{"owned": sha}``, the SHA-256 of the part benchsmith owns (for judge.py, everything but the
authored region), so a rebuild can tell generator output from hand edits; Python files also
record ``"rendered"``, the hash of the unformatted render and the formatter, so an up-to-date
file needs no ruff call to be proven up to date. ``seed`` maps each fixture to the tree hash
recorded by ``benchsmith lock`` and verified by ``benchsmith check``.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

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
