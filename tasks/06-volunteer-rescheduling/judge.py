# generated from task.toml by benchsmith -- edit only the authored region
"""Judge of task 6: Volunteer Shift Rescheduling.

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
    "id": 6,
    "slug": "volunteer-rescheduling",
    "stages": ["initial", "callout", "fairness"],
    "editable": ["solution/", "output/"],
    "commands": [
        {
            "run": "python -m solution.volunteer_schedule inputs --output output",
            "argv": ["python", "-m", "solution.volunteer_schedule", "inputs", "--output", "output"],
            "cwd": ".",
            "stdin": None,
            "stage": "initial",
            "timeout": 30.0,
        }
    ],
    "outputs": [
        {
            "path": "output/schedule.csv",
            "format": "csv",
            "header": ["shift_id", "volunteer_id"],
            "stage": "initial",
        },
        {
            "path": "output/unfilled.csv",
            "format": "csv",
            "header": ["shift_id", "required_skill", "seats", "assigned", "unfilled"],
            "stage": "initial",
        },
        {"path": "output/summary.json", "format": "json", "header": [], "stage": "initial"},
    ],
    "expect": [
        {
            "name": "travel-gap#1",
            "file": "output/schedule.csv",
            "level": 4,
            "where": {"shift_id": "S09"},
            "equals": {"volunteer_id": "V11"},
        },
        {
            "name": "sole-driver#1",
            "file": "output/summary.json",
            "level": 4,
            "stage": "fairness",
            "path": "fairness_exceptions",
            "equals": [
                {"volunteer_id": "V16", "assignments": 3},
                {"volunteer_id": "V37", "assignments": 3},
            ],
        },
        {
            "name": "callout-swap#1",
            "file": "output/schedule.csv",
            "level": 4,
            "stage": "callout",
            "where": {"shift_id": "S06"},
            "equals": {"volunteer_id": "V14"},
        },
        {
            "name": "spread-tie#1",
            "file": "output/schedule.csv",
            "level": 4,
            "where": {"shift_id": "S35"},
            "equals": {"volunteer_id": "V09"},
        },
        {
            "name": "callout-chain#1",
            "file": "output/schedule.csv",
            "level": 4,
            "stage": "callout",
            "where": {"shift_id": "S24"},
            "equals": {"volunteer_id": "V12"},
        },
        {
            "name": "callout-chain#2",
            "file": "output/schedule.csv",
            "level": 4,
            "stage": "callout",
            "where": {"shift_id": "S30"},
            "equals": {"volunteer_id": "V22"},
        },
        {
            "name": "callout-unfilled#1",
            "file": "output/unfilled.csv",
            "level": 4,
            "stage": "callout",
            "where": {"shift_id": "S37"},
            "equals": {"assigned": "0", "unfilled": "1"},
        },
        {
            "name": "callout-unfilled#2",
            "file": "output/summary.json",
            "level": 4,
            "stage": "fairness",
            "path": "changed_assignments",
            "equals": 11,
        },
        {
            "name": "coverage-first#1",
            "file": "output/schedule.csv",
            "level": 4,
            "where": {"shift_id": "S08"},
            "equals": {"volunteer_id": "V19"},
        },
        {
            "name": "gap-29#1",
            "file": "output/schedule.csv",
            "level": 4,
            "where": {"shift_id": "S40"},
            "equals": {"volunteer_id": "V26"},
        },
        {
            "name": "gap-30-across-hour#1",
            "file": "output/schedule.csv",
            "level": 4,
            "where": {"shift_id": "S42"},
            "equals": {"volunteer_id": "V27"},
        },
        {
            "name": "one-minute-overlap#1",
            "file": "output/schedule.csv",
            "level": 4,
            "where": {"shift_id": "S45"},
            "equals": {"volunteer_id": "V30"},
        },
        {
            "name": "midnight-short-gap#1",
            "file": "output/schedule.csv",
            "level": 4,
            "where": {"shift_id": "S47"},
            "equals": {"volunteer_id": "V32"},
        },
        {
            "name": "midnight-exact-gap#1",
            "file": "output/schedule.csv",
            "level": 4,
            "where": {"shift_id": "S49"},
            "equals": {"volunteer_id": "V33"},
        },
        {
            "name": "ids-against-time#1",
            "file": "output/schedule.csv",
            "level": 4,
            "where": {"shift_id": "S51"},
            "equals": {"volunteer_id": "V35"},
        },
        {
            "name": "second-exception#1",
            "file": "output/schedule.csv",
            "level": 4,
            "where": {"volunteer_id": "V37"},
            "count": 3,
        },
        {
            "name": "callout-frees-time#1",
            "file": "output/schedule.csv",
            "level": 4,
            "stage": "callout",
            "where": {"shift_id": "S58"},
            "equals": {"volunteer_id": "V38"},
        },
        {
            "name": "fairness-threshold#1",
            "file": "output/schedule.csv",
            "level": 4,
            "where": {"volunteer_id": "V39"},
            "absent": True,
        },
        {
            "name": "spread-cap#1",
            "file": "output/schedule.csv",
            "level": 4,
            "stage": "fairness",
            "where": {"shift_id": "S63"},
            "equals": {"volunteer_id": "V42"},
        },
        {
            "name": "band-floor#1",
            "file": "output/schedule.csv",
            "level": 4,
            "where": {"shift_id": "S65"},
            "equals": {"volunteer_id": "V43"},
        },
    ],
    "edge_expect": [
        {
            "name": "edge#1",
            "file": "output/unfilled.csv",
            "level": 4,
            "stage": "callout",
            "where": {"shift_id": "S02"},
            "equals": {
                "required_skill": "forklift",
                "seats": "1",
                "assigned": "0",
                "unfilled": "1",
            },
        },
        {
            "name": "edge#2",
            "file": "output/schedule.csv",
            "level": 4,
            "stage": "callout",
            "where": {"shift_id": "S02"},
            "absent": True,
        },
    ],
    "edge_include_visible": True,
    "services": [],
}

judge = benchlib.Judge(TASK)

# region authored: benchsmith keeps these lines when it rebuilds judge.py
import itertools
from datetime import datetime
from typing import NamedTuple

GAP = 30  # minutes a volunteer needs between shifts at different locations
SUMMARY_KEYS = {
    "filled_seats",
    "required_skill_coverage",
    "preference_score",
    "assignment_count_spread",
    "changed_assignments",
    "fairness_exceptions",
}


def minutes(text: str) -> int:
    moment = datetime.fromisoformat(text)
    return moment.toordinal() * 1440 + moment.hour * 60 + moment.minute


class Roster:
    """The pristine inputs of one fixture and the rules of a legal schedule (TASK.md)."""

    def __init__(self, source: benchlib.Files) -> None:
        self.volunteers = {r["volunteer_id"]: r for r in source.csv("inputs/volunteers.csv")}
        self.shifts = {r["shift_id"]: r for r in source.csv("inputs/shifts.csv")}
        self.windows: dict[str, list[tuple[int, int]]] = {}
        for row in source.csv("inputs/availability.csv"):
            window = (minutes(row["start"]), minutes(row["end"]))
            self.windows.setdefault(row["volunteer_id"], []).append(window)
        self.callout: set[str] = set()
        if source.exists("inputs/callout.json"):
            self.callout = {
                e["volunteer_id"] for e in source.json("inputs/callout.json")["unavailable"]
            }
        self.fairness = None
        if source.exists("inputs/fairness.json"):
            self.fairness = source.json("inputs/fairness.json")

    def span(self, shift: str) -> tuple[int, int]:
        return minutes(self.shifts[shift]["start"]), minutes(self.shifts[shift]["end"])

    def seats(self, shift: str) -> int:
        return int(self.shifts[shift]["seats"])

    def eligible(self, volunteer: str, shift: str) -> bool:
        """Required skill plus one availability row containing the whole shift."""
        skills = self.volunteers[volunteer]["skills"].split(";")
        start, end = self.span(shift)
        windows = self.windows.get(volunteer, [])
        return self.shifts[shift]["required_skill"] in skills and any(
            low <= start and end <= high for low, high in windows
        )

    def clash(self, one: str, other: str) -> bool:
        """Overlap, or less than GAP minutes between shifts at different locations."""
        (a, b), (c, d) = self.span(one), self.span(other)
        same_place = self.shifts[one]["location"] == self.shifts[other]["location"]
        gap = 0 if same_place else GAP
        return not (b + gap <= c or d + gap <= a)

    def preferred(self, shift: str, volunteer: str) -> bool:
        places = self.volunteers[volunteer]["preferred_locations"].split(";")
        return self.shifts[shift]["location"] in places

    def group(self) -> set[str]:
        """Volunteers the fairness rule applies to (empty without fairness.json)."""
        if self.fairness is None:
            return set()
        need = int(self.fairness["min_eligible_shifts"])
        return {
            v
            for v in self.volunteers
            if v not in self.callout and sum(self.eligible(v, s) for s in self.shifts) >= need
        }


def counts_of(roster: Roster, pairs) -> dict[str, int]:
    counts = dict.fromkeys(roster.volunteers, 0)
    for _, volunteer in pairs:
        counts[volunteer] += 1
    return counts


def changes(baseline, pairs) -> int:
    """Sum over shifts of max(baseline volunteers dropped, volunteers added)."""
    old, new = {}, {}
    for shift, volunteer in baseline:
        old.setdefault(shift, set()).add(volunteer)
    for shift, volunteer in pairs:
        new.setdefault(shift, set()).add(volunteer)
    return sum(
        max(len(old.get(s, set()) - new.get(s, set())), len(new.get(s, set()) - old.get(s, set())))
        for s in set(old) | set(new)
    )


def outside_band(roster: Roster, counts: dict[str, int]) -> list[str]:
    """The fairness exceptions of a schedule: group members outside the fullest band."""
    group = sorted(roster.group())
    if not group:
        return []
    width = int(roster.fairness["max_count_difference"])
    bands = range(max(counts.values()) + 1)
    low = max(bands, key=lambda m: (sum(m <= counts[v] <= m + width for v in group), -m))
    return [v for v in group if not low <= counts[v] <= low + width]


def components(roster: Roster, eligible: dict[str, list[str]]) -> list[list[str]]:
    """Shift groups that share no eligible volunteer (independent subproblems)."""
    owner = {s: s for s in roster.shifts}

    def root(s: str) -> str:
        while owner[s] != s:
            s = owner[s]
        return s

    first: dict[str, str] = {}
    for shift in sorted(roster.shifts):
        for volunteer in eligible[shift]:
            owner[root(shift)] = root(first.setdefault(volunteer, shift))
    groups: dict[str, list[str]] = {}
    for shift in sorted(roster.shifts):
        groups.setdefault(root(shift), []).append(shift)
    return list(groups.values())


def component_options(roster: Roster, shifts: list[str], eligible) -> list[tuple]:
    """Every legal assignment of one shift group that reaches its maximum filled seats."""
    room = [0] * (len(shifts) + 1)
    for i in range(len(shifts) - 1, -1, -1):
        room[i] = room[i + 1] + min(roster.seats(shifts[i]), len(eligible[shifts[i]]))
    best, found, taken, chosen = [0], [], {}, []

    def walk(i: int, filled: int, keep: bool) -> None:
        if filled + room[i] < best[0]:
            return
        if i == len(shifts):
            best[0] = max(best[0], filled)
            if keep:
                found.append(tuple(chosen))
            return
        shift = shifts[i]
        for size in range(min(roster.seats(shift), len(eligible[shift])), -1, -1):
            for crew in itertools.combinations(eligible[shift], size):
                if all(
                    len(taken.get(v, [])) < int(roster.volunteers[v]["max_shifts"])
                    and not any(roster.clash(shift, t) for t in taken.get(v, []))
                    for v in crew
                ):
                    for v in crew:
                        taken.setdefault(v, []).append(shift)
                        chosen.append((shift, v))
                    walk(i + 1, filled + size, keep)
                    for v in crew:
                        taken[v].pop()
                        chosen.pop()

    walk(0, 0, False)
    walk(0, 0, True)
    return found


class Option(NamedTuple):
    """One legal assignment of a shift group, with its additive criteria."""

    filled: int
    coverage: int
    preference: int
    changed: int
    pairs: tuple
    counts: dict


def best_schedule(roster: Roster, staged: bool) -> tuple:
    """The unique optimum: stage-1 rules only, or with callout, fairness and changes."""
    baseline = best_schedule(roster, False) if staged else ()
    active = [v for v in sorted(roster.volunteers) if not (staged and v in roster.callout)]
    group = roster.group() if staged else set()
    width = int(roster.fairness["max_count_difference"]) if group else 0
    eligible = {s: [v for v in active if roster.eligible(v, s)] for s in roster.shifts}
    options = []  # per shift group: its options at the best (filled seats, coverage)
    for shifts in components(roster, eligible):
        crew = sorted({v for s in shifts for v in eligible[s]})
        kept = [p for p in baseline if p[0] in shifts]
        rows = [
            Option(len(pairs), len({s for s, _ in pairs}),
                   sum(roster.preferred(s, v) for s, v in pairs),
                   changes(kept, pairs) if staged else 0,
                   tuple(sorted(pairs)), {v: sum(w == v for _, w in pairs) for v in crew})
            for pairs in component_options(roster, shifts, eligible)
        ]  # fmt: skip
        top = max((r.filled, r.coverage) for r in rows)
        options.append([r for r in rows if (r.filled, r.coverage) == top])
    busy = {v for rows in options for v in rows[0].counts}
    idle = {v: 0 for v in roster.volunteers if v not in busy}
    options.append([Option(0, 0, 0, 0, (), idle)])
    most = max(int(r["max_shifts"]) for r in roster.volunteers.values())
    best = None
    for band in range(most + 1) if group else [0]:

        def key(row: Option, band: int = band) -> tuple[int, int, int]:
            outside = sum(
                not band <= c <= band + width for v, c in row.counts.items() if v in group
            )
            return (-outside, -row.changed, row.preference)

        picked = [[r for r in rows if key(r) == max(map(key, rows))] for rows in options]
        score = tuple(sum(key(rows[0])[i] for rows in picked) for i in range(3))
        for low in range(most + 1):
            for high in range(low, most + 1):
                fits = [[r.pairs for r in rows if all(low <= c <= high for c in r.counts.values())]
                        for rows in picked]  # fmt: skip
                if all(fits):
                    schedule = tuple(sorted(p for pairs in fits for p in min(pairs)))
                    rank = (score, low - high)
                    if best is None or rank > best[0] or (rank == best[0] and schedule < best[1]):
                        best = (rank, schedule)
                    break
    return best[1]


_EXPECTED: dict[str, tuple] = {}


def expected(run: benchlib.Run) -> tuple[Roster, tuple, tuple]:
    """(roster, judge's baseline, judge's final optimum) of the run's pristine fixture."""
    key = str(run.source.root)
    if key not in _EXPECTED:
        roster = Roster(run.source)
        _EXPECTED[key] = (roster, best_schedule(roster, False), best_schedule(roster, True))
    return _EXPECTED[key]


