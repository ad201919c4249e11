"""Fee and document rules, as given and as the ordinance amends them (ORDINANCE.md)."""

from decimal import ROUND_HALF_UP, Decimal

from permitflow import db

CENT = Decimal("0.01")


def fee_of(app, row):
    """The fee of ``app`` under the fee-table row ``row`` (TASK.md, check 5)."""
    fee = Decimal(row["base_fee"]) + Decimal(row["per_1000"]) * Decimal(app["valuation"]) / 1000
    return max(fee.quantize(CENT, ROUND_HALF_UP), Decimal(row["minimum_fee"]))


def rulesets(conn):
    """ruleset -> (fee-table rows by permit type, required document types by permit type)."""
    found = {"given": ({}, {}), "amended": ({}, {})}
    for row in db.table(conn, "fees"):
        found[row["ruleset"]][0][row["permit_type"]] = row
    for row in db.table(conn, "required"):
        found[row["ruleset"]][1].setdefault(row["permit_type"], []).append(row["doc_type"])
    return found


def effective_date(conn):
    """The ordinance's effective date ("" before there is one: every file is then open, and
    the amended rules are the given ones)."""
    return dict(conn.execute("SELECT name, value FROM settings")).get("effective_date", "")
