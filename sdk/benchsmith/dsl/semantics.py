"""Consistency rules the JSON Schema cannot express, and construction of the model.

The schema has already checked shapes and types; this module checks references (stage ids,
anchor files, columns, vocabularies, authored generators), applies the pressure defaults and
builds the frozen :class:`~benchsmith.dsl.model.TaskSpec`. Every problem is a located diagnostic.
"""

from __future__ import annotations

import ast
import collections
import re
import string
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal
from pathlib import Path
from types import MappingProxyType
from typing import Any

from benchsmith.diagnostics import Diagnostic, display_path
from benchsmith.dsl.locate import DocPath
from benchsmith.dsl.model import (
    DEFAULT_EDITABLE,
    DEFAULT_JUDGE_TIMEOUT,
    DEFAULT_MESSAGE,
    PRESSURE,
    TABULAR_FORMATS,
    Anchor,
    AuditSettings,
    Column,
    Command,
    Edge,
    Expectation,
    FileSpec,
    Justification,
    Output,
    Service,
    Stage,
    TaskSpec,
    freeze,
    output_format,
    split_command,
    tabular_format,
    thaw,
)
from benchsmith.dsl.validate import did_you_mean, dotted

COLUMN_KINDS = ("seq", "int", "decimal", "date", "datetime", "choice", "vocab")
EXPECT_ASSERTIONS = (
    "equals", "count", "absent", "contains", "not_contains", "exit_code", "status"
)  # fmt: skip
RESPONSE_ASSERTIONS = ("status", "equals", "contains", "not_contains")
FIXTURES_MODULE = "fixtures.py"
VOCAB_DIR = "vocab"


class _Builder:
    """Collects located diagnostics while turning the validated document into a model."""

    def __init__(self, source: Path, positions: Mapping[DocPath, tuple[int, int]]) -> None:
        self.source = source
        self.shown = display_path(source)
        self.positions = positions
        self.found: list[Diagnostic] = []

    def error(self, path: DocPath, message: str, code: str = "BS102") -> None:
        while path and path not in self.positions:
            path = path[:-1]
        line, col = self.positions.get(path, (1, 1))
        self.found.append(Diagnostic(self.shown, line, col, code, message))


def build(
    document: Mapping[str, Any],
    source: Path,
    positions: Mapping[DocPath, tuple[int, int]],
) -> tuple[TaskSpec | None, list[Diagnostic]]:
    """Check cross-references in a schema-valid document and build the task model.

    Args:
        document: The parsed, schema-valid task.toml.
        source: Where it was read from (referenced files are resolved beside it).
        positions: Source positions of the document's keys.

    Returns:
        The model, or ``None`` together with the diagnostics explaining why not.
    """
    b = _Builder(source, positions)
    stages = _stages(b, document)
    stage_ids = [s.id for s in stages]
    default_stage = stage_ids[0]
    judge_timeout = float(document.get("judge", {}).get("timeout", DEFAULT_JUDGE_TIMEOUT))
    files = _files(b, document.get("files", []), ("files",), stage_ids, default_stage)
    outputs = _outputs(b, document.get("outputs", []), stage_ids, default_stage)
    staging = _Staging(stage_ids, {o.path: o.stage for o in outputs}, _ends(outputs))
    anchors = _anchors(b, document.get("anchors", []), files, staging)
    edge = _edge(b, document.get("edge"), stage_ids, default_stage, staging)
    spec = TaskSpec(
        id=document["id"],
        slug=document["slug"],
        title=document["title"],
        pressure=document["pressure"],
        timeout_seconds=document.get(
            "timeout_seconds", PRESSURE[document["pressure"]].timeout_seconds
        ),
        editable=tuple(document.get("editable", DEFAULT_EDITABLE)),
        commands=_commands(b, document, stage_ids, default_stage, judge_timeout),
        outputs=outputs,
        prose=document["prose"],
        requirements=tuple(document.get("requirements", ())),
        files=files,
        anchors=anchors,
        stages=stages,
        edge=edge,
        services=_services(b, document.get("services", [])),
        private=tuple(document.get("private", ())),
        judge_timeout=judge_timeout,
        lint_ignore=frozenset(document.get("lint", {}).get("ignore", ())),
        source=source,
        positions=MappingProxyType(dict(positions)),
        audit=_audit(document.get("audit", {})),
    )
    _check_references(b, spec)
    return (None, b.found) if b.found else (spec, [])


