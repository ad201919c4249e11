"""Rendering a :class:`~benchsmith.running.report.Report` as text tables or JSON data (the
HTML pages are :mod:`benchsmith.running.report_html`'s, built from the same rows).

All three are pure functions of the report. Their metric columns are the fields of
:class:`~benchsmith.running.metrics.Usage`, in order, with each field's header, label and digits.
Per-arm tables show per-run means over scored runs (the largest value for a maximum); the
comparison shows totals over matched strict-pass pairs and the candidate/reference ratio.
Unknown values (cost not reported, cache reuse not derivable) print as ``n/a``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import Any

from benchsmith.running.metrics import Spec, figures_of, specs
from benchsmith.running.report import (
    Comparison,
    ComparisonRow,
    Figures,
    Report,
    Retention,
    RunMetrics,
    SummaryRow,
)
from benchsmith.tables import (
    LEVEL,
    RUN,
    TASK,
    VERDICT,
    text_table,
)
from benchsmith.tables import LEVELS as LEVELS_WORD

Column = tuple[str, Callable[[SummaryRow], str]]

RETAINED = "retained"
"""Header of the retention column: compactions after which every check that passed before
still passed at the end, of those where it can be told."""

NO_PAIRS = "no matched strict-pass pairs: no efficiency comparison"
LEVEL_COLORS = ("#b91c1c", "#ea580c", "#d97706", "#ca8a04", "#65a30d", "#15803d")
CACHE_REUSE = ("prompt cache reuse", "cache reuse")
"""Label and header of the derived ``prompt_cache_reuse`` ratio."""


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


def _per_run(spec: Spec) -> Callable[[SummaryRow], str]:
    def cell(row: SummaryRow) -> str:
        value = row.figures.per_run(spec)
        scaled = None if value is None else value / spec.metric.scale
        return fmt(scaled, spec.metric.digits)

    return cell


SUMMARY_COLUMNS: tuple[Column, ...] = (
    ("runs", lambda r: str(r.runs)),
    ("scored", lambda r: str(r.scored)),
    ("errored", lambda r: str(r.errored)),
    ("strict", lambda r: str(r.strict_passes)),
    ("rate", lambda r: pct(r.strict_pass_rate)),
    (LEVELS_WORD, lambda r: "/".join(str(n) for n in r.levels)),
    (RETAINED, lambda r: retained_cell(r)),
    *((s.metric.header, _per_run(s)) for s in specs()),
    (CACHE_REUSE[1], lambda r: pct(r.figures.prompt_cache_reuse)),
)


def retained_cell(row: SummaryRow) -> str:
    """``kept/told (rate)`` of a row's compactions, ``-`` when none can be told."""
    if not row.compactions_told:
        return "-"
    return f"{row.compactions_retained}/{row.compactions_told} ({pct(row.retention_rate)})"


LOST_HEADERS = [RUN, "compaction", "after stage", "passed before", "lost checks"]


def lost_cells(report: Report) -> list[list[str]]:
    """One line per compaction after which an earlier passing check failed at the end."""
    return [
        [run.run_id, f"{c.compaction} ({c.trigger})", str(c.after_stage), str(c.passed_before),
         ", ".join(c.lost)]
        for run, lost in report.lost
        for c in lost
    ]  # fmt: skip


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
    compared = [s for s in specs() if s.metric.compare]
    headers = [label, "matched", "A strict", "B strict", "strict pairs"]
    headers += [f"{s.metric.header} {arm}" for s in compared for arm in "AB"]
    cells = []
    for row in rows:
        counts = [str(row.matched), str(row.a_passes), str(row.b_passes), str(row.strict_pairs)]
        figures = [
            fmt(getattr(side, s.name), s.metric.digits) if row.strict_pairs else "-"
            for s in compared
            for side in (row.a, row.b)
        ]
        cells.append([row.key, *counts, *figures])
    return headers, cells


def metric_rows(row: ComparisonRow) -> tuple[list[str], list[list[str]]]:
    """Headers and cells of the totals over matched strict-pass pairs, metric by metric."""
    cells = []
    for spec in specs():
        a, b = getattr(row.a, spec.name), getattr(row.b, spec.name)
        digits = spec.metric.digits
        cells.append([spec.metric.label, fmt(a, digits), fmt(b, digits), ratio(a, b)])
    a, b = row.a.prompt_cache_reuse, row.b.prompt_cache_reuse
    cells.append([CACHE_REUSE[0], pct(a), pct(b), ratio(a, b)])
    return ["metric (totals)", "A", "B", "B/A"], cells


AUX_TITLE = "auxiliary calls by kind (totals over scored runs)"
ORDER_TITLE = "task order (primary runs by start time)"


