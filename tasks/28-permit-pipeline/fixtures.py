"""Fixture generators of task 28: five months of building-permit intake in Eastbrook.

One simulated world drives every file: an owner registry, a parcel registry whose parcel IDs
come in six unrelated formats (opaque strings), the zoning, fee and document rules, the
metadata of every uploaded attachment and 1,000 application records exported by the online
portal (JSON, one file per month) and the paper counter (XML, one file per month). Some
applications have several revisions, some are resubmitted under a second ID (the duplicates
the stage-3 correction batch links), some carry owner names that the registry writes
differently (case, spacing, Unicode normalization form) or that do not match at all.

The world is rebuilt from the named stream ``world`` by every generator (the applications,
the registries, the attachments, the stage-2 ordinance and the stage-3 correction batch), so
the files always agree. The cases that matter are the anchors of task.toml (records without
a ``file``), read here by name and written at fixed IDs: counter anchors use IDs 9101-9199,
portal anchors 12001-12099, above and between the filler's counter IDs (8001-) and portal
IDs (10001-). The edge fixture is the small hand-written world ``EDGE`` below.
"""

from __future__ import annotations

import datetime as dt
import json
import unicodedata
from decimal import ROUND_HALF_UP, Decimal
from typing import Any
from xml.sax.saxutils import escape, quoteattr

import benchlib

ANCHORS = (
    "revisions", "formats", "fee-rounding", "fee-due", "owner-names", "parcel-ids",
    "zoning", "documents", "parse-errors", "ordinance", "corrections", "duplicates",
)  # fmt: skip
MONTHS = 5  # January to May 2025
EFFECTIVE = "2025-04-01"

# permit type -> (base_fee, per_1000, minimum_fee, weight, valuation range in dollars)
PERMITS: dict[str, tuple[str, str, str, int, tuple[int, int]]] = {
    "addition": ("180.00", "9.50", "250.00", 10, (20_000, 250_000)),
    "deck": ("75.00", "6.25", "95.00", 14, (3_000, 40_000)),
    "demolition": ("120.00", "2.00", "150.00", 5, (5_000, 80_000)),
    "fence": ("35.00", "4.10", "45.00", 16, (800, 15_000)),
    "garage": ("110.00", "7.75", "140.00", 8, (8_000, 60_000)),
    "new_dwelling": ("450.00", "11.35", "900.00", 8, (150_000, 900_000)),
    "pool": ("140.00", "8.40", "175.00", 5, (15_000, 90_000)),
    "sign": ("50.00", "3.15", "60.00", 8, (500, 12_000)),
    "solar": ("60.00", "1.85", "80.00", 14, (6_000, 45_000)),
    "tenant_fitout": ("220.00", "8.90", "300.00", 12, (10_000, 300_000)),
}
REQUIRED: dict[str, list[str]] = {
    "addition": ["contractor_license", "site_plan", "structural_calc"],
    "deck": ["site_plan", "structural_calc"],
    "demolition": ["contractor_license", "demolition_notice", "site_plan"],
    "fence": ["site_plan"],
    "garage": ["site_plan", "structural_calc"],
    "new_dwelling": ["contractor_license", "energy_calc", "site_plan", "structural_calc", "survey"],
    "pool": ["contractor_license", "site_plan", "survey"],
    "sign": ["sign_drawing"],
    "solar": ["contractor_license", "electrical_plan"],
    "tenant_fitout": ["contractor_license", "electrical_plan", "floor_plan"],
}
ZONES: dict[str, tuple[int, list[str]]] = {
    "AG": (7, ["deck", "demolition", "fence", "garage", "new_dwelling", "solar"]),
    "C1": (10, ["demolition", "fence", "sign", "solar", "tenant_fitout"]),
    "C2": (8, ["addition", "demolition", "sign", "solar", "tenant_fitout"]),
    "I1": (5, ["addition", "demolition", "fence", "sign", "solar", "tenant_fitout"]),
    "MU": (10, ["addition", "deck", "demolition", "fence", "sign", "solar", "tenant_fitout"]),
    "R1": (30, ["addition", "deck", "demolition", "fence", "garage", "new_dwelling", "pool",
                "solar"]),
    "R2": (20, ["addition", "deck", "demolition", "fence", "garage", "new_dwelling", "solar"]),
    "R3": (10, ["addition", "demolition", "fence", "new_dwelling", "solar"]),
}  # fmt: skip
EXPIRING = {"contractor_license", "survey"}
# The ordinance of stage 2: fee rows and document lists it replaces (sign: listed, unchanged).
NEW_FEES = {
    "deck": ("85.00", "6.75", "110.00"),
    "fence": ("35.00", "4.10", "60.00"),
    "pool": ("150.00", "8.40", "175.00"),
    "solar": ("60.00", "1.85", "80.00"),
}
NEW_DOCUMENTS = {
    "fence": [],
    "sign": ["sign_drawing"],
    "solar": ["contractor_license", "electrical_plan", "structural_calc"],
}