def _services(b: _Builder, raw: list[Mapping[str, Any]]) -> tuple[Service, ...]:
    """The declared services; names (services and their origins) must be distinct."""
    services, seen = [], set()
    for index, entry in enumerate(raw):
        origins: dict[str, str] = {}
        for number, origin in enumerate(entry.get("origins", [])):
            name = origin["name"]
            if name in origins or name == entry["name"]:
                b.error(
                    ("services", index, "origins", number, "name"),
                    f"origin {name!r} is declared twice for service {entry['name']!r}",
                )
            origins[name] = origin.get("url_file", "")
        if entry["name"] in seen:
            b.error(("services", index, "name"), f"service {entry['name']!r} is declared twice")
        seen.add(entry["name"])
        services.append(Service(entry["name"], entry["run"], entry["url_file"], origins))
    return tuple(services)


def _stages(b: _Builder, document: Mapping[str, Any]) -> tuple[Stage, ...]:
    raw = document.get("stages") or [{"id": "initial"}]
    schedule = PRESSURE[document["pressure"]].compact_after
    stages = []
    for number, item in enumerate(raw, start=1):
        compact = item.get("compact_after", number in schedule)
        message = item.get("message", DEFAULT_MESSAGE if number == 1 else "")
        if not message:
            b.error(("stages", number - 1), f"stages[{number - 1}]: later stages need a message")
        stages.append(Stage(item["id"], message, compact))
    _unique(b, [s.id for s in stages], ("stages",), "stage id")
    return tuple(stages)


def _unique(b: _Builder, values: Iterable[object], where: DocPath, what: str) -> None:
    seen: set[object] = set()
    for index, value in enumerate(values):
        if value in seen:
            b.error((*where, index), f"duplicate {what} {value!r}")
        seen.add(value)


def _stage_ref(
    b: _Builder, item: Mapping[str, Any], where: DocPath, stage_ids: list[str], default: str
) -> str:
    stage = item.get("stage", default)
    if stage not in stage_ids:
        b.error((*where, "stage"), f"unknown stage {stage!r}; declared stages: {stage_ids}")
    return str(stage)


def _stage_span(
    b: _Builder, item: Mapping[str, Any], where: DocPath, stage_ids: list[str], default: str
) -> tuple[str, str | None]:
    """The stage that introduces a command or output and the last one it applies to."""
    stage = _stage_ref(b, item, where, stage_ids, default)
    until = item.get("until")
    if until is None:
        return stage, None
    if until not in stage_ids:
        b.error((*where, "until"), f"unknown stage {until!r}; declared stages: {stage_ids}")
    elif stage in stage_ids and stage_ids.index(until) < stage_ids.index(stage):
        b.error((*where, "until"), f"until {until!r} comes before the stage {stage!r}")
    return stage, str(until)


def _commands(
    b: _Builder,
    document: Mapping[str, Any],
    stage_ids: list[str],
    default: str,
    judge_timeout: float,
) -> tuple[Command, ...]:
    raw = document.get("commands")
    if raw is None:
        raw = [{"run": document["command"]}] if "command" in document else []
        where: DocPath = ("command",)
    else:
        where = ("commands",)
    commands = []
    for index, item in enumerate(raw):
        at = where if where == ("command",) else (*where, index)
        kind = next((k for k in ("serve", "http", "stop") if k in item), "run")
        if not _step_keys(b, item, at, kind):
            continue
        if kind in ("http", "stop"):
            argv: tuple[str, ...] = ()
        else:
            try:
                argv = split_command(item["run"])
            except ValueError as exc:
                b.error(at, f"command cannot be split like a shell line: {exc}")
                continue
            if not argv:
                b.error(at, "command is empty")
                continue
        stage, until = _stage_span(b, item, at, stage_ids, default)
        timeout = float(item.get("timeout", judge_timeout))
        cwd = item.get("cwd", ".")
        memory = item.get("memory_mb")
        stdin = item.get("stdin")
        run, server, request = item.get("run", ""), None, None
        if kind == "http":
            request = _request(item["http"])
            server = str(item["http"]["server"])
            run = f"{request['method']} {request['path']} (server {server})"
        elif kind in ("serve", "stop"):
            server = str(item[kind])
            run = run or f"stop server {server}"
        commands.append(
            Command(
                run, argv, cwd, stdin, stage, timeout, memory, until, kind=kind,
                name=item.get("name"), server=server, url_file=item.get("url_file"),
                request=request,
            )
        )  # fmt: skip
    _check_steps(b, commands, where, stage_ids)
    return tuple(commands)


# The keys each kind of command step may carry besides stage, until, timeout and name.
_STEP_KEYS = {
    "run": {"run", "cwd", "stdin", "memory_mb"},
    "serve": {"serve", "run", "cwd", "memory_mb", "url_file"},
    "http": {"http"},
    "stop": {"stop"},
}


