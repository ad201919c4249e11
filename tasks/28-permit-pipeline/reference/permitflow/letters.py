"""``status``: the status of every application and its notice letter (STATUS.md)."""

import string
from pathlib import Path

from permitflow import reports

TEMPLATE = string.Template(
    (Path(__file__).parent / "templates/notice.txt").read_text(encoding="utf-8")
)
REVIEW = {"parse_error", "parcel_not_found", "owner_mismatch", "zoning_incompatible",
          "unresolved_duplicate"}  # fmt: skip
LINES = {
    "parse_error": "Unreadable field: {detail}",
    "parcel_not_found": "Parcel {detail} is not in the parcel registry",
    "owner_mismatch": "Owner does not match the registered owner of the parcel",
    "zoning_incompatible": "Permit type {permit_type} is not allowed in zone {detail}",
    "document_missing": "Missing document: {detail}",
    "document_expired": "Expired document: {detail}",
    "unresolved_duplicate": "Possible duplicate of application {detail}",
}


def status_of(codes):
    if codes & REVIEW:
        return "manual_review"
    if codes & {"document_missing", "document_expired"}:
        return "needs_information"
    return "approved"


def letter(app, issues, status, fee):
    lines = [LINES[code].format(detail=detail, permit_type=app["permit_type"])
             for code, detail in issues if code != "fee_unpaid"]  # fmt: skip
    listed = "".join(f"- {line}\n" for line in lines)
    return TEMPLATE.substitute(
        application_id=app["application_id"], permit_type=app["permit_type"] or "",
        parcel_id=app["parcel_id"] or "", status=status,
        issues=f"Outstanding issues:\n{listed}" if lines else "Outstanding issues: none\n",
        fee="to be determined" if fee is None else f"USD {fee[1]}",
    )  # fmt: skip


def write_all(output, result):
    folder = output / "letters"
    folder.mkdir(exist_ok=True)
    rows = []
    for app in result["applications"]:
        app_id = app["application_id"]
        issues = result["issues"][app_id]
        codes = {code for code, _ in issues}
        fee = result["fees"].get(app_id)
        status = status_of(codes)
        rows.append([app_id, status, ";".join(sorted(codes)), "" if fee is None else fee[1]])
        text = letter(app, issues, status, fee)
        (folder / f"{app_id}.txt").write_text(text, encoding="utf-8", newline="\n")
    reports.write_csv(
        output / "status.csv", ["application_id", "status", "issues", "fee_due"], rows
    )