FIRST = [
    "Aaron", "Amélie", "Bianca", "Björn", "Carmen", "Chloé", "Dmitri", "Elena", "Farah",
    "Gustavo", "Hannah", "Ines", "Jonas", "Kofi", "Léa", "Malik", "Nadia", "Olivier",
    "Priya", "Rafael", "Søren", "Tamsin", "Umar", "Valérie", "Wen", "Yusuf", "Zoë",
]  # fmt: skip
LAST = [
    "Abara", "Bergström", "Castillo", "Dubois", "Eriksen", "Fontaine", "García", "Haddad",
    "Ibáñez", "Jansen", "Kowalski", "Lindqvist", "Moreau", "Novák", "Okafor", "Peña",
    "Quinlan", "Rahman", "Sato", "Thorsen", "Ueda", "Varga", "Weiß", "Yilmaz", "Zhou",
]  # fmt: skip
STREETS = [
    "Elm Row", "Harbor Street", "Mill Lane", "Orchard Way", "Quarry Road", "Ridge Avenue",
    "Station Road", "Willow Court", "Canal Walk", "Foundry Lane", "Beacon Hill", "Cedar Close",
]  # fmt: skip
COMPANY = ["Holdings LLC", "Properties Inc.", "Real Estate Trust", "Development Corp."]
DESCRIPTIONS = {
    "addition": "single-storey rear addition", "deck": "rear deck with stairs",
    "demolition": "demolition of detached shed", "fence": "boundary fence, 1.8 m",
    "garage": "detached two-car garage", "new_dwelling": "new single-family dwelling",
    "pool": "in-ground pool with safety fence", "sign": "illuminated wall sign",
    "solar": "rooftop photovoltaic array", "tenant_fitout": "interior fit-out of tenant unit",
}  # fmt: skip


class World:
    """Everything the fixture files hold, as plain data."""

    def __init__(self) -> None:
        self.owners: dict[str, str] = {}  # owner_id -> name
        self.parcels: list[dict[str, str]] = []
        self.attachments: list[dict[str, Any]] = []
        self.records: list[dict[str, Any]] = []  # application records (several revisions)
        self.corrections: list[dict[str, Any]] = []
        self.links: list[dict[str, Any]] = []
        self._owner_ids: dict[str, str] = {}

    def owner_id(self, name: str) -> str:
        if name not in self._owner_ids:
            oid = f"OWN-{len(self._owner_ids) + 1:05d}"
            self._owner_ids[name] = oid
            self.owners[oid] = name
        return self._owner_ids[name]

    def add_parcel(self, parcel_id: str, zone: str, owner: str, address: str) -> None:
        self.parcels.append(
            {
                "parcel_id": parcel_id,
                "address": address,
                "zone": zone,
                "owner_id": self.owner_id(owner),
            }
        )


def money(value: Decimal) -> str:
    return str(value.quantize(Decimal("0.01")))


def fee_of(permit: str, valuation: Decimal) -> Decimal:
    base, rate, minimum, _, _ = PERMITS[permit]
    fee = (Decimal(base) + Decimal(rate) * valuation / 1000).quantize(
        Decimal("0.01"), ROUND_HALF_UP
    )
    return max(fee, Decimal(minimum))


def day(start: str, offset: int) -> str:
    return (dt.date.fromisoformat(start) + dt.timedelta(days=offset)).isoformat()


def weighted(rng, table: dict[str, tuple]) -> str:  # type: ignore[no-untyped-def]
    names = list(table)
    return rng.choices(names, weights=[table[n][0 if table is ZONES else 3] for n in names])[0]


