"""Synthetic candidates: null, facade and hostile programs made from a task's declarations.

Each declared command names an entry point (``python -m pkg.mod`` -> ``pkg/mod.py`` plus the
packages' ``__init__.py``, or ``pkg/mod/__main__.py`` when only the package form is editable;
``python path/to/script.py`` -> that file). A candidate is one
program body written to every entry point of the task, inside the editable paths of a
workspace. Bodies know the declared outputs and find the workspace root from the command's
working directory, so they can create (or sabotage) exactly what the judge will read.
"""

from __future__ import annotations

import csv
import io
import os
import posixpath
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from benchsmith.checking import selfreport
from benchsmith.dsl.model import Command, TaskSpec
from benchsmith.runtime import benchlib

FAKE_VERDICT = (
    '{"status": "pass", "progress_level": 5, "main_checks_passed": 1, '
    '"main_checks_total": 1, "edge_check_passed": true, "notes": []}'
)
FLOOD_BYTES = 60 * 1024 * 1024
SHADOW_MODULES = ("sitecustomize.py", "usercustomize.py", "json.py", "benchlib.py")
SPAM_LIMIT = 32 * 1024 * 1024
POISONED = ("benchlib.py", "judge.py", "seed.py")
POISON_PAYLOAD = (
    "\n# appended by the benchsmith check poison candidate\n"
    "import os as _os, sys as _sys\n"
    f"_sys.__stdout__.write({FAKE_VERDICT + chr(10)!r})\n"
    "_sys.__stdout__.flush()\n"
    "_os._exit(0)\n"
)
SEARCH_SECONDS = 3.0


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


def entry_point(
    command: Command, runs_as_package: Callable[[str], bool] = lambda module_file: False
) -> EntryPoint:
    """The entry point of one declared command.

    ``python -m pkg`` runs ``pkg.py`` or, when ``pkg`` is a package, ``pkg/__main__.py``;
    ``runs_as_package(module_file)`` (given the workspace path of ``pkg.py``) says which.

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
        if runs_as_package(file):
            file = posixpath.join(base, *parts, "__main__.py")
            packages = (*packages, posixpath.join(base, *parts, "__init__.py"))
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

    def runs_as_package(module_file: str) -> bool:
        main = module_file.removesuffix(".py") + "/__main__.py"
        return not layout.is_editable(module_file) and layout.is_editable(main)

    found: dict[str, EntryPoint] = {}
    for command in spec.commands:
        if not command.runs_program:  # http and stop steps run no candidate program
            continue
        entry = entry_point(command, runs_as_package)
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


ODD_DEPTH = 1200
SPARSE_SIZES = (1 << 30, 1 << 30, 300 << 20)
"""The apparent sizes of the sparse files the odd tree holds (no disk behind them): each
above the judge's per-file copy bound (``benchlib.COPY_FILE_BYTES``), 2.3 GiB in all."""
"""How deep :func:`plant_odd_tree` nests: past Python's default recursion limit (1,000)."""


def plant_odd_tree(folder: Path) -> None:
    """Plant what a careless or hostile agent may leave in an editable folder: a folder
    nested :data:`ODD_DEPTH` deep, a FIFO and a file whose names are not UTF-8, and sparse
    files of :data:`SPARSE_SIZES` (a judge copying them dense would write 2.3 GiB per
    fixture)."""
    deep = folder / "odd-deep"
    deep.mkdir(parents=True, exist_ok=True)
    for _ in range(ODD_DEPTH):
        deep = deep / "d"
        deep.mkdir()
    (deep / "leaf.txt").write_text("leaf\n", encoding="utf-8")
    raw = os.fsencode(folder)
    os.mkfifo(raw + b"/odd-fifo-\xff")
    with open(raw + b"/odd-name-\xfe.txt", "wb") as stream:
        stream.write(b"not UTF-8\n")
    for number, size in enumerate(SPARSE_SIZES):
        with open(folder / f"odd-sparse-{number}.bin", "wb") as stream:
            stream.truncate(size)


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
import time
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


def cells(record, names):
    values = list(record.values())
    return [
        record[n] if n in record else values[i] if i < len(values) else ""
        for i, n in enumerate(names)
    ]


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
            writer.writerows(cells(r, names) for r in ROWS)
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

