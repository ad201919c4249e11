"""The recorded audit ``audit.lock``: the fate of every mutant as the last full audit saw it.

A full audit of a large task costs an hour of CPU; the fates it finds depend only on the
task's own files. ``benchsmith audit N --full --record`` writes them to ``audit.lock`` with
the digest of those files (:func:`inputs_digest`). ``benchsmith audit --recorded`` (CI) then
takes each mutant's fate from a current record instead of running it, re-runs a few of them
(:func:`verification_sample`) and requires the same fate, and runs every mutant the record
does not know. A record whose digest no longer matches is *stale*: the task changed since
its full audit, and ``lint`` (BS506) and ``audit --recorded`` say so.

What the digest covers: every file of the task folder that a mutant's fate depends on --
judge.py (with the task data it embeds), seed.py, fixtures.py and other modules, the
reference, authored mutants, visible/, stages/, edge/, scenario.json -- but not what cannot
change a fate: task.toml (build embeds what matters of it in judge.py and seed.py, and
``build --check`` keeps them current; its ``[audit]`` justifications are applied afresh),
TASK.md, benchsmith.lock, witnesses/ and the record itself. The shared runtime
(``benchlib.py``) and the SDK are not covered on purpose: a change there would stale every
record of the corpus at once. The verification sample is what catches their drift.

The file is JSON, one mutant per line, sorted, so equal fates give equal bytes::

    {"format": 1, "inputs": "<sha256>",
     "expectations": [["NAME", "FIXTURE", "FIELD", ORIGINAL, PERTURBED, true], ...],
     "mutants": {
      "compare@solution/x.py:3:9": ["<diff sha256, 16 hex>", "killed", 3, false],
      ...}}

Each mutant entry is ``[diff digest, fate, level, form_only]``: a mutant counts as recorded
only when its id and its diff are both unchanged.

A record also keeps ``"files"``: each input file's digest as far as a fate can depend on it
(:func:`fate_hashes`; scenario.json without its title, initial prompt and stage messages,
which no judge reads). A record whose overall digest no longer matches is still current when
those agree -- rewording a stage message costs no new full audit -- and, when it is stale,
says which files changed. Records written before ``"files"`` existed are current by their
digest alone.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

RECORD_FILE = "audit.lock"
FORMAT = 1
NOT_INPUTS = frozenset({"task.toml", "TASK.md", "benchsmith.lock", "witnesses", RECORD_FILE})
"""Top-level names of a task folder that no mutant's fate depends on."""
DIGEST_CHARS = 16
FATES = ("killed", "survived", "equivalent", "error")

Expectation = tuple[str, str, str, Any, Any, bool | None]
"""A perturbed value as recorded: name, fixture, field, original, perturbed, load-bearing."""


@dataclass(frozen=True, slots=True)
class RecordedFate:
    """One mutant as the record holds it.

    Attributes:
        diff: The digest of the mutant's diff (:func:`diff_digest`).
        fate: Its fate then.
        level: The judge's level then (``None`` when it did not judge).
        form_only: Whether its outputs differed from the reference's only in form.
    """

    diff: str
    fate: str
    level: int | None
    form_only: bool


@dataclass(frozen=True, slots=True)
class Record:
    """A task's recorded audit.

    Attributes:
        inputs: The digest of the task's files when it was recorded.
        mutants: Mutant id to its recorded fate.
        expectations: ``(name, fixture, field, original, perturbed, load_bearing)`` of
            every perturbed value.
        files: Each input file's :func:`fate_hashes` digest (empty in older records).
    """

    inputs: str
    mutants: dict[str, RecordedFate]
    expectations: tuple[Expectation, ...]
    files: dict[str, str] = field(default_factory=dict)


class RecordError(ValueError):
    """Raised when ``audit.lock`` is not a record this version of benchsmith reads."""


def inputs_digest(task_dir: Path) -> str:
    """SHA-256 over the path and content of every file a mutant's fate depends on.

    Hidden files and folders, ``__pycache__`` and the names of :data:`NOT_INPUTS` are left
    out; files are taken in path order, so the digest is the same on every machine.
    """
    lines = []
    for rel, path in _input_files(task_dir):
        lines.append(f"{rel}\0{hashlib.sha256(path.read_bytes()).hexdigest()}")
    return hashlib.sha256("\n".join(lines).encode("utf-8")).hexdigest()


