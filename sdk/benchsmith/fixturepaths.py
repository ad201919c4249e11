"""Which workspace paths each fixture of a task provides, read from task.toml and the task's
static trees (``visible/``, ``stages/<id>/``, ``edge/``).

Lint's BS104 rules (an input named before a fixture provides it, a service script no fixture
holds) and ``build`` (which refuses such a service) ask the same questions here.
"""

from __future__ import annotations

import shlex
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from benchsmith.dsl.model import TaskSpec
from benchsmith.runtime import benchlib


def files_under(task_dir: Path, folder: str) -> Iterator[Path]:
    """Regular files under ``task_dir/folder``, sorted (none when it does not exist)."""
    root = task_dir / folder
    if root.is_dir():
        yield from sorted(p for p in root.rglob("*") if p.is_file())


@dataclass(frozen=True, slots=True)
class Known:
    """Workspace paths known to exist at some stage, and folders generators fill freely."""

    paths: frozenset[str]
    generated_folders: tuple[str, ...]

    def __contains__(self, token: object) -> bool:
        if not isinstance(token, str):
            return False
        return token in self.paths or any(token.startswith(f + "/") for f in self.generated_folders)


def _with_folders(names: set[str]) -> frozenset[str]:
    folders = {"/".join(n.split("/")[:i]) for n in names for i in range(1, n.count("/") + 1)}
    return frozenset(names | folders)


def _static_files(task_dir: Path, trees: list[str]) -> set[str]:
    return {
        p.relative_to(task_dir / tree).as_posix()
        for tree in trees
        for p in files_under(task_dir, tree)
    }


def known_paths(spec: TaskSpec, upto: int) -> Known:
    """Workspace paths (and their folders) that exist after stage ``upto`` is injected."""
    files = [f for f in spec.files if spec.stage_number(f.stage) <= upto]
    names = {p.rstrip("/") for f in files for p in (f.writes or (f.path,))}
    trees = ["visible"] + [f"stages/{s.id}" for s in spec.stages[1:upto]]
    names |= _static_files(spec.task_dir, trees)
    names.update(s.url_file for s in spec.services)
    folders = tuple(f.path.rstrip("/") for f in files if f.generator and f.writes == (f.path,))
    return Known(_with_folders(names), folders)


def edge_paths(spec: TaskSpec) -> Known:
    """Paths of the edge fixture (edge files, edge/ and, by default, visible/)."""
    edge = spec.edge
    files = edge.files if edge else ()
    names = {p.rstrip("/") for f in files for p in (f.writes or (f.path,))}
    trees = ["edge"] + (["visible"] if edge and edge.include_visible else [])
    names |= _static_files(spec.task_dir, trees)
    folders = tuple(f.path.rstrip("/") for f in files if f.generator and f.writes == (f.path,))
    return Known(_with_folders(names), folders)


def service_script(run: str) -> str | None:
    """The script a service's ``run`` starts (a path relative to the fixture), if any."""
    try:
        argv = shlex.split(run)
    except ValueError:
        return None
    if argv and argv[0] in benchlib.PYTHON_NAMES:
        rest = argv[1:]
        while rest and rest[0].startswith("-") and rest[0] not in ("-m", "-c"):
            rest = rest[2:] if rest[0] in ("-X", "-W") else rest[1:]
        return rest[0] if rest and not rest[0].startswith("-") else None
    return argv[0] if argv and "/" in argv[0] and not argv[0].startswith("/") else None


def missing_service_scripts(spec: TaskSpec) -> Iterator[tuple[int, str]]:
    """``(service index, message)`` for every service whose script a fixture lacks: services
    start in the agent's stage-1 workspace and in the judge's main and edge fixtures."""
    fixtures = (("stage-1 workspace", known_paths(spec, 1)), ("edge", edge_paths(spec)))
    for index, service in enumerate(spec.services):
        script = service_script(service.run)
        if script is None:
            continue
        path = script[2:] if script.startswith("./") else script
        for fixture, known in fixtures:
            if path not in known:
                yield (
                    index,
                    (
                        f"service {service.name!r} runs {script}, which the {fixture} fixture does "
                        "not provide (add it to visible/ or a [[files]] generator"
                        + (", or set include_visible" if fixture == "edge" else "")
                        + ")"
                    ),
                )
