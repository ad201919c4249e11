"""Finding tasks: corpus roots, task arguments, and the corpus settings file.

A corpus root is a folder whose subfolders named ``NN-slug`` hold a task.toml each (the
repository's ``tasks/`` and ``examples/``). Its optional ``corpus.toml`` says whether the
corpus declares itself complete (lint then enforces the spec's class counts).
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from benchsmith.diagnostics import display_path
from benchsmith.dsl.load import TASK_FILE
from benchsmith.errors import TaskNotFoundError

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


def corpus_root_tasks(root: Path) -> list[Path]:
    """Task folders directly under ``root`` (those holding a task.toml), sorted by name."""
    if not root.is_dir():
        return []
    return sorted(p for p in root.iterdir() if (p / TASK_FILE).is_file())


def read_settings(root: Path) -> CorpusSettings:
    """Read ``root/corpus.toml`` (defaults when absent; malformed files count as absent)."""
    try:
        data = tomllib.loads((root / CORPUS_FILE).read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError):
        return CorpusSettings()
    counts = data.get("counts", SPEC_COUNTS)
    return CorpusSettings(bool(data.get("complete", False)), tuple(sorted(counts.items())))


def resolve_task(argument: str | Path, corpus: Path = DEFAULT_CORPUS) -> Path:
    """Turn a task argument into its folder.

    ``argument`` may be a folder, a task.toml, a task id (``13``) or a slug
    (``incident-timeline``) of a task in ``corpus``.

    Raises:
        TaskNotFoundError: When nothing matches.
    """
    path = Path(argument)
    if path.is_dir() and (path / TASK_FILE).is_file():
        return path
    if path.name == TASK_FILE and path.is_file():
        return path.parent
    for task_dir in corpus_root_tasks(corpus):
        match = TASK_DIR_PATTERN.match(task_dir.name)
        if match and str(argument) in (match.group(1), str(int(match.group(1))), match.group(2)):
            return task_dir
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