def _step_keys(b: _Builder, item: Mapping[str, Any], at: DocPath, kind: str) -> bool:
    """Whether a command's keys fit its kind (a plain command or serve step needs ``run``);
    reports the keys that do not."""
    ok = True
    if kind in ("run", "serve") and "run" not in item:
        what = "a command" if kind == "run" else "a serve step"
        b.error(at, f"{dotted(at)}: {what} needs 'run' (the command line)")
        ok = False
    allowed = _STEP_KEYS[kind] | {"stage", "until", "timeout", "name"}
    for key in sorted(set(item) - allowed):
        shown = "a plain command" if kind == "run" else f"a {kind} step"
        b.error((*at, key), f"{dotted((*at, key))}: {key!r} does not apply to {shown}")
        ok = False
    return ok


def _request(raw: Mapping[str, Any]) -> Mapping[str, Any]:
    """An http step's request with its defaults."""
    request: dict[str, Any] = {
        "method": raw.get("method", "GET"),
        "path": raw.get("path", "/"),
        "headers": dict(raw.get("headers", {})),
        "max_bytes": int(raw.get("max_bytes", 1024 * 1024)),
    }
    for key in ("body", "body_file"):
        if key in raw:
            request[key] = raw[key]
    frozen: Mapping[str, Any] = freeze(request)
    return frozen


def _check_steps(
    b: _Builder, commands: list[Command], where: DocPath, stage_ids: list[str]
) -> None:
    """Step names are unique; at every stage, an http or stop step names a server that an
    earlier serve step of that stage's commands starts and no step in between stops, and a
    serve step does not start a server that runs already."""
    names: set[str] = set()
    for index, command in enumerate(commands):
        if command.name is not None:
            if command.name in names:
                b.error((*where, index, "name"), f"step name {command.name!r} is used twice")
            names.add(command.name)
    reported: set[tuple[int, str]] = set()
    for number in range(1, len(stage_ids) + 1):
        judged = [(n, c) for n, c in enumerate(commands) if _applies(c, stage_ids, number)]
        for index, message in _server_order(judged):
            if (index, message) not in reported:
                reported.add((index, message))
                kind = commands[index].kind
                key: DocPath = (kind,) if kind != "http" else ("http", "server")
                b.error((*where, index, *key), message)


def _applies(command: Command, stage_ids: list[str], number: int) -> bool:
    """Whether ``command`` runs when stage ``number`` (1-based) is judged."""
    if command.stage not in stage_ids or stage_ids.index(command.stage) + 1 > number:
        return False
    return command.until not in stage_ids or number <= stage_ids.index(command.until) + 1


def _server_order(judged: list[tuple[int, Command]]) -> list[tuple[int, str]]:
    """The steps of one stage's commands that start a running server or need one that is
    not running: (index, message)."""
    found: list[tuple[int, str]] = []
    running: set[str] = set()
    started: set[str] = set()
    for index, command in judged:
        server = command.server or ""
        if command.kind == "serve":
            if server in running:
                found.append((index, f"server {server!r} is already running here; stop it first"))
            running.add(server)
            started.add(server)
        elif command.kind in ("http", "stop") and server not in running:
            why = (
                "was stopped before" if server in started else "is started by no earlier serve step"
            )
            found.append((index, f"server {server!r} {why}; {command.kind} needs it running"))
        if command.kind == "stop":
            running.discard(server)
    return found


def _outputs(
    b: _Builder, raw: list[Mapping[str, Any]], stage_ids: list[str], default: str
) -> tuple[Output, ...]:
    outputs = []
    for index, item in enumerate(raw):
        fmt = item.get("format") or output_format(item["path"])
        if "header" in item and fmt != "csv":
            b.error(("outputs", index, "header"), f"header only applies to csv outputs, not {fmt}")
        stage, until = _stage_span(b, item, ("outputs", index), stage_ids, default)
        header = tuple(item.get("header", ()))
        described = item.get("description", "")
        outputs.append(Output(item["path"], fmt, header, described, stage, until))
    _unique(b, [o.path for o in outputs], ("outputs",), "output path")
    return tuple(outputs)


def _ends(outputs: tuple[Output, ...]) -> dict[str, str]:
    """The last stage of each output that ends (``until``), by path."""
    return {o.path: o.until for o in outputs if o.until is not None}


def _files(
    b: _Builder,
    raw: list[Mapping[str, Any]],
    where: DocPath,
    stage_ids: list[str],
    default: str,
) -> tuple[FileSpec, ...]:
    files = tuple(
        _file(b, item, (*where, index), stage_ids, default) for index, item in enumerate(raw)
    )
    _unique(b, [f.path for f in files], where, "file path")
    return files


