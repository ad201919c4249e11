"""Fixture generators of task 25: twenty months of a city library's circulation, 300,000 rows.

``library`` writes ``inputs/patrons.csv``, ``inputs/catalog.csv`` and
``inputs/circulation.csv``. Filler: every filler item lives through a simple loan cycle
(checkout, renewals, a return or a mark-lost and maybe a restore, a gap, the next checkout),
with some late returns, night-time book-drop returns (22:00-23:59 UTC, already the next
local day in Berlin), a few stray duplicate returns and patron-level fine waivers. The
anchors of task.toml (records without a ``file``) are hand-written transactions of
dedicated patrons (P9xxx) and items (I9xxxx) with explicit transaction ids (C9xxxxxx);
filler ids (C0xxxxxx) follow time order.

File order: rows are sorted by their timestamp plus a random delay of up to three days, so
the file is interleaved and not in time order; each item's own rows keep (timestamp,
txn_id) order in the main fixture (rows out of order within an item are the edge rule).

``corrections`` writes the stage-2 ``inputs/corrections.csv`` from the anchor
``corrections`` (voids and replacements of anchor transactions, new loans of filler
patrons).
"""

from __future__ import annotations

import datetime as dt

import benchlib

ROWS = 300_000
T0 = dt.datetime(2024, 1, 1, tzinfo=dt.UTC)
AS_OF = int((dt.datetime(2025, 8, 31, 20, 0, tzinfo=dt.UTC) - T0).total_seconds())
DAYS = [(T0 + dt.timedelta(days=d)).strftime("%Y-%m-%d") for d in range(800)]
PATRONS = 600
ANCHORS = [
    "local-day",
    "open-loan",
    "fine-cap",
    "renewals",
    "renew-after-return",
    "renew-while-lost",
    "lost-and-restore",
    "waivers",
    "stray-return",
    "double-checkout",
    "ignored-lost-restore",
    "return-next-day",
    "winter-time",
    "correction-targets",
]
CORRECTIONS = "corrections"
HEADER = "txn_id,timestamp,kind,item_id,patron_id,due_date,amount,branch,channel,staff_id,note"
# material: weight, loan days, daily fine, fine cap, lost fee range (whole euros)
MATERIALS = {
    "book": (60, 21, "0.25", "5.00", (12, 38)),
    "dvd": (12, 7, "1.00", "10.00", (15, 30)),
    "magazine": (10, 14, "0.10", "2.00", (4, 9)),
    "audiobook": (8, 21, "0.50", "6.00", (20, 45)),
    "boardgame": (5, 14, "0.75", "8.00", (25, 60)),
}
BRANCHES = ["Mitte", "Kreuzberg", "Pankow", "Spandau", "Steglitz"]
FIRST = [
    "Anna", "Jürgen", "Zoë", "Łukasz", "Ömer", "François", "Ágnes", "Mia", "Jonas", "Leonie",
    "Emil", "Sofía", "Mehmet", "Chloé", "Björn", "Ines", "Tomás", "Yuki", "Aylin", "Noah",
    "Greta", "Paweł", "Élodie", "Karl", "Hanna", "Søren", "Ana", "Lars", "Małgorzata", "Ben",
]  # fmt: skip
LAST = [
    "Müller", "Schmidt", "Nowak", "Yılmaz", "Dubois", "Kovács", "Weiß", "Fischer", "García",
    "Öztürk", "Hansen", "Schröder", "Lefèvre", "Wójcik", "Becker", "Jäger", "Nakamura",
    "Ramírez", "Vogel", "Krüger", "Šimek", "Lindqvist", "Brandt", "Peña", "Koch",
]  # fmt: skip
WORDS = [
    "River", "Night", "Garden", "Winter", "Stone", "Silent", "Atlas", "Letters", "Harbour",
    "Little", "Kitchen", "History", "Berlin", "Journey", "Secret", "Island", "Light", "Forest",
    "Machine", "Summer", "Glass", "Memory", "City", "Birds", "Mountain", "Songs", "Empire",
]  # fmt: skip
NOTES = {
    "checkout": [
        "checked out at the circulation desk",
        "checked out at a self-service kiosk",
        "picked up from the holds shelf",
    ],
    "renew": [
        "renewed online through the patron account",
        "renewed at the desk by staff",
        "renewed by phone call",
    ],
    "return": ["returned at the circulation desk", "returned to the automated sorter"],
    "mark-lost": ["patron reported the item lost", "overdue notices unanswered; declared lost"],
    "restore": ["found on the shelf and checked in", "lost item brought back by the patron"],
    "waive-fine": ["goodwill waiver", "first offence waived", "waived by the branch manager"],
}
CHANNELS = {
    "checkout": ["desk", "kiosk", "kiosk"],
    "renew": ["online", "online", "desk", "phone"],
    "return": ["desk", "sorter", "sorter"],
    "mark-lost": ["staff"],
    "restore": ["desk"],
    "waive-fine": ["staff"],
}

