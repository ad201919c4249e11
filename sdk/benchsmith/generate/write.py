"""All-or-nothing writes of a set of files.

A build renders and formats everything first, then calls :func:`write_all`: new content is
written to temporary files beside each target, then swapped in; if anything fails, every file
already swapped is restored, so an interrupted build leaves the previous files intact.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Mapping
from pathlib import Path

FILE_MODE = 0o644
_NEW = ".benchsmith-new"
_OLD = ".benchsmith-old"


def _sibling(path: Path, suffix: str) -> Path:
    return path.with_name(f".{path.name}{suffix}")


def _stage(path: Path, content: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    staged = _sibling(path, _NEW)
    with open(staged, "w", encoding="utf-8", newline="\n") as stream:
        stream.write(content)
        stream.flush()
        os.fsync(stream.fileno())
    staged.chmod(FILE_MODE)
    return staged


def write_all(files: Mapping[Path, str]) -> None:
    """Replace every file in ``files`` with its content, all or nothing.

    Raises:
        OSError: When a write fails; no target has changed by then.
    """
    staged: dict[Path, Path] = {}
    swapped: list[tuple[Path, Path | None]] = []
    try:
        for path, content in files.items():
            staged[path] = _stage(path, content)
        for path, new in staged.items():
            backup = _sibling(path, _OLD) if path.exists() else None
            if backup is not None:
                path.replace(backup)
            swapped.append((path, backup))
            new.replace(path)
    except BaseException:
        _roll_back(swapped)
        raise
    finally:
        for new in staged.values():
            with contextlib.suppress(FileNotFoundError):
                new.unlink()
    for _, backup in swapped:
        if backup is not None:
            backup.unlink()


def _roll_back(swapped: list[tuple[Path, Path | None]]) -> None:
    for path, backup in reversed(swapped):
        with contextlib.suppress(FileNotFoundError):
            path.unlink()
        if backup is not None:
            backup.replace(path)
