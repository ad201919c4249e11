"""Reference solution of the pantry-ledger example (all three stages), stdlib only."""

from __future__ import annotations

import argparse
import csv
import json
from pathlib import Path


def read_rows(path: Path) -> list[dict[str, str]]:
    if not path.is_file():
        return []
    with open(path, newline="", encoding="utf-8") as stream:
        return list(csv.DictReader(stream))


def write_rows(path: Path, header: list[str], rows: list[dict[str, object]]) -> None:
    with open(path, "w", newline="", encoding="utf-8") as stream:
        writer = csv.DictWriter(stream, header, lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("inputs", type=Path)
    parser.add_argument("--output", type=Path, required=True)
    args = parser.parse_args()
    stock: dict[str, int] = {}
    for row in read_rows(args.inputs / "movements.csv"):
        stock[row["item"]] = stock.get(row["item"], 0) + int(row["qty"])
    rejected = []
    for row in read_rows(args.inputs / "returns.csv"):
        if row["item"] in stock:
            stock[row["item"]] += int(row["qty"])
        else:
            rejected.append(row)
    args.output.mkdir(parents=True, exist_ok=True)
    rows = [{"item": item, "on_hand": stock[item]} for item in sorted(stock)]
    write_rows(args.output / "stock.csv", ["item", "on_hand"], rows)
    write_rows(args.output / "rejected.csv", ["date", "item", "qty"], rejected)
    policy_path = args.inputs / "policy.json"
    thresholds = {}
    if policy_path.is_file():
        thresholds = json.loads(policy_path.read_text(encoding="utf-8"))["thresholds"]
    reorder = [
        {"item": item, "on_hand": stock[item], "threshold": limit, "shortfall": limit - stock[item]}
        for item, limit in thresholds.items()
        if item in stock and stock[item] < limit
    ]
    reorder.sort(key=lambda r: (-int(r["shortfall"]), r["item"]))
    header = ["item", "on_hand", "threshold", "shortfall"]
    write_rows(args.output / "reorder.csv", header, reorder)


if __name__ == "__main__":
    main()
