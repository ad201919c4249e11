"""The lock file ``benchsmith.lock``: what the last build generated and seed.py last produced.

The lock is a small JSON file committed with each task. ``files`` maps each generated file to
``{"owned": sha}``, the SHA-256 of the part benchsmith owns (for judge.py, everything but the
authored region), so a rebuild can tell generator output from hand edits; Python files also
record ``"rendered"``, the hash of the unformatted render and the formatter, so an up-to-date
file needs no ruff call to be proven up to date. ``seed`` maps each fixture to the tree hash
recorded by ``benchsmith lock`` (:func:`lock_tasks`) and verified by ``benchsmith check``.

``seed_inputs`` is the hash of everything of the task that seed.py's output depends on
(:func:`seed_inputs_hash`): seed.py itself (which embeds task.toml's files, anchors and
stages), the task's other Python modules except judge.py (fixtures.py and what it imports)
and every file under vocab/. ``lock`` records it with the seed hashes; ``build --check`` and
``lint`` compare it with the current inputs (no seed.py run), so a fixture change made since
the last ``benchsmith lock`` is found without running ``check`` (BS505). The shared runtime
(benchlib.py) is not an input: a runtime change that alters fixtures is caught by ``check``'s
determinism control, which re-runs seed.py.
"""

from __future__ import annotations

import ast
import hashlib
import json
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchsmith.diagnostics import display_path
from benchsmith.dsl.load import load_task
from benchsmith.generate.write import write_all
from benchsmith.locking import locked
from benchsmith.runtime import benchlib
from benchsmith.seeds import FIXTURES, seed_entries
from benchsmith.workspaces import require_built

LOCK_FILE = "benchsmith.lock"
SEED_SOURCE = "seed.py"
NOT_SEED_INPUTS = frozenset({"judge.py"})
VOCAB_DIR = "vocab"


def sha256_text(text: str) -> str:
    """SHA-256 of UTF-8 text."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def read_lock(task_dir: Path) -> dict[str, Any]:
    """Return the task's lock, or an empty one when absent or unreadable."""
    path = task_dir / LOCK_FILE
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):  # absent, not UTF-8/JSON, nested too deeply
        return {"files": {}, "seed": {}}
    if not isinstance(data, dict):
        return {"files": {}, "seed": {}}
    for section in ("files", "seed"):
        if not isinstance(data.get(section), dict):
            data[section] = {}
    return data


def file_entry(lock: dict[str, Any], name: str) -> dict[str, str]:
    """The lock's record of one generated file (empty when unrecorded)."""
    entry = lock["files"].get(name)
    if isinstance(entry, str):  # the first lock format stored the owned hash alone
        return {"owned": entry}
    return dict(entry) if isinstance(entry, dict) else {}


def lock_text(files: dict[str, Any], seed: dict[str, str], seed_inputs: Any = None) -> str:
    """Serialize a lock deterministically (``seed_inputs`` is kept only when a string)."""
    payload: dict[str, Any] = {
        "files": dict(sorted(files.items())),
        "seed": dict(sorted(seed.items())),
    }
    if isinstance(seed_inputs, str):
        payload["seed_inputs"] = seed_inputs
    return json.dumps(payload, indent=2, sort_keys=True) + "\n"


