"""What a program produced on one fixture, in two resolutions, for mutant classification.

* **exact**: every declared output's bytes (files) or tree (folders), each command's exit
  status, its standard output when the task declares a ``stdout`` output, and its standard
  output or error when an expectation reads that stream (``stream = "stderr"``), and the
  traffic of each fixture service (its request log: method, target, origin and status of
  every request, in arrival order; not the timings, which vary from run to run). Equal exact
  observations on every fixture make a mutant *equivalent*: no fixture tells it apart.
* **meaning**: the same with CSV parsed to rows, JSON to values (key order ignored, numbers
  keeping their type: ``1`` differs from ``1.0``), JSON Lines to values, and text, markdown
  and HTML with CRLF line endings read as LF. When only the exact observation differs, the
  mutant changed the form of its outputs (quoting, line endings, whitespace, key order), not
  what they say.
"""

from __future__ import annotations

import csv
import gzip
import hashlib
import io
import json
import zlib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchsmith.runtime import benchlib

Signature = tuple[tuple[str, str], ...]


@dataclass(frozen=True, slots=True)
class Observation:
    """One program run on one fixture.

    Attributes:
        exact: ``(what, digest)`` pairs of bytes and statuses.
        meaning: The same pairs with parseable outputs reduced to their content.
    """

    exact: Signature
    meaning: Signature

    def differences(self, other: Observation) -> list[str]:
        """What differs from ``other`` (exactly), in declaration order."""
        theirs = dict(other.exact)
        return [what for what, digest in self.exact if theirs.get(what) != digest]


def observe(run: benchlib.Run, task: Mapping[str, Any], stage: int | None = None) -> Observation:
    """Observe the outputs and statuses of ``run`` (the declared outputs of ``task``).

    Only the commands and outputs that apply at the judged ``stage`` (1-based; ``None``: the
    final stage) are observed: an output a later stage replaced (``until``) is not compared.
    """
    exact: list[tuple[str, str]] = []
    meaning: list[tuple[str, str]] = []
    streams = observed_streams(task)
    commands, outputs = applying(task, "commands", stage), applying(task, "outputs", stage)
    for command, result in zip(commands, run.results, strict=False):
        status = "timed out" if result.timed_out else f"exit {result.returncode} {result.error}"
        pair = (f"status of {command['run']}", status)
        exact.append(pair)
        meaning.append(pair)
        for stream in streams:
            text = getattr(result, stream)
            pair = (f"{stream} of {command['run']}", _digest(text.encode("utf-8")))
            exact.append(pair)
            meaning.append(pair)
    for output in outputs:
        if output["format"] != "stdout":
            path = run.root / output["path"].rstrip("/")
            exact.append((output["path"], _exact(path)))
            meaning.append((output["path"], _meaning(path, output["format"])))
    for name in sorted(run.service_requests):
        what, log = f"requests to service {name}", run.service_requests[name]
        exact.append((what, _digest(json.dumps(_traffic(log, True)).encode("utf-8"))))
        meaning.append((what, _digest(json.dumps(_traffic(log, False)).encode("utf-8"))))
    return Observation(tuple(exact), tuple(meaning))


def applying(task: Mapping[str, Any], kind: str, stage: int | None) -> list[Mapping[str, Any]]:
    """The declared ``kind`` (``"commands"`` or ``"outputs"``) of ``task`` that apply at
    ``stage`` (``None``: the final stage), in declaration order."""
    stages = list(task.get("stages") or [""])
    number = len(stages) if stage is None else stage
    return [item for item in task[kind] if benchlib.declared_at(item, stages, number)]


def _traffic(requests: list[benchlib.Request], exact: bool) -> list[list[Any]]:
    """A service's request log: every request (method, target, origin, status) in arrival
    order, or (``exact`` False) the distinct requests (method, target, origin), sorted. A
    mutant that only changes its traffic (a page fetched twice, a retry skipped) is thus not
    equivalent: the judge may check the log (``run.requests``)."""
    if exact:
        return [[r.method, r.target, r.origin, r.status] for r in requests]
    return [list(key) for key in sorted({(r.method, r.target, r.origin) for r in requests})]


def observed_streams(task: Mapping[str, Any]) -> list[str]:
    """The command streams whose text matters: ``stdout`` when an output is the standard
    output, and each stream an expectation reads (``stream = "stdout" | "stderr"``)."""
    found = {"stdout"} if any(o["format"] == "stdout" for o in task["outputs"]) else set()
    for entry in [*task.get("expect", ()), *task.get("edge_expect", ())]:
        if entry.get("stream") in ("stdout", "stderr"):
            found.add(entry["stream"])
    return sorted(found, reverse=True)  # stdout before stderr


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _exact(path: Path) -> str:
    """The digest of the file's bytes; of a gzip file's decompressed bytes, since its header
    (modification time, file name) is no output (the seed's tree hashes do the same)."""
    if path.is_symlink() or not path.exists():
        return "missing"
    if path.is_dir():
        return benchlib.entries_hash(benchlib.tree_entries(path))
    data = path.read_bytes()
    unpacked = _gunzipped(path, data)
    return _digest(data if unpacked is None else unpacked)


def _gunzipped(path: Path, data: bytes) -> bytes | None:
    """The decompressed content of a ``.gz`` file, or None (not gzip, or corrupt)."""
    if not path.name.endswith(".gz") or data[:2] != b"\x1f\x8b":
        return None
    try:
        return gzip.decompress(data)
    except (OSError, EOFError, zlib.error):
        return None


def _meaning(path: Path, fmt: str) -> str:
    """The digest of what the file says (its exact digest when it does not parse)."""
    if not path.is_file() or path.is_symlink():
        return _exact(path)
    data = path.read_bytes()
    try:
        unpacked = _gunzipped(path, data)
        text = (data if unpacked is None else unpacked).decode("utf-8")
        content = _CANONICAL[fmt](text) if fmt in _CANONICAL else None
    except (UnicodeDecodeError, ValueError, csv.Error):
        content = None
    return _exact(path) if content is None else "meaning " + _digest(content.encode("utf-8"))


def _csv(text: str) -> str:
    rows = list(csv.reader(io.StringIO(text, newline="")))
    return json.dumps(rows, ensure_ascii=False)


def _json(text: str) -> str:
    return _canonical(json.loads(text))


def _jsonl(text: str) -> str:
    return "\n".join(_canonical(json.loads(line)) for line in text.splitlines() if line.strip())


def _canonical(value: Any) -> str:
    """JSON with sorted keys; ``1`` and ``1.0`` stay distinct (floats keep their point)."""
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def _lines(text: str) -> str:
    return text.replace("\r\n", "\n")


_CANONICAL = {
    "csv": _csv, "json": _json, "jsonl": _jsonl, "text": _lines, "markdown": _lines,
    "html": _lines,
}  # fmt: skip
