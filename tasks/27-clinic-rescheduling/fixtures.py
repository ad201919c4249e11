"""Fixtures of task 27: one week (Mon 10 - Fri 14 March 2025) of a three-site clinic network.

The reference tables (sites, travel, rooms, appointment types, providers and their
availability) are constants below. The schedule is the anchors of task.toml (rows of
``table = "appointments"``, exported exactly as written, with their patient's name and
windows) plus seeded filler: appointments placed inside provider availability, in suitable
free rooms, never clashing with anything placed before them (provider, room, travel), each
with its own patient (a few patients get two appointments on different days). So every
baseline issue comes from an anchor. Filler never touches the provider-days in CONTROLLED
nor the room-days in RESERVED: the absence, urgent and outage stories of the anchors play
there, so no filler appointment is ever opened by a later step and the anchors' outcomes do
not depend on filler. The export is messy the way TASK.md says: three start formats, IDs
with stray spaces or lower case, several spellings of the locked flag, rows in no order.
"""

from __future__ import annotations

import random
from datetime import datetime, timedelta
from typing import Any

import benchlib

APPOINTMENTS = 250
DAYS = ["2025-03-10", "2025-03-11", "2025-03-12", "2025-03-13", "2025-03-14"]
MON, TUE, WED, THU, FRI = DAYS
SITES = [("HARBOR", "Harbor Clinic"), ("NORTH", "North Clinic"), ("WEST", "West Clinic")]
TRAVEL = [
    ("HARBOR", "NORTH", 40), ("HARBOR", "WEST", 20), ("NORTH", "HARBOR", 30),
    ("NORTH", "WEST", 45), ("WEST", "HARBOR", 35), ("WEST", "NORTH", 45),
]  # fmt: skip
ROOMS = [
    ("H1", "HARBOR", ""), ("H2", "HARBOR", ""), ("H3", "HARBOR", "ecg"), ("H4", "HARBOR", "physio"),
    ("N1", "NORTH", ""), ("N2", "NORTH", "imaging"), ("N3", "NORTH", "ecg"), ("N4", "NORTH", "imaging"),
    ("W1", "WEST", ""), ("W2", "WEST", "imaging"), ("W3", "WEST", "physio"), ("W4", "WEST", "ecg"),
]  # fmt: skip
TYPES = [
    ("consult", "General consultation", 30, ""),
    ("ecg", "ECG recording", 30, "ecg"),
    ("follow_up", "Follow-up visit", 15, ""),
    ("imaging", "Imaging scan", 45, "imaging"),
    ("physio", "Physiotherapy session", 45, "physio"),
    ("vaccination", "Vaccination", 15, ""),
]
PROVIDERS = [
    ("P01", "Dr. Amara Okafor", "consult;follow_up;vaccination"),
    ("P02", "Dr. Jonas Berg", "consult;follow_up"),
    ("P03", "Nurse Lina Haddad", "ecg;follow_up;vaccination"),
    ("P04", "Dr. Mei Tanaka", "consult;follow_up;vaccination"),
    ("P05", "Dr. Rafael Costa", "consult;follow_up"),
    ("P06", "Nurse Ola Nilsen", "ecg;vaccination"),
    ("P07", "Sam Whitfield", "imaging"),
    ("P08", "Inês Duarte", "imaging"),
    ("P09", "Tomas Novak", "physio"),
    ("P10", "Grace Mensah", "physio"),
    ("P11", "Dr. Hana Kim", "consult;ecg;follow_up"),
    ("P12", "Dr. Leo Marchetti", "consult;follow_up;vaccination"),
]


