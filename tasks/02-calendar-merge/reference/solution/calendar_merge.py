"""Merge iCalendar exports into one UTC calendar and report overlapping events.

Usage: python -m solution.calendar_merge CALENDAR_DIR MERGED_ICS CONFLICTS_CSV

Reads every *.ics file of CALENDAR_DIR and, when present, the late-changes calendar
late_changes.ics next to that folder (inputs/late_changes.ics).
"""

from __future__ import annotations

import csv
import sys
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

LATE_CHANGES = "late_changes.ics"


@dataclass
class Version:
    uid: str
    sequence: int
    cancelled: bool
    start: datetime  # aware, UTC
    end: datetime
    all_day: bool
    start_date: date | None
    end_date: date | None
    summary: str
    location: str | None


def unfold(text: str) -> list[str]:
    """Logical lines: a physical line starting with a space or tab continues the previous."""
    lines: list[str] = []
    for raw in text.replace("\r\n", "\n").replace("\r", "\n").split("\n"):
        if raw[:1] in (" ", "\t") and lines:
            lines[-1] += raw[1:]
        elif raw:
            lines.append(raw)
    return lines


def split_line(line: str) -> tuple[str, dict[str, str], str]:
    """NAME;P=v;...:value -> (NAME, {P: v}, value); the first colon outside quotes splits."""
    quoted = False
    for index, char in enumerate(line):
        if char == '"':
            quoted = not quoted
        elif char == ":" and not quoted:
            head, value = line[:index], line[index + 1 :]
            break
    else:
        head, value = line, ""
    name, *parts = head.split(";")
    params = {}
    for part in parts:
        key, _, val = part.partition("=")
        params[key.upper()] = val.strip('"')
    return name.upper(), params, value


def to_utc(params: dict[str, str], value: str, default_zone: str) -> datetime:
    if value.endswith("Z"):
        return datetime.strptime(value, "%Y%m%dT%H%M%SZ").replace(tzinfo=UTC)
    zone = ZoneInfo(params.get("TZID", default_zone))
    return datetime.strptime(value, "%Y%m%dT%H%M%S").replace(tzinfo=zone).astimezone(UTC)


def midnight_utc(day: date, zone: str) -> datetime:
    return datetime(day.year, day.month, day.day, tzinfo=ZoneInfo(zone)).astimezone(UTC)


def read_calendar(path: Path) -> list[Version]:
    lines = [split_line(line) for line in unfold(path.read_text(encoding="utf-8"))]
    zone = next((v for n, _, v in lines if n == "X-WR-TIMEZONE"), "UTC")
    versions = []
    props: dict[str, tuple[dict[str, str], str]] | None = None
    nested = 0
    for name, params, value in lines:
        if name == "BEGIN" and value.upper() == "VEVENT":
            props, nested = {}, 0
        elif props is not None and name == "BEGIN":
            nested += 1
        elif props is not None and name == "END" and value.upper() != "VEVENT":
            nested -= 1
        elif name == "END" and value.upper() == "VEVENT" and props is not None:
            versions.append(make_version(props, zone))
            props = None
        elif props is not None and nested == 0 and name not in props:
            props[name] = (params, value)
    return versions


def make_version(props: dict[str, tuple[dict[str, str], str]], zone: str) -> Version:
    start_params, start_value = props["DTSTART"]
    all_day = start_params.get("VALUE", "").upper() == "DATE" or len(start_value) == 8
    start_date = end_date = None
    if all_day:
        start_date = datetime.strptime(start_value, "%Y%m%d").date()
        if "DTEND" in props:
            end_date = datetime.strptime(props["DTEND"][1], "%Y%m%d").date()
        else:
            end_date = start_date + timedelta(days=1)
        start, end = midnight_utc(start_date, zone), midnight_utc(end_date, zone)
    else:
        start = to_utc(start_params, start_value, zone)
        end = to_utc(*props["DTEND"], zone)
    return Version(
        uid=props["UID"][1],
        sequence=int(props.get("SEQUENCE", ({}, "0"))[1].strip() or 0),
        cancelled=props.get("STATUS", ({}, ""))[1].strip().upper() == "CANCELLED",
        start=start,
        end=end,
        all_day=all_day,
        start_date=start_date,
        end_date=end_date,
        summary=props.get("SUMMARY", ({}, ""))[1],
        location=props["LOCATION"][1] if "LOCATION" in props else None,
    )


def calendar_files(folder: Path) -> list[Path]:
    files = sorted(p for p in folder.iterdir() if p.suffix.lower() == ".ics" and p.is_file())
    late = folder.parent / LATE_CHANGES
    if late.is_file() and late not in files:
        files.append(late)
    return files


def merge(folder: Path) -> list[Version]:
    current: dict[str, Version] = {}
    for path in calendar_files(folder):
        for version in read_calendar(path):
            known = current.get(version.uid)
            if known is None or version.sequence > known.sequence:
                current[version.uid] = version
    kept = [v for v in current.values() if not v.cancelled]
    return sorted(kept, key=lambda v: (v.start, v.uid))


def fold(line: str) -> str:
    """Fold a content line at 75 octets without splitting a UTF-8 sequence."""
    pieces, piece, size, limit = [], "", 0, 75
    for char in line:
        width = len(char.encode("utf-8"))
        if size + width > limit:
            pieces.append(piece)
            piece, size, limit = "", 0, 74
        piece += char
        size += width
    pieces.append(piece)
    return "\r\n ".join(pieces)


def ics_stamp(moment: datetime) -> str:
    return moment.strftime("%Y%m%dT%H%M%SZ")


def write_merged(events: list[Version], path: Path) -> None:
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//calendar-merge reference//EN"]
    for event in events:
        lines += ["BEGIN:VEVENT", f"UID:{event.uid}", f"SEQUENCE:{event.sequence}"]
        if event.all_day:
            assert event.start_date and event.end_date
            lines.append(f"DTSTART;VALUE=DATE:{event.start_date:%Y%m%d}")
            lines.append(f"DTEND;VALUE=DATE:{event.end_date:%Y%m%d}")
        else:
            lines.append(f"DTSTART:{ics_stamp(event.start)}")
            lines.append(f"DTEND:{ics_stamp(event.end)}")
        lines.append(f"SUMMARY:{event.summary}")
        if event.location is not None:
            lines.append(f"LOCATION:{event.location}")
        lines.append("END:VEVENT")
    lines.append("END:VCALENDAR")
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="") as out:
        out.write("".join(fold(line) + "\r\n" for line in lines))


def conflicts(events: list[Version]) -> list[tuple[str, str, str, str]]:
    rows = []
    for i, a in enumerate(events):
        for b in events[i + 1 :]:
            if b.start >= a.end:
                break  # sorted by start: no later event can overlap a
            if a.start < b.end and b.start < a.end:
                first, second = sorted((a.uid, b.uid))
                rows.append((first, second, iso(max(a.start, b.start)), iso(min(a.end, b.end))))
    return sorted(rows)


def iso(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def write_conflicts(rows: list[tuple[str, str, str, str]], path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="") as out:
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(["uid_a", "uid_b", "overlap_start", "overlap_end"])
        writer.writerows(rows)


def main(argv: list[str]) -> int:
    if len(argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    folder, merged_path, conflicts_path = (Path(a) for a in argv)
    events = merge(folder)
    write_merged(events, merged_path)
    write_conflicts(conflicts(events), conflicts_path)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
