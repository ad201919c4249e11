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
* each figure of a set of runs combines as its field of :class:`~benchsmith.running.metrics.Usage`
  says: a sum, a sum known only when every run knows it (uncached input, cost, final
  response tokens) or the largest value (peak context);
* ``prompt_cache_reuse = cache_read / (uncached_input + cache_read + cache_write)`` only
  when every run in the set reports uncached input separately;
* retention (spec section 4) is per compaction: whether every check that passed at the stage
  verdict just before it still passes in the final verdict
  (:func:`benchsmith.runtime.run.retention`); a group counts the compactions of its scored
  runs where that can be told and those after which nothing was lost.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, TypeVar

from benchsmith.errors import UsageError
from benchsmith.running.metrics import (
    Spec,
    Total,
    Usage,
    combine_runs,
    event_totals,
    figures_of,
    make_usage,
)
from benchsmith.running.records import usage_rows
from benchsmith.runtime.run import SETTING_KEYS, retention, verdict_checks

T = TypeVar("T")
LEVELS = tuple(range(6))
PRESSURE_ORDER = ("N", "L", "M", "H")


@dataclass(frozen=True, slots=True)
class Retention:
    """One compaction of a run and whether the checks passed before it were kept.

    Attributes:
        compaction: Its number within the run.
        trigger: ``requested`` or ``natural``.
        after_stage: The stage answered before it (natural: the stage it happened in).
        passed_before: Checks passed at the stage verdict before it (still applying at the end).
        lost: Those failing in the final verdict.
        retained: Whether none was lost (``None``: cannot be told; see ``reason``).
        reason: Why it cannot be told.
    """

    compaction: int
    trigger: str
    after_stage: int
    passed_before: int
    lost: tuple[str, ...]
    retained: bool | None
    reason: str


@dataclass(frozen=True, slots=True)
class RunMetrics:
    """One recorded run: who, what and how it ended, and its :class:`Usage` figures."""

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
    usage: Usage = field(default_factory=Usage)
    retention: tuple[Retention, ...] = ()
    settings: tuple[tuple[str, str], ...] = ()
    started_at: str = ""
    aux_by_kind: tuple[tuple[str, int], ...] = ()
    checks: tuple[tuple[str, bool], ...] = ()
    """The final verdict's checks as (name, passed), ``fixture:name`` off the main fixture."""

    def setting(self, key: str) -> str:
        """A reported agent setting as canonical JSON (``null`` when not reported)."""
        return dict(self.settings).get(key, "null")

    @property
    def scored(self) -> bool:
        """A finished primary-or-diagnostic run whose judge returned pass or fail."""
        return self.status == "finished" and self.verdict_status in ("pass", "fail")

    @property
    def strict_pass(self) -> bool:
        """Level 5 with status pass."""
        return self.verdict_status == "pass" and self.level == 5


@dataclass(frozen=True, slots=True)
class Figures(Usage):
    """The :class:`Usage` of a set of runs, each figure combined by its ``Metric.total``.

    Summed figures are totals (divide by ``runs`` for means); a maximum stays the largest.
    """

    runs: int = 0

    def mean(self, name: str) -> float | None:
        """The per-run mean of a summed figure (``None`` when unknown or no runs)."""
        value = getattr(self, name)
        return None if value is None or not self.runs else float(value) / self.runs

    def per_run(self, spec: Spec) -> float | None:
        """What tables show per run: the mean of a summed figure, or the maximum itself."""
        if spec.metric.total is Total.MAX:
            value = getattr(self, spec.name)
            return None if value is None else float(value)
        return self.mean(spec.name)


def figures(runs: Sequence[RunMetrics]) -> Figures:
    """The figures of ``runs`` (unknown when a rule needs every run and one does not know)."""
    return Figures(runs=len(runs), **figures_of(combine_runs([r.usage for r in runs])))


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
        compactions_told: Compactions of the scored runs whose retention can be told.
        compactions_retained: Those after which every earlier passing check still passed.
        aux_by_kind: Auxiliary calls of the scored runs by kind (totals), sorted by kind.
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
    compactions_told: int = 0
    compactions_retained: int = 0
    aux_by_kind: tuple[tuple[str, int], ...] = ()

    @property
    def retention_rate(self) -> float | None:
        """``compactions_retained / compactions_told`` (``None`` when none can be told)."""
        told = self.compactions_told
        return self.compactions_retained / told if told else None


def summarize(arm: str, key: str, runs: Sequence[RunMetrics]) -> SummaryRow:
    """The summary of one arm over ``runs`` (primary, finished)."""
    scored = [r for r in runs if r.scored]
    passes = sum(r.strict_pass for r in scored)
    told = [c.retained for r in scored for c in r.retention if c.retained is not None]
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
        compactions_told=len(told),
        compactions_retained=sum(told),
        aux_by_kind=_sum_kinds(r.aux_by_kind for r in scored),
    )


