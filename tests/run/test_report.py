"""Report arithmetic on a hand-built database: matched strict pairs, the cache-reuse rule."""

from __future__ import annotations

import dataclasses
import html
import json
import re
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import Result

from benchsmith import resources
from benchsmith.errors import UsageError
from benchsmith.running import records
from benchsmith.running.metrics import METRIC, Metric, Usage
from benchsmith.running.present import render_text, report_json
from benchsmith.running.report import build_report, compare, load_metrics
from benchsmith.running.report_html import render_html


def add_run(
    conn: sqlite3.Connection,
    arm: str,
    task: str,
    repeat: int,
    *,
    level: int | None,
    status: str = "",
    agent: float = 1.0,
    usage: list[dict[str, Any]] = (),  # type: ignore[assignment]
    tools: list[int] = (),  # type: ignore[assignment]
    compactions: list[tuple[str, str]] = (),  # type: ignore[assignment]
    kind: str = "primary",
    pressure: str = "",
    digest: str = "d",
) -> None:
    """Insert one finished run with its verdict, usage, tool events and compactions."""
    pressure = pressure or {"01-a": "N", "02-b": "M"}[task]
    run_id = records.run_id_for(arm, task, kind, repeat)  # type: ignore[arg-type]
    conn.execute(
        "INSERT INTO runs (run_id, arm, task, task_id, slug, pressure, stage_count, repeat, "
        "kind, adapter, status, end_reason, timeout_seconds, timeout_overridden, task_digest, "
        "python, benchsmith_version, invocation, artifacts, agent_seconds, lifecycle_seconds, "
        "judge_seconds) VALUES (?, ?, ?, 1, 'x', ?, 1, ?, ?, 'a', 'finished', 'completed', 600, "
        "0, ?, 'py', '0', 'i', ?, ?, ?, 0.5)",
        (run_id, arm, task, pressure, repeat, kind, digest, run_id, agent, agent + 1),
    )
    if level is not None:
        verdict = status or ("pass" if level == 5 else "fail")
        conn.execute(
            "INSERT INTO verdicts VALUES (?, ?, ?, 0, 0, 0, '[]', NULL, 0, 0.5)",
            (run_id, verdict, level),
        )
    for seq, u in enumerate(usage, 1):
        conn.execute(
            "INSERT INTO usage (run_id, seq, stage, model, kind, calls, input_tokens, "
            "uncached_input_tokens, output_tokens, cache_read_tokens, cache_write_tokens, "
            "cost_usd) VALUES (?, ?, 1, 'm', ?, ?, ?, ?, ?, ?, ?, ?)",
            (run_id, seq, u.get("kind", "main"), u.get("calls", 1), u["input"],
             u.get("uncached"), u.get("output", 0), u.get("read", 0), u.get("write", 0),
             u.get("cost")),
        )  # fmt: skip
    for seq, size in enumerate(tools, 100):
        conn.execute(
            "INSERT INTO events VALUES (?, ?, 0, 1, 'message', 1, 'adapter', 'tool_call', ?, '{}')",
            (run_id, seq, size),
        )
    for number, (trigger, state) in enumerate(compactions, 1):
        conn.execute(
            "INSERT INTO compactions VALUES (?, ?, 1, ?, ?, NULL, NULL, '')",
            (run_id, number, trigger, state),
        )


ANTHROPIC = {"input": 100, "uncached": 100, "read": 600, "write": 300, "cost": 0.5}
OPENAI = {"input": 1000, "read": 600, "cost": 0.25}


