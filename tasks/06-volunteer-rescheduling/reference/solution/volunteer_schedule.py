"""Reference solution of task 06 (all three stages), standard library only.

Usage: python -m solution.volunteer_schedule inputs --output output

The exact optimum is found per group of shifts that share no eligible volunteer: each group
is searched exhaustively (backtracking, pruned on filled seats), and the groups are then
combined. Filled seats, coverage, changed assignments, preference and the number of
volunteers outside a fixed fairness band add up over groups, so each group keeps its best
options for them; the assignment-count spread and the final lexical tie-break are settled
globally by trying every count range [low, high].
"""

from __future__ import annotations

import argparse
import csv
import json
from datetime import datetime
from itertools import combinations
from pathlib import Path

TRAVEL_GAP = 30


def read_csv(path: Path) -> list[dict[str, str]]:
    with open(path, newline="", encoding="utf-8") as stream:
        return list(csv.DictReader(stream))


def to_minutes(text: str) -> int:
    moment = datetime.fromisoformat(text)
    return moment.toordinal() * 24 * 60 + moment.hour * 60 + moment.minute


def split_list(text: str) -> set[str]:
    return {part.strip() for part in text.split(";") if part.strip()}


class Event:
    """Volunteers, shifts and availability of one weekend, plus the legality rules."""

    def __init__(self, folder: Path) -> None:
        self.volunteers: dict[str, dict] = {}
        for row in read_csv(folder / "volunteers.csv"):
            self.volunteers[row["volunteer_id"]] = {
                "skills": split_list(row["skills"]),
                "preferred": split_list(row["preferred_locations"]),
                "max": int(row["max_shifts"]),
            }
        self.shifts: dict[str, dict] = {}
        for row in read_csv(folder / "shifts.csv"):
            self.shifts[row["shift_id"]] = {
                "location": row["location"],
                "start": to_minutes(row["start"]),
                "end": to_minutes(row["end"]),
                "seats": int(row["seats"]),
                "skill": row["required_skill"],
            }
        self.windows: dict[str, list[tuple[int, int]]] = {v: [] for v in self.volunteers}
        for row in read_csv(folder / "availability.csv"):
            self.windows.setdefault(row["volunteer_id"], []).append(
                (to_minutes(row["start"]), to_minutes(row["end"]))
            )

    def eligible(self, volunteer: str, shift_id: str) -> bool:
        shift = self.shifts[shift_id]
        if shift["skill"] not in self.volunteers[volunteer]["skills"]:
            return False
        return any(a <= shift["start"] and shift["end"] <= b for a, b in self.windows[volunteer])

    def compatible(self, first: str, second: str) -> bool:
        one, two = self.shifts[first], self.shifts[second]
        gap = 0 if one["location"] == two["location"] else TRAVEL_GAP
        return one["end"] + gap <= two["start"] or two["end"] + gap <= one["start"]

    def likes(self, shift_id: str, volunteer: str) -> int:
        return int(self.shifts[shift_id]["location"] in self.volunteers[volunteer]["preferred"])


def changed_between(before: set[tuple[str, str]], after: set[tuple[str, str]]) -> int:
    total = 0
    for shift in {s for s, _ in before | after}:
        old = {v for s, v in before if s == shift}
        new = {v for s, v in after if s == shift}
        total += max(len(old - new), len(new - old))
    return total


def best_band(counts: dict[str, int], members: list[str], width: int) -> tuple[int, int]:
    """(members inside, lowest m) of the band [m, m + width] holding most members."""
    top = max(counts[v] for v in members)
    inside = [(sum(m <= counts[v] <= m + width for v in members), -m) for m in range(top + 1)]
    best = max(inside)
    return best[0], -best[1]


