"""Where a run's workspace and stage files come from: seeded once per invocation, then copied.

seed.py is deterministic (``benchsmith check`` proves it), so every run of a task in one
``benchsmith run`` invocation starts from the same tree; seeding it again for each repeat
only costs time (about 10 s for task 13). With a cache folder, :class:`WorkspaceSource`
materializes a task's stage-1 workspace (:func:`benchlib.make_workspace`) and each later
stage's files (:func:`benchlib.stage_files`) once, the first time a run needs them, and
every run copies them. Copies keep symlinks as links and every mode (inputs read-only,
editable paths writable), so a run sees exactly the tree a fresh materialization writes.

Runs of a ``-j N`` pool share the folder. Each entry is built under an exclusive lock on its
own lock file, so a second worker waits for the first instead of seeding the same tree
again, and into a temporary folder renamed into place when complete, so a crashed builder
leaves no half-written entry behind. A stage-1 workspace holding something a copy cannot
reproduce (a FIFO, socket or device) is not cached: those runs materialize afresh.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import shutil
import stat
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from benchsmith.runtime import benchlib

WORKSPACE = "workspace"
TREE = "tree"


@dataclass(frozen=True, slots=True)
class WorkspaceSource:
    """Materializes a task's workspaces for its runs.

    Attributes:
        layout: The task's layout.
        python: Interpreter that runs seed.py.
        cache: This task's folder in the invocation's cache, shared by its runs; ``None``
            seeds every workspace and stage afresh.
    """

    layout: benchlib.Layout
    python: str
    cache: Path | None = None

    def make(self, dest: Path) -> None:
        """Write the stage-1 workspace to ``dest`` (which must not exist yet)."""
        if self.cache is not None:
            tree = self.entry(WORKSPACE, self.build_workspace) / TREE
            if tree.is_dir():
                shutil.copytree(tree, dest, symlinks=True)
                return
        benchlib.make_workspace(self.layout, dest, stage=1, python=self.python)

    def inject(self, workspace: Path, stage: int) -> None:
        """Add the files stage ``stage`` introduces to the live ``workspace``."""
        if self.cache is None:
            benchlib.inject_stage(self.layout, workspace, stage, self.python)
            return
        entry = self.entry(f"stage-{stage}", lambda out: self.build_stage(out, stage))
        benchlib.apply_stage_files(self.layout, workspace, entry / TREE)

    def build_workspace(self, out: Path) -> None:
        """Materialize the stage-1 workspace into ``out/tree`` when a copy can reproduce it."""
        benchlib.make_workspace(self.layout, out / TREE, stage=1, python=self.python)
        if not copyable(out / TREE):
            benchlib.remove_path(out / TREE)

    def build_stage(self, out: Path, stage: int) -> None:
        """Write the files stage ``stage`` introduces into ``out/tree``."""
        (out / TREE).mkdir()
        benchlib.stage_files(self.layout, out / TREE, stage, self.python)

    def entry(self, name: str, build: Callable[[Path], None]) -> Path:
        """The cache entry ``name``, built by ``build`` (into an empty folder) if missing."""
        assert self.cache is not None
        ready = self.cache / name
        if ready.is_dir():
            return ready
        self.cache.mkdir(parents=True, exist_ok=True)
        with _locked(self.cache / f".{name}.lock"):
            if not ready.is_dir():
                building = Path(tempfile.mkdtemp(prefix=f".{name}-", dir=self.cache))
                try:
                    build(building)
                    building.rename(ready)
                finally:
                    if building.exists():
                        benchlib.remove_path(building)
        return ready


def copyable(root: Path) -> bool:
    """Whether ``root`` holds only folders, regular files and symlinks (a copy's repertoire)."""
    for folder, dirs, files in os.walk(root):
        for name in dirs + files:
            mode = Path(folder, name).lstat().st_mode
            if not (stat.S_ISDIR(mode) or stat.S_ISREG(mode) or stat.S_ISLNK(mode)):
                return False
    return True


def remove_cache(root: Path) -> None:
    """Remove an invocation's cache folder, read-only trees included, whatever is left."""
    with contextlib.suppress(OSError):
        benchlib.make_writable(root)
    shutil.rmtree(root, ignore_errors=True)


@contextlib.contextmanager
def _locked(path: Path) -> Iterator[None]:
    """Hold an exclusive lock on ``path`` (created if missing) across processes."""
    handle = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(handle, fcntl.LOCK_EX)
        yield
    finally:
        os.close(handle)
