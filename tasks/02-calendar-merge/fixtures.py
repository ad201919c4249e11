"""Fixtures of task 02: three team calendars, the late-changes calendar, the edge calendars.

Every file is iCalendar text with CRLF line endings; lines longer than 75 octets are folded
(RFC 5545 section 3.1). Events are plain dicts, the same shape as the anchor records of
task.toml:

    calendar  nyc | berlin | tokyo | late | backup  (which file the version sits in; backup
                                                     is berlin-office.ics.bak, not a calendar)
    uid, summary                                     text as written (escapes included)
    start, end   "YYYYMMDDTHHMMSS" local, "...Z" UTC, or "YYYYMMDD" all-day (end optional)
    tzid, sequence, status, location, language, description   optional

In the main fixture no fold sits next to a space of the text (the edge fixture has those).
"""

from __future__ import annotations

import datetime as dt
import random
from zoneinfo import ZoneInfo

import benchlib

UTC = dt.UTC
EVENTS_PER_CALENDAR = 30
FIRST_DAY = dt.date(2025, 3, 3)
LAST_DAY = dt.date(2025, 4, 4)

# key: (file name, calendar name, zone, uid domain)
CALENDARS = {
    "nyc": ("nyc-team.ics", "NYC Team", "America/New_York", "nyc.example.com"),
    "berlin": ("berlin-office.ics", "Berlin Office", "Europe/Berlin", "berlin.example.com"),
    "tokyo": ("tokyo-partners.ics", "Tokyo Partners", "Asia/Tokyo", "tokyo.example.com"),
}
LATE = ("late_changes.ics", "Late changes", "Europe/Berlin")
# An old backup of the Berlin export beside the calendars: not a .ics file, so not a calendar.
BACKUP = ("berlin-office.ics.bak", "Berlin Office", "Europe/Berlin")

SUMMARIES = {
    "nyc": [
        "Weekly sync",
        "Sprint planning",
        "1:1 Priya / Marcus",
        "Customer call: Northwind",
        "Design critique",
        "Lunch & learn: accessibility basics",
        "Hiring panel",
        "Finance check-in",
        "Quarterly business review with the regional sales leads\\, finance partners and the "
        "product council",
        "Incident review: checkout latency spike",
        "Roadmap grooming",
        "Vendor evaluation – observability tooling",
    ],
    "berlin": [
        "Teamrunde",
        "Architektur-Review",
        "Abstimmung Übersetzungen",
        "Sprechstunde IT-Sicherheit",
        "Retrospektive",
        "Mittagessen mit Jörg",
        "Planungsmeeting Q2 mit Produktmanagement\\, Vertrieb und den Kolleginnen aus München "
        "und Hamburg",
        "Kundentermin Bäckerei Größenwahn",
        "Datenschutz-Schulung (Pflichttermin für alle Mitarbeitenden im Büro Berlin)",
        "Release-Abnahme",
        "Jour fixe Infrastruktur",
    ],
    "tokyo": [
        "パートナー定例",
        "Partner sync",
        "Localization review",
        "品質保証レビュー",
        "製品ロードマップ説明会（大阪支社・名古屋支社合同、通訳あり、資料は事前に共有します）",
        "Release readiness",
        "営業会議",
        "Joint QA triage: regression backlog for the spring release",
        "技術相談会",
        "Budget alignment",
    ],
}
LOCATIONS = {
    "nyc": [
        "Room 5A",
        "Room 7C (Hudson)",
        "Conference Room 4B\\, 12th floor",
        "https://meet.example.com/nyc-weekly",
        "Cafeteria",
    ],
    "berlin": [
        "Konferenzraum Spree\\, 3. OG",
        "Raum 2.14",
        "Küche",
        "https://meet.example.com/berlin-jf",
    ],
    "tokyo": [
        "会議室A",
        "会議室B（7階）",
        "https://meet.example.com/tokyo-partners",
        "Shibuya office",
    ],
}
LANGUAGES = {"nyc": "", "berlin": "de", "tokyo": "ja"}
ALL_DAY = {
    "nyc": [("Team offsite – Catskills", 2), ("Quarter close", 1)],
    "berlin": [("Betriebsausflug", 1), ("Büro geschlossen (Umzug Serverraum)", 1)],
    "tokyo": [("全社研修日", 1), ("Partner summit\\, Osaka", 2)],
}
DESCRIPTIONS = [
    "Agenda:\\n1. Status\\n2. Risks and blockers\\n3. Next steps. Please add your items to the "
    "shared document before the meeting starts.",
    "Dial-in details are in the invitation. Bitte pünktlich sein – wir starten ohne "
    "Verzögerung und halten die Zeit ein.",
    "資料は前日までに共有フォルダへアップロードしてください。"
    "Slides go to the shared folder the day before.",
    "Wartung der Speichersysteme und Firmware-Updates. Die Umstellung auf Sommerzeit fällt in "
    "das Wartungsfenster.",
]


