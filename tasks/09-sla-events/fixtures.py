"""Fixture generator of task 9: one month of support-desk ticket events, 200,000 JSON lines.

Every filler ticket follows a small state machine (created, an optional auto-acknowledging
bot reply, agent replies, waiting-for-customer pauses, resolutions, reopens). The anchors of
task.toml (records without a ``file``) are whole tickets written by hand: each record is one
event (``ticket_id``, ``type``, ``at`` and, on ``created``, ``priority``).

Events are written in the order of their instants plus a small jitter (at most 120 s), so the
file is mostly time ordered and interleaved across tickets; two events of one ticket are
always at least 150 s apart, so in the main fixture a ticket's own events keep their order.
Timestamps carry a UTC offset (``Z`` or ``+HH:MM``) chosen per event. No event id repeats in
the main fixture: duplicates and out-of-order tickets are the edge fixture's rule.
"""

from __future__ import annotations

import datetime as dt
import random

import benchlib

EVENTS = 200_000
START = dt.datetime(2026, 3, 1, tzinfo=dt.UTC)
CREATE_SPAN = 27 * 86400  # tickets are created between March 1 and March 28
FIRST_TICKET = 100001
ANCHORS = [
    "bot-first",
    "bot-only",
    "waiting-subtracted",
    "waiting-unanswered",
    "double-wait",
    "agent-while-waiting",
    "reopen-resolved",
    "reopen-open",
    "offsets",
    "boundary",
    "late-customer-reply",
    "resolved-twice",
    "wait-before-reply",
    "unanswered-open",
]
PRIORITIES = ["P1", "P2", "P3", "P4"]
PRIORITY_WEIGHTS = [1, 3, 4, 2]
# Minutes of the first response target, for drawing realistic reply times.
FIRST_TARGET = {"P1": 30, "P2": 60, "P3": 240, "P4": 480}
RESOLUTION_TARGET = {"P1": 240, "P2": 480, "P3": 1440, "P4": 4320}
CHANNELS = ["email", "email", "email", "web", "web", "chat", "phone"]
OFFSETS = [(0, "Z")] * 14 + [
    (0, "+00:00"),
    (60, "+01:00"),
    (60, "+01:00"),
    (-300, "-05:00"),
    (-300, "-05:00"),
    (330, "+05:30"),
    (540, "+09:00"),
    (-420, "-07:00"),
]
AGENTS = [
    "mia.k", "jon.b", "ana.r", "li.wei", "sam.o", "eva.n", "raj.p", "tom.h", "ida.s", "leo.m",
]  # fmt: skip
BOTS = ["autoresponder", "triage-bot", "helpbot"]
SUBJECTS = [
    "Cannot log in after password reset",
    "Invoice shows the wrong billing address",
    "Export to CSV times out",
    "Two-factor codes not arriving by SMS",
    "Request to add a seat to our plan",
    "Webhook deliveries failing with 502",
    "Mobile app crashes on startup",
    "Question about data retention",
    "Refund for duplicate charge",
    "Dashboard charts are empty since the update",
    "SSO login loops back to the start page",
    "Change the account owner",
]
NOTES = {
    "bot_reply": ["Thanks, we received your request.", "A specialist will reply soon."],
    "agent_reply": [
        "Could you try again now?",
        "I have escalated this to our engineers.",
        "Here is how to fix it.",
        "The change is live on your account.",
        "Following up on your request.",
    ],
    "waiting_customer": ["Waiting for the customer's logs.", "Asked for a screenshot."],
    "customer_reply": ["Attached the file.", "Still happening here.", "Works now, thanks."],
    "resolved": ["Solved.", "Closed after confirmation.", "Auto-closed: no reply."],
    "reopened": ["Customer says it broke again.", "Reopened on request."],
}


DAYS = [(START + dt.timedelta(days=d)).strftime("%Y-%m-%d") for d in range(-1, 62)]


def _stamp(seconds: int, rng: random.Random) -> str:
    """An ISO 8601 timestamp of ``seconds`` after START, with a random UTC offset."""
    minutes, suffix = rng.choice(OFFSETS)
    day, rest = divmod(seconds + 60 * minutes, 86400)
    hours, rest = divmod(rest, 3600)
    return f"{DAYS[day + 1]}T{hours:02d}:{rest // 60:02d}:{rest % 60:02d}{suffix}"


def _seconds(text: str) -> int:
    return int((dt.datetime.fromisoformat(text) - START).total_seconds())


