"""Advisory locks on task and corpus folders, so concurrent writers take turns.

``build``, ``new``, ``lock`` and ``vocab`` hold an exclusive ``fcntl.flock`` on every folder
they write (each task folder and its corpus root) for as long as they run. The lock is taken
on the folder itself, so no lock file is ever left behind, even by ``kill -9``: the kernel
releases the lock with the process. A second writer waits for the first; after
:data:`LOCK_TIMEOUT` seconds it gives up with :class:`~benchsmith.errors.LockedError` naming
the holder's PID. Locks are re-entrant within a process (``new`` builds the task it scaffolds
while it holds the corpus root).

On taking a write lock, interrupted writes in the folder are repaired first
(:func:`benchsmith.generate.write.recover`): whoever holds the lock is the only writer, so any
staging file found there belongs to a process that died.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import time
from collections.abc import Iterable, Iterator
from pathlib import Path

from benchsmith.diagnostics import Diagnostic, display_path
from benchsmith.errors import FileSystemError, LockedError
from benchsmith.generate.write import recover as repair

LOCK_TIMEOUT = 120.0
_POLL = 0.05
_HELD: dict[Path, list[int]] = {}  # folder -> [descriptor, depth] held by this process


@contextlib.contextmanager
def locked(
    folders: Iterable[Path], *, recover: bool = True, timeout: float | None = None
) -> Iterator[None]:
    """Hold an exclusive lock on each folder (in path order, so two writers never deadlock).

    Args:
        folders: Existing folders to lock; duplicates and nesting are fine.
        recover: Repair interrupted writes in each newly locked folder (off for readers).
        timeout: Seconds to wait for another holder (default :data:`LOCK_TIMEOUT`).

    Raises:
        LockedError: When another process holds a folder for longer than ``timeout``.
        FileSystemError: When a folder cannot be opened or repaired.
    """
    wanted = sorted({f.resolve() for f in folders})
    taken: list[Path] = []
    try:
        for folder in wanted:
            if _acquire(folder, LOCK_TIMEOUT if timeout is None else timeout) and recover:
                repair(folder)
            taken.append(folder)
        yield
    finally:
        for folder in reversed(taken):
            _release(folder)


def _acquire(folder: Path, timeout: float) -> bool:
    """Lock ``folder``; return True when this process newly holds it (not re-entered)."""
    held = _HELD.get(folder)
    if held is not None:
        held[1] += 1
        return False
    try:
        fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    except OSError as exc:
        raise FileSystemError.from_os_error(exc, folder) from exc
    try:
        _wait(fd, folder, timeout)
    except BaseException:
        os.close(fd)
        raise
    _HELD[folder] = [fd, 1]
    return True


def _wait(fd: int, folder: Path, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return
        except OSError as exc:
            if exc.errno not in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                raise FileSystemError.from_os_error(exc, folder) from exc
        if time.monotonic() >= deadline:
            raise _locked_error(folder, timeout)
        time.sleep(_POLL)


def _release(folder: Path) -> None:
    held = _HELD[folder]
    held[1] -= 1
    if held[1] == 0:
        del _HELD[folder]
        os.close(held[0])  # closing the last descriptor releases the flock


def _locked_error(folder: Path, timeout: float) -> LockedError:
    shown = display_path(folder)
    pid = holder(folder)
    who = f"PID {pid}" if pid is not None else "another process"
    message = (
        f"{shown} is locked by {who} (another benchsmith build, new, lock or vocab); "
        f"waited {timeout:g} s. Wait for it to finish, or stop it"
    )
    return LockedError(message, [Diagnostic(shown, 1, 1, "BS002", f"locked by {who}")])


def holder(folder: Path) -> int | None:
    """The PID holding a flock on ``folder``, read from /proc/locks (``None`` if unknown)."""
    try:
        inode = folder.stat().st_ino
        lines = Path("/proc/locks").read_text(encoding="ascii", errors="replace").splitlines()
    except OSError:
        return None
    for line in lines:
        fields = line.split()
        if "->" in fields or len(fields) < 6 or fields[1] != "FLOCK":
            continue
        pid, where = fields[4], fields[5].rsplit(":", 1)
        if len(where) == 2 and where[1].isdigit() and int(where[1]) == inode and pid.isdigit():
            return int(pid)
    return None
