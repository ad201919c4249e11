"""Support SLA report: first response and resolution times per ticket, breaches by priority.

Usage: python -m solution.sla_report inputs/events.jsonl inputs/sla.json --output output

The event file is read one line at a time; per ticket only one integer per event (instant,
position and type packed together) is kept, so memory stays far below the size of the file.
"""

from __future__ import annotations

import argparse
import csv
import datetime as dt
import json
import sys
from pathlib import Path

HEADER = [
    "ticket_id",
    "priority",
    "created_at",
    "status",
    "reopen_count",
    "first_response_seconds",
    "first_response_breached",
    "resolution_seconds",
    "resolution_breached",
]


def instant(text: str) -> int:
    """Seconds since the epoch of an ISO 8601 timestamp with a UTC offset."""
    return int(dt.datetime.fromisoformat(text).timestamp())


def utc(seconds: int) -> str:
    return dt.datetime.fromtimestamp(seconds, dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


KINDS = [
    "created",
    "agent_reply",
    "bot_reply",
    "waiting_customer",
    "customer_reply",
    "resolved",
    "reopened",
]
CODE = {kind: code for code, kind in enumerate(KINDS)}
CREATED, AGENT_REPLY, WAITING, CUSTOMER_REPLY, RESOLVED, REOPENED = 0, 1, 3, 4, 5, 6
LINE_BITS = 24  # line numbers below 2**24


def read_events(path: Path) -> tuple[dict[str, list[int]], dict[str, str]]:
    """Every ticket's events packed as one integer each; each ticket's priority.

    An event is ``((instant << LINE_BITS) | line) << 3 | type``: sorting the integers orders
    a ticket's events by instant, then by file position.
    """
    seen: set[str] = set()
    events: dict[str, list[int]] = {}
    priority: dict[str, str] = {}
    with path.open(encoding="utf-8") as lines:
        for number, line in enumerate(lines):
            if not line.strip():
                continue
            event = json.loads(line)
            if event["event_id"] in seen:
                continue
            seen.add(event["event_id"])
            ticket, code = event["ticket_id"], CODE[event["type"]]
            packed = ((instant(event["at"]) << LINE_BITS) | number) << 3 | code
            events.setdefault(ticket, []).append(packed)
            if code == CREATED:
                priority[ticket] = event["priority"]
    return events, priority


def measure(packed: list[int]) -> dict[str, object]:
    """One ticket's times from its events in time order."""
    history = [(p >> (LINE_BITS + 3), p & 7) for p in sorted(packed)]
    created = next(at for at, kind in history if kind == CREATED)
    replies = [at for at, kind in history if kind == AGENT_REPLY]
    closing = [i for i, (_, kind) in enumerate(history) if kind in (RESOLVED, REOPENED)]
    resolved = bool(closing) and history[closing[-1]][1] == RESOLVED
    resolution = None
    if resolved:
        paused, excluded = None, 0
        for at, kind in history[: closing[-1] + 1]:
            if kind == WAITING and paused is None:
                paused = at
            elif kind == CUSTOMER_REPLY and paused is not None:
                excluded += at - paused
                paused = None
        resolution = history[closing[-1]][0] - created - excluded
    return {
        "created": created,
        "first_response": replies[0] - created if replies else None,
        "resolution": resolution,
        "resolved": resolved,
        "reopens": sum(1 for _, kind in history if kind == REOPENED),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("events", type=Path)
    parser.add_argument("sla", type=Path)
    parser.add_argument("--output", type=Path, required=True)
    args = parser.parse_args(argv)

    targets = json.loads(args.sla.read_text(encoding="utf-8"))["targets"]
    events, priority = read_events(args.events)
    summary: dict[str, object] = {
        "tickets": 0,
        "resolved": 0,
        "open": 0,
        "first_response_breaches": 0,
        "resolution_breaches": 0,
    }
    by_priority = {
        p: {"tickets": 0, "first_response_breaches": 0, "resolution_breaches": 0}
        for p in sorted(targets)
    }
    args.output.mkdir(parents=True, exist_ok=True)
    with (args.output / "tickets.csv").open("w", encoding="utf-8", newline="") as stream:
        writer = csv.writer(stream, lineterminator="\n")
        writer.writerow(HEADER)
        for ticket in sorted(events):
            times = measure(events.pop(ticket))
            level = priority[ticket]
            target = targets[level]
            first = times["first_response"]
            first_breached = first is None or first > target["first_response_minutes"] * 60
            resolution = times["resolution"]
            resolution_breached = (
                resolution is not None and resolution > target["resolution_minutes"] * 60
            )
            writer.writerow(
                [
                    ticket,
                    level,
                    utc(times["created"]),
                    "resolved" if times["resolved"] else "open",
                    times["reopens"],
                    "" if first is None else first,
                    "true" if first_breached else "false",
                    "" if resolution is None else resolution,
                    "true" if resolution_breached else "false",
                ]
            )
            summary["tickets"] += 1
            summary["resolved" if times["resolved"] else "open"] += 1
            summary["first_response_breaches"] += first_breached
            summary["resolution_breaches"] += resolution_breached
            counts = by_priority[level]
            counts["tickets"] += 1
            counts["first_response_breaches"] += first_breached
            counts["resolution_breaches"] += resolution_breached
    summary["by_priority"] = by_priority
    (args.output / "summary.json").write_text(
        json.dumps(summary, indent=2, sort_keys=True) + "\n", encoding="utf-8"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