def written(run: benchlib.Run) -> list[tuple[str, str]]:
    """The candidate's assignments, as (shift_id, volunteer_id) in file order."""
    return [(r["shift_id"], r["volunteer_id"]) for r in run.csv("output/schedule.csv")]


def measures(roster: Roster, baseline, pairs) -> dict[str, object]:
    """Every summary.json value of a schedule, computed from its assignments."""
    counts = counts_of(roster, pairs)
    return {
        "filled_seats": len(pairs),
        "required_skill_coverage": len({s for s, _ in pairs}),
        "preference_score": sum(roster.preferred(s, v) for s, v in pairs),
        "assignment_count_spread": max(counts.values()) - min(counts.values()),
        "changed_assignments": changes(baseline, pairs),
        "fairness_exceptions": [
            {"volunteer_id": v, "assignments": counts[v]} for v in outside_band(roster, counts)
        ],
    }


@judge.check(level=3)
def schedule_is_legal(run: benchlib.Run) -> None:
    roster = expected(run)[0]
    pairs = written(run)
    benchlib.expect(len(set(pairs)) == len(pairs), "schedule.csv repeats an assignment")
    for shift, volunteer in pairs:
        benchlib.expect(shift in roster.shifts, f"unknown shift_id {shift!r}")
        benchlib.expect(volunteer in roster.volunteers, f"unknown volunteer_id {volunteer!r}")
        benchlib.expect(
            roster.eligible(volunteer, shift), f"{volunteer} is not eligible for {shift}"
        )
    by_shift: dict[str, int] = {}
    by_volunteer: dict[str, list[str]] = {}
    for shift, volunteer in pairs:
        by_shift[shift] = by_shift.get(shift, 0) + 1
        by_volunteer.setdefault(volunteer, []).append(shift)
    for shift, taken in sorted(by_shift.items()):
        benchlib.expect(taken <= roster.seats(shift), f"{shift} gets {taken} volunteers")
    for volunteer, shifts in sorted(by_volunteer.items()):
        limit = int(roster.volunteers[volunteer]["max_shifts"])
        benchlib.expect(len(shifts) <= limit, f"{volunteer} works {len(shifts)} > {limit} shifts")
        for one, other in itertools.combinations(shifts, 2):
            benchlib.expect(not roster.clash(one, other), f"{volunteer}: {one} and {other} clash")


