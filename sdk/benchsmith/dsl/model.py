"""The frozen, typed model of one task.

A :class:`TaskSpec` is what ``task.toml`` means once defaults are applied: pressure-class
timeouts and compaction schedules, the default stage and editable paths, inferred formats.
Instances are immutable and carry no IO; :mod:`benchsmith.dsl.load` builds them from validated data.
"""

from __future__ import annotations

import fnmatch
import shlex
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any, Literal

Pressure = Literal["N", "L", "M", "H"]
Value = Any  # a TOML/JSON scalar, or a frozen list/table of them

SCENARIO_SCHEMA = "prime-context.python-realworld-task/v1"
DEFAULT_MESSAGE = (
    "Read TASK.md and complete the requested workflow using only the Python standard library."
)
DEFAULT_EDITABLE = ("solution/", "output/")
DEFAULT_JUDGE_TIMEOUT = 120.0
SEED_BASE = 20260831


@dataclass(frozen=True, slots=True)
class PressureProfile:
    """What a pressure class implies (spec sections 4 and 8).

    Attributes:
        timeout_seconds: The agent time limit.
        min_stages: Fewest stages the class allows.
        max_stages: Most stages the class allows.
        compact_after: 1-based stage numbers after which the runner requests a compaction.
    """

    timeout_seconds: int
    min_stages: int
    max_stages: int
    compact_after: tuple[int, ...]


PRESSURE: Mapping[str, PressureProfile] = MappingProxyType(
    {
        "N": PressureProfile(600, 1, 1, ()),
        "L": PressureProfile(900, 2, 2, ()),
        "M": PressureProfile(1200, 3, 3, (1,)),
        "H": PressureProfile(1800, 4, 5, (1, 3)),
    }
)

OUTPUT_EXTENSIONS: Mapping[str, str] = MappingProxyType(
    {
        ".csv": "csv",
        ".json": "json",
        ".jsonl": "jsonl",
        ".txt": "text",
        ".log": "text",
        ".md": "markdown",
        ".html": "html",
        ".ics": "ics",
        ".mbox": "mbox",
        ".db": "sqlite",
        ".sqlite": "sqlite",
        ".sqlite3": "sqlite",
    }
)
TABULAR_FORMATS = ("csv", "json", "jsonl")


def freeze(value: Any) -> Any:
    """Return a deeply immutable copy: dicts become mapping proxies, lists become tuples."""
    if isinstance(value, Mapping):
        return MappingProxyType({k: freeze(v) for k, v in value.items()})
    if isinstance(value, list | tuple):
        return tuple(freeze(v) for v in value)
    return value


def thaw(value: Any) -> Any:
    """Inverse of :func:`freeze`: plain dicts and lists, ready to embed as literals."""
    if isinstance(value, Mapping):
        return {k: thaw(v) for k, v in value.items()}
    if isinstance(value, tuple):
        return [thaw(v) for v in value]
    return value


def tabular_format(path: str) -> tuple[str | None, bool]:
    """Return the tabular format inferred from ``path`` and whether it is gzip-compressed."""
    name = path.removesuffix(".gz")
    suffix = Path(name).suffix.lower()
    fmt = suffix.lstrip(".") if suffix in (".csv", ".json", ".jsonl") else None
    return fmt, path.endswith(".gz")


def output_format(path: str) -> str:
    """Return the output format inferred from ``path`` (``binary`` when unknown)."""
    if path.endswith("/"):
        return "directory"
    return OUTPUT_EXTENSIONS.get(Path(path.removesuffix(".gz")).suffix.lower(), "binary")


@dataclass(frozen=True, slots=True)
class Column:
    """One seeded column generator (or a constant) of a tabular fixture file.

    Attributes:
        name: The column (CSV header / JSON key).
        kind: ``const``, ``seq``, ``int``, ``decimal``, ``date``, ``datetime``, ``choice``
            or ``vocab``.
        args: The generator's arguments, as a frozen mapping of plain values.
    """

    name: str
    kind: str
    args: Mapping[str, Value]

    def to_runtime(self) -> dict[str, Any]:
        """Return the plain mapping seed.py embeds for this column."""
        return {"name": self.name, "kind": self.kind, **thaw(self.args)}


