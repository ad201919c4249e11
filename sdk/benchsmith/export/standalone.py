"""``benchsmith export standalone``: the corpus as the spec's own bundle (section 3).

``OUT/benchmarks/python-realworld-30/`` holds what runs a benchmark with Python 3.12 alone:

```
README.md      how to run it, the progress levels, the metrics, the corpus table
tasks.json     the corpus index (each task's ``path`` is ``tasks/NN-slug``)
benchlib.py    the stdlib runtime of seeds and judges
run.py         the lean runner (benchsmith's runner core)
tasks/NN-slug/ TASK.md, scenario.json, seed.py, judge.py (fixtures.py, vocab/ and other
               modules seed.py or the judge read), visible/, stages/<stage>/, edge/
```

Every task has ``visible/`` and ``stages/`` (empty ones too), and every stage's ``inject``
folder is real: ``stages/<stage>/`` holds the files seed.py writes
for that stage (``--stage N --only``) as well as the authored ones, so a reader sees what a
stage adds. Nothing of the authoring side ships: no task.toml, benchsmith.lock, reference,
witnesses or mutants (:data:`benchlib.AUTHORING_ONLY`). seed.py and judge.py find
benchlib.py two folders up instead of one (their ``sys.path`` line is the one change).

The export passes the same gate as the Harbor export (generated files current, lint clean,
fixture lock recorded), unless ``force``. The bundle is named after the spec's 30 tasks, so a
set of tasks that is not ids 1 to 30 is refused (naming the missing ids) unless
``allow_partial``; a partial bundle's README then says which ids it lacks. Same input, same
bytes: files sorted, modes 644 (755 for folders), no timestamps; the bundle folder is
replaced as a whole.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from benchsmith import resources
from benchsmith.diagnostics import display_path
from benchsmith.dsl.load import load_task
from benchsmith.dsl.model import TaskSpec
from benchsmith.errors import BenchsmithError, UsageError
from benchsmith.export.harbor import (
    ExportRefusedError,
    _diagnostics,
    _refusal,
    gate,
    stage_files,
    write_tree,
)
from benchsmith.export.harbor_task import ExportedFile, StageFiles, TaskPlan, walk_files
from benchsmith.generate.plan import index_entry, json_document
from benchsmith.lockfile import LOCK_FILE
from benchsmith.pythons import resolve_python
from benchsmith.runtime import benchlib
from benchsmith.workspaces import require_built

BUNDLE = Path("benchmarks") / "python-realworld-30"
SPEC_IDS = range(1, 31)
"""The ids of the spec's tasks: the bundle's name promises all of them."""
MARKER = "<!-- written by benchsmith export standalone -->"
AUTHORING = frozenset({*benchlib.AUTHORING_ONLY, "task.toml", LOCK_FILE, "stages"})
"""Left out of a task folder (``stages/`` is written anew, generated files included)."""
PATH_LINES = {
    "judge.py": (
        "sys.path.insert(0, str(Path(__file__).resolve().parent.parent))",
        "sys.path.insert(0, str(Path(__file__).resolve().parents[2]))",
    ),
    "seed.py": ("sys.path.insert(0, str(HERE.parent))", "sys.path.insert(0, str(HERE.parents[1]))"),
}
"""How seed.py and judge.py find benchlib.py: the corpus root above, now two folders up."""


@dataclass(frozen=True, slots=True)
class StandaloneExport:
    """The result of :func:`export_standalone`.

    Attributes:
        out: The output folder.
        bundle: The bundle written (``out/benchmarks/python-realworld-30``).
        tasks: The tasks' folders in the bundle, in id order.
        problems: Per task, what the gate found (non-empty only with ``force``).
    """

    out: Path
    bundle: Path
    tasks: tuple[Path, ...]
    problems: dict[str, list[str]]


def export_standalone(
    paths: Sequence[Path],
    out: Path,
    force: bool = False,
    python: str | None = None,
    *,
    allow_partial: bool = False,
) -> StandaloneExport:
    """Write the tasks as the spec's standalone bundle under ``out``.

    Args:
        paths: Task folders (or their task.toml files).
        out: Output folder; ``out/benchmarks/python-realworld-30`` is replaced as a whole.
        force: Export tasks that fail the gate.
        python: Interpreter that runs seed.py for the stage files (default: Python 3.12).
        allow_partial: Write the bundle although the tasks are not the spec's ids 1 to 30.

    Raises:
        UsageError: When no task is given, two share an id, the tasks are not ids 1 to 30
            and ``allow_partial`` is off, or the bundle folder exists and is not an earlier
            export.
        ExportRefusedError: When a task fails the gate and ``force`` is off.
        TaskSpecError: When a task.toml is invalid.
    """
    if not paths:
        raise UsageError("name the tasks to export, or use --all")
    specs = sorted((load_task(path) for path in paths), key=lambda s: (s.id, s.slug))
    for spec in specs:
        require_built(spec)
    if len({s.id for s in specs}) != len(specs):
        raise UsageError("two of the tasks share an id; a bundle holds each id once")
    gaps = missing_ids(specs)
    if gaps and not allow_partial:
        raise UsageError(
            f"{BUNDLE.name} would hold {len(specs)} of the spec's {len(SPEC_IDS)} tasks "
            f"(missing ids: {_ids_text(gaps)}); pass --allow-partial to write it anyway"
        )
    found = gate(specs, reference=False)
    refused = {name: problems for name, problems in found.items() if problems}
    if refused and not force:
        raise ExportRefusedError(_refusal(refused), _diagnostics(refused))
    bundle = out / BUNDLE
    _check_destination(bundle)
    deltas = stage_files(specs, resolve_python(python))
    files = [*bundle_files(specs), *(f for s in specs for f in task_files(s, deltas[s.dirname]))]
    folders = {
        f"tasks/{s.dirname}/{folder}": 0o755
        for s in specs
        for folder in ("visible", "stages", *(f"stages/{stage.id}" for stage in s.stages[1:]))
    }  # every stage's inject folder exists, empty when the stage adds no file
    write_tree(bundle, TaskPlan(tuple(sorted(files, key=lambda f: f.path)), folders))
    return StandaloneExport(out, bundle, tuple(bundle / "tasks" / s.dirname for s in specs), found)


def missing_ids(specs: Sequence[TaskSpec]) -> list[int]:
    """The spec's task ids that ``specs`` lack (ids outside 1 to 30 count as extras, not gaps)."""
    have = {s.id for s in specs}
    return [n for n in SPEC_IDS if n not in have]


