"""Fixture generators of task 8: a two-week consulting trip New York - Europe - New York.

The trip is authored record by record below (the cases that matter are commented); the
segments are written to itinerary.json in a seeded shuffled order, so file order never
matches time order. Stage 2 adds revisions, cancellations and replacement choices. Times are
local wall-clock times in March/April 2025: the United States is already on daylight-saving
time, Europe switches on 2025-03-30 (01:00 UTC). No local time is ambiguous or skipped.
"""

from __future__ import annotations

import benchlib

AIRPORT_HEADER = ["code", "name", "city", "kind", "tz"]
AIRPORTS = [
    ("BOS", "Boston Logan International", "Boston", "airport", "America/New_York"),
    ("BER", "Berlin Brandenburg", "Berlin", "airport", "Europe/Berlin"),
    ("CDG", "Paris Charles de Gaulle", "Paris", "airport", "Europe/Paris"),
    ("EWR", "Newark Liberty International", "New York", "airport", "America/New_York"),
    ("FRA", "Frankfurt am Main", "Frankfurt", "airport", "Europe/Berlin"),
    ("JFK", "John F. Kennedy International", "New York", "airport", "America/New_York"),
    ("LGA", "LaGuardia", "New York", "airport", "America/New_York"),
    ("LCY", "London City", "London", "airport", "Europe/London"),
    ("LGW", "London Gatwick", "London", "airport", "Europe/London"),
    ("LHR", "London Heathrow", "London", "airport", "Europe/London"),
    ("QPP", "Berlin Hauptbahnhof", "Berlin", "rail", "Europe/Berlin"),
    ("QQP", "London Paddington", "London", "rail", "Europe/London"),
    ("QQS", "London St Pancras International", "London", "rail", "Europe/London"),
    ("XHP", "Paris Gare de l'Est", "Paris", "rail", "Europe/Paris"),
    ("XPG", "Paris Gare du Nord", "Paris", "rail", "Europe/Paris"),
    ("ZLP", "Zurich Hauptbahnhof", "Zurich", "rail", "Europe/Zurich"),
    ("ZRB", "Frankfurt (Main) Hauptbahnhof", "Frankfurt", "rail", "Europe/Berlin"),
    ("ZRH", "Zurich Airport", "Zurich", "airport", "Europe/Zurich"),
]

RULES = {
    "connection_window_minutes": 360,
    "minimum_connection_minutes": {
        "flight": {"flight": 60, "train": 75},
        "train": {"flight": 90, "train": 15},
    },
    "airport_minimum_connection_minutes": {"FRA": 45, "LHR": 90, "ZRH": 120},
    "airport_change_minimum_minutes": 180,
}


def _move(sid: str, kind: str, name: str, ref: str, route: str, times: str) -> dict:
    origin, destination = route.split("-")
    depart, arrive = times.split(" ")
    return {
        "segment_id": sid,
        "type": kind,
        "name": name,
        "booking_ref": ref,
        "from": origin,
        "to": destination,
        "depart": depart,
        "arrive": arrive,
    }


def _stay(sid: str, name: str, ref: str, tz: str, times: str) -> dict:
    check_in, check_out = times.split(" ")
    return {
        "segment_id": sid,
        "type": "hotel",
        "name": name,
        "booking_ref": ref,
        "tz": tz,
        "check_in": check_in,
        "check_out": check_out,
    }


def _do(sid: str, name: str, ref: str, tz: str, times: str) -> dict:
    start, end = times.split(" ")
    return {
        "segment_id": sid,
        "type": "activity",
        "name": name,
        "booking_ref": ref,
        "tz": tz,
        "start": start,
        "end": end,
    }


NY, LON, PAR, BER, ZUR = (
    "America/New_York",
    "Europe/London",
    "Europe/Paris",
    "Europe/Berlin",
    "Europe/Zurich",
)