# ---------------------------------------------------------------------------------------
# The filler world


def parcel_id_of(rng, used: set[str]) -> str:  # type: ignore[no-untyped-def]
    """A registered parcel ID in one of six formats, unique even ignoring letter case."""
    while True:
        kind = rng.choices(range(6), weights=[55, 15, 10, 5, 5, 10])[0]
        if kind == 0:
            pid = f"P-{rng.randrange(100000, 999000):06d}"
        elif kind == 1:
            pid = f"{rng.randrange(1, 400):04d}/{rng.randrange(1, 60):04d}"
        elif kind == 2:
            pid = f"EB.{rng.randrange(1000, 9999)}.{rng.randrange(1, 40):02d}"
        elif kind == 3:
            pid = f"LOT {rng.randrange(1, 90)} BLK {rng.randrange(1, 30)}"
        elif kind == 4:
            pid = f"rb-{rng.randrange(1, 9999):04d}{rng.choice('abcdefgh')}"
        else:
            pid = f"{rng.randrange(1000, 1999)}-{rng.randrange(10, 99)}-{rng.randrange(1, 999):04d}"
        if pid.casefold() not in used:
            used.add(pid.casefold())
            return pid


def person(rng) -> str:  # type: ignore[no-untyped-def]
    return f"{rng.choice(FIRST)} {rng.choice(LAST)}"


def owner_variant(rng, name: str) -> str:  # type: ignore[no-untyped-def]
    """The registered name as an applicant might write it (still a match)."""
    roll = rng.random()
    if roll < 0.35:
        return name.upper()
    if roll < 0.6:
        return "  ".join(name.split()) + rng.choice(["", " "])
    if roll < 0.8 and unicodedata.normalize("NFD", name) != name:
        return unicodedata.normalize("NFD", name)
    return name.lower()


