"""Per-run figures (spec section 7), each defined once: as a field of :class:`Usage`.

Every field carries a :class:`Metric` (label, unit, how runs combine, how tables show it)
and, when adapters report it in ``usage`` events, an :class:`EventField` (the event key,
which is also the column of runs.db's ``usage`` table, and how a run's events combine).
From those fields come the adapter protocol's usage keys, the ``usage`` table (DDL, INSERT
and SELECT in ``records.py``), run.json's ``usage`` object, the aggregation of
``report.py`` and the columns of every report format. Adding a metric is adding a field.

The rules, shared by run.json and the report:

* a ``usage`` event counts ``calls`` model calls (1 when absent); ``kind == "main"`` calls
  are main-model calls, any other kind is an auxiliary call of that kind;
* ``uncached_input_tokens`` is known for a run only when every usage event reports it (a
  run without usage events knows it vacuously: 0); otherwise it is ``None`` and no cache
  ratio is derived;
* cost is the sum of the reported ``cost_usd`` values, ``None`` when none was reported;
* tool-result bytes are the sum of ``result_bytes`` over ``tool_call`` events;
* the final response tokens are those of the last ``assistant`` event that reports them.

Figures that adapters do not report per usage event (times, tool calls, compactions, the
final response) are measured by the runner and read from their own tables by the report.
"""

from __future__ import annotations

import enum
import functools
import typing
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from typing import Any, Literal, TypeVar

T = TypeVar("T")
Number = int | float
METRIC = "metric"


class Total(enum.Enum):
    """How several values of one metric combine into one (``None`` is unknown)."""

    SUM = "sum"
    """The sum; values are never unknown."""
    KNOWN = "sum of known"
    """The sum when every value is known, else unknown (no values: 0)."""
    REPORTED = "sum of reported"
    """The sum of the known values; unknown when none is known."""
    MAX = "max"
    """The largest known value; unknown when none is known."""

    def combine(self, values: Sequence[Number | None]) -> Number | None:
        """Combine ``values`` by this rule."""
        known = [v for v in values if v is not None]
        if self is Total.MAX:
            return max(known) if known else None
        if self is Total.REPORTED and not known:
            return None
        if self is Total.KNOWN and len(known) < len(values):
            return None
        return sum(known)


@dataclass(frozen=True, slots=True)
class EventField:
    """Where a metric comes from in an adapter's ``usage`` events.

    Attributes:
        key: The event key, also the column of runs.db's ``usage`` table.
        total: How the events of one run combine.
        default: The value of an event that omits the key (``None``: not reported).
        required: Whether every usage event must carry the key.
        kind: Count only events of this kind (``main``, or ``aux`` for every other kind).
    """

    key: str
    total: Total = Total.SUM
    default: int | None = 0
    required: bool = False
    kind: Literal["main", "aux"] | None = None

    def counts(self, event: Mapping[str, Any]) -> bool:
        """Whether ``event`` (a usage event or usage-table row) counts for this metric."""
        if self.kind is None:
            return True
        return bool(event["kind"] == "main") == (self.kind == "main")


@dataclass(frozen=True, slots=True)
class Metric:
    """What one field of :class:`Usage` means and how reports show it.

    Attributes:
        label: The metric in words (comparison rows, JSON legend).
        header: Short column header of text and HTML tables.
        unit: The unit of its values.
        total: How the runs of a group combine.
        digits: Decimals of a per-run mean in tables.
        scale: Tables show per-run values divided by this (1024: bytes as KiB).
        compare: Whether the by-group comparison tables show it for both arms.
        event: Where adapters report it, when they do (``None``: the runner measures it).
    """

    label: str
    header: str
    unit: str
    total: Total = Total.SUM
    digits: int = 1
    scale: int = 1
    compare: bool = False
    event: EventField | None = None


def measure(default: T, metric: Metric) -> T:
    """A :class:`Usage` field: its empty-run value and its :class:`Metric`."""
    return field(default=default, metadata={METRIC: metric})


_TOKENS = "tokens"
_CALLS = EventField("calls", default=1)
"""Model calls of a usage event; ``kind`` splits them into main and auxiliary calls."""