def _file(
    b: _Builder, item: Mapping[str, Any], at: DocPath, stage_ids: list[str], default: str
) -> FileSpec:
    inferred, compressed = tabular_format(item["path"])
    fmt = item.get("format", inferred)
    generator = item.get("generator")
    if generator:
        for key in ("columns", "records", "rows", "sort_by", "wrap", "format"):
            if key in item:
                b.error((*at, key), f"{key!r} cannot be combined with generator {generator!r}")
        fmt = None
    elif fmt is None:
        b.error(
            (*at, "path"),
            f"cannot infer a tabular format from {item['path']!r}; name it .csv, .json or "
            ".jsonl (optionally .gz), set format, or write it with a generator",
        )
    elif "columns" not in item and "records" not in item:
        b.error(at, f"{item['path']}: declare columns, records or a generator")
    if "writes" in item and not generator:
        b.error((*at, "writes"), "writes only applies to generator entries")
    if item.get("wrap") and fmt != "json":
        b.error((*at, "wrap"), "wrap only applies to json files")
    columns = tuple(
        _column(b, name, value, (*at, "columns", name))
        for name, value in item.get("columns", {}).items()
    )
    records = tuple(freeze(r) for r in item.get("records", ()))
    header = [c.name for c in columns] or _majority_fields(records)
    for index, record in enumerate(records):
        _check_record(b, record, header, columns, fmt, (*at, "records", index))
    for index, key in enumerate(item.get("sort_by", ())):
        if key not in header:
            hint = did_you_mean(key, header)
            b.error((*at, "sort_by", index), f"sort_by names unknown column {key!r}{hint}")
    return FileSpec(
        path=item["path"],
        format=fmt,
        compressed=compressed and fmt is not None,
        rows=item.get("rows"),
        columns=columns,
        records=records,
        sort_by=tuple(item.get("sort_by", ())),
        wrap=item.get("wrap"),
        generator=generator,
        stage=_stage_ref(b, item, at, stage_ids, default),
        writes=tuple(item.get("writes", [item["path"]] if generator else [])),
    )


def _majority_fields(records: Sequence[Mapping[str, Any]]) -> list[str]:
    """The fields of explicit records without columns: those most records share (the first
    such record's order on a tie), so a typo in one record -- the first one included -- is
    blamed on that record rather than on all the others."""
    counts = collections.Counter(tuple(r) for r in records)  # most_common: ties in first order
    return list(counts.most_common(1)[0][0]) if counts else []


def _check_record(
    b: _Builder,
    record: Mapping[str, Any],
    header: list[str],
    columns: tuple[Column, ...],
    fmt: str | None,
    at: DocPath,
) -> None:
    """The record has exactly the file's fields, each value of its column's type."""
    if header and list(record) != header:
        missing = [k for k in header if k not in record]
        for key in (k for k in record if k not in header):
            where = dotted((*at, key))
            hint = did_you_mean(key, header)
            b.error((*at, key), f"{where}: unknown field {key!r}{hint}; the columns are {header}")
        if missing:
            where = dotted(at)
            b.error(at, f"{where}: record fields must be the columns {header}; missing {missing}")
    by_name = {c.name: c for c in columns}
    for key, value in record.items():
        problem = _value_problem(by_name.get(key), value, fmt)
        if problem:
            b.error((*at, key), f"{dotted((*at, key))} = {_short(value)}: {problem}")


def _short(value: Any) -> str:
    text = repr(thaw(value))
    return text if len(text) <= 40 else text[:37] + "..."


def _value_problem(column: Column | None, value: Any, fmt: str | None) -> str | None:
    """Why seed.py could not write ``value`` in ``column`` as that column's type, or None."""
    nested = isinstance(value, Mapping | tuple | list)
    if nested and fmt == "csv":
        return "a CSV cell holds one value, not an array or a table"
    if column is None or column.kind in ("const", "choice", "vocab"):
        return None
    if nested or isinstance(value, bool):
        return f"{column.kind} column {column.name!r} needs {_KIND_VALUES[column.kind]}"
    checker = _VALUE_CHECKS.get(column.kind)
    return checker(column, value) if checker else None


_KIND_VALUES = {
    "seq": "a string or a number",
    "int": 'an integer (or "" for a blank)',
    "decimal": 'a decimal number, written as a string like "23.10"',
    "date": 'a string such as "2025-02-03"',
    "datetime": 'a string such as "2025-02-03T08:00:00Z"',
}


def _int_problem(column: Column, value: Any) -> str | None:
    if isinstance(value, int) or (isinstance(value, str) and _is_int_text(value)):
        return None
    return (
        f'int column {column.name!r} needs an integer (or "" for a blank); to write other '
        "text there, make the column a choice or write the file with a generator"
    )


def _is_int_text(value: str) -> bool:
    return value == "" or value.lstrip("-").isdigit()


def _decimal_problem(column: Column, value: Any) -> str | None:
    try:
        number = Decimal(str(value))
    except ArithmeticError:
        number = None
    if number is not None and number.is_finite():
        return None
    return (
        f"decimal column {column.name!r} needs a decimal number, written as a string like "
        '"23.10" (seed.py writes it exactly)'
    )


