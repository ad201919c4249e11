# generated from task.toml by benchsmith -- edit only the authored region
"""Judge of task 8: Travel Itinerary Repair.

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
    "id": 8,
    "slug": "itinerary-repair",
    "stages": ["initial", "rebook"],
    "editable": ["solution/", "output/"],
    "commands": [
        {
            "run": "python -m solution.itinerary_check inputs --output output",
            "argv": ["python", "-m", "solution.itinerary_check", "inputs", "--output", "output"],
            "cwd": ".",
            "stdin": None,
            "stage": "initial",
            "timeout": 20.0,
        }
    ],
    "outputs": [
        {
            "path": "output/timeline.csv",
            "format": "csv",
            "header": [
                "segment_id",
                "type",
                "name",
                "start_local",
                "end_local",
                "start_utc",
                "end_utc",
            ],
            "stage": "initial",
        },
        {"path": "output/issues.json", "format": "json", "header": [], "stage": "initial"},
        {
            "path": "output/rebook.csv",
            "format": "csv",
            "header": ["original_segment_id", "alternative_id"],
            "stage": "rebook",
        },
    ],
    "expect": [],
    "edge_expect": [],
    "edge_include_visible": True,
    "services": [],
}

judge = benchlib.Judge(TASK)

# region authored: benchsmith keeps these lines when it rebuilds judge.py
import datetime as dt
import itertools
from decimal import Decimal
from zoneinfo import ZoneInfo

TIMELINE = "output/timeline.csv"
ISSUES = "output/issues.json"
REBOOK = "output/rebook.csv"
FIELDS = {
    "flight": ("depart", "arrive"),
    "train": ("depart", "arrive"),
    "hotel": ("check_in", "check_out"),
    "activity": ("start", "end"),
}
ISSUE_TYPES = {
    "overlap",
    "insufficient_connection",
    "airport_change",
    "duplicate_booking",
    "night_without_lodging",
}


class Model:
    """TASK.md's rules recomputed from the pristine inputs of one fixture."""

    def __init__(self, source: benchlib.Files) -> None:
        self.tz = {r["code"]: r["tz"] for r in source.csv("inputs/airports.csv")}
        self.rules = source.json("inputs/connection_rules.json")
        self.original = source.json("inputs/itinerary.json")["segments"]
        self.final = self.original
        self.rebook: list[dict[str, str]] | None = None
        self.touched: set[str] = set()
        if source.exists("inputs/updates.json"):
            self.replan(source)

    def moment(self, seg: dict, end: bool) -> dt.datetime:
        """The local (aware) start or end of a segment."""
        field = FIELDS[seg["type"]][end]
        if seg["type"] in ("flight", "train"):
            zone = self.tz[seg["to"] if end else seg["from"]]
        else:
            zone = seg["tz"]
        naive = dt.datetime.fromisoformat(seg[field])
        return naive.replace(tzinfo=ZoneInfo(zone))

    def span(self, seg: dict) -> tuple[dt.datetime, dt.datetime]:
        return self.moment(seg, False), self.moment(seg, True)

    def key(self, seg: dict) -> tuple:
        return (self.moment(seg, False).astimezone(dt.UTC), seg["segment_id"])

    def need(self, inbound: dict, outbound: dict) -> int:
        if inbound["type"] == outbound["type"] == "flight":
            if inbound["to"] != outbound["from"]:
                return self.rules["airport_change_minimum_minutes"]
            per_airport = self.rules["airport_minimum_connection_minutes"]
            if inbound["to"] in per_airport:
                return per_airport[inbound["to"]]
        return self.rules["minimum_connection_minutes"][inbound["type"]][outbound["type"]]

    def minutes(self, inbound: dict, outbound: dict) -> dt.timedelta:
        return self.moment(outbound, False) - self.moment(inbound, True)

    def enough(self, inbound: dict, outbound: dict) -> bool:
        return self.minutes(inbound, outbound) >= dt.timedelta(minutes=self.need(inbound, outbound))

    def connections(self, segments: list[dict]) -> list[tuple[dict, dict]]:
        moves = sorted((s for s in segments if s["type"] in ("flight", "train")), key=self.key)
        window = dt.timedelta(minutes=self.rules["connection_window_minutes"])
        return [
            (a, b)
            for a, b in itertools.pairwise(moves)
            if dt.timedelta(0) <= self.minutes(a, b) < window
        ]

    def replan(self, source: benchlib.Files) -> None:
        best: dict[str, dict] = {}
        for update in source.json("inputs/updates.json")["updates"]:
            sid = update["segment_id"]
            if sid not in best or update["revision"] > best[sid]["revision"]:
                best[sid] = update
        updated = []
        for seg in self.original:
            update = best.get(seg["segment_id"])
            if update is None:
                updated.append(seg)
            elif update["status"] == "revised":
                updated.append(dict(seg) | update["changes"])
        self.touched = set(best)
        by_id = {s["segment_id"]: s for s in updated}
        options = source.csv("inputs/alternatives.csv")
        self.rebook = []
        for inbound, outbound in self.connections(self.original):
            now_in, now_out = by_id.get(inbound["segment_id"]), by_id.get(outbound["segment_id"])
            if not self.enough(inbound, outbound) or now_in is None:
                continue
            if now_out is not None and self.enough(now_in, now_out):
                continue
            fits = [
                dict(a, segment_id=a["alternative_id"])
                for a in options
                if a["replaces"] == outbound["segment_id"]
            ]
            fits = [a for a in fits if self.enough(now_in, a)]
            fits.sort(
                key=lambda a: (
                    self.moment(a, True).astimezone(dt.UTC),
                    Decimal(a["price"]),
                    a["alternative_id"],
                )
            )
            chosen = fits[0]["alternative_id"] if fits else ""
            self.rebook.append(
                {"original_segment_id": outbound["segment_id"], "alternative_id": chosen}
            )
            self.touched.add(outbound["segment_id"])
            if fits:
                by_id.pop(outbound["segment_id"], None)
                by_id[chosen] = {
                    k: fits[0][k]
                    for k in ("segment_id", "type", "name", "from", "to", "depart", "arrive")
                }
        self.rebook.sort(key=lambda r: r["original_segment_id"])
        self.final = list(by_id.values())

    def timeline(self, segments: list[dict]) -> list[dict[str, str]]:
        rows = []
        for seg in sorted(segments, key=self.key):
            start, end = self.span(seg)
            rows.append(
                {
                    "segment_id": seg["segment_id"],
                    "type": seg["type"],
                    "name": seg["name"],
                    "start_local": start.strftime("%Y-%m-%dT%H:%M") + offset(start),
                    "end_local": end.strftime("%Y-%m-%dT%H:%M") + offset(end),
                    "start_utc": start.astimezone(dt.UTC).strftime("%Y-%m-%dT%H:%MZ"),
                    "end_utc": end.astimezone(dt.UTC).strftime("%Y-%m-%dT%H:%MZ"),
                }
            )
        return rows

    def issues(self, segments: list[dict]) -> list[dict]:
        found: list[dict] = []
        ordered = sorted(segments, key=self.key)
        for i, a in enumerate(ordered):
            for b in ordered[i + 1 :]:
                if {a["type"], b["type"]} == {"hotel", "activity"}:
                    continue
                (a0, a1), (b0, b1) = self.span(a), self.span(b)
                if a0 < b1 and b0 < a1:
                    twin = (a["type"], a["name"], a0) == (b["type"], b["name"], b0)
                    kind = "duplicate_booking" if twin else "overlap"
                    found.append(pair(kind, a, b))
        for a, b in self.connections(segments):
            if a["type"] == b["type"] == "flight" and a["to"] != b["from"]:
                found.append(pair("airport_change", a, b))
            if not self.enough(a, b):
                found.append(pair("insufficient_connection", a, b))
        first = min(segments, key=lambda s: self.moment(s, False))
        last = max(segments, key=lambda s: self.moment(s, True))
        covered = set()
        for seg in segments:
            start, end = (m.date() for m in self.span(seg))
            if seg["type"] == "hotel":
                covered |= {start + dt.timedelta(days=d) for d in range((end - start).days)}
            elif seg["type"] != "activity" and end > start:
                covered.add(start)
        night = self.moment(first, False).date()
        while night < self.moment(last, True).date():
            if night not in covered:
                found.append({"type": "night_without_lodging", "segments": [], "night": str(night)})
            night += dt.timedelta(days=1)
        found.sort(key=lambda x: (x["type"], x["segments"], x["night"] or ""))
        return found


