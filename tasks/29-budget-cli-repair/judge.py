# generated from task.toml by benchsmith -- edit only the authored region
"""Judge of task 29: Legacy Budgeting CLI Repair.

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
    "id": 29,
    "slug": "budget-cli-repair",
    "stages": ["initial", "splits", "export"],
    "editable": ["budgetdesk/", "workspace/", "output/"],
    "commands": [
        {
            "run": "python -m budgetdesk import workspace/budget.db inputs/accounts.json inputs/statements",
            "argv": [
                "python",
                "-m",
                "budgetdesk",
                "import",
                "workspace/budget.db",
                "inputs/accounts.json",
                "inputs/statements",
            ],
            "cwd": ".",
            "stdin": None,
            "stage": "initial",
            "timeout": 30.0,
        },
        {
            "run": "python -m budgetdesk migrate workspace/budget.db",
            "argv": ["python", "-m", "budgetdesk", "migrate", "workspace/budget.db"],
            "cwd": ".",
            "stdin": None,
            "stage": "splits",
            "timeout": 30.0,
        },
        {
            "run": "python -m budgetdesk migrate workspace/budget.db",
            "argv": ["python", "-m", "budgetdesk", "migrate", "workspace/budget.db"],
            "cwd": ".",
            "stdin": None,
            "stage": "splits",
            "timeout": 30.0,
        },
        {
            "run": "python -m budgetdesk splits workspace/budget.db inputs/splits.csv --errors output/split_errors.json",
            "argv": [
                "python",
                "-m",
                "budgetdesk",
                "splits",
                "workspace/budget.db",
                "inputs/splits.csv",
                "--errors",
                "output/split_errors.json",
            ],
            "cwd": ".",
            "stdin": None,
            "stage": "splits",
            "timeout": 30.0,
        },
        {
            "run": "python -m budgetdesk splits workspace/budget.db inputs/splits.csv --errors output/split_errors.json",
            "argv": [
                "python",
                "-m",
                "budgetdesk",
                "splits",
                "workspace/budget.db",
                "inputs/splits.csv",
                "--errors",
                "output/split_errors.json",
            ],
            "cwd": ".",
            "stdin": None,
            "stage": "splits",
            "timeout": 30.0,
        },
        {
            "run": "python -m budgetdesk import workspace/budget.db inputs/accounts.json inputs/statements",
            "argv": [
                "python",
                "-m",
                "budgetdesk",
                "import",
                "workspace/budget.db",
                "inputs/accounts.json",
                "inputs/statements",
            ],
            "cwd": ".",
            "stdin": None,
            "stage": "export",
            "timeout": 30.0,
        },
        {
            "run": "python -m budgetdesk report workspace/budget.db --month 2025-05 --output output/monthly.json",
            "argv": [
                "python",
                "-m",
                "budgetdesk",
                "report",
                "workspace/budget.db",
                "--month",
                "2025-05",
                "--output",
                "output/monthly.json",
            ],
            "cwd": ".",
            "stdin": None,
            "stage": "initial",
            "timeout": 30.0,
        },
        {
            "run": "python -m budgetdesk export workspace/budget.db --format csv --output output/export.csv",
            "argv": [
                "python",
                "-m",
                "budgetdesk",
                "export",
                "workspace/budget.db",
                "--format",
                "csv",
                "--output",
                "output/export.csv",
            ],
            "cwd": ".",
            "stdin": None,
            "stage": "export",
            "timeout": 30.0,
        },
        {
            "run": "python -m budgetdesk export workspace/budget.db --format json --output output/export.json",
            "argv": [
                "python",
                "-m",
                "budgetdesk",
                "export",
                "workspace/budget.db",
                "--format",
                "json",
                "--output",
                "output/export.json",
            ],
            "cwd": ".",
            "stdin": None,
            "stage": "export",
            "timeout": 30.0,
        },
    ],
    "outputs": [
        {"path": "workspace/budget.db", "format": "sqlite", "header": [], "stage": "initial"},
        {"path": "output/monthly.json", "format": "json", "header": [], "stage": "initial"},
        {"path": "output/split_errors.json", "format": "json", "header": [], "stage": "splits"},
        {
            "path": "output/export.csv",
            "format": "csv",
            "header": [
                "source_account",
                "source_id",
                "part",
                "posted_on",
                "description",
                "category",
                "amount",
            ],
            "stage": "export",
        },
        {"path": "output/export.json", "format": "json", "header": [], "stage": "export"},
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
import json
import re
import sqlite3
import unicodedata
from decimal import Decimal

DB = "workspace/budget.db"
ACCOUNTS = "inputs/accounts.json"
SPLITS = "inputs/splits.csv"
REPORT = "output/monthly.json"
ERRORS = "output/split_errors.json"
EXPORT_CSV = "output/export.csv"
EXPORT_JSON = "output/export.json"
MONTH = "2025-05"
V1_TABLES = ("budgets", "categories", "category_rules", "transactions")
# (name, declared type, NOT NULL, primary-key position) of each column, in order (SPLITS.md).
SPLITS_COLUMNS = [
    ("transaction_id", "INTEGER", 1, 1),
    ("part", "INTEGER", 1, 2),
    ("category", "TEXT", 1, 0),
    ("amount", "TEXT", 1, 0),
]
EXPORT_HEADER = [
    "source_account",
    "source_id",
    "part",
    "posted_on",
    "description",
    "category",
    "amount",
]
PART_AMOUNT = re.compile(r"-?(?:0|[1-9][0-9]*)\.[0-9][0-9]")


def money(value: Decimal) -> str:
    """TASK.md's amount text: two decimals, '-' when negative, zero as 0.00."""
    text = f"{value.quantize(Decimal('0.01')):f}"
    return "0.00" if text == "-0.00" else text