SCENARIO_PROSE = ("title", "initial_prompt")
"""scenario.json keys (and each stage's ``message``) that no mutant's fate depends on."""


def fate_hashes(task_dir: Path) -> dict[str, str]:
    """Each input file (those :func:`inputs_digest` covers) and the digest of what a mutant's
    fate can depend on in it: its bytes, or for scenario.json its JSON without
    :data:`SCENARIO_PROSE` and the stage messages."""
    found = {}
    for rel, path in _input_files(task_dir):
        data = path.read_bytes()
        if rel == "scenario.json":
            data = _scenario_without_prose(data)
        found[rel] = hashlib.sha256(data).hexdigest()[:DIGEST_CHARS]
    return found


def _scenario_without_prose(data: bytes) -> bytes:
    try:
        scenario = json.loads(data)
    except ValueError:
        return data
    if not isinstance(scenario, dict):
        return data
    kept = {k: v for k, v in scenario.items() if k not in SCENARIO_PROSE}
    stages = kept.get("stages")
    if isinstance(stages, list):
        kept["stages"] = [
            {k: v for k, v in s.items() if k != "message"} if isinstance(s, dict) else s
            for s in stages
        ]
    return json.dumps(kept, sort_keys=True).encode("utf-8")


def changed_files(then: dict[str, str], now: dict[str, str]) -> list[str]:
    """The input files whose fate digests differ (changed, added or removed), sorted."""
    return sorted(rel for rel in then.keys() | now.keys() if then.get(rel) != now.get(rel))


def _input_files(task_dir: Path) -> list[tuple[str, Path]]:
    found = []
    for root, dirs, files in os.walk(task_dir):
        here = Path(root)
        top = here == task_dir
        dirs[:] = [d for d in dirs if _kept(d, top)]
        for name in files:
            if _kept(name, top) and not name.endswith(".pyc"):
                path = here / name
                found.append((path.relative_to(task_dir).as_posix(), path))
    return sorted(found)


def _kept(name: str, top: bool) -> bool:
    return not name.startswith(".") and name != "__pycache__" and not (top and name in NOT_INPUTS)


def diff_digest(diff: str) -> str:
    """The short digest identifying a mutant's change."""
    return hashlib.sha256(diff.encode("utf-8")).hexdigest()[:DIGEST_CHARS]


def read_record(task_dir: Path) -> Record | None:
    """The task's record, or ``None`` when it has none.

    Raises:
        RecordError: When the file exists but is no record of this format.
    """
    path = task_dir / RECORD_FILE
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as exc:
        raise RecordError(f"{RECORD_FILE}: unreadable: {exc}") from exc
    return parse_record(text)


def parse_record(text: str) -> Record:
    """The record ``text`` holds.

    Raises:
        RecordError: When it is no record of this format.
    """
    try:
        return _parse(json.loads(text))
    except (ValueError, TypeError, KeyError, RecursionError) as exc:
        raise RecordError(f"{RECORD_FILE}: not a format-{FORMAT} audit record: {exc}") from exc


def _parse(data: Any) -> Record:
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ValueError(f"format is {data.get('format') if isinstance(data, dict) else None!r}")
    inputs = data["inputs"]
    if not isinstance(inputs, str):
        raise TypeError("inputs is not a string")
    mutants = {}
    for ident, entry in dict(data["mutants"]).items():
        diff, fate, level, form_only = entry
        if fate not in FATES or not isinstance(diff, str):
            raise ValueError(f"{ident}: bad entry {entry!r}")
        mutants[str(ident)] = RecordedFate(
            diff, fate, None if level is None else int(level), bool(form_only)
        )
    expectations = tuple(
        (str(name), str(fixture), str(key), original, perturbed, _bearing(bearing))
        for name, fixture, key, original, perturbed, bearing in data["expectations"]
    )
    files = data.get("files", {})
    if not isinstance(files, dict) or not all(isinstance(v, str) for v in files.values()):
        raise TypeError("files is not an object of digests")
    return Record(inputs, mutants, expectations, {str(k): v for k, v in files.items()})


def _bearing(value: Any) -> bool | None:
    if value is not None and not isinstance(value, bool):
        raise TypeError(f"load-bearing is {value!r}, not true, false or null")
    return value