@pytest.fixture
def hand_built(tmp_path: Path) -> Path:
    """Two arms over two tasks and three repeats, every case the rules distinguish."""
    runs = tmp_path / "runs"
    conn = records.open_runs(runs, create=True)
    with records.transaction(conn):
        # Arm A reports uncached input separately (Anthropic-style usage).
        add_run(conn, "A", "01-a", 1, level=5, agent=10, usage=[ANTHROPIC], tools=[100, 50],
                compactions=[("requested", "completed")])  # fmt: skip
        add_run(conn, "A", "01-a", 2, level=5, agent=1000, usage=[ANTHROPIC] * 9)
        add_run(conn, "A", "02-b", 1, level=4, agent=500)
        add_run(conn, "A", "02-b", 2, level=5, agent=30, usage=[ANTHROPIC, ANTHROPIC],
                compactions=[("requested", "failed"), ("natural", "completed")])  # fmt: skip
        add_run(conn, "A", "02-b", 3, level=0, status="error")  # judge error: not scored
        # Arm B's provider folds cached tokens into input (no uncached field).
        add_run(conn, "B", "01-a", 1, level=5, agent=5, usage=[OPENAI], tools=[10])
        add_run(conn, "B", "01-a", 2, level=3, agent=7, usage=[OPENAI])
        add_run(conn, "B", "01-a", 3, level=5, agent=2, usage=[OPENAI])  # no A repeat 3
        add_run(conn, "B", "02-b", 1, level=5, agent=9, usage=[OPENAI])
        add_run(conn, "B", "02-b", 2, level=5, agent=15, usage=[{"input": 50, "output": 5}],
                digest="other")  # fmt: skip
        add_run(conn, "B", "01-a", 1, level=5, kind="diagnostic", agent=99999)
        conn.execute(
            "INSERT INTO runs (run_id, arm, task, task_id, slug, pressure, stage_count, repeat,"
            " kind, adapter, status, timeout_seconds, timeout_overridden, task_digest, python,"
            " benchsmith_version, invocation, artifacts) VALUES ('B--02-b--r009', 'B', '02-b',"
            " 2, 'b', 'M', 1, 9, 'primary', 'a', 'pending', 600, 0, 'd', 'py', '0', 'i', 'x')"
        )
    conn.close()
    return runs


def metrics(runs: Path) -> list[Any]:
    conn = records.open_runs(runs, create=False)
    try:
        return load_metrics(conn)
    finally:
        conn.close()


def test_per_arm_summary_counts_scored_runs_only(hand_built: Path) -> None:
    report = build_report(metrics(hand_built))
    assert report.arms == ("A", "B")
    a_corpus, b_corpus = report.corpus
    assert (a_corpus.runs, a_corpus.scored, a_corpus.errored, a_corpus.strict_passes) == (
        5, 4, 1, 3
    )  # fmt: skip
    assert a_corpus.strict_pass_rate == 0.75
    assert a_corpus.levels == (0, 0, 0, 0, 1, 3)
    assert a_corpus.figures.agent_seconds == 10 + 1000 + 500 + 30
    assert a_corpus.figures.tool_calls == 2 and a_corpus.figures.tool_result_bytes == 150
    assert (a_corpus.figures.compactions_requested, a_corpus.figures.compactions_completed,
            a_corpus.figures.compactions_failed, a_corpus.figures.compactions_natural) == (
        2, 1, 1, 1
    )  # fmt: skip
    assert (b_corpus.runs, b_corpus.strict_passes) == (5, 4)  # diagnostic and pending excluded
    by_pressure = {(r.arm, r.key): r for r in report.by_pressure}
    assert [k for k in by_pressure if k[0] == "A"] == [("A", "N"), ("A", "M")]
    assert by_pressure[("A", "M")].strict_pass_rate == 0.5
    assert [r.run_id for r in report.diagnostic] == ["B--01-a--d001"]
    assert [r.run_id for r in report.unfinished] == ["B--02-b--r009"]


def test_comparison_uses_only_matched_strict_pass_pairs(hand_built: Path) -> None:
    comparison = compare(metrics(hand_built), "A", "B")
    corpus = comparison.corpus
    # Matched (scored in both): 01-a r1, r2; 02-b r1, r2. Strict in both: 01-a r1, 02-b r2.
    assert (corpus.matched, corpus.a_passes, corpus.b_passes, corpus.strict_pairs) == (
        4, 3, 3, 2
    )  # fmt: skip
    assert corpus.a.agent_seconds == 10 + 30  # not the 1000 s of A's unmatched pass
    assert corpus.b.agent_seconds == 5 + 15
    assert corpus.a.main_calls == 3 and corpus.b.main_calls == 2
    by_task = {row.key: row for row in comparison.by_task}
    assert (by_task["01-a"].matched, by_task["01-a"].strict_pairs) == (2, 1)
    assert comparison.warnings == ("1 matched pair(s) ran different versions of their task",)


def test_cache_reuse_only_when_uncached_input_is_reported(hand_built: Path) -> None:
    corpus = compare(metrics(hand_built), "A", "B").corpus
    # A: three ANTHROPIC usage rows over its strict pairs: 1800 / (300 + 1800 + 900).
    assert corpus.a.uncached_input_tokens == 300
    assert corpus.a.prompt_cache_reuse == pytest.approx(1800 / 3000)
    # B never reports uncached input: provider fields kept, no ratio derived.
    assert corpus.b.uncached_input_tokens is None
    assert corpus.b.prompt_cache_reuse is None
    assert corpus.b.input_tokens == 1050 and corpus.b.cache_read_tokens == 600