def clean(text: str) -> str:
    return " ".join(unicodedata.normalize("NFKC", text).split())


def alpen_rows(data: bytes) -> list[tuple[str, str, str, Decimal]]:
    """(source_id, posted_on, description, amount) of an alpen statement."""
    out = []
    for row in csv.DictReader(io.StringIO(data.decode("cp1252"), newline=""), delimiter=";"):
        day, month, year = row["Buchungstag"].strip().split(".")
        debit, credit = row["Soll"].strip(), row["Haben"].strip()
        cell = credit or debit
        value = Decimal(cell.replace(".", "").replace(",", "."))
        text = row["Empfänger/Auftraggeber"] + " " + row["Verwendungszweck"]
        out.append(
            (row["Referenz"], f"{year}-{month}-{day}", clean(text), value if credit else -value)
        )
    return out


def harbor_rows(data: bytes) -> list[tuple[str, str, str, Decimal]]:
    """(source_id, posted_on, description, amount) of a harbor statement (sign flipped)."""
    out = []
    for row in csv.DictReader(io.StringIO(data.decode("utf-8"), newline="")):
        month, day, year = row["Posting Date"].strip().split("/")
        value = Decimal(row["Amount"].strip().replace(",", ""))
        out.append(
            (row["Transaction ID"], f"{year}-{month}-{day}", clean(row["Description"]), -value)
        )
    return out