@dataclass(frozen=True, slots=True)
class FileSpec:
    """A fixture file (or folder) seed.py writes.

    Attributes:
        path: Workspace-relative path.
        format: ``csv``/``json``/``jsonl`` for tabular files; ``None`` for generator output.
        compressed: Whether a tabular file is gzip-compressed (``.gz``).
        rows: Total rows, anchors included (``None``: explicit records and anchors only).
        columns: Seeded column generators, in header order.
        records: Explicit rows written first.
        sort_by: Columns to sort the rows by after anchors are placed.
        wrap: For JSON files, the key of the wrapping object.
        generator: Name of the authored function in fixtures.py that writes this path.
        stage: Id of the stage whose injection introduces the file.
        writes: Every path a generator writes (``(path,)`` unless declared).
    """

    path: str
    format: str | None
    compressed: bool
    rows: int | None
    columns: tuple[Column, ...]
    records: tuple[Mapping[str, Value], ...]
    sort_by: tuple[str, ...]
    wrap: str | None
    generator: str | None
    stage: str
    writes: tuple[str, ...] = ()

    @property
    def header(self) -> tuple[str, ...]:
        """Column names in order: declared columns, else the keys of the first record."""
        if self.columns:
            return tuple(c.name for c in self.columns)
        return tuple(self.records[0]) if self.records else ()

    def to_runtime(self, anchors: tuple[Anchor, ...] = ()) -> dict[str, Any]:
        """Return the plain mapping seed.py embeds, with this file's anchor records."""
        placed = [
            {"name": a.name, "at": a.at, "records": thaw(a.records)}
            for a in anchors
            if a.file == self.path
        ]
        return {
            "path": self.path,
            "format": self.format,
            "compressed": self.compressed,
            "rows": self.rows,
            "header": list(self.header),
            "columns": [c.to_runtime() for c in self.columns],
            "records": thaw(self.records),
            "anchors": placed,
            "sort_by": list(self.sort_by),
            "wrap": self.wrap,
            "generator": self.generator,
            "stage": self.stage,
            "writes": list(self.writes),
        }


@dataclass(frozen=True, slots=True)
class Expectation:
    """A private expected fact the judge checks against a candidate's outputs.

    Attributes:
        name: Label used in the judge's notes.
        file: The output read (``None`` for exit-code-only and stream expectations).
        level: Main-fixture level gated (3 or 4); ignored on the edge fixture.
        spec: The remaining keys (where, path, equals, decimal, count, absent, contains,
            not_contains, exit_code, stream), frozen.
        stage: Id of the stage that introduces the check (``judge.py --stage N`` applies it
            from that stage on).
        until: Id of the last stage the check applies to (``None``: every later stage); a
            check superseded by a later stage is left out of the final verdict.
    """

    name: str
    file: str | None
    level: int
    spec: Mapping[str, Value]
    stage: str = ""
    until: str | None = None

    def to_runtime(self, first_stage: str = "") -> dict[str, Any]:
        """Return the plain mapping judge.py embeds (``stage`` left out when it is
        ``first_stage``, the runtime's default)."""
        staged = {"stage": self.stage} if self.stage and self.stage != first_stage else {}
        if self.until is not None:
            staged["until"] = self.until
        return {
            "name": self.name, "file": self.file, "level": self.level, **staged, **thaw(self.spec)
        }  # fmt: skip

    def private_values(self) -> tuple[Value, ...]:
        """Return the expected values (never the selectors) this expectation pins."""
        values: list[Value] = []
        equals = self.spec.get("equals")
        if isinstance(equals, Mapping):
            values.extend(equals.values())
        elif equals is not None:
            values.append(equals)
        values.extend(self.spec.get("contains", ()))
        if "count" in self.spec:
            values.append(self.spec["count"])
        return tuple(values)


@dataclass(frozen=True, slots=True)
class Anchor:
    """Hand-written records inserted deterministically, and the truths they pin.

    Attributes:
        name: Identifier (authored generators look anchors up by name).
        file: The tabular fixture file receiving the records (``None``: generator-only).
        records: The records.
        at: Explicit 0-based row position, or ``None`` for the evenly spread default.
        why: The case the anchor pins, for reviewers.
        expect: Private expectations checked by the judge on the main fixture.
    """

    name: str
    file: str | None
    records: tuple[Mapping[str, Value], ...]
    at: int | None
    why: str
    expect: tuple[Expectation, ...]


@dataclass(frozen=True, slots=True)
class Stage:
    """One user turn of the interaction.

    Attributes:
        id: Stage id (``stages/<id>/`` holds its injected files).
        message: The user message sent at this stage.
        compact_after: Whether a compaction is requested once this stage is answered.
    """

    id: str
    message: str
    compact_after: bool

    def inject(self, number: int) -> str:
        """Return the scenario.json ``inject`` folder for the stage numbered ``number``."""
        return "visible/" if number == 1 else f"stages/{self.id}/"


