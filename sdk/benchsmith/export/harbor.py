"""``benchsmith export harbor``: each task as a Harbor task folder.

The export refuses a task that is not known to be sound, unless forced. The gate is the
static part of what ``benchsmith check`` relies on, because the dynamic controls take minutes
(the reference control alone judges every task three times, and seeding task 13's 68 MB of
logs takes ~15 s): generated files current (``build --check``: the judge, seed.py and
TASK.md are what task.toml says), lint clean of errors (which includes private values in
what the agent sees, BS302, and the corpus runtime's drift, BS503), a fixture lock recorded
(``benchsmith lock``), and a reference to install. Run ``benchsmith check`` in CI as before;
the export only refuses what is certainly wrong.

Same input, same bytes: files are written sorted with fixed modes (644, 755 for scripts, 666
and 777 for the stage files and folders the agent may edit) and no timestamps; each task
folder is replaced as a whole (built beside it, then swapped in), so files of an earlier
export never linger.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import tomllib
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from benchsmith.diagnostics import Diagnostic, Severity, display_path
from benchsmith.dsl.load import load_task
from benchsmith.dsl.model import TaskSpec
from benchsmith.errors import BenchsmithError, StaleError, UsageError
from benchsmith.export.harbor_task import StageFiles, TaskPlan, plan_task, source_name
from benchsmith.lockfile import read_lock
from benchsmith.pythons import resolve_python
from benchsmith.runtime import benchlib
from benchsmith.workspaces import layout_for, require_built

SANDBOX_MODULE = "benchsmith_sandbox.py"
SEED_THREADS = 4
_STAGING = ".benchsmith-new"
_RETIRED = ".benchsmith-old"


class ExportRefusedError(BenchsmithError):
    """Raised when a task fails the pre-export gate and ``force`` is off."""


@dataclass(frozen=True, slots=True)
class ExportedTask:
    """One task written by :func:`export_harbor`.

    Attributes:
        source: The benchsmith task folder.
        dest: The Harbor task folder written.
        files: How many files it holds.
        problems: What the gate found (empty when sound; non-empty only with ``force``).
    """

    source: Path
    dest: Path
    files: int
    problems: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class HarborExport:
    """The result of :func:`export_harbor`.

    Attributes:
        out: The output folder.
        tasks: The exported tasks, in the order given.
        sandbox: The offline environment module written beside them.
    """

    out: Path
    tasks: tuple[ExportedTask, ...]
    sandbox: Path


def export_harbor(
    paths: Sequence[Path], out: Path, force: bool = False, python: str | None = None
) -> HarborExport:
    """Export benchsmith tasks as Harbor tasks under ``out`` (one folder each).

    Args:
        paths: Task folders (or their task.toml files).
        out: Output folder (created); ``out/NN-slug`` is replaced for each task.
        force: Export tasks that fail the gate (the problems are recorded in task.toml).
        python: Interpreter that runs seed.py for the stage files (default: Python 3.12).

    Returns:
        What was written.

    Raises:
        UsageError: When no task is given, or ``out/NN-slug`` exists and is not an export.
        ExportRefusedError: When a task fails the gate and ``force`` is off.
        TaskSpecError: When a task.toml is invalid.
    """
    if not paths:
        raise UsageError("name the tasks to export, or use --all")
    specs = [load_task(path) for path in paths]
    for spec in specs:
        require_built(spec)
    problems = gate(specs)
    refused = {name: found for name, found in problems.items() if found}
    if refused and not force:
        raise ExportRefusedError(_refusal(refused), _diagnostics(refused))
    for spec in specs:
        _check_destination(out / spec.dirname)
    deltas = stage_files(specs, resolve_python(python))
    tasks = []
    for spec in specs:
        found = problems[source_name(spec)]
        plan = plan_task(spec, deltas[spec.dirname], soundness(found))
        dest = out / spec.dirname
        write_tree(dest, plan)
        tasks.append(ExportedTask(spec.task_dir, dest, len(plan.files), tuple(found)))
    sandbox = write_sandbox_module(out)
    return HarborExport(out, tuple(tasks), sandbox)


# --------------------------------------------------------------------------------------------
# the gate
# --------------------------------------------------------------------------------------------


def gate(specs: Sequence[TaskSpec], *, reference: bool = True) -> dict[str, list[str]]:
    """What makes each task unfit for export (empty lists for sound tasks).

    ``reference``: a task needs ``reference/`` (the Harbor oracle installs it).
    """
    from benchsmith.building import build
    from benchsmith.linting import lint_paths

    found: dict[str, list[str]] = {source_name(s): [] for s in specs}
    by_dir = {s.task_dir.resolve(): source_name(s) for s in specs}
    try:
        build(list(specs), check=True)
    except StaleError as exc:
        for diagnostic in exc.diagnostics or ():
            _attribute(found, by_dir, Path(diagnostic.path), f"stale: {diagnostic.message}")
        if not exc.diagnostics:
            for name in found:
                found[name].append(f"generated files are stale: {exc.message}")
    for diagnostic in lint_paths([s.task_dir for s in specs]):
        if diagnostic.severity is Severity.ERROR:
            message = f"lint {diagnostic.code}: {diagnostic.message}"
            _attribute(found, by_dir, Path(diagnostic.path), message)
    for spec in specs:
        name = source_name(spec)
        if not read_lock(spec.task_dir).get("seed"):
            found[name].append("no fixture lock: run benchsmith lock")
        if reference and not (spec.task_dir / "reference").is_dir():
            found[name].append("no reference/ to install as the oracle's solution")
    return found


def _attribute(found: dict[str, list[str]], by_dir: dict[Path, str], path: Path, text: str) -> None:
    resolved = path.resolve()
    for folder, name in by_dir.items():
        if resolved == folder or folder in resolved.parents:
            found[name].append(text)
            return
    for name in found:  # a corpus-level file (tasks.json, benchlib.py) concerns every task
        found[name].append(text)


def soundness(problems: Sequence[str]) -> str:
    """The gate's outcome as recorded in task.toml."""
    if not problems:
        return "build --check, lint, lock and reference: passed"
    return "EXPORTED WITH --force despite: " + "; ".join(problems)


