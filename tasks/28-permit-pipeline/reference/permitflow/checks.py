"""Check every stored application against the registries and the rules that apply to it."""

from decimal import Decimal

from permitflow import db, registry, rules


def document_issues(app, required, attachments):
    issues = []
    for doc_type in required.get(app["permit_type"], []):
        found = [attachments[ref] for ref in app["documents"]
                 if ref in attachments and attachments[ref]["doc_type"] == doc_type]  # fmt: skip
        if not found:
            issues.append(("document_missing", doc_type))
        elif all(a["expires_on"] and a["expires_on"] < app["submitted"] for a in found):
            issues.append(("document_expired", doc_type))
    return issues


def registry_issues(app, data):
    parcel = data["parcels"].get(app["parcel_id"])
    if parcel is None:
        return [("parcel_not_found", app["parcel_id"])]
    issues = []
    owner = data["owners"][parcel["owner_id"]]
    if not registry.owner_matches(app["owner_name"], owner):
        issues.append(("owner_mismatch", owner))
    if app["permit_type"] not in data["zoning"][parcel["zone"]]:
        issues.append(("zoning_incompatible", parcel["zone"]))
    return issues


def evaluate(conn):
    """Issues, fees and ordinance impacts of every application, from the database."""
    data = db.reference_data(conn)
    old, new, effective = rules.rule_sets(data)
    result = {"applications": db.applications(conn), "issues": {}, "fees": {},
              "impacts": [], "merges": sorted(data.get("merges", []))}  # fmt: skip
    for app in result["applications"]:
        app_id = app["application_id"]
        if app["unreadable"]:
            result["issues"][app_id] = sorted(("parse_error", f) for f in app["unreadable"])
            continue
        is_open = effective is not None and (not app["closed_on"] or app["closed_on"] >= effective)
        fees, required = new if is_open else old
        fee = rules.fee_of(app, fees)
        due = max(fee - Decimal(app["fee_paid"]), Decimal("0.00"))
        issues = registry_issues(app, data) + document_issues(app, required, data["attachments"])
        if due > 0:
            issues.append(("fee_unpaid", str(due)))
        if str(app_id) in data.get("unresolved", {}):
            issues.append(("unresolved_duplicate", data["unresolved"][str(app_id)]))
        result["issues"][app_id] = sorted(issues)
        result["fees"][app_id] = (fee, due)
        if is_open:
            before = sorted(old[1].get(app["permit_type"], []))
            after = sorted(new[1].get(app["permit_type"], []))
            if before != after:
                result["impacts"].append([app_id, "documents", ";".join(before), ";".join(after)])
            before = rules.fee_of(app, old[0])
            if before != fee:
                result["impacts"].append([app_id, "fee", str(before), str(fee)])
    return result
