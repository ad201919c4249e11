# generated from task.toml by benchsmith -- edit only the authored region
"""Judge of task 27: Clinic Appointment Rescheduling.

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
    "id": 27,
    "slug": "clinic-rescheduling",
    "stages": ["initial", "absence", "urgent", "outage"],
    "editable": ["solution/", "output/"],
    "commands": [
        {
            "run": "python -m solution.clinic_schedule inputs --output output",
            "argv": ["python", "-m", "solution.clinic_schedule", "inputs", "--output", "output"],
            "cwd": ".",
            "stdin": None,
            "stage": "initial",
            "timeout": 60.0,
        }
    ],
    "outputs": [
        {
            "path": "output/baseline_issues.csv",
            "format": "csv",
            "header": ["appointment_id", "issue", "other_appointment_id"],
            "stage": "initial",
        },
        {
            "path": "output/schedule.csv",
            "format": "csv",
            "header": [
                "appointment_id",
                "patient_id",
                "type",
                "provider_id",
                "site_id",
                "room_id",
                "start",
                "end",
                "priority",
                "locked",
            ],
            "stage": "initial",
        },
        {
            "path": "output/changes.csv",
            "format": "csv",
            "header": [
                "appointment_id",
                "patient_id",
                "change",
                "reason",
                "old_provider_id",
                "old_room_id",
                "old_start",
                "new_provider_id",
                "new_room_id",
                "new_start",
                "minutes_moved",
            ],
            "stage": "absence",
        },
        {
            "path": "output/unscheduled.csv",
            "format": "csv",
            "header": [
                "appointment_id",
                "patient_id",
                "reason",
                "old_provider_id",
                "old_room_id",
                "old_start",
            ],
            "stage": "absence",
        },
        {"path": "output/absence_report.json", "format": "json", "header": [], "stage": "absence"},
        {
            "path": "output/urgent_report.csv",
            "format": "csv",
            "header": [
                "request_id",
                "status",
                "provider_id",
                "room_id",
                "start",
                "displaced_appointment_id",
            ],
            "stage": "urgent",
        },
        {"path": "output/outage_report.json", "format": "json", "header": [], "stage": "outage"},
        {"path": "output/notices/", "format": "directory", "header": [], "stage": "outage"},
    ],
    "expect": [
        {
            "name": "issue-single#1",
            "file": "output/baseline_issues.csv",
            "level": 3,
            "where": {
                "appointment_id": "A005",
                "issue": "provider_unqualified",
                "other_appointment_id": "",
            },
            "count": 1,
        },
        {
            "name": "issue-single#2",
            "file": "output/baseline_issues.csv",
            "level": 3,
            "where": {"appointment_id": "A005"},
            "count": 1,
        },
        {
            "name": "issue-single#3",
            "file": "output/baseline_issues.csv",
            "level": 3,
            "where": {"appointment_id": "A017", "issue": "provider_unavailable"},
            "count": 1,
        },
        {
            "name": "issue-single#4",
            "file": "output/baseline_issues.csv",
            "level": 3,
            "where": {"appointment_id": "A023"},
            "count": 2,
        },
        {
            "name": "issue-single#5",
            "file": "output/baseline_issues.csv",
            "level": 3,
            "where": {"appointment_id": "A023", "issue": "provider_overlap"},
            "equals": {"other_appointment_id": "A026"},
        },
        {
            "name": "issue-single#6",
            "file": "output/baseline_issues.csv",
            "level": 3,
            "where": {"appointment_id": "A030", "issue": "patient_unavailable"},
            "count": 1,
        },
        {
            "name": "issue-single#7",
            "file": "output/baseline_issues.csv",
            "level": 3,
            "where": {"appointment_id": "A044", "issue": "equipment_missing"},
            "count": 1,
        },
        {
            "name": "issue-single#8",
            "file": "output/baseline_issues.csv",
            "level": 3,
            "where": {"appointment_id": "A098", "issue": "provider_unavailable"},
            "count": 1,
        },
        {
            "name": "issue-pairs#1",
            "file": "output/baseline_issues.csv",
            "level": 3,
            "where": {"appointment_id": "A049", "issue": "provider_overlap"},
            "equals": {"other_appointment_id": "A055"},
        },
        {
            "name": "issue-pairs#2",
            "file": "output/baseline_issues.csv",
            "level": 3,
            "where": {"appointment_id": "A055", "issue": "provider_overlap"},
            "equals": {"other_appointment_id": "A049"},
        },
        {
            "name": "issue-pairs#3",
            "file": "output/baseline_issues.csv",
            "level": 3,
            "where": {"appointment_id": "A061", "issue": "room_overlap"},
            "equals": {"other_appointment_id": "A066"},
        },
        {
            "name": "issue-pairs#4",
            "file": "output/baseline_issues.csv",
            "level": 3,
            "where": {"appointment_id": "A073", "issue": "patient_overlap"},
            "equals": {"other_appointment_id": "A069"},
        },
        {
            "name": "issue-pairs#5",
            "file": "output/baseline_issues.csv",
            "level": 3,
            "where": {"appointment_id": "A082", "issue": "travel_buffer"},
            "equals": {"other_appointment_id": "A086"},
        },
        {
            "name": "issue-pairs#6",
            "file": "output/baseline_issues.csv",
            "level": 3,
            "where": {"appointment_id": "A086", "issue": "travel_buffer"},
            "equals": {"other_appointment_id": "A082"},
        },
        {
            "name": "rows-and-travel#1",
            "file": "output/baseline_issues.csv",
            "level": 3,
            "where": {"appointment_id": "A015", "issue": "provider_unavailable"},
            "count": 1,
        },
        {
            "name": "rows-and-travel#2",
            "file": "output/baseline_issues.csv",
            "level": 3,
            "where": {"appointment_id": "A009"},
            "absent": True,
        },
        {
            "name": "valid-boundaries#1",
            "file": "output/baseline_issues.csv",
            "level": 3,
            "where": {"appointment_id": "A036", "issue": "patient_unavailable"},
            "count": 1,
        },
        {
            "name": "valid-boundaries#2",
            "file": "output/baseline_issues.csv",
            "level": 3,
            "where": {"appointment_id": "A019"},
            "absent": True,
        },
        {
            "name": "valid-boundaries#3",
            "file": "output/baseline_issues.csv",
            "level": 3,
            "where": {"appointment_id": "A038"},
            "absent": True,
        },
        {
            "name": "valid-boundaries#4",
            "file": "output/baseline_issues.csv",
            "level": 3,
            "where": {"appointment_id": "A080"},
            "absent": True,
        },
        {
            "name": "valid-boundaries#5",
            "file": "output/baseline_issues.csv",
            "level": 3,
            "where": {"appointment_id": "A095"},
            "absent": True,
        },
        {
            "name": "absence-tuesday#1",
            "file": "output/schedule.csv",
            "level": 3,
            "where": {"appointment_id": "A012"},
            "equals": {
                "start": "2025-03-11T08:30",
                "end": "2025-03-11T09:00",
                "locked": "false",
                "site_id": "HARBOR",
            },
        },
        {
            "name": "absence-tuesday#2",
            "file": "output/schedule.csv",
            "level": 3,
            "where": {"appointment_id": "A027"},
            "equals": {"provider_id": "P04", "start": "2025-03-11T11:30"},
        },
        {
            "name": "absence-tuesday#3",
            "file": "output/changes.csv",
            "level": 4,
            "stage": "absence",
            "where": {"appointment_id": "A027"},
            "absent": True,
        },
        {
            "name": "absence-tuesday#4",
            "file": "output/schedule.csv",
            "level": 4,
            "until": "initial",
            "where": {"appointment_id": "A033"},
            "equals": {"provider_id": "P04", "room_id": "H1", "start": "2025-03-11T12:00"},
        },
        {
            "name": "absence-tuesday#5",
            "file": "output/changes.csv",
            "level": 4,
            "stage": "absence",
            "where": {"appointment_id": "A033"},
            "equals": {
                "change": "rescheduled",
                "reason": "absence",
                "new_provider_id": "P05",
                "new_room_id": "H2",
                "new_start": "2025-03-11T11:30",
                "minutes_moved": "30",
            },
        },
        {
            "name": "absence-tuesday#6",
            "file": "output/unscheduled.csv",
            "level": 4,
            "stage": "absence",
            "where": {"appointment_id": "A041"},
            "equals": {
                "patient_id": "PT077",
                "reason": "absence",
                "old_provider_id": "P04",
                "old_room_id": "H1",
                "old_start": "2025-03-11T14:00",
            },
        },
        {
            "name": "absence-tuesday#7",
            "file": "output/schedule.csv",
            "level": 4,
            "where": {"appointment_id": "A046"},
            "equals": {"provider_id": "P04", "start": "2025-03-11T15:00", "locked": "true"},
        },
        {
            "name": "absence-tuesday#8",
            "file": "output/absence_report.json",
            "level": 4,
            "stage": "absence",
            "path": "locked_kept",
            "equals": ["A035", "A046"],
        },
        {
            "name": "absence-wednesday-p05#1",
            "file": "output/changes.csv",
            "level": 4,
            "stage": "absence",
            "where": {"appointment_id": "A052"},
            "equals": {
                "change": "reassigned",
                "new_provider_id": "P05",
                "new_room_id": "H1",
                "new_start": "2025-03-12T09:00",
                "minutes_moved": "0",
            },
        },
        {
            "name": "absence-wednesday-p05#2",
            "file": "output/changes.csv",
            "level": 4,
            "stage": "absence",
            "where": {"appointment_id": "A058"},
            "equals": {
                "new_provider_id": "P05",
                "new_start": "2025-03-12T09:30",
                "minutes_moved": "30",
            },
        },
        {
            "name": "absence-wednesday-p05#3",
            "file": "output/changes.csv",
            "level": 4,
            "stage": "absence",
            "where": {"appointment_id": "A075"},
            "equals": {
                "change": "reassigned",
                "new_provider_id": "P05",
                "new_start": "2025-03-12T11:00",
            },
        },
        {
            "name": "absence-wednesday-p05#4",
            "file": "output/unscheduled.csv",
            "level": 4,
            "stage": "absence",
            "where": {"appointment_id": "A071"},
            "equals": {"reason": "absence"},
        },
        {
            "name": "absence-wednesday-p12#1",
            "file": "output/changes.csv",
            "level": 4,
            "stage": "absence",
            "where": {"appointment_id": "A084"},
            "equals": {
                "new_provider_id": "P12",
                "new_start": "2025-03-12T12:45",
                "minutes_moved": "15",
            },
        },
        {
            "name": "absence-wednesday-p12#2",
            "file": "output/changes.csv",
            "level": 4,
            "stage": "absence",
            "where": {"appointment_id": "A093"},
            "equals": {
                "new_provider_id": "P12",
                "new_start": "2025-03-12T14:30",
                "minutes_moved": "30",
            },
        },
        {
            "name": "absence-wednesday-tie#1",
            "file": "output/changes.csv",
            "level": 4,
            "stage": "absence",
            "where": {"appointment_id": "A128"},
            "equals": {
                "new_provider_id": "P12",
                "new_start": "2025-03-12T15:15",
                "minutes_moved": "15",
            },
        },
        {
            "name": "absence-wednesday-tie#2",
            "file": "output/unscheduled.csv",
            "level": 4,
            "stage": "absence",
            "where": {"appointment_id": "A131"},
            "count": 1,
        },
        {
            "name": "absence-thursday#1",
            "file": "output/changes.csv",
            "level": 4,
            "stage": "absence",
            "where": {"appointment_id": "A116"},
            "equals": {
                "change": "rescheduled",
                "new_provider_id": "P04",
                "new_start": "2025-03-13T12:30",
                "minutes_moved": "60",
            },
        },
        {
            "name": "absence-thursday#2",
            "file": "output/changes.csv",
            "level": 4,
            "stage": "absence",
            "where": {"appointment_id": "A121"},
            "absent": True,
        },
        {
            "name": "absence-thursday#3",
            "file": "output/changes.csv",
            "level": 4,
            "stage": "absence",
            "where": {"appointment_id": "A109"},
            "equals": {"new_provider_id": "P05", "new_start": "2025-03-13T09:00"},
        },
        {
            "name": "absence-thursday#4",
            "file": "output/changes.csv",
            "level": 4,
            "stage": "absence",
            "where": {"appointment_id": "A104"},
            "equals": {
                "new_provider_id": "P04",
                "new_start": "2025-03-13T14:00",
                "minutes_moved": "300",
            },
        },
        {
            "name": "absence-thursday#5",
            "file": "output/absence_report.json",
            "level": 4,
            "stage": "absence",
            "path": "moved",
            "equals": 8,
        },
        {
            "name": "absence-thursday#6",
            "file": "output/absence_report.json",
            "level": 4,
            "stage": "absence",
            "path": "minutes_moved",
            "equals": 510,
        },
        {
            "name": "urgent-free-slot#1",
            "file": "output/urgent_report.csv",
            "level": 4,
            "stage": "urgent",
            "where": {"request_id": "U01"},
            "equals": {
                "status": "booked",
                "provider_id": "P12",
                "room_id": "W2",
                "start": "2025-03-11T09:30",
                "displaced_appointment_id": "",
            },
        },
        {
            "name": "urgent-free-slot#2",
            "file": "output/changes.csv",
            "level": 4,
            "stage": "urgent",
            "where": {"appointment_id": "U01"},
            "equals": {
                "patient_id": "PT301",
                "change": "booked",
                "reason": "urgent",
                "old_start": "",
                "new_start": "2025-03-11T09:30",
                "minutes_moved": "",
            },
        },
        {
            "name": "urgent-displacement#1",
            "file": "output/urgent_report.csv",
            "level": 4,
            "stage": "urgent",
            "where": {"request_id": "U02", "status": "booked_with_displacement"},
            "equals": {
                "provider_id": "P05",
                "start": "2025-03-12T15:00",
                "displaced_appointment_id": "A178",
            },
        },
        {
            "name": "urgent-displacement#2",
            "file": "output/changes.csv",
            "level": 4,
            "stage": "urgent",
            "where": {"appointment_id": "A178"},
            "equals": {
                "change": "rescheduled",
                "reason": "displaced",
                "new_provider_id": "P05",
                "new_start": "2025-03-12T15:30",
                "minutes_moved": "30",
            },
        },
        {
            "name": "urgent-displacement#3",
            "file": "output/schedule.csv",
            "level": 4,
            "stage": "urgent",
            "where": {"appointment_id": "A163"},
            "equals": {"provider_id": "P01", "start": "2025-03-12T14:30"},
        },
        {
            "name": "urgent-displacement#4",
            "file": "output/changes.csv",
            "level": 4,
            "stage": "urgent",
            "where": {"appointment_id": "A174"},
            "absent": True,
        },
        {
            "name": "urgent-existing-patient#1",
            "file": "output/urgent_report.csv",
            "level": 4,
            "stage": "urgent",
            "where": {"request_id": "U03"},
            "equals": {"status": "booked", "provider_id": "P06", "start": "2025-03-13T09:45"},
        },
        {
            "name": "urgent-priority-order#1",
            "file": "output/urgent_report.csv",
            "level": 4,
            "stage": "urgent",
            "where": {"request_id": "U05"},
            "equals": {"provider_id": "P07", "room_id": "N2", "start": "2025-03-13T12:00"},
        },
        {
            "name": "urgent-priority-order#2",
            "file": "output/urgent_report.csv",
            "level": 4,
            "stage": "urgent",
            "where": {"request_id": "U04"},
            "equals": {"provider_id": "P07", "room_id": "N2", "start": "2025-03-13T12:45"},
        },
        {
            "name": "outage-thursday#1",
            "file": "output/changes.csv",
            "level": 4,
            "stage": "outage",
            "where": {"appointment_id": "A200"},
            "equals": {
                "change": "reassigned",
                "reason": "outage",
                "new_provider_id": "P07",
                "new_room_id": "N4",
                "new_start": "2025-03-13T13:30",
            },
        },
        {
            "name": "outage-thursday#2",
            "file": "output/changes.csv",
            "level": 4,
            "stage": "outage",
            "where": {"appointment_id": "U04"},
            "equals": {
                "change": "booked",
                "reason": "outage",
                "new_room_id": "N4",
                "new_start": "2025-03-13T12:45",
            },
        },
        {
            "name": "outage-thursday#3",
            "file": "output/changes.csv",
            "level": 4,
            "stage": "outage",
            "where": {"appointment_id": "U05"},
            "equals": {
                "change": "booked",
                "reason": "outage",
                "new_room_id": "N4",
                "new_start": "2025-03-13T14:15",
            },
        },
        {
            "name": "outage-thursday#4",
            "file": "output/changes.csv",
            "level": 4,
            "stage": "outage",
            "where": {"appointment_id": "A196"},
            "absent": True,
        },
        {
            "name": "outage-thursday#5",
            "file": "output/outage_report.json",
            "level": 4,
            "stage": "outage",
            "path": "affected",
            "equals": ["A200", "A213", "A217", "A219", "A238", "U04", "U05"],
        },
        {
            "name": "outage-fewer-moves#1",
            "file": "output/changes.csv",
            "level": 4,
            "stage": "outage",
            "where": {"appointment_id": "A213"},
            "equals": {
                "change": "reassigned",
                "new_room_id": "N4",
                "new_start": "2025-03-14T11:30",
            },
        },
        {
            "name": "outage-fewer-moves#2",
            "file": "output/changes.csv",
            "level": 4,
            "stage": "outage",
            "where": {"appointment_id": "A217"},
            "equals": {
                "new_provider_id": "P08",
                "new_room_id": "N4",
                "new_start": "2025-03-14T10:45",
                "minutes_moved": "90",
            },
        },
        {
            "name": "outage-fewer-moves#3",
            "file": "output/outage_report.json",
            "level": 4,
            "stage": "outage",
            "path": "moved",
            "equals": 3,
        },
        {
            "name": "outage-fewer-moves#4",
            "file": "output/outage_report.json",
            "level": 4,
            "stage": "outage",
            "path": "minutes_moved",
            "equals": 1575,
        },
        {
            "name": "outage-friday#1",
            "file": "output/outage_report.json",
            "level": 4,
            "stage": "outage",
            "path": "locked_kept",
            "equals": ["A215", "A249"],
        },
        {
            "name": "outage-friday#2",
            "file": "output/unscheduled.csv",
            "level": 4,
            "stage": "outage",
            "where": {"appointment_id": "A219"},
            "equals": {"reason": "outage", "old_room_id": "N2"},
        },
        {
            "name": "outage-friday#3",
            "file": "output/changes.csv",
            "level": 4,
            "stage": "outage",
            "where": {"appointment_id": "A238"},
            "equals": {
                "change": "rescheduled",
                "new_provider_id": "P07",
                "new_room_id": "N2",
                "new_start": "2025-03-13T10:30",
                "minutes_moved": "1350",
            },
        },
        {
            "name": "outage-friday#4",
            "file": "output/schedule.csv",
            "level": 4,
            "stage": "outage",
            "where": {"appointment_id": "A230"},
            "equals": {"room_id": "N2", "start": "2025-03-14T11:00"},
        },
    ],
    "edge_expect": [
        {
            "name": "edge#1",
            "file": "output/urgent_report.csv",
            "level": 4,
            "stage": "urgent",
            "where": {"request_id": "U01"},
            "equals": {
                "status": "unscheduled",
                "provider_id": "",
                "room_id": "",
                "start": "",
                "displaced_appointment_id": "",
            },
        },
        {
            "name": "edge#2",
            "file": "output/unscheduled.csv",
            "level": 4,
            "stage": "urgent",
            "where": {"appointment_id": "U01"},
            "equals": {
                "patient_id": "PT05",
                "reason": "urgent",
                "old_provider_id": "",
                "old_room_id": "",
                "old_start": "",
            },
        },
        {"name": "edge#3", "file": "output/changes.csv", "level": 4, "stage": "urgent", "count": 0},
    ],
    "edge_include_visible": True,
    "services": [],
}

judge = benchlib.Judge(TASK)

# region authored: benchsmith keeps these lines when it rebuilds judge.py
# The judge's own reading of the task: a validation of the export and an exact search per
# replanning step, written apart from reference/ (times are integer minutes from Monday 00:00,
# bookings are tuples). The truth of a fixture is plain data computed once (run.derived); it
# applies the steps whose inputs exist in the judged stage's fixture.
import datetime as dt
import os

ISSUES = "output/baseline_issues.csv"
SCHEDULE = "output/schedule.csv"
CHANGES = "output/changes.csv"
UNSCHEDULED = "output/unscheduled.csv"
URGENT = "output/urgent_report.csv"
NOTICES = "output/notices"
EPOCH = dt.datetime(2025, 3, 10)
NEVER = 10**9  # the start of "no slot" in the tie-break
MONTH_NAMES = ("January February March April May June July August September October "
               "November December").split()  # fmt: skip
DAY_NAMES = "Monday Tuesday Wednesday Thursday Friday Saturday Sunday".split()
REPORT_KEYS = ["affected", "locked_kept", "minutes_moved", "moved", "unscheduled"]


def clock(text: str) -> int:
    """Minutes since Monday 00:00 of any of the export's three time forms."""
    text = text.strip()
    if "/" in text:
        day, month, rest = text.split("/")
        text = f"{rest[:4]}-{month}-{day}T{rest[5:]}"
    moment = dt.datetime.fromisoformat(text.replace(" ", "T"))
    return (moment - EPOCH) // dt.timedelta(minutes=1)