def _text_problem(column: Column, value: Any) -> str | None:
    if isinstance(value, str):
        return None
    return f"{column.kind} column {column.name!r} needs {_KIND_VALUES[column.kind]}"


_VALUE_CHECKS: dict[str, Callable[[Column, Any], str | None]] = {
    "int": _int_problem,
    "decimal": _decimal_problem,
    "date": _text_problem,
    "datetime": _text_problem,
}


def _column(b: _Builder, name: str, value: Any, at: DocPath) -> Column:
    if not isinstance(value, Mapping):
        return Column(name, "const", MappingProxyType({"value": value}))
    kinds = [k for k in COLUMN_KINDS if k in value]
    if len(kinds) != 1:
        b.error(at, f"column {name!r}: give exactly one generator of {', '.join(COLUMN_KINDS)}")
        return Column(name, "const", MappingProxyType({"value": ""}))
    kind = kinds[0]
    args = dict(value)
    _COLUMN_CHECKS[kind](b, args, at)
    if "weights" in args and kind != "choice":
        b.error((*at, "weights"), "weights only apply to choice columns")
    if "format" in args and kind not in ("date", "datetime"):
        b.error((*at, "format"), "format only applies to date and datetime columns")
    if "start" in args and kind != "seq":
        b.error((*at, "start"), "start only applies to seq columns")
    return Column(name, kind, freeze(args))


MAX_SEQ_WIDTH = 100
MAX_TASK_ROWS = 20_000_000


def _width(digits: str) -> int:
    """A format width written as ``digits``; any width over nine digits is just "too wide"
    (``int()`` refuses strings of more than 4,300 digits)."""
    significant = digits.lstrip("0") or "0"
    return int(significant) if len(significant) <= 9 else MAX_SEQ_WIDTH + 1


def _check_seq(b: _Builder, args: dict[str, Any], at: DocPath) -> None:
    pattern = args["seq"]
    try:
        fields = [(f, spec) for _, f, spec, _ in string.Formatter().parse(pattern) if f is not None]
    except ValueError as exc:
        b.error((*at, "seq"), f"seq pattern {pattern!r} cannot format a number: {exc}")
        return
    if len(fields) != 1:
        b.error((*at, "seq"), f"seq pattern {pattern!r} needs exactly one {{}} field")
        return
    name, spec = fields[0]
    widths = [_width(n) for n in re.findall(r"\d+", spec or "")]
    if name not in ("", "0") or "{" in (spec or ""):
        b.error((*at, "seq"), f"seq pattern {pattern!r}: write the field as {{}} or {{:05d}}")
    elif any(w > MAX_SEQ_WIDTH for w in widths):
        b.error((*at, "seq"), f"seq pattern {pattern!r}: widths above {MAX_SEQ_WIDTH} are refused")
    else:
        try:
            pattern.format(1)
        except (ValueError, IndexError, KeyError) as exc:
            b.error((*at, "seq"), f"seq pattern {pattern!r} cannot format a number: {exc}")


def _check_range(b: _Builder, args: dict[str, Any], at: DocPath, kind: str) -> None:
    low, high = args[kind]
    parsers: dict[str, Callable[[Any], Any]] = {
        "int": int,
        "decimal": Decimal,
        "date": date.fromisoformat,
    }
    parse = parsers.get(kind)
    try:
        lo, hi = (parse(low), parse(high)) if parse else _datetimes(low, high)
    except ValueError as exc:
        b.error((*at, kind), f"{kind} range is not valid: {exc}")
        return
    if lo > hi:
        b.error((*at, kind), f"{kind} range is reversed: {low!r} > {high!r}")


def _datetimes(low: str, high: str) -> tuple[datetime, datetime]:
    lo, hi = (datetime.fromisoformat(v.upper().replace("Z", "+00:00")) for v in (low, high))
    return lo, hi


def _check_choice(b: _Builder, args: dict[str, Any], at: DocPath) -> None:
    weights = args.get("weights")
    if weights is not None and len(weights) != len(args["choice"]):
        b.error((*at, "weights"), "weights must have one number per choice")
    if weights is not None and not any(weights):
        b.error((*at, "weights"), "at least one weight must be positive")


def _check_vocab(b: _Builder, args: dict[str, Any], at: DocPath) -> None:
    path = b.source.parent / VOCAB_DIR / f"{args['vocab']}.json"
    if not path.is_file():
        hint = f"benchsmith vocab {args['vocab']} --provider PROVIDER --task {b.source.parent}"
        b.error((*at, "vocab"), f"vocabulary file {VOCAB_DIR}/{path.name} is missing; run: {hint}")


_COLUMN_CHECKS = {
    "seq": _check_seq,
    "int": lambda b, a, at: _check_range(b, a, at, "int"),
    "decimal": lambda b, a, at: _check_range(b, a, at, "decimal"),
    "date": lambda b, a, at: _check_range(b, a, at, "date"),
    "datetime": lambda b, a, at: _check_range(b, a, at, "datetime"),
    "choice": _check_choice,
    "vocab": _check_vocab,
}