# ------------------------------------------------------------------------------------------
# writing
# ------------------------------------------------------------------------------------------


def fold(line: str, fold_chars: list[str], avoid_spaces: bool = True) -> list[str]:
    """Split one content line into physical lines of at most 75 octets (RFC 5545 3.1).

    Never splits a UTF-8 sequence. ``fold_chars`` gives the whitespace that starts each
    continuation line (consumed in order, the last one repeats). With ``avoid_spaces`` no
    fold sits directly before or after a space of the text.
    """
    parts: list[str] = []
    rest, limit = line, 75
    while len(rest.encode("utf-8")) > limit:
        count, size = 0, 0
        for char in rest:
            width = len(char.encode("utf-8"))
            if size + width > limit:
                break
            size, count = size + width, count + 1
        while avoid_spaces and count > 1 and (rest[count - 1] == " " or rest[count] == " "):
            count -= 1
        parts.append(rest[:count])
        rest, limit = rest[count:], 74
    parts.append(rest)
    lines = [parts[0]]
    for index, part in enumerate(parts[1:]):
        lines.append(fold_chars[min(index, len(fold_chars) - 1)] + part)
    return lines


def date_property(name: str, event: dict, key: str) -> str:
    value = event[key]
    if len(value) == 8:
        return f"{name};VALUE=DATE:{value}"
    if event.get("tzid"):
        return f"{name};TZID={event['tzid']}:{value}"
    return f"{name}:{value}"


def event_lines(event: dict, dtstamp: str, order: int) -> list[str]:
    """The unfolded content lines of one VEVENT (``order`` varies the property order)."""
    head = [f"UID:{event['uid']}", f"DTSTAMP:{dtstamp}"]
    meta = []
    if event.get("sequence") is not None:
        meta.append(f"SEQUENCE:{event['sequence']}")
    if event.get("status"):
        meta.append(f"STATUS:{event['status']}")
    when = [date_property("DTSTART", event, "start")]
    if event.get("end"):
        when.append(date_property("DTEND", event, "end"))
    language = f";LANGUAGE={event['language']}" if event.get("language") else ""
    text = [f"SUMMARY{language}:{event['summary']}"]
    if event.get("location"):
        text.append(f"LOCATION{language}:{event['location']}")
    if event.get("description"):
        text.append(f"DESCRIPTION:{event['description']}")
    body = [*meta, *when, *text] if order == 0 else [*when, *text, *meta]
    return ["BEGIN:VEVENT", *head, *body, "END:VEVENT"]


def calendar_text(name: str, zone: str, events: list[tuple[list[str], list[str]]]) -> str:
    """A VCALENDAR with ``events`` given as (content lines, fold chars per line)."""
    lines = [
        "BEGIN:VCALENDAR",
        "VERSION:2.0",
        "PRODID:-//Example Corp//Shared Calendars 4.2//EN",
        "CALSCALE:GREGORIAN",
        f"X-WR-CALNAME:{name}",
        f"X-WR-TIMEZONE:{zone}",
    ]
    for content, chars in events:
        for line in content:
            lines.extend(fold(line, chars))
    lines.append("END:VCALENDAR")
    return "".join(line + "\r\n" for line in lines)


