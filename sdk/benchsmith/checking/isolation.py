"""Isolation: nothing private reaches the workspace an agent receives.

Three searches over the final workspace (verifier audit check 5):

* names: a private file (judge.py, task.toml, benchsmith.lock, fixtures.py) anywhere, or a
  ``reference/``, ``witnesses/``, ``mutants/`` or ``edge/`` folder at the root;
* content: a file whose content (decompressed) equals a private file of the task folder --
  judge.py, task.toml, the lock, fixtures.py, reference/, witnesses/, mutants/, edge/ (files
  shorter than :data:`MIN_CONTENT` bytes are too common to count, and an edge/ file identical
  to the visible/ file at the same path is shared on purpose);
* values: a private string of task.toml (``private = [...]`` and distinctive anchor
  expectations that are not themselves input values) inside a file authors wrote for the
  agent: TASK.md and the files of visible/ and stages/. Seeded data is not searched: a
  truth the agent must discover from the data (a release id in the logs) is there on
  purpose; what must never happen is the task stating it.
"""

from __future__ import annotations

import contextlib
import gzip
import os
from collections.abc import Iterator
from pathlib import Path

from benchsmith.dsl.model import TaskSpec
from benchsmith.linting.task_rules import private_values
from benchsmith.runtime import benchlib

PRIVATE_FILES = ("judge.py", "task.toml", "benchsmith.lock", "fixtures.py")
PRIVATE_FOLDERS = (*benchlib.AUTHORING_ONLY, "edge")
MIN_CONTENT = 16
CHUNK = 4 * 1024 * 1024


def isolation_problems(spec: TaskSpec, workspace: Path) -> list[str]:
    """Every leak found in ``workspace`` (empty when it is clean)."""
    files = sorted(_files(workspace))
    return (
        _name_problems(workspace, files)
        + _content_problems(spec, workspace, files)
        + _value_problems(spec, workspace, files)
    )


def _files(root: Path) -> Iterator[str]:
    for folder, dirs, names in os.walk(root):
        dirs.sort()
        for name in names:
            path = Path(folder, name)
            if path.is_file() and not path.is_symlink():
                yield path.relative_to(root).as_posix()


def _name_problems(workspace: Path, files: list[str]) -> list[str]:
    problems = [
        f"{rel}: a private file name" for rel in files if rel.split("/")[-1] in PRIVATE_FILES
    ]
    problems += [
        f"{name}/: a private folder at the workspace root"
        for name in PRIVATE_FOLDERS
        if (workspace / name).exists()
    ]
    return problems


def private_digests(task_dir: Path) -> dict[str, str]:
    """Content digest -> task-relative path of every private file long enough to match."""
    found: dict[str, str] = {}
    paths = [task_dir / n for n in PRIVATE_FILES]
    for folder in PRIVATE_FOLDERS:
        paths += (
            sorted(p for p in (task_dir / folder).rglob("*"))
            if (task_dir / folder).is_dir()
            else []
        )
    for path in paths:
        if path.is_file() and not path.is_symlink() and path.stat().st_size >= MIN_CONTENT:
            rel = path.relative_to(task_dir).as_posix()
            if not _shared_edge_file(task_dir, rel):
                found.setdefault(benchlib.file_digest(path), rel)
    return found


def _shared_edge_file(task_dir: Path, rel: str) -> bool:
    """Whether ``edge/X`` is byte-identical to ``visible/X`` (shared, not private)."""
    if not rel.startswith("edge/"):
        return False
    visible = task_dir / "visible" / rel.removeprefix("edge/")
    return visible.is_file() and visible.read_bytes() == (task_dir / rel).read_bytes()


def _content_problems(spec: TaskSpec, workspace: Path, files: list[str]) -> list[str]:
    secrets = private_digests(spec.task_dir)
    problems = []
    for rel in files:
        path = workspace / rel
        if path.stat().st_size >= MIN_CONTENT:
            origin = secrets.get(benchlib.file_digest(path))
            if origin:
                problems.append(f"{rel}: same content as the private {origin}")
    return problems


def authored_files(task_dir: Path) -> set[str]:
    """Workspace paths of the files authors wrote for the agent (TASK.md, visible/, stages/)."""
    found = {"TASK.md"}
    trees = [task_dir / "visible"]
    if (task_dir / "stages").is_dir():
        trees += sorted(p for p in (task_dir / "stages").iterdir() if p.is_dir())
    for tree in trees:
        if tree.is_dir():
            found.update(p.relative_to(tree).as_posix() for p in tree.rglob("*") if p.is_file())
    return found


def _value_problems(spec: TaskSpec, workspace: Path, files: list[str]) -> list[str]:
    secrets = private_values(spec)
    if not secrets:
        return []
    authored = authored_files(spec.task_dir)
    problems = []
    for rel in (f for f in files if f in authored):
        found = _search(workspace / rel, [v.encode("utf-8") for v, _ in secrets])
        problems += [
            f"{rel}: contains the {o} value {v!r}" for v, o in secrets if v.encode() in found
        ]
    return problems


def _search(path: Path, needles: list[bytes]) -> set[bytes]:
    """The needles that occur in ``path`` (decompressed too, when gzip), read in chunks."""
    found = _scan(path, needles, compressed=False)
    if path.name.endswith(".gz") and _is_gzip(path):
        # A corrupt stream still had its raw bytes searched.
        with contextlib.suppress(OSError, EOFError):
            found |= _scan(path, needles, compressed=True)
    return found


def _scan(path: Path, needles: list[bytes], *, compressed: bool) -> set[bytes]:
    found: set[bytes] = set()
    overlap = max(len(n) for n in needles) - 1
    tail = b""
    with gzip.open(path, "rb") if compressed else open(path, "rb") as stream:
        while block := stream.read(CHUNK):
            window = tail + block
            found.update(n for n in needles if n in window)
            tail = window[-overlap:] if overlap else b""
    return found


def _is_gzip(path: Path) -> bool:
    with open(path, "rb") as stream:
        return stream.read(2) == b"\x1f\x8b"