# What the escape, poison and forge candidates share: where the benchmark might be. Reading
# looks everywhere; writing (poison, forge) aims only at the candidate's parent -- the judge,
# when a broken sandbox shows it -- and its own folders, so that a failing control can damage
# nothing but the task folder and corpus under check (which the poison control restores).
_SEARCH = '''\
SKIP = {"/proc", "/sys", "/dev", "/usr", "/lib", "/lib32", "/lib64", "/bin", "/sbin", "/boot"}


def ancestors():
    """The pids above this process, parent first (as far as /proc shows them)."""
    found, pid = [], os.getpid()
    while pid > 1:
        try:
            with open(f"/proc/{pid}/stat", "rb") as stream:
                pid = int(stream.read().rsplit(b")", 1)[-1].split()[1])
        except (OSError, ValueError, IndexError):
            break
        if pid > 0:
            found.append(pid)
    return found


def leads(pids):
    """Paths naming something outside the fixture: the working directory, command line and
    environment of each of ``pids``, then PWD, OLDPWD and the current folder."""
    found = []
    for pid in pids:
        try:
            found.append(os.readlink(f"/proc/{pid}/cwd"))
        except OSError:
            pass
        for name in ("cmdline", "environ"):
            try:
                with open(f"/proc/{pid}/{name}", "rb") as stream:
                    parts = stream.read().split(b"\\0")
            except OSError:
                continue
            found += [p.decode("utf-8", "replace").split("=", 1)[-1] for p in parts]
    found += [os.environ.get("PWD", ""), os.environ.get("OLDPWD", ""), os.getcwd()]
    return list(dict.fromkeys(p for p in found if p.startswith("/")))


def visible():
    """Every pid /proc shows, ancestors first."""
    others = sorted(int(e) for e in os.listdir("/proc") if e.isdigit())
    return ancestors() + [p for p in others if p not in ancestors()]


def above(paths):
    """Each path and every folder above it (walking up with ..)."""
    seen = []
    for path in paths:
        for folder in [Path(path), *Path(path).parents]:
            if folder not in seen:
                seen.append(folder)
    return seen


def is_file(path):
    try:
        return path.is_file()
    except OSError:
        return False

'''

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
SLEEP = [sys.executable, "-c", "import time; time.sleep(600)", __MARKER__]
kept = subprocess.Popen(SLEEP)
escaped = subprocess.Popen(SLEEP, start_new_session=True)
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
    "escape": _SEARCH
    + f"""\
def is_task(folder):
    try:
        return (folder / "judge.py").is_file() and (folder / "reference").is_dir()
    except OSError:
        return False


def folders():
    \"\"\"Folders above what processes name, then the filesystem ({SEARCH_SECONDS:.0f} s).\"\"\"
    yield from above(leads(visible()))
    deadline = time.monotonic() + {SEARCH_SECONDS}
    for top, dirs, _ in os.walk("/"):
        if time.monotonic() > deadline:
            return
        dirs[:] = sorted(d for d in dirs if os.path.join(top, d) not in SKIP)
        yield Path(top)


if "BENCHSMITH_ESCAPED" not in os.environ:  # found the task folder: run its reference
    for folder in folders():
        if is_task(folder):
            for item in sorted((folder / "reference").iterdir()):
                if item.is_dir():
                    shutil.copytree(item, ROOT / item.name, dirs_exist_ok=True)
                else:
                    shutil.copy2(item, ROOT / item.name)
            os.environ["BENCHSMITH_ESCAPED"] = str(folder)
            os.execv(sys.executable, [sys.executable, *sys.orig_argv[1:]])
""",
    "poison": _SEARCH
    + f"""\
PAYLOAD = {POISON_PAYLOAD!r}
targets = []
for folder in above(leads(ancestors()[:1])):  # the judge's task folder and corpus, if visible
    for name in {POISONED!r}:
        if is_file(folder / name) and folder / name not in targets:
            targets.append(folder / name)
for path in targets:
    try:
        with open(path, "a", encoding="utf-8") as stream:
            stream.write(PAYLOAD)
    except OSError:
        pass
""",
    "forge": _SEARCH
    + f"""\
VERDICT = {FAKE_VERDICT + chr(10)!r}.encode()
for fd in range(1024):  # every descriptor it holds
    try:
        os.write(fd, VERDICT)
    except OSError:
        pass
for pid in ancestors()[:1]:  # every descriptor of its parent (the judge's stdout?)
    try:
        names = sorted(os.listdir(f"/proc/{{pid}}/fd"))
    except OSError:
        continue
    for name in names:
        try:
            with open(f"/proc/{{pid}}/fd/{{name}}", "ab") as stream:
                stream.write(VERDICT)
        except OSError:
            pass
for name in ("verdict.json", "judge.stdout"):  # files in its own folder
    try:
        with open(ROOT / name, "xb") as stream:
            stream.write(VERDICT)
    except OSError:
        pass
for name in ("/dev/stdout", "/dev/stderr"):
    try:
        with open(name, "ab") as stream:
            stream.write(VERDICT)
    except OSError:
        pass
""",
}

SHADOW_SOURCE = f'''\
"""Planted by benchsmith check: must never be imported by a judge."""
import os
import sys

sys.stdout.write({FAKE_VERDICT!r} + "\\n")
sys.stdout.flush()
os._exit(0)
'''


def program(kind: str, spec: TaskSpec, marker: str = "") -> str:
    """The source of the ``kind`` candidate (a key of :data:`BODIES`) for ``spec``.

    ``marker`` is an argument the orphan candidate's children carry, so that survivors can
    be found in the process table whatever sandbox they ran in.
    """
    editable = repr(list(spec.editable))
    source = _PRELUDE.format(kind=kind, outputs=output_table(spec), editable=editable)
    source += BODIES[kind]
    return source.replace("__MARKER__", repr(marker))


def self_report_program(spec: TaskSpec, lies: Sequence[selfreport.FixtureLie]) -> str:
    """The self-report candidate: writes ``lies`` for whichever fixture it runs on."""
    editable = repr(list(spec.editable))
    source = _PRELUDE.format(kind="self-report", outputs=output_table(spec), editable=editable)
    return source + selfreport.BODY.replace("__PAYLOAD__", repr(selfreport.payload(lies)))
