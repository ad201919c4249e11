# generated from task.toml by benchsmith -- edit only the authored region
"""Judge of task 9: Support SLA Event Analysis.

Usage: python judge.py --workspace WS [--stage N] [--python EXE] [--fixture-cache DIR]

Runs the candidate's commands on a clean main fixture and on the edge fixture, then prints
exactly one JSON verdict (spec section 6). The workspace is only read. With --stage N (a
1-based number or a stage id) it judges the state after stage N with the checks that apply
by then; without it, the final (scored) verdict.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.dont_write_bytecode = True  # keep __pycache__ out of the task and corpus folders

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import benchlib

TASK = {
    "id": 9,
    "slug": "sla-events",
    "stages": ["initial"],
    "editable": ["solution/", "output/"],
    "commands": [
        {
            "run": "python -m solution.sla_report inputs/events.jsonl inputs/sla.json --output output",
            "argv": [
                "python",
                "-m",
                "solution.sla_report",
                "inputs/events.jsonl",
                "inputs/sla.json",
                "--output",
                "output",
            ],
            "cwd": ".",
            "stdin": None,
            "stage": "initial",
            "timeout": 75.0,
            "memory_mb": 80,
        }
    ],
    "outputs": [
        {
            "path": "output/tickets.csv",
            "format": "csv",
            "header": [
                "ticket_id",
                "priority",
                "created_at",
                "status",
                "reopen_count",
                "first_response_seconds",
                "first_response_breached",
                "resolution_seconds",
                "resolution_breached",
            ],
            "stage": "initial",
        },
        {"path": "output/summary.json", "format": "json", "header": [], "stage": "initial"},
    ],
    "expect": [],
    "edge_expect": [
        {
            "name": "edge#1",
            "file": "output/tickets.csv",
            "level": 4,
            "where": {"ticket_id": "T-200051"},
            "equals": {
                "status": "resolved",
                "reopen_count": "1",
                "first_response_seconds": "2400",
                "first_response_breached": "false",
                "resolution_seconds": "18000",
                "resolution_breached": "false",
            },
        }
    ],
    "edge_include_visible": True,
    "services": [],
}

judge = benchlib.Judge(TASK)

# region authored: benchsmith keeps these lines when it rebuilds judge.py
import datetime as dt
import json

TICKETS = "output/tickets.csv"
SUMMARY = "output/summary.json"
COUNTS = ("first_response_breaches", "resolution_breaches")
# The anchor tickets of task.toml, their expected fields (private truths written by hand).
ANCHOR_ROWS = {
    "T-100417": {
        "first_response_seconds": "2460",
        "first_response_breached": "true",
        "resolution_seconds": "9000",
        "resolution_breached": "false",
    },
    "T-101205": {
        "status": "resolved",
        "first_response_seconds": "",
        "first_response_breached": "true",
        "resolution_seconds": "13800",
        "resolution_breached": "false",
    },
    "T-102388": {
        "first_response_seconds": "1200",
        "resolution_seconds": "5400",
        "resolution_breached": "false",
    },
    "T-103050": {"resolution_seconds": "32400", "resolution_breached": "true"},
    "T-104217": {"first_response_seconds": "3600", "resolution_seconds": "21600"},
    "T-105533": {"first_response_seconds": "7200", "resolution_seconds": "18000"},
    "T-106602": {
        "status": "resolved",
        "reopen_count": "1",
        "first_response_seconds": "600",
        "resolution_seconds": "15000",
        "resolution_breached": "true",
    },
    "T-107741": {
        "status": "open",
        "reopen_count": "1",
        "resolution_seconds": "",
        "resolution_breached": "false",
    },
    "T-108860": {
        "created_at": "2026-03-21T04:50:00Z",
        "first_response_seconds": "900",
        "first_response_breached": "false",
        "resolution_seconds": "10800",
        "resolution_breached": "false",
    },
    "T-109975": {
        "first_response_seconds": "3600",
        "first_response_breached": "false",
        "resolution_seconds": "28800",
        "resolution_breached": "false",
    },
    "T-110418": {"status": "resolved", "resolution_seconds": "39600"},
    "T-112006": {
        "status": "resolved",
        "reopen_count": "0",
        "resolution_seconds": "100800",
        "resolution_breached": "true",
    },
    "T-113377": {
        "first_response_seconds": "4800",
        "first_response_breached": "true",
        "resolution_seconds": "8400",
    },
    "T-114410": {
        "status": "open",
        "first_response_seconds": "",
        "first_response_breached": "true",
        "resolution_seconds": "",
        "resolution_breached": "false",
    },
}


class Desk:
    """TASK.md's measures recomputed from the pristine inputs, one ticket at a time."""

    def __init__(self, source: benchlib.Files) -> None:
        self.targets = source.json("inputs/sla.json")["targets"]
        seen: set[str] = set()
        timeline: dict[str, list[tuple[dt.datetime, int, str]]] = {}
        self.priority: dict[str, str] = {}
        for position, line in enumerate(source.text("inputs/events.jsonl").splitlines()):
            if not line.strip():
                continue
            event = json.loads(line)
            if event["event_id"] in seen:
                continue
            seen.add(event["event_id"])
            at = dt.datetime.fromisoformat(event["at"])
            timeline.setdefault(event["ticket_id"], []).append((at, position, event["type"]))
            if event["type"] == "created":
                self.priority[event["ticket_id"]] = event["priority"]
        self.rows = [self.row(t, sorted(timeline[t])) for t in sorted(timeline)]

    def row(self, ticket: str, events: list[tuple[dt.datetime, int, str]]) -> dict[str, str]:
        created = next(at for at, _, kind in events if kind == "created")
        target = self.targets[self.priority[ticket]]
        reply = next((at for at, _, kind in events if kind == "agent_reply"), None)
        first = None if reply is None else int((reply - created).total_seconds())
        last = max(
            (i for i, e in enumerate(events) if e[2] in ("resolved", "reopened")), default=-1
        )
        resolution = None
        if last >= 0 and events[last][2] == "resolved":
            waiting_since, waited = None, 0
            for at, _, kind in events[:last]:
                if kind == "waiting_customer" and waiting_since is None:
                    waiting_since = at
                if kind == "customer_reply" and waiting_since is not None:
                    waited += int((at - waiting_since).total_seconds())
                    waiting_since = None
            resolution = int((events[last][0] - created).total_seconds()) - waited
        first_late = first is None or first > 60 * target["first_response_minutes"]
        late = resolution is not None and resolution > 60 * target["resolution_minutes"]
        return {
            "ticket_id": ticket,
            "priority": self.priority[ticket],
            "created_at": created.astimezone(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
            "status": "open" if resolution is None else "resolved",
            "reopen_count": str(sum(1 for e in events if e[2] == "reopened")),
            "first_response_seconds": "" if first is None else str(first),
            "first_response_breached": "true" if first_late else "false",
            "resolution_seconds": "" if resolution is None else str(resolution),
            "resolution_breached": "true" if late else "false",
        }

    def summary(self) -> dict[str, object]:
        def counts(rows: list[dict[str, str]]) -> dict[str, int]:
            found = {"tickets": len(rows)}
            for name, field in zip(
                COUNTS, ("first_response_breached", "resolution_breached"), strict=True
            ):
                found[name] = sum(1 for r in rows if r[field] == "true")
            return found

        total: dict[str, object] = dict(counts(self.rows))
        for state in ("resolved", "open"):
            total[state] = sum(1 for r in self.rows if r["status"] == state)
        total["by_priority"] = {
            p: counts([r for r in self.rows if r["priority"] == p]) for p in self.targets
        }
        return total


def desk(run: benchlib.Run) -> Desk:
    return run.derived("desk", Desk)


def rows(run: benchlib.Run) -> list[dict[str, str]]:
    """The candidate's rows, one per ticket in the expected order (checked at level 3)."""
    if "rows" not in run.memo:
        run.memo["rows"] = run.csv(TICKETS)
    return run.memo["rows"]


def compare(run: benchlib.Run, fields: tuple[str, ...], what: str) -> None:
    """``fields`` of every ticket row equal the recomputed ones (first differences named)."""
    got, want = rows(run), desk(run).rows
    benchlib.expect_equal(len(got), len(want), "tickets.csv rows")
    wrong = [
        f"{w['ticket_id']}: {[g.get(f, '').strip() for f in fields]} != {[w[f] for f in fields]}"
        for g, w in zip(got, want, strict=True)
        if [g.get(f, "").strip() for f in fields] != [w[f] for f in fields]
    ]
    benchlib.expect(not wrong, f"{what}: {len(wrong)} ticket(s) wrong, e.g. {wrong[:3]}")


def strict_json(value: object) -> object:
    """JSON value with its types visible (so `true` never equals 1 and 3.0 never equals 3)."""
    if isinstance(value, dict):
        return {k: strict_json(v) for k, v in value.items()}
    return (type(value).__name__, value)


@judge.check(level=3)
def one_row_per_ticket(run: benchlib.Run) -> None:
    """Every ticket once, sorted by ticket_id, with its priority and UTC creation time."""
    compare(run, ("ticket_id", "priority", "created_at"), "ticket, priority, created_at")


@judge.check(level=3)
def ticket_state_mostly_right(run: benchlib.Run) -> None:
    """The resolved/open status agrees for at least 90 % of the tickets."""
    got, want = rows(run), desk(run).rows
    benchlib.expect_equal(len(got), len(want), "tickets.csv rows")
    agree = sum(1 for g, w in zip(got, want, strict=True) if g["status"].strip() == w["status"])
    benchlib.expect(10 * agree >= 9 * len(want), f"status right for {agree} of {len(want)}")


@judge.check(level=4)
def anchor_tickets(run: benchlib.Run) -> None:
    """The hand-written anchor tickets have their hand-computed fields."""
    found = {r["ticket_id"].strip(): r for r in rows(run)}
    wrong = []
    for ticket, fields in ANCHOR_ROWS.items():
        got = {f: found[ticket].get(f, "").strip() for f in fields} if ticket in found else None
        if got != fields:
            wrong.append(f"{ticket}: {got} != {fields}")
    benchlib.expect(not wrong, f"anchor tickets wrong: {wrong[:3]}")


@judge.check(level=4)
def bot_replies_excluded(run: benchlib.Run) -> None:
    """First response: the first agent_reply, never a bot_reply; plain elapsed seconds."""
    compare(run, ("first_response_seconds",), "first_response_seconds")


@judge.check(level=4)
def waiting_time_subtracted(run: benchlib.Run) -> None:
    """Resolution: created to the last resolution, minus complete waiting intervals."""
    compare(run, ("resolution_seconds",), "resolution_seconds")


@judge.check(level=4)
def reopened_ticket_handling(run: benchlib.Run) -> None:
    """A reopen invalidates earlier resolutions; reopens are counted."""
    compare(run, ("status", "reopen_count"), "status, reopen_count")


@judge.check(level=4)
def priority_targets(run: benchlib.Run) -> None:
    """Breaches: strictly over the priority's target; no agent reply is a breach."""
    compare(run, ("first_response_breached", "resolution_breached"), "breach flags")


@judge.check(level=4)
def aggregate_breach_counts(run: benchlib.Run) -> None:
    """summary.json: exact counts overall and by priority, exactly the stated keys."""
    got = run.json(SUMMARY)
    benchlib.expect_equal(strict_json(got), strict_json(desk(run).summary()), "summary.json")


@judge.edge
def edge_every_ticket(run: benchlib.Run) -> None:
    """Edge: out-of-order events sorted by instant, a repeated event_id counted once."""
    compare(run, tuple(desk(run).rows[0]), "tickets.csv")
    benchlib.expect_equal(
        strict_json(run.json(SUMMARY)), strict_json(desk(run).summary()), "summary.json"
    )


# endregion authored

if __name__ == "__main__":
    sys.exit(judge.main())
