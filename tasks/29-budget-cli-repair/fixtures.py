"""Fixture generators of task 29: a household's budget database and bank statements.

One simulated ledger (three accounts at two banks, 2025-04-01 to 2025-06-04) is rebuilt
from the named stream ``ledger`` by every generator that needs it:

- ``budget_database`` writes ``workspace/budget.db`` at schema version 1: categories, the
  ordered category rules, the budgets of April, May and June 2025, and the transactions
  imported before (every account from 2025-04-01; alpen-giro through 2025-05-06, alpen-save
  through 2025-04-30, harbor-card through 2025-05-02). The database is built in memory with
  the standard library's sqlite3, serialized and written as bytes, so the file is
  byte-deterministic; the informational SQLITE_VERSION_NUMBER header field is pinned.
- ``statements`` writes ``inputs/accounts.json`` and the five statement files in
  ``inputs/statements/``: ``alpen`` files (Windows-1252, ``;``, CR LF, DD.MM.YYYY, decimal
  comma, debit and credit columns) and ``harbor`` files (UTF-8, ``,``, LF, MM/DD/YYYY,
  card-side signs). Statements overlap each other and the database.
- ``splits_csv`` writes the stage-2 ``inputs/splits.csv``.

The edge fixture (``ctx.fixture == "edge"``) is a small book of its own whose splits file
holds one split that misses its transaction's amount by one cent between two valid ones.

Anchors are the named entries of ANCHOR_ROWS and SPLIT_ANCHORS; task.toml's rule inventory
refers to them by name. Filler never reuses an anchor's source id.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
import sqlite3
import unicodedata
from decimal import Decimal

import benchlib

SQLITE_VERSION_PIN = 3040001
V1_SCHEMA = """
CREATE TABLE categories (
    name TEXT PRIMARY KEY,
    kind TEXT NOT NULL CHECK (kind IN ('income', 'spending', 'transfer'))
);
CREATE TABLE category_rules (
    id INTEGER PRIMARY KEY,
    priority INTEGER NOT NULL UNIQUE,
    pattern TEXT NOT NULL,
    category TEXT NOT NULL REFERENCES categories(name)
);
CREATE TABLE budgets (
    month TEXT NOT NULL,
    category TEXT NOT NULL REFERENCES categories(name),
    amount TEXT NOT NULL,
    PRIMARY KEY (month, category)
);
CREATE TABLE transactions (
    id INTEGER PRIMARY KEY,
    source_account TEXT NOT NULL,
    source_id TEXT NOT NULL,
    posted_on TEXT NOT NULL,
    description TEXT NOT NULL,
    amount TEXT NOT NULL,
    category TEXT NOT NULL REFERENCES categories(name)
);
"""

CATEGORIES = [
    ("Salary", "income"), ("Interest", "income"),
    ("Housing", "spending"), ("Utilities", "spending"), ("Groceries", "spending"),
    ("Dining", "spending"), ("Transport", "spending"), ("Subscriptions", "spending"),
    ("Shopping", "spending"), ("Clothing", "spending"), ("Health", "spending"),
    ("Gifts", "spending"), ("Household", "spending"), ("Education", "spending"),
    ("Personal care", "spending"), ("Travel", "spending"), ("Uncategorized", "spending"),
    ("Transfer", "transfer"), ("Card payment", "transfer"),
]  # fmt: skip

# (id, priority, pattern, category): ids in the order the rules were added over the years,
# which is not their priority order ("AMAZON" was added long before "AMAZON PRIME").
RULES = [
    (1, 70, "BILLA", "Groceries"), (2, 60, "AMAZON", "Shopping"), (3, 20, "MIETE", "Housing"),
    (4, 10, "GEHALT", "Salary"), (5, 85, "UBER", "Transport"), (6, 72, "HOFER", "Groceries"),
    (7, 45, "SPOTIFY", "Subscriptions"), (8, 5, "UMBUCHUNG", "Transfer"),
    (9, 71, "SPAR", "Groceries"), (10, 40, "AMAZON PRIME", "Subscriptions"),
    (11, 82, "Uber Eats", "Dining"), (12, 105, "HARBOR CARD", "Card payment"),
    (13, 106, "PAYMENT RECEIVED", "Card payment"), (14, 25, "WIEN ENERGIE", "Utilities"),
    (15, 30, "A1 Telekom", "Utilities"), (16, 73, "Großmann", "Groceries"),
    (17, 80, "Café Central", "Dining"), (18, 81, "RESTAURANT", "Dining"),
    (19, 86, "ÖBB", "Transport"), (20, 87, "WIENER LINIEN", "Transport"),
    (21, 90, "ZALANDO", "Clothing"), (22, 91, "H&M", "Clothing"),
    (23, 95, "APOTHEKE", "Health"), (24, 15, "HABENZINSEN", "Interest"),
    (25, 50, "NETFLIX", "Subscriptions"), (26, 61, "AMZN", "Shopping"),
    (27, 74, "LIDL", "Groceries"), (29, 92, "VHS Wien", "Education"),
]  # fmt: skip

# Budgets, inserted month by month: May's rows come before June's planned ones.
BUDGETS = {
    "2025-04": {"Housing": "1150.00", "Utilities": "150.00", "Groceries": "420.00",
                "Dining": "160.00", "Transport": "90.00", "Subscriptions": "35.00",
                "Shopping": "150.00", "Clothing": "80.00", "Health": "40.00"},
    "2025-05": {"Housing": "1150.00", "Utilities": "160.00", "Groceries": "450.00",
                "Dining": "180.00", "Transport": "90.00", "Subscriptions": "35.00",
                "Shopping": "150.00", "Clothing": "100.00", "Health": "40.00",
                "Gifts": "50.00", "Household": "60.00", "Education": "30.00",
                "Travel": "200.00"},
    "2025-06": {"Housing": "1150.00", "Utilities": "140.00", "Groceries": "480.00",
                "Dining": "150.00", "Transport": "110.00", "Subscriptions": "40.00",
                "Shopping": "120.00", "Clothing": "60.00", "Health": "45.00",
                "Gifts": "25.00", "Household": "75.00", "Education": "0.00",
                "Travel": "350.00"},
}  # fmt: skip

STATEMENTS = {
    "alpen-giro": [
        "alpen-giro_2025-04-07_2025-05-06.csv",
        "alpen-giro_2025-05-01_2025-06-02.csv",
    ],
    "alpen-save": ["alpen-save_2025-05.csv"],
    "harbor-card": [
        "harbor-card_2025-05-01_2025-05-20.csv",
        "harbor-card_2025-05-15_2025-06-04.csv",
    ],
}
ACCOUNTS = [
    {"id": "alpen-giro", "name": "Alpenbank Girokonto", "dialect": "alpen"},
    {"id": "alpen-save", "name": "Alpenbank Sparkonto", "dialect": "alpen"},
    {"id": "harbor-card", "name": "Harbor Visa Card", "dialect": "harbor"},
]
# (first, last) booked or posted date each statement file covers.
COVERS = {
    "alpen-giro_2025-04-07_2025-05-06.csv": ("2025-04-07", "2025-05-06"),
    "alpen-giro_2025-05-01_2025-06-02.csv": ("2025-05-01", "2025-06-02"),
    "alpen-save_2025-05.csv": ("2025-05-01", "2025-05-31"),
    "harbor-card_2025-05-01_2025-05-20.csv": ("2025-05-01", "2025-05-20"),
    "harbor-card_2025-05-15_2025-06-04.csv": ("2025-05-15", "2025-06-04"),
}
# The last date each account's rows reached the database (imported before).
IMPORTED_THROUGH = {
    "alpen-giro": "2025-05-06",
    "alpen-save": "2025-04-30",
    "harbor-card": "2025-05-02",
}
START = {"alpen-giro": "2025-04-01", "alpen-save": "2025-04-01", "harbor-card": "2025-04-01"}
END = {"alpen-giro": "2025-06-02", "alpen-save": "2025-05-31", "harbor-card": "2025-06-04"}

ALPEN_HEADER = [
    "Buchungstag",
    "Valuta",
    "Empfänger/Auftraggeber",
    "Verwendungszweck",
    "Referenz",
    "Soll",
    "Haben",
]
HARBOR_HEADER = ["Transaction Date", "Posting Date", "Transaction ID", "Description", "Amount"]


def entry(account, sid, booked, amount, text="", party="", purpose="", other=None, **extra):
    """One ledger row: ``amount`` in budgetdesk's sign (negative: money leaving)."""
    row = {
        "account": account, "sid": sid, "booked": booked, "other": other or booked,
        "amount": Decimal(amount), "text": text, "party": party, "purpose": purpose,
    }  # fmt: skip
    row.update(extra)
    return row