def iso(minute: int) -> str:
    return (EPOCH + dt.timedelta(minutes=minute)).strftime("%Y-%m-%dT%H:%M")


def human(minute: int) -> tuple[str, str]:
    """('Wednesday 12 March 2025', '09:00') of a minute."""
    moment = EPOCH + dt.timedelta(minutes=minute)
    day = (
        f"{DAY_NAMES[moment.weekday()]} {moment.day} {MONTH_NAMES[moment.month - 1]} {moment.year}"
    )
    return day, moment.strftime("%H:%M")


class Clinic:
    """Pristine inputs of one fixture, and the legality rules shared by every step."""

    def __init__(self, source: benchlib.Files) -> None:
        self.site_name = {r["site_id"]: r["name"] for r in source.csv("inputs/sites.csv")}
        self.travel = {(r["from_site"], r["to_site"]): int(r["minutes"])
                       for r in source.csv("inputs/travel.csv")}  # fmt: skip
        self.room_site = {r["room_id"]: r["site_id"] for r in source.csv("inputs/rooms.csv")}
        self.room_gear = {r["room_id"]: r["equipment"].split(";")
                          for r in source.csv("inputs/rooms.csv")}  # fmt: skip
        types = source.csv("inputs/appointment_types.csv")
        self.length = {r["type"]: int(r["duration_minutes"]) for r in types}
        self.gear = {r["type"]: r["equipment"] for r in types}
        self.type_name = {r["type"]: r["name"] for r in types}
        self.skills = {
            r["provider_id"]: r["types"].split(";") for r in source.csv("inputs/providers.csv")
        }
        self.provider_name = {
            r["provider_id"]: r["name"] for r in source.csv("inputs/providers.csv")
        }
        self.shifts = [(r["provider_id"], r["site_id"], clock(r["start"]), clock(r["end"]))
                       for r in source.csv("inputs/provider_availability.csv")]  # fmt: skip
        self.patient_name = {r["patient_id"]: r["name"] for r in source.csv("inputs/patients.csv")}
        self.windows: dict[str, list[tuple[int, int]]] = {}
        for r in source.csv("inputs/patient_windows.csv"):
            self.windows.setdefault(r["patient_id"], []).append(
                (clock(r["start"]), clock(r["end"]))
            )
        self.absent = None  # (provider, start, end)
        self.outage = None  # (room, equipment, start, end)

    def booking(self, appt: dict, provider: str, room: str, start: int) -> tuple:
        """(id, patient, provider, room, site, start, end) of an appointment at a slot."""
        return (appt["id"], appt["patient"], provider, room, self.room_site[room], start,
                start + self.length[appt["type"]])  # fmt: skip

    def clash(self, one: tuple, two: tuple) -> bool:
        """Overlap of provider, room or patient, or a provider's short trip between sites."""
        apart = one[6] <= two[5] or two[6] <= one[5]
        if not apart and (one[3] == two[3] or one[1] == two[1] or one[2] == two[2]):
            return True
        if one[2] != two[2] or one[4] == two[4]:
            return False
        first, second = (one, two) if one[5] < two[5] else (two, one)
        return second[5] - first[6] < self.travel[(first[4], second[4])]

    def fits(self, appt: dict, booking: tuple) -> bool:
        """Every rule of a new slot but the clashes with other appointments."""
        _, _, provider, room, site, start, end = booking
        if start % 15 or appt["type"] not in self.skills[provider] or site != appt["site"]:
            return False
        gear = self.gear[appt["type"]]
        if gear and gear not in self.room_gear[room]:
            return False
        if not any(
            p == provider and s == site and a <= start and end <= b for p, s, a, b in self.shifts
        ):
            return False
        if not any(a <= start and end <= b for a, b in appt["windows"]):
            return False
        if (
            self.absent
            and provider == self.absent[0]
            and start < self.absent[2]
            and self.absent[1] < end
        ):
            return False
        if self.outage and room == self.outage[0] and gear == self.outage[1]:
            return not (start < self.outage[3] and self.outage[2] < end)
        return True

    def candidates(self, appt: dict, others: list[tuple]) -> list[tuple]:
        """Every legal new booking of ``appt`` against ``others``."""
        found = []
        for provider, site, low, high in self.shifts:
            if site != appt["site"]:
                continue
            for start in range(low + (-low) % 15, high - self.length[appt["type"]] + 1, 15):
                for room in sorted(r for r, s in self.room_site.items() if s == site):
                    booking = self.booking(appt, provider, room, start)
                    if self.fits(appt, booking) and not any(self.clash(booking, o) for o in others):
                        found.append(booking)
        return sorted(set(found), key=lambda b: (b[5], b[2], b[3]))


