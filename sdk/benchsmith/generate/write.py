"""All-or-nothing writes of a set of files, even when the process is killed.

:func:`write_all` writes each new file to a uniquely named staging file beside its target
(``.NAME.benchsmith-new-PID-RANDOM``), so two processes never share a staging name. When
every file is staged, a journal listing the renames is written in one atomic step: that is
the commit. The renames follow with SIGINT and SIGTERM held back, then the journal goes.

* Killed before the commit: the old files are intact; the staging files are stale.
* Killed after it: the journal says exactly how to finish.

:func:`recover` repairs a folder, and runs whenever a writer locks it
(:func:`benchsmith.locking.locked`): it completes every committed journal and deletes every
other staging file. A folder is thus always fully old or fully new once the next ``build`` or
``new`` has locked it. A single file needs no journal: one ``rename`` replaces it atomically.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import threading
from collections.abc import Iterator, Mapping
from pathlib import Path

from benchsmith.errors import FileSystemError

FILE_MODE = 0o644
STAGING = ".benchsmith-new-"
JOURNAL = ".benchsmith-journal-"
_LEGACY_NEW = ".benchsmith-new"  # fixed staging names of earlier versions
_LEGACY_OLD = ".benchsmith-old"
_WRITTEN_SUBFOLDERS = ("vocab",)  # folders under a task that writers stage files in


def token() -> str:
    """A staging suffix no other process (and no other call) uses: ``PID-RANDOM``."""
    return f"{os.getpid()}-{os.urandom(4).hex()}"


def staging_name(path: Path, suffix: str) -> Path:
    """The staging file of ``path`` for the write ``suffix`` (see :func:`token`)."""
    return path.with_name(f".{path.name}{STAGING}{suffix}")


def write_all(
    files: Mapping[Path, str],
    *,
    moves: Mapping[Path, Path] | None = None,
    journal_dir: Path | None = None,
) -> None:
    """Replace every file in ``files`` with its content (and do ``moves``), all or nothing.

    Args:
        files: Target path -> new text (UTF-8, LF line endings, mode 644).
        moves: Already staged paths (files or folders beside their target) -> targets
            that must not exist yet; committed together with ``files``.
        journal_dir: Where the journal goes, a folder the caller holds locked (default: the
            deepest folder holding every target).

    Raises:
        FileSystemError: When a write fails (read-only or full file system, permissions);
            no target has changed, and no staging file is left.
    """
    suffix = token()
    renames: list[tuple[Path, Path]] = list((moves or {}).items())
    staged: list[Path] = []
    try:
        for path, content in files.items():
            path.parent.mkdir(parents=True, exist_ok=True)
            staged.append(_stage(path, content, suffix))
            renames.append((staged[-1], path))
        if len(renames) == 1 and not moves:
            _apply(renames)
            return
        folder = journal_dir or _common_folder([t for _, t in renames])
        journal = _write_journal(folder, renames, suffix)
    except OSError as exc:
        _discard(staged)
        where = exc.filename or journal_dir or next(iter(files), None)
        raise FileSystemError.from_os_error(exc, where, "write") from exc
    except BaseException:
        _discard(staged)
        raise
    _commit(journal, renames)


def _stage(path: Path, content: str, suffix: str) -> Path:
    staged = staging_name(path, suffix)
    try:
        with open(staged, "x", encoding="utf-8", newline="\n") as stream:
            stream.write(content)
            stream.flush()
            os.fsync(stream.fileno())
        staged.chmod(FILE_MODE)
    except OSError as exc:
        _discard([staged])
        raise FileSystemError.from_os_error(exc, path, "write") from exc
    except BaseException:
        _discard([staged])
        raise
    return staged


def _common_folder(targets: list[Path]) -> Path:
    return Path(os.path.commonpath([str(t.parent.resolve()) for t in targets]))


def _write_journal(folder: Path, renames: list[tuple[Path, Path]], suffix: str) -> Path:
    """Write the journal atomically (temporary file, then rename): the commit point."""
    entries = [[os.path.relpath(a, folder), os.path.relpath(b, folder)] for a, b in renames]
    journal = folder / f"{JOURNAL}{suffix}"
    pending = folder / f"{JOURNAL}{suffix}.tmp"
    try:
        with open(pending, "x", encoding="utf-8") as stream:
            json.dump({"renames": entries}, stream)
            stream.flush()
            os.fsync(stream.fileno())
        pending.replace(journal)
    except BaseException:
        with contextlib.suppress(OSError):
            pending.unlink()
        raise
    return journal


def _commit(journal: Path, renames: list[tuple[Path, Path]]) -> None:
    """Do the journal's renames, then drop it; a failure leaves it for :func:`recover`."""
    try:
        with _signals_held():
            _apply(renames)
            journal.unlink()
    except OSError as exc:
        raise FileSystemError.from_os_error(exc) from exc


def _apply(renames: list[tuple[Path, Path]]) -> None:
    for source, target in renames:
        if source.exists() or source.is_symlink():
            source.replace(target)


@contextlib.contextmanager
def _signals_held() -> Iterator[None]:
    """Defer SIGINT and SIGTERM for the few renames of a commit (main thread only)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    held = {signal.SIGINT, signal.SIGTERM}
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, held)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def _discard(paths: list[Path]) -> None:
    for path in paths:
        with contextlib.suppress(OSError):
            path.unlink()


def recover(folder: Path) -> None:
    """Finish every committed write in ``folder`` and delete every stale staging file.

    Only a process holding ``folder``'s lock may call this (every writer does, on locking).

    Raises:
        FileSystemError: When the folder cannot be repaired (e.g. it is read-only).
    """
    try:
        for journal in sorted(folder.glob(f"{JOURNAL}*")):
            _replay(folder, journal)
        for place in (folder, *(folder / name for name in _WRITTEN_SUBFOLDERS)):
            if place.is_dir():
                _sweep(place)
    except OSError as exc:
        raise FileSystemError.from_os_error(exc) from exc


def stale_entries(folder: Path) -> list[Path]:
    """Staging files and folders, journals and legacy backups directly in ``folder``."""
    return sorted(p for p in folder.glob(".*") if _is_staging(p.name) or p.name.startswith(JOURNAL))


def _is_staging(name: str) -> bool:
    return STAGING in name or name.endswith((_LEGACY_NEW, _LEGACY_OLD))


def _replay(folder: Path, journal: Path) -> None:
    if journal.name.endswith(".tmp"):  # never committed
        journal.unlink()
        return
    try:
        entries = json.loads(journal.read_text(encoding="utf-8"))["renames"]
    except (ValueError, KeyError, TypeError):  # cannot happen: journals appear atomically
        entries = []
    _apply([(folder / a, folder / b) for a, b in entries])
    journal.unlink()


def _sweep(place: Path) -> None:
    for path in sorted(place.glob(".*")):
        name = path.name
        if name.endswith(_LEGACY_OLD):  # an earlier version's backup: restore when needed
            target = path.with_name(name[1 : -len(_LEGACY_OLD)])
            if not target.exists():
                path.replace(target)
                continue
        if _is_staging(name):
            _remove(path)


def _remove(path: Path) -> None:
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path)
    else:
        path.unlink()