# Named anchor rows of the main fixture. ``db_category`` overrides the category a row got in
# the database; ``second_text`` is the description a later statement shows for the same row.
ANCHOR_ROWS = {
    # internal transfers: both legs carry the bank's one reference (giro leg of 05-03 is in
    # the database already; the save leg is new), and the 05-20 transfer is new on both sides
    "shared-transfer-ref": [
        entry("alpen-giro", "AB25050300017", "2025-05-03", "-500.00",
              party="UMBUCHUNG SPARKONTO", purpose="AT61 2011 1000 0000 4711"),
        entry("alpen-save", "AB25050300017", "2025-05-03", "500.00",
              party="UMBUCHUNG GIROKONTO", purpose="AT61 2011 1000 0000 0815"),
        entry("alpen-giro", "AB25052000088", "2025-05-20", "-300.00",
              party="UMBUCHUNG SPARKONTO", purpose="AT61 2011 1000 0000 4711"),
        entry("alpen-save", "AB25052000088", "2025-05-20", "300.00",
              party="UMBUCHUNG GIROKONTO", purpose="AT61 2011 1000 0000 0815"),
        entry("alpen-giro", "AB25040300009", "2025-04-03", "-400.00",
              party="UMBUCHUNG SPARKONTO", purpose="AT61 2011 1000 0000 4711"),
        entry("alpen-save", "AB25040300009", "2025-04-03", "400.00",
              party="UMBUCHUNG GIROKONTO", purpose="AT61 2011 1000 0000 0815"),
    ],
    # an overlapping harbor export shows a longer text for the same transaction: first wins
    "overlap-first-wins": [
        entry("harbor-card", "HC2505170931", "2025-05-17", "-23.99",
              text="AMAZON.DE*7T2KQ", second_text="AMAZON.DE*7T2KQ AMZN.DE/BILL",
              other="2025-05-16"),
    ],
    # the database row was recategorized by hand; the statements show it again
    "manual-category": [
        entry("alpen-giro", "AB25050200031", "2025-05-02", "-42.50",
              party="BLUMEN KOCH", purpose="KARTENZAHLUNG 02.05. 10:14", db_category="Gifts"),
    ],
    "rule-order-prime": [
        entry("harbor-card", "HC2505060114", "2025-05-06", "-8.99",
              text="AMAZON PRIME*2X83M AMZN.DE", other="2025-05-05"),
    ],
    "rule-order-uber-eats": [
        entry("harbor-card", "HC2505090227", "2025-05-09", "-27.40",
              text="UBER EATS WIEN 4KD9", other="2025-05-08"),
    ],
    "casefold-sz": [
        entry("alpen-giro", "AB25051200142", "2025-05-12", "-6.80",
              party="BÄCKEREI GROSSMANN", purpose="KARTENZAHLUNG 12.05. 07:41"),
    ],
    "nfkc-decomposed": [
        entry("harbor-card", "HC2505110318", "2025-05-11", "-18.60",
              text="Cafe\u0301 Central Wien", other="2025-05-10"),
    ],
    "nfkc-fullwidth": [
        entry("harbor-card", "HC2505130402", "2025-05-13", "-34.15",
              text="\uff28\uff2f\uff26\uff25\uff32 DANKT 0412", other="2025-05-13"),
    ],
    "whitespace": [
        entry("harbor-card", "HC2505140577", "2025-05-14", "-10.99",
              text="  Spotify\u00a0\u00a0AB\tStockholm  ", other="2025-05-14"),
    ],
    "substring-middle": [
        entry("harbor-card", "HC2505160641", "2025-05-16", "-13.99",
              text="PAYPAL *NETFLIX.COM 35314369001", other="2025-05-15"),
    ],
    # round-up savings: transfers of less than one euro, out of giro and into savings
    "round-up": [
        entry("alpen-giro", "AB25051600190", "2025-05-16", "-0.60",
              party="UMBUCHUNG SPARKONTO", purpose="Aufrundung Mai"),
        entry("alpen-save", "AB25051600190", "2025-05-16", "0.60",
              party="UMBUCHUNG GIROKONTO", purpose="Aufrundung Mai"),
    ],
    # a course fee and its cancellation in one month: Education nets to exactly zero
    "net-zero": [
        entry("harbor-card", "HC2505070140", "2025-05-07", "-120.00",
              text="VHS Wien Kursgebuehr", other="2025-05-06"),
        entry("harbor-card", "HC2505280845", "2025-05-28", "120.00",
              text="VHS Wien Storno", other="2025-05-27"),
    ],
    "cp1252-dash": [
        entry("alpen-giro", "AB25051500177", "2025-05-15", "-52.37",
              party="SPAR – FILIALE 4711", purpose="KARTENZAHLUNG 15.05. 17:02 • 1010 WIEN"),
    ],
    "alpen-booking-date": [
        entry("alpen-giro", "AB25053100311", "2025-05-31", "-64.20",
              party="ÖBB-PERSONENVERKEHR AG", purpose="TICKET WIEN-SALZBURG", other="2025-06-02"),
        entry("alpen-giro", "AB25060200318", "2025-06-02", "-15.30",
              party="BILLA AG", purpose="KARTENZAHLUNG 30.05. 19:55", other="2025-05-30"),
    ],
    "harbor-posting-date": [
        entry("harbor-card", "HC2506010702", "2025-06-01", "-48.00",
              text="RESTAURANT FIGLMUELLER", other="2025-05-31"),
        entry("harbor-card", "HC2505210688", "2025-05-21", "-41.30",
              text="RESTAURANT STEIRERECK", other="2025-05-20"),
    ],
    "harbor-refund": [
        entry("harbor-card", "HC2505190655", "2025-05-19", "59.95",
              text="ZALANDO SE RETOURE", other="2025-05-18"),
    ],
    "thousands": [
        entry("alpen-giro", "AB25053000305", "2025-05-30", "3245.18",
              party="ACME GMBH", purpose="GEHALT 05/2025"),
        entry("alpen-giro", "AB25050200024", "2025-05-02", "-1150.00",
              party="HAUSVERWALTUNG MAIER", purpose="MIETE 05/2025"),
        entry("harbor-card", "HC2505220719", "2025-05-22", "-1249.00",
              text="MEDIAMARKT 0815 WIEN", other="2025-05-21"),
    ],
    "card-payment": [
        entry("alpen-giro", "AB25050800061", "2025-05-08", "-612.35",
              party="HARBOR CARD SERVICES", purpose="KARTENABRECHNUNG 04/2025"),
        entry("harbor-card", "HC2505090230", "2025-05-09", "612.35",
              text="PAYMENT RECEIVED - THANK YOU", other="2025-05-09"),
    ],
    "interest": [
        entry("alpen-save", "AB25053100301", "2025-05-31", "1.87",
              party="", purpose="Habenzinsen 05/2025"),
    ],
    "month-edges": [
        entry("alpen-giro", "AB25043000289", "2025-04-30", "3245.18",
              party="ACME GMBH", purpose="GEHALT 04/2025"),
        entry("harbor-card", "HC2505010011", "2025-05-01", "-12.40",
              text="WIENER LINIEN TICKET APP", other="2025-04-30"),
    ],
    # split targets (see SPLIT_ANCHORS)
    "split-targets": [
        entry("harbor-card", "HC2505100250", "2025-05-10", "-86.40",
              text="BILLA DANKT 1234 WIEN", other="2025-05-09"),
        entry("harbor-card", "HC2505120377", "2025-05-12", "-60.30",
              text="AMAZON.DE*4K8PL AMZN.DE/PM", other="2025-05-11"),
        entry("harbor-card", "HC2505180650", "2025-05-18", "-37.85",
              text="DM DROGERIE MARKT 0211", other="2025-05-17"),
        entry("harbor-card", "HC2505230733", "2025-05-23", "-25.00",
              text="THALIA WIEN MARIAHILF", other="2025-05-22"),
        entry("harbor-card", "HC2505240760", "2025-05-24", "-44.00",
              text="TABAK TRAFIK 48", other="2025-05-23"),
        entry("harbor-card", "HC2505260801", "2025-05-26", "-19.90",
              text="H&M 0921 WIEN", other="2025-05-25"),
        entry("harbor-card", "HC2505270823", "2025-05-27", "-75.00",
              text="MUSEUMSQUARTIER WIEN", other="2025-05-26"),
        entry("alpen-giro", "AB25050500045", "2025-05-05", "-54.18",
              party="BILLA AG", purpose="KARTENZAHLUNG 05.05. 18:32"),
        entry("harbor-card", "HC2505290866", "2025-05-29", "19.90",
              text="H&M 0921 WIEN RETOURE", other="2025-05-28"),
        entry("harbor-card", "HC2505250781", "2025-05-25", "-31.20",
              text="LIDL DANKT 0815", other="2025-05-24"),
        entry("harbor-card", "HC2505300880", "2025-05-30", "0.75",
              text="BILLA DANKT 1234 PFAND", other="2025-05-29"),
        entry("harbor-card", "HC2505300885", "2025-05-30", "-0.99",
              text="SPAR DANKT 0815", other="2025-05-29"),
    ],
}  # fmt: skip

