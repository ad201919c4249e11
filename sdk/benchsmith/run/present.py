"""Rendering a :class:`~benchsmith.run.report.Report` as text tables, JSON data or one HTML page.

All three are pure functions of the report. Per-arm tables show per-run means over scored
runs; the comparison shows totals over matched strict-pass pairs and the candidate/reference
ratio. Unknown values (cost not reported, cache reuse not derivable) print as ``n/a``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import Any

from benchsmith.run.report import LEVELS, Comparison, ComparisonRow, Figures, Report, SummaryRow
from benchsmith.tables import (
    LEVEL,
    RUN,
    TASK,
    VERDICT,
    escape,
    html_document,
    html_table,
    text_table,
)
from benchsmith.tables import LEVELS as LEVELS_WORD

Column = tuple[str, Callable[[SummaryRow], str]]

NO_PAIRS = "no matched strict-pass pairs: no efficiency comparison"
LEVEL_COLORS = ("#b91c1c", "#ea580c", "#d97706", "#ca8a04", "#65a30d", "#15803d")


def fmt(value: float | int | None, digits: int = 1) -> str:
    """A number for a table cell (``n/a`` when unknown)."""
    if value is None:
        return "n/a"
    if isinstance(value, int):
        return f"{value:,}"
    return f"{value:,.{digits}f}"


def pct(value: float | None) -> str:
    """A ratio as a percentage (``n/a`` when unknown)."""
    return "n/a" if value is None else f"{100 * value:.0f}%"


def _mean(name: str, digits: int = 1) -> Callable[[SummaryRow], str]:
    return lambda row: fmt(row.figures.mean(name), digits)


def _compactions(figures: Figures) -> str:
    text = (
        f"{figures.compactions_requested}/{figures.compactions_completed}/"
        f"{figures.compactions_failed}"
    )
    return text + (f" +{figures.compactions_natural}n" if figures.compactions_natural else "")


SUMMARY_COLUMNS: tuple[Column, ...] = (
    ("runs", lambda r: str(r.runs)),
    ("scored", lambda r: str(r.scored)),
    ("errored", lambda r: str(r.errored)),
    ("strict", lambda r: str(r.strict_passes)),
    ("rate", lambda r: pct(r.strict_pass_rate)),
    (LEVELS_WORD, lambda r: "/".join(str(n) for n in r.levels)),
    ("agent s", _mean("agent_seconds")),
    ("life s", _mean("lifecycle_seconds")),
    ("calls", _mean("main_calls")),
    ("aux", _mean("aux_calls")),
    ("tools", _mean("tool_calls")),
    ("tool KiB", lambda r: fmt(_kib(r.figures.mean("tool_result_bytes")))),
    ("compact r/c/f", lambda r: _compactions(r.figures)),
    ("input", _mean("input_tokens", 0)),
    ("uncached", _mean("uncached_input_tokens", 0)),
    ("output", _mean("output_tokens", 0)),
    ("cache rd", _mean("cache_read_tokens", 0)),
    ("cache wr", _mean("cache_write_tokens", 0)),
    ("cost $", _mean("cost_usd", 4)),
    ("cache reuse", lambda r: pct(r.figures.prompt_cache_reuse)),
)

PAIR_METRICS: tuple[tuple[str, str], ...] = (
    ("agent seconds", "agent_seconds"),
    ("lifecycle seconds", "lifecycle_seconds"),
    ("main-model calls", "main_calls"),
    ("auxiliary calls", "aux_calls"),
    ("tool calls", "tool_calls"),
    ("tool-result bytes", "tool_result_bytes"),
    ("compactions requested", "compactions_requested"),
    ("compactions completed", "compactions_completed"),
    ("compactions failed", "compactions_failed"),
    ("natural compactions", "compactions_natural"),
    ("input tokens (as reported)", "input_tokens"),
    ("uncached input tokens", "uncached_input_tokens"),
    ("output tokens", "output_tokens"),
    ("cache-read tokens", "cache_read_tokens"),
    ("cache-write tokens", "cache_write_tokens"),
    ("cost USD", "cost_usd"),
    ("prompt cache reuse", "prompt_cache_reuse"),
    ("final response tokens", "final_response_tokens"),
    ("peak context tokens (max)", "peak_context_tokens"),
)


def _kib(value: float | None) -> float | None:
    return None if value is None else value / 1024


def ratio(a: float | int | None, b: float | int | None) -> str:
    """``b / a`` as ``x1.23`` (``n/a`` when unknown or ``a`` is 0)."""
    if a is None or b is None or not a:
        return "n/a"
    return f"x{b / a:.2f}"


# -- text -----------------------------------------------------------------------------------


def summary_rows(rows: Sequence[SummaryRow], label: str) -> tuple[list[str], list[list[str]]]:
    """Headers and cells of a per-arm summary table."""
    headers = [label, *(name for name, _ in SUMMARY_COLUMNS)]
    cells = [[row.key, *(cell(row) for _, cell in SUMMARY_COLUMNS)] for row in rows]
    return headers, cells


def pair_rows(rows: Sequence[ComparisonRow], label: str) -> tuple[list[str], list[list[str]]]:
    """Headers and cells of a comparison table by group (figures over strict pairs only)."""
    headers = [label, "matched", "A strict", "B strict", "strict pairs", "agent s A",
               "agent s B", "calls A", "calls B", "cost A", "cost B"]  # fmt: skip
    cells = []
    for row in rows:
        figures = [
            fmt(row.a.agent_seconds), fmt(row.b.agent_seconds), fmt(row.a.main_calls),
            fmt(row.b.main_calls), fmt(row.a.cost_usd, 4), fmt(row.b.cost_usd, 4),
        ]  # fmt: skip
        counts = [str(row.matched), str(row.a_passes), str(row.b_passes), str(row.strict_pairs)]
        cells.append([row.key, *counts, *(figures if row.strict_pairs else ["-"] * 6)])
    return headers, cells


def metric_rows(row: ComparisonRow) -> tuple[list[str], list[list[str]]]:
    """Headers and cells of the totals over matched strict-pass pairs, metric by metric."""
    cells = []
    for label, name in PAIR_METRICS:
        a, b = getattr(row.a, name), getattr(row.b, name)
        if name == "prompt_cache_reuse":
            cells.append([label, pct(a), pct(b), ratio(a, b)])
        else:
            digits = 4 if name == "cost_usd" else 1
            cells.append([label, fmt(a, digits), fmt(b, digits), ratio(a, b)])
    return ["metric (totals)", "A", "B", "B/A"], cells


def render_text(report: Report, runs_dir: str = "") -> str:
    """The report as plain-text tables."""
    parts = [f"runs: {runs_dir}"] if runs_dir else []
    if not report.arms:
        parts.append("no finished primary runs")
    for arm in report.arms:
        for title, rows, label in _arm_sections(report, arm):
            parts += ["", f"== arm {arm}: {title} (means per scored run)", ""]
            parts.append(text_table(*summary_rows(rows, label)))
    if report.comparison:
        parts += _comparison_text(report.comparison)
    parts += _extra_text(report)
    return "\n".join(parts) + "\n"


def _arm_sections(report: Report, arm: str) -> list[tuple[str, list[SummaryRow], str]]:
    return [
        ("by task", [r for r in report.by_task if r.arm == arm], TASK),
        ("by pressure class", [r for r in report.by_pressure if r.arm == arm], "pressure"),
        ("corpus", [r for r in report.corpus if r.arm == arm], "scope"),
    ]


def _comparison_text(comparison: Comparison) -> list[str]:
    corpus = comparison.corpus
    parts = [
        "",
        f"== comparison: A = {comparison.arm_a} (reference), B = {comparison.arm_b} (candidate)",
        f"efficiency only over matched strict-pass pairs: {corpus.strict_pairs} of "
        f"{corpus.matched} matched (task, repeat) pairs",
        "",
        text_table(*pair_rows(comparison.by_task, TASK)),
        "",
        text_table(*pair_rows(comparison.by_pressure, "pressure")),
        "",
        text_table(*metric_rows(corpus)) if corpus.strict_pairs else NO_PAIRS,
    ]
    parts += [f"warning: {w}" for w in comparison.warnings]
    return parts


DIAGNOSTIC_HEADERS = [RUN, "end", VERDICT, LEVEL]


def _diagnostic_cells(report: Report) -> list[list[str]]:
    return [
        [r.run_id, r.end_reason or "", r.verdict_status or "-", fmt(r.level)]
        for r in report.diagnostic
    ]


def _unfinished_cells(report: Report) -> list[list[str]]:
    return [[r.run_id, r.status] for r in report.unfinished]


def _extra_text(report: Report) -> list[str]:
    parts: list[str] = []
    if report.diagnostic:
        parts += ["", "== diagnostic reruns (not in any aggregate)", ""]
        parts.append(text_table(DIAGNOSTIC_HEADERS, _diagnostic_cells(report)))
    if report.unfinished:
        parts += ["", "== unfinished runs (pending or interrupted)", ""]
        parts.append(text_table([RUN, "status"], _unfinished_cells(report)))
    return parts


# -- JSON -----------------------------------------------------------------------------------


def report_json(report: Report) -> dict[str, Any]:
    """The report as plain data (figures are totals; divide by ``runs`` for means)."""
    data = dataclasses.asdict(report)
    for key in ("diagnostic", "unfinished"):
        data[key] = [_run_json(r) for r in data[key]]
    return data


def _run_json(run: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in run.items() if k in ("run_id", "arm", "task", "repeat", "kind",
            "status", "end_reason", "verdict_status", "level")}  # fmt: skip


# -- HTML -----------------------------------------------------------------------------------


def level_chart(rows: Sequence[SummaryRow]) -> str:
    """Per task and arm, a bar of the progress-level distribution (CSS only, no script)."""
    cells = []
    for row in rows:
        total = max(row.scored, 1)
        spans = "".join(
            f'<span title="{LEVEL} {level}: {count}" style="width:{100 * count / total:.2f}%;'
            f'background:{LEVEL_COLORS[level]}"></span>'
            for level, count in zip(LEVELS, row.levels, strict=True)
            if count
        )
        cells.append(
            f"<div>{escape(row.key)}</div><div>{escape(row.arm)}</div>"
            f'<div class="bar">{spans}</div><div>{row.strict_passes}/{row.scored} strict</div>'
        )
    legend = "".join(
        f'<span style="background:{color}">L{level}</span>'
        for level, color in enumerate(LEVEL_COLORS)
    )
    return f'<p class="legend">{legend}</p><div class="chart">{"".join(cells)}</div>'


def render_html(report: Report, runs_dir: str = "") -> str:
    """The report as one self-contained HTML page (inline CSS, no scripts, no requests)."""
    body = [f"<p>runs: {escape(runs_dir)}</p>", "<h2>Progress levels by task</h2>"]
    body.append(level_chart(sorted(report.by_task, key=lambda r: (r.key, r.arm))))
    for arm in report.arms:
        for title, rows, label in _arm_sections(report, arm):
            body.append(f"<h2>Arm {escape(arm)}: {title} (means per scored run)</h2>")
            body.append(html_table(*summary_rows(rows, label)))
    if report.comparison:
        body += _comparison_html(report.comparison)
    if report.diagnostic:
        body.append("<h2>Diagnostic reruns (not in any aggregate)</h2>")
        body.append(html_table(DIAGNOSTIC_HEADERS, _diagnostic_cells(report)))
    if report.unfinished:
        body.append("<h2>Unfinished runs (pending or interrupted)</h2>")
        body.append(html_table([RUN, "status"], _unfinished_cells(report)))
    return html_document("benchsmith report", body)


def _comparison_html(comparison: Comparison) -> list[str]:
    corpus = comparison.corpus
    return [
        f"<h2>Comparison: A = {escape(comparison.arm_a)} (reference), "
        f"B = {escape(comparison.arm_b)} (candidate)</h2>",
        f"<p>Efficiency only over matched strict-pass pairs: {corpus.strict_pairs} of "
        f"{corpus.matched} matched (task, repeat) pairs.</p>",
        *(f'<p class="warn">{escape(w)}</p>' for w in comparison.warnings),
        html_table(*pair_rows(comparison.by_task, TASK)),
        html_table(*pair_rows(comparison.by_pressure, "pressure")),
        html_table(*metric_rows(corpus)) if corpus.strict_pairs else f"<p>{NO_PAIRS}</p>",
    ]