def read_export(clinic: Clinic, source: benchlib.Files) -> list[dict]:
    appointments = []
    for r in source.csv("inputs/appointments.csv"):
        room = r["room_id"].strip().upper()
        patient = r["patient_id"].strip().upper()
        start = clock(r["start"])
        appointments.append({
            "id": r["appointment_id"].strip().upper(), "patient": patient, "type": r["type"],
            "provider": r["provider_id"].strip().upper(), "room": room, "start": start,
            "end": start + clinic.length[r["type"]], "site": clinic.room_site[room],
            "priority": int(r["priority"]), "locked": r["locked"].strip().lower() in ("yes", "true", "y", "1"),
            "windows": clinic.windows.get(patient, []),
        })  # fmt: skip
    return appointments


def baseline_issues(clinic: Clinic, appts: list[dict]) -> list[dict]:
    rows = set()
    for a in appts:
        if a["type"] not in clinic.skills[a["provider"]]:
            rows.add((a["id"], "provider_unqualified", ""))
        if not any(p == a["provider"] and s == a["site"] and lo <= a["start"] and a["end"] <= hi
                   for p, s, lo, hi in clinic.shifts):  # fmt: skip
            rows.add((a["id"], "provider_unavailable", ""))
        if not any(lo <= a["start"] and a["end"] <= hi for lo, hi in a["windows"]):
            rows.add((a["id"], "patient_unavailable", ""))
        gear = clinic.gear[a["type"]]
        if gear and gear not in clinic.room_gear[a["room"]]:
            rows.add((a["id"], "equipment_missing", ""))
    for a in appts:
        for b in appts:
            if a["id"] == b["id"]:
                continue
            together = a["start"] < b["end"] and b["start"] < a["end"]
            for key, issue in (("provider", "provider_overlap"), ("room", "room_overlap"),
                               ("patient", "patient_overlap")):  # fmt: skip
                if together and a[key] == b[key]:
                    rows.add((a["id"], issue, b["id"]))
            if not together and a["provider"] == b["provider"] and a["site"] != b["site"]:
                first, second = (a, b) if a["start"] < b["start"] else (b, a)
                if second["start"] - first["end"] < clinic.travel[(first["site"], second["site"])]:
                    rows.add((a["id"], "travel_buffer", b["id"]))
    return [
        {"appointment_id": i, "issue": k, "other_appointment_id": o} for i, k, o in sorted(rows)
    ]


