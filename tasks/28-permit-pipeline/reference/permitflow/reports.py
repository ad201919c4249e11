"""The CSV outputs of ``validate``."""

import csv


def write_csv(path, header, rows):
    with path.open("w", encoding="utf-8", newline="") as stream:
        writer = csv.writer(stream, lineterminator="\n")
        writer.writerow(header)
        writer.writerows(rows)


def write_all(output, result):
    apps = result["applications"]
    write_csv(
        output / "applications.csv",
        ["application_id", "revision", "source", "submitted", "permit_type", "parcel_id",
         "owner_name", "valuation", "fee_paid", "documents", "closed_on"],
        [[a["application_id"], a["revision"], a["source"], a["submitted"], a["permit_type"],
          a["parcel_id"], a["owner_name"], a["valuation"], a["fee_paid"],
          ";".join(a["documents"]), a["closed_on"]] for a in apps],
    )  # fmt: skip
    write_csv(
        output / "validation_issues.csv",
        ["application_id", "code", "detail"],
        [
            [a["application_id"], *issue]
            for a in apps
            for issue in result["issues"][a["application_id"]]
        ],
    )
    write_csv(
        output / "fees.csv",
        ["application_id", "permit_type", "valuation", "fee", "fee_paid", "fee_due"],
        [[a["application_id"], a["permit_type"], a["valuation"], fee, a["fee_paid"], due]
         for a in apps if a["application_id"] in result["fees"]
         for fee, due in [result["fees"][a["application_id"]]]],
    )  # fmt: skip
    write_csv(output / "ordinance_impacts.csv", ["application_id", "field", "before", "after"],
              result["impacts"])  # fmt: skip
    write_csv(output / "merges.csv", ["survivor_id", "merged_id"], result["merges"])
