"""``benchsmith lint``: every rule over tasks and corpus roots.

Paths may be task folders or corpus roots. Each task is loaded once (load problems are
reported as BS101/BS102), task rules run on every task, corpus rules on every corpus root
touched. Findings a task's ``[lint] ignore`` lists are dropped.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path

from benchsmith.corpus import corpus_root_tasks, is_task, task_folder
from benchsmith.diagnostics import Diagnostic, display_path, sort_diagnostics
from benchsmith.dsl.load import read_task
from benchsmith.errors import UsageError
from benchsmith.linting import corpus_rules as _corpus_rules  # noqa: F401 -- registers rules
from benchsmith.linting import task_rules as _task_rules  # noqa: F401 -- registers rules
from benchsmith.linting.context import CorpusContext, TaskContext
from benchsmith.linting.registry import CORPUS_RULES, RULES, TASK_RULES

__all__ = ["RULES", "lint_paths"]


def _task_dirs(path: Path) -> list[Path]:
    if is_task(path):
        return [task_folder(path)]
    found = corpus_root_tasks(path)
    if not found and not path.is_dir():
        raise UsageError(f"{display_path(path)}: no such task folder or corpus root")
    return found


def _contexts(paths: Sequence[Path]) -> list[CorpusContext]:
    by_root: dict[Path, dict[Path, TaskContext]] = {}
    for path in paths:
        for task_dir in _task_dirs(path):
            root = task_dir.parent.resolve()
            tasks = by_root.setdefault(root, {})
            if task_dir.resolve() not in tasks:
                spec, found = read_task(task_dir)
                tasks[task_dir.resolve()] = TaskContext(task_dir, spec, found)
    return [CorpusContext(root, list(tasks.values())) for root, tasks in sorted(by_root.items())]


def _selected(found: Iterable[Diagnostic], select: frozenset[str]) -> list[Diagnostic]:
    return [d for d in found if not select or any(d.code.startswith(s) for s in select)]


def _ignored_by(tasks: list[TaskContext]) -> dict[Path, frozenset[str]]:
    return {
        t.task_dir.resolve(): t.spec.lint_ignore for t in tasks if t.spec and t.spec.lint_ignore
    }


def _is_ignored(diagnostic: Diagnostic, ignored: dict[Path, frozenset[str]]) -> bool:
    resolved = Path(diagnostic.path).resolve()
    return any(
        diagnostic.code in codes and (resolved == folder or folder in resolved.parents)
        for folder, codes in ignored.items()
    )


def lint_paths(paths: Sequence[Path], *, select: frozenset[str] = frozenset()) -> list[Diagnostic]:
    """Lint task folders and corpus roots.

    Args:
        paths: Task folders, task.toml files or corpus roots.
        select: Only report codes starting with one of these (all when empty).

    Returns:
        Every finding, sorted by file and position.

    Raises:
        UsageError: When a path is neither a task nor a corpus root, or a selected code
            matches no rule.
    """
    unknown = sorted(s for s in select if not any(code.startswith(s) for code in RULES))
    if unknown:
        raise UsageError(
            f"--select {', '.join(unknown)}: no rule code starts with it; "
            "benchsmith rules lists the codes"
        )
    found: list[Diagnostic] = []
    for corpus in _contexts(paths):
        ignored = _ignored_by(corpus.tasks)
        batch: list[Diagnostic] = []
        for task in corpus.tasks:
            batch.extend(task.load_diagnostics)
            for rule in TASK_RULES:
                batch.extend(rule(task))
        for corpus_rule in CORPUS_RULES:
            batch.extend(corpus_rule(corpus))
        found.extend(d for d in batch if not _is_ignored(d, ignored))
    unique = list(dict.fromkeys(found))  # a loader and a rule may find the same problem
    return sort_diagnostics(_selected(unique, select))