# The split file of the main fixture: (source_account, source_id, category, amount) rows.
SPLIT_ANCHORS = [
    # valid: three parts of a supermarket purchase, one under a euro
    ("harbor-card", "HC2505100250", "Groceries", "-61.90"),
    ("harbor-card", "HC2505100250", "Household", "-24.10"),
    ("harbor-card", "HC2505100250", "Gifts", "-0.40"),
    # valid, although a float sum misses it: -20.10 + -40.20 != -60.30 in binary floating point
    ("harbor-card", "HC2505120377", "Shopping", "-20.10"),
    ("harbor-card", "HC2505120377", "Household", "-40.20"),
    # valid, the rows of one split apart: rows 5 and 9 with the purchase over 1,000
    ("harbor-card", "HC2505220719", "Household", "-1049.00"),
    # unknown_transaction: the reference exists, but on alpen-giro, not on alpen-save
    ("alpen-save", "AB25050500045", "Groceries", "-54.18"),
    # unknown_category, although the parts also miss the amount (the first failing check wins)
    ("harbor-card", "HC2505230733", "Hobbies", "-20.00"),
    ("harbor-card", "HC2505230733", "Gifts", "-4.00"),
    ("harbor-card", "HC2505220719", "Shopping", "-200.00"),
    # not_spending: a salary cannot be split, not even into spending categories
    ("alpen-giro", "AB25053000305", "Household", "3000.00"),
    ("alpen-giro", "AB25053000305", "Gifts", "245.18"),
    # not_spending: a part in a transfer category
    ("harbor-card", "HC2505240760", "Uncategorized", "-24.00"),
    ("harbor-card", "HC2505240760", "Card payment", "-20.00"),
    # invalid_amount: one decimal
    ("harbor-card", "HC2505260801", "Clothing", "-12.5"),
    ("harbor-card", "HC2505260801", "Gifts", "-7.40"),
    # invalid_amount: a part of the other sign, although the parts sum exactly
    ("harbor-card", "HC2505270823", "Education", "-80.00"),
    ("harbor-card", "HC2505270823", "Gifts", "5.00"),
    # invalid_amount: a zero part (of a purchase, and of a refund)
    ("harbor-card", "HC2505090227", "Dining", "-27.40"),
    ("harbor-card", "HC2505090227", "Gifts", "0.00"),
    ("harbor-card", "HC2505290866", "Clothing", "19.90"),
    ("harbor-card", "HC2505290866", "Gifts", "0.00"),
    # unknown_category: category names are compared exactly
    ("harbor-card", "HC2505250781", "groceries", "-20.00"),
    ("harbor-card", "HC2505250781", "Household", "-11.20"),
    # valid: a refund split (positive parts, one under a euro)
    ("harbor-card", "HC2505190655", "Clothing", "39.45"),
    ("harbor-card", "HC2505190655", "Shopping", "20.00"),
    ("harbor-card", "HC2505190655", "Gifts", "0.50"),
    # valid: splits of amounts under one euro, a deposit refund and a purchase
    ("harbor-card", "HC2505300880", "Groceries", "0.50"),
    ("harbor-card", "HC2505300880", "Household", "0.25"),
    ("harbor-card", "HC2505300885", "Groceries", "-0.59"),
    ("harbor-card", "HC2505300885", "Household", "-0.40"),
    # valid: personal care appears in the report only through this split
    ("harbor-card", "HC2505180650", "Personal care", "-25.35"),
    ("harbor-card", "HC2505180650", "Household", "-12.50"),
    # valid: a split of a row that was in the database before the import
    ("alpen-giro", "AB25050500045", "Groceries", "-40.18"),
    ("alpen-giro", "AB25050500045", "Household", "-14.00"),
    # valid: one part recategorizes the whole transaction
    ("alpen-giro", "AB25050200031", "Household", "-42.50"),
    # unknown_transaction wins over an unknown category
    ("harbor-card", "HC9999999999", "Hobbies", "-10.00"),
]  # fmt: skip