class Truth:
    """TASK.md, SPLITS.md and EXPORT.md replayed on the pristine fixture of the judged stage."""

    use_splits = True  # the edge fixture holds splits.csv at every stage

    def __init__(self, source: benchlib.Files) -> None:
        conn = source.sqlite(DB)
        try:
            self.kinds = dict(conn.execute("SELECT name, kind FROM categories").fetchall())
            rules = conn.execute(
                "SELECT priority, pattern, category FROM category_rules"
            ).fetchall()
            self.budgets = {
                (m, c): Decimal(a)
                for m, c, a in conn.execute("SELECT month, category, amount FROM budgets")
            }
            old = conn.execute(
                "SELECT id, source_account, source_id, posted_on, description, amount, category"
                " FROM transactions"
            ).fetchall()
        finally:
            conn.close()
        self.rules = [(p.casefold(), c) for _, p, c in sorted(rules)]
        # key -> (posted_on, description, amount text, category)
        self.rows: dict[tuple[str, str], tuple[str, str, str, str]] = {}
        self.old_ids: dict[tuple[str, str], int] = {}
        for tid, account, sid, posted, text, amount, category in old:
            self.rows[(account, sid)] = (posted, text, amount, category)
            self.old_ids[(account, sid)] = tid
        for account in json.loads(source.text(ACCOUNTS))["accounts"]:
            read = alpen_rows if account["dialect"] == "alpen" else harbor_rows
            for name in account["statements"]:
                for sid, posted, text, value in read(source.bytes(f"inputs/statements/{name}")):
                    if (account["id"], sid) not in self.rows:
                        self.rows[(account["id"], sid)] = (
                            posted,
                            text,
                            money(value),
                            self.rule(text),
                        )
        self.split = self.use_splits and source.exists(SPLITS)
        self.parts: dict[tuple[str, str], list[tuple[int, str, str]]] = {}
        self.outcome: dict[str, list] = {"applied": [], "errors": []}
        if self.split:
            self.apply_splits(list(csv.DictReader(io.StringIO(source.text(SPLITS), newline=""))))

    def rule(self, text: str) -> str:
        folded = text.casefold()
        return next((c for p, c in self.rules if p in folded), "Uncategorized")

    def apply_splits(self, rows: list[dict[str, str]]) -> None:
        groups: dict[tuple[str, str], list[tuple[int, str, str]]] = {}
        for number, row in enumerate(rows, start=1):
            key = (row["source_account"], row["source_id"])
            groups.setdefault(key, []).append((number, row["category"], row["amount"]))
        for key, parts in groups.items():
            error = self.split_error(key, parts)
            if error:
                rows_of = [n for n, _, _ in parts]
                self.outcome["errors"].append(
                    {"source_account": key[0], "source_id": key[1], "rows": rows_of, "error": error}
                )
                continue
            self.parts[key] = [(i, c, a) for i, (_, c, a) in enumerate(parts, start=1)]
            self.outcome["applied"].append(
                {"source_account": key[0], "source_id": key[1], "parts": len(parts)}
            )

    def split_error(self, key: tuple[str, str], parts: list[tuple[int, str, str]]) -> str:
        if key not in self.rows:
            return "unknown_transaction"
        categories = [c for _, c, _ in parts]
        if any(c not in self.kinds for c in categories):
            return "unknown_category"
        _, _, amount, category = self.rows[key]
        if any(self.kinds[c] != "spending" for c in [category, *categories]):
            return "not_spending"
        total = Decimal(amount)
        for _, _, text in parts:
            if not PART_AMOUNT.fullmatch(text):
                return "invalid_amount"
            value = Decimal(text)
            if value == 0 or (value > 0) != (total > 0):
                return "invalid_amount"
        if sum(Decimal(t) for _, _, t in parts) != total:
            return "sum_mismatch"
        return ""

    def report(self) -> dict:
        income = spending = incoming = outgoing = Decimal(0)
        actual: dict[str, Decimal] = {}
        for key, (posted, _, amount, category) in self.rows.items():
            if not posted.startswith(MONTH + "-"):
                continue
            pieces = (
                [(c, a) for _, c, a in self.parts[key]]
                if key in self.parts
                else [(category, amount)]
            )
            for name, text in pieces:
                value, kind = Decimal(text), self.kinds[name]
                if kind == "income":
                    income += value
                elif kind == "transfer":
                    incoming += max(value, Decimal(0))
                    outgoing -= min(value, Decimal(0))
                else:
                    spending -= value
                    actual[name] = actual.get(name, Decimal(0)) - value
        names = set(actual) | {c for m, c in self.budgets if m == MONTH}
        categories = []
        for name in sorted(names):
            budget = self.budgets.get((MONTH, name), Decimal(0))
            spent = actual.get(name, Decimal(0))
            categories.append(
                {"category": name, "budget": money(budget), "actual": money(spent),
                 "variance": money(budget - spent)}
            )  # fmt: skip
        return {
            "month": MONTH,
            "income": money(income),
            "spending": money(spending),
            "transfers": {"in": money(incoming), "out": money(outgoing)},
            "categories": categories,
        }

    def export(self) -> list[dict]:
        out = []
        for key in sorted(self.rows, key=lambda k: (self.rows[k][0], k[0], k[1])):
            posted, text, amount, category = self.rows[key]
            out.append(
                {"source_account": key[0], "source_id": key[1], "posted_on": posted,
                 "description": text, "category": category, "amount": amount,
                 "splits": [{"part": i, "category": c, "amount": a} for i, c, a in self.parts.get(key, [])]}
            )  # fmt: skip
        return out

    def export_csv(self) -> str:
        stream = io.StringIO()
        writer = csv.writer(stream, lineterminator="\n")
        writer.writerow(EXPORT_HEADER)
        for t in self.export():
            parts = t["splits"] or [{"part": 0, "category": t["category"], "amount": t["amount"]}]
            for p in parts:
                writer.writerow(
                    [t["source_account"], t["source_id"], p["part"], t["posted_on"],
                     t["description"], p["category"], p["amount"]]
                )  # fmt: skip
        return stream.getvalue()