def aux_rows(rows: Sequence[SummaryRow], label: str) -> tuple[list[str], list[list[str]]]:
    """Headers and cells of the auxiliary calls of each row by kind (empty: none reported)."""
    kinds = sorted({kind for row in rows for kind, _ in row.aux_by_kind})
    if not kinds:
        return [], []
    cells = [[row.key, *(str(dict(row.aux_by_kind).get(k, 0)) for k in kinds)] for row in rows]
    return [label, *kinds], cells


def order_line(report: Report, arm: str) -> str:
    """An arm's primary runs in start order, numbered."""
    order = dict(report.task_order).get(arm, ())
    return "  ".join(f"{n}. {run}" for n, run in enumerate(order, 1)) or "-"


def render_text(report: Report, runs_dir: str = "") -> str:
    """The report as plain-text tables."""
    parts = [f"runs: {runs_dir}"] if runs_dir else []
    if not report.arms:
        parts.append("no finished primary runs")
    for arm in report.arms:
        for title, rows, label in _arm_sections(report, arm):
            parts += ["", f"== arm {arm}: {title} (means per scored run)", ""]
            parts.append(text_table(*summary_rows(rows, label)))
        headers, cells = aux_rows([r for r in report.by_task if r.arm == arm], TASK)
        if headers:
            parts += ["", f"== arm {arm}: {AUX_TITLE}", "", text_table(headers, cells)]
        parts += ["", f"== arm {arm}: {ORDER_TITLE}", "", order_line(report, arm)]
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
LOST_TITLE = "retention: compactions after which earlier passing checks failed at the end"


def _diagnostic_cells(report: Report) -> list[list[str]]:
    return [
        [r.run_id, r.end_reason or "", r.verdict_status or "-", fmt(r.level)]
        for r in report.diagnostic
    ]


def _unfinished_cells(report: Report) -> list[list[str]]:
    return [[r.run_id, r.status] for r in report.unfinished]


def _extra_text(report: Report) -> list[str]:
    parts: list[str] = []
    if report.lost:
        parts += ["", f"== {LOST_TITLE}", ""]
        parts.append(text_table(LOST_HEADERS, lost_cells(report)))
    if report.diagnostic:
        parts += ["", "== diagnostic reruns (not in any aggregate)", ""]
        parts.append(text_table(DIAGNOSTIC_HEADERS, _diagnostic_cells(report)))
    if report.unfinished:
        parts += ["", "== unfinished runs (pending or interrupted)", ""]
        parts.append(text_table([RUN, "status"], _unfinished_cells(report)))
    return parts


# -- JSON -----------------------------------------------------------------------------------


def report_json(report: Report) -> dict[str, Any]:
    """The report as plain data, with a legend of its metrics (``metrics``, in column order).

    Figures are totals (divide by ``runs`` for means), each key a field of
    :class:`~benchsmith.running.metrics.Usage` plus the derived ``prompt_cache_reuse``.
    """
    data: dict[str, Any] = _plain(report)
    for key in ("diagnostic", "unfinished"):
        data[key] = [_run_json(r) for r in data[key]]
    data["lost"] = [_lost_json(run, lost) for run, lost in report.lost]
    data["task_order"] = {arm: list(order) for arm, order in report.task_order}
    data["runs"] = [_matrix_json(r) for r in report.runs]
    for plain, share in zip(data["checks"], report.checks, strict=True):
        plain["share"] = share.share
    for key, rows in (
        ("by_task", report.by_task), ("by_pressure", report.by_pressure),
        ("corpus", report.corpus),
    ):  # fmt: skip
        for plain, row in zip(data[key], rows, strict=True):
            plain["retention_rate"] = row.retention_rate
            plain["aux_by_kind"] = dict(row.aux_by_kind)
    data["metrics"] = [
        {
            "name": s.name,
            "label": s.metric.label,
            "unit": s.metric.unit,
            "total": s.metric.total.value,
        }
        for s in specs()
    ]
    return data


def _plain(value: Any) -> Any:
    """Dataclasses as dicts (figures with their cache reuse), tuples as lists."""
    if isinstance(value, Figures):
        return {**dataclasses.asdict(value), "prompt_cache_reuse": value.prompt_cache_reuse}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


def _lost_json(run: RunMetrics, lost: Sequence[Retention]) -> dict[str, Any]:
    return {
        "run_id": run.run_id, "arm": run.arm, "task": run.task, "repeat": run.repeat,
        "compactions": [_plain(c) for c in lost],
    }  # fmt: skip


def _matrix_json(run: RunMetrics) -> dict[str, Any]:
    """A cell of the task x arm matrix: who, how it ended, its figures."""
    return {
        **_run_json(_plain(run)), "pressure": run.pressure, "scored": run.scored,
        "strict_pass": run.strict_pass,
        "figures": {**figures_of(run.usage), "prompt_cache_reuse": run.usage.prompt_cache_reuse},
    }  # fmt: skip


def _run_json(run: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in run.items() if k in ("run_id", "arm", "task", "repeat", "kind",
            "status", "end_reason", "verdict_status", "level")}  # fmt: skip