def offset(moment: dt.datetime) -> str:
    minutes = int(moment.utcoffset().total_seconds()) // 60
    sign = "-" if minutes < 0 else "+"
    return f"{sign}{abs(minutes) // 60:02d}:{abs(minutes) % 60:02d}"


def pair(kind: str, a: dict, b: dict) -> dict:
    return {"type": kind, "segments": [a["segment_id"], b["segment_id"]], "night": None}


def model(run: benchlib.Run) -> Model:
    if "model" not in run.memo:
        run.memo["model"] = Model(run.source)
    return run.memo["model"]


def candidate_issues(run: benchlib.Run) -> list[dict]:
    """issues.json as a list of {type, segments, night} objects (fails otherwise)."""
    issues = run.json(ISSUES)
    benchlib.expect(isinstance(issues, list), f"{ISSUES} is not a JSON array")
    for number, item in enumerate(issues):
        ok = isinstance(item, dict) and set(item) == {"type", "segments", "night"}
        benchlib.expect(ok, f"{ISSUES}[{number}] must have exactly type, segments, night")
        benchlib.expect(item["type"] in ISSUE_TYPES, f"{ISSUES}[{number}]: type {item['type']!r}")
        benchlib.expect(isinstance(item["segments"], list), f"{ISSUES}[{number}]: segments")
    return issues