class Filler:
    """The seeded bulk of the main fixture, around the anchors."""

    def __init__(self, rng, world: World, reserved: set[int], anchor_parcels: set[str]) -> None:  # type: ignore[no-untyped-def]
        self.rng = rng
        self.world = world
        self.reserved = reserved
        self.used = {p.casefold() for p in anchor_parcels}
        self.next_att = 1
        self.ids = {"counter": 8001, "portal": 10001}
        self.by_zone: dict[str, list[dict[str, str]]] = {z: [] for z in ZONES}
        self.registered: dict[str, str] = {}  # parcel_id -> owner_id

    def registry(self, parcels: int) -> None:
        rng = self.rng
        owners = []
        for n in range(780):
            name = person(rng)
            if n % 9 == 0:
                name = f"{rng.choice(LAST)} {rng.choice(STREETS).split()[0]} {rng.choice(COMPANY)}"
            owners.append(name)
        for n in range(parcels):
            pid = parcel_id_of(rng, self.used)
            zone = weighted(rng, ZONES)
            owner = owners[n % len(owners)] if n < len(owners) else rng.choice(owners)
            address = f"{rng.randrange(1, 400)} {rng.choice(STREETS)}"
            self.world.add_parcel(pid, zone, owner, address)
            self.by_zone[zone].append(self.world.parcels[-1])
            self.registered[pid] = self.world.parcels[-1]["owner_id"]

    def new_id(self, fmt: str) -> int:
        while self.ids[fmt] in self.reserved:
            self.ids[fmt] += 1
        self.ids[fmt] += 1
        return self.ids[fmt] - 1

    def attachment(self, doc_type: str, submitted: str, expired: bool = False) -> str:
        rng = self.rng
        aid = f"ATT-{self.next_att:06d}"
        self.next_att += 1
        expires = ""
        if doc_type in EXPIRING and (doc_type == "contractor_license" or rng.random() < 0.4):
            expires = day(submitted, -rng.randrange(1, 200) if expired else rng.randrange(0, 400))
        self.world.attachments.append({
            "attachment_id": aid, "doc_type": doc_type,
            "file_name": f"{doc_type}_{rng.randrange(1000, 9999)}.pdf",
            "pages": rng.randrange(1, 30), "uploaded_on": day(submitted, -rng.randrange(0, 5)),
            "expires_on": expires,
        })  # fmt: skip
        return aid

    def documents(self, permit: str, submitted: str) -> list[str]:
        rng = self.rng
        refs = []
        for doc_type in REQUIRED[permit]:
            roll = rng.random()
            if roll < 0.06:
                continue  # missing
            refs.append(self.attachment(doc_type, submitted, expired=roll < 0.1))
            if doc_type in EXPIRING and rng.random() < 0.08:
                refs.append(self.attachment(doc_type, submitted, expired=rng.random() < 0.5))
        if permit == "solar" and rng.random() < 0.5:  # roof load calculations, often provided
            refs.append(self.attachment("structural_calc", submitted))
        for _ in range(rng.choice([0, 0, 1, 2])):
            refs.append(self.attachment("photo", submitted))
        rng.shuffle(refs)
        return refs

    def application(self, fmt: str, month: int) -> dict[str, Any]:
        rng = self.rng
        permit = weighted(rng, PERMITS)
        submitted = dt.date(2025, month, rng.randrange(1, 29)).isoformat()
        allowed = [z for z, (_, types) in ZONES.items() if permit in types]
        zone = rng.choice(allowed) if rng.random() > 0.03 else rng.choice(list(ZONES))
        parcel = rng.choice(self.by_zone[zone])
        owner = self.world.owners[parcel["owner_id"]]
        roll = rng.random()
        if roll < 0.04:
            owner = person(rng)  # someone else
        elif roll < 0.2:
            owner = owner_variant(rng, owner)
        parcel_id = parcel["parcel_id"]
        if rng.random() < 0.012:
            parcel_id = parcel_id_of(rng, self.used)  # retired or mistyped: not registered
        lo, hi = PERMITS[permit][4]
        valuation = Decimal(rng.randrange(lo, hi)) + (
            Decimal(rng.randrange(0, 100)) / 100 if rng.random() < 0.5 else 0
        )
        fee = fee_of(permit, valuation)
        roll = rng.random()
        paid: Decimal | None = fee
        if roll < 0.06:
            paid = None
        elif roll < 0.13:
            paid = fee - Decimal(rng.randrange(1, 4000)) / 100
            paid = max(paid, Decimal("0.00"))
        elif roll < 0.17:
            paid = fee + Decimal(rng.randrange(1, 2000)) / 100
        closed = ""
        if rng.random() < 0.12:
            closed = min(day(submitted, rng.randrange(10, 90)), "2025-05-30")
        rec = {
            "fmt": fmt, "month": month, "id": self.new_id(fmt), "rev": 1,
            "submitted": submitted, "type": permit, "parcel": parcel_id, "owner": owner,
            "valuation": money(valuation), "paid": None if paid is None else money(paid),
            "docs": self.documents(permit, submitted), "closed": closed, "raw": {},
        }  # fmt: skip
        self.style(rec)
        return rec

    def style(self, rec: dict[str, Any]) -> None:
        """How each system happens to write its amounts (the same values)."""
        rng = self.rng
        raw = rec["raw"]
        if rec["fmt"] == "portal":
            for key in ("valuation", "paid"):
                if rec[key] is not None and rng.random() < 0.3:
                    number = Decimal(rec[key])
                    raw[key] = int(number) if number == int(number) else float(number)
        elif rng.random() < 0.5 and Decimal(rec["valuation"]) >= 1000:
            whole, cents = rec["valuation"].split(".")
            raw["valuation"] = f"{int(whole):,}.{cents}"

    def broken(self, rec: dict[str, Any]) -> None:
        """An unreadable field, as the systems sometimes export them."""
        rng = self.rng
        kind = rng.randrange(4)
        if kind == 0:
            rec["raw"]["submitted"] = "31.04.2025" if rec["fmt"] == "counter" else "2025-04-31"
        elif kind == 1:
            rec["raw"]["valuation"] = rng.choice(["TBD", "n/a", "12.500,00", "approx. 9000"])
        elif kind == 2:
            rec["raw"]["paid"] = rng.choice(["-", "paid", "40,00"])
        else:
            rec["type"] = ""

    def revise(self, rec: dict[str, Any], rev: int) -> dict[str, Any]:
        """A later revision: a complete record in a later (or the same) month's export."""
        rng = self.rng
        new = json.loads(json.dumps(rec))
        new["rev"] = rev
        new["month"] = min(MONTHS, rec["month"] + rng.randrange(0, 3))
        if rng.random() < 0.3:
            new["fmt"] = "portal" if rec["fmt"] == "counter" else "counter"
        new["raw"] = {}
        roll = rng.random()
        if roll < 0.35:
            new["valuation"] = money(Decimal(rec["valuation"]) * Decimal("1.1"))
        elif roll < 0.6:
            new["docs"] = rec["docs"] + [
                self.attachment(REQUIRED[rec["type"]][0], rec["submitted"])
            ]
        elif roll < 0.8 and rec["parcel"] in self.registered:
            new["owner"] = self.world.owners[self.registered[rec["parcel"]]]
        else:
            new["docs"] = rec["docs"][1:]
        self.style(new)
        return new

    def build(self, records: int, anchor_records: int) -> None:
        rng = self.rng
        world = self.world
        current: list[dict[str, Any]] = []
        budget = records - anchor_records
        revisions = 56
        duplicates = 14
        plain = budget - revisions - duplicates
        for n in range(plain):
            fmt = "portal" if rng.random() < 0.58 else "counter"
            month = 1 + n * MONTHS // plain
            rec = self.application(fmt, month)
            if rng.random() < 0.012:
                self.broken(rec)
            current.append(rec)
        world.records.extend(current)
        candidates = [r for r in current if not r["raw"].get("submitted") and r["type"]]
        picked = rng.sample(candidates, revisions + duplicates)
        made = 0
        for n, rec in enumerate(picked[: revisions - 8]):
            world.records.append(self.revise(rec, 2))
            made += 1
            if n < 8:
                world.records.append(self.revise(world.records[-1], 3))
                made += 1
        assert made == revisions, made
        self.duplicates(picked[revisions - 8 :][:duplicates])
        self.corrections(current)

    def duplicates(self, originals: list[dict[str, Any]]) -> None:
        """Resubmissions under a new ID, and the links the clerks noted for them."""
        rng = self.rng
        for n, rec in enumerate(originals):
            dup = json.loads(json.dumps(rec))
            dup["fmt"] = "portal" if rec["fmt"] == "counter" else "counter"
            dup["id"] = self.new_id(dup["fmt"])
            dup["rev"] = 1
            dup["month"] = min(MONTHS, rec["month"] + 1)
            dup["raw"] = {}
            dup["docs"] = [d for d in rec["docs"] if rng.random() < 0.5] + [
                self.attachment(rng.choice(REQUIRED[rec["type"]]), rec["submitted"])
            ]
            dup["paid"] = rng.choice([None, "0.00", money(Decimal("25.00"))])
            if n == len(originals) - 1:  # the clerk linked an application on another parcel
                dup["parcel"] = rng.choice(self.world.parcels)["parcel_id"]
            self.style(dup)
            self.world.records.append(dup)
            pair = [rec["id"], dup["id"]]
            rng.shuffle(pair)
            self.world.links.append({"application_id": pair[0], "duplicate_of": pair[1]})

    def corrections(self, current: list[dict[str, Any]]) -> None:
        """Owner corrections: most fix a mismatched owner, a few are stale."""
        rng = self.rng
        registry = {p["parcel_id"]: self.world.owners[p["owner_id"]] for p in self.world.parcels}
        revised = {r["id"] for r in self.world.records if r["rev"] > 1}
        linked = {i for link in self.world.links for i in link.values()}
        pool = [
            r for r in current
            if r["parcel"] in registry and r["id"] not in revised | linked and r["type"]
            and " ".join(r["owner"].casefold().split())
            != " ".join(registry[r["parcel"]].casefold().split())
        ]  # fmt: skip
        for n, rec in enumerate(rng.sample(pool, min(22, len(pool)))):
            stale = n % 6 == 5
            self.world.corrections.append({
                "application_id": rec["id"], "revision": 1 if stale else 2,
                "owner_name": registry[rec["parcel"]],
                "reason": "deed checked at the registry" if not stale else "duplicate entry",
            })  # fmt: skip


