"""Library circulation reconstruction (reference solution).

python -m solution.library_state INPUTS --as-of TIMESTAMP --output DIR

Reads the transaction log once (one small tuple per row), applies inputs/corrections.csv
when it exists, replays every item's transactions in (timestamp, txn_id) order and writes
active_loans.csv, fines.csv, one notice per patron and, with corrections,
correction_effects.csv.
"""

from __future__ import annotations

import argparse
import csv
import datetime as dt
import sys
from collections import defaultdict
from decimal import Decimal
from pathlib import Path
from zoneinfo import ZoneInfo

BERLIN = ZoneInfo("Europe/Berlin")
ZERO = Decimal("0.00")
LOANS_HEADER = ["item_id", "patron_id", "checkout_txn", "due_date", "status", "fine"]
FINES_HEADER = ["patron_id", "overdue_fines", "lost_fees", "waived", "balance"]
EFFECTS_HEADER = ["patron_id", "balance_before", "balance_after", "loans_added", "loans_removed"]

# One transaction: (timestamp, txn_id, kind, item_id, patron_id, due_date, amount)
Txn = tuple[str, str, str, str, str, str, str]


def local_date(stamp: str) -> dt.date:
    """The Berlin calendar date of a UTC timestamp."""
    return dt.datetime.fromisoformat(stamp).astimezone(BERLIN).date()


def money(value: Decimal) -> str:
    return f"{value:.2f}"


def read_log(path: Path) -> list[Txn]:
    with path.open(encoding="utf-8", newline="") as handle:
        reader = csv.reader(handle)
        head = next(reader)
        at = {name: i for i, name in enumerate(head)}
        cols = [at[n] for n in ("timestamp", "txn_id", "kind", "item_id", "patron_id")]
        cols += [at["due_date"], at["amount"]]
        a, b, c, d, e, f, g = cols
        return [(r[a], r[b], r[c], r[d], r[e], r[f], r[g]) for r in reader]


def corrected(log: list[Txn], path: Path) -> list[Txn]:
    """The log with the corrections of ``path`` applied (voids removed, adds appended)."""
    voided: set[str] = set()
    added: list[Txn] = []
    with path.open(encoding="utf-8", newline="") as handle:
        for row in csv.DictReader(handle):
            if row["action"] == "void":
                voided.add(row["txn_id"])
            else:  # add
                added.append(
                    (
                        row["timestamp"],
                        row["txn_id"],
                        row["kind"],
                        row["item_id"],
                        row["patron_id"],
                        row["due_date"],
                        row["amount"],
                    )
                )
    return [t for t in log if t[1] not in voided] + added


class Catalog:
    def __init__(self, path: Path) -> None:
        with path.open(encoding="utf-8", newline="") as handle:
            self.items = {r["item_id"]: r for r in csv.DictReader(handle)}

    def fine(self, item: str, due: str, end: dt.date) -> Decimal:
        """The fine for the days after ``due`` and before ``end`` (exclusive), capped."""
        days = max(0, (end - dt.date.fromisoformat(due)).days - 1)
        entry = self.items[item]
        return min(Decimal(entry["daily_fine"]) * days, Decimal(entry["fine_cap"]))


class State:
    """The reconstruction of one log: active loans and patron totals."""

    def __init__(self, log: list[Txn], catalog: Catalog, as_of: dt.date) -> None:
        self.loans: dict[str, tuple[str, str, str, str, Decimal]] = {}
        self.overdue: dict[str, Decimal] = defaultdict(Decimal)
        self.lost: dict[str, Decimal] = defaultdict(Decimal)
        self.waived: dict[str, Decimal] = defaultdict(Decimal)
        by_item: dict[str, list[Txn]] = defaultdict(list)
        for txn in log:
            if txn[2] == "waive-fine":
                self.waived[txn[4]] += Decimal(txn[6])
            else:
                by_item[txn[3]].append(txn)
        end_of_as_of = as_of + dt.timedelta(days=1)
        for item, txns in by_item.items():
            txns.sort()
            self.replay(item, txns, catalog, end_of_as_of)
        self.by_patron: dict[str, list[str]] = defaultdict(list)
        for item in sorted(self.loans):
            self.by_patron[self.loans[item][0]].append(item)

    def replay(self, item: str, txns: list[Txn], catalog: Catalog, end: dt.date) -> None:
        state, patron, start, due, lost_on = "shelf", "", "", "", end
        for stamp, txn, kind, _, who, new_due, _ in txns:
            if kind == "checkout" and state == "shelf":
                state, patron, start, due = "on_loan", who, txn, new_due
            elif kind == "renew" and state == "on_loan":
                due = new_due
            elif kind == "return" and state == "on_loan":
                self.overdue[patron] += catalog.fine(item, due, local_date(stamp))
                state = "shelf"
            elif kind == "mark-lost" and state == "on_loan":
                state, lost_on = "lost", local_date(stamp)
            elif kind == "restore" and state == "lost":
                self.overdue[patron] += catalog.fine(item, due, lost_on)
                state = "shelf"
        if state == "on_loan":
            fine = catalog.fine(item, due, end)
        elif state == "lost":
            fine = catalog.fine(item, due, lost_on)
            self.lost[patron] += Decimal(catalog.items[item]["lost_fee"])
        else:
            return
        self.overdue[patron] += fine
        self.loans[item] = (patron, start, due, state, fine)

    def balance(self, patron: str) -> Decimal:
        total = self.overdue[patron] + self.lost[patron] - self.waived[patron]
        return max(total, ZERO)

    def held(self, patron: str) -> list[str]:
        """The items on loan to or lost by ``patron``, sorted."""
        return self.by_patron.get(patron, [])


