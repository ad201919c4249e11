"""Event lines the runner promises to survive: each becomes a located diagnostic, never a crash.

An integer beyond SQLite's 64-bit range, a lone surrogate (valid JSON, no UTF-8 text), a
non-finite number, deep nesting and bytes that are not UTF-8 are refused line by line; what
is accepted can always be stored in runs.db and written to run.json and events.jsonl.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from benchsmith import resources
from benchsmith.running import protocol
from benchsmith.running.records import DB_NAME
from tests.run.conftest import SINGLE, batch, write_adapter

HOSTILE: list[tuple[bytes, str]] = [
    (b'{"type":"tool_call","name":"bash","result_bytes":99999999999999999999999}', "event-range"),
    (
        b'{"type":"usage","model":"m","kind":"main","input_tokens":9223372036854775808,'
        b'"output_tokens":1}',
        "event-range",
    ),
    (b'{"type":"assistant","text":"x","extra":-9223372036854775809}', "event-range"),
    (b'{"type":"assistant","text":"x","extra":1e999}', "event-range"),
    (b'{"type":"assistant","text":"x","extra":NaN}', "event-range"),
    (b'{"type":"assistant","text":"\\ud800 lone"}', "event-encoding"),
    (b'{"type":"assistant","text":"x","extra":{"\\udc00":1}}', "event-encoding"),
    (b'{"type":"assistant","text":"x","extra":["ok",["\\udfff"]]}', "event-encoding"),
    (b'{"type":"assistant","text":"\xff\xfe"}', "event-encoding"),
    (b'{"type":"assistant","text":"x","extra":' + b"[" * 65 + b"]" * 65 + b"}", "event-json"),
    (
        b'{"type":"assistant","text":"x","extra":' + b"[" * 100000 + b"]" * 100000 + b"}",
        "event-json",
    ),
]


@pytest.mark.parametrize(("raw", "code"), HOSTILE)
def test_hostile_lines_are_located_problems(raw: bytes, code: str) -> None:
    parsed = protocol.parse_event(raw)
    assert isinstance(parsed, protocol.LineProblem), parsed
    assert parsed.code == code


def test_the_bounds_themselves_are_accepted() -> None:
    line = {
        "type": "tool_call", "name": "bash", "result_bytes": (1 << 63) - 1,
        "extra": [-(1 << 63), "\U0001f600", {"é": 1.5}, [[[]]]],
    }  # fmt: skip
    assert protocol.parse_event(json.dumps(line).encode()) == line


def _storable(event: dict[str, Any]) -> None:
    """What the runner does with an accepted event: UTF-8 JSON text and SQLite integers."""
    text = json.dumps(event, ensure_ascii=False, allow_nan=False)
    text.encode("utf-8")
    with sqlite3.connect(":memory:") as conn:
        conn.execute("CREATE TABLE t (v)")
        conn.execute("INSERT INTO t VALUES (?)", (text,))
        if event["type"] == "tool_call":
            conn.execute("INSERT INTO t VALUES (?)", (event["result_bytes"],))


SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.integers(min_value=-(1 << 80), max_value=1 << 80),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=8),
    st.text(alphabet=st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF), max_size=2),
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=3)
    ),
    max_leaves=8,
)
KNOWN = st.sampled_from(sorted(protocol.FIELDS))


@given(kind=KNOWN, fields=st.dictionaries(st.sampled_from(
    ["text", "name", "result_bytes", "tokens", "model", "kind", "input_tokens", "output_tokens",
     "status", "message", "extra", "cost_usd"]), VALUES, max_size=4))  # fmt: skip
def test_any_json_event_is_stored_or_refused(kind: str, fields: dict[str, Any]) -> None:
    event = {**fields, "type": kind}
    raw = json.dumps(event, ensure_ascii=False).encode("utf-8", errors="surrogatepass")
    parsed = protocol.parse_event(raw)
    if isinstance(parsed, protocol.LineProblem):
        assert parsed.code.startswith("event-") and parsed.message
    else:
        _storable(parsed)


@given(st.binary(max_size=300))
def test_any_bytes_are_stored_or_refused(raw: bytes) -> None:
    parsed = protocol.parse_event(raw)
    if not isinstance(parsed, protocol.LineProblem):
        _storable(parsed)


ADAPTER = """\
import os
lines = {lines!r}
with open(os.environ["BENCHSMITH_EVENTS"], "ab") as events:
    for line in lines:
        events.write(line + b"\\n")
    events.write(b'{{"type": "tool_call", "name": "bash", "result_bytes": 7}}\\n')
    events.write(b'{{"type": "idle"}}\\n')
"""


def test_a_run_survives_every_hostile_line_and_records_agree(tmp_path: Path) -> None:
    lines = [raw for raw, _ in HOSTILE]
    agent = write_adapter(tmp_path, "hostile.py", ADAPTER.format(lines=lines))
    runs = tmp_path / "runs"
    (outcome,) = batch(runs, [SINGLE], agent, arm="hostile", archive="none").outcomes
    assert outcome.end_reason == "completed"
    conn = sqlite3.connect(runs / DB_NAME)
    status, reason = conn.execute("SELECT status, end_reason FROM runs").fetchone()
    diagnostics = conn.execute("SELECT line, code FROM diagnostics ORDER BY number").fetchall()
    assert diagnostics == [(n, code) for n, (_, code) in enumerate(HOSTILE, 1)]
    record = json.loads((outcome.plan.run_dir / "run.json").read_text(encoding="utf-8"))
    assert not list(Draft202012Validator(resources.schema("run-record")).iter_errors(record))
    assert (status, reason) == ("finished", record["end_reason"])
    assert [(d["line"], d["code"]) for d in record["diagnostics"]] == diagnostics
    assert record["tools"] == {"calls": 1, "result_bytes": 7}
    events = (outcome.plan.run_dir / "events.jsonl").read_text(encoding="utf-8").splitlines()
    assert sum(json.loads(e)["event"]["type"] == "tool_call" for e in events) == 1
