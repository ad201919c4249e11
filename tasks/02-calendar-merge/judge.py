# generated from task.toml by benchsmith -- edit only the authored region
"""Judge of task 2: Calendar Merge and Conflict Report.

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
    "id": 2,
    "slug": "calendar-merge",
    "stages": ["initial", "late-changes"],
    "editable": ["solution/", "output/"],
    "commands": [
        {
            "run": "python -m solution.calendar_merge inputs/calendars output/merged.ics output/conflicts.csv",
            "argv": [
                "python",
                "-m",
                "solution.calendar_merge",
                "inputs/calendars",
                "output/merged.ics",
                "output/conflicts.csv",
            ],
            "cwd": ".",
            "stdin": None,
            "stage": "initial",
            "timeout": 15.0,
        }
    ],
    "outputs": [
        {"path": "output/merged.ics", "format": "ics", "header": [], "stage": "initial"},
        {
            "path": "output/conflicts.csv",
            "format": "csv",
            "header": ["uid_a", "uid_b", "overlap_start", "overlap_end"],
            "stage": "initial",
        },
    ],
    "expect": [
        {
            "name": "rescheduled-duplicate#1",
            "file": "output/conflicts.csv",
            "level": 4,
            "where": {
                "uid_a": "budget-review-q2@nyc.example.com",
                "uid_b": "vendor-demo-northwind@nyc.example.com",
            },
            "equals": {
                "overlap_start": "2025-03-06T19:30:00Z",
                "overlap_end": "2025-03-06T20:00:00Z",
            },
        },
        {
            "name": "rescheduled-duplicate#2",
            "file": "output/conflicts.csv",
            "level": 4,
            "where": {
                "uid_a": "budget-review-q2@nyc.example.com",
                "uid_b": "hiring-debrief-0306@nyc.example.com",
            },
            "absent": True,
        },
        {
            "name": "cancelled-highest#1",
            "file": "output/conflicts.csv",
            "level": 4,
            "not_contains": ["vendor-offsite-prep@berlin.example.com"],
        },
        {
            "name": "cancelled-lower#1",
            "file": "output/conflicts.csv",
            "level": 4,
            "where": {
                "uid_a": "partner-sync-0314@tokyo.example.com",
                "uid_b": "release-readiness-0314@berlin.example.com",
            },
            "equals": {
                "overlap_start": "2025-03-14T08:30:00Z",
                "overlap_end": "2025-03-14T09:00:00Z",
            },
        },
        {
            "name": "all-day-holiday#1",
            "file": "output/conflicts.csv",
            "level": 4,
            "where": {
                "uid_a": "design-critique-0319@nyc.example.com",
                "uid_b": "vernal-equinox-2025@tokyo.example.com",
            },
            "equals": {
                "overlap_start": "2025-03-19T16:00:00Z",
                "overlap_end": "2025-03-19T17:00:00Z",
            },
        },
        {
            "name": "all-day-holiday#2",
            "file": "output/conflicts.csv",
            "level": 4,
            "where": {
                "uid_a": "customer-call-0320@nyc.example.com",
                "uid_b": "vernal-equinox-2025@tokyo.example.com",
            },
            "absent": True,
        },
        {
            "name": "touching-across-zones#1",
            "file": "output/conflicts.csv",
            "level": 3,
            "where": {
                "uid_a": "architektur-review-0311@berlin.example.com",
                "uid_b": "roadmap-sync-0311@nyc.example.com",
            },
            "absent": True,
        },
        {
            "name": "tzid-vs-utc#1",
            "file": "output/conflicts.csv",
            "level": 3,
            "where": {
                "uid_a": "abstimmung-uebersetzung-0305@berlin.example.com",
                "uid_b": "localization-review-0305@tokyo.example.com",
            },
            "equals": {
                "overlap_start": "2025-03-05T08:30:00Z",
                "overlap_end": "2025-03-05T09:00:00Z",
            },
        },
        {
            "name": "tzid-vs-utc#2",
            "file": "output/conflicts.csv",
            "level": 3,
            "where": {
                "uid_a": "it-security-hour-0305@berlin.example.com",
                "uid_b": "localization-review-0305@tokyo.example.com",
            },
            "absent": True,
        },
        {
            "name": "late-cancellations#1",
            "file": "output/conflicts.csv",
            "level": 4,
            "stage": "late-changes",
            "not_contains": [
                "kundentermin-0325@berlin.example.com",
                "roadmap-briefing-0402@tokyo.example.com",
            ],
        },
        {
            "name": "conflicts-before-late-changes",
            "file": "output/conflicts.csv",
            "level": 4,
            "until": "initial",
            "where": {
                "uid_a": "early-standup-0325@nyc.example.com",
                "uid_b": "kundentermin-0325@berlin.example.com",
            },
            "equals": {
                "overlap_start": "2025-03-25T13:30:00Z",
                "overlap_end": "2025-03-25T14:00:00Z",
            },
        },
        {
            "name": "late-stale-cancellation#1",
            "file": "output/conflicts.csv",
            "level": 4,
            "stage": "late-changes",
            "where": {
                "uid_a": "design-review-0327@nyc.example.com",
                "uid_b": "qa-handoff-0327@berlin.example.com",
            },
            "equals": {
                "overlap_start": "2025-03-27T14:00:00Z",
                "overlap_end": "2025-03-27T14:30:00Z",
            },
        },
        {
            "name": "late-dst-window#1",
            "file": "output/conflicts.csv",
            "level": 4,
            "stage": "late-changes",
            "where": {
                "uid_a": "dc-maintenance-0329@berlin.example.com",
                "uid_b": "release-verification-0330@tokyo.example.com",
            },
            "absent": True,
        },
        {
            "name": "late-dst-window#2",
            "file": "output/conflicts.csv",
            "level": 4,
            "stage": "late-changes",
            "where": {
                "uid_a": "dc-maintenance-0329@berlin.example.com",
                "uid_b": "oncall-handover-0329@nyc.example.com",
            },
            "equals": {
                "overlap_start": "2025-03-30T01:30:00Z",
                "overlap_end": "2025-03-30T02:30:00Z",
            },
        },
        {
            "name": "same-start#1",
            "file": "output/conflicts.csv",
            "level": 4,
            "where": {
                "uid_a": "all-hands-0317@nyc.example.com",
                "uid_b": "quartalsplanung-0317@berlin.example.com",
            },
            "equals": {
                "overlap_start": "2025-03-17T14:00:00Z",
                "overlap_end": "2025-03-17T14:30:00Z",
            },
        },
        {
            "name": "long-lines#1",
            "file": "output/merged.ics",
            "level": 4,
            "contains": [
                "\r\nLOCATION:Conference Room 14B\\, 12th floor (overflow seating in Rooms 5A/5B)\r\n"
            ],
        },
        {
            "name": "event-titled-vevent#1",
            "file": "output/merged.ics",
            "level": 4,
            "contains": ["\r\nSUMMARY:VEVENT\r\nLOCATION:Shibuya office\r\n"],
        },
        {
            "name": "backup-not-a-calendar#1",
            "file": "output/merged.ics",
            "level": 4,
            "not_contains": [
                "teamrunde-alt-0306@berlin.example.com",
                "betriebsausflug-alt@berlin.example.com",
            ],
        },
        {
            "name": "backup-not-a-calendar#2",
            "file": "output/conflicts.csv",
            "level": 4,
            "not_contains": [
                "teamrunde-alt-0306@berlin.example.com",
                "betriebsausflug-alt@berlin.example.com",
            ],
        },
    ],
    "edge_expect": [
        {"name": "edge#1", "file": "output/conflicts.csv", "level": 4, "count": 1},
        {
            "name": "edge#2",
            "file": "output/conflicts.csv",
            "level": 4,
            "where": {
                "uid_a": "edge-overlap@beta.example.com",
                "uid_b": "edge-roadmap@alpha.example.com",
            },
            "equals": {
                "overlap_start": "2025-03-12T08:30:00Z",
                "overlap_end": "2025-03-12T09:00:00Z",
            },
        },
        {
            "name": "edge#3",
            "file": "output/conflicts.csv",
            "level": 4,
            "where": {
                "uid_a": "edge-touch-a@alpha.example.com",
                "uid_b": "edge-touch-b@beta.example.com",
            },
            "absent": True,
        },
    ],
    "edge_include_visible": True,
    "services": [],
}

judge = benchlib.Judge(TASK)

# region authored: benchsmith keeps these lines when it rebuilds judge.py
import csv
import datetime as dt
import io
import re
from zoneinfo import ZoneInfo

FOLD = re.compile(r"\r?\n[ \t]")
EDGE_SUMMARY = (
    "Quarterly roadmap review with partner engineering leads from Osaka and Hamburg\\, "
    "including the localisation backlog and the release train schedule"
)
Props = dict[str, tuple[dict[str, str], str]]


def parse_ics(text: str) -> tuple[Props, list[Props]]:
    """Unfold RFC 5545 text; return calendar-level properties and each VEVENT's properties.

    Properties map NAME -> ({PARAM: value}, value); the first occurrence wins.
    """
    calendar: Props = {}
    events: list[Props] = []
    depth, current = 0, None
    for line in FOLD.sub("", text).splitlines():
        head, _, value = line.partition(":")
        name, *raw = head.split(";")
        name = name.strip().upper()
        params = {k.upper(): v.strip('"') for k, _, v in (p.partition("=") for p in raw)}
        if name == "BEGIN":
            depth += 1
            if value.upper() == "VEVENT" and depth == 2:
                current = {}
                events.append(current)
        elif name == "END":
            depth -= 1
            current = None if depth < 2 else current
        elif current is not None and depth == 2:
            current.setdefault(name, (params, value))
        elif depth == 1:
            calendar.setdefault(name, (params, value))
    return calendar, events


def utc_text(moment: dt.datetime) -> str:
    return moment.astimezone(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def instant(params: dict[str, str], value: str, zone: str) -> dt.datetime:
    """A DTSTART/DTEND value as an aware UTC datetime (a date means local midnight)."""
    if params.get("VALUE") == "DATE" or len(value) == 8:
        local = dt.datetime.strptime(value[:8], "%Y%m%d")
        return local.replace(tzinfo=ZoneInfo(zone)).astimezone(dt.UTC)
    if value.endswith("Z"):
        return dt.datetime.strptime(value, "%Y%m%dT%H%M%SZ").replace(tzinfo=dt.UTC)
    local = dt.datetime.strptime(value, "%Y%m%dT%H%M%S")
    return local.replace(tzinfo=ZoneInfo(params.get("TZID", zone))).astimezone(dt.UTC)


def source_calendars(run: benchlib.Run) -> list[tuple[str, str]]:
    """(relative path, text) of every input calendar: inputs/calendars/*.ics, late changes."""
    folder = run.source.root / "inputs" / "calendars"
    paths = [f"inputs/calendars/{p.name}" for p in sorted(folder.iterdir()) if p.suffix == ".ics"]
    if run.source.exists("inputs/late_changes.ics"):
        paths.append("inputs/late_changes.ics")
    return [(path, run.source.text(path)) for path in paths]


_EXPECTED: dict[str, dict] = {}


def expected(run: benchlib.Run) -> dict:
    """The merge computed from the pristine inputs: events in order, conflicts, late UIDs."""
    key = str(run.source.root)
    if key in _EXPECTED:
        return _EXPECTED[key]
    best: dict[str, tuple[int, Props, str]] = {}
    late: list[str] = []
    for path, text in source_calendars(run):
        calendar, events = parse_ics(text)
        zone = calendar["X-WR-TIMEZONE"][1]
        for event in events:
            uid = event["UID"][1]
            sequence = int(event.get("SEQUENCE", ({}, "0"))[1])
            if path.endswith("late_changes.ics"):
                late.append(uid)
            if uid not in best or sequence > best[uid][0]:
                best[uid] = (sequence, event, zone)
    kept = []
    for uid, (sequence, event, zone) in best.items():
        if event.get("STATUS", ({}, ""))[1].upper() == "CANCELLED":
            continue
        start_params, start_value = event["DTSTART"]
        all_day = start_params.get("VALUE") == "DATE"
        start = instant(start_params, start_value, zone)
        if all_day:
            first = dt.datetime.strptime(start_value, "%Y%m%d").date()
            last = (
                event["DTEND"][1] if "DTEND" in event else f"{first + dt.timedelta(days=1):%Y%m%d}"
            )
            props = {
                "DTSTART": ({"VALUE": "DATE"}, start_value),
                "DTEND": ({"VALUE": "DATE"}, last),
            }
            end = instant({"VALUE": "DATE"}, last, zone)
        else:
            end = instant(*event["DTEND"], zone)
            props = {"DTSTART": ({}, start.strftime("%Y%m%dT%H%M%SZ")),
                     "DTEND": ({}, end.strftime("%Y%m%dT%H%M%SZ"))}  # fmt: skip
        props["SEQUENCE"] = str(sequence)
        props["SUMMARY"] = event["SUMMARY"][1]
        props["LOCATION"] = event["LOCATION"][1] if "LOCATION" in event else None
        kept.append({"uid": uid, "start": start, "end": end, "all_day": all_day, "props": props})
    kept.sort(key=lambda e: (e["start"], e["uid"]))
    conflicts = []
    for i, a in enumerate(kept):
        for b in kept[i + 1 :]:
            if a["start"] < b["end"] and b["start"] < a["end"]:
                low, high = sorted((a["uid"], b["uid"]))
                overlap = (utc_text(max(a["start"], b["start"])), utc_text(min(a["end"], b["end"])))
                conflicts.append((low, high, *overlap))
    conflicts.sort()
    _EXPECTED[key] = {"events": kept, "conflicts": conflicts, "late": sorted(set(late))}
    return _EXPECTED[key]


def merged(run: benchlib.Run) -> tuple[Props, list[Props]]:
    return parse_ics(run.text("output/merged.ics"))


def candidate_props(event: Props) -> dict:
    """The graded view of one candidate VEVENT (same shape as expected()['props'])."""
    value = lambda name: event[name][1] if name in event else None  # noqa: E731
    return {
        "DTSTART": event.get("DTSTART"),
        "DTEND": event.get("DTEND"),
        "SEQUENCE": value("SEQUENCE"),
        "SUMMARY": value("SUMMARY"),
        "LOCATION": value("LOCATION"),
    }


ALL_FIELDS = ("DTSTART", "DTEND", "SEQUENCE", "SUMMARY", "LOCATION")


def compare_events(
    run: benchlib.Run, wanted: list[dict], what: str, fields: tuple[str, ...] = ALL_FIELDS
) -> None:
    """Each wanted event is in merged.ics with exactly the expected ``fields``."""
    got = {e["UID"][1]: candidate_props(e) for e in merged(run)[1] if "UID" in e}
    for event in wanted:
        uid = event["uid"]
        benchlib.expect(uid in got, f"{what} {uid} is missing from merged.ics")
        have = {f: got[uid][f] for f in fields}
        benchlib.expect_equal(have, {f: event["props"][f] for f in fields}, f"{what} {uid}")


def conflict_rows(run: benchlib.Run) -> list[tuple[str, ...]]:
    rows = run.csv("output/conflicts.csv")
    return [(r["uid_a"], r["uid_b"], r["overlap_start"], r["overlap_end"]) for r in rows]


@judge.check(level=3)
def merged_ics_shape(run: benchlib.Run) -> None:
    """VCALENDAR wrapper, the required properties of every VEVENT, one VEVENT per UID."""
    lines = [line for line in FOLD.sub("", run.text("output/merged.ics")).splitlines() if line]
    benchlib.expect(lines[:1] == ["BEGIN:VCALENDAR"], "merged.ics must start with BEGIN:VCALENDAR")
    benchlib.expect(lines[-1:] == ["END:VCALENDAR"], "merged.ics must end with END:VCALENDAR")
    calendar, events = merged(run)
    benchlib.expect_equal(calendar.get("VERSION", ({}, ""))[1], "2.0", "calendar VERSION")
    benchlib.expect("PRODID" in calendar, "calendar has no PRODID")
    benchlib.expect(events, "merged.ics holds no VEVENT")
    for number, event in enumerate(events, start=1):
        missing = [p for p in ("UID", "SEQUENCE", "DTSTART", "DTEND", "SUMMARY") if p not in event]
        benchlib.expect(not missing, f"VEVENT {number} lacks {', '.join(missing)}")
    uids = [e["UID"][1] for e in events]
    benchlib.expect_equal(len(set(uids)), len(uids), "distinct UIDs among the VEVENTs")


@judge.check(level=3)
def timed_events_merged_in_utc(run: benchlib.Run) -> None:
    """Timed events the late changes do not touch: highest SEQUENCE wins, times in UTC."""
    want = expected(run)
    plain = [e for e in want["events"] if not e["all_day"] and e["uid"] not in want["late"]]
    compare_events(run, plain, "event", ("DTSTART", "DTEND"))


@judge.check(level=3)
def timed_conflicts(run: benchlib.Run) -> None:
    """Conflicts among those timed events: ordered pairs, half-open overlap, in UTC."""
    want = expected(run)
    plain = {e["uid"] for e in want["events"] if not e["all_day"] and e["uid"] not in want["late"]}
    among = lambda rows: sorted(r for r in rows if r[0] in plain and r[1] in plain)  # noqa: E731
    benchlib.expect_equal(among(conflict_rows(run)), among(want["conflicts"]), "conflict rows")


@judge.check(level=4)
def crlf_line_endings(run: benchlib.Run) -> None:
    data = run.bytes("output/merged.ics")
    benchlib.expect(data.endswith(b"\r\n"), "merged.ics must end with CRLF")
    benchlib.expect_equal(data.count(b"\n"), data.count(b"\r\n"), "LF count vs CRLF count")
    benchlib.expect_equal(data.count(b"\r"), data.count(b"\r\n"), "CR count vs CRLF count")


@judge.check(level=4)
def cancelled_events_removed(run: benchlib.Run) -> None:
    """Exactly the kept UIDs: highest-SEQUENCE cancellations (late ones too) are gone."""
    got = sorted(e["UID"][1] for e in merged(run)[1] if "UID" in e)
    benchlib.expect_equal(got, sorted(e["uid"] for e in expected(run)["events"]), "merged UIDs")


@judge.check(level=4)
def sequence_summary_location(run: benchlib.Run) -> None:
    """Every kept event: its SEQUENCE, unfolded SUMMARY and LOCATION (escapes kept)."""
    compare_events(run, expected(run)["events"], "event", ("SEQUENCE", "SUMMARY", "LOCATION"))


@judge.check(level=4)
def all_day_events(run: benchlib.Run) -> None:
    """All-day events keep VALUE=DATE dates, with an exclusive DTEND always written."""
    compare_events(run, [e for e in expected(run)["events"] if e["all_day"]], "all-day event")


@judge.check(level=4, stage="late-changes")
def late_changes_applied(run: benchlib.Run) -> None:
    """Events with a version in late_changes.ics: room change, DST window, stale cancel."""
    want = expected(run)
    compare_events(run, [e for e in want["events"] if e["uid"] in want["late"]], "late event")


@judge.check(level=4)
def events_in_utc_order(run: benchlib.Run) -> None:
    got = [e["UID"][1] if "UID" in e else "" for e in merged(run)[1]]
    benchlib.expect_equal(got, [e["uid"] for e in expected(run)["events"]], "VEVENT order")


@judge.check(level=4)
def conflicts_exact(run: benchlib.Run) -> None:
    """Every conflict pair after the late changes, all-day events included, in order."""
    benchlib.expect_equal(conflict_rows(run), expected(run)["conflicts"], "conflicts.csv rows")


@judge.edge
def folded_summary_unfolds(run: benchlib.Run) -> None:
    events = {e["UID"][1]: e for e in merged(run)[1] if "UID" in e}
    got = events.get("edge-roadmap@alpha.example.com", {}).get("SUMMARY", ({}, None))[1]
    benchlib.expect_equal(got, EDGE_SUMMARY, "SUMMARY of edge-roadmap@alpha.example.com")


# --- the exact form TASK.md prescribes for both outputs: merged.ics line by line (shape,
# --- property order, no extra properties or parameters, folding) and the CSV's writing

CONFLICTS = "output/conflicts.csv"


def physical_and_logical(run: benchlib.Run) -> tuple[list[str], list[str]]:
    """merged.ics split at CRLF (without the empty piece after the last one), and unfolded."""
    physical = run.text("output/merged.ics").split("\r\n")
    physical = physical[:-1] if physical[-1:] == [""] else physical
    logical: list[str] = []
    for line in physical:
        if line[:1] in (" ", "\t") and logical:
            logical[-1] += line[1:]
        else:
            logical.append(line)
    return physical, logical


def expected_lines(run: benchlib.Run, prodid: str) -> list[str]:
    """The unfolded merged.ics TASK.md prescribes (``prodid``: the candidate's own line)."""
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", prodid]
    for event in expected(run)["events"]:
        props, date = event["props"], ";VALUE=DATE" if event["all_day"] else ""
        lines += ["BEGIN:VEVENT", f"UID:{event['uid']}", f"SEQUENCE:{props['SEQUENCE']}"]
        lines += [f"DTSTART{date}:{props['DTSTART'][1]}", f"DTEND{date}:{props['DTEND'][1]}"]
        lines.append(f"SUMMARY:{props['SUMMARY']}")
        if props["LOCATION"] is not None:
            lines.append(f"LOCATION:{props['LOCATION']}")
        lines.append("END:VEVENT")
    return [*lines, "END:VCALENDAR"]


@judge.check(level=4)
def merged_ics_exact_lines(run: benchlib.Run) -> None:
    """Unfolded, merged.ics is exactly TASK.md's shape: the three calendar lines (any PRODID
    value), each kept event's six properties in order without parameters (VALUE=DATE for
    all-day dates), nothing else."""
    _, logical = physical_and_logical(run)
    prodid = logical[2] if len(logical) > 2 and logical[2][:7] == "PRODID:" else ""
    prodid = prodid if prodid[7:] else "PRODID:<a value of your choice>"
    benchlib.expect_equal(logical, expected_lines(run, prodid), "merged.ics lines, unfolded")


def folded(line: str) -> list[str]:
    """TASK.md's folding: fill each physical line up to 75 octets (a continuation's leading
    space counts), never splitting a character."""
    pieces = [""]
    for char in line:
        if len((pieces[-1] + char).encode("utf-8")) > 75:
            pieces.append(" ")
        pieces[-1] += char
    return pieces


@judge.check(level=4)
def merged_ics_folding(run: benchlib.Run) -> None:
    """Every line longer than 75 octets is folded, filling each physical line; no other is."""
    physical, logical = physical_and_logical(run)
    want = [piece for line in logical for piece in folded(line)]
    benchlib.expect_equal(physical, want, "merged.ics physical lines (folded at 75 octets)")


@judge.check(level=4)
def conflicts_csv_written_as_stated(run: benchlib.Run) -> None:
    """TASK.md: written as csv.writer(stream, lineterminator="\\n") writes it (LF endings,
    minimal quoting): the text equals its own rows written that way."""
    canonical = io.StringIO()
    csv.writer(canonical, lineterminator="\n").writerows(run.files.csv_rows(CONFLICTS))
    lines = run.text(CONFLICTS).split("\n")  # a CRLF line keeps its CR: the note shows it
    want = canonical.getvalue().split("\n")
    benchlib.expect_equal(lines, want, f"{CONFLICTS} lines (LF endings, minimal quoting)")


# endregion authored

if __name__ == "__main__":
    sys.exit(judge.main())