def write_csv(path: Path, header: list[str], rows: list[list[str]]) -> None:
    with path.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(header)
        writer.writerows(rows)


def notice(patron: dict[str, str], state: State, catalog: Catalog, as_of: dt.date) -> str:
    pid = patron["patron_id"]
    mine = [(item, state.loans[item]) for item in state.held(pid)]
    on_loan = [(i, loan) for i, loan in mine if loan[3] == "on_loan"]
    lost = [(i, loan) for i, loan in mine if loan[3] == "lost"]
    lines = [f"Account notice for {patron['name']} ({pid})", f"As of {as_of}", ""]
    lines.append(f"Items on loan: {len(on_loan)}")
    for item, loan in on_loan:
        title = catalog.items[item]["title"]
        lines.append(f"- {item} {title} | due {loan[2]} | fine {money(loan[4])} EUR")
    lines.append(f"Lost items: {len(lost)}")
    for item, loan in lost:
        entry = catalog.items[item]
        fee, fine = entry["lost_fee"], money(loan[4])
        lines.append(f"- {item} {entry['title']} | lost fee {fee} EUR | fine {fine} EUR")
    lines += [
        "",
        f"Overdue fines: {money(state.overdue[pid])} EUR",
        f"Lost fees: {money(state.lost[pid])} EUR",
        f"Waived: {money(state.waived[pid])} EUR",
        f"Balance due: {money(state.balance(pid))} EUR",
    ]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m solution.library_state")
    parser.add_argument("inputs", type=Path)
    parser.add_argument("--as-of", required=True)
    parser.add_argument("--output", type=Path, required=True)
    args = parser.parse_args(argv)
    as_of = local_date(args.as_of)
    catalog = Catalog(args.inputs / "catalog.csv")
    with (args.inputs / "patrons.csv").open(encoding="utf-8", newline="") as handle:
        patrons = sorted(csv.DictReader(handle), key=lambda r: r["patron_id"])
    log = read_log(args.inputs / "circulation.csv")
    fixes = args.inputs / "corrections.csv"
    before = State(log, catalog, as_of) if fixes.exists() else None
    state = State(corrected(log, fixes) if fixes.exists() else log, catalog, as_of)

    out = args.output
    (out / "notices").mkdir(parents=True, exist_ok=True)
    loans = [[item, *loan[:4], money(loan[4])] for item, loan in sorted(state.loans.items())]
    write_csv(out / "active_loans.csv", LOANS_HEADER, loans)
    rows = []
    for p in patrons:
        pid = p["patron_id"]
        totals = (state.overdue[pid], state.lost[pid], state.waived[pid], state.balance(pid))
        rows.append([pid, *(money(v) for v in totals)])
        text = notice(p, state, catalog, as_of)
        (out / "notices" / f"{pid}.txt").write_text(text, encoding="utf-8")
    write_csv(out / "fines.csv", FINES_HEADER, rows)
    if before is not None:
        effects = []
        for p in patrons:
            pid = p["patron_id"]
            old, new = money(before.balance(pid)), money(state.balance(pid))
            was, now = set(before.held(pid)), set(state.held(pid))
            if old != new or was != now:
                added, removed = ";".join(sorted(now - was)), ";".join(sorted(was - now))
                effects.append([pid, old, new, added, removed])
        write_csv(out / "correction_effects.csv", EFFECTS_HEADER, effects)
    return 0


if __name__ == "__main__":
    sys.exit(main())