@dataclass(frozen=True, slots=True)
class Usage:
    """What one run (or, summed, a set of runs) used; field defaults are an empty run's."""

    # fmt: off
    agent_seconds: float = measure(0.0, Metric("agent seconds", "agent s", "s", compare=True))
    lifecycle_seconds: float = measure(0.0, Metric("lifecycle seconds", "life s", "s"))
    judge_seconds: float = measure(0.0, Metric("judge seconds", "judge s", "s"))
    main_calls: int = measure(0, Metric(
        "main-model calls", "calls", "calls", compare=True, event=replace(_CALLS, kind="main")))
    aux_calls: int = measure(0, Metric(
        "auxiliary calls", "aux", "calls", event=replace(_CALLS, kind="aux")))
    tool_calls: int = measure(0, Metric("tool calls", "tools", "calls"))
    tool_result_bytes: int = measure(0, Metric(
        "tool-result bytes", "tool KiB", "bytes", scale=1024))
    compactions_requested: int = measure(0, Metric(
        "compactions requested", "compact req", "compactions"))
    compactions_completed: int = measure(0, Metric(
        "compactions completed", "compact ok", "compactions"))
    compactions_failed: int = measure(0, Metric(
        "compactions failed", "compact fail", "compactions"))
    compactions_natural: int = measure(0, Metric(
        "natural compactions", "compact nat", "compactions"))
    input_tokens: int = measure(0, Metric(
        "input tokens (as reported)", "input", _TOKENS, digits=0,
        event=EventField("input_tokens", required=True)))
    uncached_input_tokens: int | None = measure(0, Metric(
        "uncached input tokens", "uncached", _TOKENS, Total.KNOWN, digits=0,
        event=EventField("uncached_input_tokens", Total.KNOWN, default=None)))
    output_tokens: int = measure(0, Metric(
        "output tokens", "output", _TOKENS, digits=0,
        event=EventField("output_tokens", required=True)))
    cache_read_tokens: int = measure(0, Metric(
        "cache-read tokens", "cache rd", _TOKENS, digits=0,
        event=EventField("cache_read_tokens")))
    cache_write_tokens: int = measure(0, Metric(
        "cache-write tokens", "cache wr", _TOKENS, digits=0,
        event=EventField("cache_write_tokens")))
    cost_usd: float | None = measure(None, Metric(
        "cost USD", "cost $", "USD", Total.KNOWN, digits=4, compare=True,
        event=EventField("cost_usd", Total.REPORTED, default=None)))
    final_response_tokens: int | None = measure(None, Metric(
        "final response tokens", "final", _TOKENS, Total.KNOWN, digits=0))
    peak_context_tokens: int | None = measure(None, Metric(
        "peak context tokens (max)", "peak ctx", _TOKENS, Total.MAX, digits=0,
        event=EventField("context_tokens", Total.MAX, default=None)))
    # fmt: on

    @property
    def prompt_cache_reuse(self) -> float | None:
        """``cache_read / (uncached + cache_read + cache_write)`` (see :func:`cache_reuse`)."""
        return cache_reuse(
            self.uncached_input_tokens, self.cache_read_tokens, self.cache_write_tokens
        )


@dataclass(frozen=True, slots=True)
class Spec:
    """A field of :class:`Usage` with everything derived from its declaration.

    Attributes:
        name: The field name (JSON key; runs.db column for runner-measured figures).
        metric: Its :class:`Metric`.
        type: ``int`` or ``float``.
        nullable: Whether the value may be unknown (``None``).
        default: An empty run's value.
    """

    name: str
    metric: Metric
    type: type[int] | type[float]
    nullable: bool
    default: Number | None


@functools.cache
def specs() -> tuple[Spec, ...]:
    """Every metric, in field order (the order of report columns).

    Raises:
        TypeError: When a field is not an ``int`` or a ``float`` (optionally ``None``).
    """
    hints = typing.get_type_hints(Usage)
    found = []
    for item in fields(Usage):
        args = set(typing.get_args(hints[item.name])) or {hints[item.name]}
        numbers = args - {type(None)}
        if numbers not in ({int}, {float}):
            raise TypeError(f"Usage.{item.name}: a metric is an int or a float, maybe None")
        kind: type[int] | type[float] = float if float in numbers else int
        default = typing.cast(Number | None, item.default)
        found.append(Spec(item.name, item.metadata[METRIC], kind, type(None) in args, default))
    return tuple(found)


def event_specs() -> tuple[tuple[Spec, EventField], ...]:
    """The metrics adapters report in usage events, with their :class:`EventField`."""
    return tuple((s, s.metric.event) for s in specs() if s.metric.event is not None)


@dataclass(frozen=True, slots=True)
class Column:
    """A measure column of runs.db's ``usage`` table (one per distinct event key).

    Attributes:
        key: Column name and usage-event key.
        type: ``int`` or ``float``.
        default: Stored when an event omits the key (``None``: NULL, the column is nullable).
        required: Whether every usage event must carry the key.
    """

    key: str
    type: type[int] | type[float]
    default: int | None
    required: bool

    @property
    def sql(self) -> str:
        """The column's SQL type and constraint."""
        kind = "REAL" if self.type is float else "INTEGER"
        return kind if self.default is None else f"{kind} NOT NULL"