def step_cost(appt: dict, booking: tuple | None) -> tuple:
    if booking is None:
        return (1, 0, 0, 0)
    shift = abs(booking[5] - appt["start"])
    return (0, 1 if shift else 0, shift, 0 if booking[2] == appt["provider"] else 1)


def order_key(booking: tuple | None) -> tuple:
    return (NEVER, "", "") if booking is None else (booking[5], booking[2], booking[3])


def best_plan(clinic: Clinic, opened: list[dict], rest: list[tuple]) -> dict:
    """The ABSENCE.md optimum for ``opened``: an exact search per group of open appointments
    whose candidates can clash (groups found by a breadth-first walk)."""
    options = {a["id"]: clinic.candidates(a, rest) for a in opened}
    ids = sorted(options)
    linked = {i: set() for i in ids}
    for i in ids:
        for j in ids:
            if i < j and any(clinic.clash(x, y) for x in options[i] for y in options[j]):
                linked[i].add(j)
                linked[j].add(i)
    by_id = {a["id"]: a for a in opened}
    plan: dict = {}
    seen: set = set()
    for first in ids:
        if first in seen:
            continue
        group, queue = [], [first]
        seen.add(first)
        while queue:
            node = queue.pop()
            group.append(node)
            for nxt in sorted(linked[node] - seen):
                seen.add(nxt)
                queue.append(nxt)
        plan.update(solve_group(clinic, [by_id[i] for i in sorted(group)], options))
    return plan