def render(
    events: list[dict], rng: random.Random, month: str = "202502"
) -> list[tuple[list[str], list[str]]]:
    """Content lines and fold characters (mostly spaces, sometimes tabs) of each event."""
    rendered = []
    for event in events:
        clock = f"{rng.randint(8, 18):02d}{rng.choice([0, 15, 30, 45]):02d}00"
        stamp = f"{month}{rng.randint(10, 28):02d}T{clock}Z"
        content = event_lines(event, stamp, rng.randrange(2))
        chars = ["\t" if rng.random() < 0.25 else " " for _ in range(4)]
        rendered.append((content, chars))
    return rendered


# ------------------------------------------------------------------------------------------
# main fixture
# ------------------------------------------------------------------------------------------


def anchor_events(ctx: benchlib.SeedContext) -> list[dict]:
    """Every anchor record, in task.toml order of anchor names (sorted) and records."""
    return [record for name in sorted(ctx.anchors) for record in ctx.anchor(name)]


def weekdays() -> list[dt.date]:
    days = []
    day = FIRST_DAY
    while day <= LAST_DAY:
        if day.weekday() < 5:
            days.append(day)
        day += dt.timedelta(days=1)
    return days


def local_text(moment: dt.datetime, zone: str) -> str:
    """``moment`` (aware) as local wall time in ``zone``; asserts it is unambiguous."""
    local = moment.astimezone(ZoneInfo(zone)).replace(tzinfo=None)
    for fold_value in (0, 1):
        back = local.replace(tzinfo=ZoneInfo(zone), fold=fold_value).astimezone(UTC)
        assert back == moment, f"{local} is ambiguous or skipped in {zone}"
    return local.strftime("%Y%m%dT%H%M%S")


def timed_fields(start: dt.datetime, end: dt.datetime, home: str, style: str) -> dict:
    """DTSTART/DTEND fields of an event in one of the four timestamp styles."""
    if style == "utc":
        return {"start": start.strftime("%Y%m%dT%H%M%SZ"), "end": end.strftime("%Y%m%dT%H%M%SZ")}
    if style == "floating":
        return {"start": local_text(start, home), "end": local_text(end, home)}
    return {"tzid": style, "start": local_text(start, style), "end": local_text(end, style)}


def new_uid(rng: random.Random, domain: str) -> str:
    return f"{rng.getrandbits(32):08x}-{rng.getrandbits(16):04x}-{rng.getrandbits(16):04x}@{domain}"


def filler_timed(rng: random.Random, key: str, days: list[dt.date]) -> dict:
    """One ordinary timed meeting in the calendar's business hours."""
    _, _, zone, domain = CALENDARS[key]
    day = rng.choice(days[5:10] if rng.random() < 0.6 else days)  # 10-14 March is busy
    start_local = dt.datetime.combine(day, dt.time(rng.randint(9, 15), rng.choice([0, 30])))
    start = start_local.replace(tzinfo=ZoneInfo(zone)).astimezone(UTC)
    end = start + dt.timedelta(minutes=rng.choice([30, 45, 60, 60, 90, 120]))
    others = [CALENDARS[k][2] for k in sorted(CALENDARS) if k != key]
    style = rng.choices(["floating", zone, "utc", *others], weights=[3, 3, 2, 1, 1])[0]
    event = {"calendar": key, "uid": new_uid(rng, domain), "summary": rng.choice(SUMMARIES[key])}
    event.update(timed_fields(start, end, zone, style))
    event["_start"], event["_end"] = start, end
    if rng.random() < 0.75:
        event["location"] = rng.choice(LOCATIONS[key])
    if LANGUAGES[key] and rng.random() < 0.3:
        event["language"] = LANGUAGES[key]
    if rng.random() < 0.2:
        event["description"] = rng.choice(DESCRIPTIONS)
    roll = rng.random()
    event["sequence"] = None if roll < 0.3 else (0 if roll < 0.8 else 1)
    roll = rng.random()
    event["status"] = None if roll < 0.3 else ("TENTATIVE" if roll < 0.4 else "CONFIRMED")
    return event