def differences(got: list, want: list, what: str) -> None:
    """expect_equal with a readable note: the first rows missing and unexpected."""
    missing = [x for x in want if x not in got][:3]
    extra = [x for x in got if x not in want][:3]
    benchlib.expect(got == want, f"{what}: missing {missing}, unexpected {extra} (or order)")


@judge.check(level=3)
def times_converted(run: benchlib.Run) -> None:
    """UTC/local conversion: every segment no update touched has its exact timeline row, and
    every row of another segment is right for its original or its final version."""
    truth = model(run)
    original = {r["segment_id"]: r for r in truth.timeline(truth.original)}
    final = {r["segment_id"]: r for r in truth.timeline(truth.final)}
    got = run.csv(TIMELINE)
    seen = {r["segment_id"] for r in got}
    for row in got:
        sid = row["segment_id"]
        ok = row in (original.get(sid), final.get(sid))
        benchlib.expect(ok, f"{TIMELINE}: row {row} is not the conversion of segment {sid}")
    kept = sorted(sid for sid in original if sid not in truth.touched)
    benchlib.expect_equal([sid for sid in kept if sid not in seen], [], "segments missing")


@judge.check(level=3)
def overlaps_found(run: benchlib.Run) -> None:
    """Every overlap and duplicate among segments no update touched is reported."""
    truth = model(run)
    got = candidate_issues(run)
    want = [
        i
        for i in truth.issues(truth.final)
        if i["type"] in ("overlap", "duplicate_booking") and not set(i["segments"]) & truth.touched
    ]
    benchlib.expect(want, "the fixture has untouched overlaps")
    benchlib.expect_equal([i for i in want if i not in got], [], "overlaps not reported")


@judge.check(level=4)
def timeline_exact(run: benchlib.Run) -> None:
    """The final itinerary's timeline: revisions, cancellations, replacements, order."""
    truth = model(run)
    differences(run.csv(TIMELINE), truth.timeline(truth.final), TIMELINE)


@judge.check(level=4)
def issues_exact(run: benchlib.Run) -> None:
    """The final issue set, exactly, in TASK.md's order."""
    truth = model(run)
    differences(candidate_issues(run), truth.issues(truth.final), ISSUES)


@judge.check(level=4, stage="rebook")
def rebook_exact(run: benchlib.Run) -> None:
    """One row per broken original segment with the exact alternative chosen."""
    truth = model(run)
    benchlib.expect(truth.rebook is not None, "the fixture has updates")
    differences(run.csv(REBOOK), truth.rebook, REBOOK)


@judge.edge(until="initial")
def touching_intervals_before_updates(run: benchlib.Run) -> None:
    """Stage 1 on the edge fixture (its updates are not read yet): half-open intervals, a
    check-out at a train's departure is no overlap."""
    truth = model(run)
    differences(run.csv(TIMELINE), truth.timeline(truth.original), TIMELINE)
    differences(candidate_issues(run), truth.issues(truth.original), ISSUES)


@judge.edge(stage="rebook")
def touching_intervals(run: benchlib.Run) -> None:
    """Half-open intervals: a check-out at a train's departure is no overlap."""
    truth = model(run)
    differences(run.csv(TIMELINE), truth.timeline(truth.final), TIMELINE)
    differences(candidate_issues(run), truth.issues(truth.final), ISSUES)
    differences(run.csv(REBOOK), truth.rebook or [], REBOOK)


# endregion authored

if __name__ == "__main__":
    sys.exit(judge.main())