def solve_group(clinic: Clinic, group: list[dict], options: dict) -> dict:
    ranked = []
    for a in group:
        menu = [(step_cost(a, b), order_key(b), b) for b in options[a["id"]] + [None]]
        ranked.append(sorted(menu, key=lambda m: (m[0], m[1])))
    optimistic = [tuple(sum(ranked[k][0][0][c] for k in range(i, len(group))) for c in range(4))
                  for i in range(len(group) + 1)]  # fmt: skip
    winner = {"cost": None, "keys": None, "plan": None}

    def dive(i: int, cost: tuple, keys: list, picks: list) -> None:
        if winner["cost"] is not None:
            hope = tuple(c + o for c, o in zip(cost, optimistic[i]))
            if hope > winner["cost"] or (
                hope == winner["cost"] and keys > winner["keys"][: len(keys)]
            ):
                return
        if i == len(group):
            winner.update(cost=cost, keys=list(keys), plan=list(picks))
            return
        for price, key, booking in ranked[i]:
            if booking is not None and any(
                p is not None and clinic.clash(p, booking) for p in picks
            ):
                continue
            dive(i + 1, tuple(c + p for c, p in zip(cost, price)), keys + [key], picks + [booking])

    dive(0, (0, 0, 0, 0), [], [])
    return {a["id"]: b for a, b in zip(group, winner["plan"])}