# The edge fixture: one card and one giro account, a few rows, three splits.
EDGE_ROWS = [
    entry("alpen-giro", "AB25050200011", "2025-05-02", "-980.00",
          party="HAUSVERWALTUNG HUBER", purpose="MIETE 05/2025"),
    entry("alpen-giro", "AB25052900120", "2025-05-29", "2810.40",
          party="BETA KG", purpose="GEHALT 05/2025"),
    entry("harbor-card", "HC2505070101", "2025-05-07", "-72.30",
          text="BILLA DANKT 0815", other="2025-05-06"),
    entry("harbor-card", "HC2505080102", "2025-05-08", "-45.97",
          text="AMAZON.DE*7Q2MX AMZN.DE/PM", other="2025-05-07"),
    entry("harbor-card", "HC2505110103", "2025-05-11", "-18.45",
          text="DM DROGERIE MARKT 0330", other="2025-05-10"),
    entry("harbor-card", "HC2505140104", "2025-05-14", "-9.80",
          text="WIENER LINIEN TICKET APP", other="2025-05-14"),
]  # fmt: skip
EDGE_SPLITS = [
    ("harbor-card", "HC2505070101", "Groceries", "-50.00"),
    ("harbor-card", "HC2505070101", "Household", "-22.30"),
    # one cent short of -45.97: rejected, the transaction stays unsplit
    ("harbor-card", "HC2505080102", "Shopping", "-20.00"),
    ("harbor-card", "HC2505080102", "Household", "-15.98"),
    ("harbor-card", "HC2505080102", "Gifts", "-9.98"),
    ("harbor-card", "HC2505110103", "Household", "-10.45"),
    ("harbor-card", "HC2505110103", "Personal care", "-8.00"),
]  # fmt: skip
EDGE_STATEMENTS = {
    "alpen-giro": ["alpen-giro_2025-05.csv"],
    "harbor-card": ["harbor-card_2025-05.csv"],
}
EDGE_ACCOUNTS = [
    {"id": "alpen-giro", "name": "Alpenbank Girokonto", "dialect": "alpen"},
    {"id": "harbor-card", "name": "Harbor Visa Card", "dialect": "harbor"},
]

