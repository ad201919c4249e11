"""Rules about one task: pressure, layout, visibility of the edge rule, leaks, code purity."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from decimal import Decimal
from pathlib import Path

from benchsmith.corpus import TASK_DIR_PATTERN
from benchsmith.diagnostics import Diagnostic, Severity, display_path
from benchsmith.dsl.model import TaskSpec, thaw
from benchsmith.fixturepaths import (
    edge_paths,
    known_paths,
    missing_service_scripts,
    service_script,
)
from benchsmith.linting import purity
from benchsmith.linting.context import TaskContext, position_in
from benchsmith.linting.registry import task_rule
from benchsmith.patches import MUTANTS_DIR, PatchError, parse_patch, patch_problem
from benchsmith.runtime import benchlib

PLACEHOLDER = re.compile(r"\bTODO\b")
PATH_TOKEN = re.compile(r"(?<![\w./-])([A-Za-z0-9_.-]+(?:/[A-Za-z0-9_.-]+)+)")
DETERMINISTIC_FILES = ("seed.py", "judge.py", "fixtures.py")
STDLIB_TREES = ("visible", "stages", "reference", "witnesses")


def _at(ctx: TaskContext, spec: TaskSpec, code: str, message: str, *path: str | int) -> Diagnostic:
    line, col = spec.position(*path)
    return Diagnostic(ctx.shown("task.toml"), line, col, code, message)


def _at_text(
    ctx: TaskContext, spec: TaskSpec, code: str, message: str, needle: str, *path: str | int
) -> Diagnostic:
    """:func:`_at`, but at ``needle`` inside the value at ``path`` (its first occurrence from
    the key on, a multi-line string included), so an editor jumps to the path it names."""
    found = _at(ctx, spec, code, message, *path)
    text = ctx.read(ctx.task_dir / "task.toml")
    if text is None or not needle:
        return found
    lines = text.split("\n")
    start = sum(len(x) + 1 for x in lines[: found.line - 1]) + found.col - 1
    offset = text.find(needle, start)
    if offset < 0:
        return found
    line, col = position_in(text, offset)
    return Diagnostic(found.path, line, col, code, message)


@task_rule(
    ("BS201", "timeout_seconds differs from the pressure class (600/900/1200/1800 s)"),
    ("BS202", "stage count does not fit the pressure class (1 / 2 / 3 / 4-5)"),
    ("BS203", "compaction schedule differs from the pressure class (M: after 1; H: after 1, 3)"),
)
def pressure_profile(ctx: TaskContext) -> Iterator[Diagnostic]:
    """Timeout, stage count and compaction schedule follow the pressure class."""
    spec = ctx.spec
    if spec is None:
        return
    profile = spec.profile
    if spec.timeout_seconds != profile.timeout_seconds:
        wanted_timeout, actual_timeout = profile.timeout_seconds, spec.timeout_seconds
        message = f"pressure {spec.pressure} means timeout_seconds = {wanted_timeout}, "
        message += f"not {actual_timeout}"
        yield _at(ctx, spec, "BS201", message, "timeout_seconds")
    count = len(spec.stages)
    if not profile.min_stages <= count <= profile.max_stages:
        wanted = "-".join(sorted({str(profile.min_stages), str(profile.max_stages)}))
        yield _at(
            ctx,
            spec,
            "BS202",
            f"pressure {spec.pressure} needs {wanted} stage(s), found {count}",
            "stages",
        )
    actual = tuple(n for n, s in enumerate(spec.stages, start=1) if s.compact_after)
    if actual != profile.compact_after:
        message = (
            f"pressure {spec.pressure} requests compaction after stage(s) "
            f"{list(profile.compact_after)}, this task after {list(actual)}"
        )
        yield _at(ctx, spec, "BS203", message, "stages")


@task_rule(("BS105", "task folder is not named NN-slug after its id and slug"))
def folder_name(ctx: TaskContext) -> Iterator[Diagnostic]:
    """The folder is named after the task's id and slug."""
    spec = ctx.spec
    if spec is not None and ctx.task_dir.name != spec.dirname:
        message = f"folder is named {ctx.task_dir.name!r}; id and slug say {spec.dirname!r}"
        yield _at(ctx, spec, "BS105", message, "slug")
    elif spec is None and not TASK_DIR_PATTERN.match(ctx.task_dir.name):
        yield Diagnostic(
            ctx.shown("task.toml"),
            1,
            1,
            "BS105",
            f"folder {ctx.task_dir.name!r} is not named NN-slug",
        )


