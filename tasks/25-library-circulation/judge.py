# generated from task.toml by benchsmith -- edit only the authored region
"""Judge of task 25: Library Circulation Reconstruction.

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
    "id": 25,
    "slug": "library-circulation",
    "stages": ["initial", "corrections"],
    "editable": ["solution/", "output/"],
    "commands": [
        {
            "run": "python -m solution.library_state inputs --as-of 2025-08-31T23:59:59Z --output output",
            "argv": [
                "python",
                "-m",
                "solution.library_state",
                "inputs",
                "--as-of",
                "2025-08-31T23:59:59Z",
                "--output",
                "output",
            ],
            "cwd": ".",
            "stdin": None,
            "stage": "initial",
            "timeout": 30.0,
        }
    ],
    "outputs": [
        {
            "path": "output/active_loans.csv",
            "format": "csv",
            "header": ["item_id", "patron_id", "checkout_txn", "due_date", "status", "fine"],
            "stage": "initial",
        },
        {
            "path": "output/fines.csv",
            "format": "csv",
            "header": ["patron_id", "overdue_fines", "lost_fees", "waived", "balance"],
            "stage": "initial",
        },
        {"path": "output/notices/", "format": "directory", "header": [], "stage": "initial"},
        {
            "path": "output/correction_effects.csv",
            "format": "csv",
            "header": [
                "patron_id",
                "balance_before",
                "balance_after",
                "loans_added",
                "loans_removed",
            ],
            "stage": "corrections",
        },
    ],
    "expect": [],
    "edge_expect": [
        {
            "name": "edge#1",
            "file": "output/active_loans.csv",
            "level": 4,
            "where": {"item_id": "I77001"},
            "absent": True,
        },
        {
            "name": "edge#2",
            "file": "output/fines.csv",
            "level": 4,
            "where": {"patron_id": "P7701"},
            "equals": {"overdue_fines": "0.75", "balance": "0.75"},
        },
        {
            "name": "edge#3",
            "file": "output/fines.csv",
            "level": 4,
            "where": {"patron_id": "P7702"},
            "equals": {"overdue_fines": "4.00", "balance": "4.00"},
        },
    ],
    "edge_include_visible": True,
    "services": [],
}

judge = benchlib.Judge(TASK)

# region authored: benchsmith keeps these lines when it rebuilds judge.py
import datetime as dt
from zoneinfo import ZoneInfo

LOANS = "output/active_loans.csv"
FINES = "output/fines.csv"
EFFECTS = "output/correction_effects.csv"
NOTICES = "output/notices"
CORRECTIONS = "inputs/corrections.csv"
TZ = ZoneInfo("Europe/Berlin")
# --as-of 2025-08-31T23:59:59Z is 2025-09-01 in Berlin; open loans count through that day.
AS_OF = dt.date(2025, 9, 1)


def cents(text: str) -> int:
    whole, _, frac = text.partition(".")
    return int(whole) * 100 + int((frac + "00")[:2])


def euros(value: int) -> str:
    return f"{value // 100}.{value % 100:02d}"


BERLIN_DAYS: dict[str, int] = {}
ORDINALS: dict[str, int] = {}


def ordinal(day: str) -> int:
    if day not in ORDINALS:
        ORDINALS[day] = dt.date.fromisoformat(day).toordinal()
    return ORDINALS[day]


def berlin_day(stamp: str) -> int:
    """The proleptic ordinal of the Berlin date of a UTC ``...Z`` timestamp."""
    hour = stamp[:13]  # offsets change on the hour: one conversion per UTC hour
    if hour not in BERLIN_DAYS:
        moment = dt.datetime.fromisoformat(hour + ":00:00+00:00")
        BERLIN_DAYS[hour] = moment.astimezone(TZ).date().toordinal()
    return BERLIN_DAYS[hour]


def read_log(source: benchlib.Files) -> tuple[list[list[str]], list[list[str]] | None]:
    """The log's rows (timestamp, txn_id, kind, item_id, patron_id, due_date, amount), and
    the rows after the corrections, or None before they exist."""
    fields = ("timestamp", "txn_id", "kind", "item_id", "patron_id", "due_date", "amount")
    with source.path("inputs/circulation.csv").open(encoding="utf-8") as handle:
        head = handle.readline().rstrip("\n").split(",")
        benchlib.expect_equal(head[:7], ["txn_id", *fields[:1], *fields[2:]], "log header")
        rows = []
        for line in handle:
            t, s, k, i, p, d, a, _ = line.split(",", 7)
            rows.append([s, t, k, i, p, d, a])
    if not source.exists(CORRECTIONS):
        return rows, None
    fixes = source.csv(CORRECTIONS)
    void = {r["txn_id"] for r in fixes if r["action"] == "void"}
    added = [[r[f] for f in fields] for r in fixes if r["action"] == "add"]
    return rows, [r for r in rows if r[1] not in void] + added


class Library:
    """TASK.md recomputed from the pristine inputs, in integer cents and day ordinals."""

    def __init__(self, source: benchlib.Files, rows: list[list[str]]) -> None:
        self.catalog = {r["item_id"]: r for r in source.csv("inputs/catalog.csv")}
        self.rates = {
            i: (cents(r["daily_fine"]), cents(r["fine_cap"])) for i, r in self.catalog.items()
        }
        self.patrons = sorted(source.csv("inputs/patrons.csv"), key=lambda r: r["patron_id"])
        self.waived: dict[str, int] = {}
        per_item: dict[str, list[tuple[str, str, str, str, str]]] = {}
        for stamp, txn, kind, item, patron, due, amount in rows:
            if kind == "waive-fine":
                self.waived[patron] = self.waived.get(patron, 0) + cents(amount)
            else:
                per_item.setdefault(item, []).append((stamp, txn, kind, patron, due))
        self.fines: dict[str, int] = {}
        self.fees: dict[str, int] = {}
        self.loans: list[tuple[str, str, str, str, str, int]] = []
        for item in sorted(per_item):
            current: list = [item, None]
            for stamp, txn, kind, patron, due in sorted(per_item[item]):
                loan = current[1]
                if kind == "checkout" and loan is None:
                    current[1] = {"patron": patron, "txn": txn, "due": due, "lost": None}
                elif loan is None:
                    continue
                elif kind == "renew" and loan["lost"] is None:
                    loan["due"] = due
                elif kind == "return" and loan["lost"] is None:
                    self.charge(item, loan, berlin_day(stamp))
                    current[1] = None
                elif kind == "mark-lost" and loan["lost"] is None:
                    loan["lost"] = berlin_day(stamp)
                elif kind == "restore" and loan["lost"] is not None:
                    self.charge(item, loan, loan["lost"])
                    current[1] = None
            self.close(current)

    def charge(self, item: str, loan: dict, stop: int) -> int:
        """Add the loan's fine for the days after its due date and before ``stop``."""
        days = max(0, stop - ordinal(loan["due"]) - 1)
        daily, cap = self.rates[item]
        fine = min(days * daily, cap)
        self.fines[loan["patron"]] = self.fines.get(loan["patron"], 0) + fine
        return fine

    def close(self, current: list | None) -> None:
        """An item's loan still open after its last transaction: on loan or lost."""
        if current is None or current[1] is None:
            return
        item, loan = current
        if loan["lost"] is None:
            fine, status = self.charge(item, loan, AS_OF.toordinal() + 1), "on_loan"
        else:
            fine, status = self.charge(item, loan, loan["lost"]), "lost"
            fee = cents(self.catalog[item]["lost_fee"])
            self.fees[loan["patron"]] = self.fees.get(loan["patron"], 0) + fee
        self.loans.append((item, loan["patron"], loan["txn"], loan["due"], status, fine))

    def balance(self, patron: str) -> int:
        owed = self.fines.get(patron, 0) + self.fees.get(patron, 0)
        return max(0, owed - self.waived.get(patron, 0))

    def loan_rows(self) -> list[tuple[str, ...]]:
        return [(*loan[:5], euros(loan[5])) for loan in self.loans]

    def fine_rows(self) -> list[tuple[str, ...]]:
        return [
            (
                p["patron_id"],
                euros(self.fines.get(p["patron_id"], 0)),
                euros(self.fees.get(p["patron_id"], 0)),
                euros(self.waived.get(p["patron_id"], 0)),
                euros(self.balance(p["patron_id"])),
            )
            for p in self.patrons
        ]

    def held(self) -> dict[str, list[tuple]]:
        mine: dict[str, list[tuple]] = {}
        for loan in self.loans:
            mine.setdefault(loan[1], []).append(loan)
        return mine

    def notices(self) -> dict[str, str]:
        held, texts = self.held(), {}
        for p in self.patrons:
            pid = p["patron_id"]
            loans = held.get(pid, [])
            out = [f"Account notice for {p['name']} ({pid})", f"As of {AS_OF.isoformat()}", ""]
            active = [x for x in loans if x[4] == "on_loan"]
            out.append(f"Items on loan: {len(active)}")
            for x in active:
                title = self.catalog[x[0]]["title"]
                out.append(f"- {x[0]} {title} | due {x[3]} | fine {euros(x[5])} EUR")
            lost = [x for x in loans if x[4] == "lost"]
            out.append(f"Lost items: {len(lost)}")
            for x in lost:
                entry = self.catalog[x[0]]
                fee = euros(cents(entry["lost_fee"]))
                out.append(
                    f"- {x[0]} {entry['title']} | lost fee {fee} EUR | fine {euros(x[5])} EUR"
                )
            out.append("")
            out.append(f"Overdue fines: {euros(self.fines.get(pid, 0))} EUR")
            out.append(f"Lost fees: {euros(self.fees.get(pid, 0))} EUR")
            out.append(f"Waived: {euros(self.waived.get(pid, 0))} EUR")
            out.append(f"Balance due: {euros(self.balance(pid))} EUR")
            texts[f"{pid}.txt"] = "\n".join(out) + "\n"
        return texts