@judge.check(level=4)
def schedule_rows_sorted(run: benchlib.Run) -> None:
    pairs = written(run)
    benchlib.expect_equal(pairs, sorted(pairs), "schedule.csv order (shift_id, then volunteer_id)")


@judge.check(level=3)
def filled_seats_optimal(run: benchlib.Run) -> None:
    benchlib.expect_equal(len(written(run)), len(expected(run)[2]), "filled seats")


@judge.check(level=4, stage="callout")
def callout_volunteers_absent(run: benchlib.Run) -> None:
    roster = expected(run)[0]
    present = sorted({v for _, v in written(run) if v in roster.callout})
    benchlib.expect_equal(present, [], "called-out volunteers still assigned")


@judge.check(level=4)
def coverage_optimal(run: benchlib.Run) -> None:
    got = len({s for s, _ in written(run)})
    benchlib.expect_equal(got, len({s for s, _ in expected(run)[2]}), "required-skill coverage")


@judge.check(level=4, stage="fairness")
def fairness_rule_or_justified_exception(run: benchlib.Run) -> None:
    roster, _, best = expected(run)
    pairs = written(run)
    got = outside_band(roster, counts_of(roster, pairs))
    want = outside_band(roster, counts_of(roster, best))
    benchlib.expect_equal(len(got), len(want), "volunteers outside the fairness band")