def _mentioned(text: str, roots: set[str]) -> Iterator[str]:
    for match in PATH_TOKEN.finditer(text):
        token = match.group(1).rstrip(".")
        if token.split("/")[0] in roots:
            yield token


def _texts(spec: TaskSpec) -> list[tuple[int, str, tuple[str | int, ...]]]:
    """(stage number, text, task.toml path) of every text that may name an input."""
    texts: list[tuple[int, str, tuple[str | int, ...]]] = [(1, spec.prose, ("prose",))]
    texts += [(1, r, ("requirements", i)) for i, r in enumerate(spec.requirements)]
    texts += [
        (spec.stage_number(o.stage), o.description, ("outputs", i, "description"))
        for i, o in enumerate(spec.outputs)
    ]
    texts += [
        (spec.stage_number(c.stage), c.run, ("commands", i)) for i, c in enumerate(spec.commands)
    ]
    texts += [
        (n, s.message, ("stages", n - 1, "message")) for n, s in enumerate(spec.stages, start=1)
    ]
    return texts


@task_rule(
    ("BS104", "the task's text or a command names an input no fixture provides by that stage")
)
def referenced_inputs(ctx: TaskContext) -> Iterator[Diagnostic]:
    """Input paths named in the prose, requirements, commands and messages exist by then."""
    spec = ctx.spec
    if spec is None:
        return
    final = known_paths(spec, len(spec.stages))
    roots = {p.split("/")[0] for p in final.paths if "/" in p} - {
        p.split("/")[0].rstrip("/") for p in spec.editable
    }
    for upto, text, where in _texts(spec):
        known = known_paths(spec, upto)
        for token in sorted(set(_mentioned(text, roots))):
            if token not in known:
                message = (
                    f"{token} is named at stage {upto} but no fixture file, visible/ or "
                    "stages/ file provides it by then"
                )
                yield _at_text(ctx, spec, "BS104", message, token, *where)
    yield from service_scripts(ctx)
    edge = edge_paths(spec)
    for index, command in enumerate(spec.commands):
        body = str((command.request or {}).get("body_file") or "")
        for fixture, known in (("main", final), ("edge", edge)):
            if command.stdin and command.stdin not in known:
                message = f"stdin file {command.stdin} is not part of the {fixture} fixture"
                yield _at(ctx, spec, "BS104", message, "commands", index, "stdin")
            if body and body not in known:
                message = f"http body file {body} is not part of the {fixture} fixture"
                yield _at(ctx, spec, "BS104", message, "commands", index, "http", "body_file")


def service_scripts(ctx: TaskContext) -> Iterator[Diagnostic]:
    """BS104 for every service whose script no fixture provides (:mod:`benchsmith.fixturepaths`,
    which ``build`` asks too)."""
    spec = ctx.spec
    if spec is None:
        return
    for index, message in missing_service_scripts(spec):
        script = service_script(spec.services[index].run) or ""
        yield _at_text(ctx, spec, "BS104", message, script, "services", index, "run")


def _normalized(text: str) -> str:
    return " ".join(text.split())


@task_rule(("BS301", "the edge rule is missing, or TASK.md does not state it verbatim"))
def edge_rule_visible(ctx: TaskContext) -> Iterator[Diagnostic]:
    """TASK.md states the edge rule (spec principle 4: no hidden requirements)."""
    spec = ctx.spec
    if spec is None:
        return
    if spec.edge is None:
        yield _at(ctx, spec, "BS301", "no [edge] table: every task has one edge rule and fixture")
        return
    task_md = ctx.read(ctx.task_dir / "TASK.md")
    if task_md is not None and _normalized(spec.edge.rule) not in _normalized(task_md):
        yield Diagnostic(
            ctx.shown("TASK.md"),
            1,
            1,
            "BS301",
            "TASK.md does not state the edge rule; run benchsmith build",
        )


