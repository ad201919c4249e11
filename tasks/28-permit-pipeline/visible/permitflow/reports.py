"""CSV reports written by ``validate``."""

import csv

APPLICATION_COLUMNS = [
    "application_id",
    "revision",
    "source",
    "submitted",
    "permit_type",
    "parcel_id",
    "owner_name",
    "valuation",
    "fee_paid",
    "documents",
    "closed_on",
]


def write_csv(path, header, rows):
    with open(path, "w", encoding="utf-8", newline="") as stream:
        writer = csv.writer(stream)
        writer.writerow(header)
        writer.writerows(rows)


def write_applications(path, apps):
    rows = [[app.get(c, "") for c in APPLICATION_COLUMNS] for app in apps]
    write_csv(path, APPLICATION_COLUMNS, rows)


def write_issues(path, issues):
    write_csv(path, ["application_id", "code", "detail"], issues)


def write_fees(path, fees):
    write_csv(
        path, ["application_id", "permit_type", "valuation", "fee", "fee_paid", "fee_due"], fees
    )
