"""Reference solution of task 27 (all four stages), standard library only.

Usage: python -m solution.clinic_schedule inputs --output output

Stage 1 validates the exported schedule (baseline_issues.csv) and normalizes it
(schedule.csv). Each later input adds one replanning step, applied in the order the events
happened: the provider absence (ABSENCE.md), the urgent requests (URGENT.md), the equipment
outage (OUTAGE.md). Every step changes only the appointments it opens and picks their new
slots by one lexicographic objective, with an exact branch-and-bound search.
"""

from __future__ import annotations

import argparse
import csv
import json
from functools import reduce
from itertools import combinations
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path

QUARTER = 15
FORMATS = ["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M", "%d/%m/%Y %H:%M"]
TRUE_WORDS = {"yes", "true", "y", "1"}  # the false words are no, false, n and 0
MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August",
          "September", "October", "November", "December"]  # fmt: skip
DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
NOT_SCHEDULED = "not scheduled; the clinic will call you to arrange a new time"


def read_csv(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))


def write_csv(path: Path, header: list[str], rows: list[dict]) -> None:
    with path.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.DictWriter(handle, header, lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)


def write_json(path: Path, value: dict) -> None:
    path.write_text(json.dumps(value, indent=2) + "\n", encoding="utf-8")


def parse_time(text: str) -> datetime:
    for form in FORMATS:
        try:
            return datetime.strptime(text, form)
        except ValueError:
            continue
    raise ValueError(f"unreadable time {text!r}")