def truth_of(source: benchlib.Files) -> dict:
    """Every expected output of the fixture, as plain data."""
    clinic = Clinic(source)
    export = read_export(clinic, source)
    appts = {a["id"]: a for a in export}
    current = {a["id"]: clinic.booking(a, a["provider"], a["room"], a["start"]) for a in export}
    baseline = dict(current)
    info = dict(appts)  # appointment data by id (urgent bookings join it)
    last_step: dict[str, str] = {}
    lost: dict[str, str] = {}
    reports: dict = {}

    def replan(hit: list[str], why: str) -> dict:
        opened = [dict(info[i], provider=current[i][2], room=current[i][3], start=current[i][5])
                  for i in sorted(hit) if not info[i]["locked"]]  # fmt: skip
        keep = sorted(i for i in hit if info[i]["locked"])
        rest = [b for i, b in current.items() if i not in {o["id"] for o in opened}]
        plan = best_plan(clinic, opened, rest)
        moves = [abs(plan[o["id"]][5] - o["start"]) for o in opened if plan[o["id"]] is not None]
        for o in opened:
            del current[o["id"]]
            last_step[o["id"]] = why
            if plan[o["id"]] is None:
                lost[o["id"]] = why
            else:
                current[o["id"]] = plan[o["id"]]
        return {"affected": [o["id"] for o in opened], "locked_kept": keep,
                "moved": sum(1 for m in moves if m), "minutes_moved": sum(moves),
                "unscheduled": sorted(o["id"] for o in opened if plan[o["id"]] is None)}  # fmt: skip

    if source.exists("inputs/provider_absence.json"):
        absence = source.json("inputs/provider_absence.json")
        who, low, high = absence["provider_id"], clock(absence["start"]), clock(absence["end"])
        clinic.absent = (who, low, high)
        hit = [i for i, b in current.items() if b[2] == who and b[5] < high and low < b[6]]
        reports["absence"] = dict(replan(hit, "absence"), provider_id=who)
    if source.exists("inputs/urgent_requests.csv"):
        rows = source.csv("inputs/urgent_requests.csv")
        reports["urgent"] = []
        for r in sorted(rows, key=lambda r: (-int(r["priority"]), r["request_id"])):
            ask = {"id": r["request_id"], "patient": r["patient_id"], "type": r["type"],
                   "site": r["site_id"], "priority": int(r["priority"]), "locked": False,
                   "windows": [(clock(r["earliest"]), clock(r["latest"]))]}  # fmt: skip
            clinic.patient_name.setdefault(r["patient_id"], r["patient_name"])
            info[ask["id"]] = ask
            reports["urgent"].append(book_request(clinic, ask, info, current, last_step, lost))
        reports["urgent"].sort(key=lambda row: row["request_id"])
    if source.exists("inputs/equipment_outage.json"):
        outage = source.json("inputs/equipment_outage.json")
        room, gear = outage["room_id"], outage["equipment"]
        low, high = clock(outage["start"]), clock(outage["end"])
        clinic.outage = (room, gear, low, high)
        hit = [i for i, b in current.items()
               if b[3] == room and clinic.gear[info[i]["type"]] == gear and b[5] < high and low < b[6]]  # fmt: skip
        reports["outage"] = dict(replan(hit, "outage"), room_id=room, equipment=gear)
    truth = render(clinic, info, baseline, current, last_step, lost, reports)
    truth["issues"] = baseline_issues(clinic, export)
    return truth


def book_request(
    clinic: Clinic, ask: dict, info: dict, current: dict, last_step: dict, lost: dict
) -> dict:
    """URGENT.md for one request: a free slot, else the best single displacement, else none."""
    row = {"request_id": ask["id"], "status": "unscheduled", "provider_id": "", "room_id": "",
           "start": "", "displaced_appointment_id": ""}  # fmt: skip
    others = list(current.values())
    free = clinic.candidates(ask, others)
    pick, victim = (free[0], None) if free else (None, None)
    if pick is None:
        bests = []
        everywhere = clinic.candidates(ask, [])
        for booking in everywhere:
            hits = [o for o in others if clinic.clash(booking, o)]
            if len(hits) != 1:
                continue
            d = info[hits[0][0]]
            if d["locked"] or d["priority"] >= ask["priority"]:
                continue
            was = hits[0]
            moved_d = dict(d, provider=was[2], room=was[3], start=was[5])
            rest = [o for o in others if o[0] != d["id"]] + [booking]
            for new in clinic.candidates(moved_d, rest):
                shift = abs(new[5] - was[5])
                rank = (1 if shift else 0, shift, 0 if new[2] == was[2] else 1,
                        booking[5], booking[2], booking[3], d["id"], new[5], new[2], new[3])  # fmt: skip
                bests.append((rank, booking, d["id"], new))
        if bests:
            _, pick, gone, new = min(bests)
            victim = gone
            current[gone] = new
            last_step[gone] = "displaced"
    if pick is None:
        lost[ask["id"]] = "urgent"
        last_step[ask["id"]] = "urgent"
        return row
    current[ask["id"]] = pick
    last_step[ask["id"]] = "urgent"
    row.update(status="booked_with_displacement" if victim else "booked", provider_id=pick[2],
               room_id=pick[3], start=iso(pick[5]), displaced_appointment_id=victim or "")  # fmt: skip
    return row