SEGMENTS = [
    _do("A401", "Kickoff call with the New York team", "", NY, "2025-03-24T09:00 2025-03-24T10:00"),
    # in from Boston; F101 leaves JFK exactly connection_window_minutes later: no connection
    _move("F100", "flight", "B6 2105", "JB0M4X", "BOS-LGA", "2025-03-24T12:00 2025-03-24T13:30"),
    # overnight flight: it covers the night of 2025-03-24
    _move("F101", "flight", "BA 178", "K7QX2M", "JFK-LHR", "2025-03-24T19:30 2025-03-25T07:35"),
    # flight>train: 80 minutes at Heathrow are enough (75; the LHR minimum is for flights)
    _move(
        "T200",
        "train",
        "Heathrow Express",
        "HEX-7781",
        "LHR-QQP",
        "2025-03-25T08:55 2025-03-25T09:10",
    ),
    _do("A402", "Client workshop, Canary Wharf", "", LON, "2025-03-25T10:00 2025-03-25T17:00"),
    # the same hotel booked twice (two booking references): a duplicate, not an overlap
    _stay("H301", "Strand Palace Hotel", "SPH-55810", LON, "2025-03-25T18:00 2025-03-27T07:15"),
    _stay("H302", "Strand Palace Hotel", "BKG-2231907", LON, "2025-03-25T18:00 2025-03-27T07:15"),
    # activities during a hotel stay are fine; these two overlap each other
    _do("A403", "Dinner with Harrow & Co", "OT-88213", LON, "2025-03-26T19:00 2025-03-26T21:30"),
    _do("A404", "Theatre: Hamlet", "NT-40412", LON, "2025-03-26T21:00 2025-03-26T23:30"),
    # a Singapore-time call (08:00Z) during the Eurostar (07:31Z): only UTC shows it, and the
    # pair is written [T201, A405] (timeline order, not ID order)
    _do(
        "A405",
        "Call with the Singapore office",
        "",
        "Asia/Singapore",
        "2025-03-27T16:00 2025-03-27T16:30",
    ),
    _move(
        "T201",
        "train",
        "Eurostar 9010",
        "ES-3HD81Q",
        "QQS-XPG",
        "2025-03-27T07:31 2025-03-27T10:47",
    ),
    # one night in Paris only: the night of 2025-03-28 has no lodging
    _stay("H303", "Hotel du Petit Moulin", "HPM-7745", PAR, "2025-03-27T11:30 2025-03-28T10:00"),
    _do("A406", "Workshop at the Paris office", "", PAR, "2025-03-27T13:00 2025-03-27T18:00"),
    # a cruise past midnight: activities never cover a night
    _do("A410", "Night cruise on the Seine", "BM-60177", PAR, "2025-03-28T22:00 2025-03-29T01:00"),
    # train to Frankfurt, then a flight 89 minutes later: train>flight needs 90
    _move(
        "T202", "train", "TGV 9553", "SNCF-QT0221", "XHP-ZRB", "2025-03-29T09:55 2025-03-29T13:45"
    ),
    _move("F102", "flight", "LH 190", "LH4K2P9", "FRA-BER", "2025-03-29T15:14 2025-03-29T16:24"),
    # a Berlin stay across the daylight-saving switch; its check-out is after F103 leaves
    _stay("H304", "Hotel Adlon Kempinski", "ADL-90217", BER, "2025-03-29T17:30 2025-03-31T09:00"),
    # 10:00 CEST and 17:00 JST are both 08:00Z: tie broken by segment_id
    _do("A407", "Museum Island tour", "MI-5521", BER, "2025-03-30T10:00 2025-03-30T13:00"),
    _do(
        "A408",
        "Call with the Tokyo partners",
        "",
        "Asia/Tokyo",
        "2025-03-30T17:00 2025-03-30T18:00",
    ),
    # 50 minutes at FRA: enough there (45), not enough by the default flight>flight rule (60)
    _move("F103", "flight", "LH 173", "LH4K2P9", "BER-FRA", "2025-03-31T08:50 2025-03-31T10:00"),
    _move("F104", "flight", "LH 1190", "LH4K2P9", "FRA-ZRH", "2025-03-31T10:50 2025-03-31T11:50"),
    _stay("H305", "Hotel Schweizerhof", "SHZ-10388", ZUR, "2025-03-31T13:00 2025-04-02T07:15"),
    _do("A409", "Board meeting", "", ZUR, "2025-04-01T09:00 2025-04-01T16:00"),
    # the same hotel booked again from another day: an overlap, not a duplicate
    _stay("H306", "Hotel Schweizerhof", "BKG-2240518", ZUR, "2025-04-01T20:00 2025-04-02T07:15"),
    # to the airport by train: 98 minutes before F105 (train>flight needs 90)
    _move("T203", "train", "S16 18234", "SBB-5521", "ZLP-ZRH", "2025-04-02T07:30 2025-04-02T07:42"),
    # LCY to LHR: an airport change with exactly the 180 minutes it needs
    _move("F105", "flight", "LX 456", "LX77TR1", "ZRH-LCY", "2025-04-02T09:20 2025-04-02T10:05"),
    _move("F106", "flight", "BA 115", "K7QX2M", "LHR-JFK", "2025-04-02T13:05 2025-04-02T15:55"),
    # home to Boston from LaGuardia: an airport change with time to spare (still after F106's
    # delay), reported although nothing is short
    _move("F107", "flight", "B6 1117", "JB0M4X", "LGA-BOS", "2025-04-02T20:30 2025-04-02T21:45"),
]