def _weekly() -> list[tuple[str, str, str, str, str]]:
    """(provider, site, day, start, end) availability rows."""
    rows = []
    for day in DAYS:
        split = day in (MON, WED, FRI)
        midweek = day in (TUE, WED, THU)
        rows += [
            ("P01", "NORTH", day, "08:00", "16:00"),
            *([("P02", "NORTH", day, "08:00", "12:00"), ("P02", "WEST", day, "13:00", "17:00")]
              if split else [("P02", "WEST", day, "08:00", "16:00")]),
            ("P03", "WEST", day, "08:00", "14:00"),
            ("P04", "HARBOR", day, "08:00", "16:00"),
            *([("P05", "HARBOR", day, "08:00", "12:00"), ("P05", "NORTH", day, "13:00", "17:00")]
              if midweek else [("P05", "NORTH", day, "08:00", "16:00")]),
            ("P06", "HARBOR", day, "08:00", "12:00"),
            ("P06", "NORTH", day, "12:30", "17:00"),
            ("P07", "NORTH", day, "08:00", "16:00"),
            ("P08", "NORTH" if day in (THU, FRI) else "WEST", day, "08:00", "16:00"),
            ("P09", "HARBOR", day, "08:00", "16:00"),
            *([("P10", "WEST", day, "09:00", "13:00"), ("P10", "WEST", day, "13:00", "17:00")]
              if day == FRI else [("P10", "WEST", day, "09:00", "17:00")]),
            ("P11", "NORTH", day, "08:00", "12:00"),
            ("P11", "WEST", day, "12:30", "16:30"),
            ("P12", "WEST", day, "08:00", "12:00"),
            ("P12", "HARBOR", day, "12:20", "17:00") if day == WED else ("P12", "WEST", day, "13:00", "16:00"),
        ]  # fmt: skip
    return sorted(rows, key=lambda r: (r[0], r[2], r[3]))


AVAILABILITY = _weekly()
# provider-days and room-days that only anchors use (the stories of the later stages)
CONTROLLED = {
    ("P04", TUE), ("P04", WED), ("P04", THU), ("P05", TUE), ("P05", WED), ("P05", THU),
    ("P12", TUE), ("P12", WED), ("P01", WED), ("P02", TUE), ("P06", THU),
    ("P07", THU), ("P07", FRI), ("P08", THU), ("P08", FRI),
}  # fmt: skip
RESERVED = {
    ("H1", TUE), ("H1", WED), ("H1", THU), ("H2", TUE), ("H2", WED), ("H2", THU),
    ("W1", TUE), ("W1", WED), ("N1", WED), ("N3", WED),
    ("N2", THU), ("N2", FRI), ("N4", THU), ("N4", FRI),
}  # fmt: skip
FIRST = ["Ada", "Bruno", "Carmen", "Dario", "Elin", "Fatima", "Gustav", "Hiro", "Irene", "Jamal",
         "Katja", "Luca", "Marta", "Nikolai", "Olga", "Paulo", "Rania", "Stefan", "Tanja", "Umar",
         "Vera", "Wiktor", "Ximena", "Yannick", "Zeynep", "Anouk", "Bilal", "Céline", "Dagny",
         "Émile", "Freya", "Gökhan", "Hanne", "Iñigo", "Jorunn", "Kaito", "Lotte", "Malik"]  # fmt: skip
LAST = ["Andersson", "Bakker", "Castillo", "Dubois", "Eklund", "Ferreira", "García", "Hansen",
        "Ibrahim", "Jensen", "Kowalski", "López", "Moreau", "Nakamura", "Olsen", "Petersen",
        "Quintero", "Richter", "Schmidt", "Takahashi", "Ulvaeus", "Varga", "Wójcik", "Zimmermann",
        "Aydın", "Bianchi", "Çelik", "Dahlberg", "Eriksson", "Fontaine"]  # fmt: skip
TYPE_WEIGHTS = {"consult": 6, "follow_up": 3, "vaccination": 3, "ecg": 3, "imaging": 1, "physio": 1}
QUARTER = timedelta(minutes=15)


def parse_time(text: str) -> datetime:
    for form in ("%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M", "%d/%m/%Y %H:%M"):
        try:
            return datetime.strptime(text.strip(), form)
        except ValueError:
            continue
    raise ValueError(f"anchor time {text!r}")


def _duration(kind: str) -> timedelta:
    return timedelta(minutes=next(t[2] for t in TYPES if t[0] == kind))


def _equipment(kind: str) -> str:
    return next(t[3] for t in TYPES if t[0] == kind)


class Book:
    """Placed appointments, indexed for the clash tests of filler placement."""

    def __init__(self) -> None:
        self.by_provider: dict[str, list[tuple[datetime, datetime, str]]] = {}
        self.by_room: dict[str, list[tuple[datetime, datetime]]] = {}

    def add(self, provider: str, room: str, start: datetime, end: datetime) -> None:
        site = next(r[1] for r in ROOMS if r[0] == room)
        self.by_provider.setdefault(provider, []).append((start, end, site))
        self.by_room.setdefault(room, []).append((start, end))

    def provider_free(self, provider: str, site: str, start: datetime, end: datetime) -> bool:
        travel = {(a, b): m for a, b, m in TRAVEL}
        for low, high, other in self.by_provider.get(provider, []):
            if low < end and start < high:
                return False
            if other != site:
                if high <= start and start - high < timedelta(minutes=travel[other, site]):
                    return False
                if end <= low and low - end < timedelta(minutes=travel[site, other]):
                    return False
        return True

    def room_free(self, room: str, start: datetime, end: datetime) -> bool:
        return all(not (low < end and start < high) for low, high in self.by_room.get(room, []))