class StageOneTruth(Truth):
    """The truth before split transactions exist (the edge fixture at stage 1)."""

    use_splits = False


def truth(run: benchlib.Run) -> Truth:
    return run.memo.get("truth-override") or run.derived("truth", Truth)


def same(got: object, want: object) -> bool:
    """Equal values of the same JSON types (an integer is no string, a string no number)."""
    if type(got) is not type(want):
        return False
    if isinstance(want, dict):
        return got.keys() == want.keys() and all(same(got[k], want[k]) for k in want)
    if isinstance(want, list):
        return len(got) == len(want) and all(same(g, w) for g, w in zip(got, want, strict=True))
    return got == want


def expect_same(got: object, want: object, what: str) -> None:
    if same(got, want):
        return
    if isinstance(got, list) and isinstance(want, list):
        for i, (g, w) in enumerate(zip(got, want, strict=False)):
            benchlib.expect(same(g, w), f"{what}: item {i} is {g!r}, expected {w!r}")
        benchlib.expect(False, f"{what}: {len(got)} items, expected {len(want)}")
    benchlib.expect(False, f"{what}: got {got!r}, expected {want!r}")


def database(run: benchlib.Run) -> dict:
    """The candidate's database as plain values (read once per fixture)."""
    if "db" not in run.memo:
        try:
            run.memo["db"] = read_database(run)
        except benchlib.CheckFailed as exc:
            run.memo["db"] = exc
    state = run.memo["db"]
    if isinstance(state, benchlib.CheckFailed):
        raise benchlib.CheckFailed(str(state))
    return state


def read_database(run: benchlib.Run) -> dict:
    conn = run.files.sqlite(DB)
    try:
        tables = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        state: dict = {
            "integrity": [r[0] for r in conn.execute("PRAGMA integrity_check").fetchall()],
            "version": conn.execute("PRAGMA user_version").fetchone()[0],
            "columns": {
                t: [
                    (r[1], str(r[2]).upper(), r[3], r[5])
                    for r in conn.execute(f"PRAGMA table_info({t})")
                ]
                for t in (*V1_TABLES, "splits")
                if t in tables
            },
            "transactions": conn.execute(
                "SELECT id, source_account, source_id, posted_on, description, amount, category"
                " FROM transactions"
            ).fetchall(),
            "splits": [],
            "fixed": {
                t: sorted(conn.execute(f"SELECT * FROM {t}").fetchall(), key=repr)
                for t in V1_TABLES[:3]
                if t in tables
            },
        }
        if "splits" in tables:
            state["splits"] = conn.execute(
                "SELECT transaction_id, part, category, amount FROM splits"
            ).fetchall()
        return state
    except sqlite3.Error as exc:
        raise benchlib.CheckFailed(f"{DB}: unreadable ({type(exc).__name__}: {exc})") from None
    finally:
        conn.close()