def test_cost_is_unknown_unless_every_run_reports_it(hand_built: Path) -> None:
    corpus = compare(metrics(hand_built), "A", "B").corpus
    assert corpus.a.cost_usd == pytest.approx(1.5)
    assert corpus.b.cost_usd is None  # 02-b r2 of B reported no cost


def test_comparison_needs_two_recorded_arms(hand_built: Path) -> None:
    runs = metrics(hand_built)
    with pytest.raises(UsageError, match="no runs recorded for arm 'C'"):
        compare(runs, "A", "C")
    with pytest.raises(UsageError, match="two different arms"):
        compare(runs, "A", "A")


def test_text_json_and_html_renderings(hand_built: Path) -> None:
    report = build_report(metrics(hand_built), ["A", "B"])
    text = render_text(report, "runs")
    assert "efficiency only over matched strict-pass pairs: 2 of 4 matched" in text
    assert re.search(r"prompt cache reuse\s+60%\s+n/a\s+n/a", text)
    assert re.search(r"agent seconds\s+40\.0\s+20\.0\s+x0\.50", text)
    assert "warning: 1 matched pair(s) ran different versions" in text
    data = json.loads(json.dumps(report_json(report)))
    assert data["comparison"]["corpus"]["strict_pairs"] == 2
    page = render_html(report, "runs")
    assert page.startswith("<!DOCTYPE html>") and "<script" not in page
    assert "http" not in page.replace("http-equiv", "")  # self-contained: nothing to fetch
    chips = re.findall(r'<span class="(chip [^"]*)" title="([^"]*)"', page)  # no run pages
    assert len(chips) == 10  # one per finished primary run, in the task x arm matrix
    assert [title for cls, title in chips if cls == "chip err"] == [
        "A--02-b--r003: not scored (error)"
    ]
    assert sum(cls == "chip l5 strict" for cls, _ in chips) == 3 + 4  # A, B strict passes


def test_report_cli(hand_built: Path, cli: Callable[..., Result], tmp_path: Path) -> None:
    page = tmp_path / "report.html"
    result = cli("report", "--runs", hand_built, "--arms", "A", "B", "--html", page)
    assert result.exit_code == 0, result.output
    assert "== comparison: A = A (reference), B = B (candidate)" in result.output
    assert page.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    as_json = cli("report", "--runs", hand_built, "--json")
    assert json.loads(as_json.output)["arms"] == ["A", "B"]


def test_report_cli_errors(tmp_path: Path, cli: Callable[..., Result]) -> None:
    missing = cli("report", "--runs", tmp_path / "nothing")
    assert missing.exit_code == 1
    assert "no runs database here" in missing.output
    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / records.DB_NAME).write_text("not sqlite", encoding="utf-8")
    assert cli("report", "--runs", bad).exit_code == 1


def test_every_usage_field_is_stored_aggregated_and_shown(hand_built: Path) -> None:
    """Adding a metric is adding a field of Usage: each one reaches every table and format."""
    conn = records.open_runs(hand_built, create=False)
    try:
        columns = [row["name"] for row in conn.execute("PRAGMA table_info(usage)")]
        runs_columns = [row["name"] for row in conn.execute("PRAGMA table_info(runs)")]
        report = build_report(load_metrics(conn), ["A", "B"])
    finally:
        conn.close()
    text, page = render_text(report), render_html(report)
    data = json.loads(json.dumps(report_json(report)))
    header_line = next(line for line in text.splitlines() if line.startswith("task  runs"))
    summary_header = re.split(r"\s{2,}", header_line)
    schema = resources.schema("run-record")["$defs"]
    names = [item.name for item in dataclasses.fields(Usage)]
    assert [m["name"] for m in data["metrics"]] == names
    for item in dataclasses.fields(Usage):
        metric: Metric = item.metadata[METRIC]
        for figures in (data["corpus"][0]["figures"], data["comparison"]["corpus"]["a"]):
            assert item.name in figures
        assert metric.header in summary_header
        assert f"<th>{html.escape(metric.header)}<small>" in page  # then its unit
        assert re.search(rf"^{re.escape(metric.label)}\s{{2,}}\S", text, re.MULTILINE), item.name
        if metric.event is None:  # measured by the runner, never reported per usage event
            assert item.name not in schema["usageTotals"]["properties"]
            assert item.name in runs_columns or item.name.startswith(("tool_", "compactions_"))
        else:
            assert metric.event.key in columns
            assert metric.event.key in schema["usageEvent"]["properties"]
            assert item.name in schema["usageTotals"]["properties"]
