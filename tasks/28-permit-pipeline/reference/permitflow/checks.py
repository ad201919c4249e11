"""Check every stored application against the registries and the rules that apply to it."""

from decimal import Decimal

from permitflow import db, registry, rules


def document_issues(app, required, attachments):
    issues = []
    for doc_type in required.get(app["permit_type"], []):
        found = [
            a for a in map(attachments.get, app["documents"]) if a and a["doc_type"] == doc_type
        ]
        if not found:
            issues.append(("document_missing", doc_type))
        elif all(a["expires_on"] and a["expires_on"] < app["submitted"] for a in found):
            issues.append(("document_expired", doc_type))
    return issues


def registry_issues(app, parcels, owners, zoning):
    parcel = parcels.get(app["parcel_id"])
    if parcel is None:
        return [("parcel_not_found", app["parcel_id"])]
    issues = []
    owner = owners[parcel["owner_id"]]
    if not registry.owner_matches(app["owner_name"], owner):
        issues.append(("owner_mismatch", owner))
    if (parcel["zone"], app["permit_type"]) not in zoning:
        issues.append(("zoning_incompatible", parcel["zone"]))
    return issues


def evaluate(conn):
    """Issues, fees, ordinance impacts and merges of every application, from the database."""
    parcels = {row["parcel_id"]: row for row in db.table(conn, "parcels")}
    owners = {row["owner_id"]: row["name"] for row in db.table(conn, "owners")}
    zoning = {(row["zone"], row["permit_type"]) for row in db.table(conn, "zoning")}
    attachments = {row["attachment_id"]: row for row in db.table(conn, "attachments")}
    given, amended = rules.rulesets(conn).values()
    effective = rules.effective_date(conn)
    unresolved = dict(conn.execute("SELECT * FROM unresolved"))
    result = {
        "applications": db.applications(conn),
        "issues": {},
        "fees": {},
        "impacts": [],
        "merges": conn.execute("SELECT * FROM merges ORDER BY survivor_id, merged_id").fetchall(),
    }
    for app in result["applications"]:
        app_id = app["application_id"]
        if app["unreadable"]:
            result["issues"][app_id] = [("parse_error", f) for f in sorted(app["unreadable"])]
            continue
        is_open = not app["closed_on"] or app["closed_on"] >= effective
        fees, required = amended if is_open else given
        fee = rules.fee_of(app, fees[app["permit_type"]])
        due = max(fee - Decimal(app["fee_paid"]), Decimal("0.00"))
        issues = registry_issues(app, parcels, owners, zoning)
        issues += document_issues(app, required, attachments)
        if due > 0:
            issues.append(("fee_unpaid", str(due)))
        if app_id in unresolved:
            issues.append(("unresolved_duplicate", unresolved[app_id]))
        result["issues"][app_id] = sorted(issues)
        result["fees"][app_id] = (fee, due)
        if is_open:
            before = given[1].get(app["permit_type"], [])  # sorted: the table's key
            after = amended[1].get(app["permit_type"], [])
            if before != after:
                result["impacts"].append([app_id, "documents", ";".join(before), ";".join(after)])
            old = rules.fee_of(app, given[0][app["permit_type"]])
            if old != fee:
                result["impacts"].append([app_id, "fee", old, fee])
    return result