# ---------------------------------------------------------------------------------------
# Anchors


def anchor_records(ctx: benchlib.SeedContext) -> list[dict[str, Any]]:
    return [dict(r, anchor=name) for name in ANCHORS for r in ctx.anchor(name)]


def add_anchor(world: World, rec: dict[str, Any]) -> None:
    kind = rec["kind"]
    if kind == "parcel":
        world.add_parcel(rec["id"], rec["zone"], rec["owner"], rec.get("address", "1 Anchor Row"))
    elif kind == "correction":
        world.corrections.append(
            {k: rec[k] for k in ("application_id", "revision", "owner_name", "reason")}
        )
    elif kind == "link":
        world.links.append(
            {"application_id": rec["application_id"], "duplicate_of": rec["duplicate_of"]}
        )
    elif kind == "app":
        refs = []
        for doc in rec.get("docs", []):
            if isinstance(doc, str):
                refs.append(doc)  # a reference only (unknown, or declared by another record)
                continue
            refs.append(doc["id"])
            world.attachments.append({
                "attachment_id": doc["id"], "doc_type": doc["type"],
                "file_name": f"{doc['type']}_{doc['id'][-4:]}.pdf", "pages": 3,
                "uploaded_on": rec["submitted"], "expires_on": doc.get("expires", ""),
            })  # fmt: skip
        world.records.append({
            "fmt": rec["fmt"], "month": rec["month"], "id": rec["id"], "rev": rec.get("rev", 1),
            "submitted": rec["submitted"], "type": rec["type"], "parcel": rec["parcel"],
            "owner": rec["owner"], "valuation": rec["valuation"], "paid": rec.get("paid"),
            "docs": refs, "closed": rec.get("closed", ""), "raw": rec.get("raw", {}),
            "omit": rec.get("omit", []),
        })  # fmt: skip
    else:
        raise ValueError(f"anchor {rec['anchor']}: unknown kind {kind!r}")


