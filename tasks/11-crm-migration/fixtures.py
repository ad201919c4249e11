"""Fixture generators of task 11: a schema-version-1 CRM database and a contact import.

``crm_database`` writes ``workspace/crm.db`` with the standard library's sqlite3: the
database is built in memory, serialized and written as bytes, so the file is
byte-deterministic (fixed page size, no journal or WAL file, no mtime, mode 644 from
``ctx.write_bytes``). The four header bytes at offset 96 (SQLITE_VERSION_NUMBER, the
library that last wrote the file: informational only, SQLite never reads it back) are pinned
to a constant, so the lock holds on any SQLite build. The judge never compares bytes: it
reads the candidate's database through SQL (schema, rows, PRAGMA user_version).

The main database holds 240 old contacts; the anchor contacts below sit at fixed IDs and
pin the named cases; every other ID is seeded filler, a few of them duplicate pairs whose
emails differ only by case and surrounding spaces (always pairs, with distinct notes: the
edge fixture alone has three contacts with one email and a repeated note). Contact 240, the
highest ID, is a duplicate, so the first imported contact gets ID 240 again.

``new_contacts`` writes the stage-2 ``inputs/new_contacts.csv`` (main fixture) or a
header-only file (edge fixture).
"""

from __future__ import annotations

import sqlite3

import benchlib

V1_SCHEMA = """
CREATE TABLE contacts (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    email TEXT,
    phone TEXT,
    notes TEXT
);
"""
OLD_CONTACTS = 240
SQLITE_VERSION_PIN = 3040001

FIRST = [
    "Aisha", "Ben", "Chloe", "Daniel", "Elena", "Farid", "Greta", "Hugo", "Ines", "Jonas",
    "Kofi", "Laura", "Marco", "Nadia", "Oscar", "Paula", "Quentin", "Rosa", "Samir", "Tara",
    "Umar", "Vera", "Wen", "Ximena", "Yusuf", "Zara",
]  # fmt: skip
LAST = [
    "Abbott", "Brennan", "Castillo", "Dubois", "Eriksen", "Fontaine", "Gallo", "Haddad",
    "Ibarra", "Jansen", "Kowalski", "Lindqvist", "Moreno", "Novak", "Okafor", "Petrov",
    "Quinn", "Rahman", "Sato", "Tanaka", "Ueda", "Varga", "Weber", "Yilmaz", "Zhou",
]  # fmt: skip
DOMAINS = ["example.com", "example.org", "mail.example", "corp.example.net"]
NOTES = [
    "Prefers phone calls.", "Newsletter subscriber.", "Met at the trade fair.",
    "Invoice by post.", "Asked for a catalogue.", "Referred by a customer.",
    "Do not call on Mondays.", "Speaks German and French.", "Wholesale account.",
    "Birthday in May.", "Interested in the premium plan.", "Left a review.",
]  # fmt: skip

# Anchor contacts of the main database: (id, name, email, phone, notes).
ANCHORS: list[tuple[int, str, str | None, str | None, str | None]] = [
    # case and space duplicates: 118 merges into 17; 17's trimmed email text is kept
    (17, "Ana Silva", "  Ana.Silva@example.com", "+1 (415) 555-0142", "Met at the spring fair."),
    (118, "Ana  Silva ", "ana.silva@EXAMPLE.com ", "(415) 555-0199", "  Prefers email.  "),
    # casefold: 'ß' folds to 'ss' (str.lower() keeps it), so 161 merges into 33
    (33, "Johann Strauß", "johann.strauß@wien.example", None, ""),
    (161, "JOHANN STRAUSS", "JOHANN.STRAUSS@WIEN.EXAMPLE", "+43 1 5120 0000", "Old account."),
    # no email: same name and phone, never merged
    (45, "Carlos Mendes", "   ", "+55 11 91234-5678", "Prefers WhatsApp."),
    (46, "Carlos Mendes", None, "+55 (11) 91234 5678", None),
    # the same phone written two ways in a duplicate pair: one phone method
    (52, "Mei Chen", "mei.chen@example.org", "(212) 555-0107", "VIP"),
    (203, "Mei Chen", "MEI.CHEN@example.org ", "212-555-0107", ""),
    # phone formats: '00' prefix kept as digits, '(0)' digits kept, a phone without digits,
    # a '+' that is not the first character (dropped), a lone '+' (no phone)
    (60, "Oliver Grant", "oliver.grant@example.co.uk", "00 44 20 7946 0958", None),
    (61, " Priya Raman ", "priya.raman@example.com", " +44 (0)20 7946 0011 ", "Remote."),
    (62, "Tom Becker", "tom.becker@example.de", "n/a", "  "),
    (63, "Léa Roux", "lea.roux@example.fr", "(+33) 1 42 68 53 00", "Paris office."),
    (64, "Ravi Kumar", "ravi.kumar@example.in", "+", "Call back."),
    # the highest ID is a duplicate of 77: after the merge the highest ID is 239
    (77, "Tomas Ortega", "Tomas.Ortega@example.net", "555 0100", ""),
    (240, "Tomás Ortega", " tomas.ortega@example.net", None, "Call after 5pm."),
    # no phone and no notes: the import gives it both
    (90, "Grace Okafor", "grace.okafor@example.com", None, None),
]

