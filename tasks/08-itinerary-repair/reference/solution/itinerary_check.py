"""Check a travel itinerary: UTC timeline, issues, and rebooking after updates."""

from __future__ import annotations

import argparse
import csv
import itertools
import json
from datetime import UTC, date, datetime, timedelta
from decimal import Decimal
from pathlib import Path
from zoneinfo import ZoneInfo

TRANSPORT = ("flight", "train")
START = {"flight": "depart", "train": "depart", "hotel": "check_in", "activity": "start"}
END = {"flight": "arrive", "train": "arrive", "hotel": "check_out", "activity": "end"}


class Trip:
    def __init__(self, folder: Path) -> None:
        with open(folder / "airports.csv", encoding="utf-8", newline="") as stream:
            self.zones = {row["code"]: row["tz"] for row in csv.DictReader(stream)}
        self.rules = json.loads((folder / "connection_rules.json").read_text("utf-8"))

    def zone(self, seg: dict, field: str) -> str:
        if seg["type"] in TRANSPORT:
            return self.zones[seg["from"] if field == "depart" else seg["to"]]
        return seg["tz"]

    def local(self, seg: dict, field: str) -> datetime:
        naive = datetime.strptime(seg[field], "%Y-%m-%dT%H:%M")
        return naive.replace(tzinfo=ZoneInfo(self.zone(seg, field)))

    def start(self, seg: dict) -> datetime:
        return self.local(seg, START[seg["type"]]).astimezone(UTC)

    def end(self, seg: dict) -> datetime:
        return self.local(seg, END[seg["type"]]).astimezone(UTC)

    def order(self, segments: list[dict]) -> list[dict]:
        return sorted(segments, key=lambda s: (self.start(s), s["segment_id"]))

    def minimum(self, inbound: dict, outbound: dict) -> int:
        if inbound["type"] == "flight" and outbound["type"] == "flight":
            if inbound["to"] != outbound["from"]:
                return self.rules["airport_change_minimum_minutes"]
            by_airport = self.rules["airport_minimum_connection_minutes"]
            if inbound["to"] in by_airport:
                return by_airport[inbound["to"]]
        return self.rules["minimum_connection_minutes"][inbound["type"]][outbound["type"]]

    def gap(self, inbound: dict, outbound: dict) -> float:
        return (self.start(outbound) - self.end(inbound)).total_seconds() / 60

    def connections(self, segments: list[dict]) -> list[tuple[dict, dict]]:
        moves = self.order([s for s in segments if s["type"] in TRANSPORT])
        window = self.rules["connection_window_minutes"]
        pairs = []
        for inbound, outbound in itertools.pairwise(moves):
            if 0 <= self.gap(inbound, outbound) < window:
                pairs.append((inbound, outbound))
        return pairs

    def short(self, inbound: dict, outbound: dict) -> bool:
        return self.gap(inbound, outbound) < self.minimum(inbound, outbound)

    def issues(self, segments: list[dict]) -> list[dict]:
        found = []
        ordered = self.order(segments)
        for i, first in enumerate(ordered):
            for second in ordered[i + 1 :]:
                kinds = {first["type"], second["type"]}
                if kinds == {"hotel", "activity"}:
                    continue
                if not (
                    self.start(first) < self.end(second) and self.start(second) < self.end(first)
                ):
                    continue
                same = first["name"] == second["name"] and self.start(first) == self.start(second)
                kind = "duplicate_booking" if same and len(kinds) == 1 else "overlap"
                found.append(issue(kind, [first, second]))
        for inbound, outbound in self.connections(segments):
            if (
                inbound["type"] == "flight" == outbound["type"]
                and inbound["to"] != outbound["from"]
            ):
                found.append(issue("airport_change", [inbound, outbound]))
            if self.short(inbound, outbound):
                found.append(issue("insufficient_connection", [inbound, outbound]))
        for night in self.nights(segments):
            found.append({"type": "night_without_lodging", "segments": [], "night": night})
        return sorted(found, key=lambda x: (x["type"], x["segments"], x["night"] or ""))

    def nights(self, segments: list[dict]) -> list[str]:
        first = min(segments, key=self.start)
        last = max(segments, key=self.end)
        day = self.local(first, START[first["type"]]).date()
        final = self.local(last, END[last["type"]]).date()
        covered: set[date] = set()
        for seg in segments:
            begin = self.local(seg, START[seg["type"]]).date()
            finish = self.local(seg, END[seg["type"]]).date()
            if seg["type"] == "hotel":
                while begin < finish:
                    covered.add(begin)
                    begin += timedelta(days=1)
            elif seg["type"] in TRANSPORT and finish > begin:
                covered.add(begin)
        missing = []
        while day < final:
            if day not in covered:
                missing.append(day.isoformat())
            day += timedelta(days=1)
        return missing

    def timeline(self, segments: list[dict]) -> list[list[str]]:
        rows = []
        for seg in self.order(segments):
            begin = self.local(seg, START[seg["type"]])
            finish = self.local(seg, END[seg["type"]])
            rows.append(
                [seg["segment_id"], seg["type"], seg["name"], show(begin), show(finish)]
                + [utc(x) for x in (begin, finish)]
            )
        return rows