# Filler vocabularies: (party, purpose) for the giro account, descriptions for the card.
GIRO_SHOPS = [
    ("BILLA AG", "KARTENZAHLUNG"), ("SPAR DANKT", "KARTENZAHLUNG"), ("HOFER KG", "KARTENZAHLUNG"),
    ("LIDL ÖSTERREICH", "KARTENZAHLUNG"), ("APOTHEKE ZUR GOLDENEN KRONE", "KARTENZAHLUNG"),
    ("BANKOMAT 1010 WIEN", "BEHEBUNG"), ("ÖAMTC", "MITGLIEDSBEITRAG"),
    ("Trafik Müller", "Kartenzahlung"), ("WIENER LINIEN GMBH", "JAHRESKARTE RATE"),
    ("CAFÉ SPERL", "KARTENZAHLUNG"),
]  # fmt: skip
CARD_SHOPS = [
    "BILLA DANKT {n} WIEN", "SPAR DANKT {n}", "HOFER DANKT {n}", "LIDL DANKT {n}",
    "AMAZON.DE*{c} AMZN.DE/PM", "AMZN MKTP DE*{c}", "UBER *TRIP {c} HELP.UBER.COM",
    "UBER EATS WIEN {c}", "RESTAURANT ZUM SCHWARZEN KAMEEL", "ZALANDO SE", "H&M {n} WIEN",
    "APOTHEKE ZUM LOEWEN", "WIENER LINIEN TICKET APP", "ÖBB TICKETSHOP", "THALIA WIEN",
    "TABAK TRAFIK {n}", "MUSEUMSQUARTIER WIEN", "IKEA Vösendorf", "DOUGLAS {n} WIEN",
]  # fmt: skip
LETTERS = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"


