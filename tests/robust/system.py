"""Helpers that change the system under test: read-only bind mounts, small tmpfs, trees."""

from __future__ import annotations

import contextlib
import functools
import hashlib
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

STAGING_MARKERS = (".benchsmith-new", ".benchsmith-journal-", ".benchsmith-old", ".benchsmith-ws-")


@functools.cache
def mount_problem() -> str | None:
    """Why mounts cannot be made here (``None`` when they can)."""
    if os.geteuid() != 0:
        return "needs root to mount (CI runs as root)"
    if shutil.which("mount") is None or shutil.which("umount") is None:
        return "needs mount(8) and umount(8)"
    with tempfile.TemporaryDirectory() as tmp:
        done = subprocess.run(
            ["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", tmp],
            check=False,
            capture_output=True,
        )
        if done.returncode != 0:
            return f"mount is not permitted here: {done.stderr.decode(errors='replace').strip()}"
        subprocess.run(["umount", tmp], check=True)
    return None


def need_mounts() -> None:
    """Skip the test, saying why, when mounts are impossible."""
    problem = mount_problem()
    if problem:
        pytest.skip(f"read-only and full file systems are simulated with mounts: {problem}")


@contextlib.contextmanager
def read_only(folder: Path) -> Iterator[Path]:
    """Bind-mount ``folder`` read-only over itself for the duration."""
    need_mounts()
    subprocess.run(["mount", "--bind", str(folder), str(folder)], check=True)
    try:
        subprocess.run(["mount", "-o", "remount,bind,ro", str(folder)], check=True)
        yield folder
    finally:
        subprocess.run(["umount", str(folder)], check=True)


@contextlib.contextmanager
def small_tmpfs(folder: Path, size: str = "2m") -> Iterator[Path]:
    """Mount a tmpfs of ``size`` on ``folder`` (created) for the duration."""
    need_mounts()
    folder.mkdir(parents=True, exist_ok=True)
    subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(folder)], check=True)
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], check=True)


def fill(folder: Path) -> None:
    """Fill the file system of ``folder`` until a write fails with ENOSPC."""
    fd = os.open(folder / "filler", os.O_WRONLY | os.O_CREAT, 0o644)
    try:
        with contextlib.suppress(OSError):
            while True:
                os.write(fd, b"\0" * 4096)
    finally:
        os.close(fd)


def tree(root: Path) -> dict[str, str]:
    """Relative path -> content hash (or ``dir``) of everything under ``root``."""
    found = {}
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root).as_posix()
        if "__pycache__" in rel:
            continue
        found[rel] = "dir" if path.is_dir() else hashlib.sha256(path.read_bytes()).hexdigest()
    return found


def leftovers(root: Path) -> list[str]:
    """Staging files, journals and temporary folders anywhere under ``root``."""
    return sorted(
        p.relative_to(root).as_posix()
        for p in root.rglob(".*")
        if any(marker in p.name for marker in STAGING_MARKERS)
    )
