"""Comparing arms (spec section 7): per-run metrics from the records, then pure aggregation.

:func:`load_metrics` reads one :class:`RunMetrics` per run from runs.db; everything after it
is a pure function of those rows, testable on a hand-built database.

Rules:

* only ``primary`` runs enter aggregates; ``diagnostic`` reruns and unfinished runs are
  listed apart;
* a run is *scored* when its judge returned ``pass`` or ``fail``; runs with a judge error or
  no verdict (setup or runner errors) are counted as errored, outside the rates;
* efficiency figures of a single arm are over its scored runs; a comparison of two arms
  computes them only over *matched strict-pass pairs*: the same task and repeat, level 5 in
  both arms;
* ``prompt_cache_reuse = cache_read / (uncached_input + cache_read + cache_write)`` only
  when every run in the set reports uncached input separately; cost only when every run in
  the set reports one.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from benchsmith.errors import UsageError
from benchsmith.run.metrics import cache_reuse

T = TypeVar("T")
LEVELS = tuple(range(6))
PRESSURE_ORDER = ("N", "L", "M", "H")


@dataclass(frozen=True, slots=True)
class RunMetrics:
    """The figures of one recorded run."""

    run_id: str
    arm: str
    task: str
    pressure: str
    repeat: int
    kind: str
    status: str
    end_reason: str | None
    verdict_status: str | None
    level: int | None
    task_digest: str
    timeout_seconds: float
    agent_seconds: float = 0.0
    lifecycle_seconds: float = 0.0
    judge_seconds: float = 0.0
    main_calls: int = 0
    aux_calls: Mapping[str, int] = field(default_factory=dict)
    tool_calls: int = 0
    tool_result_bytes: int = 0
    compactions_requested: int = 0
    compactions_completed: int = 0
    compactions_failed: int = 0
    compactions_natural: int = 0
    input_tokens: int = 0
    uncached_input_tokens: int | None = 0
    output_tokens: int = 0
    cache_read_tokens: int = 0
    cache_write_tokens: int = 0
    cost_usd: float | None = None
    final_response_tokens: int | None = None
    peak_context_tokens: int | None = None

    @property
    def scored(self) -> bool:
        """A finished primary-or-diagnostic run whose judge returned pass or fail."""
        return self.status == "finished" and self.verdict_status in ("pass", "fail")

    @property
    def strict_pass(self) -> bool:
        """Level 5 with status pass."""
        return self.verdict_status == "pass" and self.level == 5


@dataclass(frozen=True, slots=True)
class Figures:
    """Efficiency figures summed over a set of runs (divide by ``runs`` for means).

    ``peak_context_tokens`` is the largest peak of any run (``None`` when none reported).
    """

    runs: int = 0
    agent_seconds: float = 0.0
    lifecycle_seconds: float = 0.0
    judge_seconds: float = 0.0
    main_calls: int = 0
    aux_calls: int = 0
    tool_calls: int = 0
    tool_result_bytes: int = 0
    compactions_requested: int = 0
    compactions_completed: int = 0
    compactions_failed: int = 0
    compactions_natural: int = 0
    input_tokens: int = 0
    uncached_input_tokens: int | None = 0
    output_tokens: int = 0
    cache_read_tokens: int = 0
    cache_write_tokens: int = 0
    cost_usd: float | None = None
    prompt_cache_reuse: float | None = None
    final_response_tokens: int | None = None
    peak_context_tokens: int | None = None

    def mean(self, name: str) -> float | None:
        """The per-run mean of a summed figure (``None`` when unknown or no runs)."""
        value = getattr(self, name)
        return None if value is None or not self.runs else float(value) / self.runs


_SUMMED = (
    "agent_seconds", "lifecycle_seconds", "judge_seconds", "main_calls", "tool_calls",
    "tool_result_bytes", "compactions_requested", "compactions_completed",
    "compactions_failed", "compactions_natural", "input_tokens", "output_tokens",
    "cache_read_tokens", "cache_write_tokens",
)  # fmt: skip


def figures(runs: Sequence[RunMetrics]) -> Figures:
    """Sum the efficiency figures of ``runs`` (unknown when any run does not report them)."""
    sums: dict[str, Any] = {name: sum(getattr(r, name) for r in runs) for name in _SUMMED}
    uncached = _known_sum([r.uncached_input_tokens for r in runs])
    cost = _known_sum([r.cost_usd for r in runs]) if runs else None
    final = _known_sum([r.final_response_tokens for r in runs]) if runs else None
    peaks = [r.peak_context_tokens for r in runs if r.peak_context_tokens is not None]
    return Figures(
        runs=len(runs),
        aux_calls=sum(sum(r.aux_calls.values()) for r in runs),
        uncached_input_tokens=None if uncached is None else int(uncached),
        cost_usd=None if cost is None else float(cost),
        prompt_cache_reuse=cache_reuse(
            None if uncached is None else int(uncached),
            sums["cache_read_tokens"],
            sums["cache_write_tokens"],
        ),
        final_response_tokens=None if final is None else int(final),
        peak_context_tokens=max(peaks) if peaks else None,
        **sums,
    )


def _known_sum(values: Sequence[float | int | None]) -> float | int | None:
    if any(v is None for v in values):
        return None
    return sum(v for v in values if v is not None)


@dataclass(frozen=True, slots=True)
class SummaryRow:
    """One arm's results over one group of tasks.

    Attributes:
        arm: The arm.
        key: Task folder name, pressure class, or ``corpus``.
        runs: Finished primary runs.
        scored: Runs whose judge returned pass or fail.
        errored: Finished runs without a usable verdict (setup, runner or judge errors).
        strict_passes: Scored runs at level 5.
        strict_pass_rate: ``strict_passes / scored`` (``None`` with nothing scored).
        levels: Scored runs per progress level 0-5.
        figures: Efficiency figures over the scored runs.
    """

    arm: str
    key: str
    runs: int
    scored: int
    errored: int
    strict_passes: int
    strict_pass_rate: float | None
    levels: tuple[int, ...]
    figures: Figures


def summarize(arm: str, key: str, runs: Sequence[RunMetrics]) -> SummaryRow:
    """The summary of one arm over ``runs`` (primary, finished)."""
    scored = [r for r in runs if r.scored]
    passes = sum(r.strict_pass for r in scored)
    return SummaryRow(
        arm=arm,
        key=key,
        runs=len(runs),
        scored=len(scored),
        errored=len(runs) - len(scored),
        strict_passes=passes,
        strict_pass_rate=passes / len(scored) if scored else None,
        levels=tuple(sum(r.level == level for r in scored) for level in LEVELS),
        figures=figures(scored),
    )


@dataclass(frozen=True, slots=True)
class ComparisonRow:
    """Two arms over one group, on matched pairs.

    Attributes:
        key: Task folder name, pressure class, or ``corpus``.
        matched: (task, repeat) pairs scored in both arms.
        a_passes: Strict passes of arm A among the matched pairs.
        b_passes: Strict passes of arm B among the matched pairs.
        strict_pairs: Pairs where both arms passed strictly.
        a: Arm A's figures over the strict pairs.
        b: Arm B's figures over the strict pairs.
    """

    key: str
    matched: int
    a_passes: int
    b_passes: int
    strict_pairs: int
    a: Figures
    b: Figures


@dataclass(frozen=True, slots=True)
class Comparison:
    """Arm B (candidate) against arm A (reference) by task, pressure class and corpus."""

    arm_a: str
    arm_b: str
    by_task: tuple[ComparisonRow, ...]
    by_pressure: tuple[ComparisonRow, ...]
    corpus: ComparisonRow
    warnings: tuple[str, ...]


Pair = tuple[RunMetrics, RunMetrics]


def matched_pairs(runs: Sequence[RunMetrics], arm_a: str, arm_b: str) -> list[Pair]:
    """(A, B) runs of the same task and repeat, both primary and scored, sorted."""
    index: dict[tuple[str, str, int], RunMetrics] = {
        (r.arm, r.task, r.repeat): r for r in primary(runs) if r.scored
    }
    return [
        (run, index[(arm_b, run.task, run.repeat)])
        for (arm, _, _), run in sorted(index.items())
        if arm == arm_a and (arm_b, run.task, run.repeat) in index
    ]


def compare_row(key: str, pairs: Sequence[Pair]) -> ComparisonRow:
    """Pass counts over matched pairs; figures only over the strict-pass pairs."""
    strict = [(a, b) for a, b in pairs if a.strict_pass and b.strict_pass]
    return ComparisonRow(
        key=key,
        matched=len(pairs),
        a_passes=sum(a.strict_pass for a, _ in pairs),
        b_passes=sum(b.strict_pass for _, b in pairs),
        strict_pairs=len(strict),
        a=figures([a for a, _ in strict]),
        b=figures([b for _, b in strict]),
    )


def compare(runs: Sequence[RunMetrics], arm_a: str, arm_b: str) -> Comparison:
    """Compare two arms on matched pairs.

    Raises:
        UsageError: When an arm has no runs or both names are the same.
    """
    arms = {r.arm for r in runs}
    for arm in (arm_a, arm_b):
        if arm not in arms:
            raise UsageError(f"--arms: no runs recorded for arm {arm!r}")
    if arm_a == arm_b:
        raise UsageError("--arms needs two different arms")
    pairs = matched_pairs(runs, arm_a, arm_b)
    return Comparison(
        arm_a=arm_a,
        arm_b=arm_b,
        by_task=tuple(
            compare_row(key, group) for key, group in _grouped(pairs, lambda p: p[0].task)
        ),
        by_pressure=tuple(
            compare_row(key, group)
            for key, group in _grouped(pairs, lambda p: p[0].pressure, PRESSURE_ORDER)
        ),
        corpus=compare_row("corpus", pairs),
        warnings=tuple(pair_warnings(pairs)),
    )


def pair_warnings(pairs: Sequence[Pair]) -> list[str]:
    """Conditions that make matched pairs less comparable."""
    found = []
    versions = sum(a.task_digest != b.task_digest for a, b in pairs)
    if versions:
        found.append(f"{versions} matched pair(s) ran different versions of their task")
    timeouts = sum(a.timeout_seconds != b.timeout_seconds for a, b in pairs)
    if timeouts:
        found.append(f"{timeouts} matched pair(s) ran with different agent timeouts")
    return found


def _grouped(
    items: Iterable[T], key: Callable[[T], str], order: Sequence[str] = ()
) -> list[tuple[str, list[T]]]:
    """Group ``items`` by ``key``; groups sorted by ``order``, then by name."""
    groups: dict[str, list[T]] = {}
    for item in items:
        groups.setdefault(key(item), []).append(item)
    rank = {k: n for n, k in enumerate(order)}
    return sorted(groups.items(), key=lambda kv: (rank.get(kv[0], len(rank)), kv[0]))


def primary(runs: Iterable[RunMetrics]) -> list[RunMetrics]:
    """Finished primary runs."""
    return [r for r in runs if r.kind == "primary" and r.status == "finished"]


@dataclass(frozen=True, slots=True)
class Report:
    """Everything ``benchsmith report`` shows.

    Attributes:
        arms: Arms with primary runs, sorted (or the two compared, in the given order).
        by_task: One row per (arm, task).
        by_pressure: One row per (arm, pressure class).
        corpus: One row per arm.
        comparison: The two-arm comparison, when asked for.
        diagnostic: Diagnostic reruns (never part of the aggregates).
        unfinished: Runs that are pending or were interrupted.
    """

    arms: tuple[str, ...]
    by_task: tuple[SummaryRow, ...]
    by_pressure: tuple[SummaryRow, ...]
    corpus: tuple[SummaryRow, ...]
    comparison: Comparison | None
    diagnostic: tuple[RunMetrics, ...]
    unfinished: tuple[RunMetrics, ...]


def build_report(runs: Sequence[RunMetrics], arms: Sequence[str] = ()) -> Report:
    """Aggregate run metrics into a report (comparing ``arms`` when two are given).

    Raises:
        UsageError: When ``arms`` is not empty or two arms with runs.
    """
    if arms and len(arms) != 2:
        raise UsageError("--arms takes exactly two arm names: reference and candidate")
    comparison = compare(runs, arms[0], arms[1]) if arms else None
    chosen = list(arms) or sorted({r.arm for r in primary(runs)})
    main = [r for r in primary(runs) if r.arm in chosen]
    by_task, by_pressure, corpus = [], [], []
    for arm in chosen:
        mine = [r for r in main if r.arm == arm]
        by_task += [summarize(arm, k, g) for k, g in _grouped(mine, lambda r: r.task)]
        by_pressure += [
            summarize(arm, k, g) for k, g in _grouped(mine, lambda r: r.pressure, PRESSURE_ORDER)
        ]
        corpus.append(summarize(arm, "corpus", mine))
    return Report(
        arms=tuple(chosen),
        by_task=tuple(by_task),
        by_pressure=tuple(by_pressure),
        corpus=tuple(corpus),
        comparison=comparison,
        diagnostic=tuple(r for r in runs if r.kind == "diagnostic" and r.status == "finished"),
        unfinished=tuple(r for r in runs if r.status != "finished"),
    )


# -- loading --------------------------------------------------------------------------------

_RUNS_SQL = """
SELECT r.run_id, r.arm, r.task, r.pressure, r.repeat, r.kind, r.status, r.end_reason,
       r.task_digest, r.timeout_seconds, r.agent_seconds, r.lifecycle_seconds,
       r.judge_seconds, r.final_response_tokens, v.status AS verdict_status,
       v.progress_level AS level