def library(run: benchlib.Run, corrected: bool = True) -> Library:
    """The library before (``corrected`` False) or after the corrections; one library
    while there are none. Computed once per fixture (run.derived)."""
    corrected = corrected and run.source.exists(CORRECTIONS)

    def build(source: benchlib.Files) -> Library:
        rows, fixed = read_log(source)
        return Library(source, fixed if corrected and fixed is not None else rows)

    return run.derived(f"library-{corrected}", build)


# A right output is far smaller (about 300 KB of loans, 30 KB of fines): a larger file is
# wrong without parsing it (a candidate copying the 35 MB log must not cost minutes).
MAX_OUTPUT_BYTES = 4 * 1024 * 1024


def table(run: benchlib.Run, path: str) -> list[dict[str, str]]:
    """The candidate's CSV output, parsed once per fixture."""
    if f"csv-{path}" not in run.memo:
        size = run.files.path(path).stat().st_size if run.files.exists(path) else 0
        benchlib.expect(size <= MAX_OUTPUT_BYTES, f"{path}: {size} bytes, far too large")
        run.memo[f"csv-{path}"] = run.csv(path)
    return run.memo[f"csv-{path}"]


def rows(run: benchlib.Run, path: str, *names: str) -> list[tuple[str, ...]]:
    return [tuple(r[n] for n in names) for r in table(run, path)]


