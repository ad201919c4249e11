"""seed.py's tree entries, as ``benchsmith lock`` records them and ``check`` re-derives them.

The hash covers what seed.py itself writes -- the main fixture at the final stage and the edge
fixture -- as :func:`benchlib.tree_entries` sees it: relative path, file mode and SHA-256 of
the decompressed content. Static files (visible/, stages/, edge/) are committed and tracked
by version control, so they are left out.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

from benchsmith.children import die_with_parent
from benchsmith.diagnostics import display_path
from benchsmith.environments import PLAIN, Environment
from benchsmith.errors import BenchsmithError
from benchsmith.judging import clip
from benchsmith.runtime import benchlib

FIXTURES = ("main", "edge")
SEED_TIMEOUT = 600.0

Entries = list[tuple[str, str, str]]


class SeedError(BenchsmithError):
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
            preexec_fn=die_with_parent(),  # kill -9 of benchsmith lock / new leaves no seed.py
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