def _distinctive(value: object) -> str | None:
    """The text form of an expected value specific enough to count as a leak, else None."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, int | float | Decimal):
        text = str(value)
        return text if len(text.replace("-", "").replace(".", "")) >= 5 else None
    if isinstance(value, str):  # a bare word (`needs_review`) is a label TASK.md must state
        specific = any(ch.isdigit() or ch in ".:/@" for ch in value)
        return value if len(value) >= 6 and specific else None
    return None


def private_values(spec: TaskSpec) -> list[tuple[str, str]]:
    """(value, origin) pairs the task must never state to the agent.

    Every ``private`` string, and each distinctive anchor expectation, except one that equals
    a value of a declared input record (the task hands that out on purpose, e.g. a date
    copied from the record).
    """
    inputs = _input_values(spec)
    found = [(v, "private") for v in spec.private]
    for anchor in spec.anchors:
        for expectation in anchor.expect:
            for value in _flatten(thaw(list(expectation.private_values()))):
                text = _distinctive(value)
                if text is not None and text not in inputs:
                    found.append((text, f"anchor {anchor.name!r} expectation"))
    return sorted(set(found))


def _input_values(spec: TaskSpec) -> set[str]:
    records = [r for a in spec.anchors for r in a.records]
    records += [r for f in spec.files for r in f.records]
    return {str(v) for record in records for v in thaw(record).values()}


def _flatten(values: Iterable[object]) -> Iterator[object]:
    for value in values:
        if isinstance(value, list | tuple):
            yield from _flatten(value)
        elif isinstance(value, dict):
            yield from _flatten(value.values())
        else:
            yield value


@task_rule(("BS302", "a private expected value appears in TASK.md, visible/ or stages/"))
def private_leaks(ctx: TaskContext) -> Iterator[Diagnostic]:
    """Private truths never reach what the agent sees."""
    spec = ctx.spec
    if spec is None:
        return
    secrets = private_values(spec)
    for path in [ctx.task_dir / "TASK.md", *ctx.shipped_files]:
        text = ctx.read(path)
        for value, origin in secrets if text else ():
            offset = text.find(value) if text else -1
            if offset >= 0 and text is not None:
                line, col = position_in(text, offset)
                message = (
                    f"{origin} value {value!r} appears here; agents must not see private truths"
                )
                yield Diagnostic(
                    ctx.shown(path.relative_to(ctx.task_dir).as_posix()),
                    line,
                    col,
                    "BS302",
                    message,
                )


SHIPPED_TREES = ("visible", "edge", "reference", "witnesses", "mutants")


def _copied_folders(task_dir: Path) -> list[Path]:
    """The folders materialization copies as a whole: each shipped tree, each stage's files."""
    folders = [task_dir / name for name in SHIPPED_TREES]
    stages = task_dir / "stages"
    folders += sorted(p for p in stages.iterdir() if p.is_dir()) if stages.is_dir() else []
    return [f for f in folders if f.is_dir() and not f.is_symlink()]


@task_rule(("BS304", "a symlink in a shipped folder (visible/, stages/, edge/, ...) leaves it"))
def escaping_symlinks(ctx: TaskContext) -> Iterator[Diagnostic]:
    """Shipped folders hold no link out of themselves (it would show what it points at)."""
    for name in (*SHIPPED_TREES, "stages"):
        if (ctx.task_dir / name).is_symlink():
            yield Diagnostic(ctx.shown(name), 0, 0, "BS304", f"{name}/ itself is a symlink")
    for folder in _copied_folders(ctx.task_dir):
        for rel in benchlib.escaping_links(folder):
            link = folder / rel
            shown = link.relative_to(ctx.task_dir).as_posix()
            message = (
                f"symlink to {str(link.readlink())!r} leaves "
                f"{folder.relative_to(ctx.task_dir).as_posix()}/; ship the file itself"
            )
            yield Diagnostic(ctx.shown(shown), 0, 0, "BS304", message)


