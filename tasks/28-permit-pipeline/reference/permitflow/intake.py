"""Read the portal (JSON) and counter (XML) exports and the reference files into the database."""

import csv
import datetime as dt
import json
import re
import xml.etree.ElementTree as ET
from decimal import Decimal

from permitflow import corrections, db

AMOUNT = re.compile(r"(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d{1,2})?")
CENT = Decimal("0.01")
PORTAL = ("portal", r"\d{4}-\d\d-\d\d", "%Y-%m-%d")
COUNTER = ("counter", r"\d\d\.\d\d\.\d{4}", "%d.%m.%Y")
FEE_COLUMNS = ["permit_type", "base_fee", "per_1000", "minimum_fee"]


def parse_amount(value):
    """The exact amount (text) of a JSON number or amount text, or None when it is not one."""
    if isinstance(value, str) and AMOUNT.fullmatch(value):
        return str(Decimal(value.replace(",", "")).quantize(CENT))
    if isinstance(value, Decimal) and value >= 0 and value == value.quantize(CENT):
        return str(value.quantize(CENT))
    return None


def parse_date(value, system):
    """The ISO form of a date written in its system's form, or None."""
    if not isinstance(value, str) or not re.fullmatch(system[1], value):
        return None
    try:
        return dt.datetime.strptime(value, system[2]).date().isoformat()
    except ValueError:
        return None


def record(fields, system):
    """A normalized application record; ``unreadable`` lists the fields that failed."""
    app = {
        "application_id": int(fields["id"]),
        "revision": int(fields["revision"]),
        "source": system[0],
        "submitted": parse_date(fields["submitted"], system),
        "valuation": parse_amount(fields["valuation"]),
        "fee_paid": "0.00" if fields["fee_paid"] is None else parse_amount(fields["fee_paid"]),
        "closed_on": "" if fields["closed_on"] is None else parse_date(fields["closed_on"], system),
        "documents": set(fields["documents"]),
    }
    for name in ("permit_type", "parcel_id", "owner_name"):
        app[name] = fields[name] or None
    app["unreadable"] = [name for name in db.COLUMNS if app[name] is None]
    return app


def portal_records(path):
    for item in json.loads(
        path.read_text(encoding="utf-8"), parse_float=Decimal, parse_int=Decimal
    )["applications"]:
        fields = {
            "id": item["application_id"],
            "revision": item["revision"],
            "submitted": item.get("submitted"),
            "permit_type": item["permit"].get("type"),
            "parcel_id": item["site"].get("parcel_id"),
            "owner_name": item.get("owner", {}).get("name"),
            "valuation": item["project"].get("valuation"),
            "fee_paid": item.get("payment", {}).get("amount"),
            "documents": item["documents"],
            "closed_on": item.get("closed_on"),
        }
        yield record(fields, PORTAL)


def counter_records(path):
    for item in ET.parse(path).getroot():
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
        yield record(fields, COUNTER)


def read_csv(path, columns):
    with path.open(encoding="utf-8", newline="") as stream:
        return columns, [[row[c] for c in columns] for row in csv.DictReader(stream)]


def rule_tables(inputs):
    """The fee and document rules, as given and as the ordinance amends them (when present)."""
    fees = {row[0]: row for row in read_csv(inputs / "rules/fees.csv", FEE_COLUMNS)[1]}
    required = {}
    for permit_type, doc_type in read_csv(
        inputs / "rules/documents.csv", ["permit_type", "doc_type"]
    )[1]:
        required.setdefault(permit_type, []).append(doc_type)
    amended_fees, amended_required, effective = dict(fees), dict(required), []
    update = inputs / "ordinance_update.json"
    if update.exists():
        amendment = json.loads(update.read_text(encoding="utf-8"))
        amended_fees.update(
            (row["permit_type"], [row[c] for c in FEE_COLUMNS]) for row in amendment["fees"]
        )
        amended_required.update(amendment["documents"])
        effective = [["effective_date", amendment["effective_date"]]]
    rulesets = (("given", fees, required), ("amended", amended_fees, amended_required))
    return {
        "fees": (
            ["ruleset", *FEE_COLUMNS],
            [[name, *row] for name, f, _ in rulesets for row in f.values()],
        ),
        "required": (
            ["ruleset", "permit_type", "doc_type"],
            [[name, t, d] for name, _, r in rulesets for t, docs in r.items() for d in docs],
        ),
        "settings": (["name", "value"], effective),
    }


def reference_tables(inputs):
    zones = json.loads((inputs / "rules/zoning.json").read_text(encoding="utf-8"))["zones"]
    return {
        "parcels": read_csv(inputs / "registry/parcels.csv", ["parcel_id", "zone", "owner_id"]),
        "owners": read_csv(inputs / "registry/owners.csv", ["owner_id", "name"]),
        "zoning": (["zone", "permit_type"], [[z, t] for z, types in zones.items() for t in types]),
        "attachments": read_csv(
            inputs / "attachments.csv", ["attachment_id", "doc_type", "expires_on"]
        ),
        **rule_tables(inputs),
    }


def load(inputs, database):
    """``python -m permitflow import INPUTS DATABASE``."""
    apps = {}
    folder = inputs / "applications"
    files = [(p, portal_records) for p in folder.glob("portal/*.json")]
    files += [(p, counter_records) for p in folder.glob("counter/*.xml")]
    for path, reader in files:
        for app in reader(path):
            known = apps.get(app["application_id"])
            if known is None or app["revision"] > known["revision"]:
                apps[app["application_id"]] = app
    tables = reference_tables(inputs)
    tables["merges"] = (["survivor_id", "merged_id"], [])
    tables["unresolved"] = (["application_id", "others"], [])
    batch = inputs / "correction_batch"
    if batch.is_dir():
        tables.update(corrections.apply(apps, batch))
    db.create(database, apps.values(), tables)