class Planner:
    def __init__(self, event: Event, absent: set[str], fairness: dict | None, baseline) -> None:
        self.event = event
        self.absent = absent
        self.baseline = set(baseline) if baseline is not None else None
        self.candidates = {
            s: sorted(v for v in event.volunteers if v not in absent and event.eligible(v, s))
            for s in event.shifts
        }
        self.members: set[str] = set()
        self.width = 0
        if fairness is not None:
            need = int(fairness["min_eligible_shifts"])
            self.width = int(fairness["max_count_difference"])
            for v in event.volunteers:
                if v in absent:
                    continue
                if sum(event.eligible(v, s) for s in event.shifts) >= need:
                    self.members.add(v)

    def groups(self) -> list[tuple[list[str], list[str]]]:
        """Connected groups of shifts and volunteers (breadth-first over eligibility)."""
        seen: set[str] = set()
        result = []
        for start in sorted(self.event.shifts):
            if start in seen:
                continue
            queue, shifts, people = [start], [], set()
            seen.add(start)
            while queue:
                shift = queue.pop()
                shifts.append(shift)
                for volunteer in self.candidates[shift]:
                    if volunteer in people:
                        continue
                    people.add(volunteer)
                    for other in sorted(self.event.shifts):
                        if other not in seen and volunteer in self.candidates[other]:
                            seen.add(other)
                            queue.append(other)
            result.append(
                (sorted(shifts, key=lambda s: self.event.shifts[s]["start"]), sorted(people))
            )
        return result

    def search(self, shifts: list[str]) -> list[list[tuple[str, str]]]:
        """All legal assignments of a group that fill as many seats as possible."""
        event = self.event
        remaining = [0] * (len(shifts) + 1)
        for index in range(len(shifts) - 1, -1, -1):
            shift = shifts[index]
            remaining[index] = remaining[index + 1] + min(
                event.shifts[shift]["seats"], len(self.candidates[shift])
            )
        best = {"seats": -1, "found": []}
        load: dict[str, list[str]] = {}
        current: list[tuple[str, str]] = []

        def step(index: int) -> None:
            if len(current) + remaining[index] < best["seats"]:
                return
            if index == len(shifts):
                if len(current) > best["seats"]:
                    best["seats"], best["found"] = len(current), []
                best["found"].append(list(current))
                return
            shift = shifts[index]
            free = [
                v
                for v in self.candidates[shift]
                if len(load.get(v, [])) < event.volunteers[v]["max"]
                and all(event.compatible(shift, other) for other in load.get(v, []))
            ]
            for size in range(min(len(free), event.shifts[shift]["seats"]), -1, -1):
                for team in combinations(free, size):
                    for volunteer in team:
                        load.setdefault(volunteer, []).append(shift)
                        current.append((shift, volunteer))
                    step(index + 1)
                    for volunteer in team:
                        load[volunteer].pop()
                        current.pop()

        step(0)
        return best["found"]

    def plan(self) -> list[tuple[str, str]]:
        event = self.event
        parts = []  # per group: list of (coverage, preference, changed, pairs, counts)
        for shifts, people in self.groups():
            options = []
            for found in self.search(shifts):
                pairs = sorted(found)
                counts = dict.fromkeys(people, 0)
                for _, volunteer in pairs:
                    counts[volunteer] += 1
                changed = 0
                if self.baseline is not None:
                    before = {p for p in self.baseline if p[0] in shifts}
                    changed = changed_between(before, set(pairs))
                coverage = len({s for s, _ in pairs})
                preference = sum(event.likes(s, v) for s, v in pairs)
                options.append((coverage, preference, changed, pairs, counts))
            top_coverage = max(o[0] for o in options)
            parts.append([o for o in options if o[0] == top_coverage])
        placed = {v for part in parts for v in part[0][4]}
        nobody = {v: 0 for v in event.volunteers if v not in placed}
        parts.append([(0, 0, 0, [], nobody)])

        ceiling = max(info["max"] for info in event.volunteers.values())
        bands = list(range(ceiling + 1)) if self.members else [None]
        winner = None
        for band in bands:

            def local(option, band=band):
                outside = 0
                if band is not None:
                    for volunteer, count in option[4].items():
                        if volunteer in self.members and not band <= count <= band + self.width:
                            outside += 1
                return (-outside, -option[2], option[1])

            kept = []
            total = [0, 0, 0]
            for part in parts:
                best_key = max(local(o) for o in part)
                kept.append([o for o in part if local(o) == best_key])
                total = [a + b for a, b in zip(total, best_key, strict=True)]
            for low in range(ceiling + 1):
                for high in range(low, ceiling + 1):
                    choice = []
                    for part in kept:
                        fitting = [
                            o[3] for o in part if all(low <= c <= high for c in o[4].values())
                        ]
                        if not fitting:
                            break
                        choice.append(min(fitting))
                    else:
                        schedule = sorted(pair for pairs in choice for pair in pairs)
                        rank = (tuple(total), low - high)
                        if (
                            winner is None
                            or rank > winner[0]
                            or (rank == winner[0] and schedule < winner[1])
                        ):
                            winner = (rank, schedule)
                        break
        return winner[1]


