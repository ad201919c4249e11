# generated from task.toml by benchsmith -- edit only the authored region
"""Judge of task 22: Timesheet and Payroll Correction.

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
    "id": 22,
    "slug": "timesheet-payroll",
    "stages": ["initial", "corrections", "union"],
    "editable": ["solution/", "output/"],
    "commands": [
        {
            "run": "python -m solution.payroll inputs --week-ending 2025-11-09 --output output",
            "argv": [
                "python",
                "-m",
                "solution.payroll",
                "inputs",
                "--week-ending",
                "2025-11-09",
                "--output",
                "output",
            ],
            "cwd": ".",
            "stdin": None,
            "stage": "initial",
            "timeout": 60.0,
        }
    ],
    "outputs": [
        {
            "path": "output/payroll.csv",
            "format": "csv",
            "header": [
                "employee_id",
                "name",
                "group",
                "shifts",
                "paid_minutes",
                "regular_minutes",
                "overtime_minutes",
                "double_time_minutes",
                "night_minutes",
                "gross_pay",
            ],
            "stage": "initial",
        },
        {
            "path": "output/shift_detail.csv",
            "format": "csv",
            "header": [
                "employee_id",
                "in_record_id",
                "out_record_id",
                "clock_in",
                "clock_out",
                "elapsed_minutes",
                "break_minutes",
                "paid_minutes",
                "night_minutes",
                "regular_minutes",
                "overtime_minutes",
                "double_time_minutes",
                "gross_pay",
            ],
            "stage": "initial",
        },
        {
            "path": "output/exceptions.csv",
            "format": "csv",
            "header": ["record_id", "employee_id", "punch", "timestamp", "reason"],
            "stage": "initial",
        },
        {
            "path": "output/correction_summary.csv",
            "format": "csv",
            "header": ["employee_id", "gross_before", "gross_after", "delta"],
            "stage": "corrections",
        },
    ],
    "expect": [
        {
            "name": "week-start#1",
            "file": "output/shift_detail.csv",
            "level": 4,
            "where": {"in_record_id": "P10031"},
            "absent": True,
        },
        {
            "name": "week-start#2",
            "file": "output/payroll.csv",
            "level": 4,
            "where": {"employee_id": "E007"},
            "equals": {"shifts": "1", "paid_minutes": "480", "gross_pay": "171.20"},
        },
        {
            "name": "week-start#3",
            "file": "output/exceptions.csv",
            "level": 4,
            "where": {"record_id": "P10040", "reason": "missing_in"},
            "count": 1,
        },
        {
            "name": "week-start#4",
            "file": "output/exceptions.csv",
            "level": 4,
            "where": {"record_id": "P11030"},
            "absent": True,
        },
        {
            "name": "week-start#5",
            "file": "output/shift_detail.csv",
            "level": 4,
            "where": {"in_record_id": "P10321"},
            "equals": {"paid_minutes": "450", "night_minutes": "120"},
        },
        {
            "name": "week-end#1",
            "file": "output/shift_detail.csv",
            "level": 4,
            "where": {"in_record_id": "P11001"},
            "equals": {
                "elapsed_minutes": "510",
                "break_minutes": "30",
                "paid_minutes": "480",
                "night_minutes": "450",
                "gross_pay": "199.06",
            },
        },
        {
            "name": "week-end#2",
            "file": "output/shift_detail.csv",
            "level": 4,
            "where": {"in_record_id": "P11036"},
            "absent": True,
        },
        {
            "name": "week-end#3",
            "file": "output/payroll.csv",
            "level": 4,
            "where": {"employee_id": "E023"},
            "equals": {"shifts": "1"},
        },
        {
            "name": "missing-out#1",
            "file": "output/exceptions.csv",
            "level": 4,
            "until": "initial",
            "where": {"record_id": "P10208", "reason": "missing_out"},
            "equals": {"employee_id": "E004", "punch": "BREAK_END"},
        },
        {
            "name": "missing-out#2",
            "file": "output/exceptions.csv",
            "level": 4,
            "until": "initial",
            "where": {"employee_id": "E004"},
            "count": 3,
        },
        {
            "name": "missing-out#3",
            "file": "output/exceptions.csv",
            "level": 4,
            "stage": "corrections",
            "where": {"employee_id": "E004"},
            "absent": True,
        },
        {
            "name": "missing-out#4",
            "file": "output/shift_detail.csv",
            "level": 4,
            "stage": "corrections",
            "where": {"in_record_id": "P10190", "out_record_id": "M20001"},
            "equals": {"break_minutes": "30", "paid_minutes": "480"},
        },
        {
            "name": "missing-out#5",
            "file": "output/shift_detail.csv",
            "level": 4,
            "where": {"in_record_id": "P10330"},
            "equals": {"elapsed_minutes": "509", "paid_minutes": "479"},
        },
        {
            "name": "missing-in#1",
            "file": "output/exceptions.csv",
            "level": 4,
            "until": "initial",
            "where": {"record_id": "P10590", "reason": "missing_in"},
            "count": 1,
        },
        {
            "name": "missing-in#2",
            "file": "output/shift_detail.csv",
            "level": 4,
            "stage": "corrections",
            "where": {"in_record_id": "M20002", "out_record_id": "P10590"},
            "equals": {"paid_minutes": "480"},
        },
        {
            "name": "too-long#1",
            "file": "output/exceptions.csv",
            "level": 4,
            "until": "initial",
            "where": {"record_id": "P10620", "reason": "shift_too_long"},
            "count": 1,
        },
        {
            "name": "too-long#2",
            "file": "output/exceptions.csv",
            "level": 4,
            "until": "initial",
            "where": {"record_id": "P10830", "reason": "shift_too_long"},
            "count": 1,
        },
        {
            "name": "too-long#3",
            "file": "output/payroll.csv",
            "level": 4,
            "stage": "corrections",
            "where": {"employee_id": "E015"},
            "equals": {"shifts": "3", "paid_minutes": "1440"},
        },
        {
            "name": "sixteen-hours#1",
            "file": "output/shift_detail.csv",
            "level": 4,
            "until": "corrections",
            "where": {"in_record_id": "P10302"},
            "equals": {
                "elapsed_minutes": "960",
                "paid_minutes": "900",
                "night_minutes": "0",
                "regular_minutes": "900",
                "gross_pay": "414.00",
            },
        },
        {
            "name": "sixteen-hours#2",
            "file": "output/shift_detail.csv",
            "level": 4,
            "stage": "union",
            "where": {"in_record_id": "P10302"},
            "equals": {
                "regular_minutes": "480",
                "overtime_minutes": "240",
                "double_time_minutes": "180",
                "gross_pay": "552.00",
            },
        },
        {
            "name": "missing-out-kept#1",
            "file": "output/exceptions.csv",
            "level": 4,
            "where": {"employee_id": "E046", "reason": "missing_out"},
            "count": 3,
        },
        {
            "name": "missing-out-kept#2",
            "file": "output/payroll.csv",
            "level": 4,
            "where": {"employee_id": "E046"},
            "equals": {"shifts": "1", "paid_minutes": "480"},
        },
        {
            "name": "open-at-end#1",
            "file": "output/exceptions.csv",
            "level": 4,
            "where": {"record_id": "P10960", "reason": "missing_out"},
            "count": 1,
        },
        {
            "name": "double-in#1",
            "file": "output/exceptions.csv",
            "level": 4,
            "until": "initial",
            "where": {"record_id": "P10196", "reason": "missing_out"},
            "count": 1,
        },
        {
            "name": "double-in#2",
            "file": "output/payroll.csv",
            "level": 4,
            "until": "initial",
            "where": {"employee_id": "E021"},
            "equals": {"paid_minutes": "2400", "overtime_minutes": "0", "gross_pay": "756.00"},
        },
        {
            "name": "double-in#3",
            "file": "output/shift_detail.csv",
            "level": 4,
            "stage": "corrections",
            "where": {"in_record_id": "P10772"},
            "equals": {"regular_minutes": "479", "overtime_minutes": "1", "gross_pay": "151.36"},
        },
        {
            "name": "double-in#4",
            "file": "output/correction_summary.csv",
            "level": 4,
            "stage": "corrections",
            "where": {"employee_id": "E021"},
            "equals": {"gross_before": "756.00", "gross_after": "756.48", "delta": "0.48"},
        },
        {
            "name": "wrong-type#1",
            "file": "output/exceptions.csv",
            "level": 4,
            "until": "initial",
            "where": {"record_id": "P10530", "reason": "missing_out"},
            "equals": {"punch": "IN"},
        },
        {
            "name": "wrong-type#2",
            "file": "output/shift_detail.csv",
            "level": 4,
            "stage": "corrections",
            "where": {"in_record_id": "P10480"},
            "equals": {"out_record_id": "P10530", "clock_out": "2025-11-05T14:30:00-06:00"},
        },
        {
            "name": "auto-break-boundary#1",
            "file": "output/shift_detail.csv",
            "level": 4,
            "where": {"in_record_id": "P10215"},
            "equals": {"break_minutes": "0", "paid_minutes": "360", "gross_pay": "120.00"},
        },
        {
            "name": "auto-break-boundary#2",
            "file": "output/shift_detail.csv",
            "level": 4,
            "where": {"in_record_id": "P10345"},
            "equals": {"break_minutes": "30", "paid_minutes": "331"},
        },
        {
            "name": "explicit-breaks#1",
            "file": "output/shift_detail.csv",
            "level": 4,
            "where": {"in_record_id": "P10475"},
            "equals": {"break_minutes": "15", "paid_minutes": "525"},
        },
        {
            "name": "explicit-breaks#2",
            "file": "output/shift_detail.csv",
            "level": 4,
            "where": {"in_record_id": "P10637"},
            "equals": {"break_minutes": "45", "paid_minutes": "495"},
        },
        {
            "name": "auto-break-night#1",
            "file": "output/shift_detail.csv",
            "level": 4,
            "where": {"in_record_id": "P10380"},
            "equals": {"paid_minutes": "390", "night_minutes": "150"},
        },
        {
            "name": "auto-break-night#2",
            "file": "output/shift_detail.csv",
            "level": 4,
            "where": {"in_record_id": "P10660"},
            "equals": {"paid_minutes": "360", "night_minutes": "90"},
        },
        {
            "name": "upload-order#1",
            "file": "output/shift_detail.csv",
            "level": 4,
            "where": {"in_record_id": "P10985"},
            "equals": {"out_record_id": "P10233", "paid_minutes": "480"},
        },
        {
            "name": "upload-order#2",
            "file": "output/shift_detail.csv",
            "level": 4,
            "where": {"in_record_id": "P10341"},
            "equals": {"break_minutes": "30", "paid_minutes": "480"},
        },
        {
            "name": "weekly-overtime#1",
            "file": "output/shift_detail.csv",
            "level": 4,
            "where": {"in_record_id": "P10621"},
            "equals": {"regular_minutes": "360", "overtime_minutes": "120", "gross_pay": "234.90"},
        },
        {
            "name": "weekly-overtime#2",
            "file": "output/payroll.csv",
            "level": 4,
            "where": {"employee_id": "E036"},
            "equals": {
                "paid_minutes": "2400",
                "regular_minutes": "2400",
                "overtime_minutes": "0",
                "gross_pay": "960.00",
            },
        },
        {
            "name": "overtime-night#1",
            "file": "output/shift_detail.csv",
            "level": 4,
            "where": {"in_record_id": "P10870"},
            "equals": {"night_minutes": "450", "overtime_minutes": "480", "gross_pay": "285.60"},
        },
        {
            "name": "badge-swap#1",
            "file": "output/exceptions.csv",
            "level": 4,
            "until": "initial",
            "where": {"record_id": "P10306", "reason": "missing_out"},
            "equals": {"employee_id": "E040"},
        },
        {
            "name": "badge-swap#2",
            "file": "output/exceptions.csv",
            "level": 4,
            "until": "initial",
            "where": {"record_id": "P10355", "reason": "missing_in"},
            "count": 1,
        },
        {
            "name": "badge-swap#3",
            "file": "output/shift_detail.csv",
            "level": 4,
            "stage": "corrections",
            "where": {"in_record_id": "P10306"},
            "equals": {"employee_id": "E041", "out_record_id": "P10355"},
        },
        {
            "name": "badge-swap#4",
            "file": "output/correction_summary.csv",
            "level": 4,
            "stage": "corrections",
            "where": {"employee_id": "E040"},
            "absent": True,
        },
        {
            "name": "rounding#1",
            "file": "output/shift_detail.csv",
            "level": 4,
            "where": {"in_record_id": "P10343"},
            "equals": {"gross_pay": "75.13"},
        },
        {
            "name": "rounding#2",
            "file": "output/payroll.csv",
            "level": 4,
            "where": {"employee_id": "E043"},
            "equals": {"gross_pay": "150.26"},
        },
        {
            "name": "no-change#1",
            "file": "output/correction_summary.csv",
            "level": 4,
            "stage": "corrections",
            "where": {"employee_id": "E045"},
            "absent": True,
        },
        {
            "name": "no-change#2",
            "file": "output/correction_summary.csv",
            "level": 4,
            "stage": "corrections",
            "where": {"employee_id": "E007"},
            "absent": True,
        },
        {
            "name": "no-change#3",
            "file": "output/shift_detail.csv",
            "level": 4,
            "where": {"in_record_id": "P10641"},
            "equals": {"paid_minutes": "480", "gross_pay": "177.60"},
        },
        {
            "name": "no-shifts#1",
            "file": "output/payroll.csv",
            "level": 4,
            "where": {"employee_id": "E048"},
            "equals": {
                "shifts": "0",
                "paid_minutes": "0",
                "night_minutes": "0",
                "gross_pay": "0.00",
            },
        },
        {
            "name": "union-correction#1",
            "file": "output/correction_summary.csv",
            "level": 4,
            "stage": "corrections",
            "until": "corrections",
            "where": {"employee_id": "E050"},
            "equals": {"delta": "28.40"},
        },
        {
            "name": "union-correction#2",
            "file": "output/correction_summary.csv",
            "level": 4,
            "stage": "union",
            "where": {"employee_id": "E050"},
            "equals": {"gross_before": "312.40", "gross_after": "355.00", "delta": "42.60"},
        },
        {
            "name": "union-long-day#1",
            "file": "output/shift_detail.csv",
            "level": 4,
            "until": "corrections",
            "where": {"in_record_id": "P10474"},
            "equals": {"regular_minutes": "780", "gross_pay": "378.95"},
        },
        {
            "name": "union-long-day#2",
            "file": "output/shift_detail.csv",
            "level": 4,
            "stage": "union",
            "where": {"in_record_id": "P10474"},
            "equals": {
                "regular_minutes": "480",
                "overtime_minutes": "240",
                "double_time_minutes": "60",
                "gross_pay": "466.40",
            },
        },
        {
            "name": "union-midnight#1",
            "file": "output/shift_detail.csv",
            "level": 4,
            "where": {"in_record_id": "P10385"},
            "equals": {"night_minutes": "240", "regular_minutes": "570", "overtime_minutes": "0"},
        },
        {
            "name": "union-midnight#2",
            "file": "output/shift_detail.csv",
            "level": 4,
            "stage": "union",
            "where": {"in_record_id": "P10545"},
            "equals": {"regular_minutes": "480", "overtime_minutes": "90"},
        },
        {
            "name": "union-weekly#1",
            "file": "output/payroll.csv",
            "level": 4,
            "until": "corrections",
            "where": {"employee_id": "E057"},
            "equals": {"regular_minutes": "3420", "overtime_minutes": "0"},
        },
        {
            "name": "union-weekly#2",
            "file": "output/shift_detail.csv",
            "level": 4,
            "stage": "union",
            "where": {"in_record_id": "P10768"},
            "equals": {"regular_minutes": "0", "overtime_minutes": "570"},
        },
        {
            "name": "union-weekly#3",
            "file": "output/payroll.csv",
            "level": 4,
            "stage": "union",
            "where": {"employee_id": "E057"},
            "equals": {"regular_minutes": "2400", "overtime_minutes": "1020"},
        },
        {
            "name": "union-split-day#1",
            "file": "output/shift_detail.csv",
            "level": 4,
            "stage": "union",
            "where": {"in_record_id": "P10665"},
            "equals": {"paid_minutes": "360", "regular_minutes": "240", "overtime_minutes": "120"},
        },
        {
            "name": "chained-correction#1",
            "file": "output/shift_detail.csv",
            "level": 4,
            "until": "initial",
            "where": {"in_record_id": "P10770"},
            "equals": {"paid_minutes": "675", "overtime_minutes": "195"},
        },
        {
            "name": "chained-correction#2",
            "file": "output/shift_detail.csv",
            "level": 4,
            "stage": "corrections",
            "where": {"in_record_id": "P10770", "clock_out": "2025-11-07T14:45:00-06:00"},
            "equals": {"paid_minutes": "495", "overtime_minutes": "15", "gross_pay": "213.56"},
        },
    ],
    "edge_expect": [
        {
            "name": "edge#1",
            "file": "output/shift_detail.csv",
            "level": 4,
            "where": {"in_record_id": "P50001"},
            "equals": {
                "elapsed_minutes": "390",
                "break_minutes": "30",
                "paid_minutes": "360",
                "night_minutes": "360",
                "gross_pay": "132.00",
            },
        },
        {
            "name": "edge#2",
            "file": "output/shift_detail.csv",
            "level": 4,
            "where": {"in_record_id": "P50003"},
            "equals": {
                "out_record_id": "P50006",
                "elapsed_minutes": "510",
                "break_minutes": "30",
                "paid_minutes": "480",
                "night_minutes": "375",
                "gross_pay": "207.00",
            },
        },
        {
            "name": "edge#3",
            "file": "output/payroll.csv",
            "level": 4,
            "where": {"employee_id": "E002"},
            "equals": {"shifts": "1", "paid_minutes": "480", "gross_pay": "207.00"},
        },
        {
            "name": "edge#4",
            "file": "output/exceptions.csv",
            "level": 4,
            "where": {"employee_id": "E002"},
            "absent": True,
        },
    ],
    "edge_include_visible": True,
    "services": [],
}

judge = benchlib.Judge(TASK)

# region authored: benchsmith keeps these lines when it rebuilds judge.py
import datetime as dt
from fractions import Fraction
from zoneinfo import ZoneInfo

WEEK_ENDING = dt.date(2025, 11, 9)  # the command's --week-ending
PREMIUM = {"regular": Fraction(1), "overtime": Fraction(3, 2), "double_time": Fraction(2)}
MINUTE_COLUMNS = ["paid", "regular", "overtime", "double_time", "night"]


def moment(text: str) -> dt.datetime:
    return dt.datetime.fromisoformat(text).astimezone(dt.UTC)


def cents(value: Fraction) -> str:
    """An exact amount rounded to cents half up (away from zero for these non-negative sums)."""
    hundredths = (abs(value) * 100 + Fraction(1, 2)).__floor__()
    sign = "-" if value < 0 and hundredths else ""
    return f"{sign}{hundredths // 100}.{hundredths % 100:02d}"


def money(text: str) -> Fraction:
    return Fraction(text)


class Week:
    """The judge's own payroll of one fixture, from its pristine inputs (TASK.md rules)."""

    def __init__(self, source: benchlib.Files, corrected: bool) -> None:
        rules = source.json("inputs/company_rules.json")
        self.zone = ZoneInfo(rules["site_timezone"])
        self.rules = rules
        self.union = (
            source.json("inputs/union_rules.json")
            if source.exists("inputs/union_rules.json")
            else None
        )
        self.employees = {e["employee_id"]: e for e in source.csv("inputs/employees.csv")}
        records = {r["record_id"]: dict(r) for r in source.csv("inputs/punches.csv")}
        if corrected:
            latest: dict[str, dict] = {}
            for row in source.csv("inputs/punch_corrections.csv"):
                old = latest.get(row["record_id"])
                if old is None or moment(row["corrected_at"]) > moment(old["corrected_at"]):
                    latest[row["record_id"]] = row
            for record_id, row in latest.items():
                if row["punch"] == "VOID":
                    records.pop(record_id, None)
                else:
                    records[record_id] = {
                        k: row[k] for k in ("record_id", "employee_id", "punch", "timestamp")
                    }
        begin = dt.datetime.combine(WEEK_ENDING - dt.timedelta(days=7), dt.time(), self.zone)
        end = dt.datetime.combine(WEEK_ENDING, dt.time(), self.zone)
        self.window = (begin.astimezone(dt.UTC), end.astimezone(dt.UTC))
        self.paid: list[list[dict]] = []
        self.exceptions: list[dict] = []
        self.pair(records)
        self.details, self.payroll = self.pay()

    def inside(self, first: dict) -> bool:
        return self.window[0] <= moment(first["timestamp"]) < self.window[1]

    def unpaid(self, records: list[dict], reason: str) -> None:
        if self.inside(records[0]):
            for r in records:
                self.exceptions.append(
                    {
                        **{k: r[k] for k in ("record_id", "employee_id", "punch", "timestamp")},
                        "reason": reason,
                    }
                )

    def pair(self, records: dict[str, dict]) -> None:
        for employee in sorted(self.employees):
            own = sorted(
                (r for r in records.values() if r["employee_id"] == employee),
                key=lambda r: moment(r["timestamp"]),
            )
            current: list[dict] = []
            for r in own:
                if r["punch"] == "IN":
                    if current:
                        self.unpaid(current, "missing_out")
                    current = [r]
                elif not current:
                    self.unpaid([r], "missing_in")
                elif r["punch"] == "OUT":
                    current.append(r)
                    span = (
                        moment(r["timestamp"]) - moment(current[0]["timestamp"])
                    ) // dt.timedelta(minutes=1)
                    if span > self.rules["max_shift_minutes"]:
                        self.unpaid(current, "shift_too_long")
                    elif self.inside(current[0]):
                        self.paid.append(current)
                    current = []
                else:
                    current.append(r)
            if current:
                self.unpaid(current, "missing_out")
        self.exceptions.sort(key=lambda e: e["record_id"])

    def minutes(self, shift: list[dict]) -> tuple[int, int, list[dt.datetime]]:
        """(elapsed, break minutes, local start of every worked minute) of a paid shift."""
        start, stop = moment(shift[0]["timestamp"]), moment(shift[-1]["timestamp"])
        elapsed = (stop - start) // dt.timedelta(minutes=1)
        marks = [moment(r["timestamp"]) for r in shift[1:-1]]
        gaps = [(marks[i], marks[i + 1]) for i in range(0, len(marks), 2)]
        auto = self.rules["auto_break"]
        if not gaps and elapsed > auto["applies_above_minutes"]:
            at = start + dt.timedelta(minutes=auto["starts_after_minutes"])
            gaps = [(at, at + dt.timedelta(minutes=auto["unpaid_minutes"]))]
        worked = []
        for k in range(elapsed):
            t = start + dt.timedelta(minutes=k)
            if not any(a <= t < b for a, b in gaps):
                worked.append(t.astimezone(self.zone))
        pause = sum((b - a) // dt.timedelta(minutes=1) for a, b in gaps)
        return elapsed, pause, worked

    def is_night(self, local: dt.datetime) -> bool:
        night = self.rules["night"]
        hh, mm = local.hour, local.minute
        now = f"{hh:02d}:{mm:02d}"
        return now >= night["start"] or now < night["end"]

    def tier_of(self, group: str) -> object:
        """A function giving each worked minute of one employee (in time order) its tier."""
        union = self.union is not None and self.union["applies_to_group"] == group
        weekly = union or group in self.rules["weekly_overtime"]["groups"]
        limit = self.rules["weekly_overtime"]["after_minutes"]
        per_day: dict[dt.date, int] = {}
        regular = [0]

        def tier(local: dt.datetime) -> str:
            day = local.date()
            per_day[day] = per_day.get(day, 0) + 1
            if union:
                steps = sorted(
                    self.union["daily_overtime"], key=lambda s: -s["after_minutes_in_day"]
                )
                for step in steps:
                    if per_day[day] > step["after_minutes_in_day"]:
                        return step["tier"]
            if not weekly:
                return "regular"
            regular[0] += 1
            return "overtime" if regular[0] > limit else "regular"

        return tier

    def pay(self) -> tuple[list[dict], dict[str, dict]]:
        details, payroll = [], {}
        rows_by_employee: dict[str, list[list[dict]]] = {e: [] for e in self.employees}
        for shift in self.paid:
            rows_by_employee[shift[0]["employee_id"]].append(shift)
        differential = Fraction(self.rules["night"]["differential"])
        for employee in sorted(self.employees):
            info = self.employees[employee]
            rate = Fraction(info["hourly_rate"])
            tier = self.tier_of(info["group"])
            sums = dict.fromkeys(MINUTE_COLUMNS, 0)
            gross = Fraction(0)
            shifts = sorted(rows_by_employee[employee], key=lambda s: moment(s[0]["timestamp"]))
            for shift in shifts:
                elapsed, pause, worked = self.minutes(shift)
                counts = dict.fromkeys(PREMIUM, 0)
                for local in worked:
                    counts[tier(local)] += 1
                night = sum(self.is_night(local) for local in worked)
                amount = (
                    rate
                    * (sum(PREMIUM[t] * n for t, n in counts.items()) + differential * night)
                    / 60
                )
                pay = cents(amount)
                gross += Fraction(pay)
                row = {"paid": len(worked), "night": night, **counts}
                for key in MINUTE_COLUMNS:
                    sums[key] += row[key]
                details.append({
                    "employee_id": employee,
                    "in_record_id": shift[0]["record_id"],
                    "out_record_id": shift[-1]["record_id"],
                    "clock_in": shift[0]["timestamp"],
                    "clock_out": shift[-1]["timestamp"],
                    "elapsed_minutes": str(elapsed),
                    "break_minutes": str(pause),
                    **{f"{k}_minutes": str(row[k]) for k in MINUTE_COLUMNS},
                    "gross_pay": pay,
                })  # fmt: skip
            payroll[employee] = {
                "employee_id": employee,
                "name": info["name"],
                "group": info["group"],
                "shifts": str(len(shifts)),
                **{f"{k}_minutes": str(sums[k]) for k in MINUTE_COLUMNS},
                "gross_pay": cents(gross),
            }
        return details, payroll


def truth(source: benchlib.Files) -> dict:
    """Plain data: the expected rows of the judged stage, and who the corrections touch."""
    corrected = source.exists("inputs/punch_corrections.csv")
    week = Week(source, corrected)
    result = {
        "details": week.details,
        "payroll": [week.payroll[e] for e in sorted(week.payroll)],
        "exceptions": week.exceptions,
        "touched": [],
        "summary": [],
    }
    if corrected:
        original = {r["record_id"]: r["employee_id"] for r in source.csv("inputs/punches.csv")}
        touched = set()
        for row in source.csv("inputs/punch_corrections.csv"):
            touched.add(row["employee_id"])
            if row["record_id"] in original:
                touched.add(original[row["record_id"]])
        result["touched"] = sorted(touched)
        before = Week(source, False).payroll
        for employee in sorted(week.payroll):
            old, new = before[employee]["gross_pay"], week.payroll[employee]["gross_pay"]
            if old != new:
                delta = cents(money(new) - money(old))
                result["summary"].append(
                    {
                        "employee_id": employee,
                        "gross_before": old,
                        "gross_after": new,
                        "delta": delta,
                    }
                )
    return result


def expected(run: benchlib.Run) -> dict:
    return run.derived("truth", truth)


def rows(run: benchlib.Run, path: str) -> list[dict]:
    key = f"rows:{path}"
    if key not in run.memo:
        run.memo[key] = run.csv(path)
    return run.memo[key]


def shifts_by_in(run: benchlib.Run) -> dict[str, dict]:
    """The candidate's shift_detail rows by in_record_id (each IN pays at most one shift)."""
    found = rows(run, "output/shift_detail.csv")
    by_in = {r["in_record_id"]: r for r in found}
    benchlib.expect(len(by_in) == len(found), "shift_detail.csv lists an in_record_id twice")
    return by_in


def compare_columns(run: benchlib.Run, columns: list[str], what: str) -> None:
    want = {r["in_record_id"]: r for r in expected(run)["details"]}
    got = shifts_by_in(run)
    benchlib.expect_equal(sorted(got), sorted(want), "paid shifts (in_record_id)")
    for key in sorted(want):
        benchlib.expect_equal(
            {c: got[key][c] for c in columns},
            {c: want[key][c] for c in columns},
            f"{what} of the shift from {key}",
        )


@judge.check(level=3)
def every_employee_in_payroll(run: benchlib.Run) -> None:
    got = sorted(r["employee_id"] for r in rows(run, "output/payroll.csv"))
    benchlib.expect_equal(
        got, [r["employee_id"] for r in expected(run)["payroll"]], "payroll.csv employees"
    )


PAIRING = ["employee_id", "in_record_id", "out_record_id", "elapsed_minutes"]


@judge.check(level=3)
def shifts_paired(run: benchlib.Run) -> None:
    """Pairing of the employees no correction touches (the same at every stage)."""
    truth_ = expected(run)
    touched = set(truth_["touched"])
    got = sorted(
        [r[c] for c in PAIRING]
        for r in rows(run, "output/shift_detail.csv")
        if r["employee_id"] not in touched
    )
    want = sorted(
        [r[c] for c in PAIRING] for r in truth_["details"] if r["employee_id"] not in touched
    )
    benchlib.expect_equal(
        got, want, "paid shifts (employee, IN, OUT, elapsed) of employees without corrections"
    )


@judge.check(level=3)
def exceptions_found(run: benchlib.Run) -> None:
    truth_ = expected(run)
    touched = set(truth_["touched"])
    got = sorted(
        [r["record_id"], r["reason"]]
        for r in rows(run, "output/exceptions.csv")
        if r["employee_id"] not in touched
    )
    want = sorted(
        [r["record_id"], r["reason"]]
        for r in truth_["exceptions"]
        if r["employee_id"] not in touched
    )
    benchlib.expect_equal(got, want, "exceptions (record, reason) of employees without corrections")


@judge.check(level=4)
def pairing_exact(run: benchlib.Run) -> None:
    compare_columns(
        run, ["employee_id", "out_record_id", "clock_in", "clock_out", "elapsed_minutes"], "pairing"
    )


@judge.check(level=4)
def breaks_deducted(run: benchlib.Run) -> None:
    compare_columns(run, ["break_minutes", "paid_minutes"], "break and paid minutes")


@judge.check(level=4)
def night_minutes(run: benchlib.Run) -> None:
    compare_columns(run, ["night_minutes"], "night minutes")


@judge.check(level=4)
def overtime_tiers(run: benchlib.Run) -> None:
    compare_columns(run, ["regular_minutes", "overtime_minutes", "double_time_minutes"], "tiers")


@judge.check(level=4)
def shift_gross_pay(run: benchlib.Run) -> None:
    compare_columns(run, ["gross_pay"], "gross pay")


@judge.check(level=4)
def shift_detail_order(run: benchlib.Run) -> None:
    got = [r["in_record_id"] for r in rows(run, "output/shift_detail.csv")]
    benchlib.expect_equal(
        got, [r["in_record_id"] for r in expected(run)["details"]], "shift_detail.csv row order"
    )


@judge.check(level=4)
def payroll_exact(run: benchlib.Run) -> None:
    benchlib.expect_equal(rows(run, "output/payroll.csv"), expected(run)["payroll"], "payroll.csv")


@judge.check(level=4)
def exceptions_exact(run: benchlib.Run) -> None:
    benchlib.expect_equal(
        rows(run, "output/exceptions.csv"), expected(run)["exceptions"], "exceptions.csv"
    )


@judge.check(level=4, stage="corrections")
def correction_summary_exact(run: benchlib.Run) -> None:
    got = run.csv("output/correction_summary.csv")
    benchlib.expect_equal(got, expected(run)["summary"], "correction_summary.csv")


@judge.edge
def edge_matches_truth(run: benchlib.Run) -> None:
    want = truth(run.source)
    benchlib.expect_equal(rows(run, "output/shift_detail.csv"), want["details"], "shift_detail.csv")
    benchlib.expect_equal(rows(run, "output/payroll.csv"), want["payroll"], "payroll.csv")
    benchlib.expect_equal(rows(run, "output/exceptions.csv"), want["exceptions"], "exceptions.csv")


# endregion authored

if __name__ == "__main__":
    sys.exit(judge.main())