def transactions(run: benchlib.Run) -> dict[tuple, tuple]:
    """key -> (id, posted_on, description, amount, category) of the candidate's rows."""
    rows = database(run)["transactions"]
    keyed = {(r[1], r[2]): (r[0], *r[3:]) for r in rows}
    benchlib.expect(
        len(keyed) == len(rows), f"{DB}: a (source_account, source_id) pair appears twice"
    )
    want = truth(run).rows
    missing = sorted(set(want) - set(keyed))
    extra = sorted(set(keyed) - set(want), key=repr)
    benchlib.expect(
        not missing and not extra, f"transactions: missing {missing[:4]}, unexpected {extra[:4]}"
    )
    return keyed


def parts(run: benchlib.Run) -> dict[tuple, list[tuple]]:
    """key -> sorted (part, category, amount) of the candidate's splits table."""
    by_id = {v[0]: k for k, v in transactions(run).items()}
    out: dict[tuple, list[tuple]] = {}
    for tid, part, category, amount in database(run)["splits"]:
        benchlib.expect(tid in by_id, f"splits: transaction_id {tid!r} names no transaction")
        out.setdefault(by_id[tid], []).append((part, category, amount))
    return {k: sorted(v, key=repr) for k, v in out.items()}


def report_file(run: benchlib.Run) -> dict:
    report = run.json(REPORT)
    benchlib.expect(isinstance(report, dict), f"{REPORT}: not a JSON object")
    keys = ["categories", "income", "month", "spending", "transfers"]
    benchlib.expect_equal(sorted(report), keys, f"{REPORT}: keys")
    return report


@judge.check(level=3)
def transactions_imported(run: benchlib.Run) -> None:
    """Every old and new (source_account, source_id) once, with its posted_on and amount."""
    want = truth(run).rows
    got = transactions(run)
    wrong = [
        (k, got[k][1], got[k][3], want[k][0], want[k][2])
        for k in sorted(want)
        if (got[k][1], got[k][3]) != (want[k][0], want[k][2])
    ]
    benchlib.expect(
        not wrong,
        f"{len(wrong)} rows with another posted_on or amount, e.g. (key, got, want) {wrong[:2]}",
    )


@judge.check(level=3)
def report_totals(run: benchlib.Run) -> None:
    """month, income, spending and transfers of output/monthly.json."""
    report, want = report_file(run), truth(run).report()
    for key in ("month", "income", "spending", "transfers"):
        expect_same(report[key], want[key], f"{REPORT}: {key}")


@judge.check(level=4)
def transactions_described(run: benchlib.Run) -> None:
    """Normalized descriptions, rule categories, old rows kept as they were (with their id)."""
    t = truth(run)
    got = transactions(run)
    wrong = [
        (k, got[k][2:5:2], t.rows[k][1::2])
        for k in sorted(t.rows)
        if (got[k][2], got[k][4]) != (t.rows[k][1], t.rows[k][3])
    ]
    benchlib.expect(
        not wrong,
        f"{len(wrong)} rows with another description or category, e.g. (key, got, want) {wrong[:2]}",
    )
    moved = [k for k, tid in t.old_ids.items() if got[k][0] != tid]
    benchlib.expect(not moved, f"rows that were in the database changed their id: {moved[:3]}")


@judge.check(level=4)
def report_categories(run: benchlib.Run) -> None:
    """The budget variance list of output/monthly.json (with the split parts, once asked)."""
    expect_same(
        report_file(run)["categories"], truth(run).report()["categories"], f"{REPORT}: categories"
    )


