# generated from task.toml by benchsmith -- do not edit
"""Write the fixture of task 9: Support SLA Event Analysis.

Usage: python seed.py --out DIR [--fixture main|edge] [--stage N|final] [--only]

Every filler stream is random.Random(f"{SEED}/{path}") with SEED = 20260831 + 9;
anchor records sit at fixed positions. The output is byte-identical across runs, TZ, locale,
PYTHONHASHSEED, umask and working directory.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.dont_write_bytecode = True  # keep __pycache__ out of the task and corpus folders

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

import benchlib

TASK = {
    "id": 9,
    "seed": 20260840,
    "stages": ["initial"],
    "files": [
        {
            "path": "inputs/events.jsonl",
            "format": None,
            "compressed": False,
            "rows": None,
            "header": [],
            "columns": [],
            "records": [],
            "anchors": [],
            "sort_by": [],
            "wrap": None,
            "generator": "support_events",
            "stage": "initial",
            "writes": ["inputs/events.jsonl"],
        }
    ],
    "edge_files": [],
    "anchors": {
        "bot-first": [
            {
                "ticket_id": "T-100417",
                "type": "created",
                "at": "2026-03-03T08:00:00Z",
                "priority": "P1",
            },
            {"ticket_id": "T-100417", "type": "bot_reply", "at": "2026-03-03T08:02:30Z"},
            {"ticket_id": "T-100417", "type": "agent_reply", "at": "2026-03-03T08:41:00Z"},
            {"ticket_id": "T-100417", "type": "resolved", "at": "2026-03-03T10:30:00Z"},
        ],
        "bot-only": [
            {
                "ticket_id": "T-101205",
                "type": "created",
                "at": "2026-03-05T14:10:00Z",
                "priority": "P3",
            },
            {"ticket_id": "T-101205", "type": "bot_reply", "at": "2026-03-05T14:12:40Z"},
            {"ticket_id": "T-101205", "type": "resolved", "at": "2026-03-05T18:00:00Z"},
        ],
        "waiting-subtracted": [
            {
                "ticket_id": "T-102388",
                "type": "created",
                "at": "2026-03-09T09:00:00Z",
                "priority": "P2",
            },
            {"ticket_id": "T-102388", "type": "agent_reply", "at": "2026-03-09T09:20:00Z"},
            {"ticket_id": "T-102388", "type": "waiting_customer", "at": "2026-03-09T09:30:00Z"},
            {"ticket_id": "T-102388", "type": "customer_reply", "at": "2026-03-10T15:30:00Z"},
            {"ticket_id": "T-102388", "type": "agent_reply", "at": "2026-03-10T15:45:00Z"},
            {"ticket_id": "T-102388", "type": "resolved", "at": "2026-03-10T16:30:00Z"},
        ],
        "waiting-unanswered": [
            {
                "ticket_id": "T-103050",
                "type": "created",
                "at": "2026-03-11T10:00:00Z",
                "priority": "P2",
            },
            {"ticket_id": "T-103050", "type": "agent_reply", "at": "2026-03-11T10:30:00Z"},
            {"ticket_id": "T-103050", "type": "waiting_customer", "at": "2026-03-11T11:00:00Z"},
            {"ticket_id": "T-103050", "type": "resolved", "at": "2026-03-11T19:00:00Z"},
        ],
        "double-wait": [
            {
                "ticket_id": "T-104217",
                "type": "created",
                "at": "2026-03-12T08:00:00Z",
                "priority": "P3",
            },
            {"ticket_id": "T-104217", "type": "agent_reply", "at": "2026-03-12T09:00:00Z"},
            {"ticket_id": "T-104217", "type": "waiting_customer", "at": "2026-03-12T10:00:00Z"},
            {"ticket_id": "T-104217", "type": "waiting_customer", "at": "2026-03-12T20:00:00Z"},
            {"ticket_id": "T-104217", "type": "customer_reply", "at": "2026-03-13T08:00:00Z"},
            {"ticket_id": "T-104217", "type": "resolved", "at": "2026-03-13T12:00:00Z"},
        ],
        "agent-while-waiting": [
            {
                "ticket_id": "T-105533",
                "type": "created",
                "at": "2026-03-14T09:00:00Z",
                "priority": "P4",
            },
            {"ticket_id": "T-105533", "type": "agent_reply", "at": "2026-03-14T11:00:00Z"},
            {"ticket_id": "T-105533", "type": "waiting_customer", "at": "2026-03-14T12:00:00Z"},
            {"ticket_id": "T-105533", "type": "agent_reply", "at": "2026-03-15T12:00:00Z"},
            {"ticket_id": "T-105533", "type": "customer_reply", "at": "2026-03-16T12:00:00Z"},
            {"ticket_id": "T-105533", "type": "resolved", "at": "2026-03-16T14:00:00Z"},
        ],
        "reopen-resolved": [
            {
                "ticket_id": "T-106602",
                "type": "created",
                "at": "2026-03-16T07:00:00Z",
                "priority": "P1",
            },
            {"ticket_id": "T-106602", "type": "agent_reply", "at": "2026-03-16T07:10:00Z"},
            {"ticket_id": "T-106602", "type": "resolved", "at": "2026-03-16T08:00:00Z"},
            {"ticket_id": "T-106602", "type": "reopened", "at": "2026-03-16T09:30:00Z"},
            {"ticket_id": "T-106602", "type": "agent_reply", "at": "2026-03-16T09:40:00Z"},
            {"ticket_id": "T-106602", "type": "waiting_customer", "at": "2026-03-16T10:00:00Z"},
            {"ticket_id": "T-106602", "type": "customer_reply", "at": "2026-03-16T10:20:00Z"},
            {"ticket_id": "T-106602", "type": "resolved", "at": "2026-03-16T11:30:00Z"},
        ],
        "reopen-open": [
            {
                "ticket_id": "T-107741",
                "type": "created",
                "at": "2026-03-18T13:00:00Z",
                "priority": "P2",
            },
            {"ticket_id": "T-107741", "type": "agent_reply", "at": "2026-03-18T13:25:00Z"},
            {"ticket_id": "T-107741", "type": "resolved", "at": "2026-03-18T15:00:00Z"},
            {"ticket_id": "T-107741", "type": "reopened", "at": "2026-03-19T10:00:00Z"},
            {"ticket_id": "T-107741", "type": "agent_reply", "at": "2026-03-19T10:20:00Z"},
        ],
        "offsets": [
            {
                "ticket_id": "T-108860",
                "type": "created",
                "at": "2026-03-20T21:50:00-07:00",
                "priority": "P1",
            },
            {"ticket_id": "T-108860", "type": "agent_reply", "at": "2026-03-21T00:05:00-05:00"},
            {"ticket_id": "T-108860", "type": "resolved", "at": "2026-03-21T13:20:00+05:30"},
        ],
        "boundary": [
            {
                "ticket_id": "T-109975",
                "type": "created",
                "at": "2026-03-23T10:00:00Z",
                "priority": "P2",
            },
            {"ticket_id": "T-109975", "type": "agent_reply", "at": "2026-03-23T11:00:00Z"},
            {"ticket_id": "T-109975", "type": "resolved", "at": "2026-03-23T18:00:00Z"},
        ],
        "late-customer-reply": [
            {
                "ticket_id": "T-110418",
                "type": "created",
                "at": "2026-03-24T09:00:00Z",
                "priority": "P3",
            },
            {"ticket_id": "T-110418", "type": "agent_reply", "at": "2026-03-24T09:30:00Z"},
            {"ticket_id": "T-110418", "type": "waiting_customer", "at": "2026-03-24T10:00:00Z"},
            {"ticket_id": "T-110418", "type": "resolved", "at": "2026-03-24T20:00:00Z"},
            {"ticket_id": "T-110418", "type": "customer_reply", "at": "2026-03-25T09:00:00Z"},
        ],
        "resolved-twice": [
            {
                "ticket_id": "T-112006",
                "type": "created",
                "at": "2026-03-25T08:00:00Z",
                "priority": "P3",
            },
            {"ticket_id": "T-112006", "type": "agent_reply", "at": "2026-03-25T08:45:00Z"},
            {"ticket_id": "T-112006", "type": "resolved", "at": "2026-03-25T12:00:00Z"},
            {"ticket_id": "T-112006", "type": "resolved", "at": "2026-03-26T12:00:00Z"},
        ],
        "wait-before-reply": [
            {
                "ticket_id": "T-113377",
                "type": "created",
                "at": "2026-03-26T08:00:00Z",
                "priority": "P2",
            },
            {"ticket_id": "T-113377", "type": "waiting_customer", "at": "2026-03-26T08:10:00Z"},
            {"ticket_id": "T-113377", "type": "customer_reply", "at": "2026-03-26T08:50:00Z"},
            {"ticket_id": "T-113377", "type": "agent_reply", "at": "2026-03-26T09:20:00Z"},
            {"ticket_id": "T-113377", "type": "resolved", "at": "2026-03-26T11:00:00Z"},
        ],
        "unanswered-open": [
            {
                "ticket_id": "T-114410",
                "type": "created",
                "at": "2026-03-27T22:00:00Z",
                "priority": "P4",
            },
            {"ticket_id": "T-114410", "type": "bot_reply", "at": "2026-03-27T22:03:00Z"},
        ],
    },
}

if __name__ == "__main__":
    sys.exit(benchlib.seed_main(TASK, HERE))