UPDATES = [
    # F103 is delayed: revision 3 wins (20 minutes at FRA are too few: F104 is broken);
    # revision 1 alone would have left exactly the 45 minutes FRA requires
    {"segment_id": "F103", "revision": 1, "status": "revised",
     "changes": {"depart": "2025-03-31T08:55", "arrive": "2025-03-31T10:05"}},
    {"segment_id": "F103", "revision": 3, "status": "revised",
     "changes": {"depart": "2025-03-31T09:20", "arrive": "2025-03-31T10:30"}},
    # T202 arrives later still: its connection was already too short, so nothing is rebooked
    {"segment_id": "T202", "revision": 2, "status": "revised",
     "changes": {"arrive": "2025-03-29T13:55"}},
    # the Paris hotel is cancelled (a lower revision had moved its check-in)
    {"segment_id": "H303", "revision": 1, "status": "revised",
     "changes": {"check_in": "2025-03-27T12:00"}},
    {"segment_id": "H303", "revision": 2, "status": "cancelled", "changes": {}},
    # only the highest revision counts: revision 2 moves check-in, revision 1 is discarded
    {"segment_id": "H305", "revision": 2, "status": "revised",
     "changes": {"check_in": "2025-03-31T14:00"}},
    {"segment_id": "H305", "revision": 1, "status": "revised",
     "changes": {"check_out": "2025-04-02T07:00"}},
    # revision 10 (not 9: revisions are integers) reinstates F106 later that afternoon
    {"segment_id": "F106", "revision": 9, "status": "cancelled", "changes": {}},
    {"segment_id": "F106", "revision": 10, "status": "revised",
     "changes": {"depart": "2025-04-02T13:35", "arrive": "2025-04-02T16:25"}},
    # the Heathrow Express is cancelled: F101 > T200 is broken
    {"segment_id": "T200", "revision": 1, "status": "cancelled", "changes": {}},
    # the train to the airport is cancelled: its connection is not broken (no inbound left)
    {"segment_id": "T203", "revision": 1, "status": "cancelled", "changes": {}},
    # F105 is delayed: 160 minutes to F106 after an airport change (180 needed)
    {"segment_id": "F105", "revision": 1, "status": "revised",
     "changes": {"depart": "2025-04-02T10:10", "arrive": "2025-04-02T10:55"}},
]  # fmt: skip