def _anchors(
    b: _Builder, raw: list[Mapping[str, Any]], files: tuple[FileSpec, ...], staging: _Staging
) -> tuple[Anchor, ...]:
    by_path = {f.path: f for f in files}
    anchors = []
    for index, item in enumerate(raw):
        at: DocPath = ("anchors", index)
        records = tuple(freeze(r) for r in item.get("records", [item.get("record", {})]))
        target = item.get("file")
        if target is not None:
            key = "records" if "records" in item else "record"
            _check_anchor_file(b, by_path.get(target), target, records, at, key, item.get("at"))
        anchor_stage = staging.known(b, item.get("stage"), (*at, "stage"))
        if anchor_stage is None and target in by_path:
            anchor_stage = by_path[target].stage  # its records arrive with that file
        expect = _expectations(
            b, item.get("expect", []), (*at, "expect"), item["name"], staging, anchor_stage
        )
        anchors.append(
            Anchor(item["name"], target, records, item.get("at"), item.get("why", ""), expect)
        )
    _unique(b, [a.name for a in anchors], ("anchors",), "anchor name")
    _check_capacity(b, files, anchors)
    return tuple(anchors)


def _check_anchor_file(
    b: _Builder,
    spec: FileSpec | None,
    target: str,
    records: tuple[Mapping[str, Any], ...],
    at: DocPath,
    key: str,
    position: object = None,
) -> None:
    if spec is None or spec.format not in TABULAR_FORMATS:
        b.error((*at, "file"), f"anchor file {target!r} is not a declared tabular [[files]] entry")
        return
    for index, record in enumerate(records):
        where = (*at, "records", index) if key == "records" else (*at, "record")
        _check_record(b, record, list(spec.header), spec.columns, spec.format, where)
    if isinstance(position, int) and spec.rows is not None and position >= spec.rows:
        b.error(
            (*at, "at"),
            f"{dotted((*at, 'at'))} = {position} is past the end of {target} ({spec.rows} rows: "
            f"positions 0 to {spec.rows - 1}), where seed.py would quietly put the record last; "
            f"write at = {spec.rows - 1} for the last row, or leave at out to spread the anchors",
        )
    if position is not None and spec.sort_by:
        keys = ", ".join(spec.sort_by)
        b.error(
            (*at, "at"),
            f"{dotted((*at, 'at'))} = {position} has no effect: {target} is sorted by {keys} "
            "after the anchors are placed, so the record lands where its sort key puts it; "
            "leave at out, or drop sort_by from the file",
        )


def _check_capacity(b: _Builder, files: tuple[FileSpec, ...], anchors: list[Anchor]) -> None:
    total = sum(f.rows or 0 for f in files)
    if total > MAX_TASK_ROWS:
        b.error(("files",), f"the files declare {total} rows; a task may declare {MAX_TASK_ROWS}")
    for index, spec in enumerate(files):
        if spec.rows is None:
            continue
        fixed = len(spec.records) + sum(len(a.records) for a in anchors if a.file == spec.path)
        if spec.rows < fixed:
            b.error(
                ("files", index, "rows"),
                f"rows = {spec.rows} is fewer than the {fixed} explicit and anchor records",
            )
        elif spec.rows > fixed and not spec.columns:
            b.error(("files", index, "rows"), "filler rows need columns to generate them from")