def _sum_kinds(runs: Iterable[tuple[tuple[str, int], ...]]) -> tuple[tuple[str, int], ...]:
    totals: dict[str, int] = {}
    for kinds in runs:
        for kind, calls in kinds:
            totals[kind] = totals.get(kind, 0) + calls
    return tuple(sorted(totals.items()))


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
        pairs: The strict-pass pairs as (A run id, B run id), sorted by task and repeat.
    """

    key: str
    matched: int
    a_passes: int
    b_passes: int
    strict_pairs: int
    a: Figures
    b: Figures
    pairs: tuple[tuple[str, str], ...] = ()


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
        pairs=tuple((a.run_id, b.run_id) for a, b in strict),
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
    for key in SETTING_KEYS:
        differ = [(a, b) for a, b in pairs if a.setting(key) != b.setting(key)]
        if differ:
            a, b = differ[0]
            found.append(
                f"{len(differ)} matched pair(s) ran with a different {key} "
                f"(e.g. {a.task} repeat {a.repeat}: {a.setting(key)} vs {b.setting(key)})"
            )
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
class CheckShare:
    """How often one check of a task failed among one arm's scored runs that reported it.

    Attributes:
        task: The task.
        check: The check (``fixture:name`` off the main fixture).
        arm: The arm.
        failing: Run ids whose final verdict failed the check, sorted.
        judged: Scored runs whose final verdict reported the check.
    """

    task: str
    check: str
    arm: str
    failing: tuple[str, ...]
    judged: int

    @property
    def share(self) -> float:
        """``len(failing) / judged``."""
        return len(self.failing) / self.judged if self.judged else 0.0


def check_shares(runs: Sequence[RunMetrics], arms: Sequence[str]) -> tuple[CheckShare, ...]:
    """Per task, check and arm, the scored runs failing the check, for every check some run
    failed: by task, then the largest share of any arm first, then check and arm order."""
    judged: dict[tuple[str, str, str], list[tuple[str, bool]]] = {}
    for run in runs:
        if run.scored:
            for name, passed in run.checks:
                judged.setdefault((run.task, name, run.arm), []).append((run.run_id, passed))
    failed = {
        (task, name) for (task, name, _), seen in judged.items() if any(not p for _, p in seen)
    }
    shares = [
        CheckShare(task, name, arm, tuple(sorted(r for r, p in seen if not p)), len(seen))
        for (task, name, arm), seen in judged.items()
        if (task, name) in failed
    ]
    worst: dict[tuple[str, str], float] = {}
    for share in shares:
        key = (share.task, share.check)
        worst[key] = max(worst.get(key, 0.0), share.share)
    rank = {arm: n for n, arm in enumerate(arms)}
    shares.sort(key=lambda c: (c.task, -worst[(c.task, c.check)], c.check, rank.get(c.arm, 0)))
    return tuple(shares)


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
        lost: The scored primary runs of the shown arms with a compaction after which an
            earlier passing check failed in the end, with those compactions.
        task_order: Each shown arm's primary runs in the order they started (spec 7.1: an
            online-learning arm's results depend on it), as ``NN-slug rNNN``.
        runs: The finished primary runs of the shown arms, by task, arm (in ``arms`` order)
            and repeat: the cells of the task x arm matrix.
        checks: For each check some scored run of the shown arms failed, the share of each
            arm's runs failing it (:func:`check_shares`).
    """

    arms: tuple[str, ...]
    by_task: tuple[SummaryRow, ...]
    by_pressure: tuple[SummaryRow, ...]
    corpus: tuple[SummaryRow, ...]
    comparison: Comparison | None
    diagnostic: tuple[RunMetrics, ...]
    unfinished: tuple[RunMetrics, ...]
    lost: tuple[tuple[RunMetrics, tuple[Retention, ...]], ...] = ()
    task_order: tuple[tuple[str, tuple[str, ...]], ...] = ()
    runs: tuple[RunMetrics, ...] = ()
    checks: tuple[CheckShare, ...] = ()

    def run(self, run_id: str) -> RunMetrics | None:
        """The primary run ``run_id`` of :attr:`runs` (``None`` when not shown)."""
        return next((r for r in self.runs if r.run_id == run_id), None)


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
        lost=tuple(
            (r, lost)
            for r in main
            if r.scored and (lost := tuple(c for c in r.retention if c.retained is False))
        ),
        task_order=tuple((arm, task_order([r for r in main if r.arm == arm])) for arm in chosen),
        runs=tuple(sorted(main, key=lambda r: (r.task, chosen.index(r.arm), r.repeat))),
        checks=check_shares(main, chosen),
    )


def task_order(runs: Sequence[RunMetrics]) -> tuple[str, ...]:
    """``NN-slug rNNN`` of ``runs`` by start time (then run id, for runs started together)."""
    ordered = sorted(runs, key=lambda r: (r.started_at, r.run_id))
    return tuple(f"{r.task} r{r.repeat:03d}" for r in ordered)


# -- loading --------------------------------------------------------------------------------

_RUNS_SQL = """
SELECT r.*, v.status AS verdict_status, v.progress_level AS level
FROM runs r LEFT JOIN verdicts v ON v.run_id = r.run_id
ORDER BY r.arm, r.task, r.kind, r.repeat
"""

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