def _refusal(refused: dict[str, list[str]]) -> str:
    names = ", ".join(refused)
    return f"not exported (fix them, or pass --force): {names}"


def _diagnostics(refused: dict[str, list[str]]) -> list[Diagnostic]:
    return [
        Diagnostic(f"{name}/task.toml", 0, 0, "EXPORT", problem)
        for name, problems in refused.items()
        for problem in problems
    ]


# --------------------------------------------------------------------------------------------
# stage files
# --------------------------------------------------------------------------------------------


def stage_files(specs: Sequence[TaskSpec], python: str) -> dict[str, list[StageFiles]]:
    """The files each later stage adds, per task (seed.py runs in parallel)."""
    jobs = [(spec, number) for spec in specs for number in range(2, len(spec.stages) + 1)]
    with ThreadPoolExecutor(max_workers=SEED_THREADS) as pool:
        results = list(pool.map(lambda job: stage_delta(job[0], job[1], python), jobs))
    deltas: dict[str, list[StageFiles]] = {spec.dirname: [] for spec in specs}
    for (spec, _), delta in zip(jobs, results, strict=True):
        deltas[spec.dirname].append(delta)
    return deltas


def stage_delta(spec: TaskSpec, number: int, python: str) -> StageFiles:
    """What stage ``number`` (2 or more) adds: seed.py's files for it, then stages/<id>/."""
    layout = layout_for(spec)
    stage = spec.stages[number - 1]
    with tempfile.TemporaryDirectory(prefix="benchsmith-stage-") as tmp:
        delta = Path(tmp) / "delta"
        benchlib.run_seed(layout, delta, fixture="main", stage=number, python=python, only=True)
        static = spec.task_dir / "stages" / stage.id
        if static.is_dir():
            benchlib.copy_tree(static, delta)
        files = {
            path.relative_to(delta).as_posix(): path.read_bytes()
            for path in sorted(delta.rglob("*"))
            if path.is_file()
        }
    return StageFiles(stage.id, files)


# --------------------------------------------------------------------------------------------
# writing
# --------------------------------------------------------------------------------------------


def _check_destination(dest: Path) -> None:
    """Refuse to replace a folder that is not an earlier export."""
    if not dest.exists():
        return
    try:
        config = tomllib.loads((dest / "task.toml").read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError):
        config = {}
    if "benchsmith_task" not in config.get("metadata", {}):
        raise UsageError(f"{display_path(dest)} exists and is not a benchsmith export")


def write_tree(dest: Path, plan: TaskPlan) -> None:
    """Write ``plan`` as the folder ``dest``, replacing it as a whole."""
    dest.parent.mkdir(parents=True, exist_ok=True)
    staging = dest.with_name(f".{dest.name}{_STAGING}")
    retired = dest.with_name(f".{dest.name}{_RETIRED}")
    for stale in (staging, retired):
        shutil.rmtree(stale, ignore_errors=True)
    try:
        for item in plan.files:
            target = staging / item.path
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(item.data)
            target.chmod(item.mode)
        fix_folders(staging)
        for rel, mode in plan.folders.items():
            (staging / rel).mkdir(parents=True, exist_ok=True)  # empty ones too
            (staging / rel).chmod(mode)
        if dest.exists():
            dest.rename(retired)
        staging.rename(dest)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
        shutil.rmtree(retired, ignore_errors=True)


def fix_folders(root: Path) -> None:
    """Give every folder mode 755 (whatever the umask)."""
    root.chmod(0o755)
    for folder, dirs, _ in os.walk(root):
        for name in dirs:
            Path(folder, name).chmod(0o755)


def write_sandbox_module(out: Path) -> Path:
    """Write the offline Harbor environment (stdlib + harbor only) beside the tasks."""
    source = Path(__file__).resolve().parent / "harbor_sandbox.py"
    target = out / SANDBOX_MODULE
    out.mkdir(parents=True, exist_ok=True)
    data = source.read_bytes()
    if not target.is_file() or target.read_bytes() != data:
        staged = target.with_name(f".{target.name}{_STAGING}")
        staged.write_bytes(data)
        staged.chmod(0o644)
        staged.replace(target)
    return target
