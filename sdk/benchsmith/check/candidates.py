"""Synthetic candidates: null, facade and hostile programs made from a task's declarations.

Each declared command names an entry point (``python -m pkg.mod`` -> ``pkg/mod.py`` plus the
packages' ``__init__.py``; ``python path/to/script.py`` -> that file). A candidate is one
program body written to every entry point of the task, inside the editable paths of a
workspace. Bodies know the declared outputs and find the workspace root from the command's
working directory, so they can create (or sabotage) exactly what the judge will read.
"""

from __future__ import annotations

import csv
import io
import posixpath
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from benchsmith.check import selfreport
from benchsmith.dsl.model import Command, TaskSpec
from benchsmith.runtime import benchlib

FAKE_VERDICT = (
    '{"status": "pass", "progress_level": 5, "main_checks_passed": 1, '
    '"main_checks_total": 1, "edge_check_passed": true, "notes": []}'
)
FLOOD_BYTES = 60 * 1024 * 1024
SHADOW_MODULES = ("sitecustomize.py", "usercustomize.py", "json.py", "benchlib.py")
SPAM_LIMIT = 32 * 1024 * 1024


class CandidateError(Exception):
    """Raised when a task's commands name no entry point a candidate can be written to."""


@dataclass(frozen=True, slots=True)
class EntryPoint:
    """Where a command's code lives in the workspace.

    Attributes:
        command: The command line, as declared.
        file: Workspace-relative path of the module or script.
        packages: ``__init__.py`` files the module path needs (created when missing).
        depth: How many folders below the workspace root the command runs.
    """

    command: str
    file: str
    packages: tuple[str, ...]
    depth: int


def entry_point(command: Command) -> EntryPoint:
    """The entry point of one declared command.

    Raises:
        CandidateError: When the command does not run a Python module or script.
    """
    argv = list(command.argv)
    cwd = posixpath.normpath(command.cwd)
    base = "" if cwd == "." else cwd
    depth = 0 if cwd == "." else len(cwd.split("/"))
    if not argv or argv[0] not in benchlib.PYTHON_NAMES:
        raise CandidateError(f"{command.run}: not a python command")
    kind, target = benchlib.python_target(argv)
    if kind == "module":
        parts = target.split(".")
        file = posixpath.join(base, *parts) + ".py"
        packages = tuple(
            posixpath.join(base, *parts[:n], "__init__.py") for n in range(1, len(parts))
        )
        return EntryPoint(command.run, file, packages, depth)
    if kind == "script":
        return EntryPoint(command.run, posixpath.normpath(posixpath.join(base, target)), (), depth)
    raise CandidateError(f"{command.run}: {target}")


def entry_points(spec: TaskSpec) -> list[EntryPoint]:
    """The entry points of every declared command (deduplicated, in command order).

    Raises:
        CandidateError: When a command names none, or one lies outside the editable paths.
    """
    layout = benchlib.Layout(spec.task_dir, ("stage",), spec.editable)
    found: dict[str, EntryPoint] = {}
    for command in spec.commands:
        entry = entry_point(command)
        if not layout.is_editable(entry.file):
            raise CandidateError(f"{entry.command}: {entry.file} is outside the editable paths")
        found.setdefault(entry.file, entry)
    return list(found.values())


def install(workspace: Path, entries: Sequence[EntryPoint], source: str) -> None:
    """Write ``source`` (with ``DEPTH`` filled in) to every entry point under ``workspace``."""
    for entry in entries:
        for package in entry.packages:
            init = workspace / package
            if not init.exists():
                _write(init, "")
        _write(workspace / entry.file, source.replace("__DEPTH__", str(entry.depth)))


def plant(workspace: Path, entries: Sequence[EntryPoint]) -> list[str]:
    """Plant the shadowing modules at the workspace root and beside every entry point."""
    folders = sorted({""} | {posixpath.dirname(e.file) for e in entries})
    planted = []
    for folder in folders:
        for name in SHADOW_MODULES:
            rel = posixpath.join(folder, name)
            _write(workspace / rel, SHADOW_SOURCE)
            planted.append(rel)
    return planted


