"""Zoning, document and fee rules (inputs/rules/)."""

import csv
import json


def load_zoning(path):
    """zone -> permit types allowed there."""
    with open(path, encoding="utf-8") as stream:
        return json.load(stream)["zones"]


def load_fee_table(path):
    with open(path, encoding="utf-8", newline="") as stream:
        return {row["permit_type"]: row for row in csv.DictReader(stream)}


def load_required_documents(path):
    """permit type -> required document types."""
    required = {}
    with open(path, encoding="utf-8", newline="") as stream:
        for row in csv.DictReader(stream):
            required.setdefault(row["permit_type"], []).append(row["doc_type"])
    return required


def fee(row, valuation):
    """The fee of an application of valuation ``valuation`` under the fee-table row ``row``."""
    amount = float(row["base_fee"]) + float(row["per_1000"]) * valuation / 1000
    return round(max(amount, float(row["minimum_fee"])), 2)