def _local_modules(ctx: TaskContext) -> frozenset[str]:
    names = {"benchlib", "fixtures"}
    roots = [ctx.task_dir / "visible", ctx.task_dir / "reference"]
    roots += sorted(p for p in (ctx.task_dir / "stages").glob("*") if p.is_dir())
    roots += sorted(p for p in (ctx.task_dir / "witnesses").glob("*") if p.is_dir())
    for root in roots:
        for path in sorted(root.glob("*")) if root.is_dir() else ():
            names.add(path.stem if path.suffix == ".py" else path.name)
    if ctx.spec is not None:
        names.update(p.strip("/").split("/")[0] for p in ctx.spec.editable)
    return frozenset(names)


def _python_files(ctx: TaskContext) -> Iterator[tuple[Path, bool]]:
    """(path, must be deterministic) for every Python file lint checks."""
    for name in DETERMINISTIC_FILES:
        if (ctx.task_dir / name).is_file():
            yield ctx.task_dir / name, True
    for tree in STDLIB_TREES:
        for path in ctx.files_under(tree):
            if path.suffix == ".py":
                yield path, False


@task_rule()
def python_purity(ctx: TaskContext) -> Iterator[Diagnostic]:
    """Stdlib-only imports everywhere; determinism in seed.py, judge.py and fixtures.py."""
    local = _local_modules(ctx)
    for path, deterministic in _python_files(ctx):
        source = ctx.read(path)
        if source is None:
            continue
        shown = ctx.shown(path.relative_to(ctx.task_dir).as_posix())
        yield from purity.check_syntax(shown, source)
        yield from purity.check_imports(shown, source, local_modules=local)
        if deterministic:
            yield from purity.check_determinism(shown, source)


def _placeholder_strings(spec: TaskSpec) -> Iterator[tuple[tuple[str | int, ...], str]]:
    yield ("prose",), spec.prose
    yield ("title",), spec.title
    yield from ((("requirements", i), r) for i, r in enumerate(spec.requirements))
    yield from ((("stages", i, "message"), s.message) for i, s in enumerate(spec.stages))
    yield from ((("outputs", i, "description"), o.description) for i, o in enumerate(spec.outputs))
    yield from ((("anchors", i, "why"), a.why) for i, a in enumerate(spec.anchors))
    if spec.edge:
        yield ("edge", "rule"), spec.edge.rule


@task_rule(
    ("BS901", "a TODO placeholder is left in task.toml, judge.py or the reference (warning)"),
    (
        "BS902",
        "reference/ or a witness (witnesses/levelN.patch or levelN/; witnesses/stageK.patch "
        "for every stage K but the last) is missing or is not a unified diff (warning)",
    ),
)
def placeholders(ctx: TaskContext) -> Iterator[Diagnostic]:
    """Scaffold placeholders are reported as warnings until replaced."""
    spec = ctx.spec
    if spec is not None:
        for where, value in _placeholder_strings(spec):
            if PLACEHOLDER.search(value):
                yield _warning(
                    _at(ctx, spec, "BS901", "placeholder text left in task.toml", *where)
                )
    for path in [
        ctx.task_dir / "judge.py",
        *ctx.files_under("reference"),
        *ctx.files_under("witnesses"),
    ]:
        text = ctx.read(path)
        match = PLACEHOLDER.search(_prose_of(path, text or ""))
        if match and text is not None:
            line, col = position_in(text, match.start())
            shown = ctx.shown(path.relative_to(ctx.task_dir).as_posix())
            yield Diagnostic(shown, line, col, "BS901", "placeholder left here", Severity.WARNING)
    folders = ["reference", "witnesses/level3", "witnesses/level4"]
    if spec is not None:
        folders += [f"witnesses/stage{k}" for k in range(1, len(spec.stages))]
    for folder in folders:
        patch = ctx.task_dir / f"{folder}.patch"
        if not (ctx.task_dir / folder).is_dir() and not (folder != "reference" and patch.is_file()):
            message = f"{folder}/ is missing; benchsmith check needs it to prove the judge"
            if folder.startswith("witnesses/stage"):
                k = folder.removeprefix("witnesses/stage")
                message = (
                    f"{folder}.patch is missing: a task with several stages needs the "
                    f"reference stopped after each stage but the last (5 at judge.py --stage "
                    f"{k}, exactly 3 final); benchsmith check needs it to prove the stage ladder"
                )
            yield Diagnostic(ctx.shown("task.toml"), 1, 1, "BS902", message, Severity.WARNING)
        elif patch.is_file() and not (ctx.task_dir / folder).is_dir():
            yield from _unusable_patch(ctx, patch)


