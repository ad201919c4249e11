"""The self-report candidate: the reference's summaries, exactly true, over corrupted details.

Verifier audit check 9: a judge must recompute values from the records a candidate writes,
never trust the summaries it reports about itself. The candidate writes, for the fixture it
runs on, the reference's own outputs with every detail row corrupted: in CSV and JSON Lines
outputs, and in JSON arrays of records, each column but the first (the row's key) is shifted
down by one row, cyclically. Column totals, counts and every JSON summary stay exactly
the truth; no detail row does. A judge that checks totals against the summaries alone is
fooled; one that checks the records is not.

The reference's outputs are computed beforehand on the main and edge fixtures; the candidate
recognises its fixture by the digests of the input files that tell the two apart.
"""

from __future__ import annotations

import base64
import csv
import hashlib
import io
import json
import os
import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchsmith.dsl.model import TaskSpec

EMBED_LIMIT = 16 * 1024 * 1024  # bytes of reference outputs a candidate may carry


@dataclass(frozen=True, slots=True)
class FixtureLie:
    """What the candidate writes on one fixture.

    Attributes:
        inputs: ``(relative path, sha256)`` of every input file of the fixture.
        outputs: Relative path -> the bytes to write (details corrupted, summaries true).
        corrupted: Paths whose detail rows were corrupted.
    """

    inputs: tuple[tuple[str, str], ...]
    outputs: dict[str, bytes]
    corrupted: tuple[str, ...]

    @property
    def size(self) -> int:
        """Bytes of output the candidate carries for this fixture."""
        return sum(len(v) for v in self.outputs.values())


def shift_rows(rows: Sequence[Sequence[Any]]) -> list[list[Any]]:
    """Keep each row's first cell; shift every other column down one row, cyclically."""
    if len(rows) < 2:
        return [list(r) for r in rows]
    return [[row[0], *rows[i - 1][1:]] for i, row in enumerate(rows)]


def corrupt_csv(data: bytes) -> bytes | None:
    """The CSV ``data`` with its data rows shifted (``None`` when nothing changes)."""
    text = data.decode("utf-8", "replace")
    try:
        rows = list(csv.reader(io.StringIO(text, newline="")))
    except csv.Error:
        return None
    if len(rows) < 3 or any(len(r) != len(rows[0]) for r in rows):
        return None
    body = shift_rows(rows[1:])
    if body == rows[1:]:
        return None
    buffer = io.StringIO()
    terminator = "\r\n" if "\r\n" in text else "\n"
    csv.writer(buffer, lineterminator=terminator).writerows([rows[0], *body])
    return buffer.getvalue().encode("utf-8")


def corrupt_records(value: Any) -> Any:
    """``value`` with every array of two or more records (same keys) shifted, recursively."""
    if isinstance(value, dict):
        return {k: corrupt_records(v) for k, v in value.items()}
    if not isinstance(value, list):
        return value
    items = [corrupt_records(v) for v in value]
    keys = list(items[0]) if items and isinstance(items[0], dict) else []
    if len(items) < 2 or not keys or any(not isinstance(i, dict) or list(i) != keys for i in items):
        return items
    shifted = shift_rows([[i[k] for k in keys] for i in items])
    return [dict(zip(keys, row, strict=True)) for row in shifted]


def corrupt_json(data: bytes) -> bytes | None:
    """The JSON ``data`` with its record arrays shifted (``None`` when nothing changes)."""
    try:
        value = json.loads(data)
    except ValueError:
        return None
    lie = corrupt_records(value)
    if lie == value:
        return None
    return (json.dumps(lie, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


def corrupt_jsonl(data: bytes) -> bytes | None:
    """The JSON Lines ``data`` with its records shifted (``None`` when nothing changes)."""
    try:
        records = [json.loads(line) for line in data.splitlines() if line.strip()]
    except ValueError:
        return None
    lie = corrupt_records(records)
    if lie == records:
        return None
    return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in lie).encode("utf-8")


CORRUPTERS = {".csv": corrupt_csv, ".json": corrupt_json, ".jsonl": corrupt_jsonl}


def input_digests(root: Path, editable: Sequence[str]) -> tuple[tuple[str, str], ...]:
    """``(path, sha256)`` of every file of a fixture outside the editable paths, sorted."""
    bases = [e.rstrip("/") for e in editable]
    found = []
    for folder, dirs, names in os.walk(root):
        rel = Path(folder).relative_to(root).as_posix()
        prefix = "" if rel == "." else rel + "/"
        dirs[:] = sorted(d for d in dirs if prefix + d not in bases)
        for name in sorted(names):
            path = Path(folder, name)
            if prefix + name not in bases and path.is_file() and not path.is_symlink():
                found.append((prefix + name, hashlib.sha256(path.read_bytes()).hexdigest()))
    return tuple(found)


def capture(spec: TaskSpec, produced: Path, pristine: Path) -> FixtureLie:
    """The lie for one fixture: the outputs under ``produced``, details corrupted."""
    outputs: dict[str, bytes] = {}
    corrupted = []
    for output in spec.outputs:
        target = produced / output.path.rstrip("/")
        files = sorted(p for p in target.rglob("*") if p.is_file()) if target.is_dir() else []
        for path in files or ([target] if target.is_file() else []):
            rel = path.relative_to(produced).as_posix()
            data = path.read_bytes()
            corrupter = CORRUPTERS.get(Path(rel).suffix.lower())
            lie = corrupter(data) if corrupter else None
            outputs[rel] = data if lie is None else lie
            corrupted += [rel] if lie is not None else []
    return FixtureLie(input_digests(pristine, spec.editable), outputs, tuple(corrupted))


def payload(lies: Sequence[FixtureLie]) -> str:
    """The compressed, base64-encoded data the candidate program embeds.

    Each fixture keeps only the input digests that no other fixture shares (what tells it
    apart), so the candidate hashes a few files at most.
    """
    entries = []
    for lie in lies:
        others = {pair for other in lies if other is not lie for pair in other.inputs}
        marks = [pair for pair in lie.inputs if pair not in others]
        files = {rel: base64.b64encode(data).decode("ascii") for rel, data in lie.outputs.items()}
        entries.append({"marks": marks, "outputs": files})
    packed = zlib.compress(json.dumps(entries, sort_keys=True).encode("utf-8"), 9)
    return base64.b64encode(packed).decode("ascii")


BODY = """\
import base64
import hashlib
import json
import zlib

FIXTURES = json.loads(zlib.decompress(base64.b64decode(__PAYLOAD__)))


def digest(rel):
    path = ROOT / rel
    return hashlib.sha256(path.read_bytes()).hexdigest() if path.is_file() else ""


def matches(fixture):
    return sum(digest(rel) == value for rel, value in fixture["marks"])


chosen = max(FIXTURES, key=matches)
for rel, data in sorted(chosen["outputs"].items()):
    path = ROOT / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(base64.b64decode(data))
"""