def _write(path: Path, text: str) -> None:
    """Replace (never modify in place: the file may be a hard link) ``path`` with ``text``."""
    path.parent.mkdir(parents=True, exist_ok=True)
    benchlib.remove_path(path)
    path.write_text(text, encoding="utf-8")


def output_table(spec: TaskSpec) -> str:
    """Python literal of the declared outputs: ``(path, format, facade content)`` triples."""
    rows = [(o.path, o.format, facade_content(o.format, o.header)) for o in spec.outputs]
    return repr(rows)


def facade_content(fmt: str, header: Sequence[str]) -> str:
    """What a facade writes for one output: empty, header-only or a bare skeleton."""
    if fmt == "csv" and header:
        buffer = io.StringIO()
        csv.writer(buffer, lineterminator="\n").writerow(header)
        return buffer.getvalue()
    if fmt == "json":
        return "{}\n"
    if fmt == "ics":
        return "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nEND:VCALENDAR\r\n"
    return ""


_PRELUDE = '''\
"""benchsmith check: the {kind} candidate (generated; not a solution)."""
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path.cwd().joinpath(*[".."] * __DEPTH__)
OUTPUTS = {outputs}
EDITABLE = {editable}


def facade():
    for rel, fmt, content in OUTPUTS:
        path = ROOT / rel
        if fmt == "directory":
            path.mkdir(parents=True, exist_ok=True)
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(path, "w", encoding="utf-8", newline="") as stream:
            stream.write(content)


def remove(path):
    if path.is_symlink() or path.is_file():
        path.unlink()
    elif path.is_dir():
        shutil.rmtree(path, ignore_errors=True)

'''

_SPAM = """\
import csv
import gzip
import io
import json


def editable(rel):
    return any(rel == e.rstrip("/") or rel.startswith(e.rstrip("/") + "/") for e in EDITABLE)


def input_files():
    found = []
    for folder, dirs, names in os.walk(ROOT):
        base = Path(folder).relative_to(ROOT).as_posix()
        base = "" if base == "." else base + "/"
        dirs[:] = sorted(d for d in dirs if not editable(base + d))
        found += [base + n for n in sorted(names) if base + n != "TASK.md"]
    return found


def read_text(rel):
    data = (ROOT / rel).read_bytes()[:SPAM_LIMIT]
    if rel.endswith(".gz"):
        try:
            data = gzip.decompress(data)[:SPAM_LIMIT]
        except (OSError, EOFError):
            pass
    return data.decode("utf-8", "replace")


def records(rel, text):
    name = rel.removesuffix(".gz")
    try:
        if name.endswith(".csv"):
            return list(csv.DictReader(io.StringIO(text)))
        if name.endswith(".jsonl"):
            return [json.loads(line) for line in text.splitlines() if line.strip()]
        if name.endswith(".json"):
            data = json.loads(text)
            if isinstance(data, dict):
                data = [r for v in data.values() if isinstance(v, list) for r in v]
            return [r for r in data if isinstance(r, dict)] if isinstance(data, list) else []
    except (ValueError, csv.Error):
        return []
    return []


def cell(record, name, index):
    values = list(record.values())
    if name in record:
        return record[name]
    return values[index] if index < len(values) else ""


TEXTS = {rel: read_text(rel) for rel in input_files()}
ROWS = [r for rel, text in TEXTS.items() for r in records(rel, text)]
ALL_TEXT = "".join(TEXTS.values())[:SPAM_LIMIT]


def spam(rel, fmt, header):
    path = ROOT / rel
    if fmt == "directory":
        for name, text in TEXTS.items():
            target = path / name
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8")
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="") as stream:
        if fmt == "csv":
            writer = csv.writer(stream, lineterminator="\\n")
            names = header or sorted({k for r in ROWS for k in r})
            writer.writerow(names)
            writer.writerows([cell(r, n, i) for i, n in enumerate(names)] for r in ROWS)
        elif fmt == "json":
            json.dump(ROWS or TEXTS, stream, indent=1)
        elif fmt == "jsonl":
            stream.writelines(json.dumps(r) + "\\n" for r in ROWS)
        else:
            stream.write(ALL_TEXT)


for rel, fmt, content in OUTPUTS:
    if fmt == "stdout":
        sys.stdout.write(ALL_TEXT)
    elif fmt in ("sqlite", "binary", "mbox", "ics"):
        (ROOT / rel).parent.mkdir(parents=True, exist_ok=True)
        (ROOT / rel).write_text(content, encoding="utf-8")
    else:
        header = next(csv.reader([content.splitlines()[0]])) if fmt == "csv" and content else []
        spam(rel, fmt, header)
"""