def _prose_of(path: Path, text: str) -> str:
    """The text searched for placeholders: a patch's lines outside its hunks (blanked
    in place, so offsets still match), so a TODO in the patched code is not one."""
    if path.suffix != ".patch":
        return text
    kept = [
        line if not line.startswith((" ", "+", "-", "@@", "\\")) else " " * len(line)
        for line in text.split("\n")
    ]
    return "\n".join(kept)


def _unusable_patch(ctx: TaskContext, patch: Path) -> Iterator[Diagnostic]:
    """BS902 when a witness patch is not a unified diff ``check`` could apply."""
    shown = ctx.shown(patch.relative_to(ctx.task_dir).as_posix())
    text = ctx.read(patch)
    if text is None:
        message = "witness patch is not UTF-8 text; write it with diff -ruN"
        yield Diagnostic(shown, 1, 1, "BS902", message, Severity.WARNING)
        return
    try:
        parse_patch(text, shown)
    except PatchError as exc:
        found = re.match(rf"{re.escape(shown)}:(\d+):", exc.message)
        line = int(found.group(1)) if found else 1
        reason = exc.message.removeprefix(f"{shown}:").lstrip("0123456789: ")
        message = f"not a usable witness patch: {reason}; write it with diff -ruN"
        yield Diagnostic(shown, line, 1, "BS902", message, Severity.WARNING)


def _warning(diagnostic: Diagnostic) -> Diagnostic:
    return Diagnostic(
        diagnostic.path,
        diagnostic.line,
        diagnostic.col,
        diagnostic.code,
        diagnostic.message,
        Severity.WARNING,
    )


@task_rule(("BS903", "mutants/ holds a file that is not a NAME.patch applying to the reference"))
def authored_mutants(ctx: TaskContext) -> Iterator[Diagnostic]:
    """Authored mutants are unified diffs against reference/, as witnesses are."""
    for path in ctx.files_under(MUTANTS_DIR):
        shown = ctx.shown(path.relative_to(ctx.task_dir).as_posix())
        if path.suffix != ".patch":
            message = "mutants/ holds only NAME.patch files (unified diffs against reference/)"
            yield Diagnostic(shown, 1, 1, "BS903", message)
        elif problem := patch_problem(ctx.task_dir, path):
            yield Diagnostic(shown, 1, 1, "BS903", problem)


@task_rule(("BS904", "audit.lock is stale or unreadable: the task changed since its full audit"))
def audit_record(ctx: TaskContext) -> Iterator[Diagnostic]:
    """A recorded audit that no longer matches the task's files (warning); no record is
    fine here (``audit --recorded`` reports it)."""
    from benchsmith.auditrecord import RECORD_FILE, record_state

    if not (ctx.task_dir / RECORD_FILE).is_file():
        return
    record, why = record_state(ctx.task_dir)
    if record is None:
        message = f"{why}; run `benchsmith audit {display_path(ctx.task_dir)} --full --record`"
        yield Diagnostic(ctx.shown(RECORD_FILE), 1, 1, "BS904", message, Severity.WARNING)
