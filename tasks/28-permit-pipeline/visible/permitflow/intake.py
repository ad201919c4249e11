"""Reading the intake exports.

The portal writes one JSON file per month (``inputs/applications/portal/*.json``); the
counter writes XML (``inputs/applications/counter/*.xml``).
"""

import json
import re
import sys
from datetime import datetime

from permitflow import db

PARCEL_ID = re.compile(r"^P-\d{6}$")


class BadRecord(ValueError):
    """Raised when a record cannot be imported."""


def parse_amount(value):
    """An amount as written by the portal ("12340.00" or a number)."""
    if value is None:
        return 0.0
    return float(str(value).replace(",", ""))


def parse_date(text):
    return datetime.strptime(text, "%Y-%m-%d").date().isoformat()


def portal_record(item):
    """One application of a portal export, as the database stores it."""
    parcel = item["site"]["parcel_id"].strip()
    if not PARCEL_ID.match(parcel):
        raise BadRecord(f"application {item['application_id']}: bad parcel id {parcel!r}")
    return {
        "application_id": str(item["application_id"]),
        "revision": item.get("revision", 1),
        "source": "portal",
        "submitted": parse_date(item["submitted"]),
        "permit_type": item["permit"]["type"],
        "parcel_id": parcel,
        "owner_name": item["owner"]["name"].strip(),
        "valuation": parse_amount(item["project"]["valuation"]),
        "fee_paid": parse_amount(item.get("payment", {}).get("amount")),
        "closed_on": item.get("closed_on") or "",
        "documents": item.get("documents", []),
    }


def load_all(conn, inputs):
    """Import every export under ``inputs``; returns the number of applications stored."""
    count = 0
    for path in sorted(inputs.glob("applications/portal/*.json")):
        for item in json.loads(path.read_text(encoding="utf-8"))["applications"]:
            try:
                db.insert_application(conn, portal_record(item))
                count += 1
            except (BadRecord, KeyError, ValueError) as exc:
                print(f"skipped: {exc}", file=sys.stderr)
    # TODO: the counter's XML exports (inputs/applications/counter/*.xml)
    # TODO: registries, rules and attachment metadata, so that `validate` needs only the db
    conn.commit()
    return count