def _ids_text(ids: Sequence[int]) -> str:
    return ", ".join(f"{n:02d}" for n in ids)


def _check_destination(bundle: Path) -> None:
    """Refuse to replace a folder that is not an earlier standalone export."""
    if not bundle.exists():
        return
    try:
        readme = (bundle / "README.md").read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        readme = ""
    if MARKER not in readme:
        raise UsageError(f"{display_path(bundle)} exists and is not a benchsmith export")


def bundle_files(specs: Sequence[TaskSpec]) -> list[ExportedFile]:
    """README.md, tasks.json, benchlib.py and run.py."""
    entries = [{**index_entry(s), "path": f"tasks/{s.dirname}"} for s in specs]
    runtime = [
        ExportedFile(name, resources.runtime_source(name).read_bytes())
        for name in resources.RUNTIME_FILES
    ]
    return [
        ExportedFile("README.md", readme(specs).encode()),
        ExportedFile("tasks.json", json_document({"tasks": entries}).encode()),
        *runtime,
    ]


def task_files(spec: TaskSpec, deltas: list[StageFiles]) -> list[ExportedFile]:
    """One task's folder: its shipped files (benchlib found two folders up) and stages/."""
    prefix = f"tasks/{spec.dirname}"
    files = []
    for rel, path in walk_files(spec.task_dir, AUTHORING):
        files.append(ExportedFile(f"{prefix}/{rel}", relocated(spec, rel, path.read_bytes())))
    for delta in deltas:
        files += [
            ExportedFile(f"{prefix}/stages/{delta.stage}/{rel}", data)
            for rel, data in sorted(delta.files.items())
        ]
    return files


def relocated(spec: TaskSpec, rel: str, data: bytes) -> bytes:
    """``data`` of the task's ``rel``, with seed.py's and judge.py's path to benchlib.py moved.

    Raises:
        BenchsmithError: When seed.py or judge.py lacks the line build writes.
    """
    if rel not in PATH_LINES:
        return data
    old, new = PATH_LINES[rel]
    text = data.decode("utf-8")
    if text.count(old) != 1:
        path = display_path(spec.task_dir / rel)
        raise BenchsmithError(f"{path}: the line {old!r} is missing; run benchsmith build")
    return text.replace(old, new).encode("utf-8")