def stamp(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M")


def minutes(delta: timedelta) -> int:
    return int(delta.total_seconds()) // 60


def norm_id(text: str) -> str:
    return text.strip().upper()


def parse_flag(text: str) -> bool:
    return text.lower() in TRUE_WORDS


@dataclass
class Slot:
    provider: str
    room: str
    start: datetime


@dataclass
class Appointment:
    id: str
    patient: str
    type: str
    provider: str
    room: str
    start: datetime
    end: datetime
    priority: int
    locked: bool
    windows: list[tuple[datetime, datetime]] = field(default_factory=list)

    def slot(self) -> Slot:
        return Slot(self.provider, self.room, self.start)


class Clinic:
    """The fixed data of inputs/: sites, rooms, types, providers and patients."""

    def __init__(self, folder: Path) -> None:
        self.sites = {r["site_id"]: r["name"] for r in read_csv(folder / "sites.csv")}
        self.travel = {
            (r["from_site"], r["to_site"]): int(r["minutes"])
            for r in read_csv(folder / "travel.csv")
        }
        self.rooms = {
            r["room_id"]: (r["site_id"], set(filter(None, r["equipment"].split(";"))))
            for r in read_csv(folder / "rooms.csv")
        }
        self.types = {
            r["type"]: (r["name"], int(r["duration_minutes"]), r["equipment"])
            for r in read_csv(folder / "appointment_types.csv")
        }
        self.providers = {
            r["provider_id"]: (r["name"], set(r["types"].split(";")))
            for r in read_csv(folder / "providers.csv")
        }
        self.availability: dict[str, list[tuple[str, datetime, datetime]]] = {}
        for r in read_csv(folder / "provider_availability.csv"):
            row = (r["site_id"], parse_time(r["start"]), parse_time(r["end"]))
            self.availability.setdefault(r["provider_id"], []).append(row)
        self.patients = {r["patient_id"]: r["name"] for r in read_csv(folder / "patients.csv")}
        self.windows: dict[str, list[tuple[datetime, datetime]]] = {}
        for r in read_csv(folder / "patient_windows.csv"):
            window = (parse_time(r["start"]), parse_time(r["end"]))
            self.windows.setdefault(r["patient_id"], []).append(window)
        self.absence: tuple[str, datetime, datetime] | None = None
        self.outage: tuple[str, str, datetime, datetime] | None = None

    def site(self, room: str) -> str:
        return self.rooms[room][0]

    def duration(self, kind: str) -> timedelta:
        return timedelta(minutes=self.types[kind][1])

    def gap_needed(self, first: Appointment, second_site: str) -> int:
        """Minutes a provider needs after ``first`` before starting at ``second_site``."""
        return self.travel[(self.site(first.room), second_site)]


def load_appointments(clinic: Clinic, folder: Path) -> list[Appointment]:
    appointments = []
    for r in read_csv(folder / "appointments.csv"):
        start = parse_time(r["start"])
        patient = norm_id(r["patient_id"])
        appointments.append(
            Appointment(
                id=norm_id(r["appointment_id"]), patient=patient, type=r["type"],
                provider=norm_id(r["provider_id"]), room=norm_id(r["room_id"]), start=start,
                end=start + clinic.duration(r["type"]), priority=int(r["priority"]),
                locked=parse_flag(r["locked"]), windows=clinic.windows.get(patient, []),
            )
        )  # fmt: skip
    return appointments


def overlaps(a_start: datetime, a_end: datetime, b_start: datetime, b_end: datetime) -> bool:
    return a_start < b_end and b_start < a_end


def inside(start: datetime, end: datetime, windows) -> bool:
    return any(low <= start and end <= high for low, high in windows)


def travel_short(clinic: Clinic, one: Appointment, other: Appointment) -> bool:
    """Two non-overlapping appointments of one provider at different sites, too close."""
    if clinic.site(one.room) == clinic.site(other.room):
        return False
    first, second = (one, other) if one.start <= other.start else (other, one)
    gap = minutes(second.start - first.end)
    return gap < clinic.gap_needed(first, clinic.site(second.room))


def validate(clinic: Clinic, appointments: list[Appointment]) -> list[dict[str, str]]:
    """Every baseline issue of the exported schedule (TASK.md), sorted."""
    issues = []

    def add(appt: Appointment, issue: str, other: str = "") -> None:
        issues.append({"appointment_id": appt.id, "issue": issue, "other_appointment_id": other})

    for appt in appointments:
        site, equipment = clinic.rooms[appt.room]
        if appt.type not in clinic.providers[appt.provider][1]:
            add(appt, "provider_unqualified")
        rows = [(s, e) for st, s, e in clinic.availability.get(appt.provider, []) if st == site]
        if not inside(appt.start, appt.end, rows):
            add(appt, "provider_unavailable")
        if not inside(appt.start, appt.end, appt.windows):
            add(appt, "patient_unavailable")
        need = clinic.types[appt.type][2]
        if need and need not in equipment:
            add(appt, "equipment_missing")
    for one, other in combinations(appointments, 2):
        found = []
        clash = overlaps(one.start, one.end, other.start, other.end)
        if one.provider == other.provider:
            if clash:
                found.append("provider_overlap")
            elif travel_short(clinic, one, other):
                found.append("travel_buffer")
        if clash and one.room == other.room:
            found.append("room_overlap")
        if clash and one.patient == other.patient:
            found.append("patient_overlap")
        for issue in found:
            add(one, issue, other.id)
            add(other, issue, one.id)
    return sorted(issues, key=lambda r: (r["appointment_id"], r["issue"], r["other_appointment_id"]))


class Planner:
    """Legal slots and the exact search of one replanning step."""

    def __init__(self, clinic: Clinic, schedule: list[Appointment]) -> None:
        self.clinic = clinic
        self.schedule = schedule

    def blocked(self, appt: Appointment, slot: Slot, end: datetime) -> bool:
        """The absence and the outage, as far as they are known."""
        absence, outage = self.clinic.absence, self.clinic.outage
        if absence and slot.provider == absence[0] and overlaps(slot.start, end, *absence[1:]):
            return True
        if outage and slot.room == outage[0] and self.clinic.types[appt.type][2] == outage[1]:
            return overlaps(slot.start, end, *outage[2:])
        return False

    def conflicts(self, appt: Appointment, slot: Slot, other: Appointment) -> bool:
        """Whether ``appt`` placed at ``slot`` clashes with ``other``."""
        end = slot.start + self.clinic.duration(appt.type)
        clash = overlaps(slot.start, end, other.start, other.end)
        if clash and (other.room == slot.room or other.patient == appt.patient):
            return True
        if other.provider != slot.provider:
            return False
        placed = Appointment(appt.id, appt.patient, appt.type, slot.provider, slot.room,
                             slot.start, end, appt.priority, appt.locked)  # fmt: skip
        return clash or travel_short(self.clinic, placed, other)

    def static_slots(self, appt: Appointment) -> list[Slot]:
        """Slots that satisfy every rule but the clashes with other appointments."""
        clinic, site = self.clinic, self.clinic.site(appt.room)
        length = clinic.duration(appt.type)
        need = clinic.types[appt.type][2]
        rooms = [r for r, (s, eq) in clinic.rooms.items() if s == site and (not need or need in eq)]
        slots = []
        for provider in clinic.providers:
            if appt.type not in clinic.providers[provider][1]:
                continue
            for row_site, low, high in clinic.availability.get(provider, []):
                if row_site != site:
                    continue
                start = low + timedelta(minutes=-low.minute % QUARTER)
                while start + length <= high:
                    if inside(start, start + length, appt.windows):
                        for room in rooms:
                            slot = Slot(provider, room, start)
                            if not self.blocked(appt, slot, start + length):
                                slots.append(slot)
                    start += timedelta(minutes=QUARTER)
        return slots

    def free_slots(self, appt: Appointment, others: list[Appointment]) -> list[Slot]:
        return [
            s for s in self.static_slots(appt) if not any(self.conflicts(appt, s, o) for o in others)
        ]

    def cost(self, appt: Appointment, slot: Slot | None) -> tuple[int, int, int, int]:
        """(unscheduled, moved, minutes moved, provider changed) of one open appointment."""
        if slot is None:
            return (1, 0, 0, 0)
        return (0, *move_cost(appt, slot))

    def replan(self, opened: list[Appointment]) -> dict[str, Slot | None]:
        """The best new slot (or None) of every open appointment (ABSENCE.md objective)."""
        opened = sorted(opened, key=lambda a: a.id)
        rest = [a for a in self.schedule if a.id not in {o.id for o in opened}]
        choices = {}
        for appt in opened:
            slots = self.free_slots(appt, rest)
            options = [(self.cost(appt, s), s) for s in slots] + [(self.cost(appt, None), None)]
            options.sort(key=lambda o: (o[0], tie(o[1])))
            choices[appt.id] = options
        plan: dict[str, Slot | None] = {}
        for group in self.groups(opened, choices):
            plan.update(self.search(group, [choices[a.id] for a in group]))
        return {a.id: plan[a.id] for a in opened}

    def groups(self, opened: list[Appointment], choices: dict) -> list[list[Appointment]]:
        """Open appointments split into groups whose candidate slots never clash."""
        owner = list(range(len(opened)))

        def root(i: int) -> int:
            while owner[i] != i:
                i = owner[i]
            return i

        for i, j in combinations(range(len(opened)), 2):
            one, other = opened[i], opened[j]
            if any(
                self.conflicts(one, s, placed(self.clinic, other, t))
                for _, s in choices[one.id] if s is not None
                for _, t in choices[other.id] if t is not None
            ):
                owner[root(j)] = root(i)
        found: dict[int, list[Appointment]] = {}
        for i, appt in enumerate(opened):
            found.setdefault(root(i), []).append(appt)
        return list(found.values())

    def search(self, group: list[Appointment], choices: list) -> dict[str, Slot | None]:
        """Exact branch and bound over one group, in appointment_id order."""
        cheapest = [min(cost for cost, _ in options) for options in choices]
        best: dict = {}  # the best plan so far: its total cost, tie sequence and slots
        chosen: list[Slot | None] = []

        def walk(i: int, total: tuple, order: tuple) -> None:
            bound = reduce(add, cheapest[i:], total)  # no completion of ``chosen`` costs less
            if best and (bound, order) > (best["total"], best["order"][: len(order)]):
                return
            if i == len(group):
                best.update(total=total, order=order, plan=list(chosen))
                return
            for cost, slot in choices[i]:
                if slot is not None and any(
                    self.conflicts(group[i], slot, placed(self.clinic, group[j], s))
                    for j, s in enumerate(chosen)
                    if s is not None
                ):
                    continue
                chosen.append(slot)
                walk(i + 1, add(total, cost), order + (tie(slot),))
                chosen.pop()

        walk(0, (0, 0, 0, 0), ())
        return {appt.id: slot for appt, slot in zip(group, best["plan"])}


def move_cost(appt: Appointment, slot: Slot) -> tuple[int, int, int]:
    """(moved, minutes moved, provider changed) of giving ``appt`` the slot ``slot``."""
    shift = abs(minutes(slot.start - appt.start))
    return (int(slot.start != appt.start), shift, int(slot.provider != appt.provider))


def add(one: tuple, other: tuple) -> tuple:
    return tuple(x + y for x, y in zip(one, other))


def tie(slot: Slot | None) -> tuple:
    """Criterion 5: an earlier start first, then provider_id, then room_id; None is last."""
    if slot is None:
        return (datetime.max, "", "")
    return (slot.start, slot.provider, slot.room)


def placed(clinic: Clinic, appt: Appointment, slot: Slot) -> Appointment:
    """A copy of ``appt`` moved to ``slot``."""
    return Appointment(appt.id, appt.patient, appt.type, slot.provider, slot.room, slot.start,
                       slot.start + clinic.duration(appt.type), appt.priority, appt.locked,
                       appt.windows)  # fmt: skip


class Pipeline:
    """The schedule through the steps, with the bookkeeping the reports need."""

    def __init__(self, clinic: Clinic, baseline: list[Appointment]) -> None:
        self.clinic = clinic
        self.schedule = list(baseline)
        self.reason: dict[str, str] = {}
        self.unscheduled: dict[str, Appointment] = {}

    def step(self, opened: list[Appointment], reason: str) -> dict:
        """Replan ``opened``; return the step's report fields."""
        plan = Planner(self.clinic, self.schedule).replan(opened)
        by_id = {a.id: a for a in opened}
        moved = shifted = 0
        lost = []
        self.schedule = [a for a in self.schedule if a.id not in plan]
        for appt_id, slot in plan.items():
            appt = by_id[appt_id]
            if slot is None:
                self.unscheduled[appt_id] = appt
                self.reason[appt_id] = reason
                lost.append(appt_id)
                continue
            step_moved, gap, _ = move_cost(appt, slot)
            moved += step_moved
            shifted += gap
            self.schedule.append(placed(self.clinic, appt, slot))
            self.reason[appt_id] = reason
        return {
            "affected": sorted(plan),
            "moved": moved,
            "minutes_moved": shifted,
            "unscheduled": lost,
        }

    def absence(self, absence: dict) -> dict:
        provider = absence["provider_id"]
        low, high = parse_time(absence["start"]), parse_time(absence["end"])
        self.clinic.absence = (provider, low, high)
        hit = [a for a in self.schedule if a.provider == provider and overlaps(a.start, a.end, low, high)]
        report = {"provider_id": provider, "locked_kept": sorted(a.id for a in hit if a.locked)}
        report.update(self.step([a for a in hit if not a.locked], "absence"))
        return report

    def outage(self, outage: dict) -> dict:
        room, gear = outage["room_id"], outage["equipment"]
        low, high = parse_time(outage["start"]), parse_time(outage["end"])
        self.clinic.outage = (room, gear, low, high)
        hit = [
            a for a in self.schedule
            if a.room == room and self.clinic.types[a.type][2] == gear
            and overlaps(a.start, a.end, low, high)
        ]  # fmt: skip
        report = {"room_id": room, "equipment": gear,
                  "locked_kept": sorted(a.id for a in hit if a.locked)}  # fmt: skip
        report.update(self.step([a for a in hit if not a.locked], "outage"))
        return report

    def urgent(self, requests: list[dict]) -> list[dict]:
        rows = []
        order = sorted(requests, key=lambda r: (-int(r["priority"]), r["request_id"]))
        for request in order:
            rows.append(self.book(request))
        return sorted(rows, key=lambda r: r["request_id"])

    def book(self, request: dict) -> dict:
        clinic = self.clinic
        low, high = parse_time(request["earliest"]), parse_time(request["latest"])
        site = request["site_id"]
        room = min(r for r, (s, _) in clinic.rooms.items() if s == site)  # stands for the site
        appt = Appointment(request["request_id"], request["patient_id"], request["type"], "",
                           room, low, high, int(request["priority"]), False, [(low, high)])  # fmt: skip
        clinic.patients.setdefault(appt.patient, request["patient_name"])
        planner = Planner(clinic, self.schedule)
        row = {"request_id": appt.id, "status": "unscheduled", "provider_id": "", "room_id": "",
               "start": "", "displaced_appointment_id": ""}  # fmt: skip
        free = planner.free_slots(appt, self.schedule)
        best, displaced = None, None
        if free:
            best = min(free, key=tie)
            row["status"] = "booked"
        else:
            options = []
            for slot in planner.static_slots(appt):
                hits = [o for o in self.schedule if planner.conflicts(appt, slot, o)]
                if len(hits) != 1:
                    continue
                (victim,) = hits
                if victim.locked or victim.priority >= appt.priority:
                    continue
                others = list(self.schedule)  # the request in its slot takes D's place
                others[others.index(victim)] = placed(clinic, appt, slot)
                for new in planner.free_slots(victim, others):
                    rank = move_cost(victim, new) + tie(slot) + (victim.id,) + tie(new)
                    options.append((rank, slot, victim, new))
            if options:
                _, best, victim, new = min(options, key=lambda o: o[0])
                displaced = (victim, new)
                row["status"] = "booked_with_displacement"
                row["displaced_appointment_id"] = victim.id
        if best is None:
            self.unscheduled[appt.id] = appt
            self.reason[appt.id] = "urgent"
            return row
        if displaced is not None:
            victim, new = displaced
            self.schedule[self.schedule.index(victim)] = placed(clinic, victim, new)
            self.reason[victim.id] = "displaced"
        self.schedule.append(placed(clinic, appt, best))
        self.reason[appt.id] = "urgent"
        row.update(provider_id=best.provider, room_id=best.room, start=stamp(best.start))
        return row


def schedule_row(clinic: Clinic, appt: Appointment) -> dict:
    return {
        "appointment_id": appt.id, "patient_id": appt.patient, "type": appt.type,
        "provider_id": appt.provider, "site_id": clinic.site(appt.room), "room_id": appt.room,
        "start": stamp(appt.start), "end": stamp(appt.end), "priority": appt.priority,
        "locked": "true" if appt.locked else "false",
    }  # fmt: skip


def slot_text(clinic: Clinic, appt: Appointment) -> str:
    start, end = appt.start, appt.end
    day = f"{DAYS[start.weekday()]} {start.day} {MONTHS[start.month - 1]} {start.year}"
    return (f"{day}, {start:%H:%M}-{end:%H:%M}, {clinic.providers[appt.provider][0]}, "
            f"{clinic.sites[clinic.site(appt.room)]}, room {appt.room}")  # fmt: skip


def write_outputs(clinic, baseline, pipeline, reports, out: Path) -> None:
    final = {a.id: a for a in pipeline.schedule}
    write_csv(out / "schedule.csv", SCHEDULE_HEADER, [
        schedule_row(clinic, a) for a in sorted(final.values(), key=lambda a: (a.start, a.id))
    ])  # fmt: skip
    if "absence" not in reports:
        return
    before = {a.id: a for a in baseline}
    changes, missing = [], []
    notified: dict[str, list[str]] = {}  # patient -> their appointments in either file, by ID
    for appt_id in sorted(set(final) | set(pipeline.unscheduled)):
        old, new = before.get(appt_id), final.get(appt_id)
        if new is None:
            missing.append({
                "appointment_id": appt_id, "patient_id": pipeline.unscheduled[appt_id].patient,
                "reason": pipeline.reason[appt_id],
                "old_provider_id": old.provider if old else "", "old_room_id": old.room if old else "",
                "old_start": stamp(old.start) if old else "",
            })  # fmt: skip
            notified.setdefault(missing[-1]["patient_id"], []).append(appt_id)
            continue
        if old is not None and old.slot() == new.slot():
            continue
        row = {"appointment_id": appt_id, "patient_id": new.patient,
               "reason": pipeline.reason[appt_id], "new_provider_id": new.provider,
               "new_room_id": new.room, "new_start": stamp(new.start)}  # fmt: skip
        if old is None:
            row.update(change="booked", old_provider_id="", old_room_id="", old_start="",
                       minutes_moved="")  # fmt: skip
        else:
            shift = move_cost(old, new.slot())[1]
            row.update(change="rescheduled" if shift else "reassigned",
                       old_provider_id=old.provider, old_room_id=old.room,
                       old_start=stamp(old.start), minutes_moved=shift)  # fmt: skip
        changes.append(row)
        notified.setdefault(new.patient, []).append(appt_id)
    write_csv(out / "changes.csv", CHANGES_HEADER, changes)
    write_csv(out / "unscheduled.csv", UNSCHEDULED_HEADER, missing)
    write_json(out / "absence_report.json", reports["absence"])
    if "urgent" in reports:
        write_csv(out / "urgent_report.csv", URGENT_HEADER, reports["urgent"])
    if "outage" not in reports:
        return
    write_json(out / "outage_report.json", reports["outage"])
    write_notices(clinic, before, final, pipeline.unscheduled, notified, out / "notices")


def write_notices(clinic, before, final, unscheduled, notified, folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for patient, appt_ids in notified.items():
        lines = [f"Dear {clinic.patients[patient]},", ""]
        for appt_id in appt_ids:
            old, new = before.get(appt_id), final.get(appt_id)
            kind = (new or unscheduled[appt_id]).type
            lines.append(f"Appointment {appt_id}: {clinic.types[kind][0]}")
            lines.append("Before: " + (slot_text(clinic, old) if old else "new urgent request"))
            lines.append("After: " + (slot_text(clinic, new) if new else NOT_SCHEDULED))
            lines.append("")
        lines.append("Clinic scheduling desk")
        (folder / f"{patient}.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")


SCHEDULE_HEADER = ["appointment_id", "patient_id", "type", "provider_id", "site_id", "room_id",
                   "start", "end", "priority", "locked"]  # fmt: skip
ISSUES_HEADER = ["appointment_id", "issue", "other_appointment_id"]
CHANGES_HEADER = ["appointment_id", "patient_id", "change", "reason", "old_provider_id",
                  "old_room_id", "old_start", "new_provider_id", "new_room_id", "new_start",
                  "minutes_moved"]  # fmt: skip
UNSCHEDULED_HEADER = ["appointment_id", "patient_id", "reason", "old_provider_id",
                      "old_room_id", "old_start"]  # fmt: skip
URGENT_HEADER = ["request_id", "status", "provider_id", "room_id", "start",
                 "displaced_appointment_id"]  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("inputs", type=Path)
    parser.add_argument("--output", type=Path, required=True)
    args = parser.parse_args()
    clinic = Clinic(args.inputs)
    baseline = load_appointments(clinic, args.inputs)
    args.output.mkdir(parents=True, exist_ok=True)
    write_csv(args.output / "baseline_issues.csv", ISSUES_HEADER, validate(clinic, baseline))
    pipeline = Pipeline(clinic, baseline)
    reports: dict = {}
    absence_path = args.inputs / "provider_absence.json"
    if absence_path.is_file():
        reports["absence"] = pipeline.absence(json.loads(absence_path.read_text(encoding="utf-8")))
    urgent_path = args.inputs / "urgent_requests.csv"
    if urgent_path.is_file():
        reports["urgent"] = pipeline.urgent(read_csv(urgent_path))
    outage_path = args.inputs / "equipment_outage.json"
    if outage_path.is_file():
        reports["outage"] = pipeline.outage(json.loads(outage_path.read_text(encoding="utf-8")))
    write_outputs(clinic, baseline, pipeline, reports, args.output)


if __name__ == "__main__":
    main()