@judge.check(level=4, stage="callout")
def changed_assignments_minimal(run: benchlib.Run) -> None:
    _, baseline, best = expected(run)
    got = changes(baseline, written(run))
    benchlib.expect_equal(got, changes(baseline, best), "changed assignments against the baseline")


@judge.check(level=4)
def preference_and_spread_optimal(run: benchlib.Run) -> None:
    roster, baseline, best = expected(run)
    got, want = measures(roster, baseline, written(run)), measures(roster, baseline, best)
    for key in ("preference_score", "assignment_count_spread"):
        benchlib.expect_equal(got[key], want[key], key)


@judge.check(level=4)
def lexical_tie_break(run: benchlib.Run) -> None:
    benchlib.expect_equal(sorted(written(run)), list(expected(run)[2]), "schedule")


@judge.check(level=4)
def unfilled_matches_schedule(run: benchlib.Run) -> None:
    roster = expected(run)[0]
    taken: dict[str, int] = {}
    for shift, _ in written(run):
        taken[shift] = taken.get(shift, 0) + 1
    want = [
        {"shift_id": s, "required_skill": roster.shifts[s]["required_skill"],
         "seats": str(roster.seats(s)), "assigned": str(taken.get(s, 0)),
         "unfilled": str(roster.seats(s) - taken.get(s, 0))}
        for s in sorted(roster.shifts) if taken.get(s, 0) < roster.seats(s)
    ]  # fmt: skip
    benchlib.expect_equal(run.csv("output/unfilled.csv"), want, "unfilled.csv")