LEVELS = (
    (0, "no relevant runnable artifact exists"),
    (1, "the required module or application imports/starts and exposes the requested command"),
    (2, "the main workflow completes and its outputs parse"),
    (3, "the core transformation is substantially correct; some stated rules are missing"),
    (4, "every main-fixture semantic check passes"),
    (5, "the main fixture and the edge fixture pass: the only strict pass"),
)
METRICS = (
    "strict pass and progress level; agent wall time (the sum of the adapter's actions), "
    "lifecycle time, and judge time apart",
    "main-model calls, auxiliary calls by kind, tool calls and tool-result bytes",
    "compactions requested, completed, failed, and natural ones the agent made",
    "input, uncached input, output, cache-read and cache-write tokens; prompt cache reuse "
    "= cache_read / (uncached_input + cache_read + cache_write), only when uncached input "
    "is reported apart",
    "reported cost, peak context tokens and final response tokens",
)


def readme(specs: Sequence[TaskSpec]) -> str:
    """The bundle's README: how to run it, levels, metrics and the corpus table."""
    rows = [
        f"| {s.id:02d} | [{s.slug}](tasks/{s.dirname}/TASK.md) | {s.title} | {s.pressure} | "
        f"{len(s.stages)} | {s.timeout_seconds} |"
        for s in specs
    ]
    levels = [f"| {level} | {meaning} |" for level, meaning in LEVELS]
    lines = [
        MARKER,
        "# Python Real-World 30",
        "",
        "Hermetic, real-workflow programming tasks for comparing coding-agent harnesses. Every",
        "task is solvable with Python 3.12 and its standard library; this folder needs nothing",
        "else either.",
        "",
        "## Running",
        "",
        "```sh",
        "python3.12 run.py --agent 'command:python3.12 my_adapter.py' --all --runs runs",
        "python3.12 run.py --agent 'command:...' --task 01-expense-reconciliation",
        "```",
        "",
        "For each task, `run.py` creates a fresh workspace in a temporary folder (`seed.py`,",
        "`visible/`, TASK.md; inputs read-only, only the editable paths writable), starts the",
        "agent adapter once per action, sends each stage's message, requests a compaction",
        "after the stages `scenario.json` marks `compact_after`, injects the next stage's",
        "files (`stages/<stage>/`), stops the agent at the end or at `timeout_seconds`, and",
        "then runs `judge.py` outside the agent's time. Adapter actions run sealed under",
        "bubblewrap (`bwrap`) where it is installed, and see only the system folders, `/opt`,",
        "the interpreter, the adapter's program and script (resolved from your folder), each",
        "`--agent-bind PATH` and their workspace: no task folder, runs folder or other file",
        "of the host. Each run is recorded in `runs/<run>/`; a summary is printed:",
        "",
        "```text",
        "runs/command--01-expense-reconciliation--r001/",
        "  run.json            the record: times, stages, compactions, usage, verdicts",
        "  events.jsonl        the timeline (adapter events, lifecycle, judge)",
        "  actions/            each action's message, events, stdout, stderr, transcripts",
        "  judge.stdout        the verdict JSON (judge.stderr; judge-stageN.* per stage)",
        "  workspace.tar.gz    the final workspace (deterministic; FIFOs left out)",
        "```",
        "",
        "`python3.12 run.py --help` lists the options.",
        "",
        "An adapter is a command speaking a small protocol: `BENCHSMITH_*` variables say the",
        "action (`message` or `compact`), stage, workspace, message file and events file; the",
        "adapter appends JSON event lines (`assistant`, `tool_call`, `usage`, `compaction`,",
        "`error`, `done`, `idle`) and exits 0 after `idle`. The protocol is defined in",
        "`run.py` (section *protocol*).",
        "",
        "A judge alone: `python3.12 tasks/NN-slug/judge.py --workspace WS` prints one JSON",
        "verdict (`status`, `progress_level`, `main_checks_passed`, `main_checks_total`,",
        "`edge_check_passed`, `notes`).",
        "",
        "## Progress levels",
        "",
        "| Level | Meaning |",
        "| --- | --- |",
        *levels,
        "",
        "## Metrics",
        "",
        *(f"- {m}" for m in METRICS),
        "",
        "Efficiency comparisons use only matched strict-pass pairs of two arms.",
        "",
        "## Tasks",
        "",
        *_partial_lines(specs),
        "| ID | Task | Title | Class | Stages | Timeout (s) |",
        "| --- | --- | --- | --- | --- | --- |",
        *rows,
        "",
    ]
    return "\n".join(lines)


def _partial_lines(specs: Sequence[TaskSpec]) -> list[str]:
    """The README's warning of a partial bundle (exported with ``--allow-partial``)."""
    gaps = missing_ids(specs)
    if not gaps:
        return []
    return [
        f"**Partial bundle:** {len(specs)} of the spec's {len(SPEC_IDS)} tasks; missing ids: "
        f"{_ids_text(gaps)}.",
        "",
    ]
