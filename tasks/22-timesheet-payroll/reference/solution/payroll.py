"""Weekly payroll from time-clock punches (reference solution of task 22, all three stages).

python -m solution.payroll INPUTS --week-ending YYYY-MM-DD --output DIR
"""

from __future__ import annotations

import argparse
import csv
import json
from datetime import date, datetime, time, timedelta
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path
from zoneinfo import ZoneInfo

CENT = Decimal("0.01")
MULTIPLIER = {"regular": Decimal("1"), "overtime": Decimal("1.5"), "double_time": Decimal("2")}
TIERS = ["regular", "overtime", "double_time"]
COUNTS = ["paid", "regular", "overtime", "double_time", "night"]
PAYROLL = ["employee_id", "name", "group", "shifts", *[f"{c}_minutes" for c in COUNTS], "gross_pay"]
DETAIL = ["employee_id", "in_record_id", "out_record_id", "clock_in", "clock_out",
          "elapsed_minutes", "break_minutes", "paid_minutes", "night_minutes",
          "regular_minutes", "overtime_minutes", "double_time_minutes", "gross_pay"]  # fmt: skip
EXCEPTIONS = ["record_id", "employee_id", "punch", "timestamp", "reason"]
SUMMARY = ["employee_id", "gross_before", "gross_after", "delta"]


def read_csv(path: Path) -> list[dict[str, str]]:
    with path.open(newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def write_csv(path: Path, header: list[str], rows: list[dict]) -> None:
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, header, lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)


def minute(text: str) -> int:
    """The instant of a timestamp with an explicit UTC offset, in minutes since the epoch."""
    return int(datetime.fromisoformat(text).timestamp()) // 60


def clock(text: str) -> int:
    """Minutes after midnight of an HH:MM wall-clock time."""
    hours, minutes = text.split(":")
    return int(hours) * 60 + int(minutes)


def load_records(inputs: Path, corrected: bool) -> list[dict[str, str]]:
    """The punch records, with the corrections applied (the latest one per record wins)."""
    records = {row["record_id"]: row for row in read_csv(inputs / "punches.csv")}
    if corrected:
        corrections = read_csv(inputs / "punch_corrections.csv")
        for row in sorted(corrections, key=lambda r: minute(r["corrected_at"])):
            if row["punch"] == "VOID":
                records.pop(row["record_id"], None)
            else:
                records[row["record_id"]] = row
    return list(records.values())