_WORLDS: dict[str, World] = {}


def world_of(ctx: benchlib.SeedContext) -> World:
    """The world of this fixture, built once per process."""
    if ctx.fixture == "edge":
        key = "edge"
    else:
        anchors = anchor_records(ctx)
        key = json.dumps(anchors, sort_keys=True)
    if key not in _WORLDS:
        _WORLDS[key] = (
            edge_world() if ctx.fixture == "edge" else main_world(ctx.stream("world"), anchors)
        )
    return _WORLDS[key]


def main_world(rng, anchors: list[dict[str, Any]]) -> World:  # type: ignore[no-untyped-def]
    world = World()
    apps = [r for r in anchors if r["kind"] == "app"]
    parcels = {r["id"] for r in anchors if r["kind"] == "parcel"} | {r["parcel"] for r in apps}
    filler = Filler(rng, world, {r["id"] for r in apps}, parcels)
    filler.registry(1200)
    for rec in anchors:
        add_anchor(world, rec)
    filler.build(1000, len(apps))
    return world


# The edge fixture: a syntactically valid parcel ID the registry does not hold.
EDGE_PARCELS = [
    ("EB.2291.14", "R1", "Marta Lindqvist"),
    ("LOT 4 BLK 2", "R2", "Oskar Brandt"),
    ("P-204410", "C1", "Quarry Road Properties Inc."),
]
EDGE_APPS: list[dict[str, Any]] = [
    # registered, unusual ID: approved
    {"fmt": "portal", "month": 2, "id": 31001, "submitted": "2025-02-11", "type": "deck",
     "parcel": "LOT 4 BLK 2", "owner": "Oskar Brandt", "valuation": "8000.00", "paid": "125.00",
     "docs": [("site_plan", ""), ("structural_calc", "")]},
    # the registered EB.2291.14 written in lower case: another, unregistered parcel ID
    {"fmt": "portal", "month": 3, "id": 31002, "submitted": "2025-03-04", "type": "deck",
     "parcel": "eb.2291.14", "owner": "Marta Lindqvist", "valuation": "8000.00", "paid": "125.00",
     "docs": [("site_plan", ""), ("structural_calc", "")]},
    # an ID no registry format produces, with complete documents and the fee paid
    {"fmt": "counter", "month": 3, "id": 9301, "submitted": "2025-03-12", "type": "sign",
     "parcel": "EAST-QUARRY/7 (NEW)", "owner": "Quarry Road Properties Inc.",
     "valuation": "4000.00", "paid": "62.60", "docs": [("sign_drawing", "")]},
    # absent, with a missing document and an owner no one registered
    {"fmt": "counter", "month": 4, "id": 9302, "submitted": "2025-04-02", "type": "pool",
     "parcel": "P-204411", "owner": "Nobody Known", "valuation": "30000.00",
     "docs": [("site_plan", ""), ("contractor_license", "2026-01-31")]},
    # registered parcel, everything valid: approved
    {"fmt": "counter", "month": 4, "id": 9303, "submitted": "2025-04-07", "type": "sign",
     "parcel": "P-204410", "owner": "QUARRY ROAD  PROPERTIES INC.", "valuation": "4000.00",
     "paid": "62.60", "docs": [("sign_drawing", "")]},
]  # fmt: skip