@dataclass(frozen=True, slots=True)
class Command:
    """A command a solution must make work.

    Attributes:
        run: The command line as shown to the agent.
        argv: ``run`` split with POSIX shell rules (never run through a shell).
        cwd: Working directory relative to the workspace (``"."`` by default).
        stdin: Fixture file fed on standard input, if any.
        stage: The stage that introduces the command.
        timeout: Seconds the judge allows it.
        memory_mb: Address-space limit (RLIMIT_AS) of its processes under the judge, in
            MiB; None: no limit beyond the sandbox's.
        until: The last stage the command applies to (``None``: every later stage); a
            command a later stage replaces is not run when a later stage is judged.
        kind: ``run`` (a command), or a step of a candidate server: ``serve`` (``run``
            started in the background, awaited for its ``LISTENING <port>`` line), ``http``
            (the judge sends ``request``) or ``stop``. For http and stop steps ``run`` is a
            description for notes and ``argv`` is empty.
        name: The step's name (authored checks read its result by it), if any.
        server: The candidate server a step starts, sends a request to or stops.
        url_file: serve steps: the file that receives the server's base URL, if any.
        request: http steps: ``method``, ``path``, ``headers`` (name -> value) and at most
            one of ``body`` and ``body_file``, and ``max_bytes`` (defaults applied).
    """

    run: str
    argv: tuple[str, ...]
    cwd: str
    stdin: str | None
    stage: str
    timeout: float
    memory_mb: int | None = None
    until: str | None = None
    kind: str = "run"
    name: str | None = None
    server: str | None = None
    url_file: str | None = None
    request: Mapping[str, Value] | None = None

    @property
    def runs_program(self) -> bool:
        """Whether the command starts a program of the candidate's (a command or a serve
        step; http and stop steps are the judge's)."""
        return self.kind in ("run", "serve")

    def to_runtime(self) -> dict[str, Any]:
        """Return the plain mapping judge.py embeds."""
        data: dict[str, Any] = {
            "run": self.run,
            "argv": list(self.argv),
            "cwd": self.cwd,
            "stdin": self.stdin,
            "stage": self.stage,
            "timeout": self.timeout,
            **({"memory_mb": self.memory_mb} if self.memory_mb is not None else {}),
            **({"until": self.until} if self.until is not None else {}),
        }
        if self.name is not None:
            data["name"] = self.name
        if self.kind == "serve":
            data["serve"] = self.server
            if self.url_file:
                data["url_file"] = self.url_file
        elif self.kind == "stop":
            data["stop"] = self.server
        elif self.kind == "http":
            request = thaw(self.request or {})
            headers = request.get("headers", {})
            pairs = [[key, value] for key, value in headers.items()]
            data["http"] = {**request, "server": self.server, "headers": pairs}
        return data


@dataclass(frozen=True, slots=True)
class Output:
    """A declared output of the solution.

    Attributes:
        path: Workspace-relative path.
        format: Parse format checked at level 2.
        header: Exact CSV header, if prescribed.
        description: Shown in TASK.md.
        stage: The stage that introduces the output.
        until: The last stage the output applies to (``None``: every later stage); an
            output a later stage replaces (a changed layout) is not judged after it.
    """

    path: str
    format: str
    header: tuple[str, ...]
    description: str
    stage: str
    until: str | None = None

    def to_runtime(self) -> dict[str, Any]:
        """Return the plain mapping judge.py embeds."""
        return {
            "path": self.path,
            "format": self.format,
            "header": list(self.header),
            "stage": self.stage,
            **({"until": self.until} if self.until is not None else {}),
        }


@dataclass(frozen=True, slots=True)
class Edge:
    """The single edge rule, its private fixture and its expectations.

    Attributes:
        rule: The rule in words; TASK.md states it verbatim.
        include_visible: Whether visible/ is copied into the edge fixture.
        files: Edge fixture files seed.py writes with ``--fixture edge``.
        expect: Expectations that decide ``edge_check_passed``.
    """

    rule: str
    include_visible: bool
    files: tuple[FileSpec, ...]
    expect: tuple[Expectation, ...]


@dataclass(frozen=True, slots=True)
class Service:
    """A loopback fixture service (spec 10.4).

    Attributes:
        name: Identifier.
        run: Command started with ``--port 0`` appended.
        url_file: Visible file that receives the base URL.
        origins: Further origins of the same service: name -> visible file that receives its
            URL ("" for none); the service learns them all from ``BENCHSMITH_ORIGIN_<NAME>``.
    """

    name: str
    run: str
    url_file: str
    origins: Mapping[str, str] = field(default_factory=dict)

    def to_runtime(self) -> dict[str, Any]:
        """The service as judge.py embeds it (``origins`` only when declared)."""
        data: dict[str, Any] = {"name": self.name, "run": self.run, "url_file": self.url_file}
        if self.origins:
            data["origins"] = dict(self.origins)
        return data