def slot_words(clinic: Clinic, booking: tuple) -> str:
    day, start = human(booking[5])
    _, end = human(booking[6])
    return (f"{day}, {start}-{end}, {clinic.provider_name[booking[2]]}, "
            f"{clinic.site_name[booking[4]]}, room {booking[3]}")  # fmt: skip


def render(clinic, info, baseline, current, last_step, lost, reports) -> dict:
    def row_of(i: str, b: tuple) -> dict:
        a = info[i]
        return {"appointment_id": i, "patient_id": a["patient"], "type": a["type"],
                "provider_id": b[2], "site_id": b[4], "room_id": b[3], "start": iso(b[5]),
                "end": iso(b[6]), "priority": str(a["priority"]),
                "locked": "true" if a["locked"] else "false"}  # fmt: skip

    schedule = [row_of(i, b) for i, b in sorted(current.items(), key=lambda kv: (kv[1][5], kv[0]))]
    changes, gone, letters = [], [], {}
    for i in sorted(set(current) | set(lost)):
        old, new = baseline.get(i), current.get(i)
        if new is not None and old is not None and old[2:6] == new[2:6]:
            continue
        olds = ("", "", "") if old is None else (old[2], old[3], iso(old[5]))
        if new is None:
            gone.append(dict(zip(["appointment_id", "patient_id", "reason", "old_provider_id",
                                  "old_room_id", "old_start"], (i, info[i]["patient"], lost[i], *olds))))  # fmt: skip
        else:
            change = (
                "booked" if old is None else "rescheduled" if old[5] != new[5] else "reassigned"
            )
            minutes = "" if old is None else str(abs(new[5] - old[5]))
            changes.append(dict(zip(
                ["appointment_id", "patient_id", "change", "reason", "old_provider_id", "old_room_id",
                 "old_start", "new_provider_id", "new_room_id", "new_start", "minutes_moved"],
                (i, info[i]["patient"], change, last_step[i], *olds, new[2], new[3], iso(new[5]), minutes),
            )))  # fmt: skip
        block = [f"Appointment {i}: {clinic.type_name[info[i]['type']]}",
                 "Before: " + ("new urgent request" if old is None else slot_words(clinic, old)),
                 "After: " + ("not scheduled; the clinic will call you to arrange a new time"
                              if new is None else slot_words(clinic, new)), ""]  # fmt: skip
        letters.setdefault(info[i]["patient"], []).extend(block)
    notices = {
        f"{p}.txt": "\n".join(
            [f"Dear {clinic.patient_name[p]},", "", *lines, "Clinic scheduling desk"]
        )
        + "\n"
        for p, lines in letters.items()
    }
    untouched = [row_of(i, b) for i, b in baseline.items()
                 if i not in last_step and current.get(i) == b]  # fmt: skip
    return {"schedule": schedule, "untouched": untouched, "changes": changes, "unscheduled": gone,
            "notices": notices, "reports": reports, "baseline": [row_of(i, b) for i, b in baseline.items()],
            "locked": sorted(i for i, a in info.items() if a["locked"])}  # fmt: skip


def expected(run: benchlib.Run) -> dict:
    return run.derived("truth", truth_of)


def issue_rows(run: benchlib.Run) -> list[dict]:
    return run.csv(ISSUES)


@judge.check(level=3)
def baseline_issues_found(run: benchlib.Run) -> None:
    """The issue rows of the export (in any order here; the order is checked at level 4)."""
    want = expected(run)["issues"]
    key = lambda r: (r["appointment_id"], r["issue"], r["other_appointment_id"])  # noqa: E731
    benchlib.expect_equal(sorted(issue_rows(run), key=key), want, "baseline_issues.csv rows")


@judge.check(level=3)
def untouched_rows_normalized(run: benchlib.Run) -> None:
    """Every appointment no step changes appears once in schedule.csv, normalized as exported."""
    rows = {}
    for r in run.csv(SCHEDULE):
        benchlib.expect(
            r["appointment_id"] not in rows, f"schedule.csv repeats {r['appointment_id']}"
        )
        rows[r["appointment_id"]] = r
    for want in expected(run)["untouched"]:
        benchlib.expect_equal(
            rows.get(want["appointment_id"]), want, f"schedule.csv row {want['appointment_id']}"
        )


@judge.check(level=4)
def baseline_issues_sorted(run: benchlib.Run) -> None:
    got = [(r["appointment_id"], r["issue"], r["other_appointment_id"]) for r in issue_rows(run)]
    benchlib.expect_equal(got, sorted(got), "baseline_issues.csv order")


@judge.check(level=4)
def schedule_exact(run: benchlib.Run) -> None:
    benchlib.expect_equal(run.csv(SCHEDULE), expected(run)["schedule"], "schedule.csv")


@judge.check(level=4, stage="absence")
def new_slots_legal(run: benchlib.Run) -> None:
    """Every appointment schedule.csv places off its exported slot obeys every rule there."""
    clinic = Clinic(run.source)
    truth = expected(run)
    info = {r["appointment_id"]: r for r in truth["baseline"]}
    rows = run.csv(SCHEDULE)
    placed = []
    for r in rows:
        benchlib.expect(
            r.get("room_id") in clinic.room_site, f"schedule.csv: unknown room {r.get('room_id')!r}"
        )
        benchlib.expect(
            r.get("type") in clinic.length, f"schedule.csv: unknown type {r.get('type')!r}"
        )
        benchlib.expect(
            r.get("provider_id") in clinic.skills,
            f"schedule.csv: unknown provider {r.get('provider_id')!r}",
        )
        start = clock(r["start"])
        placed.append(((r["appointment_id"], r["patient_id"], r["provider_id"], r["room_id"],
                        clinic.room_site[r["room_id"]], start, start + clinic.length[r["type"]]), r))  # fmt: skip
    windows = {}
    if run.source.exists("inputs/urgent_requests.csv"):
        for u in run.source.csv("inputs/urgent_requests.csv"):
            windows[u["request_id"]] = ([(clock(u["earliest"]), clock(u["latest"]))], u["site_id"])
    if run.source.exists("inputs/provider_absence.json"):
        absence = run.source.json("inputs/provider_absence.json")
        clinic.absent = (absence["provider_id"], clock(absence["start"]), clock(absence["end"]))
    if run.source.exists("inputs/equipment_outage.json"):
        out = run.source.json("inputs/equipment_outage.json")
        clinic.outage = (out["room_id"], out["equipment"], clock(out["start"]), clock(out["end"]))
    for booking, r in placed:
        old = info.get(booking[0])
        if old is not None and (old["provider_id"], old["room_id"], old["start"]) == (
            r["provider_id"],
            r["room_id"],
            r["start"],
        ):
            continue
        if old is not None:
            appt = {"type": old["type"], "site": old["site_id"],
                    "windows": clinic.windows.get(old["patient_id"], [])}  # fmt: skip
        else:
            benchlib.expect(
                booking[0] in windows, f"schedule.csv: unknown appointment {booking[0]}"
            )
            appt = {
                "type": r["type"],
                "site": windows[booking[0]][1],
                "windows": windows[booking[0]][0],
            }
        benchlib.expect(
            clinic.fits(appt, booking), f"{booking[0]}: its new slot breaks a rule of ABSENCE.md"
        )
        for other, _ in placed:
            benchlib.expect(other[0] == booking[0] or not clinic.clash(booking, other),
                            f"{booking[0]} clashes with {other[0]}")  # fmt: skip


