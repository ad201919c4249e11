# generated from task.toml by benchsmith -- edit only the authored region
"""Judge of task 11: SQLite CRM Migration.

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
    "id": 11,
    "slug": "crm-migration",
    "stages": ["initial", "import"],
    "editable": ["crm/", "workspace/", "output/"],
    "commands": [
        {
            "run": "python -m crm.migrate workspace/crm.db",
            "argv": ["python", "-m", "crm.migrate", "workspace/crm.db"],
            "cwd": ".",
            "stdin": None,
            "stage": "initial",
            "timeout": 20.0,
        },
        {
            "run": "python -m crm.migrate workspace/crm.db",
            "argv": ["python", "-m", "crm.migrate", "workspace/crm.db"],
            "cwd": ".",
            "stdin": None,
            "stage": "initial",
            "timeout": 20.0,
        },
        {
            "run": "python -m crm.import_contacts workspace/crm.db inputs/new_contacts.csv output/import_report.json",
            "argv": [
                "python",
                "-m",
                "crm.import_contacts",
                "workspace/crm.db",
                "inputs/new_contacts.csv",
                "output/import_report.json",
            ],
            "cwd": ".",
            "stdin": None,
            "stage": "import",
            "timeout": 20.0,
        },
    ],
    "outputs": [
        {"path": "workspace/crm.db", "format": "sqlite", "header": [], "stage": "initial"},
        {"path": "output/import_report.json", "format": "json", "header": [], "stage": "import"},
    ],
    "expect": [],
    "edge_expect": [],
    "edge_include_visible": True,
    "services": [],
}

judge = benchlib.Judge(TASK)

# region authored: benchsmith keeps these lines when it rebuilds judge.py
import csv
import io
import sqlite3

DB = "workspace/crm.db"
NEW = "inputs/new_contacts.csv"
REPORT = "output/import_report.json"
# (name, declared type, NOT NULL, primary key) of each column, in order (TASK.md).
SCHEMA = {
    "contacts": [
        ("id", "INTEGER", 0, 1),
        ("display_name", "TEXT", 1, 0),
        ("notes", "TEXT", 1, 0),
    ],
    "contact_methods": [
        ("contact_id", "INTEGER", 1, 0),
        ("kind", "TEXT", 1, 0),
        ("value", "TEXT", 1, 0),
        ("normalized_value", "TEXT", 1, 0),
        ("is_primary", "INTEGER", 1, 0),
    ],
}


def email_key(text: object) -> str:
    return text.strip().casefold() if isinstance(text, str) else ""


def phone_key(text: object) -> str:
    text = text.strip() if isinstance(text, str) else ""
    digits = "".join(ch for ch in text if ch in "0123456789")
    if not digits:
        return ""
    return "+" + digits if text.startswith("+") else digits


def stripped(text: object) -> str:
    return text.strip() if isinstance(text, str) else ""


class Crm:
    """TASK.md's rules replayed on the pristine version-1 rows (and the import file)."""

    def __init__(self, old: list[tuple]) -> None:
        self.names: dict[int, str] = {}
        self.notes: dict[int, list[str]] = {}
        self.methods: dict[int, list[list]] = {}
        self.by_email: dict[str, int] = {}
        self.old_owner: dict[int, int] = {}
        for cid, name, email, phone, note in sorted(old, key=lambda r: r[0]):
            key = email_key(email)
            owner = self.by_email.get(key) if key else None
            if owner is None:
                owner = cid
                self.names[cid], self.notes[cid], self.methods[cid] = stripped(name), [], []
            self.old_owner[cid] = owner
            self.add_note(owner, note)
            self.add_method(owner, "email", email, key)
            self.add_method(owner, "phone", phone, phone_key(phone))
        self.report: dict[str, list[int]] = {"inserted": [], "updated": [], "skipped": []}

    def add_note(self, cid: int, note: object) -> None:
        note = stripped(note)
        if note and note not in self.notes[cid]:
            self.notes[cid].append(note)

    def add_method(self, cid: int, kind: str, raw: object, key: str) -> None:
        if not key:
            return
        have = [m for m in self.methods[cid] if m[0] == kind]
        if any(m[2] == key for m in have):
            return
        self.methods[cid].append([kind, stripped(raw), key, 0 if have else 1])
        if kind == "email":
            self.by_email[key] = cid

    def apply_import(self, rows: list[dict[str, str]]) -> None:
        before = set(self.names)
        updated: set[int] = set()
        for number, row in enumerate(rows, start=1):
            email, phone = email_key(row["email"]), phone_key(row["phone"])
            if not email and not phone:
                self.report["skipped"].append(number)
                continue
            cid = self.by_email.get(email) if email else None
            if cid is None:
                cid = max(self.names) + 1
                self.names[cid], self.notes[cid], self.methods[cid] = stripped(row["name"]), [], []
                self.add_note(cid, row["notes"])
                self.add_method(cid, "email", row["email"], email)
                self.add_method(cid, "phone", row["phone"], phone)
                self.report["inserted"].append(cid)
                continue
            if stripped(row["name"]):
                self.names[cid] = stripped(row["name"])
            self.add_method(cid, "phone", row["phone"], phone)
            self.add_note(cid, row["notes"])
            if cid in before:
                updated.add(cid)
        self.report["updated"] = sorted(updated)

    def contacts(self) -> dict[int, tuple[str, str]]:
        return {cid: (self.names[cid], "\n".join(self.notes[cid])) for cid in self.names}

    def method_rows(self) -> list[tuple]:
        return sorted((cid, *m) for cid, ms in self.methods.items() for m in ms)