def compare(got: list[tuple[str, ...]], want: list[tuple[str, ...]], what: str) -> None:
    """Row by row; the first differences are named."""
    benchlib.expect_equal(len(got), len(want), f"{what}: row count")
    wrong = [f"{g} != {w}" for g, w in zip(got, want, strict=True) if g != w]
    benchlib.expect(not wrong, f"{what}: {len(wrong)} row(s) wrong, e.g. {wrong[:3]}")


def effect_rows(run: benchlib.Run) -> list[tuple[str, ...]]:
    before, after = library(run, False), library(run)
    was = {p: {x[0] for x in v} for p, v in before.held().items()}
    now = {p: {x[0] for x in v} for p, v in after.held().items()}
    found = []
    for p in after.patrons:
        pid = p["patron_id"]
        old, new = euros(before.balance(pid)), euros(after.balance(pid))
        a, b = was.get(pid, set()), now.get(pid, set())
        if old != new or a != b:
            found.append((pid, old, new, ";".join(sorted(b - a)), ";".join(sorted(a - b))))
    return found


def notice_files(run: benchlib.Run) -> list[str]:
    folder = run.files.path(NOTICES)
    benchlib.expect(folder.is_dir(), f"{NOTICES}: not a folder")
    return sorted(p.name for p in folder.iterdir())


LOAN_COLUMNS = ("item_id", "patron_id", "checkout_txn", "due_date", "status", "fine")
FINE_COLUMNS = ("patron_id", "overdue_fines", "lost_fees", "waived", "balance")
EFFECT_COLUMNS = ("patron_id", "balance_before", "balance_after", "loans_added", "loans_removed")


@judge.check(level=3)
def loans_reconstructed(run: benchlib.Run) -> None:
    """active_loans.csv: the right items with the right patrons (with or without corrections)."""
    got = rows(run, LOANS, "item_id", "patron_id")
    if got != [x[:2] for x in library(run).loan_rows()]:
        before = [x[:2] for x in library(run, False).loan_rows()]
        benchlib.expect(got == before, f"{LOANS}: item/patron pairs match no reconstruction")


@judge.check(level=3)
def one_row_and_notice_per_patron(run: benchlib.Run) -> None:
    """fines.csv has one row per patron in order; notices/ one file per patron."""
    want = [p["patron_id"] for p in library(run).patrons]
    benchlib.expect_equal([r[0] for r in rows(run, FINES, *FINE_COLUMNS)], want, "fines.csv ids")
    benchlib.expect_equal(notice_files(run), sorted(f"{p}.txt" for p in want), "notice files")