FROM runs r LEFT JOIN verdicts v ON v.run_id = r.run_id
ORDER BY r.arm, r.task, r.kind, r.repeat
"""

_USAGE_SQL = """
SELECT run_id,
       sum(CASE WHEN kind = 'main' THEN calls ELSE 0 END) AS main_calls,
       sum(input_tokens) AS input_tokens, sum(output_tokens) AS output_tokens,
       sum(cache_read_tokens) AS cache_read_tokens,
       sum(cache_write_tokens) AS cache_write_tokens,
       sum(uncached_input_tokens) AS uncached_sum, count(uncached_input_tokens) AS uncached_n,
       sum(cost_usd) AS cost_sum, count(cost_usd) AS cost_n, count(*) AS n,
       max(context_tokens) AS peak_context_tokens
FROM usage GROUP BY run_id
"""

_AUX_SQL = "SELECT run_id, kind, sum(calls) AS calls FROM usage WHERE kind != 'main' "
_AUX_SQL += "GROUP BY run_id, kind ORDER BY kind"

_TOOLS_SQL = """
SELECT run_id, count(*) AS tool_calls, coalesce(sum(result_bytes), 0) AS tool_result_bytes
FROM events WHERE source = 'adapter' AND type = 'tool_call' GROUP BY run_id
"""

_COMPACTIONS_SQL = """
SELECT run_id,
       sum(trigger = 'requested') AS compactions_requested,
       sum(trigger = 'requested' AND status = 'completed') AS compactions_completed,
       sum(trigger = 'requested' AND status = 'failed') AS compactions_failed,
       sum(trigger = 'natural') AS compactions_natural