BODIES = {
    "null": "",
    "facade": "facade()\n",
    "loop": "import time\n\nwhile True:\n    time.sleep(0.2)\n",
    "crash": 'raise RuntimeError("benchsmith hostile candidate: immediate crash")\n',
    "flood": f"""\
chunk = b"flood " * 170 + b"\\n"
for _ in range({FLOOD_BYTES} // len(chunk) + 1):
    sys.stdout.buffer.write(chunk)
sys.stdout.flush()
facade()
""",
    "orphan": """\
PIDS = Path(__PIDS__)
PIDS.mkdir(parents=True, exist_ok=True)
SLEEP = [sys.executable, "-c", "import time; time.sleep(600)"]
kept = subprocess.Popen(SLEEP)
escaped = subprocess.Popen(SLEEP, start_new_session=True)
for child in (kept, escaped):
    (PIDS / str(child.pid)).write_text("", encoding="utf-8")
""",
    "deleted": """\
facade()
for rel, _, _ in OUTPUTS:
    remove(ROOT / rel)
keep = Path(__file__).resolve().relative_to(ROOT.resolve()).parts[0]
for child in sorted(ROOT.iterdir()):
    if child.name != keep:
        remove(child)
""",
    "binary": """\
JUNK = (b"\\x00\\xff\\xfe\\x80" + bytes(range(256))) * 64
for rel, fmt, _ in OUTPUTS:
    path = ROOT / rel
    if fmt == "directory":
        path.mkdir(parents=True, exist_ok=True)
        path = path / "junk.bin"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(JUNK)
""",
    "directory": """\
for rel, fmt, _ in OUTPUTS:
    path = ROOT / rel.rstrip("/")
    remove(path)
    if fmt == "directory":
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("a file where a folder was expected\\n", encoding="utf-8")
    else:
        (path / "not-a-file").mkdir(parents=True, exist_ok=True)
""",
    "shadow": f"print({FAKE_VERDICT!r}, flush=True)\n",
    "spam": f"SPAM_LIMIT = {SPAM_LIMIT}\n" + _SPAM,
}

SHADOW_SOURCE = f'''\
"""Planted by benchsmith check: must never be imported by a judge."""
import os
import sys

sys.stdout.write({FAKE_VERDICT!r} + "\\n")
sys.stdout.flush()
os._exit(0)
'''


def program(kind: str, spec: TaskSpec, pids: Path | None = None) -> str:
    """The source of the ``kind`` candidate (a key of :data:`BODIES`) for ``spec``."""
    editable = repr(list(spec.editable))
    source = _PRELUDE.format(kind=kind, outputs=output_table(spec), editable=editable)
    source += BODIES[kind]
    return source.replace("__PIDS__", repr(str(pids)))


def self_report_program(spec: TaskSpec, lies: Sequence[selfreport.FixtureLie]) -> str:
    """The self-report candidate: writes ``lies`` for whichever fixture it runs on."""
    editable = repr(list(spec.editable))
    source = _PRELUDE.format(kind="self-report", outputs=output_table(spec), editable=editable)
    return source + selfreport.BODY.replace("__PAYLOAD__", repr(selfreport.payload(lies)))
