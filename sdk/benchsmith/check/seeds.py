"""seed.py's tree hashes: recording them (``benchsmith lock``) and re-deriving them (``check``).

The hash covers what seed.py itself writes -- the main fixture at the final stage and the edge
fixture -- as :func:`benchlib.tree_entries` sees it: relative path, file mode and SHA-256 of
the decompressed content. Static files (visible/, stages/, edge/) are committed and tracked
by version control, so they are left out.
"""

from __future__ import annotations

import subprocess
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from benchsmith.check.environments import PLAIN, Environment
from benchsmith.check.verdicts import clip
from benchsmith.diagnostics import display_path
from benchsmith.dsl.load import load_task
from benchsmith.errors import SdkError
from benchsmith.generate.write import write_all
from benchsmith.lock import LOCK_FILE, lock_text, read_lock
from benchsmith.runtime import benchlib
from benchsmith.workspace import require_built

FIXTURES = ("main", "edge")
SEED_TIMEOUT = 600.0

Entries = list[tuple[str, str, str]]


class SeedError(SdkError):
    """Raised when seed.py fails, times out or cannot be started."""


def seed_entries(
    task_dir: Path, dest: Path, *, fixture: str, python: str, env: Environment = PLAIN
) -> Entries:
    """Run seed.py for ``fixture`` (main: final stage) into ``dest``; return its tree entries.

    seed.py runs under ``env`` with ``dest``'s parent as working directory.

    Raises:
        SeedError: When seed.py does not exit 0 in time.
    """
    argv = [python, str(task_dir.resolve() / "seed.py"), "--out", str(dest)]
    argv += ["--fixture", fixture, "--stage", "final"]
    dest.parent.mkdir(parents=True, exist_ok=True)
    try:
        done = subprocess.run(
            argv, cwd=dest.parent, env=env.variables(), umask=env.umask, capture_output=True,
            text=True, errors="replace", timeout=SEED_TIMEOUT, check=False,
        )  # fmt: skip
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise SeedError(f"{display_path(task_dir)}: seed.py could not run: {exc}") from exc
    if done.returncode != 0:
        tail = clip(done.stderr.strip().splitlines()[-1] if done.stderr.strip() else "", 300)
        raise SeedError(
            f"{display_path(task_dir)}: seed.py --fixture {fixture} failed "
            f"(exit status {done.returncode}): {tail}"
        )
    return benchlib.tree_entries(dest)


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