def issue(kind: str, pair: list[dict]) -> dict:
    return {"type": kind, "segments": [s["segment_id"] for s in pair], "night": None}


def show(moment: datetime) -> str:
    return moment.isoformat(timespec="minutes")


def utc(moment: datetime) -> str:
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%MZ")


def apply_updates(segments: list[dict], updates: list[dict]) -> list[dict]:
    latest: dict[str, dict] = {}
    for update in updates:
        seen = latest.get(update["segment_id"])
        if seen is None or int(update["revision"]) > int(seen["revision"]):
            latest[update["segment_id"]] = update
    result = []
    for seg in segments:
        update = latest.get(seg["segment_id"])
        if update is None:
            result.append(seg)
        elif update["status"] != "cancelled":
            result.append({**seg, **update["changes"]})
    return result


def rebook(trip: Trip, original: list[dict], updated: list[dict], alternatives: list[dict]):
    now = {s["segment_id"]: s for s in updated}
    choices: list[tuple[str, str]] = []
    final = list(updated)
    for inbound, outbound in trip.connections(original):
        if trip.short(inbound, outbound) or inbound["segment_id"] not in now:
            continue
        after = now[inbound["segment_id"]]
        later = now.get(outbound["segment_id"])
        if later is not None and not trip.short(after, later):
            continue
        options = [
            {**a, "segment_id": a["alternative_id"]}
            for a in alternatives
            if a["replaces"] == outbound["segment_id"]
        ]
        valid = [a for a in options if not trip.short(after, a)]
        valid.sort(key=lambda a: (trip.end(a), Decimal(a["price"]), a["alternative_id"]))
        if valid:
            chosen = valid[0]
            choices.append((outbound["segment_id"], chosen["alternative_id"]))
            final = [s for s in final if s["segment_id"] != outbound["segment_id"]]
            keep = ("segment_id", "type", "name", "from", "to", "depart", "arrive")
            final.append({key: chosen[key] for key in keep})
        else:
            choices.append((outbound["segment_id"], ""))
    return sorted(choices), final


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("inputs", type=Path)
    parser.add_argument("--output", type=Path, required=True)
    args = parser.parse_args()
    folder, out = args.inputs, args.output
    trip = Trip(folder)
    segments = json.loads((folder / "itinerary.json").read_text("utf-8"))["segments"]
    final = segments
    choices = None
    if (folder / "updates.json").exists():
        updates = json.loads((folder / "updates.json").read_text("utf-8"))["updates"]
        with open(folder / "alternatives.csv", encoding="utf-8", newline="") as stream:
            alternatives = list(csv.DictReader(stream))
        updated = apply_updates(segments, updates)
        choices, final = rebook(trip, segments, updated, alternatives)
    out.mkdir(parents=True, exist_ok=True)
    with open(out / "timeline.csv", "w", encoding="utf-8", newline="") as stream:
        writer = csv.writer(stream, lineterminator="\n")
        writer.writerow(
            ["segment_id", "type", "name", "start_local", "end_local", "start_utc", "end_utc"]
        )
        writer.writerows(trip.timeline(final))
    text = json.dumps(trip.issues(final), indent=2, ensure_ascii=False)
    (out / "issues.json").write_text(text + "\n", encoding="utf-8")
    if choices is not None:
        with open(out / "rebook.csv", "w", encoding="utf-8", newline="") as stream:
            writer = csv.writer(stream, lineterminator="\n")
            writer.writerow(["original_segment_id", "alternative_id"])
            writer.writerows(choices)


if __name__ == "__main__":
    main()
