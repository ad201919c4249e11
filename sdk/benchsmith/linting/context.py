"""What lint rules look at: one task (maybe unloadable) or one corpus root."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

from benchsmith.diagnostics import Diagnostic, display_path
from benchsmith.dsl.model import TaskSpec
from benchsmith.fixturepaths import files_under

TEXT_SUFFIXES = frozenset(
    {".py", ".md", ".txt", ".csv", ".json", ".jsonl", ".toml", ".ini", ".cfg", ".ics",
     ".mbox", ".eml", ".html", ".xml", ".log", ".sql", ".yaml", ".yml", ".tsv", ".patch",
     ".diff"}
)  # fmt: skip


@dataclass
class TaskContext:
    """One task under lint.

    Attributes:
        task_dir: The task folder.
        spec: The loaded model, or ``None`` when task.toml has errors.
        load_diagnostics: Problems found while loading.
    """

    task_dir: Path
    spec: TaskSpec | None
    load_diagnostics: list[Diagnostic] = field(default_factory=list)

    def shown(self, name: str) -> str:
        """Display path of a file of the task."""
        return display_path(self.task_dir / name)

    def files_under(self, folder: str) -> Iterator[Path]:
        """Regular files under ``task_dir/folder``, sorted (none when it does not exist)."""
        return files_under(self.task_dir, folder)

    @cached_property
    def shipped_files(self) -> list[Path]:
        """Files that reach the workspace: visible/ and stages/ (TASK.md separately)."""
        return [*self.files_under("visible"), *self.files_under("stages")]

    def read(self, path: Path) -> str | None:
        """Text of a file, or ``None`` when it is binary or unreadable."""
        if path.suffix.lower() not in TEXT_SUFFIXES and path.suffix:
            return None
        try:
            return path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            return None


@dataclass
class CorpusContext:
    """One corpus root under lint, with all its tasks."""

    root: Path
    tasks: list[TaskContext]

    @property
    def specs(self) -> list[TaskSpec]:
        """The tasks that loaded."""
        return [t.spec for t in self.tasks if t.spec is not None]


def position_in(text: str, offset: int) -> tuple[int, int]:
    """1-based (line, column) of a character offset in ``text``."""
    line = text.count("\n", 0, offset) + 1
    col = offset - (text.rfind("\n", 0, offset) + 1) + 1
    return line, col