@dataclass(frozen=True, slots=True)
class _Staging:
    """What the stage of an expectation defaults to and must respect.

    Attributes:
        ids: The declared stage ids in order.
        outputs: The stage of each declared output, by path.
        ends: The last stage of each declared output that ends (``until``), by path.
    """

    ids: list[str]
    outputs: Mapping[str, str]
    ends: Mapping[str, str]

    def known(self, b: _Builder, stage: object, at: DocPath) -> str | None:
        """``stage`` when it names a declared stage (else a located BS102 and ``None``)."""
        if stage is None:
            return None
        if stage not in self.ids:
            b.error(at, f"unknown stage {stage!r}; declared stages: {self.ids}")
            return None
        return str(stage)

    def number(self, stage: str) -> int:
        """The 1-based number of the declared stage ``stage``."""
        return self.ids.index(stage) + 1

    def of(
        self, b: _Builder, item: Mapping[str, Any], at: DocPath, default: str | None
    ) -> tuple[str, str | None]:
        """The stage that introduces the expectation ``item`` and the last one it applies to.

        The stage defaults to the later of ``default`` (the anchor's: its ``stage``, else the
        stage of the fixture file holding its records) and the stage of the output the
        expectation reads, else to the first stage. A stage before its output's is an error:
        the output does not exist yet. ``until`` defaults to the output's own ``until``; a
        check beyond it is an error: the output no longer applies.
        """
        output_stage = self.outputs.get(item.get("file") or "")
        if output_stage not in self.ids:  # an unknown stage, reported where it is declared
            output_stage = None
        stage = self.known(b, item.get("stage"), (*at, "stage"))
        if stage is None:
            known = [s for s in (default, output_stage) if s is not None and s in self.ids]
            stage = max(known, key=self.number) if known else self.ids[0]
        elif output_stage and self.number(stage) < self.number(output_stage):
            b.error(
                (*at, "stage"),
                f"stage {stage!r} comes before {output_stage!r}, the stage that introduces "
                f"{item['file']}",
            )
        until = self.known(b, item.get("until"), (*at, "until"))
        if until is not None and self.number(until) < self.number(stage):
            b.error((*at, "until"), f"until {until!r} comes before the check's stage {stage!r}")
        return stage, self.ended(b, item, at, stage, until)

    def ended(
        self, b: _Builder, item: Mapping[str, Any], at: DocPath, stage: str, until: str | None
    ) -> str | None:
        """``until``, by default the ``until`` of the output the expectation reads; a located
        error when the check outlives that output."""
        file = item.get("file") or ""
        end = self.ends.get(file)
        if end is None or end not in self.ids:  # an unknown end is reported where declared
            return until
        if self.number(stage) > self.number(end):
            b.error(
                (*at, "stage"),
                f"stage {stage!r} comes after {end!r}, the last stage {file} applies to",
            )
        elif until is not None and self.number(until) > self.number(end):
            b.error(
                (*at, "until"),
                f"until {until!r} comes after {end!r}, the last stage {file} applies to",
            )
        return end if until is None else until


def _expectations(
    b: _Builder,
    raw: list[Mapping[str, Any]],
    where: DocPath,
    owner: str,
    staging: _Staging,
    default_stage: str | None = None,
) -> tuple[Expectation, ...]:
    found = []
    for index, item in enumerate(raw):
        at = (*where, index)
        asserted = [k for k in EXPECT_ASSERTIONS if k in item]
        if len(asserted) != 1:
            b.error(at, f"an expectation asserts exactly one of {', '.join(EXPECT_ASSERTIONS)}")
        if "stream" in item:
            _check_stream_expectation(b, item, asserted, at)
        elif "response" in item or "status" in item:
            _check_response_expectation(b, item, asserted, at)
        elif "file" not in item and asserted != ["exit_code"]:
            b.error(at, "an expectation needs the file it reads")
        if "where" in item and "equals" in item and not isinstance(item["equals"], Mapping):
            b.error((*at, "equals"), "with where, equals is a table of field = value")
        name = item.get("name") or f"{owner}#{index + 1}"
        stage, until = staging.of(b, item, at, default_stage)
        own = ("name", "file", "level", "stage", "until")
        spec = freeze({k: v for k, v in item.items() if k not in own})
        found.append(Expectation(name, item.get("file"), item.get("level", 4), spec, stage, until))
    return tuple(found)


def _check_response_expectation(
    b: _Builder, item: Mapping[str, Any], asserted: list[str], at: DocPath
) -> None:
    """``response = STEP`` reads the response of the http step named STEP: its ``status``,
    its JSON body (``equals``, at ``path`` or whole) or its text (``contains``)."""
    if "response" not in item:
        b.error((*at, "status"), "status needs response = the name of an http step")
        return
    if "file" in item:
        b.error((*at, "response"), "use either file or response, not both")
    if any(k not in RESPONSE_ASSERTIONS for k in asserted):
        b.error((*at, "response"), "a response expectation asserts status, equals or contains")
    for key in ("where", "count", "absent", "stream"):
        if key in item:
            b.error((*at, key), f"a response expectation takes no {key}")


def _check_responses(b: _Builder, spec: TaskSpec) -> None:
    """Every response expectation names an http step."""
    steps = {c.name for c in spec.commands if c.kind == "http" and c.name}
    located: list[tuple[DocPath, Expectation]] = [
        (("anchors", i, "expect", j), e)
        for i, a in enumerate(spec.anchors)
        for j, e in enumerate(a.expect)
    ]
    if spec.edge:
        located += [(("edge", "expect", j), e) for j, e in enumerate(spec.edge.expect)]
    for at, expectation in located:
        name = expectation.spec.get("response")
        if name is not None and name not in steps:
            known = ", ".join(sorted(steps)) or "none"
            b.error((*at, "response"), f"no http step is named {name!r} (named: {known})")