def seed_inputs_hash(task_dir: Path, seed_source: str | None = None) -> str:
    """SHA-256 over everything of the task seed.py's output depends on.

    Args:
        task_dir: The task folder.
        seed_source: seed.py as the next build writes it (default: the file on disk).

    Returns:
        The hash of (relative path, SHA-256) of seed.py (without its docstring, which only
        names the task), the task's other top-level Python modules but judge.py, and every
        file under vocab/, in path order.
    """
    items: dict[str, bytes] = {}
    for path in sorted(task_dir.glob("*.py")):
        if path.name not in NOT_SEED_INPUTS and path.is_file():
            items[path.name] = path.read_bytes()
    vocab = task_dir / VOCAB_DIR
    for path in sorted(vocab.rglob("*")) if vocab.is_dir() else ():
        if path.is_file():
            items[path.relative_to(task_dir).as_posix()] = path.read_bytes()
    if seed_source is not None:
        items[SEED_SOURCE] = seed_source.encode("utf-8")
    if SEED_SOURCE in items:
        items[SEED_SOURCE] = _without_docstring(items[SEED_SOURCE])
    digest = hashlib.sha256()
    for name in sorted(items):
        digest.update(name.encode("utf-8") + b"\0" + hashlib.sha256(items[name]).digest())
    return digest.hexdigest()


def _without_docstring(source: bytes) -> bytes:
    """seed.py without its module docstring (which names the title; the output does not)."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return source
    first = tree.body[0] if tree.body else None
    if not (isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant)):
        return source
    lines = source.splitlines(keepends=True)
    return b"".join(lines[: first.lineno - 1] + lines[first.end_lineno or first.lineno :])


def seed_lock_problem(task_dir: Path, seed_source: str | None = None) -> str | None:
    """Why the lock's seed hashes cannot be trusted without running seed.py, or ``None``.

    Missing hashes, a lock written before inputs were recorded, or inputs changed since
    ``benchsmith lock`` ran (see :func:`seed_inputs_hash`).
    """
    lock = read_lock(task_dir)
    hint = "run benchsmith lock on this task"
    missing = [f for f in FIXTURES if not isinstance(lock["seed"].get(f), str)]
    if missing:
        return f"benchsmith.lock records no {' or '.join(missing)} seed hash; {hint}"
    recorded = lock.get("seed_inputs")
    if not isinstance(recorded, str):
        return f"benchsmith.lock does not record the seed's inputs (an older lock); {hint}"
    if recorded != seed_inputs_hash(task_dir, seed_source):
        return (
            "the seed's inputs (seed.py from task.toml, fixtures.py, vocab/) changed since "
            f"benchsmith lock recorded the seed hashes; {hint} (check verifies them)"
        )
    return None


@dataclass(frozen=True, slots=True)
class LockResult:
    """What ``benchsmith lock`` recorded for one task.

    Attributes:
        task: The task folder, as shown.
        hashes: Fixture name (``main``, ``edge``) -> tree hash now recorded.
        previous: The hashes recorded before.
        inputs_changed: Whether the recorded hash of the seed's inputs changed.
    """

    task: str
    hashes: dict[str, str]
    previous: dict[str, str]
    inputs_changed: bool = False

    @property
    def changed(self) -> bool:
        """Whether the lock file changed."""
        moved = any(self.previous.get(k) != v for k, v in self.hashes.items())
        return moved or self.inputs_changed

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
    folders = {f for d in task_dirs for f in (d.resolve(), d.resolve().parent)}
    with locked(folders):
        return _lock_all(task_dirs, python)


def _lock_all(task_dirs: Sequence[Path], python: str) -> list[LockResult]:
    results, writes = [], {}
    for task_dir in task_dirs:
        require_built(load_task(task_dir))
        lock = read_lock(task_dir)
        inputs = seed_inputs_hash(task_dir)
        hashes = fixture_hashes(task_dir, python)
        previous = {k: v for k, v in lock["seed"].items() if isinstance(v, str)}
        moved = lock.get("seed_inputs") != inputs
        result = LockResult(display_path(task_dir), hashes, previous, moved)
        if result.changed or not (task_dir / LOCK_FILE).is_file():
            seed = {**lock["seed"], **hashes}
            writes[task_dir / LOCK_FILE] = lock_text(lock["files"], seed, inputs)
        results.append(result)
    for root in sorted({p.parent.parent for p in writes}):
        write_all({p: t for p, t in writes.items() if p.parent.parent == root}, journal_dir=root)
    return results