@judge.check(level=4)
def summary_matches_schedule(run: benchlib.Run) -> None:
    roster, baseline, _ = expected(run)
    summary = run.json("output/summary.json")
    benchlib.expect(isinstance(summary, dict), "summary.json is not an object")
    benchlib.expect_equal(sorted(summary), sorted(SUMMARY_KEYS), "summary.json keys")
    for key, value in measures(roster, baseline, written(run)).items():
        benchlib.expect_equal(summary[key], value, f"summary.json {key}")
    counts = [summary[k] for k in sorted(SUMMARY_KEYS - {"fairness_exceptions"})]
    counts += [e.get("assignments") for e in summary["fairness_exceptions"]]
    for value in counts:  # 3.0 and Decimal("3.0") equal 3: the type is the rule
        benchlib.expect(type(value) is int, f"summary.json: {value!r} is not a plain integer")


@judge.edge
def only_qualified_volunteers(run: benchlib.Run) -> None:
    roster = Roster(run.source)
    for shift, volunteer in written(run):
        benchlib.expect(
            shift in roster.shifts and volunteer in roster.volunteers,
            f"unknown {shift}/{volunteer}",
        )
        benchlib.expect(
            roster.eligible(volunteer, shift), f"{volunteer} is not eligible for {shift}"
        )


@judge.edge(stage="callout")
def no_called_out_volunteer(run: benchlib.Run) -> None:
    """The edge fixture holds callout.json at every stage: it applies from stage callout."""
    roster = Roster(run.source)
    for _, volunteer in written(run):
        benchlib.expect(volunteer not in roster.callout, f"{volunteer} is called out")


# endregion authored

if __name__ == "__main__":
    sys.exit(judge.main())