def expected(run: benchlib.Run, imported: bool) -> Crm:
    """The expected state after the migration (and the import), from the pristine fixture."""
    key = f"expected-{imported}"
    if key not in run.memo:
        conn = run.source.sqlite(DB)
        try:
            old = conn.execute("SELECT id, name, email, phone, notes FROM contacts").fetchall()
        finally:
            conn.close()
        crm = Crm(old)
        if imported:
            crm.apply_import(list(csv.DictReader(io.StringIO(run.source.text(NEW)))))
        run.memo[key] = crm
    return run.memo[key]


def candidate(run: benchlib.Run) -> dict:
    """The candidate's database as plain values; anything unreadable fails the check."""
    if "candidate" not in run.memo:
        try:
            run.memo["candidate"] = read_database(run)
        except benchlib.CheckFailed as exc:
            run.memo["candidate"] = exc
    state = run.memo["candidate"]
    if isinstance(state, benchlib.CheckFailed):
        raise benchlib.CheckFailed(str(state))
    return state


def read_database(run: benchlib.Run) -> dict:
    conn = run.files.sqlite(DB)  # CheckFailed when missing or not a database
    try:
        state: dict = {
            "integrity": [r[0] for r in conn.execute("PRAGMA integrity_check").fetchall()],
            "version": conn.execute("PRAGMA user_version").fetchone()[0],
            "tables": sorted(
                conn.execute(
                    "SELECT name FROM sqlite_master WHERE type IN ('table', 'view')"
                    " AND name NOT LIKE 'sqlite%'"
                ).fetchall()
            ),
            "columns": {
                table: [
                    (r[1], str(r[2]).upper(), r[3], r[5])
                    for r in conn.execute(f"PRAGMA table_info({table})").fetchall()
                ]
                for table in SCHEMA
            },
        }
        if all(state["columns"][t] for t in SCHEMA):
            state["contacts"] = conn.execute(
                "SELECT id, display_name, notes FROM contacts"
            ).fetchall()
            state["methods"] = conn.execute(
                "SELECT contact_id, kind, value, normalized_value, is_primary FROM contact_methods"
            ).fetchall()
        return state
    except sqlite3.Error as exc:
        raise benchlib.CheckFailed(f"{DB}: unreadable ({type(exc).__name__}: {exc})") from None
    finally:
        conn.close()


def rows_of(run: benchlib.Run) -> tuple[list[tuple], list[tuple]]:
    state = candidate(run)
    benchlib.expect("contacts" in state, f"{DB}: the version-2 tables are missing")
    return state["contacts"], state["methods"]


def same_contacts(run: benchlib.Run, crm: Crm) -> None:
    contacts, _ = rows_of(run)
    ids = [r[0] for r in contacts]
    benchlib.expect(len(ids) == len(set(ids)), "contacts: an ID appears twice")
    got = {r[0]: (r[1], r[2]) for r in contacts}
    want = crm.contacts()
    missing = sorted(set(want) - set(got))
    extra = sorted(set(got) - set(want), key=repr)
    benchlib.expect(
        not missing and not extra, f"contact IDs: missing {missing[:5]}, extra {extra[:5]}"
    )
    wrong = [(cid, got[cid], want[cid]) for cid in sorted(want) if got[cid] != want[cid]]
    benchlib.expect(not wrong, f"{len(wrong)} contacts differ, e.g. (id, got, want) {wrong[:2]}")