# The edge database: contacts 2, 4 and 5 share one normalized email; 2 and 5 have the same
# note, 5's with other surrounding spaces.
EDGE: list[tuple[int, str, str | None, str | None, str | None]] = [
    (1, "Noah Reed", "noah.reed@example.com", "555-0110", "Supplier."),
    (2, "Ivy Park", "ivy.park@example.com", "555-0101", "Board member."),
    (3, "Zoe Lam", None, "555-0199", None),
    (4, "IVY PARK", " Ivy.Park@Example.com", "(555) 0102", "Prefers mornings."),
    (5, "Ivy P.", "IVY.PARK@EXAMPLE.COM ", "555 0101", " Board member. "),
    (6, "Sam Ortiz", "sam.ortiz@example.com", None, ""),
]

# The stage-2 import: anchor rows at fixed 1-based data-row numbers; filler around them.
IMPORT_ROWS = 48
IMPORT_ANCHORS: dict[int, tuple[str, str, str, str]] = {
    3: ("Ana Silva-Moreau", " ANA.SILVA@example.com", "(415) 555-0199", "Moved to Lyon."),
    6: ("Priya Nair", "", "+91 98765 43210", ""),
    9: ("", "johann.strauss@wien.example", "", "Renewed in March."),
    12: ("Nobody", "   ", "", "no contact details"),
    15: ("Lena Fischer", "lena.fischer@example.de", "030 1234567", "First contact."),
    19: ("Tomas Ortega", "Tomas.Ortega@Example.net ", "", "Call after 5pm."),
    23: ("Grace Okafor", "grace.okafor@example.com", "+234 803 555 0101", "Met at the gala."),
    27: ("Ghost", "", "n/a", ""),
    31: ("Lena Fischer", "LENA.FISCHER@example.de", "+49 30 1234567", "Second visit."),
    36: ("Ana Silva", "ana.silva@example.com", "", ""),
    40: ("Carlos Mendes", "", "+55 11 91234-5678", "New number soon."),
}


def _email(rng, first: str, last: str) -> str:
    return f"{first}.{last}@{rng.choice(DOMAINS)}".lower()


def _phone(rng) -> str | None:
    kind = rng.randrange(6)
    a, b, c = rng.randrange(200, 990), rng.randrange(100, 1000), rng.randrange(10000)
    if kind == 0:
        return f"+1 ({a}) {b}-{c:04d}"
    if kind == 1:
        return f"{a}-{b}-{c:04d}"
    if kind == 2:
        return f"({a}) {b} {c:04d}"
    if kind == 3:
        return f"+44 20 {b}{c % 10} {c:04d}"
    return rng.choice([None, ""])


def _variant(rng, email: str) -> str:
    """The same address with other letter case and surrounding spaces."""
    local, domain = email.split("@")
    styles = [local.upper() + "@" + domain, local.title() + "@" + domain.upper()]
    return rng.choice(["", " ", "  "]) + rng.choice(styles) + rng.choice([" ", "  ", "\t"])