def _ticket(rng: random.Random) -> list[tuple[int, str]]:
    """One filler ticket: (seconds after START, event type) in time order."""
    priority = rng.choices(PRIORITIES, PRIORITY_WEIGHTS)[0]
    t = rng.randrange(CREATE_SPAN)
    events = [(t, "created:" + priority)]
    if rng.random() < 0.7:
        events.append((t + rng.randint(150, 290), "bot_reply"))
    first, resolve = FIRST_TARGET[priority] * 60, RESOLUTION_TARGET[priority] * 60
    if rng.random() < 0.04:  # nobody ever answers
        return events
    reply = t + max(600, int(first * rng.uniform(0.1, 1.35)))
    if rng.random() < 0.04:
        events.append((t + rng.randint(600, 900), "customer_reply"))
        reply = max(reply, t + 1200)
    events.append((reply, "agent_reply"))
    now = reply
    end = t + int(resolve * rng.uniform(0.2, 1.1))
    for _ in range(rng.choice([0, 0, 0, 1, 1, 2])):
        now += rng.randint(300, 3600)
        events.append((now, "waiting_customer"))
        if rng.random() < 0.1:  # a reminder while still waiting
            now += rng.randint(3600, 20000)
            events.append((now, "waiting_customer" if rng.random() < 0.5 else "agent_reply"))
        wait = rng.randint(1800, 200000)
        if rng.random() < 0.2:  # the customer never answers: auto-closed later
            now += wait
            events.append((now, "resolved"))
            return events
        now += wait
        events.append((now, "customer_reply"))
        end += now - events[-2][0] if events[-2][1] == "waiting_customer" else 0
        now += rng.randint(300, 7200)
        events.append((now, "agent_reply"))
    if rng.random() < 0.06:
        return events  # still open
    now = max(now + 300, end)
    events.append((now, "resolved"))
    if rng.random() < 0.07:
        now += rng.randint(1800, 86400)
        events.append((now, "reopened"))
        now += rng.randint(300, 5400)
        events.append((now, "agent_reply"))
        if rng.random() < 0.85:
            now += rng.randint(1800, 30000)
            events.append((now, "resolved"))
    elif rng.random() < 0.03:  # a second resolution without a reopen
        now += rng.randint(600, 7200)
        events.append((now, "resolved"))
    return events


def _line(event_id: int, ticket: str, kind: str, at: str, rng: random.Random) -> str:
    """One JSON line (every value is plain ASCII without quotes or backslashes)."""
    head = f'{{"event_id": "EV-{event_id:07d}", "ticket_id": "{ticket}", "type": '
    if kind.startswith("created:"):
        priority = kind[8:]
        channel, subject = rng.choice(CHANNELS), rng.choice(SUBJECTS)
        customer = rng.randint(10000, 99999)
        return (
            f'{head}"created", "at": "{at}", "priority": "{priority}", "channel": "{channel}", '
            f'"actor": "customer:C-{customer}", "subject": "{subject}"}}\n'
        )
    if kind == "bot_reply":
        actor = "bot:" + rng.choice(BOTS)
    elif kind == "customer_reply":
        actor = "customer"
    else:
        actor = "agent:" + rng.choice(AGENTS)
    note = rng.choice(NOTES[kind])
    return f'{head}"{kind}", "at": "{at}", "actor": "{actor}", "note": "{note}"}}\n'


def support_events(ctx: benchlib.SeedContext) -> None:
    """inputs/events.jsonl: the anchors' tickets and filler tickets, 200,000 events."""
    rng = ctx.rng
    anchors: dict[str, list[tuple[int, str, str]]] = {}
    for name in ANCHORS:
        for record in ctx.anchor(name):
            kind = record["type"]
            if kind == "created":
                kind += ":" + record["priority"]
            at = record["at"]
            anchors.setdefault(record["ticket_id"], []).append((_seconds(at), kind, at))
    count = sum(len(v) for v in anchors.values())
    rows: list[tuple[float, str, str, str]] = []
    for ticket, events in anchors.items():
        rows += [(s + rng.random() * 120, ticket, kind, at) for s, kind, at in events]
    number = FIRST_TICKET
    while count < EVENTS:
        ticket = f"T-{number:06d}"
        number += 1
        if ticket in anchors:
            continue
        events = _ticket(rng)[: EVENTS - count]
        count += len(events)
        rows += [(s + rng.random() * 120, ticket, k, _stamp(s, rng)) for s, k in events]
    rows.sort()
    with ctx.open_text() as out:
        for n, (_, ticket, kind, at) in enumerate(rows, 1):
            out.write(_line(n, ticket, kind, at, rng))