@judge.check(level=4, stage="absence")
def locked_unchanged(run: benchlib.Run) -> None:
    truth = expected(run)
    rows = {r["appointment_id"]: r for r in run.csv(SCHEDULE)}
    for want in truth["baseline"]:
        if want["locked"] == "true":
            benchlib.expect_equal(
                rows.get(want["appointment_id"]), want, f"locked {want['appointment_id']}"
            )


@judge.check(level=4, stage="absence")
def changes_exact(run: benchlib.Run) -> None:
    benchlib.expect_equal(run.csv(CHANGES), expected(run)["changes"], "changes.csv")


@judge.check(level=4, stage="absence")
def unscheduled_exact(run: benchlib.Run) -> None:
    benchlib.expect_equal(run.csv(UNSCHEDULED), expected(run)["unscheduled"], "unscheduled.csv")


def report_matches(run: benchlib.Run, path: str, want: dict, names: list[str]) -> None:
    got = run.json(path)
    benchlib.expect(isinstance(got, dict), f"{path} is not a JSON object")
    benchlib.expect_equal(sorted(got), sorted(REPORT_KEYS + names), f"{path} keys")
    for key in ("moved", "minutes_moved"):
        benchlib.expect(type(got[key]) is int, f"{path}: {key} {got[key]!r} is not a plain integer")
    for key in sorted(want):
        benchlib.expect_equal(got[key], want[key], f"{path} {key}")


@judge.check(level=4, stage="absence")
def absence_report_exact(run: benchlib.Run) -> None:
    report_matches(
        run, "output/absence_report.json", expected(run)["reports"]["absence"], ["provider_id"]
    )


@judge.check(level=4, stage="urgent")
def urgent_report_exact(run: benchlib.Run) -> None:
    benchlib.expect_equal(run.csv(URGENT), expected(run)["reports"]["urgent"], "urgent_report.csv")


@judge.check(level=4, stage="urgent")
def displacement_chain(run: benchlib.Run) -> None:
    """Each displacement the report claims: D unlocked, of lower priority, moved (not lost)."""
    truth = expected(run)
    locked = set(truth["locked"])
    priority = {r["appointment_id"]: int(r["priority"]) for r in truth["baseline"]}
    asks = {
        u["request_id"]: int(u["priority"]) for u in run.source.csv("inputs/urgent_requests.csv")
    }
    moved = {r["appointment_id"]: r["reason"] for r in run.csv(CHANGES)}
    chains = [r for r in run.csv(URGENT) if r["status"] == "booked_with_displacement"]
    want = [r for r in truth["reports"]["urgent"] if r["status"] == "booked_with_displacement"]
    benchlib.expect_equal(len(chains), len(want), "displacements")
    for r in chains:
        d = r["displaced_appointment_id"]
        benchlib.expect(d not in locked, f"{r['request_id']} displaces the locked {d}")
        benchlib.expect(
            priority.get(d, 6) < asks.get(r["request_id"], 0),
            f"{r['request_id']} displaces {d}, not of lower priority",
        )
        benchlib.expect(d in moved, f"{d} is displaced but not rescheduled")


@judge.check(level=4, stage="outage")
def outage_report_exact(run: benchlib.Run) -> None:
    report_matches(
        run,
        "output/outage_report.json",
        expected(run)["reports"]["outage"],
        ["room_id", "equipment"],
    )


def notice_files(run: benchlib.Run) -> dict[str, bytes]:
    folder = run.files.path(NOTICES)
    benchlib.expect(folder.is_dir(), f"{NOTICES}/ is missing")
    names = sorted(os.listdir(folder))
    return {n: run.files.bytes(f"{NOTICES}/{n}") for n in names}


@judge.check(level=4, stage="outage")
def notices_exact(run: benchlib.Run) -> None:
    got = notice_files(run)
    want = expected(run)["notices"]
    benchlib.expect_equal(sorted(got), sorted(want), "notice files")
    for name in sorted(want):
        benchlib.expect_equal(got[name].decode("utf-8", "replace"), want[name], f"notices/{name}")
        benchlib.expect(
            got[name] == want[name].encode("utf-8"), f"notices/{name}: not the exact UTF-8 bytes"
        )


@judge.edge
def edge_schedule_unchanged(run: benchlib.Run) -> None:
    """Nothing can be done for the request: every appointment keeps its exported slot."""
    benchlib.expect_equal(run.csv(SCHEDULE), expected(run)["schedule"], "schedule.csv")
    benchlib.expect_equal(expected(run)["changes"], [], "edge truth: no change")


@judge.edge(stage="outage")
def edge_notice(run: benchlib.Run) -> None:
    got = notice_files(run)
    benchlib.expect_equal({n: b.decode("utf-8", "replace") for n, b in got.items()},
                          expected(run)["notices"], "notices")  # fmt: skip


# endregion authored

if __name__ == "__main__":
    sys.exit(judge.main())