def _main_contacts(rng) -> list[tuple[int, str, str | None, str | None, str | None]]:
    fixed = {a[0]: a for a in ANCHORS}
    rows: dict[int, tuple[int, str, str | None, str | None, str | None]] = {}
    used: set[str] = {"ana.silva", "tomas.ortega", "grace.okafor", "mei.chen"}
    originals: list[int] = []
    for cid in range(1, OLD_CONTACTS + 1):
        if cid in fixed:
            rows[cid] = fixed[cid]
            continue
        if originals and cid > 120 and rng.random() < 0.12:
            source = rows[originals.pop(rng.randrange(len(originals)))]
            note = rng.choice(["", None, *[n for n in NOTES if n != (source[4] or "")]])
            rows[cid] = (cid, source[1].upper(), _variant(rng, source[2] or ""), _phone(rng), note)
            continue
        first, last = rng.choice(FIRST), rng.choice(LAST)
        while f"{first}.{last}".lower() in used:
            first, last = rng.choice(FIRST), rng.choice(LAST)
        used.add(f"{first}.{last}".lower())
        roll = rng.random()
        email: str | None = _email(rng, first, last)
        if roll < 0.06:
            email = None
        elif roll < 0.1:
            email = rng.choice(["", "  "])
        note = rng.choice([None, "", "", *NOTES])
        rows[cid] = (cid, f"{first} {last}", email, _phone(rng), note)
        if email and cid < 200:
            originals.append(cid)
    return [rows[cid] for cid in sorted(rows)]


def _database(contacts: list[tuple[int, str, str | None, str | None, str | None]]) -> bytes:
    conn = sqlite3.connect(":memory:")
    try:
        conn.execute("PRAGMA page_size = 4096")
        conn.executescript(V1_SCHEMA)
        conn.executemany("INSERT INTO contacts VALUES (?, ?, ?, ?, ?)", contacts)
        conn.commit()
        conn.execute("PRAGMA user_version = 1")
        conn.commit()
        conn.execute("VACUUM")
        image = bytearray(conn.serialize())
    finally:
        conn.close()
    image[96:100] = SQLITE_VERSION_PIN.to_bytes(4, "big")
    return bytes(image)


def crm_database(ctx: benchlib.SeedContext) -> None:
    """workspace/crm.db at schema version 1 (main: 240 contacts; edge: six)."""
    contacts = EDGE if ctx.fixture == "edge" else _main_contacts(ctx.stream("contacts"))
    ctx.write_bytes("workspace/crm.db", _database(contacts))


def new_contacts(ctx: benchlib.SeedContext) -> None:
    """inputs/new_contacts.csv: the stage-2 import (header only in the edge fixture)."""
    header = ["name", "email", "phone", "notes"]
    if ctx.fixture == "edge":
        ctx.write_csv("inputs/new_contacts.csv", header, [])
        return
    rng = ctx.rng
    existing = [c for c in _main_contacts(ctx.stream("contacts")) if c[2] and c[2].strip()]
    anchor_ids = {a[0] for a in ANCHORS}
    rows = []
    for number in range(1, IMPORT_ROWS + 1):
        if number in IMPORT_ANCHORS:
            name, email, phone, note = IMPORT_ANCHORS[number]
        elif number % 3 == 1:  # an update of a filler contact
            _, old_name, old_email, _, _ = rng.choice(
                [c for c in existing if c[0] not in anchor_ids]
            )
            email = _variant(rng, old_email.strip().lower()) if rng.random() < 0.5 else old_email
            name = rng.choice(["", old_name, old_name + " Jr."])
            phone = _phone(rng) or ""
            note = rng.choice(["", *NOTES])
        else:  # a new contact
            first, last = rng.choice(FIRST), rng.choice(LAST)
            name = f"{first} {last}"
            email = f"{first[0]}{last}{number}@new.example".lower()
            if rng.random() < 0.2:
                email = ""
            phone = _phone(rng) or ""
            if not email and not phone:
                phone = f"+1 555 01{number:02d}"
            note = rng.choice(["", "", *NOTES])
        rows.append({"name": name, "email": email, "phone": phone, "notes": note})
    ctx.write_csv("inputs/new_contacts.csv", header, rows)
