"""Read the portal (JSON) and counter (XML) exports and the reference files into the database."""

import csv
import datetime as dt
import json
import re
import xml.etree.ElementTree as ET
from decimal import Decimal

from permitflow import corrections, db

AMOUNT = re.compile(r"(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d{1,2})?")
PORTAL_DATE = re.compile(r"(\d{4})-(\d{2})-(\d{2})")
COUNTER_DATE = re.compile(r"(\d{2})\.(\d{2})\.(\d{4})")
CENT = Decimal("0.01")


def parse_amount(value):
    """The exact amount of a JSON number or amount text, or None when it is not one."""
    if isinstance(value, str) and AMOUNT.fullmatch(value):
        return Decimal(value.replace(",", "")).quantize(CENT)
    if isinstance(value, int | Decimal) and not isinstance(value, bool) and value >= 0:
        number = Decimal(value)
        return number.quantize(CENT) if number == number.quantize(CENT) else None
    return None


def parse_date(value, pattern, order):
    """The ISO form of a date written in its system's form, or None."""
    match = pattern.fullmatch(value) if isinstance(value, str) else None
    if match is None:
        return None
    year, month, day = (int(match.group(i)) for i in order)
    try:
        return dt.date(year, month, day).isoformat()
    except ValueError:
        return None


def record(fields, source, pattern, order):
    """A normalized application record; ``unreadable`` lists the fields that failed."""
    app = {"application_id": int(fields["id"]), "revision": int(fields["revision"]),
           "source": source, "documents": sorted(set(fields["documents"])), "unreadable": []}  # fmt: skip
    for name in ("permit_type", "parcel_id", "owner_name"):
        app[name] = fields[name] if isinstance(fields[name], str) and fields[name] else None
    app["submitted"] = parse_date(fields["submitted"], pattern, order)
    app["valuation"] = parse_amount(fields["valuation"])
    app["fee_paid"] = Decimal("0.00") if fields["fee_paid"] is None else parse_amount(fields["fee_paid"])
    app["closed_on"] = "" if fields["closed_on"] is None else parse_date(fields["closed_on"], pattern, order)
    app["unreadable"] = [name for name in db.COLUMNS if app.get(name, "") is None]
    return app


def portal_records(path):
    doc = json.loads(path.read_text(encoding="utf-8"), parse_float=Decimal)
    for item in doc["applications"]:
        fields = {
            "id": item["application_id"],
            "revision": item["revision"],
            "submitted": item.get("submitted"),
            "permit_type": item.get("permit", {}).get("type"),
            "parcel_id": item.get("site", {}).get("parcel_id"),
            "owner_name": item.get("owner", {}).get("name"),
            "valuation": item.get("project", {}).get("valuation"),
            "fee_paid": item["payment"].get("amount") if "payment" in item else None,
            "documents": item.get("documents", []),
            "closed_on": item.get("closed_on"),
        }
        yield record(fields, "portal", PORTAL_DATE, (1, 2, 3))


def counter_records(path):
    for item in ET.parse(path).getroot().iter("application"):
        fields = {
            "id": item.get("id"),
            "revision": item.get("revision"),
            "submitted": item.findtext("received"),
            "permit_type": item.findtext("permit_type"),
            "parcel_id": item.findtext("parcel"),
            "owner_name": item.findtext("owner"),
            "valuation": item.findtext("valuation"),
            "fee_paid": item.findtext("fee_paid"),
            "documents": [a.get("ref") for a in item.iter("attachment")],
            "closed_on": item.findtext("closed"),
        }
        yield record(fields, "counter", COUNTER_DATE, (3, 2, 1))


def read_csv(path):
    with path.open(encoding="utf-8", newline="") as stream:
        return list(csv.DictReader(stream))


def reference_data(inputs):
    """The registries, rules, attachments and (when present) the ordinance amendment."""
    data = {
        "parcels": {r["parcel_id"]: r for r in read_csv(inputs / "registry/parcels.csv")},
        "owners": {r["owner_id"]: r["name"] for r in read_csv(inputs / "registry/owners.csv")},
        "zoning": json.loads((inputs / "rules/zoning.json").read_text(encoding="utf-8"))["zones"],
        "fees": {r["permit_type"]: r for r in read_csv(inputs / "rules/fees.csv")},
        "required": {},
        "attachments": {r["attachment_id"]: r for r in read_csv(inputs / "attachments.csv")},
    }
    for row in read_csv(inputs / "rules/documents.csv"):
        data["required"].setdefault(row["permit_type"], []).append(row["doc_type"])
    update = inputs / "ordinance_update.json"
    if update.exists():
        data["ordinance"] = json.loads(update.read_text(encoding="utf-8"))
    return data


def load(inputs, database):
    """``python -m permitflow import INPUTS DATABASE``."""
    apps = {}
    folder = inputs / "applications"
    files = [(p, portal_records) for p in folder.glob("portal/*.json")]
    files += [(p, counter_records) for p in folder.glob("counter/*.xml")]
    for path, reader in sorted(files):
        for app in reader(path):
            known = apps.get(app["application_id"])
            if known is None or app["revision"] > known["revision"]:
                apps[app["application_id"]] = app
    data = reference_data(inputs)
    batch = inputs / "correction_batch"
    if batch.is_dir():
        corrections.apply(apps, batch, data)
    db.create(database, [apps[k] for k in sorted(apps)], data)
