"""Usage metrics: each defined once, stored and summed the same way by run.json and the report."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from benchsmith.running import metrics, records
from benchsmith.running.data import Entry
from benchsmith.running.metrics import Total, Usage
from benchsmith.running.report import figures, load_metrics
from tests.run.test_report import add_run

# The usage table as schema version 1 created it: name, type, NOT NULL.
V1_USAGE = [
    ("run_id", "TEXT", 1), ("seq", "INTEGER", 1), ("stage", "INTEGER", 1), ("model", "TEXT", 1),
    ("kind", "TEXT", 1), ("calls", "INTEGER", 1), ("input_tokens", "INTEGER", 1),
    ("uncached_input_tokens", "INTEGER", 0), ("output_tokens", "INTEGER", 1),
    ("cache_read_tokens", "INTEGER", 1), ("cache_write_tokens", "INTEGER", 1),
    ("cost_usd", "REAL", 0), ("context_tokens", "INTEGER", 0),
]  # fmt: skip

V1_USAGE_DDL = """CREATE TABLE usage (
    run_id TEXT NOT NULL REFERENCES runs (run_id), seq INTEGER NOT NULL,
    stage INTEGER NOT NULL, model TEXT NOT NULL, kind TEXT NOT NULL, calls INTEGER NOT NULL,
    input_tokens INTEGER NOT NULL, uncached_input_tokens INTEGER, output_tokens INTEGER NOT NULL,
    cache_read_tokens INTEGER NOT NULL, cache_write_tokens INTEGER NOT NULL, cost_usd REAL,
    context_tokens INTEGER, PRIMARY KEY (run_id, seq))"""


def memory_db() -> sqlite3.Connection:
    return records.connect(Path(":memory:"))


def store(conn: sqlite3.Connection, run_id: str, events: list[dict[str, Any]]) -> None:
    entries = [Entry(n, 0.0, 1, "message", 1, "adapter", e) for n, e in enumerate(events, 1)]
    records.insert_usage(conn, run_id, entries)


def test_the_usage_table_keeps_the_columns_of_schema_version_1() -> None:
    # A usage metric adds a column: bump SCHEMA_VERSION, migrate old files, update this test.
    assert records.SCHEMA_VERSION == 1
    conn = memory_db()
    columns = [
        (r["name"], r["type"], r["notnull"]) for r in conn.execute("PRAGMA table_info(usage)")
    ]
    assert columns == V1_USAGE


def test_a_database_written_by_the_version_1_ddl_is_read_and_written(tmp_path: Path) -> None:
    path = tmp_path / records.DB_NAME
    old = sqlite3.connect(path)
    old.executescript(records.DDL + ";" + V1_USAGE_DDL + ";PRAGMA user_version = 1;")
    old.close()
    conn = records.connect(path)
    add_run(conn, "A", "01-a", 1, level=5)
    store(conn, "A--01-a--r001", [usage_event(input_tokens=7, cost_usd=0.5, context_tokens=9)])
    (run,) = load_metrics(conn)
    assert (run.usage.main_calls, run.usage.input_tokens, run.usage.cost_usd) == (1, 7, 0.5)
    assert run.usage.peak_context_tokens == 9


def usage_event(**fields: Any) -> dict[str, Any]:
    return {"type": "usage", "model": "m", "kind": "main", "input_tokens": 0, "output_tokens": 0,
            **fields}  # fmt: skip


def test_every_metric_reaches_the_report_from_its_source() -> None:
    """A run with data in every source: no figure may stay at its empty-run default."""
    conn = memory_db()
    add_run(conn, "A", "01-a", 1, level=5, agent=3.0, tools=[10, 20],
            compactions=[("requested", "completed"), ("requested", "failed"),
                         ("natural", "completed")])  # fmt: skip
    conn.execute("UPDATE runs SET final_response_tokens = 42")
    full = {c.key: 2 if c.type is int else 0.25 for c in metrics.usage_columns()}
    store(conn, "A--01-a--r001", [usage_event(**full), usage_event(**full, kind="search")])
    (run,) = load_metrics(conn)
    empty = Usage()
    unset = [s.name for s in metrics.specs() if getattr(run.usage, s.name) == s.default]
    assert unset == []
    assert run.usage != empty
    assert (run.usage.main_calls, run.usage.aux_calls, run.usage.tool_result_bytes) == (2, 2, 30)
    assert (run.usage.compactions_failed, run.usage.compactions_natural) == (1, 1)


def test_every_reported_metric_is_part_of_the_adapter_protocol() -> None:
    from benchsmith.running.protocol import FIELDS

    required, optional = FIELDS["usage"]
    for column in metrics.usage_columns():
        assert column.key in (required if column.required else optional)
    assert set(required) == {"model", "kind", "input_tokens", "output_tokens"}


def _events() -> st.SearchStrategy[list[dict[str, Any]]]:
    def value(column: metrics.Column) -> st.SearchStrategy[Any]:
        if column.type is float:
            return st.floats(0, 5, allow_nan=False, allow_infinity=False)
        return st.integers(0, 10_000)

    required = {c.key: value(c) for c in metrics.usage_columns() if c.required}
    optional = {c.key: value(c) for c in metrics.usage_columns() if not c.required}
    base = {"type": st.just("usage"), "model": st.sampled_from(["m1", "m2"]),
            "kind": st.sampled_from(["main", "main", "summary", "search"])}  # fmt: skip
    event = st.fixed_dictionaries({**base, **required}, optional=optional)
    return st.lists(event, max_size=8)


@settings(max_examples=80, deadline=None)
@given(events=_events())
def test_run_totals_are_the_sums_of_their_events(events: list[dict[str, Any]]) -> None:
    conn = memory_db()
    add_run(conn, "A", "01-a", 1, level=5)
    store(conn, "A--01-a--r001", events)
    (run,) = load_metrics(conn)
    record = metrics.usage_record(events)  # what run.json says
    for spec, _ in metrics.event_specs():
        expected = record[spec.name]
        if spec.name == "aux_calls":  # by kind in run.json
            expected = sum(expected.values())
        assert getattr(run.usage, spec.name) == expected, spec.name
    # The rules, stated independently of the metadata.
    main = [e for e in events if e["kind"] == "main"]
    aux = [e for e in events if e["kind"] != "main"]
    uncached = [e.get("uncached_input_tokens") for e in events]
    costs = [e["cost_usd"] for e in events if "cost_usd" in e]
    contexts = [e["context_tokens"] for e in events if "context_tokens" in e]
    assert run.usage.main_calls == sum(e.get("calls", 1) for e in main)
    assert run.usage.aux_calls == sum(e.get("calls", 1) for e in aux)
    assert run.usage.input_tokens == sum(e["input_tokens"] for e in events)
    assert run.usage.output_tokens == sum(e["output_tokens"] for e in events)
    assert run.usage.cache_read_tokens == sum(e.get("cache_read_tokens", 0) for e in events)
    assert run.usage.cache_write_tokens == sum(e.get("cache_write_tokens", 0) for e in events)
    assert run.usage.uncached_input_tokens == (
        None if None in uncached else sum(u or 0 for u in uncached)
    )
    assert run.usage.cost_usd == (sum(costs) if costs else None)
    assert run.usage.peak_context_tokens == (max(contexts) if contexts else None)
    assert record["models"] == sorted({e["model"] for e in events})
    by_kind: dict[str, int] = {}
    for event in aux:
        by_kind[event["kind"]] = by_kind.get(event["kind"], 0) + event.get("calls", 1)
    assert record["aux_calls"] == dict(sorted(by_kind.items()))


@pytest.mark.parametrize(
    ("rule", "values", "expected"),
    [
        (Total.SUM, [1, 2], 3),
        (Total.KNOWN, [1, 2], 3),
        (Total.KNOWN, [1, None], None),
        (Total.KNOWN, [], 0),
        (Total.REPORTED, [1, None], 1),
        (Total.REPORTED, [None], None),
        (Total.MAX, [3, None, 5], 5),
        (Total.MAX, [], None),
    ],
)
def test_total_rules(rule: Total, values: list[int | None], expected: int | None) -> None:
    assert rule.combine(values) == expected


def test_figures_of_runs_follow_each_metric_rule() -> None:
    from benchsmith.running.report import RunMetrics

    def run(**usage: Any) -> RunMetrics:
        return RunMetrics("r", "A", "t", "N", 1, "primary", "finished", "completed", "pass", 5,
                          "d", 600.0, Usage(**usage))  # fmt: skip

    both = figures([run(cost_usd=1.0, peak_context_tokens=5, agent_seconds=2.0),
                    run(cost_usd=None, peak_context_tokens=9, agent_seconds=4.0)])  # fmt: skip
    assert (both.runs, both.agent_seconds, both.mean("agent_seconds")) == (2, 6.0, 3.0)
    assert both.cost_usd is None  # a run that did not report cost makes the total unknown
    assert both.peak_context_tokens == 9
    peak = next(s for s in metrics.specs() if s.name == "peak_context_tokens")
    assert both.per_run(peak) == 9  # a maximum is shown as is, not divided
    none = figures([])
    assert (none.runs, none.agent_seconds, none.cost_usd, none.mean("agent_seconds")) == (
        0, 0.0, None, None
    )  # fmt: skip
