"""The HTML report of ``benchsmith report`` (issue 34): the arm comparison first, a page per run.

``benchsmith report --html PAGE`` writes PAGE and, beside it, ``<stem>-runs/<run id>.html``
for every run it shows. The main page answers, in order:

1. which tasks each arm passed: a task x arm matrix, one chip per run coloured by progress
   level (strict passes ticked, errored runs grey), with per-class and corpus totals and,
   when two arms are compared, the candidate's gain or loss of strict passes;
2. where the candidate is cheaper or slower: for matched strict-pass pairs, B against A in
   agent time, main-model calls, tokens, prompt cache reuse and cost, as inline-SVG bars
   (totals of the corpus and each class, then pair by pair);
3. the per-arm figures in a few columns, every other column behind a ``<details>`` toggle,
   in narrow tables grouped by unit.

A run page shows the run's stages (messages collapsed), per-stage verdicts, compactions with
their tokens before and after and their retention, tool calls with result sizes, the judge's
checks (failing first) with its notes, times, usage, and relative links to the kept files.

Pages are self-contained (inline CSS and SVG, no script, nothing fetched) and a pure function
of the records: the same runs folder gives the same bytes.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

from benchsmith.running.metrics import Spec, Total, Usage, specs
from benchsmith.running.present import (
    AUX_TITLE,
    CACHE_REUSE,
    DIAGNOSTIC_HEADERS,
    LEVEL_COLORS,
    LOST_HEADERS,
    LOST_TITLE,
    NO_PAIRS,
    ORDER_TITLE,
    RETAINED,
    SUMMARY_COLUMNS,
    aux_rows,
    fmt,
    metric_rows,
    order_line,
    pair_rows,
    pct,
    retained_cell,
)
from benchsmith.running.report import (
    LEVELS,
    PRESSURE_ORDER,
    Comparison,
    ComparisonRow,
    Report,
    RunMetrics,
    SummaryRow,
)
from benchsmith.running.report_runs import RunDetail, load_details
from benchsmith.tables import CSS, TASK, escape
from benchsmith.tables import LEVELS as LEVELS_WORD

ERRORED = "E"
STRICT_MARK = "\u2713"
ARROW = "\u2192"
MINUS = "\u2212"


def page(title: str, body: Sequence[str]) -> str:
    """One self-contained page, with the stylesheet every benchsmith page shares."""
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f"<title>{escape(title)}</title>\n<style>{CSS}</style>\n</head>\n<body>\n"
        f"<h1>{escape(title)}</h1>\n" + "\n".join(body) + "\n</body>\n</html>\n"
    )


def table(
    headers: Sequence[str],
    rows: Sequence[Sequence[str]],
    *,
    cls: str = "",
    row_cls: Sequence[str] = (),
    left: Sequence[int] = (),
) -> str:
    """A table of trusted HTML cells; the first cell of each row is its header.

    Cells are right-aligned (figures) but for the columns numbered in ``left`` (words); a
    cell that is already a ``<td ...>`` element is kept as it is.
    """
    klass = f' class="{cls}"' if cls else ""
    head = "".join(
        f'<th class="l">{h}</th>' if n in left else f"<th>{h}</th>" for n, h in enumerate(headers)
    )
    body = []
    for n, row in enumerate(rows):
        kind = row_cls[n] if n < len(row_cls) and row_cls[n] else ""
        attrs = f' class="{kind}"' if kind else ""
        first, *rest = row
        cells = "".join(
            c
            if c.startswith("<td")
            else f'<td class="l">{c}</td>'
            if i in left
            else f"<td>{c}</td>"
            for i, c in enumerate(rest, 1)
        )
        body.append(f'<tr{attrs}><th scope="row">{first}</th>{cells}</tr>')
    return (
        f'<div class="scroll"><table{klass}>\n<thead><tr>{head}</tr></thead>\n<tbody>\n'
        + "\n".join(body)
        + "\n</tbody>\n</table></div>"
    )


def head(text: str, note: str = "") -> str:
    """A column header with a smaller second line (unit, how values combine)."""
    return escape(text) + (f"<small>{escape(note)}</small>" if note else "")


def link(text: str, href: str | None) -> str:
    """``text`` linked to ``href`` (plain text without one)."""
    return f'<a href="{escape(href)}">{escape(text)}</a>' if href else escape(text)


Linker = Callable[[str], str | None]


def no_links(_run_id: str) -> str | None:
    """The linker of a page without run pages."""
    return None


def page_linker(prefix: str | None) -> Linker:
    """Run id -> its page (``prefix`` is the run pages' folder; ``None``: no pages)."""
    if prefix is None:
        return no_links
    return lambda run_id: f"{prefix}{quote(run_id)}.html"


# -- the matrix -----------------------------------------------------------------------------


def chip(run: RunMetrics, href: str | None) -> str:
    """One run in the matrix: its level on its level's colour, a tick for a strict pass."""
    if run.scored and run.level is not None:
        text = f"{run.level}{STRICT_MARK if run.strict_pass else ''}"
        cls = f"chip l{run.level}" + (" strict" if run.strict_pass else "")
        title = f"{run.run_id}: {run.verdict_status}, level {run.level}"
    else:
        text, cls = ERRORED, "chip err"
        why = run.verdict_status or run.end_reason or run.status
        title = f"{run.run_id}: not scored ({why})"
    tag, target = ("a", f' href="{escape(href)}"') if href else ("span", "")
    return f'<{tag} class="{cls}"{target} title="{escape(title)}">{escape(text)}</{tag}>'


def _tally(row: SummaryRow | None) -> str:
    if row is None or not row.runs:
        return "<small>no runs</small>"
    extra = f" · {row.errored} errored" if row.errored else ""
    if row.compactions_told:
        extra += f" · {RETAINED} {retained_cell(row)}"
    return f"<small>{row.strict_passes}/{row.scored} strict{escape(extra)}</small>"


def _total_cell(row: SummaryRow | None) -> str:
    if row is None or not row.runs:
        return "<td>-</td>"
    extra = f"<small>{row.errored} errored</small>" if row.errored else ""
    return (
        f'<td class="runs">{row.strict_passes}/{row.scored} strict '
        f"({pct(row.strict_pass_rate)}){extra}</td>"
    )


def _gain(row: ComparisonRow | None) -> str:
    """The candidate's strict passes minus the reference's over matched pairs."""
    if row is None or not row.matched:
        return "<td>-</td>"
    gain = row.b_passes - row.a_passes
    cls = "better" if gain > 0 else "worse" if gain < 0 else "same"
    text = f"+{gain}" if gain > 0 else f"{MINUS}{-gain}" if gain < 0 else "0"
    return f'<td class="{cls}">{text}<small>of {row.matched} matched</small></td>'


def task_classes(report: Report) -> list[tuple[str, list[str]]]:
    """The shown tasks grouped by pressure class (N, L, M, H, then any other), sorted."""
    classes: dict[str, set[str]] = {}
    for row in report.by_task:
        pressure = next((r.pressure for r in report.runs if r.task == row.key), "?")
        classes.setdefault(pressure, set()).add(row.key)
    rank = {p: n for n, p in enumerate(PRESSURE_ORDER)}
    return [
        (p, sorted(tasks))
        for p, tasks in sorted(classes.items(), key=lambda kv: (rank.get(kv[0], 9), kv[0]))
    ]


def matrix(report: Report, linker: Linker) -> str:
    """The task x arm matrix with per-class and corpus totals."""
    comparison = report.comparison
    arms = report.arms
    tasks = {(r.arm, r.key): r for r in report.by_task}
    classes = {(r.arm, r.key): r for r in report.by_pressure}
    corpus = {r.arm: r for r in report.corpus}
    gains_task = {r.key: r for r in comparison.by_task} if comparison else {}
    gains_class = {r.key: r for r in comparison.by_pressure} if comparison else {}
    headers = [head(TASK), head("class")]
    for n, arm in enumerate(arms):
        role = ("A, reference" if n == 0 else "B, candidate") if comparison else ""
        headers.append(head(arm, role))
    if comparison:
        headers.append(head("B strict gain", "over matched pairs"))
    rows: list[list[str]] = []
    kinds: list[str] = []
    for pressure, names in task_classes(report):
        for task in names:
            cells = [escape(task), escape(pressure)]
            for arm in arms:
                mine = [r for r in report.runs if r.task == task and r.arm == arm]
                chips = "".join(chip(r, linker(r.run_id)) for r in mine)
                cells.append(f'<td class="runs">{chips}{_tally(tasks.get((arm, task)))}</td>')
            if comparison:
                cells.append(_gain(gains_task.get(task)))
            rows.append(cells)
            kinds.append("")
        cells = [f"class {escape(pressure)}", ""]
        cells += [_total_cell(classes.get((arm, pressure))) for arm in arms]
        if comparison:
            cells.append(_gain(gains_class.get(pressure)))
        rows.append(cells)
        kinds.append("total")
    cells = ["corpus", ""] + [_total_cell(corpus.get(arm)) for arm in arms]
    if comparison:
        cells.append(_gain(comparison.corpus))
    rows.append(cells)
    kinds.append("total corpus")
    return table(headers, rows, cls="grid matrix2", row_cls=kinds, left=(1,))


def legend() -> str:
    """What the chips mean."""
    chips = "".join(
        f'<span class="chip l{level}">{level}</span>' for level in range(len(LEVEL_COLORS))
    )
    return (
        f'<p class="meta">One chip per run, its progress level: {chips} '
        f'<span class="chip l5 strict">5{STRICT_MARK}</span> strict pass '
        f'<span class="chip err">{ERRORED}</span> not scored (judge error, setup or runner '
        "failure). A chip links to the run's page: its stages, checks and transcript.</p>"
    )


# -- matched-pair deltas --------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Delta:
    """A figure compared between the two arms of a matched strict-pass pair.

    Attributes:
        name: The :class:`~benchsmith.running.metrics.Usage` attribute.
        label: Column header.
        unit: Its unit.
        digits: Decimals of its values.
        share: A ratio in 0-1 compared by difference (percentage points), not B/A.
    """

    name: str
    label: str
    unit: str
    digits: int = 0
    share: bool = False


DELTAS = (
    Delta("agent_seconds", "agent time", "s", 2),
    Delta("main_calls", "main-model calls", "calls"),
    Delta("input_tokens", "input tokens", "tokens, as reported"),
    Delta("output_tokens", "output tokens", "tokens"),
    Delta("prompt_cache_reuse", CACHE_REUSE[1], "share of input", share=True),
    Delta("cost_usd", "cost", "USD", 4),
)
"""The figures of the matched-pair charts (spec section 7)."""

BAR_WIDTH = 96
RATIO_SPAN = 2.0
"""Bars span B/A from 2**-RATIO_SPAN to 2**RATIO_SPAN (x0.25 to x4) on a log scale."""
SHARE_SPAN = 0.5
"""Cache-reuse bars span -50 to +50 percentage points."""


def _value(figures: Usage, delta: Delta) -> float | None:
    value = getattr(figures, delta.name)
    return None if value is None else float(value)


def delta_cell(delta: Delta, a: float | None, b: float | None) -> str:
    """B against A: the ratio (or difference) in words, a bar, and both values."""
    if a is None or b is None:
        return '<td class="delta same" title="not reported by every run">n/a</td>'
    values = f"{_num(a, delta)} {ARROW} {_num(b, delta)}"
    if delta.share:
        diff = b - a
        position = max(-1.0, min(1.0, diff / SHARE_SPAN))
        word = f"{'+' if diff >= 0 else MINUS}{abs(100 * diff):.0f} pp"
        better = diff > 0.005
        worse = diff < -0.005
    elif a == 0:
        same = b == 0
        cls = "same" if same else "worse"
        return f'<td class="delta {cls}">{"=" if same else "from 0"}<small>{values}</small></td>'
    else:
        ratio = b / a
        log = math.log2(ratio) if ratio > 0 else -RATIO_SPAN
        position = max(-1.0, min(1.0, log / RATIO_SPAN))
        word = f"x{ratio:.2f}"
        better = log < -0.01
        worse = log > 0.01
        position = -position  # cheaper (B < A) grows to the right, as more reuse does
    cls = "better" if better else "worse" if worse else "same"
    title = f"A {_num(a, delta)}, B {_num(b, delta)} ({delta.unit})"
    return (
        f'<td class="delta {cls}" title="{escape(title)}">{escape(word)}'
        f"{bar(position, cls)}<small>{escape(values)}</small></td>"
    )


def _num(value: float, delta: Delta) -> str:
    return pct(value) if delta.share else fmt(value, delta.digits)


BAR_COLORS = {"better": "#1a7f37", "worse": "#cf222e", "same": "#8c959f"}


def bar(position: float, cls: str) -> str:
    """An inline SVG bar from the middle (B equals A) to ``position`` in -1..1."""
    mid = BAR_WIDTH / 2
    x = mid + position * (mid - 3)
    left, width = min(mid, x), abs(x - mid)
    color = BAR_COLORS[cls]
    return (
        f'<svg class="dbar" width="{BAR_WIDTH}" height="12" viewBox="0 0 {BAR_WIDTH} 12" '
        f'role="img" aria-label="B against A">'
        f'<line x1="0" y1="6" x2="{BAR_WIDTH}" y2="6" stroke="#d0d7de"/>'
        f'<rect x="{left:.1f}" y="3" width="{width:.1f}" height="6" fill="{color}"/>'
        f'<line x1="{mid:.0f}" y1="0" x2="{mid:.0f}" y2="12" stroke="#57606a"/>'
        f'<circle cx="{x:.1f}" cy="6" r="3" fill="{color}"/></svg>'
    )


def deltas(report: Report, comparison: Comparison, linker: Linker) -> list[str]:
    """The matched strict-pass pairs, B against A: class and corpus totals, then each pair."""
    corpus = comparison.corpus
    parts = [
        f"<h2>Matched strict-pass pairs: {escape(comparison.arm_b)} (B) against "
        f"{escape(comparison.arm_a)} (A)</h2>",
        f"<p>{corpus.strict_pairs} of {corpus.matched} matched (task, repeat) pairs passed "
        "strictly in both arms; efficiency is compared over those only. A bar grows right "
        "when B is cheaper or faster (time, calls, tokens, cost: B/A on a log scale from x4 "
        "to x0.25) or reuses more of its prompt cache (difference in percentage points); "
        'green is better for B. Values are totals over the pairs: "A &#8594; B".</p>',
    ]
    if not corpus.strict_pairs:
        return [*parts, f"<p>{escape(NO_PAIRS)}</p>"]
    headers = [head("pairs"), *(head(d.label, d.unit) for d in DELTAS)]
    rows: list[list[str]] = []
    kinds: list[str] = []
    groups = [("corpus", corpus), *((f"class {r.key}", r) for r in comparison.by_pressure)]
    for label, row in groups:
        if not row.strict_pairs:
            continue
        first = f"{escape(label)}<small>{row.strict_pairs} pair(s)</small>"
        rows.append([first, *(_group_cell(d, row) for d in DELTAS)])
        kinds.append("total")
    for a_id, b_id in corpus.pairs:
        a, b = report.run(a_id), report.run(b_id)
        if a is None or b is None:
            continue
        first = (
            f"{escape(a.task)} r{a.repeat:03d}<small>{link('A', linker(a_id))} · "
            f"{link('B', linker(b_id))}</small>"
        )
        cells = [delta_cell(d, _value(a.usage, d), _value(b.usage, d)) for d in DELTAS]
        rows.append([first, *cells])
        kinds.append("")
    parts.append(table(headers, rows, cls="grid", row_cls=kinds))
    return parts


def _group_cell(delta: Delta, row: ComparisonRow) -> str:
    return delta_cell(delta, _value(row.a, delta), _value(row.b, delta))


# -- per-arm tables -------------------------------------------------------------------------

DEFAULT_COLUMNS = ("runs", "scored", "strict", "rate", LEVELS_WORD, "agent s", "calls",
                   "cost $", CACHE_REUSE[1])  # fmt: skip
"""The per-arm columns shown by default; every other one is behind a toggle."""

GROUPS = (
    ("outcomes and times", ("s",)),
    ("calls, tools and compactions", ("calls", "bytes", "compactions")),
    ("tokens", ("tokens",)),
)
"""The toggled columns' tables, by the unit of their metrics (others join the first)."""


def _spec_by_header() -> dict[str, Spec]:
    return {s.metric.header: s for s in specs()}


def column_head(name: str) -> str:
    """A per-arm column header with its unit and how runs combine."""
    spec = _spec_by_header().get(name)
    if spec is not None:
        unit = "KiB" if spec.metric.scale == 1024 else spec.metric.unit
        how = "max" if spec.metric.total is Total.MAX else "mean/run"
        return head(name, f"{unit}, {how}")
    notes = {
        "runs": "finished", "scored": "pass or fail", "errored": "no verdict",
        "strict": "level 5", "rate": "strict/scored", LEVELS_WORD: "scored runs",
        RETAINED: "compactions", CACHE_REUSE[1]: "of input",
    }  # fmt: skip
    return head(name, notes.get(name, ""))


def levels_cell(row: SummaryRow) -> str:
    """The level distribution as a small bar, its counts below."""
    total = max(row.scored, 1)
    spans = "".join(
        f'<span style="width:{100 * count / total:.2f}%;background:{LEVEL_COLORS[level]}"></span>'
        for level, count in zip(LEVELS, row.levels, strict=True)
        if count
    )
    counts = "/".join(str(n) for n in row.levels)
    return (
        f'<td title="levels 0-5: {counts}"><div class="minibar">{spans}</div>'
        f"<small>{counts}</small></td>"
    )


def _column_groups() -> list[tuple[str, list[str]]]:
    names = [name for name, _ in SUMMARY_COLUMNS if name not in DEFAULT_COLUMNS]
    by_header = _spec_by_header()
    groups: list[tuple[str, list[str]]] = [(title, []) for title, _ in GROUPS]
    for name in names:
        spec = by_header.get(name)
        unit = spec.metric.unit if spec else ""
        index = next((n for n, (_, units) in enumerate(GROUPS) if unit in units), 0)
        groups[index][1].append(name)
    return [(title, cols) for title, cols in groups if cols]


def arm_table(rows: Sequence[tuple[SummaryRow, str]], columns: Sequence[str]) -> str:
    """One arm's rows (tasks, then classes and corpus, with their row classes) in ``columns``."""
    cells = dict(SUMMARY_COLUMNS)
    out = []
    for row, _ in rows:
        line = [escape(row.key if row.key == "corpus" or len(row.key) > 1 else f"class {row.key}")]
        for name in columns:
            line.append(levels_cell(row) if name == LEVELS_WORD else escape(cells[name](row)))
        out.append(line)
    headers = [head("scope"), *(column_head(c) for c in columns)]
    return table(headers, out, cls="grid", row_cls=[kind for _, kind in rows])


def arm_sections(report: Report) -> list[str]:
    """Each arm: the default columns, then the others behind a toggle."""
    parts = ["<h2>Each arm: tasks, classes and corpus (means per scored run)</h2>"]
    for arm in report.arms:
        rows = [
            *((r, "") for r in report.by_task if r.arm == arm),
            *((r, "total") for r in report.by_pressure if r.arm == arm),
            *((r, "total corpus") for r in report.corpus if r.arm == arm),
        ]
        parts.append(f"<h3>Arm {escape(arm)}</h3>")
        parts.append(arm_table(rows, DEFAULT_COLUMNS))
        more = []
        for title, columns in _column_groups():
            more.append(f"<h4>{escape(title)}</h4>")
            more.append(arm_table(rows, columns))
        headers, aux = aux_rows([r for r in report.by_task if r.arm == arm], TASK)
        if headers:
            more.append(f"<h4>{escape(AUX_TITLE)}</h4>")
            more.append(table([escape(h) for h in headers], [[escape(c) for c in r] for r in aux]))
        more.append(f"<h4>{escape(ORDER_TITLE)}</h4><p>{escape(order_line(report, arm))}</p>")
        count = sum(len(c) for _, c in _column_groups())
        parts.append(
            f"<details><summary>{count} more columns of arm {escape(arm)}: times, calls, "
            f"tools, compactions, tokens; auxiliary calls; task order</summary>"
            + "\n".join(more)
            + "</details>"
        )
    return parts


def comparison_tables(comparison: Comparison) -> list[str]:
    """Matched-pair counts by task and class, with every figure of both arms toggled."""
    headers = ["group", "matched", "A strict", "B strict", "strict pairs"]
    groups = [(r.key, r, "") for r in comparison.by_task]
    groups += [(f"class {r.key}", r, "total") for r in comparison.by_pressure]
    groups.append(("corpus", comparison.corpus, "total corpus"))
    rows = [
        [escape(key), str(r.matched), str(r.a_passes), str(r.b_passes), str(r.strict_pairs)]
        for key, r, _ in groups
    ]
    wide = [
        _plain_table(*pair_rows(comparison.by_task, TASK)),
        _plain_table(*pair_rows(comparison.by_pressure, "pressure")),
    ]
    if comparison.corpus.strict_pairs:
        wide.append(_plain_table(*metric_rows(comparison.corpus)))
    return [
        "<h3>Matched pairs by task and class</h3>",
        table([head(h) for h in headers], rows, cls="grid", row_cls=[k for _, _, k in groups]),
        "<details><summary>every compared figure of both arms, totals over matched "
        "strict-pass pairs</summary>" + "\n".join(wide) + "</details>",
    ]


def _plain_table(headers: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    return table([escape(h) for h in headers], [[escape(c) for c in r] for r in rows])


def checks_failing(report: Report, linker: Linker) -> list[str]:
    """Each check some scored run failed, with the share of each arm's runs failing it."""
    parts = ["<h2>Checks that failed</h2>"]
    if not report.checks:
        return [*parts, "<p>No scored run failed a check the judge reported.</p>"]
    parts.append(
        "<p>For every check some scored run failed: the runs of each arm failing it, of "
        "those whose verdict reported it. A check that fails in every run of every arm, "
        "while their other checks pass, is worth reading against TASK.md: independent "
        "candidates agreeing against the judge may point at a judge defect.</p>"
    )
    shares = {(c.task, c.check, c.arm): c for c in report.checks}
    keys = sorted({(c.task, c.check) for c in report.checks}, key=lambda k: _order(report, k))
    rows, kinds = [], []
    for task, check in keys:
        cells = [escape(task), escape(check)]
        every = True
        for arm in report.arms:
            share = shares.get((task, check, arm))
            if share is None:
                cells.append("<td>-</td>")
                continue
            every = every and len(share.failing) == share.judged
            links = " ".join(
                link(run_id.rsplit("--", 1)[-1], linker(run_id)) for run_id in share.failing
            )
            cells.append(
                f"<td>{len(share.failing)}/{share.judged} ({pct(share.share)})"
                f"<small>{links or '-'}</small></td>"
            )
        rows.append(cells)
        kinds.append("fail" if every else "")
    headers = [head(TASK), head("check"), *(head(arm, "failing/judged") for arm in report.arms)]
    parts.append(
        "<details open><summary>"
        f"{len(keys)} check(s); rows failing in every run are shaded</summary>"
        + table(headers, rows, cls="grid", row_cls=kinds, left=(1,))
        + "</details>"
    )
    return parts


def _order(report: Report, key: tuple[str, str]) -> int:
    return next(n for n, c in enumerate(report.checks) if (c.task, c.check) == key)


# -- the main page --------------------------------------------------------------------------


def render_html(report: Report, runs_dir: str = "", run_pages: str | None = None) -> str:
    """The report's main page: self-contained HTML (inline CSS and SVG, no script, no
    request); run ids link into ``run_pages`` (a folder prefix; ``None``: no links)."""
    linker = page_linker(run_pages)
    comparison = report.comparison
    meta = f"runs: {escape(runs_dir)}" if runs_dir else ""
    if comparison:
        meta += (
            f" · A = {escape(comparison.arm_a)} (reference), "
            f"B = {escape(comparison.arm_b)} (candidate)"
        )
    body = [f'<p class="meta">{meta}</p>'] if meta else []
    if not report.arms:
        body.append("<p>no finished primary runs</p>")
    else:
        body += ["<h2>Tasks by arm</h2>", legend(), matrix(report, linker)]
    if comparison:
        body += [f'<p class="warn">warning: {escape(w)}</p>' for w in comparison.warnings]
        body += deltas(report, comparison, linker)
        body += comparison_tables(comparison)
    if report.arms:
        body += checks_failing(report, linker)
        body += arm_sections(report)
    body += _extra(report, linker)
    return page("benchsmith report", body)


def _extra(report: Report, linker: Linker) -> list[str]:
    parts = []
    if report.lost:
        rows = [
            [link(run.run_id, linker(run.run_id)), f"{c.compaction} ({c.trigger})",
             str(c.after_stage), str(c.passed_before), escape(", ".join(c.lost))]
            for run, lost in report.lost
            for c in lost
        ]  # fmt: skip
        headers = [head(h) for h in LOST_HEADERS]
        parts += [f"<h2>{escape(LOST_TITLE.capitalize())}</h2>", table(headers, rows, left=(4,))]
    if report.diagnostic:
        rows = [
            [link(r.run_id, linker(r.run_id)), escape(r.end_reason or ""),
             escape(r.verdict_status or "-"), fmt(r.level)]
            for r in report.diagnostic
        ]  # fmt: skip
        parts += ["<h2>Diagnostic reruns (not in any aggregate)</h2>"]
        parts.append(table([head(h) for h in DIAGNOSTIC_HEADERS], rows, left=(1, 2)))
    if report.unfinished:
        rows = [[link(r.run_id, linker(r.run_id)), escape(r.status)] for r in report.unfinished]
        parts += ["<h2>Unfinished runs (pending or interrupted)</h2>"]
        parts.append(table([head("run"), head("status")], rows, left=(1,)))
    return parts


# -- run pages ------------------------------------------------------------------------------


def _get(data: Any, *keys: str) -> Any:
    for key in keys:
        data = data.get(key) if isinstance(data, dict) else None
    return data


def _seconds(value: Any) -> str:
    return fmt(float(value), 2) if isinstance(value, int | float) else "-"


def _verdict_line(verdict: Any) -> str:
    if not isinstance(verdict, dict):
        return '<p class="verdict error">no verdict</p>'
    status = str(verdict.get("status", "?"))
    return (
        f'<p class="verdict {escape(status)}">{escape(status.upper())} · level '
        f"{escape(str(verdict.get('progress_level')))} · main checks "
        f"{verdict.get('main_checks_passed')}/{verdict.get('main_checks_total')} · edge check "
        f"{'passed' if verdict.get('edge_check_passed') else 'not passed'}</p>"
    )


def checks_section(verdict: Any, title: str) -> list[str]:
    """The judge's notes, then its checks with the failing ones first."""
    parts = [f"<h2>{escape(title)}</h2>", _verdict_line(verdict)]
    if not isinstance(verdict, dict):
        return parts
    notes = [str(n) for n in verdict.get("notes") or []]
    if notes:
        items = "".join(f"<li><pre>{escape(n)}</pre></li>" for n in notes)
        parts.append(f"<p>The judge's notes:</p><ul>{items}</ul>")
    checks = [c for c in verdict.get("checks") or [] if isinstance(c, dict)]
    if not checks:
        parts.append("<p>The judge gave no per-check results.</p>")
        return parts
    ordered = sorted(checks, key=lambda c: bool(c.get("passed")))  # stable: judge order kept
    rows = [
        [escape(str(c.get("name"))), "yes" if c.get("passed") else "NO",
         escape(str(c.get("fixture", "main"))), escape(str(c.get("level")))]
        for c in ordered
    ]  # fmt: skip
    kinds = ["" if c.get("passed") else "fail" for c in ordered]
    failing = sum(not c.get("passed") for c in checks)
    parts.append(f"<p>{failing} of {len(checks)} checks failing.</p>")
    headers = [head("check"), head("passed"), head("fixture"), head("level")]
    parts.append(table(headers, rows, row_cls=kinds, left=(1, 2)))
    return parts


def stages_section(record: dict[str, Any], detail: RunDetail) -> list[str]:
    """Stages with their per-stage verdicts, then the messages collapsed."""
    stages = [s for s in record.get("stages") or [] if isinstance(s, dict)]
    judged = {s.get("stage"): s for s in record.get("stage_verdicts") or [] if isinstance(s, dict)}
    rows = []
    for stage in stages:
        number = stage.get("number")
        taken = judged.get(number)
        verdict = _get(taken, "verdict") if taken else None
        if number == len(stages):
            verdict, source = record.get("verdict"), "final"
        else:
            source = "stage" if taken else "-"
        if isinstance(verdict, dict):
            checks = f"{verdict.get('main_checks_passed')}/{verdict.get('main_checks_total')}"
            judged_cell = f"{escape(str(verdict.get('status')))}<small>{source}</small>"
            level = escape(str(verdict.get("progress_level")))
        else:
            problem = _get(taken, "problem") if taken else ""
            checks, level = "-", "-"
            judged_cell = escape(str(problem or "-"))
        rows.append([
            f"{number}", escape(str(stage.get("id"))), escape(str(stage.get("outcome"))),
            _seconds(stage.get("seconds")), escape(str(stage.get("exit_code"))),
            "yes" if stage.get("done_seen") else "no",
            "yes" if stage.get("compact_after") else "no", judged_cell, level, checks,
        ])  # fmt: skip
    headers = [head("stage"), head("id"), head("outcome"), head("agent", "s"), head("exit"),
               head("done"), head("compact after"), head("verdict"), head("level"),
               head("main checks", "passed/total")]  # fmt: skip
    parts = ["<h2>Stages</h2>", table(headers, rows, left=(1, 2, 7))]
    for message in detail.messages:
        parts.append(
            f"<details><summary>message of stage {message.stage} "
            f"({escape(message.stage_id)}), {len(message.text)} characters</summary>"
            f"<pre>{escape(message.text)}</pre></details>"
        )
    for number, taken in sorted(judged.items(), key=lambda kv: str(kv[0])):
        failing = [
            c for c in _get(taken, "verdict", "checks") or []
            if isinstance(c, dict) and not c.get("passed")
        ]  # fmt: skip
        if failing:
            names = ", ".join(str(c.get("name")) for c in failing)
            parts.append(
                f"<details><summary>stage {number}: {len(failing)} failing check(s)</summary>"
                f"<p>{escape(names)}</p></details>"
            )
    return parts


def compactions_section(record: dict[str, Any]) -> list[str]:
    """Compaction requests and results, tokens before and after, retention."""
    compactions = [c for c in record.get("compactions") or [] if isinstance(c, dict)]
    if not compactions:
        return ["<h2>Compactions</h2><p>none</p>"]
    kept = {r.get("compaction"): r for r in record.get("retention") or [] if isinstance(r, dict)}
    rows = []
    for c in compactions:
        r = kept.get(c.get("number"), {})
        retained = r.get("retained")
        word = "-" if not r else "yes" if retained else "NO" if retained is False else "unknown"
        lost = ", ".join(str(x) for x in r.get("lost") or []) or str(r.get("reason") or "")
        rows.append([
            str(c.get("number")), str(c.get("after_stage")), escape(str(c.get("trigger"))),
            escape(str(c.get("status"))), _seconds(c.get("seconds")),
            fmt(c.get("tokens_before")), fmt(c.get("tokens_after")),
            f"{word}<small>{r.get('passed_before', '-')} passed before</small>" if r else "-",
            escape(lost or str(c.get("detail") or "")),
        ])  # fmt: skip
    headers = [head("#"), head("after stage"), head("trigger"), head("status"), head("took", "s"),
               head("before", "tokens"), head("after", "tokens"), head("retained"),
               head("lost checks / detail")]  # fmt: skip
    return ["<h2>Compactions</h2>", table(headers, rows, left=(2, 3, 7, 8))]


def tools_section(detail: RunDetail) -> list[str]:
    """Tool calls by name, then every call behind a toggle."""
    calls = detail.tools
    total = sum(t.result_bytes for t in calls)
    parts = [f"<h2>Tool calls</h2><p>{len(calls)} calls, {fmt(total / 1024)} KiB of results.</p>"]
    if not calls:
        return parts
    names: dict[str, list[int]] = {}
    for call in calls:
        names.setdefault(call.name, []).append(call.result_bytes)
    rows = [
        [escape(name), str(len(sizes)), fmt(sum(sizes) / 1024), fmt(max(sizes))]
        for name, sizes in sorted(names.items(), key=lambda kv: (-len(kv[1]), kv[0]))
    ]
    parts.append(
        table([head("tool"), head("calls"), head("results", "KiB"), head("largest", "bytes")], rows)
    )
    every = [
        [str(n), str(c.stage), _seconds(c.t), escape(c.name), fmt(c.result_bytes)]
        for n, c in enumerate(calls, 1)
    ]
    parts.append(
        "<details><summary>every tool call</summary>"
        + table(
            [head("#"), head("stage"), head("at", "s"), head("tool"), head("bytes")],
            every,
            left=(3,),
        )
        + "</details>"
    )
    return parts


def _facts(run: RunMetrics | None, record: dict[str, Any] | None, run_id: str) -> str:
    if record is None:
        facts = [f"run {run_id}"]
        if run is not None:
            facts += [f"task {run.task}", f"arm {run.arm}", f"status {run.status}"]
        return " · ".join(escape(f) for f in facts)
    task = record.get("task") or {}
    facts = [
        f"task {task.get('dir')}", f"class {task.get('pressure')}", f"arm {record.get('arm')}",
        f"{record.get('kind')} repeat {record.get('repeat')}", f"adapter {record.get('adapter')}",
        f"{'sealed' if record.get('sealed') else 'unsealed'}",
        f"started {record.get('started_at')}",
        f"ended: {record.get('end_reason')}"
        + (f" ({record.get('end_detail')})" if record.get("end_detail") else ""),
    ]  # fmt: skip
    return " · ".join(escape(f) for f in facts)


def render_run_page(
    run_id: str, run: RunMetrics | None, detail: RunDetail, back: str, files: str
) -> str:
    """A run's page; ``back`` links to the main page, ``files`` is the run folder's prefix."""
    record = detail.record
    body = [
        f'<p><a href="{escape(back)}">&#8592; report</a></p>',
        f'<p class="meta">{_facts(run, record, run_id)}</p>',
    ]
    links = "".join(
        f'<li><a href="{escape(files + quote(rel))}">{escape(label)}</a></li>'
        for label, rel in detail.files
    )
    stage_out = "".join(
        f'<li><a href="{escape(files + quote(name))}">{escape(name)}</a></li>'
        for name in detail.stage_stdout
    )
    body.append(f'<ul class="files">{links}{stage_out}</ul>' if links or stage_out else
                "<p>no kept files</p>")  # fmt: skip
    if record is None:
        body.append("<p>This run left no readable run.json (it did not finish).</p>")
        return page(f"run {run_id}", body)
    body += checks_section(record.get("verdict"), "The judge's checks (failing first)")
    body += stages_section(record, detail)
    body += compactions_section(record)
    body += tools_section(detail)
    times = record.get("times") or {}
    rows = [[escape(k.removesuffix("_seconds")), _seconds(v)] for k, v in times.items()]
    body += ["<h2>Times</h2>", table([head("phase"), head("took", "s")], rows)]
    if run is not None:
        usage = []
        for spec in specs():
            value = getattr(run.usage, spec.name)
            digits = spec.metric.digits
            usage.append([escape(spec.metric.label), fmt(value, digits), escape(spec.metric.unit)])
        usage.append([CACHE_REUSE[0], pct(run.usage.prompt_cache_reuse), "share"])
        body += [
            "<h2>Usage</h2>",
            table([head("figure"), head("value"), head("unit")], usage, left=(2,)),
        ]
    settings = record.get("settings") or {}
    if settings:
        rows = [
            [escape(str(k)), escape(json.dumps(v, sort_keys=True))] for k, v in settings.items()
        ]
        body += [
            "<h2>Agent settings</h2>",
            table([head("setting"), head("value")], rows, left=(1,)),
        ]
    diagnostics = [d for d in record.get("diagnostics") or [] if isinstance(d, dict)]
    if diagnostics:
        rows = [
            [escape(str(d.get("code"))), str(d.get("stage")), escape(str(d.get("action"))),
             escape(str(d.get("message")))]
            for d in diagnostics
        ]  # fmt: skip
        headers = [head("code"), head("stage"), head("action"), head("message")]
        body += ["<h2>Diagnostics</h2>", table(headers, rows, left=(2, 3))]
    return page(f"run {run_id}", body)


# -- writing --------------------------------------------------------------------------------


def run_pages_dir(page_path: Path) -> Path:
    """Where the run pages of the main page ``page_path`` go: ``<stem>-runs/`` beside it."""
    return page_path.parent / f"{page_path.stem}-runs"


def html_pages(
    report: Report, runs_dir: Path, page_path: Path, runs_label: str = ""
) -> list[tuple[Path, str]]:
    """Every page of the report: the run pages, then the main page (``page_path``)."""
    folder = run_pages_dir(page_path)
    shown = {r.run_id: r for r in (*report.runs, *report.diagnostic, *report.unfinished)}
    details = load_details(runs_dir, shown)
    files_root = Path(os.path.relpath(runs_dir.resolve(), folder.resolve())).as_posix()
    pages = [
        (
            folder / f"{run_id}.html",
            render_run_page(
                run_id, shown[run_id], details[run_id], f"../{quote(page_path.name)}",
                f"{quote(files_root)}/{quote(run_id)}/",
            ),
        )
        for run_id in sorted(shown)
    ]  # fmt: skip
    prefix = f"{quote(folder.name)}/"
    pages.append((page_path, render_html(report, runs_label, run_pages=prefix)))
    return pages