def _check_stream_expectation(
    b: _Builder, item: Mapping[str, Any], asserted: list[str], at: DocPath
) -> None:
    """``stream = "stdout" | "stderr"`` reads the last command's output instead of a file."""
    if "file" in item:
        b.error((*at, "stream"), "use either file or stream, not both")
    if any(k not in ("contains", "not_contains") for k in asserted):
        b.error((*at, "stream"), "a stream expectation asserts contains or not_contains")
    for key in ("where", "path", "equals", "decimal"):
        if key in item:
            b.error((*at, key), f"a stream expectation takes no {key}")


def _edge(
    b: _Builder,
    raw: Mapping[str, Any] | None,
    stage_ids: list[str],
    default: str,
    staging: _Staging,
) -> Edge | None:
    if raw is None:
        return None
    files = _files(b, raw.get("files", []), ("edge", "files"), stage_ids, default)
    expect = _expectations(b, raw.get("expect", []), ("edge", "expect"), "edge", staging)
    return Edge(raw["rule"], raw.get("include_visible", True), files, expect)


def _audit(raw: Mapping[str, Any]) -> AuditSettings:
    equivalent = raw.get("equivalent", ())
    return AuditSettings(tuple(Justification(j["mutant"], j["why"]) for j in equivalent))


def _check_references(b: _Builder, spec: TaskSpec) -> None:
    if spec.generators:
        _check_generators(b, spec)
    _check_expected_fields(b, spec)
    _check_responses(b, spec)
    for index, path in enumerate(spec.editable):
        if path.rstrip("/") in ("", "."):
            b.error(("editable", index), "the workspace root cannot be editable")


def _check_expected_fields(b: _Builder, spec: TaskSpec) -> None:
    """``where`` and ``equals`` name only columns of a csv output's declared header."""
    headers = {o.path: list(o.header) for o in spec.outputs if o.header}
    located: list[tuple[DocPath, Expectation]] = [
        (("anchors", i, "expect", j), e)
        for i, a in enumerate(spec.anchors)
        for j, e in enumerate(a.expect)
    ]
    if spec.edge:
        located += [(("edge", "expect", j), e) for j, e in enumerate(spec.edge.expect)]
    declared = [o.path for o in spec.outputs]
    for at, expectation in located:
        stream = "stream" in expectation.spec  # file and stream: reported as such
        if (
            expectation.file is not None
            and not stream
            and not _declared(expectation.file, declared)
        ):
            message = f"{expectation.file} is not a declared output ([[outputs]] path)"
            b.error((*at, "file"), message + did_you_mean(expectation.file, declared))
            continue
        header = headers.get(expectation.file or "")
        if header is None or "path" in expectation.spec:
            continue
        for key in ("where", "equals"):
            fields = expectation.spec.get(key)
            for name in fields if isinstance(fields, Mapping) else ():
                if name not in header:
                    message = f"{dotted((*at, key, name))}: {name!r} is not a column of "
                    message += f"{expectation.file} {header}{did_you_mean(name, header)}"
                    b.error((*at, key, name), message)


def _declared(file: str, outputs: Sequence[str]) -> bool:
    """Whether ``file`` is a declared output or lies in a declared output folder."""
    return any(file == o or (o.endswith("/") and file.startswith(o)) for o in outputs)


def _check_generators(b: _Builder, spec: TaskSpec) -> None:
    module = spec.task_dir / FIXTURES_MODULE
    defined = _defined_functions(module)
    if isinstance(defined, Diagnostic):  # unparsable: the error is in fixtures.py itself
        b.found.append(defined)
        return
    all_files = [("files", i, f) for i, f in enumerate(spec.files)]
    if spec.edge:
        all_files += [("edge", i, f) for i, f in enumerate(spec.edge.files)]
    for *prefix, index, item in all_files:
        if item.generator and (defined is None or item.generator not in defined):
            at: DocPath = (*prefix, index, "generator")
            if defined is None:
                b.error(
                    at, f"generator {item.generator!r} needs {FIXTURES_MODULE} beside task.toml"
                )
            else:
                b.error(at, f"{FIXTURES_MODULE} defines no function {item.generator!r}")


def _defined_functions(module: Path) -> set[str] | Diagnostic | None:
    """Top-level function names of fixtures.py (``None`` if absent), or the located error
    that keeps it from parsing (a generator it lacks is then not the problem to report)."""
    if not module.is_file():
        return None
    shown = display_path(module)
    try:
        tree = ast.parse(module.read_bytes(), filename=shown)
    except SyntaxError as exc:  # worded as lint's BS400, which then reports it once
        line, col = max(exc.lineno or 1, 1), max(exc.offset or 1, 1)
        message = f"file does not parse: {exc.msg}; fix the syntax so the file can be checked"
        return Diagnostic(shown, line, col, "BS400", message)
    except ValueError as exc:  # null bytes, undecodable source
        message = f"file does not parse: {exc}; fix the source so the file can be checked"
        return Diagnostic(shown, 1, 1, "BS400", message)
    return {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}