# Dedicated anchor patrons and items (the anchors' transactions are in task.toml).
ANCHOR_PATRONS = [
    ("P9001", "Dörte Ålander", "Mitte"),
    ("P9002", "Kenji Øvergaard", "Pankow"),
    ("P9003", "Renée Çelik", "Mitte"),
    ("P9004", "Ulrike Straße", "Spandau"),
    ("P9005", "Jörg Nüßlein", "Kreuzberg"),
    ("P9006", "Zuzana Dvořák", "Kreuzberg"),
    ("P9007", "Iñaki Ibáñez", "Steglitz"),
    ("P9008", "Søren Kierkegård", "Mitte"),
    ("P9009", "Åsa Lindström", "Pankow"),
    ("P9010", "Gülşen Aydın", "Spandau"),
    ("P9011", "Marek Čapek", "Mitte"),
    ("P9012", "Hélène Faÿ", "Steglitz"),
    ("P9013", "Bartłomiej Żak", "Steglitz"),
    ("P9014", "Ólafur Þórsson", "Mitte"),
    ("P9015", "Chiara Coppé", "Pankow"),
    ("P9016", "Wiebke Größ", "Kreuzberg"),
    ("P9017", "Tadeusz Łoś", "Mitte"),
    ("P9018", "Maëlle Ørsted", "Spandau"),
]
# item_id, title, material, daily_fine, fine_cap, lost_fee
ANCHOR_ITEMS = [
    ("I90001", "The Night Ferry", "book", "0.25", "5.00", "20.00"),
    ("I90002", "Metropolis (restored)", "dvd", "1.00", "10.00", "25.00"),
    ("I90003", "A History of Maps", "book", "0.25", "5.00", "32.00"),
    ("I90004", "Paris, Texas", "dvd", "1.00", "10.00", "22.00"),
    ("I90005", "Kochen für zwei", "book", "0.25", "5.00", "18.50"),
    ("I90006", "Quiet Rivers", "book", "0.25", "5.00", "16.00"),
    ("I90007", "Das Parfum", "book", "0.25", "5.00", "14.00"),
    ("I90008", "Middlemarch (unabridged)", "audiobook", "0.50", "6.00", "35.00"),
    ("I90009", "Birds of Brandenburg", "book", "0.25", "5.00", "18.00"),
    ("I90010", "Wings of Desire", "dvd", "1.00", "10.00", "30.00"),
    ("I90011", "Glass Houses", "book", "0.25", "5.00", "21.00"),
    ("I90012", "Run Lola Run", "dvd", "1.00", "10.00", "19.00"),
    ("I90013", "Island Letters", "book", "0.25", "5.00", "17.00"),
    ("I90014", "The Salt Road", "book", "0.25", "5.00", "23.00"),
    ("I90015", "Carcassonne", "boardgame", "0.75", "8.00", "39.00"),
    ("I90016", "Memory Palace", "book", "0.25", "5.00", "15.00"),
    ("I90017", "Goodbye Lenin!", "dvd", "1.00", "10.00", "20.00"),
    ("I90018", "Winter Garden", "book", "0.25", "5.00", "19.00"),
    ("I90019", "Songs of the City", "book", "0.25", "5.00", "24.00"),
    ("I90020", "Stone Atlas", "book", "0.25", "5.00", "26.00"),
    ("I90021", "Stone Atlas, volume 2", "book", "0.25", "5.00", "26.00"),
    ("I90022", "Machine Summer", "book", "0.25", "5.00", "13.00"),
    ("I90023", "Harbour Lights", "book", "0.25", "5.00", "12.00"),
    ("I90024", "Harbour Lights, volume 2", "book", "0.25", "5.00", "12.00"),
    ("I90025", "Harbour Lights, volume 3", "book", "0.25", "5.00", "12.00"),
    ("I90026", "Harbour Lights, volume 4", "book", "0.25", "5.00", "12.00"),
    ("I90030", "New Arrivals: Forest", "book", "0.25", "5.00", "20.00"),
    ("I90031", "New Arrivals: Empire", "book", "0.25", "5.00", "20.00"),
    ("I90032", "New Arrivals: Birds", "book", "0.25", "5.00", "20.00"),
    ("I90033", "New Arrivals: Journey", "book", "0.25", "5.00", "20.00"),
    ("I90034", "New Arrivals: Kitchen", "book", "0.25", "5.00", "20.00"),
    ("I90035", "New Arrivals: Songs", "book", "0.25", "5.00", "20.00"),
    ("I90036", "New Arrivals: Glass", "book", "0.25", "5.00", "20.00"),
]