def record_text(record: Record) -> str:
    """The record as its file holds it: sorted, one mutant per line."""
    head = json.dumps({"format": FORMAT, "inputs": record.inputs})[:-1]
    ordered = sorted(record.expectations, key=_key)
    expectations = json.dumps([list(e) for e in ordered], default=str, ensure_ascii=False)
    lines = [f'{head}, "expectations": {expectations},']
    if record.files:
        lines.append(f' "files": {json.dumps(record.files, sort_keys=True)},')
    lines.append(' "mutants": {')
    entries = sorted(record.mutants.items())
    for number, (ident, fate) in enumerate(entries, start=1):
        value = [fate.diff, fate.fate, fate.level, fate.form_only]
        comma = "," if number < len(entries) else ""
        lines.append(f"  {json.dumps(ident)}: {json.dumps(value)}{comma}")
    lines.append(" }}")
    return "\n".join(lines) + "\n"


def _key(entry: Expectation) -> tuple[str, str, str]:
    return entry[0], entry[1], entry[2]


def write_record(task_dir: Path, record: Record) -> None:
    """Replace ``audit.lock`` atomically, holding the task folder's lock as build does.

    Raises:
        FileSystemError: When the file cannot be written (the old record is kept).
        LockedError: When another benchsmith process keeps the task locked.
    """
    from benchsmith.generate.write import write_all
    from benchsmith.locking import locked

    with locked([task_dir]):
        write_all({task_dir / RECORD_FILE: record_text(record)})


def record_state(task_dir: Path, digest: str | None = None) -> tuple[Record | None, str]:
    """The task's record when it is current, else ``None`` and why not.

    Args:
        task_dir: The task folder.
        digest: Its :func:`inputs_digest`, when already known.
    """
    try:
        record = read_record(task_dir)
    except RecordError as exc:
        return None, str(exc)
    if record is None:
        return None, f"no {RECORD_FILE}: the task has no recorded full audit"
    if record.inputs == (digest or inputs_digest(task_dir)):
        return record, ""
    if not record.files:
        return None, f"{RECORD_FILE} is stale: the task's files changed since its full audit"
    changed = changed_files(record.files, fate_hashes(task_dir))
    if not changed:  # only prose changed (a stage message): every fate still holds
        return record, ""
    shown = ", ".join(changed[:5]) + (f" and {len(changed) - 5} more" if len(changed) > 5 else "")
    return None, f"{RECORD_FILE} is stale: changed since its full audit: {shown}"


def verification_sample(fates: Iterable[tuple[str, str]], size: int, seed: int) -> list[str]:
    """The ids of at most ``size`` recorded mutants to run again, from ``(id, fate)`` pairs.

    Fates take turns (killed, equivalent, then the rest), so two re-runs check one killed
    and one equivalent mutant; inside a fate, the smallest SHA-256 of ``"SEED/ID"`` first,
    so the same seed re-runs the same mutants on every machine.
    """
    groups: dict[str, list[str]] = {}
    for ident, fate in fates:
        groups.setdefault(fate, []).append(ident)
    order = sorted(groups, key=lambda f: (FATES.index(f) if f in FATES else len(FATES), f))
    queues = [sorted(groups[f], key=lambda i: _rank(seed, i)) for f in order]
    chosen: list[str] = []
    while len(chosen) < size and any(queues):
        for queue in queues:
            if queue and len(chosen) < size:
                chosen.append(queue.pop(0))
    return chosen


def _rank(seed: int, ident: str) -> str:
    return hashlib.sha256(f"{seed}/{ident}".encode()).hexdigest()


def new_record(
    inputs: str,
    mutants: Sequence[tuple[str, str, str, int | None, bool]],
    expectations: Sequence[Expectation],
    files: dict[str, str] | None = None,
) -> Record:
    """A record of ``(id, diff, fate, level, form_only)`` results of a task whose files had
    the digest ``inputs`` and the :func:`fate_hashes` ``files`` (taken when its audit
    started)."""
    fates = {
        ident: RecordedFate(diff_digest(diff), fate, level, form_only)
        for ident, diff, fate, level, form_only in mutants
    }
    return Record(inputs, fates, tuple(expectations), dict(files or {}))