def filler_all_day(
    rng: random.Random, key: str, days: list[dt.date], summary: str, length: int
) -> dict:
    domain = CALENDARS[key][3]
    day = rng.choice(days[:-2])
    event = {"calendar": key, "uid": new_uid(rng, domain), "summary": summary}
    event["start"] = day.strftime("%Y%m%d")
    if length > 1 or rng.random() < 0.5:
        event["end"] = (day + dt.timedelta(days=length)).strftime("%Y%m%d")
    event["sequence"] = 0 if rng.random() < 0.5 else None
    return event


def reschedule_copy(rng: random.Random, event: dict, key: str) -> dict:
    """Another version of ``event`` in calendar ``key``: newer (moved) or older (stale)."""
    zone = CALENDARS[key][2]
    copy = {k: v for k, v in event.items() if k not in ("start", "end", "tzid", "_start", "_end")}
    copy["calendar"] = key
    shift = dt.timedelta(minutes=rng.choice([-90, -60, 30, 60, 24 * 60]))
    start, end = event["_start"] + shift, event["_end"] + shift
    others = [CALENDARS[k][2] for k in sorted(CALENDARS)]
    copy.update(timed_fields(start, end, zone, rng.choice(["floating", "utc", *others])))
    base = event.get("sequence") or 0
    if rng.random() < 0.5:  # the copy is the newer version
        copy["sequence"] = base + rng.randint(1, 2)
        copy["summary"] = event["summary"] + " (moved)"
    else:  # the copy is a stale, older version
        if base == 0:
            event["sequence"] = base = rng.randint(1, 2)
        copy["sequence"] = base - 1
    copy.pop("language", None)
    return copy


def team_calendars(ctx: benchlib.SeedContext) -> None:
    """inputs/calendars/: three calendars of 30 VEVENTs each, anchors included, and a backup."""
    rng = ctx.rng
    days = weekdays()
    anchors = [a for a in anchor_events(ctx) if a["calendar"] in CALENDARS]
    keys = sorted(CALENDARS)
    per_calendar: dict[str, list[dict]] = {k: [] for k in keys}
    # stale or newer copies of ordinary meetings in another calendar: (from, to)
    copies = [("nyc", "berlin"), ("berlin", "tokyo"), ("tokyo", "nyc"),
              ("nyc", "tokyo"), ("berlin", "nyc"), ("tokyo", "berlin")]  # fmt: skip
    for key in keys:
        fixed = sum(1 for a in anchors if a["calendar"] == key)
        incoming = sum(1 for _, to in copies if to == key) + (key == "tokyo")
        events = per_calendar[key]
        for summary, length in ALL_DAY[key]:
            events.append(filler_all_day(rng, key, days, summary, length))
        cancelled = filler_timed(rng, key, days)
        cancelled.update(status="CANCELLED", sequence=1)
        events.append(cancelled)
        while len(events) < EVENTS_PER_CALENDAR - fixed - incoming:
            events.append(filler_timed(rng, key, days))
    taken: set[str] = set()
    for source, target in copies:
        pool = [e for e in per_calendar[source] if "_start" in e and e.get("status") != "CANCELLED"]
        original = rng.choice([e for e in pool if e["uid"] not in taken])
        taken.add(original["uid"])
        per_calendar[target].append(reschedule_copy(rng, original, target))
    # one ordinary Berlin meeting whose newest version, in the Tokyo calendar, cancels it
    pool = [e for e in per_calendar["berlin"] if "_start" in e and e["uid"] not in taken]
    victim = rng.choice(pool)
    per_calendar["tokyo"].append(
        {**reschedule_copy(rng, victim, "tokyo"), "sequence": (victim.get("sequence") or 0) + 1,
         "status": "CANCELLED", "summary": victim["summary"]}
    )  # fmt: skip
    versions = [(e["uid"], e.get("sequence") or 0) for k in keys for e in per_calendar[k]]
    versions += [(a["uid"], a.get("sequence") or 0) for a in anchor_events(ctx)]
    assert len(set(versions)) == len(versions), "two versions of one UID share a SEQUENCE"
    for key in keys:
        events = per_calendar[key]
        rng.shuffle(events)
        for record in (a for a in anchors if a["calendar"] == key):
            events.insert(rng.randint(0, len(events)), record)
        assert len(events) == EVENTS_PER_CALENDAR, (key, len(events))
        name, title, zone, _ = CALENDARS[key]
        text = calendar_text(title, zone, render(events, rng))
        ctx.write_text(f"{ctx.path}/{name}", text)
    backup = [a for a in anchor_events(ctx) if a["calendar"] == "backup"]
    name, title, zone = BACKUP
    ctx.write_text(f"{ctx.path}/{name}", calendar_text(title, zone, render(backup, rng, "202501")))