def _stamp(seconds: int) -> str:
    day, rest = divmod(seconds, 86400)
    hours, rest = divmod(rest, 3600)
    return f"{DAYS[day]}T{hours:02d}:{rest // 60:02d}:{rest % 60:02d}Z"


def _seconds(text: str) -> int:
    return int((dt.datetime.fromisoformat(text) - T0).total_seconds())


def _catalog(ctx: benchlib.SeedContext, items: int) -> list[tuple[str, str, int]]:
    """Catalog rows, written; returns (item_id, material, loan days) of the filler items."""
    rng = ctx.stream("catalog")
    names = list(MATERIALS)
    weights = [MATERIALS[m][0] for m in names]
    rows, filler = [], []
    for n in range(1, items + 1):
        material = rng.choices(names, weights)[0]
        _, days, fine, cap, (lo, hi) = MATERIALS[material]
        title = " ".join(rng.sample(WORDS, rng.randint(1, 3)))
        if rng.random() < 0.15:
            title = f"{title}, {rng.choice(WORDS)}"
        lost = f"{rng.randint(lo, hi)}.{rng.choice(['00', '50', '90', '95'])}"
        item = f"I{n:05d}"
        filler.append((item, material, days))
        rows.append((item, title, material, fine, cap, lost))
    rows += ANCHOR_ITEMS
    header = ["item_id", "title", "material", "daily_fine", "fine_cap", "lost_fee"]
    ctx.write_csv("inputs/catalog.csv", header, [dict(zip(header, r, strict=True)) for r in rows])
    return filler


def _patrons(ctx: benchlib.SeedContext) -> list[str]:
    rng = ctx.stream("patrons")
    rows = []
    for n in range(1, PATRONS + 1):
        first, last = rng.choice(FIRST), rng.choice(LAST)
        rows.append((f"P{n:04d}", f"{first} {last}", rng.choice(BRANCHES)))
    rows += ANCHOR_PATRONS
    rng.shuffle(rows)  # the export is not sorted by patron_id
    out = []
    for pid, name, branch in rows:
        mail = f"{pid.lower()}@mail.example"
        out.append({"patron_id": pid, "name": name, "email": mail, "home_branch": branch})
    ctx.write_csv("inputs/patrons.csv", ["patron_id", "name", "email", "home_branch"], out)
    return [f"P{n:04d}" for n in range(1, PATRONS + 1)]


def _daytime(rng, day: int) -> int:
    """An opening-hours instant of ``day`` (07:00-17:59 UTC, 08:00-19:59 in Berlin)."""
    return day * 86400 + 25200 + int(rng.random() * 39600)


def _int(rng, lo: int, hi: int) -> int:
    """randint without its overhead (one float draw)."""
    return lo + int(rng.random() * (hi - lo + 1))


def _item_life(rng, days: int) -> list[tuple[int, str, int, int]]:
    """(instant, kind, patron index, due day or -1) of one filler item, in time order."""
    events: list[tuple[int, str, int, int]] = []
    day = int(rng.random() * 40)
    while True:
        start = _daytime(rng, day)
        if start >= AS_OF:
            return events
        patron = int(rng.random() * PATRONS)
        due = day + days
        events.append((start, "checkout", patron, due))
        now = day
        for _ in range(rng.choice([0, 0, 0, 0, 1, 1, 1, 2])):
            late = rng.random() < 0.1
            now = due + _int(rng, 1, 6) if late else max(now + 1, due - _int(rng, 0, 4))
            due = now + days
            events.append((_daytime(rng, now), "renew", patron, due))
        u = rng.random()
        if u < 0.02:  # lost, sometimes found again
            now = due + _int(rng, 10, 60)
            events.append((_daytime(rng, now), "mark-lost", patron, -1))
            if rng.random() >= 0.35:
                return [e for e in events if e[0] < AS_OF]
            now += _int(rng, 3, 60)
            events.append((_daytime(rng, now), "restore", patron, -1))
        else:
            if u < 0.80:
                now = max(now + 1, due - _int(rng, 0, days))
            elif u < 0.98:
                now = due + _int(rng, 1, 25)
            else:
                now = due + _int(rng, 26, 150)
            if rng.random() < 0.12:  # book drop at night: the next local day
                at = now * 86400 + _int(rng, 22 * 3600, 86400 - 60)
            else:
                at = _daytime(rng, now)
            events.append((at, "return", patron, -1))
            if rng.random() < 0.01:  # a stray second scan of the return
                now += _int(rng, 1, 2)
                events.append((_daytime(rng, now), "return", patron, -1))
        day = now + _int(rng, 1, 30)
        if events[-1][0] >= AS_OF:
            return [e for e in events if e[0] < AS_OF]