ALTERNATIVE_HEADER = [
    "alternative_id", "replaces", "type", "name", "from", "to", "depart", "arrive", "price",
]  # fmt: skip
ALTERNATIVES = [
    # for F104 (out of order): ALT-11 arrives first but leaves too soon after F103 (20 < 45 min);
    # ALT-12 (exactly 45 minutes) and ALT-13 arrive together, ALT-12 is cheaper (95 < 120)
    "ALT-14|F104|train|ICE 371|ZRB|ZLP|2025-03-31T11:13|2025-03-31T15:08|89.90",
    "ALT-13|F104|flight|LX 1073|FRA|ZRH|2025-03-31T11:30|2025-03-31T12:20|120.00",
    "ALT-11|F104|flight|LX 1071|FRA|ZRH|2025-03-31T10:50|2025-03-31T11:55|210.00",
    "ALT-12|F104|flight|LH 1192|FRA|ZRH|2025-03-31T11:15|2025-03-31T12:20|95.00",
    # for T200: ALT-40 leaves too soon (65 < 75); ALT-42 and ALT-43 tie on arrival and price
    "ALT-43|T200|train|Heathrow Express|LHR|QQP|2025-03-25T09:10|2025-03-25T09:25|25.00",
    "ALT-40|T200|train|Heathrow Express|LHR|QQP|2025-03-25T08:40|2025-03-25T08:55|25.00",
    "ALT-41|T200|train|Elizabeth line|LHR|QQP|2025-03-25T09:00|2025-03-25T09:30|12.80",
    "ALT-42|T200|train|Heathrow Express|LHR|QQP|2025-03-25T09:10|2025-03-25T09:25|25.00",
    # for T203, whose cancellation breaks no connection: never used
    "ALT-51|T203|train|S2 18240|ZLP|ZRH|2025-04-02T14:00|2025-04-02T14:12|4.40",
    # for F102 (never broken by the update: it was already short of time)
    "ALT-21|F102|flight|EW 8040|FRA|BER|2025-03-29T16:30|2025-03-29T17:40|140.00",
    # for F106: none satisfies the rules after F105 arrives at 09:55Z in London City
    "ALT-31|F106|flight|BA 175|LHR|JFK|2025-04-02T13:50|2025-04-02T16:45|610.00",
    "ALT-32|F106|flight|BA 1|LCY|JFK|2025-04-02T11:50|2025-04-02T15:10|890.00",
]

EDGE_SEGMENTS = [
    # a flight arriving exactly when the airport train leaves: touching, and a connection
    _move("F900", "flight", "LX 317", "LX9PL04", "LHR-ZRH", "2025-04-01T13:05 2025-04-01T16:40"),
    _move("T900", "train", "S16 18177", "SBB-1187", "ZRH-ZLP", "2025-04-01T16:40 2025-04-01T16:52"),
    _stay("H901", "Hotel Limmat", "LIM-2207", ZUR, "2025-04-01T18:00 2025-04-02T09:12"),
    _do("A901", "Breakfast with Ruth", "", ZUR, "2025-04-02T08:30 2025-04-02T09:13"),
    _move("T901", "train", "S2 18916", "SBB-1188", "ZLP-ZRH", "2025-04-02T09:12 2025-04-02T09:24"),
    _move("F901", "flight", "LX 16", "LX9PL04", "ZRH-JFK", "2025-04-02T11:05 2025-04-02T13:55"),
]


def _write_trip(ctx: benchlib.SeedContext, segments: list[dict]) -> None:
    shuffled = [dict(s) for s in segments]
    ctx.rng.shuffle(shuffled)
    ctx.write_json(
        "inputs/itinerary.json",
        {"traveler": "Dana Whitfield", "currency": "EUR", "segments": shuffled},
    )
    airports = [dict(zip(AIRPORT_HEADER, row, strict=True)) for row in AIRPORTS]
    ctx.write_csv("inputs/airports.csv", AIRPORT_HEADER, airports)
    ctx.write_json("inputs/connection_rules.json", RULES)


def trip(ctx: benchlib.SeedContext) -> None:
    _write_trip(ctx, SEGMENTS)


def changes(ctx: benchlib.SeedContext) -> None:
    updates = [dict(u) for u in UPDATES]
    ctx.rng.shuffle(updates)
    ctx.write_json("inputs/updates.json", {"updates": updates})
    rows = [dict(zip(ALTERNATIVE_HEADER, row.split("|"), strict=True)) for row in ALTERNATIVES]
    ctx.write_csv("inputs/alternatives.csv", ALTERNATIVE_HEADER, rows)


def edge_trip(ctx: benchlib.SeedContext) -> None:
    _write_trip(ctx, EDGE_SEGMENTS)
    ctx.write_json("inputs/updates.json", {"updates": []})
    ctx.write_csv("inputs/alternatives.csv", ALTERNATIVE_HEADER, [])
