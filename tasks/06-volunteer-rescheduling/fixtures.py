"""Fixtures of task 06: volunteers, shifts and availability windows of one weekend event.

The anchor records of task.toml are rows of the three tables; each carries a ``table`` key
(``volunteers``, ``shifts`` or ``availability``) and the columns of that table. Anchors
fix their own ids. The seeded filler fills the remaining ids (V01..V24, S01..S36) with small
teams: each team has one skill, a few members and a few shifts placed inside a member's
availability window, so every shift has at least one eligible volunteer and the candidate
graph stays sparse (no component has more than a handful of volunteers and shifts).

The three generators rebuild the same world from ``ctx.seed``; each writes one file.
"""

from __future__ import annotations

import random
from typing import Any

import benchlib

VOLUNTEERS = 24
SHIFTS = 36
SAT, SUN = "2025-06-14", "2025-06-15"
LOCATIONS = ["Elm Street Kitchen", "Harbor Pantry", "Northside Depot", "Riverside School"]
NAMES = [
    "Ada", "Ben", "Cleo", "Dev", "Elif", "Femi", "Gwen", "Hugo", "Ines", "Jonah", "Kai",
    "Lior", "Mina", "Nico", "Oona", "Pavel", "Quinn", "Rosa", "Sami", "Tess", "Uma", "Vik",
    "Wren", "Yusuf",
    # V25..V43: volunteers of the later anchors
    "Zora", "Abel", "Bea", "Cato", "Dora", "Eli", "Fay", "Gil", "Hana", "Ivo", "Jude", "Kira",
    "Lev", "Maja", "Nell", "Omar", "Pia", "Ravi", "Sol",
]  # fmt: skip
# availability windows of filler volunteers, in minutes after midnight
WINDOWS = [(480, 1200), (480, 1020), (600, 1200), (480, 840), (720, 1200)]
SECOND_SKILLS = ["forklift", "spanish", "", "", ""]  # never required by a main-fixture shift
# filler teams: skill, the days each member is available, (day, seats) of each shift
TEAMS = [
    ("interpreter", [[SAT], [SAT], [SAT, SUN]], [(SAT, 1), (SAT, 2), (SAT, 1), (SAT, 1), (SUN, 1)]),
    ("setup", [[SUN], [SUN], [SAT, SUN]], [(SUN, 1), (SUN, 2), (SUN, 1), (SUN, 1), (SAT, 1)]),
    ("first_aid", [[SAT], [SAT, SUN], [SUN]], [(SAT, 1), (SUN, 1), (SUN, 2), (SUN, 1)]),
    ("cashier", [[SAT], [SUN], [SAT, SUN]], [(SAT, 1), (SAT, 1), (SUN, 1), (SUN, 2)]),
]

VOLUNTEER_HEADER = ["volunteer_id", "name", "skills", "preferred_locations", "max_shifts"]
SHIFT_HEADER = ["shift_id", "location", "start", "end", "seats", "required_skill"]
AVAILABILITY_HEADER = ["volunteer_id", "start", "end"]


def _clock(minutes: int) -> str:
    return f"{minutes // 60:02d}:{minutes % 60:02d}"


def _rows(ctx: benchlib.SeedContext, table: str) -> list[dict[str, Any]]:
    """Anchor rows of one table, in anchor-name order, without the ``table`` key."""
    return [
        {k: v for k, v in record.items() if k != "table"}
        for name in sorted(ctx.anchors)
        for record in ctx.anchor(name)
        if record["table"] == table
    ]


def world(ctx: benchlib.SeedContext) -> dict[str, list[dict[str, Any]]]:
    """The whole main fixture: anchors plus the seeded filler teams."""
    volunteers = {r["volunteer_id"]: r for r in _rows(ctx, "volunteers")}
    shifts = {r["shift_id"]: r for r in _rows(ctx, "shifts")}
    availability = _rows(ctx, "availability")
    order = random.Random(f"{ctx.seed}/ids")
    free_volunteers = [f"V{i:02d}" for i in range(1, VOLUNTEERS + 1)]
    free_volunteers = [v for v in free_volunteers if v not in volunteers]
    free_shifts = [f"S{i:02d}" for i in range(1, SHIFTS + 1) if f"S{i:02d}" not in shifts]
    order.shuffle(free_volunteers)
    order.shuffle(free_shifts)
    for skill, member_days, shift_days in TEAMS:
        rng = random.Random(f"{ctx.seed}/team/{skill}")
        windows = []
        for days in member_days:
            vid = free_volunteers.pop()
            second = rng.choice(SECOND_SKILLS)
            volunteers[vid] = {
                "volunteer_id": vid,
                "skills": ";".join(s for s in (skill, second) if s),
                "preferred_locations": ";".join(
                    sorted(rng.sample(LOCATIONS, rng.choice([1, 1, 2])))
                ),
                "max_shifts": rng.choice([2, 3, 3]),
            }
            for day in days:
                low, high = rng.choice(WINDOWS)
                windows.append((day, low, high))
                availability.append(
                    {
                        "volunteer_id": vid,
                        "start": f"{day}T{_clock(low)}",
                        "end": f"{day}T{_clock(high)}",
                    }
                )
        for day, seats in shift_days:
            sid = free_shifts.pop()
            _, low, high = rng.choice([w for w in windows if w[0] == day])
            length = min(rng.choice([120, 180, 180, 240]), high - low)
            start = low + 30 * rng.randint(0, (high - low - length) // 30)
            shifts[sid] = {
                "shift_id": sid,
                "location": rng.choice(LOCATIONS),
                "start": f"{day}T{_clock(start)}",
                "end": f"{day}T{_clock(start + length)}",
                "seats": seats,
                "required_skill": skill,
            }
    if free_volunteers or free_shifts:
        raise ValueError(f"filler teams do not match the free ids: {free_volunteers} {free_shifts}")
    for vid, row in volunteers.items():
        row["name"] = NAMES[int(vid[1:]) - 1]
    return {
        "volunteers": [volunteers[v] for v in sorted(volunteers)],
        "shifts": sorted(shifts.values(), key=lambda s: (s["start"], s["location"], s["shift_id"])),
        "availability": sorted(availability, key=lambda a: (a["volunteer_id"], a["start"])),
    }


def volunteers(ctx: benchlib.SeedContext) -> None:
    """inputs/volunteers.csv, sorted by volunteer_id."""
    ctx.write_csv(ctx.path, VOLUNTEER_HEADER, world(ctx)["volunteers"])


def shifts(ctx: benchlib.SeedContext) -> None:
    """inputs/shifts.csv, by start time (shift ids are not in time order)."""
    ctx.write_csv(ctx.path, SHIFT_HEADER, world(ctx)["shifts"])


def availability(ctx: benchlib.SeedContext) -> None:
    """inputs/availability.csv, by volunteer_id, then start."""
    ctx.write_csv(ctx.path, AVAILABILITY_HEADER, world(ctx)["availability"])