def library(ctx: benchlib.SeedContext) -> None:
    """inputs/patrons.csv, inputs/catalog.csv, inputs/circulation.csv."""
    rng = ctx.rng
    anchor_rows = [r for name in ANCHORS for r in ctx.anchor(name)]
    patrons = _patrons(ctx)
    waivers = []
    for p in range(PATRONS):
        for _ in range(rng.choice([0, 0, 1, 1, 2, 3])):
            at = _daytime(rng, rng.randrange(600))
            waivers.append((at, "waive-fine", p, rng.choice(["0.75", "1.00", "2.50", "5.00"])))
    budget = ROWS - len(anchor_rows) - len(waivers)
    filler = _catalog(ctx, 9000)
    # (instant, kind, item index or -1, patron index, due day, amount)
    events: list[tuple[int, str, int, int, int, str]] = []
    for index, (_, _, days) in enumerate(filler):
        life = _item_life(rng, days)[: budget - len(events)]
        events += [(at, kind, index, p, due, "") for at, kind, p, due in life]
        if len(events) >= budget:
            break
    events += [(at, kind, -1, p, -1, amount) for at, kind, p, amount in waivers]
    events.sort()
    lines: list[tuple[float, str, str]] = []  # (file-order key, item, line)
    for number, (at, kind, index, p, due, amount) in enumerate(events, 1):
        item = filler[index][0] if index >= 0 else ""
        lines.append(
            (
                at + rng.random() * 259200,
                item,
                _line(rng, f"C{number:07d}", at, kind, item, patrons[p], due, amount),
            )
        )
    for r in anchor_rows:
        at = _seconds(r["at"])
        line = ",".join(
            [
                r["txn"],
                r["at"],
                r["kind"],
                r["item"],
                r["patron"],
                r["due"],
                r["amount"],
                "Mitte",
                rng.choice(CHANNELS[r["kind"]]),
                f"STAFF-{rng.randint(1, 40):04d}",
                rng.choice(NOTES[r["kind"]]),
            ]
        )
        lines.append((at + rng.random() * 259200, r["item"], line + "\n"))
    _write(ctx, lines)


def _line(rng, txn: str, at: int, kind: str, item: str, patron: str, due: int, amount: str) -> str:
    due_text = DAYS[due] if due >= 0 else ""
    bits = rng.getrandbits(30)  # one draw for the four columns that play no role
    channels, notes = CHANNELS[kind], NOTES[kind]
    channel = channels[bits % len(channels)]
    if kind == "return" and at % 86400 >= 22 * 3600:
        channel = "bookdrop"
    branch = BRANCHES[(bits >> 4) % 5]
    staff = f"STAFF-{(bits >> 8) % 40 + 1:04d}"
    note = notes[(bits >> 16) % len(notes)]
    cells = (txn, _stamp(at), kind, item, patron, due_text, amount, branch, channel, staff, note)
    return ",".join(cells) + "\n"


def _write(ctx: benchlib.SeedContext, lines: list[tuple[float, str, str]]) -> None:
    """Rows in file-key order; each item's rows fill its positions in their original order."""
    per_item: dict[str, list[str]] = {}
    for _, item, line in lines:  # events and anchors are each in (instant, txn) order
        if item:
            per_item.setdefault(item, []).append(line)
    for rows in per_item.values():
        rows.sort(key=lambda line: (line.split(",", 2)[1], line[:8]))
    taken = dict.fromkeys(per_item, 0)
    lines.sort(key=lambda entry: entry[0])
    with ctx.open_text("inputs/circulation.csv") as out:
        out.write(HEADER + "\n")
        for _, item, line in lines:
            if item:
                line = per_item[item][taken[item]]
                taken[item] += 1
            out.write(line)


def corrections(ctx: benchlib.SeedContext) -> None:
    """inputs/corrections.csv: the anchor corrections, in their listed order."""
    header = ["action", "txn_id", "timestamp", "kind", "item_id", "patron_id", "due_date", "amount"]
    keys = ["action", "txn", "at", "kind", "item", "patron", "due", "amount"]
    rows = [dict(zip(header, (r[k] for k in keys), strict=True)) for r in ctx.anchor(CORRECTIONS)]
    ctx.write_csv("inputs/corrections.csv", header, rows)