_RETENTION_SQL = {
    "compactions": "SELECT run_id, number, after_stage, trigger, status FROM compactions "
    "ORDER BY run_id, number",
    "stages": "SELECT run_id, stage, status, raw FROM stage_verdicts ORDER BY run_id, stage",
    "final": "SELECT run_id, status, raw FROM verdicts",
}


def _checked(status: str | None, raw: str | None) -> dict[str, Any] | None:
    """A stored verdict as :func:`~benchsmith.runtime.run.retention` reads it."""
    if status is None:
        return None
    return {"status": status, "checks": verdict_checks(json.loads(raw) if raw else None)}


def load_retention(conn: sqlite3.Connection) -> dict[str, tuple[Retention, ...]]:
    """Each run's compactions with their retention, from the stored verdicts' checks."""
    compactions: dict[str, list[dict[str, Any]]] = {}
    for row in conn.execute(_RETENTION_SQL["compactions"]):
        compactions.setdefault(row["run_id"], []).append(dict(row))
    stages: dict[str, list[dict[str, Any]]] = {}
    for row in conn.execute(_RETENTION_SQL["stages"]):
        verdict = _checked(row["status"], row["raw"])
        stages.setdefault(row["run_id"], []).append({"stage": row["stage"], "verdict": verdict})
    finals = {
        r["run_id"]: _checked(r["status"], r["raw"]) for r in conn.execute(_RETENTION_SQL["final"])
    }
    found = {}
    for run_id, mine in compactions.items():
        entries = retention(mine, stages.get(run_id, []), finals.get(run_id))
        found[run_id] = tuple(
            Retention(
                e["compaction"], e["trigger"], e["after_stage"], e["passed_before"],
                tuple(e["lost"]), e["retained"], e["reason"],
            )
            for e in entries
        )  # fmt: skip
    return found


def load_metrics(conn: sqlite3.Connection) -> list[RunMetrics]:
    """One :class:`RunMetrics` per recorded run.

    Every :class:`Usage` figure is read by its field name: the reported ones from the run's
    ``usage`` rows (combined as run.json combines its events), the runner's from a column of
    ``runs`` (times, final response tokens) or of the tool-call and compaction queries.
    """
    usage: dict[str, list[dict[str, Any]]] = {}
    for row in usage_rows(conn):
        usage.setdefault(row["run_id"], []).append(_event_of(row))
    measured = {row["run_id"]: dict(row) for row in conn.execute(_TOOLS_SQL)}
    for row in conn.execute(_COMPACTIONS_SQL):
        measured.setdefault(row["run_id"], {}).update(dict(row))
    kept = load_retention(conn)
    checks = {
        row["run_id"]: _final_checks(row["raw"])
        for row in conn.execute("SELECT run_id, raw FROM verdicts")
    }
    found = []
    for row in conn.execute(_RUNS_SQL):
        run_id = row["run_id"]
        values = {**dict(row), **measured.get(run_id, {})}
        values.update(event_totals(usage.get(run_id, [])))
        found.append(
            replace(
                _metrics(values), retention=kept.get(run_id, ()),
                settings=_settings(values.get("settings")), started_at=row["started_at"] or "",
                aux_by_kind=_aux_by_kind(usage.get(run_id, [])), checks=checks.get(run_id, ()),
            )
        )  # fmt: skip
    return found


def _final_checks(raw: str | None) -> tuple[tuple[str, bool], ...]:
    """A stored verdict's checks as (name, passed); ``fixture:name`` off the main fixture."""
    try:
        printed = json.loads(raw) if raw else None
    except ValueError:
        printed = None
    return tuple(
        (c["name"] if c["fixture"] == "main" else f"{c['fixture']}:{c['name']}", c["passed"])
        for c in verdict_checks(printed)
    )


def _settings(stored: str | None) -> tuple[tuple[str, str], ...]:
    """The stored agent settings, each value as canonical JSON."""
    try:
        values = json.loads(stored) if stored else {}
    except ValueError:
        values = {}
    return tuple(sorted((k, json.dumps(v, sort_keys=True)) for k, v in values.items()))


def _aux_by_kind(events: Sequence[dict[str, Any]]) -> tuple[tuple[str, int], ...]:
    """Auxiliary calls of a run by kind (``calls`` counts 1 when absent)."""
    counts: dict[str, int] = {}
    for event in events:
        if event["kind"] != "main":
            counts[event["kind"]] = counts.get(event["kind"], 0) + int(event.get("calls", 1))
    return tuple(sorted(counts.items()))


def _event_of(row: sqlite3.Row) -> dict[str, Any]:
    """A usage row as the event it stored: a NULL measure was not reported."""
    return {key: row[key] for key in row.keys() if row[key] is not None}  # noqa: SIM118


def _metrics(values: dict[str, Any]) -> RunMetrics:
    return RunMetrics(
        run_id=values["run_id"],
        arm=values["arm"],
        task=values["task"],
        pressure=values["pressure"],
        repeat=values["repeat"],
        kind=values["kind"],
        status=values["status"],
        end_reason=values["end_reason"],
        verdict_status=values["verdict_status"],
        level=values["level"],
        task_digest=values["task_digest"],
        timeout_seconds=values["timeout_seconds"],
        usage=make_usage(values),
    )