class Payroll:
    """The company rules (and the union rules, once they exist) for one pay week."""

    def __init__(self, inputs: Path, week_ending: date) -> None:
        company = json.loads((inputs / "company_rules.json").read_text(encoding="utf-8"))
        self.zone = ZoneInfo(company["site_timezone"])
        self.end = self.midnight(week_ending)
        self.start = self.midnight(week_ending - timedelta(days=7))
        self.max_shift = company["max_shift_minutes"]
        self.auto = company["auto_break"]
        self.night = company["night"]
        self.weekly = company["weekly_overtime"]
        union_path = inputs / "union_rules.json"
        self.union = None
        if union_path.exists():
            self.union = json.loads(union_path.read_text(encoding="utf-8"))
        self.employees = read_csv(inputs / "employees.csv")

    def midnight(self, day: date) -> int:
        return int(datetime.combine(day, time(), self.zone).timestamp()) // 60

    def pair(self, records: list[dict[str, str]]) -> tuple[dict[str, list], list[tuple[list, str]]]:
        """Paid shifts by employee (their records, IN first; in time order) and unpaid ones."""
        by_employee: dict[str, list[dict[str, str]]] = {}
        for record in records:
            by_employee.setdefault(record["employee_id"], []).append(record)
        shifts: dict[str, list] = {}
        unpaid = []
        for employee, punches in by_employee.items():
            shift = None
            for record in sorted(punches, key=lambda r: minute(r["timestamp"])):
                if record["punch"] == "IN":
                    if shift:
                        unpaid.append((shift, "missing_out"))
                    shift = [record]
                elif shift is None:
                    unpaid.append(([record], "missing_in"))
                else:
                    shift.append(record)
                    if record["punch"] == "OUT":
                        length = minute(record["timestamp"]) - minute(shift[0]["timestamp"])
                        if length > self.max_shift:
                            unpaid.append((shift, "shift_too_long"))
                        else:
                            shifts.setdefault(employee, []).append(shift)
                        shift = None
            if shift:
                unpaid.append((shift, "missing_out"))
        return shifts, unpaid

    def in_week(self, records: list[dict[str, str]]) -> bool:
        return self.start <= minute(records[0]["timestamp"]) < self.end

    def worked(self, shift: list[dict[str, str]]) -> tuple[int, list[int]]:
        """Break minutes and the worked minutes (epoch minutes) of one paid shift."""
        start, end = minute(shift[0]["timestamp"]), minute(shift[-1]["timestamp"])
        marks = [minute(r["timestamp"]) for r in shift[1:-1]]
        breaks = list(zip(marks[::2], marks[1::2]))  # noqa: B905  # break starts with their ends
        if not breaks and end - start > self.auto["applies_above_minutes"]:
            begin = start + self.auto["starts_after_minutes"]
            breaks = [(begin, begin + self.auto["unpaid_minutes"])]
        minutes = [m for m in range(start, end) if not any(a <= m < b for a, b in breaks)]
        return sum(b - a for a, b in breaks), minutes

    def tiers(self, group: str, days: list[date]) -> list[str]:
        """The tier of each worked minute of one employee's week, given in time order."""
        union = self.union if self.union and self.union["applies_to_group"] == group else None
        weekly = group in self.weekly["groups"] or union is not None
        per_day: dict[date, int] = {}
        regular = 0
        tiers = []
        for day in days:
            per_day[day] = per_day.get(day, 0) + 1
            tier = "regular"
            if union:
                for step in union["daily_overtime"]:
                    if per_day[day] > step["after_minutes_in_day"]:
                        tier = step["tier"]
            if tier == "regular" and weekly:
                regular += 1
                if regular > self.weekly["after_minutes"]:
                    tier = "overtime"
            tiers.append(tier)
        return tiers

    def compute(self, records: list[dict[str, str]]) -> tuple[list[dict], list[dict], dict]:
        """shift_detail rows, exception rows and payroll rows by employee."""
        shifts, unpaid = self.pair(records)
        exceptions = [
            {**{k: r[k] for k in EXCEPTIONS[:-1]}, "reason": reason}
            for shift, reason in unpaid
            if self.in_week(shift)
            for r in shift
        ]
        details, payroll = [], {}
        night_start, night_end = clock(self.night["start"]), clock(self.night["end"])
        for employee in sorted(self.employees, key=lambda e: e["employee_id"]):
            mine = [s for s in shifts.get(employee["employee_id"], []) if self.in_week(s)]
            worked = [self.worked(s) for s in mine]
            local = [[datetime.fromtimestamp(m * 60, self.zone) for m in w[1]] for w in worked]
            tiers = iter(self.tiers(employee["group"], [t.date() for day in local for t in day]))
            rate = Decimal(employee["hourly_rate"])
            total = dict.fromkeys(COUNTS, 0)
            gross = Decimal("0.00")
            for shift, (unpaid_minutes, minutes), moments in zip(mine, worked, local):  # noqa: B905  # parallel lists
                count = dict.fromkeys(TIERS, 0)
                for _ in minutes:
                    count[next(tiers)] += 1
                night = sum(not night_end <= t.hour * 60 + t.minute < night_start for t in moments)
                units = sum(MULTIPLIER[t] * n for t, n in count.items())
                units += Decimal(self.night["differential"]) * night
                pay = (rate * units / 60).quantize(CENT, rounding=ROUND_HALF_UP)
                row = {"paid": len(minutes), "night": night, **count}
                for key in COUNTS:
                    total[key] += row[key]
                gross += pay
                details.append({
                    "employee_id": employee["employee_id"],
                    "in_record_id": shift[0]["record_id"],
                    "out_record_id": shift[-1]["record_id"],
                    "clock_in": shift[0]["timestamp"],
                    "clock_out": shift[-1]["timestamp"],
                    "elapsed_minutes": (
                        minute(shift[-1]["timestamp"]) - minute(shift[0]["timestamp"])
                    ),
                    "break_minutes": unpaid_minutes,
                    **{f"{key}_minutes": row[key] for key in COUNTS},
                    "gross_pay": pay,
                })  # fmt: skip
            payroll[employee["employee_id"]] = {
                "employee_id": employee["employee_id"],
                "name": employee["name"],
                "group": employee["group"],
                "shifts": len(mine),
                **{f"{key}_minutes": total[key] for key in COUNTS},
                "gross_pay": gross,
            }
        return details, sorted(exceptions, key=lambda e: e["record_id"]), payroll


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("inputs", type=Path)
    parser.add_argument("--week-ending", required=True, type=date.fromisoformat)
    parser.add_argument("--output", required=True, type=Path)
    args = parser.parse_args()
    payroll = Payroll(args.inputs, args.week_ending)
    corrected = (args.inputs / "punch_corrections.csv").exists()
    details, exceptions, rows = payroll.compute(load_records(args.inputs, corrected))
    args.output.mkdir(parents=True, exist_ok=True)
    write_csv(args.output / "payroll.csv", PAYROLL, list(rows.values()))
    write_csv(args.output / "shift_detail.csv", DETAIL, details)
    write_csv(args.output / "exceptions.csv", EXCEPTIONS, exceptions)
    if corrected:
        before = payroll.compute(load_records(args.inputs, False))[2]
        changed = [
            {"employee_id": k, "gross_before": before[k]["gross_pay"],
             "gross_after": rows[k]["gross_pay"],
             "delta": rows[k]["gross_pay"] - before[k]["gross_pay"]}
            for k in rows if rows[k]["gross_pay"] != before[k]["gross_pay"]
        ]  # fmt: skip
        write_csv(args.output / "correction_summary.csv", SUMMARY, changed)


if __name__ == "__main__":
    main()
