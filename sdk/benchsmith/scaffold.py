"""``benchsmith new``: scaffold a task folder from the cookiecutter template, build and lock it.

Everything happens in a staging folder beside the destination (``PARENT/.benchsmith-new-*``),
while the corpus root is locked: cookiecutter renders the task there, it is built and its seed
hashes recorded, and then one journaled write (:func:`benchsmith.generate.write.write_all`)
moves the task folder into place together with the corpus's new tasks.json, benchlib.py and
run.py. A ``new`` interrupted at any point, even by ``kill -9``, leaves the corpus as it was or as
it would be after success; the next ``new`` or ``build`` there finishes or deletes its staging.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

from cookiecutter.main import cookiecutter

from benchsmith import resources
from benchsmith.building import build, corpus_files
from benchsmith.corpus import corpus_root_tasks
from benchsmith.diagnostics import display_path
from benchsmith.dsl.load import load_task, read_task
from benchsmith.dsl.model import PRESSURE, TaskSpec
from benchsmith.dsl.toml_text import toml_string
from benchsmith.errors import FileSystemError, UsageError
from benchsmith.generate.write import STAGING, write_all
from benchsmith.lockfile import lock_tasks
from benchsmith.locking import locked
from benchsmith.pythons import resolve_python

SLUG_PATTERN = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")
MAX_ID = 99


def _stages_toml(pressure: str) -> str:
    profile = PRESSURE[pressure]
    if profile.min_stages == 1:
        return ""
    blocks = ['\n[[stages]]\nid = "initial"\n']
    for number in range(2, profile.min_stages + 1):
        message = toml_string(f"TODO: the follow-up request of stage {number}, verbatim.")
        blocks.append(f'\n[[stages]]\nid = "stage-{number}"\nmessage = {message}\n')
    return "".join(blocks)


def _check_arguments(slug: str, task_id: int, pressure: str) -> None:
    if not SLUG_PATTERN.match(slug):
        raise UsageError(f"slug {slug!r} must be lower-case words joined by hyphens")
    if not 1 <= task_id <= MAX_ID:
        raise UsageError(f"task id must be between 1 and {MAX_ID}, not {task_id}")
    if pressure not in PRESSURE:
        raise UsageError(f"pressure must be one of {', '.join(PRESSURE)}, not {pressure!r}")


def _parent_folder(parent: Path, parents: bool) -> Path:
    """The existing corpus root ``parent`` (created first with ``parents``), resolved."""
    shown = display_path(parent)
    if parent.exists() and not parent.is_dir():
        raise UsageError(f"--dir {shown} is not a folder")
    if not parent.exists():
        if not parents:
            raise UsageError(f"--dir {shown} does not exist; create it or pass --parents")
        try:
            parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise FileSystemError.from_os_error(exc, parent) from exc
    return parent.resolve()


def _check_free(parent: Path, task_id: int, dirname: str) -> None:
    if (parent / dirname).exists():
        raise UsageError(f"{display_path(parent / dirname)} already exists")
    for task_dir in corpus_root_tasks(parent):
        spec, _ = read_task(task_dir)
        if spec is not None and spec.id == task_id:
            raise UsageError(f"task id {task_id} is already used by {display_path(task_dir)}")


def new_task(
    slug: str,
    task_id: int,
    pressure: str,
    parent: Path,
    title: str = "",
    *,
    python: str | None = None,
    parents: bool = False,
) -> Path:
    """Scaffold ``parent/NN-slug``, build it and record its seed hashes (``lock``).

    Args:
        slug: Lower-case words joined by hyphens.
        task_id: Task number (1-99).
        pressure: ``N``, ``L``, ``M`` or ``H``.
        parent: The corpus root receiving the task; it must exist unless ``parents``.
        title: Human title (default: the slug in title case).
        python: Interpreter for seed.py (default: Python 3.12 when present).
        parents: Create ``parent`` (and its parents) when missing.

    Returns:
        The new task folder (absolute).

    Raises:
        UsageError: When an argument is invalid, ``parent`` is missing or not a folder, or
            the folder or the id already exists.
        TaskSpecError: When the arguments make an invalid task.toml (nothing is written).
        FileSystemError: When the corpus cannot be written (nothing is written).
        LockedError: When another process keeps the corpus locked.
    """
    _check_arguments(slug, task_id, pressure)
    root = _parent_folder(parent, parents)
    dirname = f"{task_id:02d}-{slug}"
    with locked([root]):
        _check_free(root, task_id, dirname)
        with _staging(root) as tmp:
            staged = _render(tmp, root, slug, task_id, pressure, title, dirname)
            build([staged])
            lock_tasks([staged], python=resolve_python(python))
            spec = load_task(staged)
            members = [*_valid_tasks(root), spec]
            files = corpus_files(root, members)
            write_all(files, moves={staged: root / dirname}, journal_dir=root)
    return root / dirname


def _valid_tasks(root: Path) -> list[TaskSpec]:
    found = [read_task(task_dir)[0] for task_dir in corpus_root_tasks(root)]
    return [spec for spec in found if spec is not None]


@contextlib.contextmanager
def _staging(root: Path) -> Iterator[Path]:
    """A staging folder in ``root``, removed afterwards (a crash's is swept by the next lock)."""
    try:
        staging = Path(tempfile.mkdtemp(prefix=STAGING, dir=root))
    except OSError as exc:
        raise FileSystemError.from_os_error(exc, root, "create a task folder in") from exc
    try:
        yield staging
    except OSError as exc:
        raise FileSystemError.from_os_error(exc, exc.filename or root, "write") from exc
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def _render(
    tmp: Path, root: Path, slug: str, task_id: int, pressure: str, title: str, dirname: str
) -> Path:
    """Render the cookiecutter template into ``tmp/dirname`` (cookiecutter's own replay and
    cache files go to ``tmp`` too, never to the home folder)."""
    schema = resources.data_dir("schemas") / "task.schema.json"
    shown_title = title or slug.replace("-", " ").title()
    context = {
        "id": str(task_id),
        "slug": slug,
        "title": shown_title,
        "pressure": pressure,
        "dirname": dirname,
        "schema_path": Path(os.path.relpath(schema, root / dirname)).as_posix(),
        "title_toml": toml_string(shown_title),
        "stages_toml": _stages_toml(pressure),
    }
    config = tmp / "cookiecutter.yaml"
    folders = {"cookiecutters_dir": str(tmp / "cache"), "replay_dir": str(tmp / "replay")}
    config.write_text("".join(f"{k}: {json.dumps(v)}\n" for k, v in folders.items()), "utf-8")
    template = str(resources.data_dir("templates") / "scaffold")
    cookiecutter(
        template, no_input=True, extra_context=context, output_dir=str(tmp), config_file=str(config)
    )
    return tmp / dirname