@functools.cache
def usage_columns() -> tuple[Column, ...]:
    """The measure columns of the ``usage`` table, in field order.

    Raises:
        TypeError: When two metrics read one event key differently.
    """
    columns: dict[str, Column] = {}
    for spec, event in event_specs():
        column = Column(event.key, spec.type, event.default, event.required)
        if columns.setdefault(event.key, column) != column:
            raise TypeError(f"Usage.{spec.name}: event key {event.key!r} read differently")
    return tuple(columns.values())


def event_values(event: Mapping[str, Any]) -> tuple[Number | None, ...]:
    """One usage event's value of every :func:`usage_columns` column."""
    return tuple(event.get(c.key, c.default) for c in usage_columns())


def make_usage(values: Mapping[str, Any]) -> Usage:
    """A :class:`Usage` from figures by field name (others ignored).

    A missing figure, or an unknown one the field cannot hold, takes the field's default.
    """
    found: dict[str, Number | None] = {}
    for spec in specs():
        value = values.get(spec.name)
        if value is None and (spec.name not in values or not spec.nullable):
            value = spec.default
        found[spec.name] = None if value is None else spec.type(value)
    return Usage(**found)  # type: ignore[arg-type]


def figures_of(usage: Usage) -> dict[str, Any]:
    """Every figure of ``usage`` by field name."""
    return {spec.name: getattr(usage, spec.name) for spec in specs()}


def usage_events(events: Iterable[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """The ``usage`` events among ``events``."""
    return [e for e in events if e.get("type") == "usage"]


def event_totals(usage: Sequence[Mapping[str, Any]]) -> dict[str, Number | None]:
    """The reported figures of one run from its usage events (or ``usage`` table rows)."""
    totals = {}
    for spec, event in event_specs():
        values = [e.get(event.key, event.default) for e in usage if event.counts(e)]
        totals[spec.name] = event.total.combine(values)
    return totals


def combine_runs(runs: Sequence[Usage]) -> Usage:
    """The figures of a set of runs, each combined by its :attr:`Metric.total`.

    No runs have an empty run's figures (so a cost over no runs is unknown, not 0).
    """
    if not runs:
        return Usage()
    return make_usage(
        {s.name: s.metric.total.combine([getattr(r, s.name) for r in runs]) for s in specs()}
    )


def usage_record(events: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
    """run.json's ``usage`` object: the reported figures of a run from its adapter events.

    Auxiliary calls appear by kind here (their total everywhere else), with the derived
    ``prompt_cache_reuse`` and the models seen.
    """
    usage = usage_events(events)
    totals = make_usage(event_totals(usage))
    record: dict[str, Any] = {s.name: getattr(totals, s.name) for s, _ in event_specs()}
    record["aux_calls"] = aux_calls_by_kind(usage)
    record["prompt_cache_reuse"] = totals.prompt_cache_reuse
    record["models"] = sorted({str(e["model"]) for e in usage})
    return record


def aux_calls_by_kind(usage: Sequence[Mapping[str, Any]]) -> dict[str, int]:
    """Auxiliary calls by kind, sorted by kind (each kind counted as ``aux_calls`` counts)."""
    kinds = sorted({str(e["kind"]) for e in usage} - {"main"})
    return {
        kind: int(event_totals([e for e in usage if e["kind"] == kind])["aux_calls"] or 0)
        for kind in kinds
    }


def tool_totals(events: Iterable[Mapping[str, Any]]) -> tuple[int, int]:
    """(tool calls, tool-result bytes) over ``tool_call`` events."""
    calls = [e for e in events if e.get("type") == "tool_call"]
    return len(calls), sum(int(e["result_bytes"]) for e in calls)


def final_response_tokens(events: Iterable[Mapping[str, Any]]) -> int | None:
    """Tokens of the last assistant event that reports them."""
    found = None
    for event in events:
        if event.get("type") == "assistant" and "tokens" in event:
            found = int(event["tokens"])
    return found


def cache_reuse(uncached: int | None, cache_read: int, cache_write: int) -> float | None:
    """``cache_read / (uncached + cache_read + cache_write)``; ``None`` when not derivable.

    Derived only when uncached input is known separately (spec section 7): a provider that
    folds cached tokens into its input field gets no ratio rather than a double count.
    """
    if uncached is None:
        return None
    total = uncached + cache_read + cache_write
    return cache_read / total if total else None
