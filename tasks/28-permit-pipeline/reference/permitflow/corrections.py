"""The intake desk's correction batch: owner corrections, then duplicate links."""

import csv
import json


def apply(apps, batch, data):
    """Correct owners and merge or flag duplicates in ``apps`` (id -> application)."""
    with (batch / "owner_corrections.csv").open(encoding="utf-8", newline="") as stream:
        for row in csv.DictReader(stream):
            app = apps.get(int(row["application_id"]))
            if app is not None and int(row["revision"]) > app["revision"]:
                app["owner_name"] = row["owner_name"]
                app["revision"] = int(row["revision"])
                app["unreadable"] = [f for f in app["unreadable"] if f != "owner_name"]
    links = json.loads((batch / "duplicate_links.json").read_text(encoding="utf-8"))["links"]
    data["merges"], data["unresolved"] = [], {}
    for group in groups(links):
        members = [apps[i] for i in group]
        if len({(a["parcel_id"], a["permit_type"]) for a in members}) == 1:
            survivor = members[0]
            for other in members[1:]:
                survivor["documents"] = sorted(set(survivor["documents"]) | set(other["documents"]))
                survivor["fee_paid"] += other["fee_paid"]
                data["merges"].append([survivor["application_id"], other["application_id"]])
                del apps[other["application_id"]]
        else:
            for app_id in group:
                data["unresolved"][str(app_id)] = ";".join(str(i) for i in group if i != app_id)


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
    return sorted(sorted(group) for group in found.values())