def late_changes(ctx: benchlib.SeedContext) -> None:
    """inputs/late_changes.ics: the anchors of the late-changes stage."""
    events = [a for a in anchor_events(ctx) if a["calendar"] == "late"]
    for event in events:
        if event["start"][:8] != event["end"][:8]:  # the overnight maintenance window
            event["description"] = DESCRIPTIONS[-1]
    _, title, zone = LATE
    ctx.write_text(ctx.path, calendar_text(title, zone, render(events, ctx.rng, "202503")))


# ------------------------------------------------------------------------------------------
# edge fixture
# ------------------------------------------------------------------------------------------

EDGE_SUMMARY = [  # physical lines: a fold before a space, a fold after a space, a tab fold
    "SUMMARY:Quarterly roadmap review with partner engineering leads from Osaka",
    "  and Hamburg\\, including the localisation backlog and the release ",
    "\ttrain schedule",
]


def edge_calendars(ctx: benchlib.SeedContext) -> None:
    """The edge fixture: a folded SUMMARY and two events that only touch."""
    stamp = "20250301T120000Z"
    roadmap = event_lines(
        {"uid": "edge-roadmap@alpha.example.com", "tzid": "Europe/Berlin", "sequence": 0,
         "start": "20250312T090000", "end": "20250312T100000", "summary": "-",
         "location": "Raum 2.14"},
        stamp, 0,
    )  # fmt: skip
    at = roadmap.index("SUMMARY:-")
    alpha = [
        (roadmap[:at], [" "]),
        (EDGE_SUMMARY, [" "]),  # already folded: each physical line is one "content line"
        (roadmap[at + 1 :], [" "]),
        (event_lines(
            {"uid": "edge-touch-a@alpha.example.com", "start": "20250312T140000",
             "end": "20250312T150000", "summary": "Vendor call", "status": "CONFIRMED"},
            stamp, 1), [" "]),
    ]  # fmt: skip
    beta = [
        (event_lines(
            {"uid": "edge-touch-b@beta.example.com", "start": "20250312T100000",
             "end": "20250312T110000", "summary": "Design sync", "location": "Room 5A"},
            stamp, 0), [" "]),
        (event_lines(
            {"uid": "edge-overlap@beta.example.com", "start": "20250312T083000Z",
             "end": "20250312T093000Z", "summary": "Early partner call", "sequence": 1},
            stamp, 1), [" "]),
    ]  # fmt: skip
    late = [
        (event_lines(
            {"uid": "edge-late@late.example.com", "tzid": "Asia/Tokyo", "start": "20250314T100000",
             "end": "20250314T110000", "summary": "Partner sync", "sequence": 0},
            stamp, 0), [" "]),
    ]  # fmt: skip
    base = ctx.path.rstrip("/")
    ctx.write_text(f"{base}/calendars/alpha.ics", calendar_text("Alpha", "Europe/Berlin", alpha))
    ctx.write_text(f"{base}/calendars/beta.ics", calendar_text("Beta", "America/New_York", beta))
    ctx.write_text(f"{base}/late_changes.ics", calendar_text("Late changes", "Asia/Tokyo", late))