@judge.check(level=4, stage="splits")
def schema_version_2(run: benchlib.Run) -> None:
    """user_version 2, the splits table of SPLITS.md, the version-1 tables unchanged."""
    state = database(run)
    benchlib.expect_equal(state["integrity"], ["ok"], "PRAGMA integrity_check")
    benchlib.expect_equal(state["version"], 2, "PRAGMA user_version")
    benchlib.expect_equal(
        state["columns"].get("splits"), SPLITS_COLUMNS, "splits columns (name, type, not null, pk)"
    )
    source = run.source.sqlite(DB)
    try:
        for table in V1_TABLES:
            old = [
                (r[1], str(r[2]).upper(), r[3], r[5])
                for r in source.execute(f"PRAGMA table_info({table})")
            ]
            benchlib.expect_equal(state["columns"].get(table), old, f"{table} columns")
        for table in V1_TABLES[:3]:
            old = sorted(source.execute(f"SELECT * FROM {table}").fetchall(), key=repr)
            benchlib.expect_equal(state["fixed"].get(table), old, f"{table} rows")
    finally:
        source.close()


@judge.check(level=4, stage="splits")
def split_parts(run: benchlib.Run) -> None:
    """The splits table: exactly the parts of the applied splits."""
    want = {k: sorted(v, key=repr) for k, v in truth(run).parts.items()}
    expect_same(sorted(parts(run).items()), sorted(want.items()), "splits rows by transaction")


@judge.check(level=4, stage="splits")
def split_report(run: benchlib.Run) -> None:
    """output/split_errors.json: applied and errors, in split order."""
    got = run.json(ERRORS)
    benchlib.expect(isinstance(got, dict), f"{ERRORS}: not a JSON object")
    want = truth(run).outcome
    benchlib.expect_equal(sorted(got), sorted(want), f"{ERRORS}: keys")
    for key in want:
        expect_same(got[key], want[key], f"{ERRORS}: {key}")


@judge.check(level=4, stage="export")
def export_csv(run: benchlib.Run) -> None:
    """output/export.csv byte for byte: csv.writer with LF, one row per unsplit row or part."""
    got, want = run.bytes(EXPORT_CSV), truth(run).export_csv().encode("utf-8")
    benchlib.expect(
        got.startswith(b"source_account,"), f"{EXPORT_CSV}: does not start with its header"
    )
    if got != want:
        g, w = got.split(b"\n"), want.split(b"\n")
        line = next(
            (i for i, (a, b) in enumerate(zip(g, w, strict=False)) if a != b), min(len(g), len(w))
        )
        benchlib.expect(
            False,
            f"{EXPORT_CSV}: line {line + 1} is {g[line : line + 1]!r}, expected {w[line : line + 1]!r}",
        )


@judge.check(level=4, stage="export")
def export_json(run: benchlib.Run) -> None:
    """output/export.json: {"transactions": [...]} in export order, exact keys and types."""
    got = run.json(EXPORT_JSON)
    benchlib.expect(
        isinstance(got, dict) and list(got) == ["transactions"],
        f"{EXPORT_JSON}: not an object with only 'transactions'",
    )
    expect_same(got["transactions"], truth(run).export(), f"{EXPORT_JSON}: transactions")


@judge.edge(until="initial")
def unsplit_before_splits(run: benchlib.Run) -> None:
    """Before splits exist (stage 1), the edge book's rows and report, every transaction in its
    own category (the edge fixture holds splits.csv at every stage; a stage-1 solution ignores it)."""
    run.memo["truth-override"] = run.derived("truth-stage-1", StageOneTruth)
    transactions_imported(run)
    transactions_described(run)
    report_totals(run)
    report_categories(run)


@judge.edge(stage="splits")
def unbalanced_split(run: benchlib.Run) -> None:
    """The split one cent off is rejected and left unsplit; the other splits are applied."""
    t = truth(run)
    benchlib.expect(
        any(e["error"] == "sum_mismatch" for e in t.outcome["errors"]),
        "edge fixture: no unbalanced split",
    )
    split_report(run)
    split_parts(run)
    report_categories(run)


# endregion authored

if __name__ == "__main__":
    sys.exit(judge.main())