@judge.check(level=4)
def item_transitions(run: benchlib.Run) -> None:
    """Every active loan: patron, checkout, due date after renewals, status, fine."""
    compare(rows(run, LOANS, *LOAN_COLUMNS), library(run).loan_rows(), LOANS)


@judge.check(level=4)
def fine_totals(run: benchlib.Run) -> None:
    """Every patron's overdue fines, lost fees, waived amount and floored balance."""
    compare(rows(run, FINES, *FINE_COLUMNS), library(run).fine_rows(), FINES)


@judge.check(level=4)
def notice_content(run: benchlib.Run) -> None:
    """Every notice, line for line."""
    names = sorted(f"{p['patron_id']}.txt" for p in run.source.csv("inputs/patrons.csv"))
    benchlib.expect_equal(notice_files(run), names, "notice files")
    want = library(run).notices()
    wrong = [n for n in sorted(want) if run.text(f"{NOTICES}/{n}") != want[n]]
    benchlib.expect(not wrong, f"{len(wrong)} notice(s) differ, e.g. {wrong[:3]}")


@judge.check(level=4, stage="corrections")
def correction_delta_set(run: benchlib.Run) -> None:
    """correction_effects.csv: exactly the patrons whose balance or loan set changed."""
    compare(rows(run, EFFECTS, *EFFECT_COLUMNS), effect_rows(run), EFFECTS)


# The anchors of task.toml and their hand-computed private truths (see each anchor's `why`):
# (anchor, output, key column, key, expected fields or None for "no such row"). One lookup in
# each parsed output instead of one parse of an output per expectation.
ANCHORS_EVERY_STAGE = [
    (
        "open-loan",
        LOANS,
        "item_id",
        "I90002",
        {
            "patron_id": "P9002",
            "checkout_txn": "C9000201",
            "due_date": "2025-08-28",
            "fine": "4.00",
        },
    ),
    ("open-loan", FINES, "patron_id", "P9002", {"overdue_fines": "4.00", "balance": "4.00"}),
    (
        "fine-cap",
        FINES,
        "patron_id",
        "P9003",
        {"overdue_fines": "7.00", "lost_fees": "0.00", "waived": "0.00", "balance": "7.00"},
    ),
    ("renew-after-return", FINES, "patron_id", "P9005", {"balance": "0.00"}),
    ("renew-after-return", FINES, "patron_id", "P9006", {"overdue_fines": "0.75"}),
    ("lost-and-restore", LOANS, "item_id", "I90009", None),
    ("lost-and-restore", LOANS, "item_id", "I90010", {"status": "lost", "fine": "1.00"}),
    (
        "lost-and-restore",
        FINES,
        "patron_id",
        "P9008",
        {"overdue_fines": "2.00", "lost_fees": "30.00", "balance": "32.00"},
    ),
    (
        "double-checkout",
        LOANS,
        "item_id",
        "I90014",
        {"patron_id": "P9012", "checkout_txn": "C9001001", "fine": "4.25"},
    ),
    ("double-checkout", FINES, "patron_id", "P9013", {"overdue_fines": "0.00", "balance": "0.00"}),
    ("ignored-lost-restore", LOANS, "item_id", "I90015", None),
    (
        "ignored-lost-restore",
        LOANS,
        "item_id",
        "I90016",
        {"patron_id": "P9014", "due_date": "2025-09-10"},
    ),
    ("ignored-lost-restore", FINES, "patron_id", "P9014", {"lost_fees": "0.00", "balance": "0.00"}),
    ("return-next-day", FINES, "patron_id", "P9015", {"overdue_fines": "0.25"}),
    ("winter-time", FINES, "patron_id", "P9016", {"overdue_fines": "0.50"}),
]
ANCHORS_BEFORE_CORRECTIONS = [
    ("local-day", FINES, "patron_id", "P9001", {"overdue_fines": "1.25", "balance": "1.25"}),
    ("renewals", FINES, "patron_id", "P9004", {"overdue_fines": "0.75", "balance": "0.75"}),
    (
        "renew-while-lost",
        LOANS,
        "item_id",
        "I90008",
        {"due_date": "2025-05-19", "status": "lost", "fine": "2.50"},
    ),
    (
        "renew-while-lost",
        FINES,
        "patron_id",
        "P9007",
        {"overdue_fines": "2.50", "lost_fees": "35.00", "balance": "37.50"},
    ),
    (
        "waivers",
        FINES,
        "patron_id",
        "P9009",
        {"overdue_fines": "2.25", "waived": "5.00", "balance": "0.00"},
    ),
    (
        "waivers",
        FINES,
        "patron_id",
        "P9010",
        {"overdue_fines": "6.00", "waived": "2.50", "balance": "3.50"},
    ),
    (
        "stray-return",
        LOANS,
        "item_id",
        "I90013",
        {
            "patron_id": "P9011",
            "checkout_txn": "C9000904",
            "due_date": "2025-09-03",
            "fine": "0.00",
        },
    ),
    ("correction-targets", LOANS, "item_id", "I90020", {"patron_id": "P9017"}),
]
ANCHORS_AFTER_CORRECTIONS = [
    (
        "corrections",
        EFFECTS,
        "patron_id",
        "P9001",
        {"balance_before": "1.25", "balance_after": "0.00", "loans_added": "", "loans_removed": ""},
    ),
    (
        "corrections",
        EFFECTS,
        "patron_id",
        "P9004",
        {"balance_before": "0.75", "balance_after": "4.25"},
    ),
    (
        "corrections",
        EFFECTS,
        "patron_id",
        "P9007",
        {"balance_before": "37.50", "balance_after": "6.00"},
    ),
    (
        "corrections",
        EFFECTS,
        "patron_id",
        "P9010",
        {"balance_before": "3.50", "balance_after": "2.50"},
    ),
    (
        "corrections",
        EFFECTS,
        "patron_id",
        "P9011",
        {
            "balance_before": "0.00",
            "balance_after": "0.00",
            "loans_added": "",
            "loans_removed": "I90013",
        },
    ),
    (
        "corrections",
        EFFECTS,
        "patron_id",
        "P9017",
        {"loans_added": "I90021", "loans_removed": "I90020;I90024;I90025;I90026"},
    ),
    ("corrections", EFFECTS, "patron_id", "P0250", {"loans_added": "I90032", "loans_removed": ""}),
    ("corrections", EFFECTS, "patron_id", "P0404", {"loans_added": "I90033;I90034;I90035;I90036"}),
    ("corrections", EFFECTS, "patron_id", "P9018", None),
    ("corrections", EFFECTS, "patron_id", "P9009", None),
    ("corrections", LOANS, "item_id", "I90008", {"due_date": "2025-06-09", "fine": "6.00"}),
    (
        "corrections",
        LOANS,
        "item_id",
        "I90022",
        {"checkout_txn": "X0000003", "due_date": "2025-09-19"},
    ),
    (
        "corrections",
        FINES,
        "patron_id",
        "P9009",
        {"overdue_fines": "2.50", "waived": "5.00", "balance": "0.00"},
    ),
]


