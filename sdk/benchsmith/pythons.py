"""Choosing the interpreter that runs seed.py, judges and candidates.

The corpus targets Python 3.12 (the spec's version). Machines often carry it through pyenv,
whose ``python3.12`` shim fails unless that version is selected, so each candidate is probed
by running it.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from functools import cache
from pathlib import Path

from benchsmith.errors import UsageError

TARGET = (3, 12)


def _real_executable(executable: str) -> str | None:
    """The interpreter ``executable`` runs when it is a Python 3.12 (a pyenv shim resolved to
    the version's own binary, which works without pyenv on PATH and inside a sandbox), or
    ``None``."""
    try:
        done = subprocess.run(
            [executable, "-c", "import sys; print(sys.version_info[:2]); print(sys.executable)"],
            capture_output=True, text=True, timeout=20, check=False,
        )  # fmt: skip
    except (OSError, subprocess.TimeoutExpired):
        return None
    lines = done.stdout.splitlines()
    if done.returncode != 0 or len(lines) != 2 or lines[0] != str(TARGET):
        return None
    return lines[1] or executable


def _pyenv_candidates() -> list[str]:
    root = Path(os.environ.get("PYENV_ROOT", Path.home() / ".pyenv")) / "versions"
    if not root.is_dir():
        return []
    found = sorted(root.glob("3.12*/bin/python3.12"), reverse=True)
    return [str(p) for p in found]


@cache
def default_python() -> str:
    """Return a working Python 3.12 when the machine has one (the interpreter itself, never a
    pyenv shim), else the current interpreter."""
    on_path = shutil.which("python3.12")
    for candidate in ([on_path] if on_path else []) + _pyenv_candidates():
        if found := _real_executable(candidate):
            return found
    return sys.executable


def require_python312() -> str:
    """Return a working Python 3.12, for tools that need exactly the corpus's version.

    Raises:
        UsageError: When the machine has no Python 3.12 (on PATH or through pyenv).
    """
    found = default_python()
    if found == sys.executable and sys.version_info[:2] != TARGET:
        raise UsageError("no Python 3.12 found (on PATH as python3.12, or under pyenv)")
    return found


def resolve_python(explicit: str | None) -> str:
    """Return ``explicit`` (checked to run) or :func:`default_python`.

    Raises:
        UsageError: When ``explicit`` cannot be run.
    """
    if explicit is None:
        return default_python()
    found = shutil.which(explicit) or explicit
    try:
        subprocess.run([found, "-c", "pass"], capture_output=True, timeout=20, check=True)
    except (OSError, subprocess.SubprocessError) as exc:
        raise UsageError(f"--python {explicit}: cannot run it ({exc})") from exc
    return found