def edge_world() -> World:
    world = World()
    for pid, zone, owner in EDGE_PARCELS:
        world.add_parcel(pid, zone, owner, "2 Edge Lane")
    number = 1
    for app in EDGE_APPS:
        refs = []
        for doc_type, expires in app["docs"]:
            aid = f"ATT-E{number:03d}"
            number += 1
            refs.append(aid)
            world.attachments.append({
                "attachment_id": aid, "doc_type": doc_type, "file_name": f"{doc_type}.pdf",
                "pages": 2, "uploaded_on": app["submitted"], "expires_on": expires,
            })  # fmt: skip
        world.records.append(dict(app, rev=1, docs=refs, closed="", raw={}, paid=app.get("paid")))
    return world


# ---------------------------------------------------------------------------------------
# Writers


def counter_date(iso: str) -> str:
    y, m, d = iso.split("-")
    return f"{d}.{m}.{y}"


def portal_entry(rec: dict[str, Any]) -> dict[str, Any]:
    raw, omit = rec["raw"], rec.get("omit", [])
    entry: dict[str, Any] = {
        "application_id": rec["id"],
        "revision": rec["rev"],
        "submitted": raw.get("submitted", rec["submitted"]),
        "permit": {"type": rec["type"]},
        "site": {"parcel_id": raw.get("parcel", rec["parcel"]), "address": "see registry"},
        "owner": {"name": raw.get("owner", rec["owner"])},
        "applicant": {
            "name": rec["owner"].strip() or "Counter Clerk",
            "email": f"a{rec['id']}@mail.example",
        },
        "project": {
            "description": DESCRIPTIONS.get(rec["type"], "works"),
            "valuation": raw.get("valuation", rec["valuation"]),
        },
        "documents": rec["docs"],
        "closed_on": raw.get("closed", rec["closed"] or None),
    }
    if rec["paid"] is not None or "paid" in raw:
        entry["payment"] = {"amount": raw.get("paid", rec["paid"]), "method": "card"}
    if "submitted" in omit:
        del entry["submitted"]
    if "parcel" in omit:
        del entry["site"]["parcel_id"]
    if "owner" in omit:
        del entry["owner"]
    return entry


def counter_entry(rec: dict[str, Any]) -> str:
    raw, omit = rec["raw"], rec.get("omit", [])

    def element(tag: str, text: str) -> str:
        return f"    <{tag}>{escape(str(text))}</{tag}>\n"

    out = f'  <application id="{rec["id"]}" revision="{rec["rev"]}">\n'
    out += element("received", raw.get("submitted", counter_date(rec["submitted"])))
    out += element("permit_type", rec["type"])
    if "parcel" not in omit:
        out += element("parcel", raw.get("parcel", rec["parcel"]))
    if "owner" not in omit:
        out += element("owner", raw.get("owner", rec["owner"]))
    out += element("valuation", raw.get("valuation", rec["valuation"]))
    if rec["paid"] is not None or "paid" in raw:
        out += element("fee_paid", raw.get("paid", rec["paid"]))
    out += "    <attachments>\n"
    out += "".join(f"      <attachment ref={quoteattr(ref)}/>\n" for ref in rec["docs"])
    out += "    </attachments>\n"
    if rec["closed"] or "closed" in raw:
        out += element(
            "closed", raw.get("closed", counter_date(rec["closed"]) if rec["closed"] else "")
        )
    return out + "  </application>\n"


def by_file(world: World, fmt: str) -> dict[int, list[dict[str, Any]]]:
    files: dict[int, list[dict[str, Any]]] = {}
    for rec in world.records:
        if rec["fmt"] == fmt:
            files.setdefault(rec["month"], []).append(rec)
    for recs in files.values():
        recs.sort(key=lambda r: (r["submitted"], r["id"], r["rev"]))
    return files


