"""Per-run figures derived from a run's events (spec section 7).

The rules, shared by run.json and the report:

* a ``usage`` event counts ``calls`` model calls (1 when absent); ``kind == "main"`` calls
  are main-model calls, any other kind is an auxiliary call of that kind;
* ``uncached_input_tokens`` is known for a run only when every usage event reports it (a
  run without usage events knows it vacuously: 0); otherwise it is ``None`` and no cache
  ratio is derived;
* cost is the sum of the reported ``cost_usd`` values, ``None`` when none was reported;
* tool-result bytes are the sum of ``result_bytes`` over ``tool_call`` events;
* the final response tokens are those of the last ``assistant`` event that reports them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class UsageTotals:
    """Provider usage summed over a run.

    Attributes:
        main_calls: Main-model calls.
        aux_calls: Auxiliary calls by kind.
        input_tokens: Sum of the provider's input field, as reported.
        uncached_input_tokens: Sum of uncached input, or ``None`` when not always reported.
        output_tokens: Output tokens.
        cache_read_tokens: Cache-read tokens.
        cache_write_tokens: Cache-write tokens.
        cost_usd: Reported cost, or ``None`` when no event reported one.
        peak_context_tokens: Largest ``context_tokens`` reported, if any.
        models: Models seen, sorted.
    """

    main_calls: int = 0
    aux_calls: Mapping[str, int] = field(default_factory=dict)
    input_tokens: int = 0
    uncached_input_tokens: int | None = 0
    output_tokens: int = 0
    cache_read_tokens: int = 0
    cache_write_tokens: int = 0
    cost_usd: float | None = None
    peak_context_tokens: int | None = None
    models: tuple[str, ...] = ()


def usage_totals(events: Iterable[Mapping[str, Any]]) -> UsageTotals:
    """Sum the ``usage`` events among ``events``."""
    usage = [e for e in events if e.get("type") == "usage"]
    aux: dict[str, int] = {}
    for event in usage:
        if event["kind"] != "main":
            aux[event["kind"]] = aux.get(event["kind"], 0) + calls_of(event)
    costs = [float(e["cost_usd"]) for e in usage if "cost_usd" in e]
    contexts = [int(e["context_tokens"]) for e in usage if "context_tokens" in e]
    uncached = [e.get("uncached_input_tokens") for e in usage]
    return UsageTotals(
        main_calls=sum(calls_of(e) for e in usage if e["kind"] == "main"),
        aux_calls=dict(sorted(aux.items())),
        input_tokens=_sum(usage, "input_tokens"),
        uncached_input_tokens=None if None in uncached else sum(int(u or 0) for u in uncached),
        output_tokens=_sum(usage, "output_tokens"),
        cache_read_tokens=_sum(usage, "cache_read_tokens"),
        cache_write_tokens=_sum(usage, "cache_write_tokens"),
        cost_usd=sum(costs) if costs else None,
        peak_context_tokens=max(contexts) if contexts else None,
        models=tuple(sorted({str(e["model"]) for e in usage})),
    )


def calls_of(event: Mapping[str, Any]) -> int:
    """Model calls a usage event stands for."""
    return int(event.get("calls", 1))


def _sum(events: list[Mapping[str, Any]], key: str) -> int:
    return sum(int(e.get(key, 0)) for e in events)


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
