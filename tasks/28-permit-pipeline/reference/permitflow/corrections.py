"""The intake desk's correction batch: owner corrections, then duplicate links (CORRECTIONS.md)."""

import csv
import json
from decimal import Decimal


def apply(apps, batch):
    """Correct owners and merge or flag duplicates in ``apps`` (id -> application); the merge
    and unresolved-duplicate tables for the database."""
    with (batch / "owner_corrections.csv").open(encoding="utf-8", newline="") as stream:
        for row in csv.DictReader(stream):
            app = apps.get(int(row["application_id"]))
            if app is not None and int(row["revision"]) > app["revision"]:
                app["owner_name"] = row["owner_name"]
                app["revision"] = int(row["revision"])
                app["unreadable"] = [f for f in app["unreadable"] if f != "owner_name"]
    links = json.loads((batch / "duplicate_links.json").read_text(encoding="utf-8"))["links"]
    merges, unresolved = [], []
    for group in groups(links):
        members = [apps[i] for i in group]
        if len({(a["parcel_id"], a["permit_type"]) for a in members}) > 1:
            unresolved += [[i, ";".join(str(j) for j in group if j != i)] for i in group]
            continue
        survivor = members.pop(0)
        for other in members:
            survivor["documents"] |= other["documents"]
            survivor["fee_paid"] = str(Decimal(survivor["fee_paid"]) + Decimal(other["fee_paid"]))
            merges.append([survivor["application_id"], other["application_id"]])
            del apps[other["application_id"]]
    return {"merges": (["survivor_id", "merged_id"], merges),
            "unresolved": (["application_id", "others"], unresolved)}  # fmt: skip


def groups(links):
    """The linked applications as groups (connected components), each sorted by ID."""
    parent = {}

    def root(node):
        while parent.setdefault(node, node) != node:
            node = parent[node]
        return node

    for link in links:
        parent[root(link["application_id"])] = root(link["duplicate_of"])
    found = {}
    for node in parent:
        found.setdefault(root(node), []).append(node)
    return [sorted(group) for group in found.values()]