@dataclass(frozen=True, slots=True)
class Justification:
    """An equivalent mutant the author accepts (``[audit] equivalent``).

    Attributes:
        mutant: A mutant id or a shell-style pattern of ids (``fnmatch``, case-sensitive).
        why: The reason, shown in the audit report.
    """

    mutant: str
    why: str

    def matches(self, mutant_id: str) -> bool:
        """Whether this justification covers the mutant ``mutant_id``."""
        return fnmatch.fnmatchcase(mutant_id, self.mutant)


@dataclass(frozen=True, slots=True)
class AuditSettings:
    """The ``[audit]`` table: how ``benchsmith audit`` treats this task.

    Attributes:
        equivalent: Justified equivalent mutants, in declaration order.
    """

    equivalent: tuple[Justification, ...] = ()

    def justification(self, mutant_id: str) -> Justification | None:
        """The first justification covering ``mutant_id``, if any."""
        return next((j for j in self.equivalent if j.matches(mutant_id)), None)


@dataclass(frozen=True, slots=True)
class TaskSpec:
    """One task, as declared in task.toml, with every default applied.

    Attributes:
        id: Task number.
        slug: Directory slug.
        title: Human title.
        pressure: Context-pressure class.
        timeout_seconds: Agent time limit.
        editable: Workspace paths the solution may write.
        commands: Commands the solution must make work, in run order.
        outputs: Declared outputs.
        prose: Authored Markdown body of TASK.md.
        requirements: Numbered required behaviours.
        files: Main fixture files.
        anchors: Anchor records with their expectations.
        stages: Stages in order (at least one).
        edge: The edge rule, or ``None`` while the task is a placeholder.
        services: Loopback fixture services.
        private: Private truths that must never reach the workspace.
        judge_timeout: Default per-command judge timeout.
        lint_ignore: Rule codes this task silences.
        source: Path of the task.toml.
        positions: Source positions of the document's keys, for located diagnostics.
        audit: Settings of ``benchsmith audit`` (justified equivalent mutants).
    """

    id: int
    slug: str
    title: str
    pressure: Pressure
    timeout_seconds: int
    editable: tuple[str, ...]
    commands: tuple[Command, ...]
    outputs: tuple[Output, ...]
    prose: str
    requirements: tuple[str, ...]
    files: tuple[FileSpec, ...]
    anchors: tuple[Anchor, ...]
    stages: tuple[Stage, ...]
    edge: Edge | None
    services: tuple[Service, ...]
    private: tuple[str, ...]
    judge_timeout: float
    lint_ignore: frozenset[str]
    source: Path
    positions: Mapping[tuple[str | int, ...], tuple[int, int]] = field(
        default_factory=lambda: MappingProxyType({}), compare=False, repr=False
    )
    audit: AuditSettings = AuditSettings()

    @property
    def dirname(self) -> str:
        """The directory name the corpus expects: ``NN-slug``."""
        return f"{self.id:02d}-{self.slug}"

    @property
    def task_dir(self) -> Path:
        """The folder holding task.toml."""
        return self.source.parent

    @property
    def profile(self) -> PressureProfile:
        """The pressure class's defaults."""
        return PRESSURE[self.pressure]

    @property
    def seed(self) -> int:
        """The seed of every filler stream: ``20260831 + id`` (spec 3.1)."""
        return SEED_BASE + self.id

    @property
    def generators(self) -> tuple[str, ...]:
        """Sorted names of the authored fixture generators the task uses."""
        files = self.files + (self.edge.files if self.edge else ())
        return tuple(sorted({f.generator for f in files if f.generator}))

    @property
    def vocabularies(self) -> tuple[str, ...]:
        """Sorted names of the frozen vocabularies the task's columns draw from."""
        files = self.files + (self.edge.files if self.edge else ())
        names = {c.args["vocab"] for f in files for c in f.columns if c.kind == "vocab"}
        return tuple(sorted(names))

    def stage_number(self, stage_id: str) -> int:
        """Return the 1-based number of the stage ``stage_id``."""
        return [s.id for s in self.stages].index(stage_id) + 1

    def position(self, *path: str | int) -> tuple[int, int]:
        """Return the source (line, col) of ``path`` or its nearest located ancestor."""
        while path and path not in self.positions:
            path = path[:-1]
        return self.positions.get(path, (1, 1))


def split_command(run: str) -> tuple[str, ...]:
    """Split a command line with POSIX shell rules (raises ValueError on bad quoting)."""
    return tuple(shlex.split(run))