def _anchor_rows(ctx: benchlib.SeedContext, table: str) -> list[dict[str, Any]]:
    return [
        dict(record)
        for name in sorted(ctx.anchors)
        for record in ctx.anchor(name)
        if record["table"] == table
    ]


def _stamp(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M")


def _messy(rng: random.Random, row: dict[str, Any], start: datetime) -> dict[str, Any]:
    """The old booking system's way of writing a filler row."""
    out = dict(row)
    form = rng.choices(["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M", "%d/%m/%Y %H:%M"], [6, 2, 2])[0]
    out["start"] = start.strftime(form)
    for key in ("appointment_id", "patient_id", "provider_id", "room_id"):
        roll = rng.random()
        if roll < 0.08:
            out[key] = out[key].lower()
        elif roll < 0.14:
            out[key] = f" {out[key]}" if rng.random() < 0.5 else f"{out[key]} "
    word = rng.choice([("yes", "no"), ("true", "false"), ("Y", "N"), ("1", "0"), ("TRUE", "False")])
    out["locked"] = word[0] if row["locked"] else word[1]
    return out


def world(ctx: benchlib.SeedContext) -> dict[str, list[dict[str, Any]]]:
    """Appointments (export rows), patients and patient windows of the main fixture."""
    anchors = _anchor_rows(ctx, "appointments")
    book = Book()
    patients: dict[str, dict[str, Any]] = {}
    windows: list[tuple[str, str, str]] = []
    rows = []
    for record in anchors:
        start = parse_time(record["start"])
        kind = record["type"]
        book.add(record["provider_id"].strip().upper(), record["room_id"].strip().upper(),
                 start, start + _duration(kind))  # fmt: skip
        pid = record["patient_id"]
        if "patient_name" in record:
            patients[pid] = {"patient_id": pid, "name": record["patient_name"]}
        for window in record.get("windows", []):
            low, high = window.split("/")
            windows.append((pid, low, high))
        rows.append({k: record[k] for k in EXPORT_HEADER})
    anchor_ids = {r["appointment_id"].strip().upper() for r in rows}
    anchor_patients = set(patients)
    rng = random.Random(f"{ctx.seed}/filler")
    pool = []
    for provider, site, day, low, high in AVAILABILITY:
        if (provider, day) in CONTROLLED:
            continue
        kinds = next(p[2] for p in PROVIDERS if p[0] == provider).split(";")
        start = datetime.fromisoformat(f"{day}T{low}") + QUARTER * rng.choice([0, 0, 1, 2, 4])
        stop = datetime.fromisoformat(f"{day}T{high}")
        while True:
            kind = rng.choices(kinds, [TYPE_WEIGHTS[k] for k in kinds])[0]
            end = start + _duration(kind)
            if end > stop:
                break
            need = _equipment(kind)
            rooms = [r for r, s, eq in ROOMS if s == site and (not need or eq == need)
                     and (r, day) not in RESERVED and book.room_free(r, start, end)]  # fmt: skip
            plain = [r for r in rooms if not next(eq for q, _, eq in ROOMS if q == r)]
            if rooms and book.provider_free(provider, site, start, end):
                room = rng.choice(plain or rooms)
                book.add(provider, room, start, end)
                pool.append((provider, room, kind, start, end))
                start = end + QUARTER * rng.choice([0, 0, 1, 1, 2, 3, 4, 6])
            else:
                start += QUARTER
    need = APPOINTMENTS - len(rows)
    picked = sorted(rng.sample(range(len(pool)), need))
    free_ids = [f"A{i:03d}" for i in range(1, APPOINTMENTS + 1) if f"A{i:03d}" not in anchor_ids]
    free_patients = [f"PT{i:03d}" for i in range(1, 300) if f"PT{i:03d}" not in anchor_patients]
    rng.shuffle(free_ids)
    rng.shuffle(free_patients)
    filler = [pool[i] for i in picked]
    # a few patients come twice, on different days
    owners: list[int] = list(range(len(filler)))
    order = list(range(len(filler)))
    rng.shuffle(order)
    pairs = 0
    for a, b in zip(order[::2], order[1::2]):
        if pairs < 18 and filler[a][3].date() != filler[b][3].date():
            owners[b] = a
            pairs += 1
    names = [f"{f} {g}" for f in FIRST for g in LAST]
    rng.shuffle(names)
    patient_of: dict[int, str] = {}
    for index, (provider, room, kind, start, end) in enumerate(filler):
        owner = owners[index]
        if owner not in patient_of:
            patient_of[owner] = free_patients.pop()
            pid = patient_of[owner]
            patients[pid] = {"patient_id": pid, "name": names.pop()}
        pid = patient_of[owner]
        day = start.replace(hour=0, minute=0)
        low = max(start - QUARTER * rng.randint(0, 6), day + timedelta(hours=7))
        high = min(end + QUARTER * rng.randint(0, 6), day + timedelta(hours=19))
        windows.append((pid, _stamp(low), _stamp(high)))
        if rng.random() < 0.3:
            other = datetime.fromisoformat(rng.choice(DAYS))
            if other.date() != start.date():
                hours = rng.choice([(8, 12), (9, 13), (12, 16), (13, 17)])
                windows.append((pid, _stamp(other + timedelta(hours=hours[0])),
                                _stamp(other + timedelta(hours=hours[1]))))  # fmt: skip
        row = {"appointment_id": free_ids.pop(), "patient_id": pid, "type": kind,
               "provider_id": provider, "room_id": room, "priority": rng.choices(
                   [1, 2, 3, 4, 5], [30, 35, 25, 7, 3])[0], "locked": rng.random() < 0.1}  # fmt: skip
        rows.append(_messy(rng, row, start))
    rng.shuffle(rows)
    return {
        "appointments": rows,
        "patients": [patients[p] for p in sorted(patients)],
        "windows": [
            {"patient_id": p, "start": low, "end": high} for p, low, high in sorted(set(windows))
        ],
    }


EXPORT_HEADER = ["appointment_id", "patient_id", "type", "provider_id", "room_id", "start",
                 "priority", "locked"]  # fmt: skip


def reference_tables(ctx: benchlib.SeedContext) -> None:
    """inputs/sites.csv, travel.csv, rooms.csv, appointment_types.csv, providers.csv and
    provider_availability.csv."""
    ctx.write_csv("inputs/sites.csv", ["site_id", "name"],
                  [{"site_id": s, "name": n} for s, n in SITES])  # fmt: skip
    ctx.write_csv("inputs/travel.csv", ["from_site", "to_site", "minutes"],
                  [{"from_site": a, "to_site": b, "minutes": m} for a, b, m in TRAVEL])  # fmt: skip
    ctx.write_csv("inputs/rooms.csv", ["room_id", "site_id", "equipment"],
                  [{"room_id": r, "site_id": s, "equipment": e} for r, s, e in ROOMS])  # fmt: skip
    ctx.write_csv(
        "inputs/appointment_types.csv", ["type", "name", "duration_minutes", "equipment"],
        [{"type": t, "name": n, "duration_minutes": d, "equipment": e} for t, n, d, e in TYPES],
    )
    ctx.write_csv("inputs/providers.csv", ["provider_id", "name", "types"],
                  [{"provider_id": p, "name": n, "types": t} for p, n, t in PROVIDERS])  # fmt: skip
    ctx.write_csv(
        "inputs/provider_availability.csv", ["provider_id", "site_id", "start", "end"],
        [{"provider_id": p, "site_id": s, "start": f"{d}T{a}", "end": f"{d}T{b}"}
         for p, s, d, a, b in AVAILABILITY],
    )  # fmt: skip


def schedule(ctx: benchlib.SeedContext) -> None:
    """inputs/appointments.csv (the export), inputs/patients.csv, inputs/patient_windows.csv."""
    data = world(ctx)
    ctx.write_csv("inputs/appointments.csv", EXPORT_HEADER, data["appointments"])
    ctx.write_csv("inputs/patients.csv", ["patient_id", "name"], data["patients"])
    ctx.write_csv("inputs/patient_windows.csv", ["patient_id", "start", "end"], data["windows"])


URGENT_HEADER = ["request_id", "patient_id", "patient_name", "type", "site_id", "priority",
                 "earliest", "latest"]  # fmt: skip


def urgent_requests(ctx: benchlib.SeedContext) -> None:
    """inputs/urgent_requests.csv (stage urgent), by request_id."""
    rows = sorted(_anchor_rows(ctx, "urgent"), key=lambda r: r["request_id"])
    ctx.write_csv(ctx.path, URGENT_HEADER, [{k: r[k] for k in URGENT_HEADER} for r in rows])
