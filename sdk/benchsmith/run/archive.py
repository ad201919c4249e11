"""Deterministic archives of final workspaces.

Entries are sorted, owned by uid/gid 0 with empty names, dated 0 and gzip-compressed with
mtime 0, so two identical workspaces give byte-identical archives (handy for comparing
arms). Modes are kept, so read-only inputs stay visible as such.
"""

from __future__ import annotations

import gzip
import os
import stat
import tarfile
from collections.abc import Iterator
from pathlib import Path

from benchsmith.runtime import benchlib


def archive_members(root: Path, paths: tuple[str, ...] | None) -> list[Path]:
    """Files, links and folders under ``root`` (only under ``paths`` when given).

    Sorted by relative path, so every folder comes before its contents.
    """
    tops = [root / p.rstrip("/") for p in paths] if paths is not None else [root]
    found: set[Path] = set()
    for top in tops:
        if not (top.exists() or top.is_symlink()):
            continue
        if top != root:
            found.add(top)
        if top.is_dir() and not top.is_symlink():
            found.update(_walk(top))
    return sorted(found, key=lambda p: p.relative_to(root).as_posix())


def _walk(top: Path) -> Iterator[Path]:
    for folder, dirs, files in os.walk(top):
        dirs.sort()
        base = Path(folder)
        for name in sorted(dirs + files):
            yield base / name


def _info(path: Path, root: Path) -> tarfile.TarInfo | None:
    """The tar header of ``path``; ``None`` for FIFOs, sockets and devices (never opened)."""
    info = tarfile.TarInfo(path.relative_to(root).as_posix())
    status = path.lstat()
    info.mode = status.st_mode & 0o7777
    info.mtime, info.uid, info.gid, info.uname, info.gname = 0, 0, 0, "", ""
    if stat.S_ISLNK(status.st_mode):
        info.type, info.linkname = tarfile.SYMTYPE, str(path.readlink())
    elif stat.S_ISDIR(status.st_mode):
        info.type = tarfile.DIRTYPE
    elif stat.S_ISREG(status.st_mode):
        info.size = status.st_size
    else:
        return None
    return info


def write_archive(root: Path, dest: Path, paths: tuple[str, ...] | None = None) -> list[str]:
    """Archive ``root`` (or only its ``paths``) to ``dest`` as a deterministic tar.gz.

    Returns:
        Workspace-relative paths left out: unreadable files, FIFOs, sockets and devices (an
        agent may leave any of them; opening a FIFO would block the runner forever).
    """
    skipped: list[str] = []
    benchlib.ensure_parent(dest)
    with (
        open(dest, "wb") as raw,
        gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0) as zipped,
        tarfile.open(fileobj=zipped, mode="w", format=tarfile.PAX_FORMAT) as tar,
    ):
        for path in archive_members(root, paths):
            try:
                added = _add(tar, path, root)
            except OSError:
                added = False
            if not added:
                skipped.append(path.relative_to(root).as_posix())
    return skipped


def _add(tar: tarfile.TarFile, path: Path, root: Path) -> bool:
    info = _info(path, root)
    if info is None:
        return False
    if info.isreg():
        with open(path, "rb") as stream:
            tar.addfile(info, stream)
    else:
        tar.addfile(info)
    return True