def write_outputs(event: Event, schedule, baseline, members, width, out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    with open(out / "schedule.csv", "w", newline="", encoding="utf-8") as stream:
        writer = csv.writer(stream, lineterminator="\n")
        writer.writerow(["shift_id", "volunteer_id"])
        writer.writerows(sorted(schedule))
    assigned = dict.fromkeys(event.shifts, 0)
    counts = dict.fromkeys(event.volunteers, 0)
    for shift, volunteer in schedule:
        assigned[shift] += 1
        counts[volunteer] += 1
    with open(out / "unfilled.csv", "w", newline="", encoding="utf-8") as stream:
        writer = csv.writer(stream, lineterminator="\n")
        writer.writerow(["shift_id", "required_skill", "seats", "assigned", "unfilled"])
        for shift in sorted(event.shifts):
            seats = event.shifts[shift]["seats"]
            if assigned[shift] < seats:
                skill = event.shifts[shift]["skill"]
                writer.writerow([shift, skill, seats, assigned[shift], seats - assigned[shift]])
    exceptions = []
    group = sorted(members)
    if group:
        _, low = best_band(counts, group, width)
        exceptions = [
            {"volunteer_id": v, "assignments": counts[v]}
            for v in group
            if not low <= counts[v] <= low + width
        ]
    summary = {
        "filled_seats": len(schedule),
        "required_skill_coverage": len({s for s, _ in schedule}),
        "preference_score": sum(event.likes(s, v) for s, v in schedule),
        "assignment_count_spread": max(counts.values()) - min(counts.values()),
        "changed_assignments": changed_between(set(baseline), set(schedule)),
        "fairness_exceptions": exceptions,
    }
    (out / "summary.json").write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description="Schedule volunteers onto shifts.")
    parser.add_argument("inputs", type=Path)
    parser.add_argument("--output", type=Path, required=True)
    args = parser.parse_args()
    event = Event(args.inputs)
    baseline = Planner(event, set(), None, None).plan()
    absent: set[str] = set()
    callout_path = args.inputs / "callout.json"
    if callout_path.is_file():
        callout = json.loads(callout_path.read_text(encoding="utf-8"))
        absent = {entry["volunteer_id"] for entry in callout["unavailable"]}
    fairness = None
    fairness_path = args.inputs / "fairness.json"
    if fairness_path.is_file():
        fairness = json.loads(fairness_path.read_text(encoding="utf-8"))
    if absent or fairness is not None:
        planner = Planner(event, absent, fairness, baseline)
        schedule = planner.plan()
        members, width = planner.members, planner.width
    else:
        schedule, members, width = baseline, set(), 0
    write_outputs(event, schedule, baseline, members, width, args.output)


if __name__ == "__main__":
    main()
