"""Finding tasks: corpus roots, task arguments, and the corpus settings file.

A corpus root is a folder whose subfolders named ``NN-slug`` hold a task.toml each (the
repository's ``tasks/`` and ``examples/``). Its optional ``corpus.toml`` says whether the
corpus declares itself complete (lint then enforces the spec's class counts).

A task has one identity: :func:`task_source` resolves a task argument (``.``, a relative or
an absolute path, the folder or its task.toml) once, to an absolute path without symlinks or
``..``, and every command works from that. So ``build .`` inside a task folder writes the
corpus files beside the task, not into it, and lint and the lock see the same folder name.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from benchsmith.diagnostics import display_path
from benchsmith.errors import TaskNotFoundError

TASK_FILE = "task.toml"
DEFAULT_CORPUS = Path("tasks")
CORPUS_FILE = "corpus.toml"
TASK_DIR_PATTERN = re.compile(r"^(\d{2,})-([a-z0-9]+(?:-[a-z0-9]+)*)$")
SPEC_COUNTS = {"N": 8, "L": 10, "M": 8, "H": 4}


@dataclass(frozen=True, slots=True)
class CorpusSettings:
    """Settings of one corpus root.

    Attributes:
        complete: Whether the corpus declares itself complete.
        counts: Required task counts per pressure class once complete.
    """

    complete: bool = False
    counts: tuple[tuple[str, int], ...] = tuple(SPEC_COUNTS.items())


def task_source(path: Path | str) -> Path:
    """The task.toml of a task folder (or of the file itself), absolute and resolved.

    This is the one place a task's identity is decided: ``.``, ``../01-x``, ``/abs/01-x``
    and ``01-x/task.toml`` all name the same task the same way.

    Raises:
        TaskNotFoundError: When no task.toml exists there.
    """
    path = Path(path)
    candidate = path / TASK_FILE if path.is_dir() else path
    if candidate.name != TASK_FILE or not candidate.is_file():
        raise TaskNotFoundError(f"{display_path(path)}: no {TASK_FILE} found")
    return candidate.resolve()


def task_folder(path: Path | str) -> Path:
    """The folder of a task (see :func:`task_source`), absolute and resolved.

    Raises:
        TaskNotFoundError: When no task.toml exists there.
    """
    return task_source(path).parent


def is_task(path: Path) -> bool:
    """Whether ``path`` is a task folder or a task.toml."""
    return (path / TASK_FILE).is_file() or (path.name == TASK_FILE and path.is_file())


def corpus_root_tasks(root: Path) -> list[Path]:
    """Task folders directly under ``root`` (those holding a task.toml), resolved, by name."""
    if not root.is_dir():
        return []
    return sorted(p for p in root.resolve().iterdir() if (p / TASK_FILE).is_file())


def read_settings(root: Path) -> CorpusSettings:
    """Read ``root/corpus.toml`` (defaults when absent; malformed files count as absent)."""
    try:
        data = tomllib.loads((root / CORPUS_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):  # absent, not UTF-8 or TOML, too deep
        return CorpusSettings()
    counts = data.get("counts", SPEC_COUNTS)
    if not isinstance(counts, dict) or not all(isinstance(v, int) for v in counts.values()):
        counts = SPEC_COUNTS
    return CorpusSettings(data.get("complete") is True, tuple(sorted(counts.items())))


def resolve_task(argument: str | Path, corpus: Path = DEFAULT_CORPUS) -> Path:
    """Turn a task argument into its folder.

    ``argument`` may be a folder, a task.toml, a task id (``13``) or a slug
    (``incident-timeline``) of a task in ``corpus``.

    Raises:
        TaskNotFoundError: When nothing matches.
    """
    path = Path(argument)
    if is_task(path):
        return task_folder(path)
    for task_dir in corpus_root_tasks(corpus):
        match = TASK_DIR_PATTERN.match(task_dir.name)
        if match and str(argument) in (match.group(1), str(int(match.group(1))), match.group(2)):
            return task_dir
    inside = corpus_root_tasks(path)
    if inside:
        raise TaskNotFoundError(
            f"{argument}: a corpus root, not a task; name one of its tasks (e.g. "
            f"{(path / inside[0].name).as_posix()}), or all of them with --all --corpus {argument}"
        )
    raise TaskNotFoundError(
        f"{argument}: not a task folder, and no task of {display_path(corpus)} has that id or slug"
    )


def resolve_tasks(
    arguments: Sequence[str | Path], *, all_tasks: bool, corpus: Path = DEFAULT_CORPUS
) -> list[Path]:
    """Resolve task arguments (plus every task of ``corpus`` with ``all_tasks``), deduplicated.

    Raises:
        TaskNotFoundError: When an argument matches nothing, or nothing was asked for.
    """
    found = [resolve_task(a, corpus) for a in arguments]
    if all_tasks:
        found += corpus_root_tasks(corpus)
    if not found:
        raise TaskNotFoundError("no task given; name task folders or use --all")
    return _unique(found)


def _unique(paths: Iterable[Path]) -> list[Path]:
    seen: dict[Path, Path] = {}
    for path in paths:
        seen.setdefault(path.resolve(), path)
    return list(seen.values())
