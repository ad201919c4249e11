"""Rules about a corpus root: unique ids, scenario.json, generated files, class counts."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from typing import Any

from benchsmith.building import build
from benchsmith.corpus import read_settings
from benchsmith.diagnostics import Diagnostic, display_path
from benchsmith.dsl.load import MAX_DEPTH, too_deep
from benchsmith.dsl.locate import locate_json, nesting_position, position_of
from benchsmith.dsl.validate import validate
from benchsmith.errors import BenchsmithError
from benchsmith.generate import regions
from benchsmith.judging import judge_command_problem
from benchsmith.linting.context import CorpusContext, TaskContext
from benchsmith.linting.registry import corpus_rule
from benchsmith.lockfile import file_entry, read_lock, sha256_text

HAND_EDIT_MESSAGE = (
    "edited by hand since benchsmith generated it; a rebuild would refuse "
    "(and --force would discard the edits)"
)


@corpus_rule(("BS106", "two tasks of a corpus share an id or a slug"))
def unique_ids(ctx: CorpusContext) -> Iterator[Diagnostic]:
    """Task ids and slugs are unique within a corpus."""
    for attribute in ("id", "slug"):
        counts = Counter(getattr(s, attribute) for s in ctx.specs)
        for spec in ctx.specs:
            value = getattr(spec, attribute)
            if counts[value] > 1:
                line, col = spec.position(attribute)
                message = f"{attribute} {value!r} is used by {counts[value]} tasks of this corpus"
                yield Diagnostic(display_path(spec.source), line, col, "BS106", message)


@corpus_rule(
    ("BS103", "scenario.json is not valid JSON or violates the v1 scenario schema"),
    ("BS303", "scenario.json's judge_command is not a list of strings passing {workspace}"),
)
def scenario_files(ctx: CorpusContext) -> Iterator[Diagnostic]:
    """scenario.json parses and matches the spec's v1 shape, located at its source position."""
    for task in ctx.tasks:
        path = task.task_dir / "scenario.json"
        try:
            data = path.read_bytes() if path.is_file() else None
        except OSError:
            data = None
        if data is not None:
            yield from scenario_diagnostics(data, display_path(path))


def scenario_diagnostics(data: bytes, shown: str) -> list[Diagnostic]:
    """Every problem of a scenario.json's bytes, located: encoding, JSON, nesting, schema."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line, col = _byte_position(data, exc.start)
        return [Diagnostic(shown, line, col, "BS103", f"not valid UTF-8 (byte {exc.start})")]
    try:
        document = json.loads(text)
    except RecursionError:
        line, col = nesting_position(text, MAX_DEPTH, toml=False) or (1, 1)
        return [Diagnostic(shown, line, col, "BS103", f"nested more than {MAX_DEPTH} levels")]
    except ValueError as exc:
        line, col = getattr(exc, "lineno", 1), getattr(exc, "colno", 1)
        return [Diagnostic(shown, line, col, "BS103", f"invalid JSON: {exc}")]
    positions = locate_json(text)
    deep = too_deep(document)
    if deep is not None:
        line, col = position_of(positions, deep[: MAX_DEPTH + 1])
        return [Diagnostic(shown, line, col, "BS103", f"nested more than {MAX_DEPTH} levels")]
    found = list(
        validate(
            _with_usable_judge_command(document), "scenario", path=shown, positions=positions,
            code="BS103",
        )
    )  # fmt: skip
    problem = judge_command_problem(document) if isinstance(document, dict) else ""
    if problem:
        line, col = positions.get(("judge_command",), (1, 1))
        found.append(Diagnostic(shown, line, col, "BS303", problem))
    return found


def _with_usable_judge_command(document: Any) -> Any:
    """``document`` with a valid judge_command: :func:`judge_command_problem` owns that key.

    check and run read the command with the same function, so lint can never disagree
    with them about it.
    """
    if not isinstance(document, dict):
        return document
    return {**document, "judge_command": ["python", "judge.py", "--workspace", "{workspace}"]}


def _byte_position(data: bytes, offset: int) -> tuple[int, int]:
    line = data.count(b"\n", 0, offset) + 1
    return line, offset - (data.rfind(b"\n", 0, offset) + 1) + 1


@corpus_rule(
    ("BS501", "a generated file (seed.py, judge.py, TASK.md, scenario.json) is stale or missing"),
    ("BS502", "tasks.json is out of sync with the corpus's tasks"),
    ("BS503", "a corpus copy of benchlib.py or run.py drifted from sdk/benchsmith/runtime/"),
    ("BS504", "a generated file was edited by hand since it was generated"),
    ("BS505", "benchsmith.lock's seed hashes are missing or older than the seed's inputs"),
)
def generated_files(ctx: CorpusContext) -> Iterator[Diagnostic]:
    """Every generated file equals what ``benchsmith build`` would write now.

    Each file is reported once: BS504 when it was edited by hand, else BS501-BS503. Tasks
    whose task.toml does not load are checked against the hashes in benchsmith.lock.
    """
    yield from _build_findings(ctx)
    for task in ctx.tasks:
        if task.spec is None:
            yield from _hand_edits(task)


def _build_findings(ctx: CorpusContext) -> Iterator[Diagnostic]:
    if not ctx.specs:
        return
    try:
        build(ctx.specs, check=True)
    except BenchsmithError as exc:
        for found in exc.diagnostics:
            if found.code == "BS400":  # python_purity reports the same syntax error
                continue
            yield found


def _hand_edits(task: TaskContext) -> Iterator[Diagnostic]:
    """The part of each generated file benchsmith owns matches the hash in benchsmith.lock."""
    lock = read_lock(task.task_dir)
    for name in sorted(lock["files"]):
        digest = file_entry(lock, name).get("owned")
        path = task.task_dir / name
        text = task.read(path)
        if text is None:
            continue
        try:
            owned = regions.skeleton(text, display_path(path)) if name == "judge.py" else text
        except BenchsmithError as exc:
            yield from exc.diagnostics
            continue
        if sha256_text(owned) != digest:
            yield Diagnostic(display_path(path), 1, 1, "BS504", HAND_EDIT_MESSAGE)


@corpus_rule(("BS601", "a complete corpus does not have 8 N, 10 L, 8 M and 4 H tasks"))
def class_counts(ctx: CorpusContext) -> Iterator[Diagnostic]:
    """Once corpus.toml says complete = true, the class counts match the spec."""
    settings = read_settings(ctx.root)
    if not settings.complete:
        return
    counts: Counter[str] = Counter(s.pressure for s in ctx.specs)
    for pressure, wanted in settings.counts:
        if counts[pressure] != wanted:
            message = (
                f"a complete corpus has {wanted} {pressure} task(s), this one {counts[pressure]}"
            )
            yield Diagnostic(display_path(ctx.root / "corpus.toml"), 1, 1, "BS601", message)
