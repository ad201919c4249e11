"""``benchsmith build``: regenerate every generated file of some tasks, safely.

The steps: load the specs (pure), read each judge's authored region, render every file,
format all Python with one ruff call, compare with what is on disk, refuse to overwrite hand
edits (reported as conflicts), and finally write everything at once or nothing at all (per
corpus root, even under ``kill -9``: see :mod:`benchsmith.generate.write`). The task folders
and their corpus roots stay locked (:mod:`benchsmith.locking`) from the first read of a
generated file to the last write, so concurrent builds of one task take turns.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benchsmith import resources
from benchsmith.corpus import corpus_root_tasks
from benchsmith.diagnostics import Diagnostic, display_path
from benchsmith.dsl.load import load_task, read_task
from benchsmith.dsl.model import TaskSpec
from benchsmith.errors import BuildError, ConflictError, StaleError, TaskSpecError
from benchsmith.generate import env, regions
from benchsmith.generate.format import format_sources, formatter_identity
from benchsmith.generate.plan import index_entry, json_document, judge_source, plan_task
from benchsmith.generate.write import write_all
from benchsmith.lockfile import (
    LOCK_FILE,
    SEED_SOURCE,
    file_entry,
    lock_text,
    read_lock,
    seed_lock_problem,
    sha256_text,
)
from benchsmith.locking import locked

RUNTIME_NAMES = resources.RUNTIME_FILES
INDEX_NAME = "tasks.json"


@dataclass(frozen=True, slots=True)
class FileChange:
    """One file a build considered.

    Attributes:
        path: The file.
        status: ``created``, ``updated`` or ``unchanged``.
    """

    path: Path
    status: str


@dataclass
class BuildResult:
    """What a build did (or, with ``check``, would do).

    Attributes:
        files: Every file considered, in a stable order.
        tasks: The tasks built.
    """

    files: list[FileChange] = field(default_factory=list)
    tasks: list[TaskSpec] = field(default_factory=list)

    @property
    def changed(self) -> list[FileChange]:
        """Files created or updated."""
        return [f for f in self.files if f.status != "unchanged"]


@dataclass
class _Target:
    path: Path
    content: str
    owned: str  # the text benchsmith owns (hashed into the lock)
    guarded: bool = True  # hand edits to it are conflicts
    rendered: str = ""  # hash of the unformatted render + formatter (Python files)
    # For files whose render reads the file itself (judge.py's authored region): the render
    # the next build will produce from the formatted content, so the lock reaches a fixpoint.
    rerender: Callable[[str], str] | None = None
    existing: str | None = None  # the file's text on disk, read once by _status


def build(
    tasks: Sequence[Path | str | TaskSpec], *, check: bool = False, force: bool = False
) -> BuildResult:
    """Regenerate seed.py, judge.py, TASK.md, scenario.json and the corpus files.

    Args:
        tasks: Task folders, their task.toml files, or already loaded specs.
        check: Write nothing; raise :class:`StaleError` naming every stale file.
        force: Overwrite generated files even when they were edited by hand (the judge's
            authored region is still kept).

    Returns:
        What changed (with ``check``: nothing, since a stale file raises).

    Raises:
        TaskSpecError: When any task.toml is invalid (nothing is written).
        ConflictError: When a generated file carries hand edits and ``force`` is off.
        BuildError: When rendering or formatting fails.
        StaleError: With ``check``, when any generated file is out of date.
    """
    specs = _load_all(tasks)
    _check_service_scripts(specs)
    with locked(task_folders(specs), recover=not check):
        targets = _all_task_targets(specs)
        targets += _corpus_targets(specs)
        _format(targets)
        for spec in specs:
            mine = [t for t in targets if t.path.parent == spec.task_dir]
            targets.append(_lock_target(spec, mine))
        result = BuildResult(tasks=list(specs))
        result.files = [FileChange(t.path, _status(t)) for t in targets]
        if check:
            _raise_if_stale(specs, targets)
            return result
        if not force:
            _raise_conflicts(specs, targets)
        changed = [t for c, t in zip(result.files, targets, strict=True) if c.status != "unchanged"]
        _write(specs, changed)
    return result


def _check_service_scripts(specs: list[TaskSpec]) -> None:
    """Refuse services whose script no fixture provides (lint's BS104 finds the same)."""
    from benchsmith.fixturepaths import missing_service_scripts

    problems = [
        Diagnostic(display_path(s.task_dir / "task.toml"), *s.position("services", i, "run"),
                   "BS104", message)
        for s in specs
        for i, message in missing_service_scripts(s)
    ]  # fmt: skip
    if problems:
        raise BuildError(f"{len(problems)} service script(s) missing", problems)


def _write(specs: list[TaskSpec], changed: list[_Target]) -> None:
    """Write the changed files, all at once per corpus root (its journal goes there)."""
    roots = {s.task_dir: s.task_dir.parent for s in specs}
    by_root: dict[Path, dict[Path, str]] = {}
    for target in changed:
        root = roots.get(target.path.parent, target.path.parent)
        by_root.setdefault(root, {})[target.path] = target.content
    for root, files in sorted(by_root.items()):
        write_all(files, journal_dir=root)


def task_folders(specs: Iterable[TaskSpec]) -> set[Path]:
    """The folders a build of ``specs`` writes: each task folder and its corpus root."""
    return {f for s in specs for f in (s.task_dir, s.task_dir.parent)}


def _load_all(tasks: Iterable[Path | str | TaskSpec]) -> list[TaskSpec]:
    specs: list[TaskSpec] = []
    problems: list[Diagnostic] = []
    for task in tasks:
        if isinstance(task, TaskSpec):
            specs.append(task)
            continue
        try:
            specs.append(load_task(task))
        except TaskSpecError as exc:
            problems.extend(exc.diagnostics)
    if problems:
        files = sorted({Path(d.path).name for d in problems})
        raise TaskSpecError(f"{len(problems)} problem(s) in {', '.join(files)}", problems)
    return sorted(specs, key=lambda s: (str(s.task_dir.parent), s.id, s.slug))


def _read(path: Path) -> str | None:
    """A generated file's text (``None`` when missing); bytes that are not UTF-8 become U+FFFD,
    so the file differs from what build writes and is reported, never read as authored."""
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except UnicodeDecodeError:
        return path.read_bytes().decode("utf-8", errors="replace")


def _read_judge(path: Path) -> str | None:
    """judge.py's text; raise a located error when it is not UTF-8 (its region is authored)."""
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except UnicodeDecodeError as exc:
        data = path.read_bytes()
        line = data.count(b"\n", 0, exc.start) + 1
        col = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        message = f"judge.py is not valid UTF-8 (byte {exc.start}); its authored region is kept"
        message += " only as UTF-8 text: re-save it as UTF-8"
        raise BuildError(message, [Diagnostic(_shown(path), line, col, "BS400", message)]) from None


def _all_task_targets(specs: list[TaskSpec]) -> list[_Target]:
    """Every task's targets; problems of all tasks are raised together (BuildError)."""
    targets: list[_Target] = []
    failures: list[BuildError | ConflictError] = []
    for spec in specs:
        try:
            targets += _task_targets(spec)
        except (BuildError, ConflictError) as exc:
            failures.append(exc)
    if len(failures) == 1:
        raise failures[0]
    if failures:
        problems = [d for exc in failures for d in exc.diagnostics]
        raise BuildError(f"{len(problems)} problem(s) in judge.py files", problems)
    return targets


def _task_targets(spec: TaskSpec) -> list[_Target]:
    judge_path = spec.task_dir / "judge.py"
    existing = _read_judge(judge_path)
    authored = None
    if existing is not None:
        regions.check_authored(existing, _shown(judge_path))
        authored = regions.authored_region(existing, _shown(judge_path))
    targets = [
        _Target(spec.task_dir / r.name, r.content, r.content) for r in plan_task(spec, authored)
    ]
    for target in targets:
        if target.path == judge_path:
            target.rerender = lambda text: judge_source(
                spec, regions.authored_region(text, _shown(judge_path))
            )
    return targets


def _corpus_targets(specs: list[TaskSpec]) -> list[_Target]:
    targets = []
    for root in sorted({s.task_dir.parent for s in specs}):
        for path, text in corpus_files(root, _corpus_specs(root, specs)).items():
            targets.append(_Target(path, text, text, guarded=False))
    return targets


def corpus_files(root: Path, specs: Iterable[TaskSpec] | None = None) -> dict[Path, str]:
    """The runtime files (benchlib.py, run.py) and tasks.json of corpus ``root`` as a build
    writes them.

    Args:
        root: The corpus root.
        specs: The tasks tasks.json lists (default: every valid task under ``root``).
    """
    runtime = {
        root / name: resources.runtime_source(name).read_text(encoding="utf-8")
        for name in RUNTIME_NAMES
    }
    members = list(specs) if specs is not None else _corpus_specs(root, [])
    entries = sorted((index_entry(s) for s in members), key=lambda e: (e["id"], e["slug"]))
    return {**runtime, root / INDEX_NAME: json_document({"tasks": entries})}


def _corpus_specs(root: Path, built: list[TaskSpec]) -> list[TaskSpec]:
    """Every valid task of a corpus root (the built ones as loaded, others from disk)."""
    mine = {s.task_dir.resolve(): s for s in built}
    found = []
    for task_dir in corpus_root_tasks(root):
        spec = mine.get(task_dir.resolve())
        if spec is None:
            spec, _ = read_task(task_dir)
        if spec is not None:
            found.append(spec)
    return found


def _format(targets: list[_Target]) -> None:
    """Format generated Python in one ruff call, skipping files proven up to date.

    A file is up to date without formatting when the lock recorded the same unformatted
    render (and formatter) and the file on disk still has the owned hash the lock recorded.
    """
    pending: dict[str, _Target] = {}
    locks: dict[Path, dict[str, Any]] = {}
    for target in targets:
        if target.path.suffix != ".py" or not target.guarded:
            continue
        target.rendered = sha256_text(formatter_identity() + "\0" + target.content)
        folder = target.path.parent
        if folder not in locks:
            locks[folder] = read_lock(folder)
        if not _reuse_formatted(target, file_entry(locks[folder], target.path.name)):
            pending[str(target.path)] = target
    formatted = format_sources({name: t.content for name, t in pending.items()})
    for name, target in pending.items():
        target.content = _keep_region(target, formatted[name])
        target.owned = _owned(target.path, target.content)
        if target.rerender is not None:
            again = target.rerender(target.content)
            target.rendered = sha256_text(formatter_identity() + "\0" + again)


def _keep_region(target: _Target, formatted: str) -> str:
    """``formatted`` with judge.py's authored region as the author wrote it (ruff formats
    only the generated code; the region is the author's, blank lines and all)."""
    if target.path.name != "judge.py":
        return formatted
    shown = _shown(target.path)
    return regions.with_region(formatted, regions.authored_region(target.content, shown), shown)


def _reuse_formatted(target: _Target, entry: dict[str, str]) -> bool:
    existing = _read(target.path)
    if existing is None or entry.get("rendered") != target.rendered:
        return False
    owned = _owned(target.path, existing)
    if sha256_text(owned) != entry.get("owned"):
        return False
    target.content, target.owned = existing, owned
    return True


def _owned(path: Path, text: str) -> str:
    """The part of a generated file benchsmith owns (judge.py: all but its region)."""
    return regions.skeleton(text, _shown(path)) if path.name == "judge.py" else text


def _lock_target(spec: TaskSpec, targets: list[_Target]) -> _Target:
    files = {t.path.name: _lock_entry(t) for t in targets}
    lock = read_lock(spec.task_dir)
    text = lock_text(files, lock["seed"], lock.get("seed_inputs"))
    return _Target(spec.task_dir / LOCK_FILE, text, text, guarded=False)


def _lock_entry(target: _Target) -> dict[str, str]:
    entry = {"owned": sha256_text(target.owned)}
    return {**entry, "rendered": target.rendered} if target.rendered else entry


def _status(target: _Target) -> str:
    target.existing = existing = _read(target.path)
    if existing is None:
        return "created"
    return "unchanged" if existing == target.content else "updated"


def _shown(path: Path) -> str:
    return display_path(path)


def _raise_if_stale(specs: list[TaskSpec], targets: list[_Target]) -> None:
    """Raise StaleError naming each stale file once: BS504 when edited by hand, else BS501;
    BS505 when the lock's seed hashes are missing or older than the seed's inputs."""
    found = _conflicts(specs, targets)
    edited = {d.path for d in found}
    for target in targets:
        shown = _shown(target.path)
        if target.existing != target.content and shown not in edited:
            line = _first_difference(target.existing, target.content)
            code, message = _stale_finding(target)
            found.append(Diagnostic(shown, line, 1, code, message))
    unlocked = [d for spec in specs for d in _seed_lock(spec, targets)]
    advice = []
    if found:
        advice.append(
            f"{len(found)} generated file(s) are stale or edited by hand; run benchsmith build "
            "(--force discards hand edits)"
        )
    if unlocked:
        advice.append(f"{len(unlocked)} task(s) need benchsmith lock (BS505)")
    if advice:
        raise StaleError("; ".join(advice), found + unlocked)


def _seed_lock(spec: TaskSpec, targets: list[_Target]) -> list[Diagnostic]:
    """BS505 when benchsmith.lock's seed hashes cannot be trusted (see seed_lock_problem)."""
    seed_path = spec.task_dir / SEED_SOURCE
    seed = next((t.content for t in targets if t.path == seed_path), None)
    problem = seed_lock_problem(spec.task_dir, seed)
    if problem is None:
        return []
    path = spec.task_dir / LOCK_FILE
    text = _read(path) or ""
    offset = max(text.find('"seed"'), 0)
    line = text.count("\n", 0, offset) + 1
    col = offset - (text.rfind("\n", 0, offset) + 1) + 1
    return [Diagnostic(_shown(path), line, col, "BS505", problem)]


# The corpus files have codes of their own (lint and build --check report the same one).
_CORPUS_FILE_FINDINGS = {
    "tasks.json": (
        "BS502",
        "tasks.json does not list the corpus's tasks as they are; run benchsmith build",
    ),
    **{
        name: ("BS503", f"differs from sdk/benchsmith/runtime/{name}; run benchsmith build")
        for name in resources.RUNTIME_FILES
    },
}


def _stale_finding(target: _Target) -> tuple[str, str]:
    """The code and message of a stale or missing generated file."""
    if target.existing is None:
        code = _CORPUS_FILE_FINDINGS.get(target.path.name, ("BS501", ""))[0]
        return code, "generated file is missing; run benchsmith build"
    return _CORPUS_FILE_FINDINGS.get(
        target.path.name,
        (
            "BS501",
            "generated file is stale (differs from what task.toml produces); run benchsmith build",
        ),
    )


def _raise_conflicts(specs: list[TaskSpec], targets: list[_Target]) -> None:
    found = _conflicts(specs, targets)
    if found:
        raise ConflictError(
            f"{len(found)} generated file(s) were edited by hand; move the edits into "
            "task.toml, fixtures.py or the judge's authored region, or rebuild with --force",
            found,
        )


def _conflicts(specs: list[TaskSpec], targets: list[_Target]) -> list[Diagnostic]:
    found: list[Diagnostic] = []
    for spec in specs:
        lock = read_lock(spec.task_dir)
        for target in targets:
            if target.guarded and target.path.parent == spec.task_dir:
                recorded = file_entry(lock, target.path.name).get("owned")
                found.extend(_conflict(target, recorded))
    return found


def _conflict(target: _Target, recorded: str | None) -> list[Diagnostic]:
    existing = target.existing
    if existing is None or existing == target.content:
        return []
    try:
        owned = _owned(target.path, existing)
    except ConflictError as exc:  # judge.py's region markers are broken
        return list(exc.diagnostics)
    if recorded is not None:
        edited = sha256_text(owned) != recorded
    else:
        edited = env.GENERATED_HEADER not in existing and env.JUDGE_HEADER not in existing
    if not edited:
        return []
    line = _first_difference(existing, target.content)
    message = "edited by hand since benchsmith generated it; these lines would be lost"
    return [Diagnostic(_shown(target.path), line, 1, "BS504", message)]


def _first_difference(old: str | None, new: str) -> int:
    """The 1-based line of ``old`` where it first differs from ``new`` (1 when missing)."""
    if not old:
        return 1
    lines = old.splitlines()
    matcher = difflib.SequenceMatcher(a=lines, b=new.splitlines(), autojunk=False)
    for tag, start, _, _, _ in matcher.get_opcodes():
        if tag != "equal":
            return max(1, min(start + 1, len(lines)))
    return max(1, len(lines))