def _days(first: str, last: str) -> list[str]:
    day, end = dt.date.fromisoformat(first), dt.date.fromisoformat(last)
    out = []
    while day <= end:
        out.append(day.isoformat())
        day += dt.timedelta(days=1)
    return out


def _cents(rng, lo: int, hi: int) -> Decimal:
    return Decimal(rng.randint(lo, hi)).scaleb(-2)


def _filler(rng, taken: set[tuple[str, str]]) -> list[dict]:
    rows: list[dict] = []
    counter = [500]

    def ref(day: str) -> str:
        counter[0] += rng.randint(1, 9)
        return f"AB{day[2:4]}{day[5:7]}{day[8:10]}{counter[0]:05d}"

    def card_id(day: str) -> str:
        while True:
            sid = f"HC{day[2:4]}{day[5:7]}{day[8:10]}{rng.randint(1000, 9999)}"
            if ("harbor-card", sid) not in taken:
                taken.add(("harbor-card", sid))
                return sid

    for day in _days(START["alpen-giro"], END["alpen-giro"]):
        for _ in range(rng.choice([0, 0, 1, 1, 2])):
            party, purpose = rng.choice(GIRO_SHOPS)
            if purpose == "KARTENZAHLUNG":
                hour, minute = rng.randint(7, 21), rng.randint(0, 59)
                purpose = f"KARTENZAHLUNG {day[8:10]}.{day[5:7]}. {hour:02d}:{minute:02d}"
            amount = -_cents(rng, 150, 6500)
            if party.startswith("BANKOMAT"):
                amount = Decimal(-rng.choice([50, 100, 150, 200]))
                purpose = f"BEHEBUNG {-amount:.2f} €".replace(".", ",")
            rows.append(
                entry("alpen-giro", ref(day), day, str(amount), party=party, purpose=purpose)
            )
    for month in ("04", "05"):
        rows.append(
            entry(
                "alpen-giro",
                ref(f"2025-{month}-05"),
                f"2025-{month}-05",
                str(-_cents(rng, 9000, 9900)),
                party="WIEN ENERGIE GMBH",
                purpose=f"STROM/GAS {month}/2025",
            )
        )
        rows.append(
            entry(
                "alpen-giro",
                ref(f"2025-{month}-11"),
                f"2025-{month}-11",
                str(-_cents(rng, 3900, 4900)),
                party="A1 TELEKOM AUSTRIA AG",
                purpose=f"RECHNUNG 25-{month}{rng.randint(10, 99)}",
            )
        )
    rows.append(
        entry(
            "alpen-giro",
            ref("2025-04-01"),
            "2025-04-01",
            "-1150.00",
            party="HAUSVERWALTUNG MAIER",
            purpose="MIETE 04/2025",
        )
    )
    rows.append(
        entry(
            "alpen-giro",
            ref("2025-04-09"),
            "2025-04-09",
            "-588.20",
            party="HARBOR CARD SERVICES",
            purpose="KARTENABRECHNUNG 03/2025",
        )
    )
    rows.append(
        entry(
            "alpen-save",
            ref("2025-04-30"),
            "2025-04-30",
            "1.52",
            party="",
            purpose="HABENZINSEN 04/2025",
        )
    )
    for day in _days(START["harbor-card"], END["harbor-card"]):
        for _ in range(rng.choice([0, 1, 1, 2, 2])):
            shop = rng.choice(CARD_SHOPS)
            code = "".join(rng.choice(LETTERS) for _ in range(5))
            text = shop.format(n=f"{rng.randint(1, 9999):04d}", c=code)
            amount = -_cents(rng, 120, rng.choice([2500, 4500, 9000]))
            before = (
                dt.date.fromisoformat(day) - dt.timedelta(days=rng.choice([0, 0, 1, 1, 2]))
            ).isoformat()
            rows.append(
                entry("harbor-card", card_id(day), day, str(amount), text=text, other=before)
            )
    rows.append(
        entry(
            "harbor-card",
            card_id("2025-04-10"),
            "2025-04-10",
            "588.20",
            text="PAYMENT RECEIVED - THANK YOU",
        )
    )
    return rows


