"""The parcel and owner registries."""

import csv


def load_parcels(path):
    """parcel_id -> row of parcels.csv."""
    with open(path, encoding="utf-8", newline="") as stream:
        return {row["parcel_id"]: row for row in csv.DictReader(stream)}


def load_owners(path):
    """owner_id -> name."""
    with open(path, encoding="utf-8", newline="") as stream:
        return {row["owner_id"]: row["name"] for row in csv.DictReader(stream)}


def owner_matches(stated, registered):
    """Whether the owner named on an application is the registered owner."""
    return stated.strip().lower() == registered.strip().lower()