def anchor_rows(run: benchlib.Run, expected: list) -> None:
    wrong = []
    for name, path, key, value, fields in expected:
        found = [r for r in table(run, path) if r.get(key) == value]
        if fields is None:
            if found:
                wrong.append(f"{name}: {path} has a row {key}={value}, expected none")
        elif len(found) != 1:
            wrong.append(f"{name}: {path} has {len(found)} rows {key}={value}, expected one")
        elif any(found[0].get(f) != v for f, v in fields.items()):
            got = {f: found[0].get(f) for f in fields}
            wrong.append(f"{name}: {path} {key}={value}: {got} != {fields}")
    benchlib.expect(not wrong, f"{len(wrong)} anchor value(s) wrong: {wrong[:3]}")


@judge.check(level=4)
def anchors_every_stage(run: benchlib.Run) -> None:
    """The anchors the corrections do not touch."""
    anchor_rows(run, ANCHORS_EVERY_STAGE)


@judge.check(level=4, until="initial")
def anchors_before_corrections(run: benchlib.Run) -> None:
    """Stage 1: the anchors the corrections change later, as the log first had them."""
    anchor_rows(run, ANCHORS_BEFORE_CORRECTIONS)


@judge.check(level=4, stage="corrections")
def anchors_after_corrections(run: benchlib.Run) -> None:
    """Stage 2: the corrected anchors and their correction effects."""
    anchor_rows(run, ANCHORS_AFTER_CORRECTIONS)


@judge.edge
def replay_in_timestamp_order(run: benchlib.Run) -> None:
    """Edge: loans and fines of the whole edge log, replayed by (timestamp, txn_id)."""
    compare(rows(run, LOANS, *LOAN_COLUMNS), library(run).loan_rows(), LOANS)
    compare(rows(run, FINES, *FINE_COLUMNS), library(run).fine_rows(), FINES)


# endregion authored

if __name__ == "__main__":
    sys.exit(judge.main())