def ledger(rng) -> list[dict]:
    """Every row of the main fixture's three accounts, sorted by account, date, source id."""
    anchors = [row for rows in ANCHOR_ROWS.values() for row in rows]
    taken = {(row["account"], row["sid"]) for row in anchors}
    rows = anchors + _filler(rng, taken)
    return sorted(rows, key=lambda r: (r["account"], r["booked"], r["sid"]))


# --- the database -------------------------------------------------------------------------


def _normalize(text: str) -> str:
    return " ".join(unicodedata.normalize("NFKC", text).split())


def _description(row: dict) -> str:
    if row["account"] == "harbor-card":
        return _normalize(row["text"])
    return _normalize(f"{row['party']} {row['purpose']}")


def _category(description: str) -> str:
    folded = description.casefold()
    for _, _, pattern, category in sorted(RULES, key=lambda r: r[1]):
        if pattern.casefold() in folded:
            return category
    return "Uncategorized"


def _history(rows: list[dict], through: dict[str, str]) -> list[tuple]:
    out = []
    for row in rows:
        if row["booked"] > through.get(row["account"], ""):
            continue
        description = _description(row)
        category = row.get("db_category") or _category(description)
        out.append(
            (
                row["account"],
                row["sid"],
                row["booked"],
                description,
                f"{row['amount']:.2f}",
                category,
            )
        )
    return out


def _database(history: list[tuple], rules: list[tuple], budgets: dict) -> bytes:
    conn = sqlite3.connect(":memory:")
    try:
        conn.execute("PRAGMA page_size = 4096")
        conn.executescript(V1_SCHEMA)
        conn.executemany("INSERT INTO categories VALUES (?, ?)", CATEGORIES)
        conn.executemany("INSERT INTO category_rules VALUES (?, ?, ?, ?)", rules)
        for month, amounts in budgets.items():
            conn.executemany(
                "INSERT INTO budgets VALUES (?, ?, ?)", [(month, c, a) for c, a in amounts.items()]
            )
        conn.executemany(
            "INSERT INTO transactions (source_account, source_id, posted_on, description, amount,"
            " category) VALUES (?, ?, ?, ?, ?, ?)",
            history,
        )
        conn.commit()
        conn.execute("PRAGMA user_version = 1")
        conn.commit()
        conn.execute("VACUUM")
        image = bytearray(conn.serialize())
    finally:
        conn.close()
    image[96:100] = SQLITE_VERSION_PIN.to_bytes(4, "big")
    return bytes(image)