def applications(ctx: benchlib.SeedContext) -> None:
    """inputs/applications/portal/*.json and inputs/applications/counter/*.xml."""
    world = world_of(ctx)
    for month, recs in sorted(by_file(world, "portal").items()):
        doc = {
            "export": "eplan-portal",
            "period": f"2025-{month:02d}",
            "applications": [portal_entry(r) for r in recs],
        }
        text = json.dumps(doc, indent=2, ensure_ascii=False) + "\n"
        ctx.write_text(f"inputs/applications/portal/portal-2025-{month:02d}.json", text)
    for month, recs in sorted(by_file(world, "counter").items()):
        text = '<?xml version="1.0" encoding="UTF-8"?>\n'
        text += f'<counter_export office="Eastbrook permit counter" period="2025-{month:02d}">\n'
        text += "".join(counter_entry(r) for r in recs) + "</counter_export>\n"
        ctx.write_text(f"inputs/applications/counter/counter-2025-{month:02d}.xml", text)


def registry(ctx: benchlib.SeedContext) -> None:
    """inputs/registry/parcels.csv and owners.csv."""
    world = world_of(ctx)
    ctx.write_csv(
        "inputs/registry/parcels.csv",
        ["parcel_id", "address", "zone", "owner_id"],
        sorted(world.parcels, key=lambda p: p["parcel_id"]),
    )
    ctx.write_csv(
        "inputs/registry/owners.csv",
        ["owner_id", "name"],
        [{"owner_id": k, "name": v} for k, v in sorted(world.owners.items())],
    )


def rules(ctx: benchlib.SeedContext) -> None:
    """inputs/rules/zoning.json, fees.csv and documents.csv (the same in both fixtures)."""
    ctx.write_text(
        "inputs/rules/zoning.json",
        json.dumps({"zones": {z: types for z, (_, types) in ZONES.items()}}, indent=2) + "\n",
    )
    ctx.write_csv(
        "inputs/rules/fees.csv",
        ["permit_type", "base_fee", "per_1000", "minimum_fee"],
        [
            {"permit_type": t, "base_fee": b, "per_1000": r, "minimum_fee": m}
            for t, (b, r, m, _, _) in PERMITS.items()
        ],
    )
    ctx.write_csv(
        "inputs/rules/documents.csv",
        ["permit_type", "doc_type"],
        [{"permit_type": t, "doc_type": d} for t, docs in REQUIRED.items() for d in docs],
    )


def attachments(ctx: benchlib.SeedContext) -> None:
    """inputs/attachments.csv: the metadata of every uploaded attachment."""
    world = world_of(ctx)
    ctx.write_csv(
        "inputs/attachments.csv",
        ["attachment_id", "doc_type", "file_name", "pages", "uploaded_on", "expires_on"],
        sorted(world.attachments, key=lambda a: a["attachment_id"]),
    )


def ordinance(ctx: benchlib.SeedContext) -> None:
    """inputs/ordinance_update.json (stage 2)."""
    update = {
        "ordinance": "2025-14",
        "title": "Building permit fees and submittal requirements, amendment",
        "effective_date": EFFECTIVE,
        "fees": [
            {"permit_type": t, "base_fee": b, "per_1000": r, "minimum_fee": m}
            for t, (b, r, m) in NEW_FEES.items()
        ],
        "documents": NEW_DOCUMENTS,
    }
    ctx.write_text("inputs/ordinance_update.json", json.dumps(update, indent=2) + "\n")


def corrections(ctx: benchlib.SeedContext) -> None:
    """inputs/correction_batch/owner_corrections.csv and duplicate_links.json (stage 3)."""
    world = world_of(ctx)
    rows, links = world.corrections, world.links  # the edge batch is empty
    ctx.write_csv(
        "inputs/correction_batch/owner_corrections.csv",
        ["application_id", "revision", "owner_name", "reason"],
        rows,
    )
    doc = {"batch": "2025-06-02", "links": [dict(link, noted_by="intake desk") for link in links]}
    ctx.write_text(
        "inputs/correction_batch/duplicate_links.json",
        json.dumps(doc, indent=2, ensure_ascii=False) + "\n",
    )