def same_methods(run: benchlib.Run, crm: Crm) -> None:
    _, methods = rows_of(run)
    got = sorted(methods, key=repr)
    want = sorted(crm.method_rows(), key=repr)
    benchlib.expect_equal(len(got), len(want), "number of contact_methods rows")
    extra = [m for m in got if m not in want]
    missing = [m for m in want if m not in got]
    benchlib.expect(
        not extra and not missing, f"contact_methods: extra {extra[:3]}, missing {missing[:3]}"
    )
    benchlib.expect_equal(got, want, "contact_methods rows")


@judge.check(level=3)
def schema_version_2(run: benchlib.Run) -> None:
    """user_version 2, exactly the two tables of TASK.md, their columns, an intact file."""
    state = candidate(run)
    benchlib.expect_equal(state["integrity"], ["ok"], "PRAGMA integrity_check")
    benchlib.expect_equal(state["version"], 2, "PRAGMA user_version")
    benchlib.expect_equal(
        state["tables"], [("contact_methods",), ("contacts",)], "tables and views"
    )
    for table, columns in SCHEMA.items():
        benchlib.expect_equal(
            state["columns"][table], columns, f"{table} columns (name, type, not null, pk)"
        )


@judge.check(level=3)
def duplicates_merged(run: benchlib.Run) -> None:
    """Kept IDs stay, merged-away IDs go, each old email sits on its group's lowest ID."""
    imported = run.source.exists(NEW)
    crm = expected(run, imported)
    contacts, methods = rows_of(run)
    ids = {r[0] for r in contacts}
    kept = set(crm.old_owner.values())
    gone = {cid for cid, owner in crm.old_owner.items() if owner != cid} - set(crm.names)
    benchlib.expect(kept <= ids, f"kept contacts missing: {sorted(kept - ids)[:5]}")
    benchlib.expect(not gone & ids, f"merged-away contacts still present: {sorted(gone & ids)[:5]}")
    owners: dict[object, list] = {}
    for cid, kind, _, key, _ in methods:
        if kind == "email":
            owners.setdefault(key, []).append(cid)
    wrong = [
        (key, owners.get(key), [cid])
        for key, cid in sorted(crm.by_email.items())
        if crm.old_owner.get(cid) == cid and owners.get(key) != [cid]
    ]
    benchlib.expect(not wrong, f"emails on the wrong contacts (email, got, want): {wrong[:3]}")


@judge.check(level=4, until="initial")
def migrated_contacts(run: benchlib.Run) -> None:
    """Every contact after the migration: ID, display_name, merged notes."""
    same_contacts(run, expected(run, False))


@judge.check(level=4, until="initial")
def migrated_methods(run: benchlib.Run) -> None:
    """Every contact_methods row after the migration."""
    same_methods(run, expected(run, False))


@judge.check(level=4, stage="import")
def imported_contacts(run: benchlib.Run) -> None:
    """Every contact after the migration and the import."""
    same_contacts(run, expected(run, True))


@judge.check(level=4, stage="import")
def imported_methods(run: benchlib.Run) -> None:
    """Every contact_methods row after the migration and the import."""
    same_methods(run, expected(run, True))


@judge.check(level=4, stage="import")
def import_report(run: benchlib.Run) -> None:
    """The report: exactly inserted, updated, skipped; integer lists in ascending order."""
    report = run.json(REPORT)
    benchlib.expect(isinstance(report, dict), f"{REPORT}: not a JSON object")
    benchlib.expect_equal(sorted(report), ["inserted", "skipped", "updated"], f"{REPORT} keys")
    for key, want in expected(run, True).report.items():
        got = report[key]
        benchlib.expect(
            isinstance(got, list) and all(type(v) is int for v in got),
            f"{REPORT}: {key} is not a list of integers",
        )
        benchlib.expect_equal(got, want, f"{REPORT}: {key}")


@judge.edge
def three_way_merge(run: benchlib.Run) -> None:
    """Three contacts with one email: the lowest ID, each distinct note once, in ID order."""
    crm = expected(run, run.source.exists(NEW))
    groups = [cid for cid in crm.names if list(crm.old_owner.values()).count(cid) >= 3]
    benchlib.expect(groups != [], "edge fixture: no group of three contacts")
    same_contacts(run, crm)
    same_methods(run, crm)


# endregion authored

if __name__ == "__main__":
    sys.exit(judge.main())