FROM compactions GROUP BY run_id
"""


def load_metrics(conn: sqlite3.Connection) -> list[RunMetrics]:
    """One :class:`RunMetrics` per recorded run."""
    usage = {row["run_id"]: _usage_fields(row) for row in conn.execute(_USAGE_SQL)}
    tools = {row["run_id"]: dict(row) for row in conn.execute(_TOOLS_SQL)}
    compactions = {row["run_id"]: dict(row) for row in conn.execute(_COMPACTIONS_SQL)}
    aux: dict[str, dict[str, int]] = {}
    for row in conn.execute(_AUX_SQL):
        aux.setdefault(row["run_id"], {})[row["kind"]] = int(row["calls"])
    found = []
    for row in conn.execute(_RUNS_SQL):
        fields = dict(row)
        run_id = fields["run_id"]
        for extra in (usage, tools, compactions):
            fields.update({k: v for k, v in extra.get(run_id, {}).items() if k != "run_id"})
        fields["aux_calls"] = aux.get(run_id, {})
        found.append(_metrics(fields))
    return found


def _usage_fields(row: sqlite3.Row) -> dict[str, Any]:
    raw = dict(row)
    fields = {k: v for k, v in raw.items() if not k.endswith(("_sum", "_n")) and k != "n"}
    fields["uncached_input_tokens"] = row["uncached_sum"] if row["uncached_n"] == row["n"] else None
    fields["cost_usd"] = row["cost_sum"] if row["cost_n"] else None
    return fields


def _metrics(fields: dict[str, Any]) -> RunMetrics:
    for name in ("agent_seconds", "lifecycle_seconds", "judge_seconds"):
        fields[name] = float(fields[name] or 0.0)
    for name in (
        "main_calls", "tool_calls", "tool_result_bytes", "input_tokens", "output_tokens",
        "cache_read_tokens", "cache_write_tokens", "compactions_requested",
        "compactions_completed", "compactions_failed", "compactions_natural",
    ):  # fmt: skip
        fields[name] = int(fields.get(name) or 0)
    fields.setdefault("uncached_input_tokens", 0)
    fields.setdefault("cost_usd", None)
    fields.setdefault("peak_context_tokens", None)
    return RunMetrics(**fields)