def budget_database(ctx: benchlib.SeedContext) -> None:
    """workspace/budget.db at schema version 1 (main: April and early May imported)."""
    if ctx.fixture == "edge":
        budgets = {"2025-05": {"Groceries": "300.00", "Shopping": "80.00", "Household": "40.00"}}
        rules = [
            r for r in RULES if r[3] in {"Groceries", "Shopping", "Housing", "Salary", "Transport"}
        ]
        history = _history(EDGE_ROWS, {"alpen-giro": "2025-05-02"})
    else:
        rows = ledger(ctx.stream("ledger"))
        budgets, rules, history = BUDGETS, RULES, _history(rows, IMPORTED_THROUGH)
    ctx.write_bytes("workspace/budget.db", _database(history, rules, budgets))


# --- the statements -----------------------------------------------------------------------


def _alpen_amount(value: Decimal) -> str:
    return f"{abs(value):,.2f}".replace(",", " ").replace(".", ",").replace(" ", ".")


def _de_date(day: str) -> str:
    return f"{day[8:10]}.{day[5:7]}.{day[0:4]}"


def _us_date(day: str) -> str:
    return f"{day[5:7]}/{day[8:10]}/{day[0:4]}"


def _alpen_file(rows: list[dict]) -> bytes:
    out = io.StringIO()
    writer = csv.writer(out, delimiter=";", lineterminator="\r\n")
    writer.writerow(ALPEN_HEADER)
    for row in rows:
        debit = _alpen_amount(row["amount"]) if row["amount"] < 0 else ""
        credit = _alpen_amount(row["amount"]) if row["amount"] > 0 else ""
        writer.writerow([
            _de_date(row["booked"]), _de_date(row["other"]), row["party"].ljust(27),
            row["purpose"], row["sid"], debit, credit,
        ])  # fmt: skip
    return out.getvalue().encode("cp1252")


def _harbor_file(rows: list[dict], second: bool) -> bytes:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(HARBOR_HEADER)
    for row in rows:
        text = row.get("second_text", row["text"]) if second else row["text"]
        writer.writerow([
            _us_date(row["other"]), _us_date(row["booked"]), row["sid"], text,
            f"{-row['amount']:,.2f}",
        ])  # fmt: skip
    return out.getvalue().encode("utf-8")


def _write_statements(ctx, rows, statements, covers, accounts) -> None:
    dialect = {a["id"]: a["dialect"] for a in accounts}
    for account, files in statements.items():
        for number, name in enumerate(files):
            first, last = covers[name]
            mine = [r for r in rows if r["account"] == account and first <= r["booked"] <= last]
            if dialect[account] == "alpen":
                data = _alpen_file(mine)
            else:
                data = _harbor_file(mine, second=number > 0)
            ctx.write_bytes(f"inputs/statements/{name}", data)
    listed = [dict(a, statements=statements[a["id"]]) for a in accounts]
    ctx.write_text("inputs/accounts.json", json.dumps({"accounts": listed}, indent=2) + "\n")


def statements(ctx: benchlib.SeedContext) -> None:
    """inputs/accounts.json and the statement files of inputs/statements/."""
    if ctx.fixture == "edge":
        covers = {"alpen-giro_2025-05.csv": ("2025-05-01", "2025-05-31"),
                  "harbor-card_2025-05.csv": ("2025-05-01", "2025-05-31")}  # fmt: skip
        _write_statements(ctx, EDGE_ROWS, EDGE_STATEMENTS, covers, EDGE_ACCOUNTS)
        return
    _write_statements(ctx, ledger(ctx.stream("ledger")), STATEMENTS, COVERS, ACCOUNTS)


def splits_csv(ctx: benchlib.SeedContext) -> None:
    """inputs/splits.csv: the stage-2 split parts."""
    rows = EDGE_SPLITS if ctx.fixture == "edge" else SPLIT_ANCHORS
    header = ["source_account", "source_id", "category", "amount"]
    ctx.write_csv("inputs/splits.csv", header, [dict(zip(header, r, strict=True)) for r in rows])
